"""The types of every game's view: :class:`CommonView` (the keys every game shares, built by
:func:`games.views.common_view`) and one TypedDict per game extending it; :data:`GameView`
is any of them. Front ends read views through these types only (``docs/records.md`` and
:mod:`games.views` describe the keys); the web table's schema is generated from them
(``python -m bot.contract``). Pure types: this module imports no game. A front end tells
the views apart by ``game`` with the guards (:func:`is_truf`, …), which mypy understands.
"""

from __future__ import annotations

from typing import TypedDict, TypeGuard

from games.trick import CurrentTrickJSON, TrickJSON


class CommonView(TypedDict):
    """The keys every game's view holds."""

    game: str
    seat: int | None
    players: int
    teams: list[list[int]]
    dealer: int
    phase: str
    to_act: list[int]
    trump: str | None
    hand: list[str]
    hand_sizes: list[int]
    trick: CurrentTrickJSON
    tricks: list[TrickJSON]
    facts: list[list[str]]


class SignalJSON(TypedDict):
    """A card signal given with a play (plain games)."""

    trick: int
    seat: int
    signal: str


class PlainView(CommonView):
    """The view of Arbaa Turub (:mod:`games.plain_tricks`)."""

    eldest: int
    direction: str
    tricks_by_seat: list[int]
    tricks_by_team: list[int]
    signals: list[SignalJSON]
    signal_tokens: list[str]


class TurupView(PlainView):
    """The view of Turup: the plain view and the kort."""

    game_points: list[int]
    kort_side: int | None
    kort_declared: bool
    decider: int | None
    partner_answer: int | None


class DeclaredRun(TypedDict):
    seat: int
    value: int


class RunsJSON(TypedDict):
    """Tarabish runs, as everybody sees them."""

    declared: list[DeclaredRun]
    resolved: bool
    winner: int | None
    points: int
    shown: list[list[str]]


class OwnRun(TypedDict):
    """One of the viewer's own runs (Tarabish)."""

    cards: list[str]
    value: int


class TarabishView(CommonView):
    """The view of Tarabish."""

    eldest: int
    caller: int | None
    auction: list[list[int | str]]
    kitty_hidden: bool
    last_trick: TrickJSON | None
    tricks_by_seat: list[int]
    tricks_by_team: list[int]
    card_points_by_team: list[int]
    runs: RunsJSON
    my_runs: list[OwnRun]
    bella: int | None
    hand_void: bool
    conceded_by: int | None
    result: str | None
    hand_score: list[int] | None


class AdjustJSON(TypedDict):
    direction: str
    amount: int


class MisdealJSON(TypedDict):
    """A seat whose hand voids a Truf deal, and why."""

    seat: int
    reason: str


class TrufView(CommonView):
    """The view of Truf."""

    hand_number: int
    deals: int
    direction: str
    bid_placed: list[bool]
    bids: list[list[str] | None]
    bid_values: list[int] | None
    bid_total: int | None
    high_bidder: int | None
    mode: str | None
    adjust: AdjustJSON | None
    adjust_amounts: list[int]
    final_bids: list[int] | None
    broken: bool
    tricks_by_seat: list[int]
    points: list[int] | None
    redeals: int
    misdeal: list[MisdealJSON] | None
    earlier_bids: list[list[int]]


class AlbastiniView(CommonView):
    """The view of Albastini."""

    bidders: list[int]
    bids: list[list[int | str | None]]
    trump_card: str | None
    exchanged_by: int | None
    bottom_card: str | None
    bottom_drawn_by: int | None
    stock_size: int
    draws: list[list[list[int | str]]]
    tricks_by_seat: list[int]
    points_by_side: list[int]
    winner_side: int | None
    victory_points: list[int]


GameView = PlainView | TurupView | TarabishView | TrufView | AlbastiniView
"""Any game's view (a front end tells them apart by ``game``)."""


VIEW_TYPES: dict[str, type] = {
    "arbaa_turub": PlainView, "turup": TurupView, "tarabish": TarabishView, "truf": TrufView,
    "albastini": AlbastiniView,
}
"""Each game's view type, by game id."""


def is_plain(view: GameView) -> TypeGuard[PlainView]:
    """Whether ``view`` is a plain game's (Arba'a Turub or Turup)."""
    return view["game"] in ("arbaa_turub", "turup")


def is_turup(view: GameView) -> TypeGuard[TurupView]:
    return view["game"] == "turup"


def is_tarabish(view: GameView) -> TypeGuard[TarabishView]:
    return view["game"] == "tarabish"


def is_truf(view: GameView) -> TypeGuard[TrufView]:
    return view["game"] == "truf"


def is_albastini(view: GameView) -> TypeGuard[AlbastiniView]:
    return view["game"] == "albastini"
