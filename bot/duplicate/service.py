"""Duplicate events on the Store and the table service: create, list, status, enter,
confirm, play, reveal, close (``docs/duplicate.md``). Nothing here imports ``discord``: the
Discord cog is a thin layer over :class:`DuplicateService`, and the tests drive it directly.

Rules decided here:

* **Format** follows the game: partnership games are played by pairs (an entrant of one
  member plays with an AI partner), individual games (Truf, Albastini without teams) by
  individuals. **IMPs** only for Tarabish; matchpoints for every game.
* **Playing.** A ready entrant (every member confirmed) plays its boards in order, one at a
  time, at a table the front end gives (a place of its own): the board's seed, dealer and
  options, its members in the seats of the direction the store assigns (the least-played
  one), ``search`` AI players in every other seat. The table is limited to the board's one
  deal (``meta["deal_limit"]``), so it never deals a second hand. A table survives a
  restart like any other (the table service rebuilds it); ``play`` while a board is under
  way answers with that board's table. A board is started once: a second start is refused.
* **Two pairs at one table** (:meth:`DuplicateService.meet`): one pair asks, the other
  asks back; both start one board neither has started, together (one transaction), from
  its two directions, and the one deal is each pair's result from its direction.
* **A league's round** (``create_event(league_id=)``): the league's entrants are the
  event's; at the close its ranking is stored as the league's outcomes
  (:func:`bot.leagues.standings.field_outcomes`).
* **The board's end.** When the table scores the board's deal (a ``deal_scored`` event
  seen by :meth:`DuplicateService.run`, or :meth:`DuplicateService.reconcile` after a
  restart), the play is stored finished with its record and the table is closed without
  a match: an event's deals never reach ``/history``, ``/stats``, ratings or
  ``/table export`` of anyone else. The entrant is then told (``on_board``).
* **Secrecy.** :meth:`DuplicateService.reveal` (traveller, hand record, the AI's result
  from the entrant's seat, the record for the Review) answers only a member of an entrant
  that finished the board; before the close nobody else sees anything of a board.
* **Closing** (the director, or the window's end seen by :meth:`run`): unfinished boards
  are left unfinished (the scoring averages them) and their tables closed; the results are
  scored from the stored records with :func:`~bot.duplicate.scoring.score_event`, exactly
  as ``tricktable duplicate score`` scores the exported records.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import logging
import secrets
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from bot.duplicate.boards import Board, play_with_ai
from bot.duplicate.records import Tag, board_result, tagged
from bot.duplicate.scoring import BoardResult, EventScore, Method, score_event
from bot.i18n import N_
from bot.i18n.said import SaidError, engine_said
from bot.leagues.service import (
    RUNNING,
    LeagueSetup,
    active_entrants,
    league_season,
    quoted_name,
)
from bot.leagues.standings import ROUND_POST, field_outcomes, round_value
from bot.service.clock import Clock, SystemClock
from bot.service.live import DEAL_LIMIT
from bot.service.seats import Seat
from bot.service.tables import TableService
from bot.text_safety import clean_text
from games.ai import DEFAULT_BUDGET, Budget
from games.errors import GameError, RecordError
from games.registry import GAMES
from storage.base import Store
from storage.duplicate import (
    AlreadyEntered,
    AlreadyPlayed,
    DuplicateBoard,
    DuplicateEntrant,
    DuplicateEvent,
    DuplicatePlay,
)
from storage.errors import NotFound
from storage.models import League, Location

log = logging.getLogger(__name__)

MAX_BOARDS = 36
AI_LEVEL = "search"
BOARD_OVER = N_("this board is over: your results are on their way")


class DuplicateError(SaidError):
    """A duplicate request refused, with a message for the user; nothing changed."""


@dataclass(frozen=True)
class PlayStart:
    """Where an entrant plays a board: the table, the board and its direction, and
    whether the board was already under way (``resumed``)."""

    table_id: int
    board: int
    direction: int
    resumed: bool


@dataclass(frozen=True)
class Invitation:
    """A pair asked another to meet at one table; ``to`` accepts by asking back."""

    by: DuplicateEntrant
    to: DuplicateEntrant
    board: int | None


@dataclass(frozen=True)
class Reveal:
    """What an entrant learns after finishing a board: the board's results so far (its
    traveller is ``score.travellers[board - 1]``), its own play and record, the hands as
    dealt, and the AI's record and result from the same direction."""

    event: DuplicateEvent
    board: int
    entrant: DuplicateEntrant
    play: DuplicatePlay
    score: EventScore
    hands: list[list[str]]
    ai_record: dict[str, Any]
    ai_result: BoardResult


@dataclass(frozen=True)
class EventResults:
    """A scored event: entrants by their tag name, each board's records by entrant name."""

    event: DuplicateEvent
    score: EventScore
    entrants: Mapping[str, DuplicateEntrant]
    records: Mapping[tuple[str, int], dict[str, Any]]
    hands: Mapping[int, list[list[str]]]


@dataclass(frozen=True)
class EventStatus:
    event: DuplicateEvent
    entrants: int
    finished: Mapping[int, int]
    """Finished plays per board."""
    mine: DuplicateEntrant | None
    my_finished: tuple[int, ...]


@dataclass(frozen=True)
class LeaderRow:
    """A member on the duplicate leaderboard: ``percent`` is the mean matchpoint
    percentage over the ``boards`` finished in ``events`` closed leaderboard events."""

    rank: int
    user_id: int
    percent: Fraction
    boards: int
    events: int


def directions_of(event: DuplicateEvent) -> list[tuple[int, ...]]:
    """The event's directions: the game's sides (tuples of seats)."""
    return board_of(event, DuplicateBoard(event.id, 1, "x", 0)).sides()


def board_of(event: DuplicateEvent, board: DuplicateBoard) -> Board:
    return Board(event.game, board.number, board.seed, board.dealer, event.players,
                 dict(event.options))


def tag_of(event: DuplicateEvent, entrant: DuplicateEntrant, play: DuplicatePlay) -> Tag:
    method: Method = "imps" if event.scoring == "imps" else "matchpoints"
    return Tag(str(event.id), play.board, event.boards, entrant.name, play.direction, method)


class DuplicateService:
    """Duplicate events of every guild this process serves (see the module docstring).

    ``on_board(event, entrant, board)`` is awaited each time an entrant finishes a board
    (the front end sends the reveal); ``on_close(event)`` at every close (the front end
    posts the results, each piece once). The AI's reference plays run in a thread."""

    def __init__(self, store: Store, tables: TableService, *, clock: Clock | None = None,
                 budget: Budget = DEFAULT_BUDGET,
                 on_board: Callable[[DuplicateEvent, DuplicateEntrant, int],
                                    Awaitable[None]] | None = None,
                 on_close: Callable[[DuplicateEvent], Awaitable[None]] | None = None,
                 ai_level: str = AI_LEVEL, ai_pace: float | None = None) -> None:
        self.store = store
        self.ai_level = ai_level
        """The AI in the empty seats and of the reference play (``search``; tests may
        choose a faster one)."""
        self.ai_pace = ai_pace
        self.tables = tables
        self.clock: Clock = clock or SystemClock()
        self.budget = budget
        self.on_board = on_board
        self.on_close = on_close
        self._ai_locks: dict[tuple[int, int, int], asyncio.Lock] = {}
        self._finishing: set[int] = set()
        self._closed: dict[int, tuple[EventScore, Mapping[str, DuplicateEntrant]]] = {}
        self._invites: dict[tuple[int, int], tuple[int, int | None]] = {}
        """Meeting invitations: (event, asking entrant) → (the entrant asked, the board
        named or None)."""

    # -- events ------------------------------------------------------------------------

    async def create_event(
        self, guild_id: int, channel_id: int, name: str, game: str, *, boards: int,
        opens_at: dt.datetime, closes_at: dt.datetime, time_zone: str, created_by: int,
        options: Mapping[str, Any] | None = None, players: int | None = None,
        scoring: str = "matchpoints", leaderboard: bool = False, league_id: int | None = None,
    ) -> DuplicateEvent:
        """Create an open event of ``boards`` boards, each a fresh random seed and the
        dealer rotating from seat 0. With ``league_id`` the event is a round of that running
        league of the guild: of its game, player count and options, its entrants entered
        (confirmed) and nobody else."""
        league = None
        if league_id is not None:
            league, options, players = await self._league_round(guild_id, league_id, game)
        info = GAMES.get(game)
        if info is None:
            raise DuplicateError(N_("unknown game {game} (one of {games})"), game=repr(game),
                                 games=", ".join(sorted(GAMES)))
        try:
            match = info.match_type(dict(options or {}), players, 0, seed="check")
        except GameError as exc:
            said = engine_said(exc)
            raise DuplicateError(said.message, **said.fields) from None
        if not 1 <= boards <= MAX_BOARDS:
            raise DuplicateError(N_("an event has 1 to {most} boards"), most=MAX_BOARDS)
        if scoring not in ("matchpoints", "imps"):
            raise DuplicateError(N_("scoring is matchpoints or IMPs"))
        if scoring == "imps" and game != "tarabish":
            raise DuplicateError(N_("IMPs are for Tarabish; {game} is scored in matchpoints"),
                                 game=info.title)
        try:
            ZoneInfo(time_zone)
        except (ZoneInfoNotFoundError, ValueError):
            raise DuplicateError(N_("unknown time zone {zone}"), zone=repr(time_zone)) from None
        if closes_at <= opens_at:
            raise DuplicateError(N_("the window must close after it opens"))
        title = clean_text(name)
        if not title:
            raise DuplicateError(N_("the event needs a name"))
        sides = info.teams(match.players, match.options)
        fmt = "pairs" if any(len(s) > 1 for s in sides) else "individual"
        seed = secrets.token_hex(8)
        event = await self.store.create_duplicate_event(
            guild_id, channel_id, title, game,
            boards=[(f"{seed}:{n}", n % match.players) for n in range(boards)],
            players=match.players, options=match.options.to_json(), opens_at=opens_at,
            closes_at=closes_at, time_zone=time_zone, created_by=created_by, format=fmt,
            scoring=scoring, leaderboard=leaderboard, league_id=league_id)
        if league is not None:
            for entrant in await active_entrants(self.store, league,
                                                 await league_season(self.store, league)):
                names = [await self._player_name(m) for m in entrant.members]
                await self.store.add_duplicate_entrant(
                    event.id, await self._unique_name(event.id, clean_text(entrant.name or "")
                                                      or " & ".join(names)),
                    entrant.members, confirmed=entrant.members)
        return event

    async def _league_round(self, guild_id: int, league_id: int, game: str
                            ) -> tuple[League, Mapping[str, Any], int]:
        """The running league of the guild an event is a round of, its game options and
        player count (DuplicateError otherwise)."""
        league = await self.store.get_league(league_id)
        if league is None or league.guild_id != guild_id:
            raise DuplicateError(N_("there is no league “{league}” on this server"),
                                 league=league_id)
        if league.status != RUNNING:
            raise DuplicateError(N_("league {league} is not running: a duplicate round "
                                    "needs its entrants fixed by its schedule"),
                                 league=quoted_name(league))
        if league.game != game:
            raise DuplicateError(N_("league {league} plays {game}: its round is of its game"),
                                 league=quoted_name(league), game=GAMES[league.game].title)
        setup = LeagueSetup.of(league)
        return league, setup.game_options, setup.players

    async def _player_name(self, user_id: int) -> str:
        player = await self.store.get_player(user_id)
        return player.display_name if player is not None else str(user_id)

    async def _unique_name(self, event_id: int, base: str) -> str:
        """``base``, numbered when an entrant of the event has it (names are the records'
        tags)."""
        taken = {e.name for e in await self.store.list_duplicate_entrants(event_id)}
        title, number = base, 2
        while title in taken:
            title = f"{base} ({number})"
            number += 1
        return title

    async def event(self, event_id: int, guild_id: int) -> DuplicateEvent:
        """The guild's event (DuplicateError when it is not one of the guild's)."""
        event = await self.store.get_duplicate_event(event_id)
        if event is None or event.guild_id != guild_id:
            raise DuplicateError(N_("there is no duplicate event {event} here"), event=event_id)
        return event

    async def list_events(self, guild_id: int) -> list[DuplicateEvent]:
        return await self.store.list_duplicate_events(guild_id)

    async def status(self, event_id: int, guild_id: int, user_id: int) -> EventStatus:
        """How far the event is (entrants, finished plays per board) and the reader's own
        progress: counts only, nothing of any board."""
        event = await self.event(event_id, guild_id)
        entrants = await self.store.list_duplicate_entrants(event.id)
        plays = await self.store.list_duplicate_plays(event.id)
        finished: dict[int, int] = {}
        for p in plays:
            if p.status == "finished":
                finished[p.board] = finished.get(p.board, 0) + 1
        mine = await self.store.duplicate_entrant_of(event.id, user_id)
        done = tuple(p.board for p in plays
                     if mine is not None and p.entrant_id == mine.id and p.status == "finished")
        return EventStatus(event, len(entrants), finished, mine, done)

    # -- entering ----------------------------------------------------------------------

    def _check_window(self, event: DuplicateEvent) -> None:
        now = self.clock.now()
        if event.status != "open" or now >= event.closes_at:
            raise DuplicateError(N_("the event {name} is closed"), name=event.name)
        if now < event.opens_at:
            local = event.opens_at.astimezone(ZoneInfo(event.time_zone))
            raise DuplicateError(N_("the event {name} opens at {time}"), name=event.name,
                                 time=f"{local:%Y-%m-%d %H:%M} ({event.time_zone})")

    @staticmethod
    def _check_open_entry(event: DuplicateEvent) -> None:
        """A league's round is entered by the league's entrants only (at its creation)."""
        if event.league_id is not None:
            raise DuplicateError(N_("{name} is a round of a league: its entrants are the "
                                    "league's, entered already"), name=event.name)

    async def enter(self, event_id: int, guild_id: int, user_id: int, name: str,
                    partner: tuple[int, str] | None = None) -> DuplicateEntrant:
        """Enter alone, or as a pair with ``partner`` (``(user_id, name)``), who must
        confirm before the pair plays."""
        event = await self.event(event_id, guild_id)
        self._check_window(event)
        self._check_open_entry(event)
        members = [user_id]
        names = [clean_text(name) or "?"]
        if partner is not None:
            if event.format != "pairs":
                raise DuplicateError(N_("{game} is played by individuals: enter alone"),
                                     game=GAMES[event.game].title)
            if partner[0] == user_id:
                raise DuplicateError(N_("your partner must be someone else"))
            members.append(partner[0])
            names.append(clean_text(partner[1]) or "?")
        title = await self._unique_name(event.id, " & ".join(names))
        try:
            entrant = await self.store.add_duplicate_entrant(event.id, title, members,
                                                             confirmed=[user_id])
        except AlreadyEntered as exc:
            if exc.user_id == user_id:
                raise DuplicateError(N_("you have already entered this event")) from None
            raise DuplicateError(N_("your partner has already entered this event")) from None
        for member, member_name in zip(members, names, strict=True):
            await self.store.upsert_player(member, member_name)  # the seats' names
        return entrant

    async def confirm(self, event_id: int, guild_id: int, user_id: int) -> DuplicateEntrant:
        """The partner confirms the pair."""
        event = await self.event(event_id, guild_id)
        self._check_window(event)
        try:
            return await self.store.confirm_duplicate_member(event.id, user_id)
        except NotFound:
            raise DuplicateError(N_("nobody has entered this event with you")) from None

    # -- playing -----------------------------------------------------------------------

    async def play(self, event_id: int, guild_id: int, user_id: int,
                   names: Mapping[int, str], location: Callable[[int], Awaitable[Location]]
                   ) -> PlayStart:
        """Play the entrant's next board (or get back to the one under way).
        ``location(board)`` gives the place of the entrant's own table; ``names`` the
        members' display names."""
        event = await self.event(event_id, guild_id)
        self._check_window(event)
        entrant = await self._ready_entrant(event, user_id)
        plays = {p.board: p for p in await self.store.list_duplicate_plays(event.id)
                 if p.entrant_id == entrant.id}
        for p in plays.values():
            if p.status == "playing" and p.table_id is not None and self.tables.holds(
                    p.table_id):
                return PlayStart(p.table_id, p.board, p.direction, True)
        board_no = next((b for b in range(1, event.boards + 1) if b not in plays), None)
        if board_no is None:
            raise DuplicateError(N_("you have played every board of this event"))
        return await self._start(event, entrant, board_no, names, location)

    async def play_board(self, event_id: int, guild_id: int, user_id: int, board: int,
                         names: Mapping[int, str],
                         location: Callable[[int], Awaitable[Location]]) -> PlayStart:
        """Start a given board (a second start of a board is refused)."""
        event = await self.event(event_id, guild_id)
        self._check_window(event)
        entrant = await self.store.duplicate_entrant_of(event.id, user_id)
        if entrant is None or not entrant.ready:
            raise DuplicateError(N_("you have not entered this event"))
        if not 1 <= board <= event.boards:
            raise DuplicateError(N_("this event has boards 1 to {last}"), last=event.boards)
        return await self._start(event, entrant, board, names, location)

    async def meet(self, event_id: int, guild_id: int, user_id: int, opponent_id: int,
                   names: Mapping[int, str],
                   location: Callable[[int, Sequence[int]], Awaitable[Location]],
                   board: int | None = None) -> PlayStart | Invitation:
        """Meet the pair of ``opponent_id`` at one table (pairs events). The first call asks
        (an :class:`Invitation`, kept until the pair accepts, another invitation of the
        same pair replaces it, or the process restarts); the other pair accepts by asking
        back, and then both start the lowest board neither has started, from its two
        directions (the first to ask takes the less-played one); or ``board`` (asked by
        either), refused when either pair has started it. ``location(board, members)``
        gives the table's place for the members of both pairs."""
        event = await self.event(event_id, guild_id)
        self._check_window(event)
        if event.format != "pairs" or len(directions_of(event)) != 2:
            raise DuplicateError(N_("in {game} only two sides can meet at one table"),
                                 game=GAMES[event.game].title)
        mine = await self._ready_entrant(event, user_id)
        theirs = await self.store.duplicate_entrant_of(event.id, opponent_id)
        if theirs is None or not theirs.ready:
            raise DuplicateError(N_("the pair you want to meet has not entered this event "
                                    "or is not confirmed yet"))
        if theirs.id == mine.id:
            raise DuplicateError(N_("you meet another pair, not your own"))
        invited = self._invites.get((event.id, theirs.id))
        accepting = invited is not None and invited[0] == mine.id
        if accepting and board is None and invited is not None:
            board = invited[1]  # the board the asking pair named, if any
        plays = await self.store.list_duplicate_plays(event.id)
        for entrant in (mine, theirs):
            if any(p.entrant_id == entrant.id and p.status == "playing" and p.table_id is not
                   None and self.tables.holds(p.table_id) for p in plays):
                raise DuplicateError(N_("{name} has a board under way: finish it first"),
                                     name=entrant.name)
        asked = board
        if board is not None and not 1 <= board <= event.boards:
            raise DuplicateError(N_("this event has boards 1 to {last}"), last=event.boards)
        for entrant in (mine, theirs):
            if board is not None and any(p.entrant_id == entrant.id and p.board == board
                                         for p in plays):
                raise DuplicateError(N_("{name} has already played board {board}"),
                                     name=entrant.name, board=board)
        started = {p.board for p in plays if p.entrant_id in (mine.id, theirs.id)}
        board = board or next((b for b in range(1, event.boards + 1) if b not in started),
                              None)
        if board is None:
            raise DuplicateError(N_("there is no board that neither pair has played"))
        if not accepting:
            self._invites[(event.id, mine.id)] = (theirs.id, asked)
            return Invitation(mine, theirs, asked)
        del self._invites[(event.id, theirs.id)]
        return await self._start_meeting(event, (theirs, mine), board, names, location)

    async def _ready_entrant(self, event: DuplicateEvent, user_id: int) -> DuplicateEntrant:
        entrant = await self.store.duplicate_entrant_of(event.id, user_id)
        if entrant is None:
            raise DuplicateError(N_("you have not entered this event"))
        if not entrant.ready:
            raise DuplicateError(N_("your partner has not confirmed the entry yet"))
        return entrant

    async def _start_meeting(self, event: DuplicateEvent,
                             pair: tuple[DuplicateEntrant, DuplicateEntrant], number: int,
                             names: Mapping[int, str],
                             location: Callable[[int, Sequence[int]], Awaitable[Location]]
                             ) -> PlayStart:
        boards = {b.number: b for b in await self.store.list_duplicate_boards(event.id)}
        board = board_of(event, boards[number])
        try:
            plays = await self.store.start_duplicate_meeting(event.id, (pair[0].id, pair[1].id),
                                                             number)
        except AlreadyPlayed:  # the other pair started it a moment ago
            raise DuplicateError(N_("one of the pairs has already played board {board}"),
                                 board=number) from None
        members = [m for entrant in pair for m in entrant.members]
        table_id = await self._open_table(event, board, list(zip(pair, plays, strict=True)),
                                          names, await location(number, members))
        return PlayStart(table_id, number, plays[1].direction, False)

    async def _start(self, event: DuplicateEvent, entrant: DuplicateEntrant, number: int,
                     names: Mapping[int, str],
                     location: Callable[[int], Awaitable[Location]]) -> PlayStart:
        boards = {b.number: b for b in await self.store.list_duplicate_boards(event.id)}
        board = board_of(event, boards[number])
        sides = board.sides()
        try:
            play = await self.store.start_duplicate_play(event.id, entrant.id, number,
                                                         len(sides))
        except AlreadyPlayed:
            raise DuplicateError(N_("you have already played board {board}"),
                                 board=number) from None
        table_id = await self._open_table(event, board, [(entrant, play)], names,
                                          await location(number))
        return PlayStart(table_id, number, play.direction, False)

    async def _open_table(self, event: DuplicateEvent, board: Board,
                          entrants: Sequence[tuple[DuplicateEntrant, DuplicatePlay]],
                          names: Mapping[int, str], place: Location) -> int:
        """Open and start the board's table: each entrant's members in the seats of its
        play's direction, ``search`` AI players in every other seat."""
        sides = board.sides()
        seats: list[Seat | None] = [Seat.ai(self.ai_level) for _ in range(board.players)]
        for entrant, play in entrants:
            for seat, member in zip(sides[play.direction], entrant.members, strict=False):
                seats[seat] = Seat.human(member, names.get(member, "?"))
        table_id = await self.tables.create_table(
            place, event.game, options=event.options, players=event.players,
            seed=board.seed, first_dealer=board.dealer, seats=seats, standin=self.ai_level,
            ai_pace=self.ai_pace)
        for entrant, play in entrants:
            await self.store.set_duplicate_play_table(entrant.id, play.board, table_id)
        await self.tables.update_meta(table_id, **{DEAL_LIMIT: 1, "duplicate": {
            "event": event.id, "board": board.number}})
        await self.tables.start_match(table_id)
        return table_id

    # -- the end of a board --------------------------------------------------------------

    async def board_over(self, table_id: int) -> list[DuplicatePlay]:
        """Finish the plays of a table whose board deal is over (one entrant's, or the two
        of a meeting: the one deal is each one's result from its direction): store each
        record and result, close the table, tell the entrants. Idempotent; empty when the
        table is not a duplicate table or its board is not over."""
        plays = [p for p in await self.store.duplicate_plays_of_table(table_id)
                 if p.status != "finished"]
        if not plays or table_id in self._finishing:
            return []
        live = self.tables.registry.tables.get(table_id)
        if live is None or live.match is None or not live.deals_done:
            return []
        record = live.match.record()  # the board's deal (after any automatic redeals)
        self._finishing.add(table_id)
        told: list[tuple[DuplicateEvent, DuplicateEntrant, DuplicatePlay]] = []
        try:
            for play in plays:
                event = await self.store.get_duplicate_event(play.event_id)
                entrant = await self.store.get_duplicate_entrant(play.entrant_id)
                assert event is not None and entrant is not None
                tag = tag_of(event, entrant, play)
                board_record = tagged(dict(record), tag)
                result = await asyncio.to_thread(board_result, board_record, tag)
                told.append((event, entrant, await self.store.finish_duplicate_play(
                    entrant.id, play.board, board_record,
                    {"score": str(result.score), "finished": result.finished})))
            with contextlib.suppress(Exception):  # already closed: nothing to do
                await self.tables.abandon(table_id, BOARD_OVER)
        finally:
            self._finishing.discard(table_id)
        for event, entrant, finished in told:
            if self.on_board is not None:
                try:
                    await self.on_board(event, entrant, finished.board)
                except Exception:
                    log.exception("duplicate event %s: telling entrant %s failed", event.id,
                                  entrant.id)
        return [finished for _, _, finished in told]

    async def reconcile(self) -> None:
        """After a restart: finish every board whose deal ended while nobody watched, and
        close the events whose window has closed."""
        for table_id in self.tables.table_ids():
            await self.board_over(table_id)
        for event in await self.store.due_duplicate_events(self.clock.now()):
            await self.close(event.id, event.guild_id)

    async def run(self, poll_seconds: float = 60.0) -> None:
        """Watch the tables for finished boards and close events at their window's end
        (looked for every ``poll_seconds`` of real time; the end is judged by the service's
        clock)."""
        watcher = self.tables.watch()
        await self.reconcile()

        async def closer() -> None:
            while True:
                # Real time between passes: a sleeper on the service's clock would be one
                # more for whoever drives a fake clock (the window is judged by its now).
                await asyncio.sleep(poll_seconds)
                for event in await self.store.due_duplicate_events(self.clock.now()):
                    try:
                        await self.close(event.id, event.guild_id)
                    except Exception:
                        log.exception("duplicate event %s: the close failed", event.id)

        task = asyncio.create_task(closer())
        try:
            async for ev in watcher:
                if ev.type == "resync":
                    await self.reconcile()
                elif ev.type == "deal_scored":
                    try:
                        await self.board_over(ev.table_id)
                    except Exception:
                        log.exception("table %s: finishing the duplicate board failed",
                                      ev.table_id)
        finally:
            task.cancel()

    # -- what an entrant may see ---------------------------------------------------------

    async def ai_record(self, event: DuplicateEvent, board: DuplicateBoard,
                        direction: int) -> dict[str, Any]:
        """The AI's play of a board (every seat ``search``), computed once per board and
        direction and stored; the direction names the seeds of its players, so the two
        directions are two independent plays."""
        stored = await self.store.get_duplicate_ai(event.id, board.number, direction)
        if stored is not None:
            return stored
        key = (event.id, board.number, direction)
        lock = self._ai_locks.setdefault(key, asyncio.Lock())
        async with lock:
            stored = await self.store.get_duplicate_ai(event.id, board.number, direction)
            if stored is None:
                record = await asyncio.to_thread(play_with_ai, board_of(event, board),
                                                 self.ai_level, self.budget, f"ai:{direction}")
                stored = await self.store.put_duplicate_ai(event.id, board.number, direction,
                                                           record)
        return stored

    async def reveal(self, event_id: int, guild_id: int, user_id: int, board: int) -> Reveal:
        """The traveller, hand record and AI result of a board, for a member of an entrant
        that finished it (anyone after the close); DuplicateError otherwise."""
        event = await self.event(event_id, guild_id)
        entrant = await self.store.duplicate_entrant_of(event.id, user_id)
        play = None if entrant is None else await self.store.get_duplicate_play(entrant.id,
                                                                                board)
        if entrant is None or play is None or play.status != "finished":
            raise DuplicateError(N_("you see a board's results once you have finished it"))
        return await self._reveal(event, entrant, play)

    async def _reveal(self, event: DuplicateEvent, entrant: DuplicateEntrant,
                      play: DuplicatePlay) -> Reveal:
        boards = {b.number: b for b in await self.store.list_duplicate_boards(event.id)}
        results = await self.results(event, boards=[play.board])
        assert play.record is not None
        ai, ai_result = await self.ai_result(event, boards[play.board], play.direction)
        return Reveal(event, play.board, entrant, play, results.score,
                      _hands(play.record), ai, ai_result)

    async def ai_result(self, event: DuplicateEvent, board: DuplicateBoard,
                        direction: int) -> tuple[dict[str, Any], BoardResult]:
        """The AI's record of a board and direction and its result (net score)."""
        record = await self.ai_record(event, board, direction)
        method: Method = "imps" if event.scoring == "imps" else "matchpoints"
        tag = Tag(str(event.id), board.number, event.boards, "AI", direction, method)
        return record, await asyncio.to_thread(board_result, record, tag)

    # -- results and the close -----------------------------------------------------------

    async def results(self, event: DuplicateEvent,
                      boards: Sequence[int] | None = None) -> EventResults:
        """The event scored from its stored records (``boards``: only those boards'
        plays, for a traveller), with the same code as ``tricktable duplicate score``."""
        entrants = {e.id: e for e in await self.store.list_duplicate_entrants(event.id)}
        plays = await self.store.list_duplicate_plays(event.id)
        wanted = [p for p in plays if boards is None or p.board in boards]

        def score() -> tuple[list[BoardResult], dict[tuple[str, int], dict[str, Any]]]:
            results, records = [], {}
            for p in wanted:
                e = entrants[p.entrant_id]
                if p.status != "finished" or p.record is None:
                    results.append(BoardResult(p.board, p.direction, e.name, finished=False))
                    continue
                try:
                    results.append(board_result(p.record, tag_of(event, e, p)))
                except RecordError:
                    log.exception("duplicate event %s: a stored record does not replay",
                                  event.id)
                    continue
                records[(e.name, p.board)] = p.record
            return results, records

        results, records = await asyncio.to_thread(score)
        method: Method = "imps" if event.scoring == "imps" else "matchpoints"
        scored = score_event(results, event.boards, method,
                             entrants=[e.name for e in entrants.values()])
        hands: dict[int, list[list[str]]] = {}
        for (_, board), record in records.items():
            hands.setdefault(board, _hands(record))
        return EventResults(event, scored, {e.name: e for e in entrants.values()}, records,
                            hands)

    async def leaderboard(self, guild_id: int, game: str | None = None,
                          min_boards: int = 1) -> list[LeaderRow]:
        """The duplicate leaderboard: every member of the guild's closed events that count
        for it (``leaderboard``), by the mean matchpoint percentage of the boards they
        finished (an IMP event is scored in matchpoints for it), then more boards; members
        with fewer than ``min_boards`` boards are left out."""
        sums: dict[int, tuple[Fraction, int, set[int]]] = {}
        for event in await self.store.list_duplicate_events(guild_id, status="closed"):
            if not event.leaderboard or (game is not None and event.game != game):
                continue
            scored = self._closed.get(event.id)
            if scored is None:
                results = await self.results(event)
                scored = (score_event(_results_of(results), event.boards, "matchpoints",
                                      entrants=list(results.entrants)), results.entrants)
                self._closed[event.id] = scored  # a closed event never changes
            score, entrants = scored
            for row in score.ranking:
                done = [b.value for b in row.boards if b.finished]
                for member in entrants[row.entrant].members:
                    total, boards, events = sums.get(member, (Fraction(0), 0, set()))
                    sums[member] = (total + sum(done, Fraction(0)), boards + len(done),
                                    events | {event.id} if done else events)
        rows = sorted(((total / count, count, len(played), user)
                       for user, (total, count, played) in sums.items()
                       if count >= max(1, min_boards)),
                      key=lambda r: (-r[0], -r[1], r[3]))
        out: list[LeaderRow] = []
        for i, (percent, count, n_events, user) in enumerate(rows):
            prev = out[-1] if out else None
            same = prev is not None and (prev.percent, prev.boards) == (percent, count)
            out.append(LeaderRow(prev.rank if same and prev else i + 1, user, percent,
                                 count, n_events))
        return out

    async def close(self, event_id: int, guild_id: int) -> EventResults:
        """Close the event (idempotent): boards under way stay unfinished and their tables
        are closed; ``on_close`` is awaited (the front end posts the results, each piece
        claimed once)."""
        event = await self.event(event_id, guild_id)
        if event.status != "closed":
            event = await self.store.close_duplicate_event(event.id)
        for p in await self.store.list_duplicate_plays(event.id):
            if p.status == "playing" and p.table_id is not None and self.tables.holds(
                    p.table_id):
                await self.board_over(p.table_id)  # a board that just ended still counts
                with contextlib.suppress(Exception):
                    await self.tables.abandon(p.table_id, BOARD_OVER)
        results = await self.results(event)
        if event.league_id is not None:
            await self._league_outcomes(event, results)
        if self.on_close is not None:
            await self.on_close(event)
        return results

    async def _league_outcomes(self, event: DuplicateEvent, results: EventResults) -> None:
        """Store the closed round's outcomes for the league's standings (each league
        entrant by its members; written again, the same, at every close)."""
        assert event.league_id is not None
        league = await self.store.get_league(event.league_id)
        if league is None:
            return
        by_members = {frozenset(e.members): e.id for e in await self.store.list_entrants(
            (await league_season(self.store, league)).id)}
        ranks: dict[int, int | None] = {}
        for row in results.score.ranking:
            entrant = results.entrants.get(row.entrant)
            league_entrant = None if entrant is None else by_members.get(
                frozenset(entrant.members))
            if league_entrant is not None:
                ranks[league_entrant] = row.rank
        await self.store.claim_duplicate_post(event.id, ROUND_POST)
        await self.store.set_duplicate_post_value(event.id, ROUND_POST,
                                                  round_value(field_outcomes(ranks)))


def _results_of(results: EventResults) -> list[BoardResult]:
    """The finished results of a scored event (for scoring it again another way)."""
    return [row.result for travel in results.score.travellers for row in travel.rows]


def _hands(record: Mapping[str, Any]) -> list[list[str]]:
    """The hands as dealt of the board's played deal (the last deal of its record)."""
    deals = record.get("deals") or []
    return [list(h) for h in (deals[-1].get("hands") or [])] if deals else []
