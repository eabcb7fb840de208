"""The types of what the engine tells the front ends beside the views: each event kind's
``data`` (:data:`GameEventData`, one TypedDict per kind, :data:`EVENT_DATA` maps the kind to
it), a deal's summary (:class:`DealSummary`) and a match's (:class:`MatchSummary`), as
``docs/records.md`` describes them. Pure types: this module imports no game.

The engine builds each event's data as its kind's type: :func:`games.base.public` and
:func:`games.base.private` have one overload per kind of :class:`GameEvents`, so mypy checks
every key where an event is built, and ``tests/games/test_event_types.py`` checks every event
and summary of played matches of every game against these types at run time; a
front end reads an event's data as its kind's type with
:func:`bot.service.events.game_data` (``game_data(event, "play")`` is a :class:`PlayData`).
A deal summary is one type for every game: the keys a game does not have are absent (each
key says which games write it), so a reader reads the keys it knows with ``.get`` and
mypy checks their names and values.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal, NotRequired, Protocol, TypedDict, cast, overload

from games.trick import TrickJSON
from games.view_types import AdjustJSON, DeclaredRun, MisdealJSON, RunsJSON, SignalJSON

# -- the deal and match summaries --------------------------------------------------------


class DealSummary(TypedDict, total=False):
    """A deal's summary (``docs/records.md``): every game's keys, each present in the games
    (and forms: a played deal, a score-only deal, a void deal) that write it."""

    dealer: int
    trump: str | None
    next_dealer: int
    """Added when the match scored the deal (not in ``deal_over``'s summary)."""
    hand_over: bool
    trick_winners: list[int]
    tricks: list[TrickJSON]
    tricks_by_seat: list[int]
    tricks_by_team: list[int]
    signals: list[SignalJSON]
    """Arba'a Turub, Turup: the card signals given."""
    game_points: list[int]
    """Turup: the game points each team scored this deal."""
    kort: str | None
    """Turup: ``made``, ``failed`` or null."""
    caller: int | None
    """Tarabish: the seat that called trump (null for a void hand)."""
    hand_void: bool
    auction: list[list[int | str]]
    runs_declared: list[DeclaredRun]
    runs_winner: int | None
    run_points: int
    bella: int | None
    card_points_by_team: list[int]
    raw_points_by_team: list[int]
    hand_total: int | None
    result: str | None
    hand_score: list[int] | None
    conceded_by: int | None
    hand_number: int
    """Truf: which hand of the game (from 1)."""
    direction: str
    redeal: bool
    misdeal: list[MisdealJSON]
    bids: list[int] | None
    bid_cards: list[list[str]] | None
    bid_total: int | None
    mode: str | None
    adjust: AdjustJSON | None
    leader: int | None
    final_bids: list[int] | None
    points: list[int] | None
    exchanged_by: int | None
    """Albastini: who took the turned trump card (or null)."""
    bottom_card: str | None
    draws: list[list[list[int | str]]]
    points_by_side: list[int]
    winner_side: int | None
    victory_points: list[int]


class MatchExtras(TypedDict, total=False):
    """A game's own match keys (:meth:`games.base.Match.match_extras`)."""

    holder: int | None
    """Arba'a Turub: the team holding the streak and its reference trick count."""
    ref: int | None
    next_hand_number: int
    """Truf: the next hand's number and direction; the winners when tied."""
    next_direction: str
    winners: list[int] | None
    dealer_choices: list[int]
    """Albastini with ``dealer_choice: winners_choose``: who may deal next."""


class MatchSummary(MatchExtras, total=False):
    """A match's keys (``docs/records.md``): the totals, the dealers (the next one last),
    whether it is over and who won, after which deal it was decided, and each game's own
    (:class:`MatchExtras`). The engine's summary always holds the first five
    (:data:`MATCH_KEYS`); they are optional in the type so that a front end that has no
    summary yet holds an empty one (``{}``)."""

    totals: list[int]
    dealers: list[int]
    over: bool
    winner: int | None
    decided_after: int | None


MATCH_KEYS = frozenset({"totals", "dealers", "over", "winner", "decided_after"})
"""The keys every match summary of the engine holds."""


def stored_match_summary(value: object) -> MatchSummary:
    """A match summary read back from storage (a finished match's ``result["summary"]``,
    written from :meth:`games.base.Match.summary`): the keys :class:`MatchSummary` has, as
    stored; an empty summary when ``value`` is not a JSON object. The one place where a
    stored summary becomes the typed value the front ends read."""
    if not isinstance(value, Mapping):
        return {}
    keys = MatchSummary.__annotations__
    return cast(MatchSummary, {k: v for k, v in value.items() if k in keys})


# -- each event kind's data --------------------------------------------------------------


class SeatOnly(TypedDict):
    """``pass``, ``bid_placed`` without ``waiting``…: the acting seat only."""

    seat: int


class PlayData(TypedDict):
    """A card played (``trick``: its trick's number from 1). Arba'a Turub and Turup add the
    ``signal`` given (or null), Tarabish ``bella``, Truf ``face_down`` (the card hidden as
    ``??`` to the others)."""

    seat: int
    card: str
    trick: int
    signal: NotRequired[str | None]
    bella: NotRequired[bool]
    face_down: NotRequired[bool]


class TrickData(TrickJSON):
    """A trick completed (``number`` from 1); Albastini adds its card ``points``."""

    number: int
    points: NotRequired[int]


class SuitChosen(TypedDict):
    """``trump`` (Arba'a Turub, Turup) and ``call_trump`` (Tarabish): the seat and suit."""

    seat: int
    suit: str


class HandData(TypedDict):
    """To one seat: its hand now."""

    cards: list[str]


class DealOverData(TypedDict):
    summary: DealSummary


class BidData(TypedDict):
    """Albastini: a public bid of one ``card``; Truf: to the bidder, the bid ``cards`` and
    their ``value``."""

    seat: int
    card: NotRequired[str]
    cards: NotRequired[list[str]]
    value: NotRequired[int]


class TrumpTurnedData(TypedDict):
    card: str
    suit: str


class ExchangeData(TypedDict):
    seat: int
    took: str
    gave: str


class CardData(TypedDict):
    """``bottom_card``: the card face up under the stock."""

    card: str


class DrawRoundData(TypedDict):
    """Albastini: who drew what (others' cards hidden), and the cards left in the stock."""

    round: int
    draws: list[list[int | str]]
    stock_size: int


class DrawData(TypedDict):
    """To one seat: the card it drew and its hand."""

    round: int
    card: str
    hand: list[str]


class KittyData(TypedDict):
    """Tarabish, to one seat: its three kitty cards and its hand."""

    cards: list[str]
    hand: list[str]


class DeclareRunsData(TypedDict):
    seat: int
    value: int
    auto: bool


class BellaData(TypedDict):
    seat: int
    with_run: bool


class ConcedeData(TypedDict):
    seat: int
    team: int


class HandVoidData(TypedDict):
    next_dealer: int


class BidPlacedData(TypedDict):
    seat: int
    waiting: list[int]


class BidsRevealedData(TypedDict):
    bids: list[int] | None
    bid_cards: list[list[str]]
    bid_total: int | None
    high_bidder: int
    trump: str | None
    mode: str | None
    adjust_needed: bool


class AdjustData(TypedDict):
    seat: int
    direction: str
    amount: int
    mode: str | None
    final_bids: list[int]


class AskPartnerData(TypedDict):
    seat: int
    partner: int


class AnswerData(TypedDict):
    seat: int
    tricks: int


KortData = TypedDict("KortData", {"seat": int, "continue": bool})
KortData.__doc__ = "Turup: at 5-0, whether the side plays on for all nine tricks."


class DeclareKortData(TypedDict):
    seat: int
    side: int | None


GameEventData = (PlayData | TrickData | SuitChosen | HandData | DealOverData | BidData
                 | SeatOnly | TrumpTurnedData | ExchangeData | CardData | DrawRoundData
                 | DrawData | KittyData | DeclareRunsData | RunsJSON | BellaData | ConcedeData
                 | HandVoidData | BidPlacedData | BidsRevealedData | AdjustData
                 | AskPartnerData | AnswerData | KortData | DeclareKortData)
"""The data of any engine event (its kind's type: :data:`EVENT_DATA`)."""

GameEvents = TypedDict("GameEvents", {
    "play": PlayData, "trick": TrickData, "trump": SuitChosen, "call_trump": SuitChosen,
    "hand": HandData, "deal_over": DealOverData, "bid": BidData, "pass": SeatOnly,
    "trump_turned": TrumpTurnedData, "exchange": ExchangeData, "bottom_card": CardData,
    "draw_round": DrawRoundData, "draw": DrawData, "kitty": KittyData,
    "declare_runs": DeclareRunsData, "runs": RunsJSON, "bella": BellaData,
    "concede": ConcedeData, "hand_void": HandVoidData, "bid_placed": BidPlacedData,
    "bids_revealed": BidsRevealedData, "adjust": AdjustData, "ask_partner": AskPartnerData,
    "answer": AnswerData, "kort": KortData, "declare_kort": DeclareKortData,
})
GameEvents.__doc__ = ("Each kind of event a game emits (the event's type) and the type of its "
                      "data.")

EVENT_DATA: dict[str, type] = dict(GameEvents.__annotations__)
"""Each engine event kind's data type (:class:`GameEvents` as a dict)."""


class KindedEvent(Protocol):
    """An event: its kind (``type``) and its data."""

    @property
    def type(self) -> str: ...
    @property
    def data(self) -> object: ...


@overload
def game_data(event: KindedEvent) -> GameEventData: ...
@overload
def game_data(event: KindedEvent, kind: Literal["play"]) -> PlayData: ...
@overload
def game_data(event: KindedEvent, kind: Literal["trick"]) -> TrickData: ...
@overload
def game_data(event: KindedEvent, kind: Literal["trump", "call_trump"]) -> SuitChosen: ...
@overload
def game_data(event: KindedEvent, kind: Literal["hand"]) -> HandData: ...
@overload
def game_data(event: KindedEvent, kind: Literal["deal_over"]) -> DealOverData: ...
@overload
def game_data(event: KindedEvent, kind: Literal["bid"]) -> BidData: ...
@overload
def game_data(event: KindedEvent, kind: Literal["pass"]) -> SeatOnly: ...
@overload
def game_data(event: KindedEvent, kind: Literal["trump_turned"]) -> TrumpTurnedData: ...
@overload
def game_data(event: KindedEvent, kind: Literal["exchange"]) -> ExchangeData: ...
@overload
def game_data(event: KindedEvent, kind: Literal["bottom_card"]) -> CardData: ...
@overload
def game_data(event: KindedEvent, kind: Literal["draw_round"]) -> DrawRoundData: ...
@overload
def game_data(event: KindedEvent, kind: Literal["draw"]) -> DrawData: ...
@overload
def game_data(event: KindedEvent, kind: Literal["kitty"]) -> KittyData: ...
@overload
def game_data(event: KindedEvent, kind: Literal["declare_runs"]) -> DeclareRunsData: ...
@overload
def game_data(event: KindedEvent, kind: Literal["runs"]) -> RunsJSON: ...
@overload
def game_data(event: KindedEvent, kind: Literal["bella"]) -> BellaData: ...
@overload
def game_data(event: KindedEvent, kind: Literal["concede"]) -> ConcedeData: ...
@overload
def game_data(event: KindedEvent, kind: Literal["hand_void"]) -> HandVoidData: ...
@overload
def game_data(event: KindedEvent, kind: Literal["bid_placed"]) -> BidPlacedData: ...
@overload
def game_data(event: KindedEvent, kind: Literal["bids_revealed"]) -> BidsRevealedData: ...
@overload
def game_data(event: KindedEvent, kind: Literal["adjust"]) -> AdjustData: ...
@overload
def game_data(event: KindedEvent, kind: Literal["ask_partner"]) -> AskPartnerData: ...
@overload
def game_data(event: KindedEvent, kind: Literal["answer"]) -> AnswerData: ...
@overload
def game_data(event: KindedEvent, kind: Literal["kort"]) -> KortData: ...
@overload
def game_data(event: KindedEvent, kind: Literal["declare_kort"]) -> DeclareKortData: ...
def game_data(event: KindedEvent, kind: str | None = None) -> GameEventData:
    """The data of an engine's own event (a :class:`games.base.Event` or a table service's
    event of an engine kind): with ``kind``, as that kind's type of :data:`EVENT_DATA`
    (``ValueError`` when ``event`` is of another type); without, as any engine event's
    (:data:`GameEventData`). The engine builds each kind's data as its type, so this is
    the one place that reads an event's data as its type."""
    if kind is not None and event.type != kind:
        raise ValueError(f"a {event.type!r} event read as {kind!r}")
    return cast(GameEventData, event.data)
