"""Words of the Discord adapter: cards, hands, actions, seats, the lobby and the table.

Pure functions of views and table snapshots (no discord import), so they are cheap to test
and the same text is produced after a restart.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.discord_bot.safe import safe_name
from bot.service import Seat, TableInfo
from bot.words.cards import card_text, suit_text
from games.actions import Action
from games.registry import GAMES

TEAM_LETTERS = "ABCDEF"


def action_text(action: Action) -> str:
    """A player's words for an action (button labels, logs)."""
    t = action.type
    if t == "play":
        text = f"Play {card_text(action.card or '')}"
        if action.signal:
            text += f" — signal {action.signal}"
        if action.bella:
            text += " — announce bella"
        return text
    if t == "call_trump":
        return f"Trump {suit_text(action.suit)}"
    if t == "pass":
        return "Pass"
    if t == "bid":
        cards = (action.card,) if action.card else (action.cards or ())
        return "Bid " + " ".join(card_text(c) for c in cards)
    if t == "adjust":
        return f"Adjust {action.direction} {action.amount}"
    if t == "declare_runs":
        return "Declare runs"
    if t == "ask_partner":
        return "Ask partner"
    if t == "answer":
        return f"Answer {action.tricks}"
    if t == "kort":
        return "Continue (kort)" if action.cont else "Stop"
    if t == "declare_kort":
        return "Declare kort"
    if t == "concede":
        return "Concede"
    return action.label()


def seat_name(seat: Seat | None, index: int | None = None) -> str:
    """A seat for messages: a mention for humans (messages are sent without pings)."""
    if seat is None:
        return "—"
    if seat.is_ai:
        return plain_name(seat, index)
    return f"<@{seat.user_id}>" + (" (away: AI plays)" if seat.away else "")


def plain_name(seat: Seat | None, index: int | None = None) -> str:
    """A name without a mention (pictures, logs); AI players are told apart by seat."""
    if seat is None:
        return "empty"
    if seat.is_ai and index is not None:
        return f"AI {index} ({seat.level})"
    return seat.name


def display_name(seat: Seat | None, index: int) -> str:
    """A seat's name for a Discord message: the member's display name escaped for markdown
    and mentions (:func:`~bot.discord_bot.safe.safe_name`), an AI's ``AI n (level)``."""
    if seat is None or seat.is_ai:
        return plain_name(seat, index)
    return safe_name(seat.name)


def display_names(seats: Sequence[Seat | None]) -> list[str]:
    return [display_name(s, i) for i, s in enumerate(seats)]


def team_of(teams: Sequence[Sequence[int]], seat: int) -> str | None:
    if all(len(t) == 1 for t in teams):
        return None
    for i, t in enumerate(teams):
        if seat in t:
            return TEAM_LETTERS[i]
    return None


def seat_lines(info: TableInfo, *, dealer: int | None = None,
               to_act: Sequence[int] = ()) -> list[str]:
    lines = []
    for i, s in enumerate(info.seats):
        team = team_of(info.teams, i)
        tag = f" (team {team})" if team else ""
        marks = ""
        if dealer == i:
            marks += " · dealer"
        if i in to_act:
            marks += " · **to act**"
        lines.append(f"`{i}` {seat_name(s, i)}{tag}{marks}")
    return lines


def lobby_text(info: TableInfo, creator: int | None) -> str:
    title = GAMES[info.game].title
    head = f"**{title}** — table {info.id}, waiting for players"
    if info.status == "abandoned":
        head = f"**{title}** — table {info.id} was closed"
    out = [head]
    if creator:
        out.append(f"Opened by <@{creator}>.")
    out.extend(seat_lines(info))
    if info.status == "lobby":
        out.append("**Join** to take a seat, **Add AI** (search is the strongest, random the "
                   "weakest) to fill one; the host starts.")
    return "\n".join(out)


def trick_text(view: dict[str, Any], names: Sequence[str]) -> str:
    trick = view.get("trick") or {}
    cards = trick.get("cards") or []
    if not cards:
        return "Current trick: —"
    return "Current trick: " + ", ".join(f"{names[s]} {card_text(c)}" for s, c in cards)


def score_line(info: TableInfo, view: dict[str, Any]) -> str:
    """The one line under the table picture: the deal number and the view's facts other
    than trump (the picture draws trump itself), e.g. ``Deal 2 · Tricks A–B 3–1``."""
    facts = [f"{label} {text}" for label, text in view.get("facts") or []
             if not label.lower().startswith("trump")]
    return " · ".join([f"Deal {info.deal + 1}", *facts])[:120]


def table_text(info: TableInfo, view: dict[str, Any], log: Sequence[str],
               notes: Sequence[str] = ()) -> str:
    """The public table message: game, seats and teams, dealer, the view's facts (trump,
    contract or bids, tricks or points), the trick, whose turn, the last tricks."""
    title = GAMES[info.game].title
    names = display_names(info.seats)
    to_act = list(view.get("to_act") or [])
    out = [f"**{title}** — table {info.id}, deal {info.deal + 1}"]
    out.extend(seat_lines(info, dealer=view.get("dealer"), to_act=to_act))
    for label, text in view.get("facts") or []:
        out.append(f"**{label}:** {text}")
    if view.get("trump") and not any(f[0].lower().startswith("trump")
                                      for f in view.get("facts") or []):
        out.append(f"**Trump:** {suit_text(view['trump'])}")
    out.append(trick_text(view, names))
    if to_act:
        out.append("To act: " + ", ".join(seat_name(info.seats[s], s) for s in to_act))
    if log:
        out.append("Last tricks: " + " | ".join(log[-3:]))
    out.extend(notes[-3:])
    text = "\n".join(out)
    return text[:1990]


def trick_log_entry(data: dict[str, Any], names: Sequence[str]) -> str:
    """A short line for a completed trick event (its cards and winner)."""
    cards = data.get("cards") or []
    winner = data.get("winner")
    played = " ".join(card_text(c) for _, c in cards) if cards else ""
    who = names[winner] if isinstance(winner, int) and 0 <= winner < len(names) else "?"
    return f"{played} → {who}".strip()
