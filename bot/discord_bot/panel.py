"""The private panel of one seat: its hand, then controls offering only the legal actions.

Generic over the games: the table service's ``legal(t, seat)`` lists the actions. Actions
naming one card (plays, one-card bids) become select options, one option per distinct
card (identical Arba'a Turub cards once, with their count); when more than 25 distinct
cards are legal there is one select per suit (at most four). When a card has variants (a
leader's signal, Tarabish's bella) choosing it shows a button per variant. Truf's
multi-card bids are a multi-select (1 to 3 cards). Every other action is a button.
"""

from __future__ import annotations

import io
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import discord

from bot.discord_bot.components import TableButton, TableSelect, encode_action
from bot.discord_bot.texts import (
    action_text,
    card_text,
    hand_lines,
    plain_name,
    seat_name,
    suit_text,
    team_of,
    trick_text,
)
from bot.service import TableService
from games.actions import Action
from games.cards import SUIT_NAMES, SUITS
from games.registry import GAMES

MAX_OPTIONS = 25
MAX_ROWS = 5


@dataclass
class Panel:
    """What to send or edit: text, components, and the hand picture (when images are on)."""

    content: str
    view: discord.ui.View
    files: list[discord.File] = field(default_factory=list)
    to_act: bool = False
    version: int = 0
    legal_key: str = ""
    """The legal actions offered, as the ``state`` event lists them (JSON text)."""

    def edit_kwargs(self) -> dict[str, Any]:
        return {"content": self.content, "view": self.view,
                "attachments": list(self.files)}

    def send_kwargs(self) -> dict[str, Any]:
        out: dict[str, Any] = {"content": self.content, "view": self.view}
        if self.files:
            out["files"] = list(self.files)
        return out


def _card_of(action: Action) -> str | None:
    if action.type in ("play", "bid") and action.card is not None:
        return action.card
    return None


def _base(action: Action) -> Action:
    """The plain form of a card action (no signal, no bella)."""
    return Action(action.type, card=action.card)


def variants(legal: Sequence[Action], chosen: Action) -> list[Action]:
    """The legal actions of the same type naming the same card as ``chosen``."""
    return [a for a in legal if a.type == chosen.type and a.card == chosen.card]


def build_panel(service: TableService, table_id: int, seat: int, *, images: bool = False,
                note: str = "", pick: Action | None = None) -> Panel:
    """The panel of ``seat`` now. ``pick``: a card chosen whose variants are to be offered
    as buttons (the leader's signal, bella)."""
    info = service.info(table_id)
    state = service.state(table_id, seat).data
    view: dict[str, Any] = state.get("view") or {}
    version = int(state.get("version", 0))
    legal = service.legal(table_id, seat)
    title = GAMES[info.game].title
    team = team_of(info.teams, seat)
    names = [plain_name(s, i) for i, s in enumerate(info.seats)]
    hand = list(view.get("hand") or [])
    lines = [f"**{title}** — table {info.id}, deal {info.deal + 1} · your seat `{seat}`"
             + (f" (team {team})" if team else "")]
    if note:
        lines.append(note)
    lines.append(f"**Your hand** ({len(hand)} cards):")
    lines.extend(hand_lines(hand) or ["(no cards)"])
    if view.get("trump"):
        lines.append(f"Trump: {suit_text(view['trump'])}")
    lines.append(trick_text(view, names))
    to_act = list(state.get("to_act") or [])
    ui = discord.ui.View(timeout=None)
    if info.status != "playing":
        lines.append("The match is over." if info.status == "finished" else
                     "The table is closed.")
    elif legal:
        lines.append("**Your turn** — choose below.")
        _controls(ui, table_id, version, legal, hand, pick)
    else:
        waiting = ", ".join(seat_name(info.seats[s], s) for s in to_act) or "nobody"
        lines.append(f"Waiting for {waiting}.")
        ui.add_item(TableButton("h", table_id, 0, label="Refresh",
                                style=discord.ButtonStyle.secondary))
    files: list[discord.File] = []
    if images and hand:
        from bot.render import render_hand

        lit = {c for a in legal if (c := _card_of(a)) is not None} if legal else None
        png = render_hand(hand, lit)
        files.append(discord.File(io.BytesIO(png), filename="hand.png"))
    content = "\n".join(lines)
    key = json.dumps([a.to_json() for a in legal], sort_keys=True)
    return Panel(content[:1990], ui, files, bool(legal), version, key)


def _controls(ui: discord.ui.View, table_id: int, version: int, legal: Sequence[Action],
              hand: Sequence[str], pick: Action | None) -> None:
    if pick is not None:
        for a in variants(legal, pick)[:20]:
            ui.add_item(TableButton("a", table_id, version, encode_action(a),
                                    label=action_text(a), style=discord.ButtonStyle.primary))
        ui.add_item(TableButton("h", table_id, 0, label="Back"))
        return
    cards: dict[str, Action] = {}
    multi: list[Action] = []
    buttons: list[Action] = []
    for a in legal:
        card = _card_of(a)
        if card is not None:
            cards.setdefault(card, _base(a))
        elif a.type == "bid" and a.cards:
            multi.append(a)
        else:
            buttons.append(a)
    row = 0
    counts: dict[str, int] = {}
    for c in hand:
        counts[c] = counts.get(c, 0) + 1
    order = {c: i for i, c in enumerate(hand)}
    ordered = sorted(cards, key=lambda c: order.get(c, 99))
    if ordered:
        kind = "Bid" if next(iter(cards.values())).type == "bid" else "Play"
        groups: list[tuple[str, list[str]]]
        if len(ordered) <= MAX_OPTIONS:
            groups = [("all", ordered)]
        else:
            by_suit: dict[str, list[str]] = {}
            for c in ordered:
                by_suit.setdefault(c[1], []).append(c)
            groups = [(s, cs[:MAX_OPTIONS]) for s, cs in by_suit.items()]
        for arg, group in groups[:4]:
            options = []
            for c in group:
                n = counts.get(c, 1)
                label = card_text(c) + (f" ×{n}" if n > 1 else "")
                options.append(discord.SelectOption(label=label,
                                                    value=encode_action(cards[c])))
            where = "" if arg == "all" else f" — {SUIT_NAMES[SUITS.index(arg)]}"
            ui.add_item(TableSelect("s", table_id, version, arg, options=options,
                                    placeholder=f"{kind} a card{where}", row=row))
            row += 1
    if multi and row < MAX_ROWS:
        bid_cards: list[str] = []
        for a in multi:
            for c in a.cards or ():
                if c not in bid_cards:
                    bid_cards.append(c)
        bid_cards.sort(key=lambda c: order.get(c, 99))
        options = [discord.SelectOption(label=card_text(c), value=c)
                   for c in bid_cards[:MAX_OPTIONS]]
        top = max(len(a.cards or ()) for a in multi)
        ui.add_item(TableSelect("m", table_id, version, "bid", options=options,
                                placeholder=f"Bid 1 to {top} cards (secret)",
                                min_values=1, max_values=min(top, len(options)), row=row))
        row += 1
    for i, a in enumerate(buttons[: (MAX_ROWS - row) * 5]):
        style = (discord.ButtonStyle.danger if a.type == "concede"
                 else discord.ButtonStyle.primary)
        ui.add_item(TableButton("a", table_id, version, encode_action(a),
                                label=action_text(a), style=style, row=row + i // 5))
