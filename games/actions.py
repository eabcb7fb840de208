"""Actions: what a player does, in the engine and in game records.

An :class:`Action` is immutable and hashable, so it can be offered in ``legal_actions``,
compared, and used as a key by search players. Its JSON form is the record format of
``docs/records.md`` (``{"seat": 0, "type": "play", "card": "AS"}``); the seat is not
part of the action itself but of where it is applied.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Required, TypedDict

from games.cards import NATURAL, SUITS
from games.errors import RecordError, quote

ACTION_TYPES = (
    "call_trump",
    "pass",
    "bid",
    "adjust",
    "declare_runs",
    "play",
    "ask_partner",
    "answer",
    "kort",
    "declare_kort",
    "concede",
)


ActionRecord = TypedDict("ActionRecord", {
    "type": Required[str], "card": str, "suit": str, "cards": list[str], "signal": str,
    "bella": bool, "direction": str, "amount": int, "tricks": int, "continue": bool,
}, total=False)
ActionRecord.__doc__ = (
    "An action in the record notation of docs/records.md, without its seat "
    "(Action.record): the one wire form of an action, in records, the table service's "
    "contract and the web protocol.")


@dataclass(frozen=True, slots=True)
class Action:
    """One action. Only the fields its ``type`` uses are set.

    ``cont`` is the record field ``continue`` of a ``kort`` decision (``continue`` is a
    Python keyword).
    """

    type: str
    card: str | None = None
    suit: str | None = None
    cards: tuple[str, ...] | None = None
    signal: str | None = None
    bella: bool = False
    direction: str | None = None
    amount: int | None = None
    tricks: int | None = None
    cont: bool | None = None

    # -- constructors -------------------------------------------------------------------
    @staticmethod
    def play(card: str, *, signal: str | None = None, bella: bool = False) -> Action:
        return Action("play", card=card, signal=signal, bella=bella)

    @staticmethod
    def call_trump(suit: str) -> Action:
        return Action("call_trump", suit=suit)

    @staticmethod
    def pass_() -> Action:
        return Action("pass")

    @staticmethod
    def bid(card: str) -> Action:
        return Action("bid", card=card)

    @staticmethod
    def bid_cards(cards: tuple[str, ...]) -> Action:
        return Action("bid", cards=tuple(cards))

    @staticmethod
    def adjust(direction: str, amount: int) -> Action:
        return Action("adjust", direction=direction, amount=amount)

    @staticmethod
    def kort(cont: bool) -> Action:
        return Action("kort", cont=cont)

    @staticmethod
    def answer(tricks: int) -> Action:
        return Action("answer", tricks=tricks)

    # -- JSON ---------------------------------------------------------------------------
    def record(self) -> ActionRecord:
        """The record form without the seat (:data:`ActionRecord`)."""
        out: ActionRecord = {"type": self.type}
        if self.card is not None:
            out["card"] = self.card
        if self.suit is not None:
            out["suit"] = self.suit
        if self.cards is not None:
            out["cards"] = list(self.cards)
        if self.signal is not None:
            out["signal"] = self.signal
        if self.bella:
            out["bella"] = True
        if self.direction is not None:
            out["direction"] = self.direction
        if self.amount is not None:
            out["amount"] = self.amount
        if self.tricks is not None:
            out["tricks"] = self.tricks
        if self.cont is not None:
            out["continue"] = self.cont
        return out

    def to_json(self, seat: int | None = None) -> dict[str, Any]:
        """The record form (:meth:`record`); with ``seat`` the ``seat`` field comes
        first."""
        out: dict[str, Any] = {} if seat is None else {"seat": seat}
        out.update(self.record())
        return out

    def label(self) -> str:
        """A short human label (``"play AS (strong)"``)."""
        parts = [self.type.replace("_", " ")]
        for value in (self.card, self.suit, " ".join(self.cards) if self.cards else None):
            if value:
                parts.append(value)
        if self.direction is not None:
            parts.append(f"{self.direction} {self.amount}")
        if self.tricks is not None:
            parts.append(str(self.tricks))
        if self.cont is not None:
            parts.append("continue" if self.cont else "stop")
        if self.signal:
            parts.append(f"({self.signal})")
        if self.bella:
            parts.append("(bella)")
        return " ".join(parts)


PLAYS: tuple[Action, ...] = tuple(Action.play(NATURAL[c % 13] + SUITS[c // 13])
                                  for c in range(52))
"""``PLAYS[c]``: the plain ``play`` of card int ``c``, built once: ``legal_actions`` hands
out these shared objects instead of building an action per legal card."""


_FIELDS: dict[str, frozenset[str]] = {
    "call_trump": frozenset({"suit"}),
    "pass": frozenset(),
    "bid": frozenset({"card", "cards"}),
    "adjust": frozenset({"direction", "amount"}),
    "declare_runs": frozenset(),
    "play": frozenset({"card", "signal", "bella"}),
    "ask_partner": frozenset(),
    "answer": frozenset({"tricks"}),
    "kort": frozenset({"continue"}),
    "declare_kort": frozenset(),
    "concede": frozenset(),
}


def _card_text(value: object, where: str) -> str:
    if not isinstance(value, str) or len(value) != 2 or value[0] not in NATURAL or (
        value[1] not in SUITS
    ):
        raise RecordError(f"{where}: {quote(value)} is not a card (rank then suit, e.g. 'TS')")
    return value


def action_from_json(obj: object, where: str) -> tuple[int, Action]:
    """Parse one record action ``{"seat": s, "type": t, ...}`` into ``(seat, Action)``.

    Raises :class:`RecordError` naming ``where`` and the bad field. Whether the action is
    *legal* is the game's business, not this parser's.
    """
    if not isinstance(obj, Mapping):
        raise RecordError(f"{where}: an action must be a JSON object")
    seat = obj.get("seat")
    if not isinstance(seat, int) or isinstance(seat, bool):
        raise RecordError(f"{where}, field 'seat': must be a seat number")
    kind = obj.get("type")
    if not isinstance(kind, str) or kind not in _FIELDS:
        raise RecordError(f"{where}, field 'type': {quote(kind)} is not an action type "
                          f"({', '.join(ACTION_TYPES)})")
    assert isinstance(kind, str)
    extra = set(obj) - {"seat", "type"} - _FIELDS[kind]
    if extra:
        raise RecordError(f"{where}: field {quote(sorted(extra)[0])} does not belong to {kind!r}")
    fields: dict[str, Any] = {}
    if "card" in obj:
        fields["card"] = _card_text(obj["card"], f"{where}, field 'card'")
    if "cards" in obj:
        raw = obj["cards"]
        if not isinstance(raw, list) or not raw:
            raise RecordError(f"{where}, field 'cards': must be a non-empty list of cards")
        fields["cards"] = tuple(_card_text(c, f"{where}, field 'cards'") for c in raw)
    if kind in ("play",) and "card" not in obj:
        raise RecordError(f"{where}: a play needs field 'card'")
    if kind == "bid" and ("card" in obj) == ("cards" in obj):
        raise RecordError(f"{where}: a bid needs field 'card' (or 'cards' for multi-card bids)")
    if kind == "call_trump":
        suit = obj.get("suit")
        if not isinstance(suit, str) or len(suit) != 1 or suit not in SUITS:
            raise RecordError(f"{where}, field 'suit': {quote(suit)} is not a suit (S, H, D, C)")
        fields["suit"] = suit
    if "signal" in obj:
        if not isinstance(obj["signal"], str):
            raise RecordError(f"{where}, field 'signal': must be a string")
        fields["signal"] = obj["signal"]
    if "bella" in obj:
        if not isinstance(obj["bella"], bool):
            raise RecordError(f"{where}, field 'bella': must be true or false")
        fields["bella"] = obj["bella"]
    if kind == "adjust":
        direction, amount = obj.get("direction"), obj.get("amount")
        if direction not in ("up", "down"):
            raise RecordError(f"{where}, field 'direction': must be 'up' or 'down'")
        if not isinstance(amount, int) or isinstance(amount, bool):
            raise RecordError(f"{where}, field 'amount': must be a whole number")
        fields["direction"], fields["amount"] = direction, amount
    if kind == "answer":
        tricks = obj.get("tricks")
        if not isinstance(tricks, int) or isinstance(tricks, bool):
            raise RecordError(f"{where}, field 'tricks': must be a whole number 0-4")
        fields["tricks"] = tricks
    if kind == "kort":
        cont = obj.get("continue")
        if not isinstance(cont, bool):
            raise RecordError(f"{where}, field 'continue': must be true or false")
        fields["cont"] = cont
    return seat, Action(kind, **fields)
