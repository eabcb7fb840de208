"""Words of the Discord adapter: seats, the lobby and the table message.

Pure functions of table snapshots and views (no discord import), so they are cheap to test
and the same text is produced after a restart. Every function takes the reader's
:class:`~bot.i18n.Translator` (``t``): the public message is worded in the server's
language, a private panel in the player's (:mod:`bot.discord_bot.languages`). Cards and
suits come from :mod:`bot.words.cards`, actions from :mod:`bot.words.actions`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from bot.discord_bot.drawing.safe import clean_text, safe_name
from bot.i18n import Translator
from bot.service import Seat, TableInfo
from bot.words.cards import card_text, suit_text
from bot.words.players import player_name, says_level
from bot.words.seating import seat_label
from games.registry import GAMES
from games.trick import TrickJSON
from games.view_types import GameView

TEAM_LETTERS = "ABCDEF"

CONTENT_LIMIT: Final = 2000
"""Discord's limit for a message's content."""



def clip(text: str, limit: int = CONTENT_LIMIT) -> str:
    """``text`` cut to ``limit`` characters with ``…`` (the longest translation decides
    whether a Discord limit is reached)."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def seat_name(seat: Seat | None, index: int | None, t: Translator) -> str:
    """A seat for messages: a mention for humans (messages are sent without pings)."""
    if seat is None:
        return "—"
    if seat.is_ai:
        return plain_name(seat, index, t)
    mention = f"<@{seat.user_id}>"
    if seat.away:
        return t.gettext("{player} (away: an AI plays)").format(player=mention)
    return mention


def plain_name(seat: Seat | None, index: int | None, t: Translator) -> str:
    """A name without a mention (pictures, logs): the seat's player name
    (:func:`bot.words.players.player_name`: AI players are told apart by seat). A
    member's name is cleaned to one line of visible characters
    (:func:`~bot.text_safety.clean_text`, as every name shown); a name with nothing
    visible left reads ``Seat n`` (``#<user id>`` without a seat)."""
    if seat is None:
        return t.gettext("empty")
    name = clean_text(player_name(seat, index, t))
    if name:
        return name
    return seat_label(index, t) if index is not None else f"#{seat.user_id}"


def display_name(seat: Seat | None, index: int, t: Translator) -> str:
    """A seat's name for a Discord message: the member's display name cleaned and escaped
    for markdown and mentions (:func:`~bot.discord_bot.drawing.safe.safe_name`), an AI's
    ``AI n (level)`` (:func:`bot.words.players.player_name`). A name with nothing visible
    left is the member's mention (Discord shows their name; no message lets it ping anyone
    it is not meant for)."""
    if seat is None or says_level(seat, index):
        return plain_name(seat, index, t)
    return safe_name(seat.name) or f"<@{seat.user_id}>"


def display_names(seats: Sequence[Seat | None], t: Translator) -> list[str]:
    return [display_name(s, i, t) for i, s in enumerate(seats)]


def team_of(teams: Sequence[Sequence[int]], seat: int) -> str | None:
    if all(len(team) == 1 for team in teams):
        return None
    for i, team in enumerate(teams):
        if seat in team:
            return TEAM_LETTERS[i]
    return None


def seat_lines(info: TableInfo, t: Translator, *, dealer: int | None = None,
               to_act: Sequence[int] = ()) -> list[str]:
    lines = []
    for i, s in enumerate(info.seats):
        name = seat_name(s, i, t)
        team = team_of(info.teams, i)
        line = (t.gettext("{player} (team {team})").format(player=name, team=team)
                if team else name)
        if dealer == i:
            line = t.gettext("{seat} · dealer").format(seat=line)
        if i in to_act:
            line = t.gettext("{seat} · **to act**").format(seat=line)
        lines.append(f"`{i}` {line}")
    return lines


def lobby_text(info: TableInfo, creator: int | None, t: Translator) -> str:
    title = GAMES[info.game].title
    if info.status == "abandoned":
        head = t.gettext("**{game}** — table {table} was closed")
    else:
        head = t.gettext("**{game}** — table {table}, waiting for players")
    out = [head.format(game=title, table=info.id)]
    if creator:
        out.append(t.gettext("Opened by {host}.").format(host=f"<@{creator}>"))
    out.extend(seat_lines(info, t))
    if info.status == "lobby":
        out.append(t.gettext(
            "**Join** to take a seat, **Add AI** (search is the strongest, random the "
            "weakest) to fill one; the host starts."))
    return clip("\n".join(out))


def trick_text(view: GameView | None, names: Sequence[str], t: Translator) -> str:
    cards = (view.get("trick") or {}).get("cards") or [] if view else []
    if not cards:
        return t.gettext("Current trick: —")
    played = ", ".join(t.gettext("{player} {card}").format(player=names[s], card=card_text(c))
                       for s, c in cards)
    return t.gettext("Current trick: {cards}").format(cards=played)


def _is_trump(label: str, t: Translator) -> bool:
    return label.lower().startswith(t.gettext("Trump").lower())


def score_line(info: TableInfo, view: GameView, t: Translator) -> str:
    """The one line under the table picture: the deal number and the view's facts other
    than trump (the picture draws trump itself), e.g. ``Deal 2 · Tricks A–B 3–1``."""
    facts = [f"{label} {text}" for label, text in view.get("facts") or []
             if not _is_trump(label, t)]
    deal = t.gettext("Deal {number}").format(number=t.number(info.deal + 1))
    return clip(" · ".join([deal, *facts]), 120)


def table_text(info: TableInfo, view: GameView, log: Sequence[str],
               notes: Sequence[str], t: Translator) -> str:
    """The public table message: game, seats and teams, dealer, the view's facts (trump,
    contract or bids, tricks or points), the trick, whose turn, the last tricks."""
    title = GAMES[info.game].title
    names = display_names(info.seats, t)
    to_act = list(view.get("to_act") or [])
    out = [t.gettext("**{game}** — table {table}, deal {deal}").format(
        game=title, table=info.id, deal=t.number(info.deal + 1))]
    out.extend(seat_lines(info, t, dealer=view.get("dealer"), to_act=to_act))
    facts = view.get("facts") or []
    for label, text in facts:
        out.append(f"**{label}:** {text}")
    if view.get("trump") and not any(_is_trump(f[0], t) for f in facts):
        out.append(t.gettext("**Trump:** {suit}").format(suit=suit_text(view["trump"], t)))
    out.append(trick_text(view, names, t))
    if to_act:
        out.append(t.gettext("To act: {players}").format(
            players=", ".join(seat_name(info.seats[s], s, t) for s in to_act)))
    if log:
        out.append(t.gettext("Last tricks: {tricks}").format(tricks=" | ".join(log[-3:])))
    out.extend(notes[-3:])
    return clip("\n".join(out), 1990)


def trick_log_entry(data: TrickJSON, names: Sequence[str]) -> str:
    """A short line for a completed trick event: its cards and winner (no words)."""
    cards = data.get("cards") or []
    winner = data.get("winner")
    played = " ".join(card_text(c) for _, c in cards) if cards else ""
    who = names[winner] if isinstance(winner, int) and 0 <= winner < len(names) else "?"
    return f"{played} → {who}".strip()
