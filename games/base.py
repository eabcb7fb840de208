"""The surface every game shares: deals, events, matches.

A **deal** (:class:`Deal`) is a state object with the same small surface in every game:
``to_act``, ``legal_actions(seat)``, ``apply(seat, action) -> events``, ``view(seat)``,
``is_over`` and ``summary()``. ``apply`` either accepts the action completely or raises
:class:`~games.errors.IllegalAction` and leaves the state exactly as it was.

A **match** (:class:`Match`) wraps deals: it deals each one (from a seed, or from given
hands when a record is replayed), scores it, keeps the totals, picks the next dealer and
decides when the match is over, all through per-game hooks.

Views and events are the only way front ends learn about cards. ``view(seat)`` holds
exactly what that seat may see; ``view(None)`` is the public view. Every :class:`Event` says
who may receive it (``to``: ``None`` for everybody, else a set of seats).

Every deal is a :class:`TrickDeal`: its tricks are played by the one trick core of
:mod:`games.trick`, and every game's view starts from :func:`games.views.common_view`, so
it carries these keys and front ends and AI players can treat games alike (games add their
own keys beside them):

``game``, ``seat`` (the viewer, or null), ``players``, ``teams`` (lists of seats),
``dealer``, ``phase`` (a game-specific word; ``"over"`` at the end), ``to_act``,
``trump`` (suit letter or null), ``hand`` (the viewer's cards, sorted for display: by suit,
black and red alternating, strongest first), ``hand_sizes`` (cards held by every seat),
``trick`` (``{"leader": s, "cards": [[seat, card], ...]}``, a hidden card written
:data:`HIDDEN`), ``tricks`` (completed tricks as in the summary, public), and ``facts``
(``[[label, text], ...]``: the public state in words, for display).
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, ClassVar, Literal, NamedTuple, Self, cast, overload

from games.actions import Action
from games.errors import IllegalAction, RecordError, quote
from games.event_types import (
    AdjustData,
    AnswerData,
    AskPartnerData,
    BellaData,
    BidData,
    BidPlacedData,
    BidsRevealedData,
    CardData,
    ConcedeData,
    DealOverData,
    DealSummary,
    DeclareKortData,
    DeclareRunsData,
    DrawData,
    DrawRoundData,
    ExchangeData,
    GameEventData,
    HandData,
    HandVoidData,
    KittyData,
    KortData,
    MatchExtras,
    MatchSummary,
    PlayData,
    SeatOnly,
    SuitChosen,
    TrickData,
    TrumpTurnedData,
)
from games.options import GameOptions
from games.trick import TrickJSON, TrickPlay
from games.view_types import GameView, RunsJSON

HIDDEN = "??"
"""How a card that the viewer may not see is written in views and events."""


_NO_DATA = cast(GameEventData, MappingProxyType({}))


class Event(NamedTuple):
    """Something that happened, for the front ends (immutable; a named tuple because an
    event is built for every action and must cost little).

    ``to`` is ``None`` when everybody may see it, else the seats that may; ``exclude``
    removes seats from an event everybody else may see (Truf's face-down trump: the public
    ``??`` event excludes the player, who gets his own event with the card). Spectators
    (``seat`` ``None``) see exactly the events with ``to`` ``None``.
    """

    type: str
    data: GameEventData = _NO_DATA
    """The kind's data (:data:`games.event_types.EVENT_DATA`)."""
    to: frozenset[int] | None = None
    exclude: frozenset[int] = frozenset()

    def visible_to(self, seat: int | None) -> bool:
        if seat is not None and seat in self.exclude:
            return False
        return self.to is None or (seat is not None and seat in self.to)

    def to_json(self) -> dict[str, object]:
        return {"type": self.type, **self.data}


_NOBODY: frozenset[int] = frozenset()
_new_tuple = tuple.__new__


@overload
def public(kind: Literal["play"], data: PlayData) -> Event: ...
@overload
def public(kind: Literal["trick"], data: TrickData) -> Event: ...
@overload
def public(kind: Literal["trump", "call_trump"], data: SuitChosen) -> Event: ...
@overload
def public(kind: Literal["hand"], data: HandData) -> Event: ...
@overload
def public(kind: Literal["deal_over"], data: DealOverData) -> Event: ...
@overload
def public(kind: Literal["bid"], data: BidData) -> Event: ...
@overload
def public(kind: Literal["pass"], data: SeatOnly) -> Event: ...
@overload
def public(kind: Literal["trump_turned"], data: TrumpTurnedData) -> Event: ...
@overload
def public(kind: Literal["exchange"], data: ExchangeData) -> Event: ...
@overload
def public(kind: Literal["bottom_card"], data: CardData) -> Event: ...
@overload
def public(kind: Literal["draw_round"], data: DrawRoundData) -> Event: ...
@overload
def public(kind: Literal["draw"], data: DrawData) -> Event: ...
@overload
def public(kind: Literal["kitty"], data: KittyData) -> Event: ...
@overload
def public(kind: Literal["declare_runs"], data: DeclareRunsData) -> Event: ...
@overload
def public(kind: Literal["runs"], data: RunsJSON) -> Event: ...
@overload
def public(kind: Literal["bella"], data: BellaData) -> Event: ...
@overload
def public(kind: Literal["concede"], data: ConcedeData) -> Event: ...
@overload
def public(kind: Literal["hand_void"], data: HandVoidData) -> Event: ...
@overload
def public(kind: Literal["bid_placed"], data: BidPlacedData) -> Event: ...
@overload
def public(kind: Literal["bids_revealed"], data: BidsRevealedData) -> Event: ...
@overload
def public(kind: Literal["adjust"], data: AdjustData) -> Event: ...
@overload
def public(kind: Literal["ask_partner"], data: AskPartnerData) -> Event: ...
@overload
def public(kind: Literal["answer"], data: AnswerData) -> Event: ...
@overload
def public(kind: Literal["kort"], data: KortData) -> Event: ...
@overload
def public(kind: Literal["declare_kort"], data: DeclareKortData) -> Event: ...
def public(kind: str, data: GameEventData) -> Event:
    """An event everybody may see: ``data`` is ``kind``'s type of
    :class:`games.event_types.GameEvents`, one overload per kind, so mypy checks every
    event the engine builds (a missing, misspelt or ill-typed key is an error); build it
    as a dict display of the type (``public("play", {"seat": s, "card": c, "trick": n})``).
    A new kind needs its overload here beside its entry in ``GameEvents``."""
    return _new_tuple(Event, (kind, data, None, _NOBODY))


@overload
def private(who: int, kind: Literal["play"], data: PlayData) -> Event: ...
@overload
def private(who: int, kind: Literal["hand"], data: HandData) -> Event: ...
@overload
def private(who: int, kind: Literal["bid"], data: BidData) -> Event: ...
@overload
def private(who: int, kind: Literal["draw"], data: DrawData) -> Event: ...
@overload
def private(who: int, kind: Literal["kitty"], data: KittyData) -> Event: ...
def private(who: int, kind: str, data: GameEventData) -> Event:
    """An event for seat ``who`` alone (``data`` as :func:`public`'s; one overload per kind
    the engine sends to one seat: a kind sent privately for the first time needs its
    overload here)."""
    return _new_tuple(Event, (kind, data, frozenset({who}), _NOBODY))


def trick_data(number: int, trick: TrickJSON) -> TrickData:
    """A ``trick`` event's data: the completed trick's ``number`` (from 1), then the trick
    (its keys named one by one: mypy does not let a ``**`` of a :class:`TrickJSON` fill a
    :class:`TrickData`, whose ``points`` is optional)."""
    return {"number": number, "leader": trick["leader"], "cards": trick["cards"],
            "winner": trick["winner"]}


class Deal(ABC):
    """One deal of one game. Subclasses implement the ``_``-prefixed hooks.

    ``history`` is every accepted action in order; ``version`` counts them and is what the
    table service uses to recognise stale clicks.
    """

    game: ClassVar[str]

    def __init__(self, players: int, dealer: int) -> None:
        self.players = players
        self.dealer = dealer
        self.history: list[tuple[int, Action]] = []

    # -- the surface ----------------------------------------------------------------------
    @property
    @abstractmethod
    def to_act(self) -> tuple[int, ...]:
        """Seats whose action the deal waits for (several during Truf's secret bids)."""

    @abstractmethod
    def legal_actions(self, seat: int) -> list[Action]:
        """Every action ``seat`` may take now (empty when it may not act)."""

    @property
    @abstractmethod
    def is_over(self) -> bool: ...

    @abstractmethod
    def view(self, seat: int | None) -> GameView:
        """What ``seat`` may see (``None``: what everybody may see), as JSON-able data: each
        game returns its own view type (a :data:`~games.view_types.GameView`, extending
        :class:`~games.view_types.CommonView`)."""

    @abstractmethod
    def summary(self) -> DealSummary:
        """The deal summary of ``docs/records.md`` for the state reached."""

    @abstractmethod
    def _apply(self, seat: int, action: Action) -> list[Event]:
        """Check and apply; raise ``IllegalAction`` before changing anything."""

    @abstractmethod
    def dealt_hands(self) -> list[list[str]]:
        """Every seat's hand right after the deal, in the order dealt (record form)."""

    def record_extra(self) -> dict[str, Any]:
        """The record's ``extra`` object for this deal (stock, hand number, …)."""
        return {}

    # -- shared behaviour -----------------------------------------------------------------
    @property
    def version(self) -> int:
        return len(self.history)

    def closed_refusal(self) -> IllegalAction:
        """Why no action is accepted once the deal is over (a void deal says why)."""
        return IllegalAction("the deal is over")

    def closed_reason(self) -> str:
        """:meth:`closed_refusal` in the engine's English."""
        return self.closed_refusal().reason

    def copy(self) -> Self:
        """An independent copy, cheap enough for search players to explore many.

        A new object of the same class whose lists (nested lists too), dicts and sets are
        copied and whose other attributes (ints, strings, tuples, frozen options, enum
        phases, shared tables) are shared. The contract that makes this exact: a deal keeps
        all of its mutable state in lists, dicts and sets held in its ``__dict__`` and never
        mutates a tuple's contents, a completed trick or an element object in place."""
        cls = type(self)
        out = cls.__new__(cls)
        out.__dict__.update({k: _copied(v) for k, v in self.__dict__.items()})
        return out

    def apply(self, seat: int, action: Action) -> list[Event]:
        """Apply ``action`` for ``seat``; return the events, or raise ``IllegalAction``."""
        if not 0 <= seat < self.players:
            raise IllegalAction("there is no seat {number} at this table", number=quote(seat))
        if self.is_over:
            raise self.closed_refusal()
        events = self._apply(seat, action)
        self.history.append((seat, action))
        return events

    def record(self) -> dict[str, Any]:
        """This deal as a record deal: dealer, hands, extra, actions."""
        out: dict[str, Any] = {"dealer": self.dealer, "hands": self.dealt_hands()}
        extra = self.record_extra()
        if extra:
            out["extra"] = extra
        out["actions"] = [a.to_json(seat) for seat, a in self.history]
        return out

    def not_your_turn(self, seat: int) -> IllegalAction:
        """The standard refusal for a seat that may not act now."""
        if self.is_over:
            return IllegalAction("the deal is over")
        return IllegalAction("it is not your turn (waiting for {seats})",
                             seats=list(self.to_act))


def _copied(v: Any) -> Any:
    """``v`` with its lists (at every depth), dicts and sets copied; anything else shared."""
    t = type(v)
    if t is list:
        return [_copied(x) if type(x) is list else x for x in v]
    if t is dict:
        return dict(v)
    if t is set:
        return set(v)
    return v


class TrickDeal(TrickPlay, Deal):
    """A deal played in tricks: every game's deal (the trick state and step of
    :class:`games.trick.TrickPlay` beside the :class:`Deal` surface)."""

    phase: str
    """The game's phase (a ``StrEnum`` of the game; ``"over"`` at the end)."""


class Match(ABC):
    """A series of deals of one game, scored by its rules.

    Subclasses implement the deal factory and the scoring hooks. ``totals`` is the running
    score in the game's own unit, indexed by team or seat as the rule file says.
    """

    game: ClassVar[str]
    options_type: ClassVar[type[GameOptions]]
    extra_fields: ClassVar[frozenset[str]] = frozenset()
    """The keys a record deal's ``extra`` may hold in this game (``docs/records.md``)."""

    def __init__(
        self,
        options: GameOptions | Mapping[str, Any] | None = None,
        players: int | None = None,
        first_dealer: int = 0,
        seed: int | str | None = None,
    ) -> None:
        if isinstance(options, GameOptions):
            self.options = options
        else:
            self.options = self.options_type.from_json(options)
        self.players = self.player_count(players)
        if not 0 <= first_dealer < self.players:
            raise RecordError(f"dealer {quote(first_dealer)} is not a seat (0-{self.players - 1})")
        self.seed = seed
        self.next_dealer = first_dealer
        self.deal_summaries: list[DealSummary] = []
        self.deal_records: list[dict[str, Any]] = []
        self.dealers: list[int] = []
        self.current: Deal | None = None
        self.over = False
        self.winner: int | None = None
        self.decided_after: int | None = None
        self._setup()
        self.scores: list[int] = [0] * self.side_count()
        """The running totals (``totals``), one per side in the rule file's order."""

    # -- per-game hooks -------------------------------------------------------------------
    def _setup(self) -> None:
        """Initialise the game's own match state (counters beyond the totals); options,
        players and the first dealer are already set. May raise ``OptionError`` for option
        clashes. By default there is nothing beyond the totals."""
        return None

    def side_count(self) -> int:
        """How many running totals the match keeps (default: two partnerships)."""
        return 2

    def player_count(self, players: int | None) -> int:
        """Validate the player count (default 4)."""
        if players not in (None, 4):
            raise RecordError(f"{self.game} is played by 4 players, not {quote(players)}")
        return 4

    @property
    def totals(self) -> list[int]:
        """The running score in the game's own unit (a copy of :attr:`scores`)."""
        return list(self.scores)

    def add_scores(self, points: Sequence[int]) -> None:
        """Add one deal's points (one per side) to the running totals."""
        for side, p in enumerate(points):
            self.scores[side] += p

    def _new_deal(
        self, dealer: int, hands: list[list[int]] | None, extra: Mapping[str, Any],
        rng: random.Random | None,
    ) -> Deal:
        """Build the next deal: from ``hands`` (a record: checked against the pack) or
        dealt with ``rng`` (:meth:`deal_cards`; the engine's own deal is trusted, not
        re-checked). Games with more to a deal than hands (Truf's misdeals, Albastini's
        stock) override this."""
        if hands is None:
            assert rng is not None
            return self.build_deal(dealer, self.deal_cards(dealer, rng), trusted=True)
        return self.build_deal(dealer, hands, trusted=False)

    def deal_cards(self, dealer: int, rng: random.Random) -> list[list[int]]:
        """Shuffle and deal every seat's hand (in the order dealt) for ``dealer``."""
        raise NotImplementedError(f"{type(self).__name__} deals in _new_deal")

    def build_deal(self, dealer: int, hands: list[list[int]], *, trusted: bool) -> Deal:
        """The deal object for these hands (``trusted``: dealt by the engine itself)."""
        raise NotImplementedError(f"{type(self).__name__} builds deals in _new_deal")

    @abstractmethod
    def _score(self, summary: DealSummary) -> None:
        """Score a finished deal's summary: update totals, ``next_dealer``, ``over``,
        ``winner``; the summary may be completed with keys (e.g. ``game_points``)."""

    @abstractmethod
    def _score_only_summary(self, dealer: int, given: Mapping[str, Any]) -> DealSummary:
        """Validate a score-only deal's ``summary`` object (raise ``RecordError``) and
        return a deal summary equivalent to a played deal's."""

    def match_extras(self) -> MatchExtras:
        """Game-specific match keys (Arba'a Turub ``holder``/``ref``, Truf directions)."""
        return {}

    # -- shared behaviour -----------------------------------------------------------------
    def deal_rng(self, index: int) -> random.Random:
        """The random source of deal ``index``: a pure function of the seed and the index."""
        return random.Random(f"{self.game}:{self.seed}:{index}")

    def start_deal(
        self,
        hands: Sequence[Sequence[str]] | None = None,
        extra: Mapping[str, Any] | None = None,
        dealer: int | None = None,
    ) -> Deal:
        """Start the next deal: shuffled from the seed, or with the given hands (records)."""
        if self.over:
            raise RecordError("the match is already over")
        if self.current is not None and not self.current.is_over:
            raise RecordError("the current deal is not over")
        self._check_dealer(dealer)
        if extra:
            self._check_extra(extra)
        index = len(self.deal_summaries)
        parsed = None if hands is None else self.parse_hands(hands)
        rng = self.deal_rng(index) if hands is None else None
        self.current = self._new_deal(self.next_dealer, parsed, extra or {}, rng)
        return self.current

    def _check_extra(self, extra: Mapping[str, Any]) -> None:
        bad = sorted(set(extra) - self.extra_fields)
        if not bad:
            return
        if not self.extra_fields:
            raise RecordError(f"field 'extra.{bad[0]}': {self.game} deals take no extra fields")
        article = "an" if self.game[0] in "aeiou" else "a"
        raise RecordError(f"field 'extra.{bad[0]}': not {article} {self.game} extra field "
                          f"({', '.join(sorted(self.extra_fields))})")

    def _check_dealer(self, dealer: int | None) -> None:
        if dealer is not None and dealer != self.next_dealer:
            raise RecordError(
                f"dealer {quote(dealer)} is not the dealer the rules pick ({self.next_dealer})"
            )

    def parse_hands(self, hands: Sequence[Sequence[str]]) -> list[list[int]]:
        """Parse record hands into card ints; shapes and deck contents are checked by the
        game's deal constructor."""
        from games.cards import card

        if not isinstance(hands, list) or len(hands) != self.players:
            raise RecordError(f"field 'hands': must list {self.players} hands")
        out: list[list[int]] = []
        for seat, hand in enumerate(hands):
            if not isinstance(hand, list):
                raise RecordError(f"field 'hands', seat {seat}: must be a list of cards")
            try:
                out.append([card(c) if isinstance(c, str) else card(repr(c)) for c in hand])
            except ValueError as exc:
                raise RecordError(f"field 'hands', seat {seat}: {exc}") from None
        return out

    def finish_deal(self) -> DealSummary:
        """Score the current (finished) deal and return its summary."""
        deal = self.current
        if deal is None or not deal.is_over:
            raise RecordError("the deal is not over")
        summary = deal.summary()
        self.deal_records.append(deal.record())
        self.current = None
        return self._close(deal.dealer, summary)

    def score_only(self, given: Mapping[str, Any], dealer: int | None = None) -> DealSummary:
        """Score a deal played elsewhere from its scoresheet summary (``records.md``)."""
        if self.over:
            raise RecordError("the match is already over")
        if self.current is not None and not self.current.is_over:
            raise RecordError("the current deal is not over")
        self._check_dealer(dealer)
        if not isinstance(given, Mapping):
            raise RecordError("field 'summary': must be a JSON object")
        d = self.next_dealer
        summary = self._score_only_summary(d, given)
        self.deal_records.append({"dealer": d, "summary": dict(given)})
        self.current = None
        return self._close(d, summary)

    def _close(self, dealer: int, summary: DealSummary) -> DealSummary:
        index = len(self.deal_summaries)
        self.dealers.append(dealer)
        self._score(summary)
        summary["next_dealer"] = self.next_dealer
        if self.over and self.decided_after is None:
            self.decided_after = index
        self.deal_summaries.append(summary)
        return summary

    def summary(self) -> MatchSummary:
        """The match keys of ``records.md``."""
        return {
            "totals": list(self.totals),
            "dealers": [*self.dealers, self.next_dealer],
            "over": self.over,
            "winner": self.winner,
            "decided_after": self.decided_after,
            **self.match_extras(),
        }

    def record(self) -> dict[str, Any]:
        """The whole match as a record (every finished deal and the one in progress)."""
        deals = list(self.deal_records)
        if self.current is not None:
            deals.append(self.current.record())
        out: dict[str, Any] = {"format": "tricktable/1", "game": self.game}
        out["players"] = self.players
        opts = self.options.to_json()
        if opts:
            out["options"] = opts
        out["deals"] = deals
        return out


@dataclass(frozen=True)
class GameInfo:
    """What the rest of the project needs to know about one game.

    ``teams(players, options)`` lists the sides as tuples of seats (individual games: one
    seat each). ``random_playout(deal, rng)`` plays a deal to its end with uniformly random
    legal actions on the game's fast core (used by search players and ``bench/engine.py``)
    and returns the game's result for it; it consumes ``deal``, so callers pass a copy.
    """

    name: str
    title: str
    match_type: type[Match]
    options_type: type[GameOptions]
    player_counts: tuple[int, ...]
    teams: Callable[[int, GameOptions], list[tuple[int, ...]]]
    rules_file: str
    random_playout: Callable[[Deal, random.Random], Any]
    summary_line: str
