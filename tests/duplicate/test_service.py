"""The duplicate service on a real store and the real table service: entering, playing a
board at a table of one's own, the board's end, secrecy, a restart mid-board, the close."""

from __future__ import annotations

import asyncio
import datetime as dt
from collections.abc import AsyncIterator, Iterator, Sequence
from contextlib import AsyncExitStack
from pathlib import Path
from typing import Any

import pytest
from duplicate_stack import duplicate_services
from pgtest import Schemas, require_postgres
from table_play import play_humans

from bot.duplicate.records import Tag, board_result
from bot.duplicate.scoring import score_event
from bot.duplicate.service import DuplicateError, DuplicateService, Invitation, PlayStart
from bot.service import FakeClock, TableService
from storage import ChannelLocation, Store, upgrade
from storage.models import Location

GUILD = 9
START = dt.datetime(2026, 11, 27, 20, 0, tzinfo=dt.UTC)
NAMES = {u: f"P{u}" for u in range(100, 120)}


class World:
    """A store, a table service and a duplicate service that can be restarted."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.clock = FakeClock(START + dt.timedelta(hours=1))
        self.places = 0

    async def open(self) -> None:
        self.running = AsyncExitStack()
        stack = await self.running.enter_async_context(duplicate_services(self.url, self.clock))
        self.store: Store = stack.store
        self.tables: TableService = stack.tables
        self.dup: DuplicateService = stack.dup

    async def shut(self) -> None:
        await self.running.aclose()

    async def place(self, board: int) -> Location:
        self.places += 1
        return ChannelLocation(GUILD, 5000 + self.places)

    async def meeting_place(self, board: int, members: Sequence[int]) -> Location:
        return await self.place(board)


@pytest.fixture
async def world(tmp_path: Path) -> AsyncIterator[World]:
    url = f"sqlite:///{tmp_path / 'dup.db'}"
    await upgrade(url)
    w = World(url)
    await w.open()
    try:
        yield w
    finally:
        await w.shut()


@pytest.fixture(scope="module")
def duplicate_schemas() -> Iterator[Schemas]:
    require_postgres()
    run = Schemas("ttdup")
    try:
        yield run
    finally:
        run.drop_all()


@pytest.fixture(params=["sqlite", "postgres"])
def any_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A new database on SQLite, then on PostgreSQL (a fresh schema); a sync fixture, so
    the PostgreSQL check never runs inside an event loop."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'dup.db'}"
    schemas: Schemas = request.getfixturevalue("duplicate_schemas")
    return schemas.fresh_url()


@pytest.fixture
async def any_world(any_url: str) -> AsyncIterator[World]:
    """A world on each backend."""
    url = any_url
    await upgrade(url)
    w = World(url)
    await w.open()
    try:
        yield w
    finally:
        await w.shut()


async def make_event(w: World, game: str = "turup", boards: int = 2, scoring: str = "matchpoints"
                     ) -> int:
    event = await w.dup.create_event(
        GUILD, 1, "Friday night", game, boards=boards, opens_at=START,
        closes_at=START + dt.timedelta(days=2), time_zone="Europe/Oslo", created_by=1,
        scoring=scoring)
    return event.id


async def play_out(w: World, table_id: int, users: list[int], *, moves: int | None = None
                   ) -> None:
    """Play the humans' turns with their first legal action until the table closes (or
    ``moves`` human moves were made)."""
    await play_humans(w.tables, table_id, users, moves=moves)


async def finished(w: World, event_id: int, n: int) -> None:
    for _ in range(1000):
        plays = await w.store.list_duplicate_plays(event_id)
        if sum(p.status == "finished" for p in plays) >= n:
            return
        await asyncio.sleep(0.01)
    raise AssertionError("boards did not finish")


async def test_create_refuses_bad_events(world: World) -> None:
    with pytest.raises(DuplicateError, match="IMPs are for Tarabish"):
        await make_event(world, "turup", scoring="imps")
    with pytest.raises(DuplicateError, match="1 to 36 boards"):
        await make_event(world, boards=0)
    with pytest.raises(DuplicateError, match="unknown game"):
        await make_event(world, "bridge")
    event = await world.store.get_duplicate_event(await make_event(world, "truf"))
    assert event is not None and event.format == "individual"


async def test_pair_plays_a_board_and_sees_it_only_then(world: World) -> None:
    w = world
    event_id = await make_event(w)
    pair = await w.dup.enter(event_id, GUILD, 100, "Ann", partner=(101, "Bo"))
    other = await w.dup.enter(event_id, GUILD, 102, "Cy")
    with pytest.raises(DuplicateError, match="has not confirmed"):
        await w.dup.play(event_id, GUILD, 100, NAMES, w.place)
    with pytest.raises(DuplicateError, match="already entered"):
        await w.dup.enter(event_id, GUILD, 101, "Bo")
    await w.dup.confirm(event_id, GUILD, 101)
    start = await w.dup.play(event_id, GUILD, 100, NAMES, w.place)
    assert (start.board, start.resumed) == (1, False)
    seats = w.tables.info(start.table_id)
    assert seats is not None
    with pytest.raises(DuplicateError, match="once you have finished it"):
        await w.dup.reveal(event_id, GUILD, 100, 1)
    await play_out(w, start.table_id, list(pair.members))
    await finished(w, event_id, 1)
    assert not w.tables.holds(start.table_id)
    # The board's table recorded no match: nothing in /history, /stats or exports.
    assert await w.store.get_match_for_table(start.table_id) is None
    reveal = await w.dup.reveal(event_id, GUILD, 101, 1)
    assert [len(h) for h in reveal.hands] == [9, 9, 9, 9]
    assert reveal.ai_result.finished and reveal.ai_record["game"] == "turup"
    assert [r.result.entrant for r in reveal.score.travellers[0].rows] == ["Ann & Bo"]
    # Cy has not finished board 1: nothing of it for him.
    await w.dup.play(event_id, GUILD, 102, NAMES, w.place)
    with pytest.raises(DuplicateError, match="once you have finished it"):
        await w.dup.reveal(event_id, GUILD, 102, 1)
    # A second table for a played board is refused.
    with pytest.raises(DuplicateError, match="already played board 1"):
        await w.dup.play_board(event_id, GUILD, 100, 1, NAMES, w.place)
    assert other.ready


async def test_directions_cover_both_sides(world: World) -> None:
    w = world
    event_id = await make_event(w, boards=1)
    directions = []
    for user in (100, 101, 102, 103):
        await w.dup.enter(event_id, GUILD, user, NAMES[user])
        directions.append((await w.dup.play(event_id, GUILD, user, NAMES, w.place)).direction)
    assert sorted(directions) == [0, 0, 1, 1]


async def test_restart_mid_board_resumes_it(world: World) -> None:
    w = world
    event_id = await make_event(w, "tarabish", boards=1, scoring="imps")
    await w.dup.enter(event_id, GUILD, 100, "Ann", partner=(101, "Bo"))
    await w.dup.confirm(event_id, GUILD, 101)
    start = await w.dup.play(event_id, GUILD, 100, NAMES, w.place)
    await play_out(w, start.table_id, [100, 101], moves=3)
    await w.shut()
    await w.open()
    again = await w.dup.play(event_id, GUILD, 101, NAMES, w.place)
    assert (again.table_id, again.board, again.resumed) == (start.table_id, 1, True)
    await play_out(w, again.table_id, [100, 101])
    await finished(w, event_id, 1)
    play = (await w.store.list_duplicate_plays(event_id))[0]
    assert play.record is not None and len(play.record["deals"][-1]["actions"]) > 3


async def test_close_scores_like_the_cli_and_averages_unfinished(world: World) -> None:
    w = world
    event_id = await make_event(w, boards=2)
    for user in (100, 101, 102):
        await w.dup.enter(event_id, GUILD, user, NAMES[user])
        start = await w.dup.play(event_id, GUILD, user, NAMES, w.place)
        await play_out(w, start.table_id, [user])
    await finished(w, event_id, 3)
    started = await w.dup.play(event_id, GUILD, 100, NAMES, w.place)  # left unfinished
    results = await w.dup.close(event_id, GUILD)
    assert not w.tables.holds(started.table_id)
    with pytest.raises(DuplicateError, match="closed"):
        await w.dup.play(event_id, GUILD, 101, NAMES, w.place)
    again = [board_result(rec, Tag.from_json(rec["duplicate"])) for rec in results.records.values()]
    cli = score_event(again, 2, entrants=list(results.entrants))
    assert [(r.rank, r.entrant, r.total) for r in cli.ranking] == [
        (r.rank, r.entrant, r.total) for r in results.score.ranking]
    card = results.score.card("P100")
    assert card is not None and card.finished == 1 and not card.boards[1].finished


async def test_the_window_opens_and_closes_on_the_clock(world: World) -> None:
    w = world
    later = await w.dup.create_event(
        GUILD, 1, "Sunday", "turup", boards=1, opens_at=START + dt.timedelta(days=1),
        closes_at=START + dt.timedelta(days=2), time_zone="Europe/Oslo", created_by=1)
    with pytest.raises(DuplicateError, match=r"opens at 2026-11-28 21:00 \(Europe/Oslo\)"):
        await w.dup.enter(later.id, GUILD, 100, "Ann")
    event_id = await make_event(w, boards=1)
    await w.dup.enter(event_id, GUILD, 100, "Ann")
    start = await w.dup.play(event_id, GUILD, 100, NAMES, w.place)
    # The window ends with the board under way: the watcher closes the event on the
    # service's clock; the board is left unfinished and its table closed.
    await w.clock.advance(to=START + dt.timedelta(days=2, minutes=5))
    for _ in range(500):
        event = await w.store.get_duplicate_event(event_id)
        if event is not None and event.status == "closed" and not w.tables.holds(
                start.table_id):
            break
        await asyncio.sleep(0.01)
    assert event is not None and event.status == "closed"
    assert not w.tables.holds(start.table_id)
    results = await w.dup.results(event)
    card = results.score.card("Ann")
    assert card is not None and card.rank is None and card.finished == 0
    with pytest.raises(DuplicateError, match="is closed"):
        await w.dup.enter(event_id, GUILD, 101, "Bo")


async def test_leaderboard_counts_closed_leaderboard_events_in_matchpoints(world: World
                                                                           ) -> None:
    w = world
    counted = await w.dup.create_event(
        GUILD, 1, "Counted", "tarabish", boards=1, opens_at=START,
        closes_at=START + dt.timedelta(days=2), time_zone="UTC", created_by=1,
        scoring="imps", leaderboard=True)
    ignored = await make_event(w, boards=1)
    for user in (100, 101, 102):
        for event_id in (counted.id, ignored):
            await w.dup.enter(event_id, GUILD, user, NAMES[user])
            start = await w.dup.play(event_id, GUILD, user, NAMES, w.place)
            await play_out(w, start.table_id, [user])
    await finished(w, counted.id, 3)
    assert await w.dup.leaderboard(GUILD) == []  # nothing closed yet
    results = await w.dup.close(counted.id, GUILD)
    await w.dup.close(ignored, GUILD)
    # The IMP event scored in matchpoints: 2 per result beaten, 1 per tie.
    board = {row.result.entrant: row.percent for row in score_event(
        [r.result for r in results.score.travellers[0].rows], 1).travellers[0].rows}
    rows = await w.dup.leaderboard(GUILD)
    assert {r.user_id: r.percent for r in rows} == {u: board[NAMES[u]] for u in (100, 101, 102)}
    assert all(r.boards == 1 and r.events == 1 for r in rows)
    assert [r.rank for r in rows] == sorted(r.rank for r in rows)
    assert await w.dup.leaderboard(GUILD, game="turup") == []


async def test_pending_entries_and_meeting_invitations_survive_a_restart(any_world: World
                                                                         ) -> None:
    """A pair waiting for its partner and a pair's invitation to meet are stored: after a
    restart the partner confirms, and the other pair accepts the invitation (the board it
    named) as if nothing had happened."""
    w = any_world
    event_id = await make_event(w, boards=3)
    await w.dup.enter(event_id, GUILD, 100, "Ann", partner=(101, "Bo"))
    await w.dup.enter(event_id, GUILD, 102, "Cy", partner=(103, "Di"))
    await w.dup.confirm(event_id, GUILD, 101)
    await w.shut()
    await w.open()
    with pytest.raises(DuplicateError, match="is not confirmed yet"):
        await w.dup.meet(event_id, GUILD, 100, 102, NAMES, w.meeting_place)
    assert (await w.dup.confirm(event_id, GUILD, 103)).ready
    asked = await w.dup.meet(event_id, GUILD, 100, 102, NAMES, w.meeting_place, board=2)
    assert isinstance(asked, Invitation) and asked.board == 2
    assert await w.store.list_duplicate_plays(event_id) == []
    await w.shut()
    await w.open()
    accepted = await w.dup.meet(event_id, GUILD, 103, 101, NAMES, w.meeting_place)
    assert isinstance(accepted, PlayStart) and accepted.board == 2
    plays = await w.store.list_duplicate_plays(event_id)
    assert {(p.board, p.table_id) for p in plays} == {(2, accepted.table_id)}
    assert sorted(p.direction for p in plays) == [0, 1]
    assert await w.store.get_duplicate_invitation(event_id, asked.by.id) is None  # used up


async def test_accepting_an_invitation_replaced_meanwhile_asks_instead(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    """The asking pair replaces its invitation (another board) between the moment the other
    pair's acceptance reads it and the moment it takes it: no table starts on the withdrawn
    invitation; the acceptance becomes an invitation of the accepting pair, and the asking
    pair's new one stays."""
    w = world
    event_id = await make_event(w, boards=3)
    await w.dup.enter(event_id, GUILD, 100, "Ann", partner=(101, "Bo"))
    await w.dup.enter(event_id, GUILD, 102, "Cy", partner=(103, "Di"))
    await w.dup.confirm(event_id, GUILD, 101)
    await w.dup.confirm(event_id, GUILD, 103)
    asked = await w.dup.meet(event_id, GUILD, 100, 102, NAMES, w.meeting_place, board=2)
    assert isinstance(asked, Invitation)
    take = w.store.take_duplicate_invitation

    async def replaced_first(*args: Any, **kwargs: Any) -> Any:
        # what a second command of the asking pair, run at this moment, stores
        await w.store.put_duplicate_invitation(event_id, asked.by.id, asked.to.id, 3)
        return await take(*args, **kwargs)

    monkeypatch.setattr(w.store, "take_duplicate_invitation", replaced_first)
    answer = await w.dup.meet(event_id, GUILD, 103, 101, NAMES, w.meeting_place)
    assert isinstance(answer, Invitation) and answer.by.id == asked.to.id
    assert await w.store.list_duplicate_plays(event_id) == []
    kept = await w.store.get_duplicate_invitation(event_id, asked.by.id)
    assert kept is not None and kept.board == 3
