"""A table in memory: its seats, its match, its version, and the pure step that applies
one action (used alike for live play and for rebuilding a table from its action log).

The table **version** counts the actions accepted since the match began; it is also the
``seq`` of the latest entry of the table's action log. Each log entry is
``{"deal": i, "by": "human" | "ai" | "timeout", "action": {"seat": s, "type": …}}``
(the action in record form). Deals need no entry of their own: deal ``i`` is a pure
function of the match seed and ``i``, and the next deal starts as soon as one is scored.

**Turns.** A seat's turn starts when it joins ``to_act`` or acts and is still (again) to
act; ``turn_start[seat]`` is the version at which it did. An action chosen at version ``v``
is current when its seat is to act and ``turn_start[seat] <= v <= version``: a double click
or an old button (chosen before the seat's turn started) is stale, while in Truf's secret
bids a seat's choice stays current when another seat bids first.
"""

from __future__ import annotations

import asyncio
import datetime as dt
from dataclasses import dataclass, field
from typing import Any

from bot.service.ai import DEFAULT_BUDGET_MS
from bot.service.events import (
    DealScoredData,
    DealStartedData,
    SeatJSON,
    StateData,
    Subscription,
    TableEvent,
)
from bot.service.seats import Seat
from games.actions import Action, action_from_json
from games.base import Deal, GameInfo, Match
from games.registry import GAMES
from storage.models import Location, TableStatus

DEAL_LIMIT = "deal_limit"
"""The ``meta`` key limiting a table to a number of played deals (:attr:`LiveTable.deals_done`)."""

LOBBY_IDLE = dt.timedelta(minutes=30)
"""A lobby with no activity for this long is abandoned."""


class LogError(Exception):
    """A stored action log does not replay (a corrupt or foreign log)."""


@dataclass(frozen=True, slots=True)
class TableSettings:
    """What a table keeps in the ``meta`` of its row besides the runtime state."""

    seed: str
    first_dealer: int = 0
    turn_timeout: float = 120.0
    ai_pace: float = 1.5
    standin: str = "rules"
    """Level of the AI that plays for a human on timeout or while away."""
    rated: bool = False
    """Whether a match with AI players counts for ratings (the guild's
    ``ai_matches_rated``); a match of humans only in a guild always counts."""
    ai_budget_ms: float = DEFAULT_BUDGET_MS

    def to_json(self) -> dict[str, Any]:
        return {
            "seed": self.seed,
            "first_dealer": self.first_dealer,
            "turn_timeout": self.turn_timeout,
            "ai_pace": self.ai_pace,
            "standin": self.standin,
            "rated": self.rated,
            "ai_budget_ms": self.ai_budget_ms,
        }

    @staticmethod
    def from_json(meta: dict[str, Any]) -> TableSettings:
        return TableSettings(
            seed=str(meta["seed"]),
            first_dealer=int(meta.get("first_dealer", 0)),
            turn_timeout=float(meta.get("turn_timeout", 120.0)),
            ai_pace=float(meta.get("ai_pace", 1.5)),
            standin=str(meta.get("standin", "rules")),
            rated=bool(meta.get("rated", False)),
            ai_budget_ms=float(meta.get("ai_budget_ms", DEFAULT_BUDGET_MS)),
        )


@dataclass(eq=False)
class LiveTable:
    """One open table. Mutated only by the service, under ``lock``."""

    id: int
    location: Location
    game: str
    options: dict[str, Any]
    players: int
    seats: list[Seat | None]
    status: TableStatus
    settings: TableSettings
    meta: dict[str, Any] = field(default_factory=dict)
    match: Match | None = None
    version: int = 0
    turn_start: dict[int, int] = field(default_factory=dict)
    turn_deadline: dt.datetime | None = None
    lobby_deadline: dt.datetime | None = None
    row_version: int = 0
    """The stored row's version this copy was read or written at (compare-and-set)."""
    reminded: bool = False
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    subs: list[Subscription] = field(default_factory=list)
    ai_task: asyncio.Task[None] | None = None
    timer_task: asyncio.Task[None] | None = None
    timer_parked: bool = False
    ai_parked: bool = False
    busy: int = 0
    _teams: list[list[int]] | None = None

    # -- the game ---------------------------------------------------------------------
    @property
    def info(self) -> GameInfo:
        return GAMES[self.game]

    @property
    def deal(self) -> Deal | None:
        return None if self.match is None else self.match.current

    @property
    def deal_index(self) -> int:
        return 0 if self.match is None else len(self.match.deal_summaries)

    @property
    def to_act(self) -> tuple[int, ...]:
        deal = self.deal
        if self.status != "playing" or deal is None or deal.is_over:
            return ()
        return tuple(deal.to_act)

    @property
    def deals_done(self) -> bool:
        """Whether the table has played the deals its ``meta["deal_limit"]`` allows (a
        duplicate board: 1; automatic redeals do not count): then no next deal starts,
        the table waits, holding its finished deals, for its owner to close it."""
        limit = self.meta.get(DEAL_LIMIT)
        if limit is None or self.match is None:
            return False
        played = sum(1 for s in self.match.deal_summaries if not s.get("redeal"))
        return played >= int(limit)

    def teams(self) -> list[list[int]]:
        if self._teams is None:
            opts = self.info.options_type.from_json(self.options)
            self._teams = [list(t) for t in self.info.teams(self.players, opts)]
        return [list(t) for t in self._teams]

    def new_match(self) -> Match:
        return self.info.match_type(
            self.options, self.players, self.settings.first_dealer, seed=self.settings.seed
        )

    def begin(self) -> list[TableEvent]:
        """Create the match and its first deal (version 0)."""
        self.match = self.new_match()
        self.version = 0
        return self._start_deal()

    def _start_deal(self) -> list[TableEvent]:
        assert self.match is not None
        deal = self.match.start_deal()
        self.turn_start = {}
        self._mark_turns(None)
        data: DealStartedData = {"deal": self.deal_index, "dealer": deal.dealer}
        return [TableEvent(self.id, "deal_started", data, None, self.version)]

    def _mark_turns(self, acted: int | None) -> None:
        new: dict[int, int] = {}
        for s in self.to_act:
            if s == acted or s not in self.turn_start:
                new[s] = self.version
            else:
                new[s] = self.turn_start[s]
        self.turn_start = new

    def is_current(self, seat: int, version: int) -> bool:
        start = self.turn_start.get(seat)
        return start is not None and start <= version <= self.version

    def advance(self, seat: int, action: Action) -> list[TableEvent]:
        """Apply one action (raises ``IllegalAction``, changing nothing), bump the version,
        score a finished deal and start the next one. Returns the events, in order."""
        deal = self.deal
        assert self.match is not None and deal is not None
        raw = deal.apply(seat, action)
        self.version += 1
        out = [TableEvent.from_game(self.id, e, self.version) for e in raw]
        if deal.is_over:
            index = self.deal_index
            summary = self.match.finish_deal()
            scored: DealScoredData = {
                "deal": index, "summary": summary, "match": self.match.summary(),
            }
            out.append(TableEvent(self.id, "deal_scored", scored, None, self.version))
            if not self.match.over and not self.deals_done:
                out.extend(self._start_deal())
            else:
                self.turn_start = {}
        else:
            self._mark_turns(seat)
        return out

    def log_entry(self, seat: int, action: Action, by: str) -> dict[str, Any]:
        """The log entry of an action about to be applied to the current deal."""
        return {"deal": self.deal_index, "by": by, "action": action.to_json(seat)}

    def replay(self, entries: list[dict[str, Any]]) -> None:
        """Rebuild the match from the start by re-applying a stored log."""
        self.begin()
        for n, entry in enumerate(entries, start=1):
            where = f"table {self.id}, log entry {n}"
            if self.match is None or self.match.over:
                raise LogError(f"{where}: the match was already over")
            if entry.get("deal") != self.deal_index:
                raise LogError(f"{where}: logged for deal {entry.get('deal')}, "
                               f"but deal {self.deal_index} is in progress")
            seat, action = action_from_json(entry.get("action"), where)
            try:
                self.advance(seat, action)
            except Exception as exc:
                raise LogError(f"{where}: {exc}") from exc

    # -- views ------------------------------------------------------------------------
    def state_event(self, seat: int | None) -> TableEvent:
        """The ``state`` event for ``seat`` (None: spectators)."""
        deal = self.deal
        data: StateData = {
            "version": self.version,
            "to_act": list(self.to_act),
            "deadline": None if self.turn_deadline is None else self.turn_deadline.isoformat(),
            "status": self.status,
            "deal": self.deal_index,
            "seats": self.seats_json(),
            "legal": [],
        }
        if deal is not None:
            data["view"] = deal.view(seat)
        elif self.match is not None:
            data["view"] = None
        if seat is not None and deal is not None and seat in self.to_act:
            data["legal"] = deal.legal_actions(seat)
        if self.match is not None:
            data["match"] = self.match.summary()
        to = None if seat is None else frozenset({seat})
        return TableEvent(self.id, "state", data, to, self.version)

    def seats_json(self) -> list[SeatJSON | None]:
        return [None if s is None else s.to_json() for s in self.seats]
