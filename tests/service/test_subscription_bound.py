"""Bounded subscriptions: a front end that stops reading costs at most its bound, never
blocks the table, and learns that it fell behind (``resync``) instead of losing events
silently.

* On a real :class:`TableService` (SQLite file store): an unread subscription (seat,
  spectator, ``watch()``) stays within its bound for a whole match; after an overflow the
  reader gets ``resync`` then exactly the newer events, and re-reading the state gives what
  a subscription that kept up holds; under constant overflows a seat never receives
  anything of another seat, and every event is either received or counted in a
  ``resync``.
* On :class:`Subscription` alone, a Hypothesis property over random deliveries and reads.
* ``tricktable play`` with a tiny bound plays a whole match to the same record.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
import threading
from pathlib import Path

import pytest
from card_names import cards_in
from hypothesis import given, settings
from hypothesis import strategies as st

import bot.service.events as events_module
from bot.service import FakeClock, NoSuchTable, Seat, Subscription, TableEvent, TableService
from bot.service.events import MIN_BOUND, RESYNC, SUBSCRIPTION_BOUND, WATCH_BOUND
from games.registry import GAMES
from storage import TerminalLocation

CONFIGS = [(name, info.player_counts[0]) for name, info in GAMES.items()]
BIG = 1_000_000
"""A bound no test match reaches: a reference subscription that never overflows."""



def ai_seats(players: int, level: str = "random") -> list[Seat]:
    return [Seat.ai(level) for _ in range(players)]


def account(received: list[TableEvent], reference: list[TableEvent]) -> None:
    """Every event of ``reference`` (what a subscription that never fell behind got) is,
    in order, either in ``received`` (an equal event: the same object but for the first
    ``state``/``lobby``, made per subscription) or counted by the ``resync`` that stands in
    its place; nothing else was received."""
    at = 0
    for event in received:
        if event.type == RESYNC:
            assert event.data["dropped"] >= 1
            at += event.data["dropped"]
        else:
            assert at < len(reference) and reference[at] == event, (at, event)
            at += 1
    assert at == len(reference)


# == the table service ================================================================
async def test_an_unread_subscription_stays_within_its_bound_for_a_whole_match(
        service: TableService) -> None:
    table_id = await service.create_table(
        TerminalLocation("bound"), "turup", players=4, seed=11, seats=ai_seats(4),
        ai_pace=0)
    unread = {s: service.subscribe(table_id, s) for s in [None, 0, 1, 2, 3]}
    tiny = service.subscribe(table_id, 2, bound=4)
    watcher = service.watch()
    assert all(s.bound == SUBSCRIPTION_BOUND for s in unread.values())
    assert watcher.bound == WATCH_BOUND
    watcher.bound = SUBSCRIPTION_BOUND  # one table publishes far less than WATCH_BOUND
    reference = service.subscribe(table_id, 2, bound=BIG)
    read: list[TableEvent] = []
    most: dict[int, int] = {}
    watched = [*unread.values(), tiny, watcher]

    async def keep_reading() -> None:
        async for event in reference:
            read.append(event)

    reader = asyncio.create_task(keep_reading())
    done = False

    async def sample() -> None:
        while not done:
            for sub in watched:
                most[id(sub)] = max(most.get(id(sub), 0), sub.queued)
            await asyncio.sleep(0)

    sampler = asyncio.create_task(sample())
    await service.start_match(table_id)
    await service.settle(timeout=120)
    await reader
    done = True
    await sampler

    assert read[-1].type == "match_over" and reference.overflows == 0
    assert len(read) > 2 * SUBSCRIPTION_BOUND  # the table published far more than a bound
    for sub in watched:
        assert most[id(sub)] <= sub.bound
        assert sub.queued <= sub.bound
        assert sub.overflows >= 1
    # The tiny one holds the resync and the last event; the table was never held up.
    left = tiny.drain()
    assert [e.type for e in left] == [RESYNC, "match_over"]
    assert left[0].data == {"dropped": len(read) - 1}
    assert left[1] is read[-1]
    account(left, read)
    # The watcher's resync is of no table (id 0) and public.
    first = watcher.get_nowait()
    assert first is not None and first.type == RESYNC and first.table_id == 0
    assert first.to is None
    assert unread[None].peek()[-1].type == "match_over"


async def test_after_an_overflow_the_reader_gets_resync_then_the_newer_events(
        service: TableService, clock: FakeClock) -> None:
    bound = 8
    table_id = await service.create_table(
        TerminalLocation("behind"), "turup", players=4, seed=5, seats=ai_seats(4, "rules"),
        ai_pace=1.0)
    behind = service.subscribe(table_id, 0, bound=bound)
    keeping = service.subscribe(table_id, 0, bound=BIG)
    await service.start_match(table_id)
    seen: list[TableEvent] = []
    for _ in range(12):  # twelve AI moves, the AI pace on the fake clock
        await clock.advance(1.0)
        await service.settle()
        seen.extend(keeping.drain())
        assert behind.queued <= bound
    assert len(seen) > 3 * bound and behind.overflows >= 1

    got = behind.drain()
    assert got[0].type == RESYNC
    assert all(e.type != RESYNC for e in got[1:])  # at most one resync pending
    newer = got[1:]
    assert newer and all(a is b for a, b in zip(newer, seen[-len(newer):], strict=True))
    assert got[0].data == {"dropped": len(seen) - len(newer)}
    assert got[0].version == max(e.version for e in seen[:-len(newer)])
    assert got[0].to == frozenset({0}) and not got[0].exclude
    assert behind.dropped == len(seen) - len(newer)

    # Re-reading gives what the subscription that kept up shows, and what a new one sees.
    now = service.state(table_id, 0)
    last = [e for e in seen if e.type == "state"][-1]
    assert now == last
    fresh = service.subscribe(table_id, 0)
    assert fresh.get_nowait() == now
    fresh.close()

    # Then events are queued as usual again, the same as for the one that kept up.
    await clock.advance(1.0)
    await service.settle()
    after = behind.drain()
    assert after and after == keeping.drain()
    assert all(e.type != RESYNC for e in after)


@pytest.mark.parametrize(("game", "players"), CONFIGS)
async def test_a_seat_never_gets_another_seats_cards_through_a_resync(
        service: TableService, game: str, players: int) -> None:
    table_id = await service.create_table(
        TerminalLocation(f"sec-{game}"), game, players=players, seed="resync",
        seats=ai_seats(players), ai_pace=0)
    seats: list[int | None] = [None, *range(players)]
    slow = {s: service.subscribe(table_id, s, bound=MIN_BOUND + 1) for s in seats}
    reference = {s: service.subscribe(table_id, s, bound=BIG) for s in seats}
    received: dict[int | None, list[TableEvent]] = {s: [] for s in seats}
    reread: dict[int | None, list[TableEvent]] = {s: [] for s in seats}

    async def read(seat: int | None) -> None:
        async for event in slow[seat]:
            received[seat].append(event)
            if event.type == RESYNC:  # as a front end does: re-read the table
                with contextlib.suppress(NoSuchTable):  # a closed table: its last events follow
                    reread[seat].append(service.state(table_id, seat))
            await asyncio.sleep(0)  # a reader that lags behind the bursts

    readers = [asyncio.create_task(read(s)) for s in seats]
    await service.start_match(table_id)
    await service.settle(timeout=120)
    await asyncio.wait_for(asyncio.gather(*readers), 60)

    for seat in seats:
        ref = reference[seat].drain()
        resyncs = [e for e in received[seat] if e.type == RESYNC]
        assert resyncs, "the slow reader never fell behind"
        assert received[seat][-1].type == "match_over"
        for event in received[seat]:
            assert event.visible_to(seat)
        for r in resyncs:
            assert set(r.data) == {"dropped"} and not cards_in(r.data)
            assert r.to == (None if seat is None else frozenset({seat}))
            assert not r.exclude
            assert all(not r.visible_to(other) for other in range(players) if other != seat
                       ) or seat is None
        account(received[seat], ref)
        for state in reread[seat]:
            assert state.to == (None if seat is None else frozenset({seat}))


# == Subscription alone ===============================================================
OPS = st.lists(
    st.one_of(
        st.tuples(st.just("deliver"), st.sampled_from([None, 0, 1]),
                  st.sampled_from([None, 0, 1])),
        st.tuples(st.just("get"), st.just(None), st.just(None)),
        st.tuples(st.just("drain"), st.just(None), st.just(None)),
    ),
    max_size=80,
)


@settings(max_examples=300, deadline=None, database=None)
@given(bound=st.integers(MIN_BOUND, 6), seat=st.sampled_from([None, 0, 1]), ops=OPS)
def test_subscription_property(bound: int, seat: int | None,
                               ops: list[tuple[str, int | None, int | None]]) -> None:
    """Whatever the deliveries and reads: the queue never exceeds the bound, at most one
    ``resync`` is queued and only first, events arrive in delivery order, and every
    visible event is received or counted by a ``resync`` (none lost silently, none of
    another seat)."""
    sub = Subscription(7, seat, lambda s: None, bound=bound)
    visible: list[TableEvent] = []
    received: list[TableEvent] = []
    for n, (op, to, exclude) in enumerate(ops):
        if op == "deliver":
            event = TableEvent(7, "play", {"n": n}, None if to is None else frozenset({to}),
                               n, frozenset() if exclude is None else frozenset({exclude}))
            sub.deliver(event)
            if event.visible_to(seat):
                visible.append(event)
        elif op == "get":
            got = sub.get_nowait()
            if got is not None:
                received.append(got)
        else:
            received.extend(sub.drain())
        queued = sub.peek()
        assert len(queued) == sub.queued <= bound
        assert all(e.type != RESYNC for e in queued[1:])
    received.extend(sub.drain())
    assert sub.get_nowait() is None
    account(received, visible)
    last_resync = max((i for i, e in enumerate(received) if e.type == RESYNC), default=-1)
    after = [e.data["n"] for e in received[last_resync + 1:]]
    assert after == sorted(after)
    for r in received:
        if r.type == RESYNC:
            assert r.to == (None if seat is None else frozenset({seat})) and r.table_id == 7
            assert r.visible_to(seat)


async def test_get_waits_close_wakes_and_the_bound_is_checked() -> None:
    closed: list[Subscription] = []
    sub = Subscription(3, 0, closed.append, bound=3)
    waiting = asyncio.create_task(sub.get())
    await asyncio.sleep(0)
    assert not waiting.done()
    first = TableEvent(3, "turn", {"to_act": [0]}, None, 1)
    sub.deliver(first)
    assert await waiting is first
    # A lower bound applies from the next delivery.
    for v in range(3):
        sub.deliver(TableEvent(3, "turn", {}, None, 2 + v))
    sub.bound = 2
    sub.deliver(TableEvent(3, "turn", {}, None, 9))
    assert [(e.type, e.version) for e in sub.peek()] == [(RESYNC, 4), ("turn", 9)]
    assert sub.peek()[0].data == {"dropped": 3}
    with pytest.raises(ValueError):
        sub.bound = 1
    with pytest.raises(ValueError):
        Subscription(3, None, closed.append, bound=1)
    # close: queued events are still read, then None; nothing more gets in.
    waiter = Subscription(3, None, closed.append)
    pending = asyncio.create_task(waiter.get())
    await asyncio.sleep(0)
    waiter.close()
    assert await pending is None and closed == [waiter]
    sub.close()
    sub.deliver(TableEvent(3, "turn", {}, None, 10))
    assert [e.type async for e in sub] == [RESYNC, "turn"]
    assert await sub.get() is None


# == the terminal =====================================================================
def run_terminal(args: list[str], answers: str, db: Path) -> tuple[int, str]:
    """``tricktable play`` in a thread (so that a front end that waits forever fails the
    test instead of hanging it)."""
    from bot.terminal import main

    out = io.StringIO()
    result: list[int] = []
    thread = threading.Thread(
        target=lambda: result.append(main([*args, "--pace", "0", "--database",
                                           f"sqlite:///{db}"], io.StringIO(answers), out)),
        daemon=True)
    thread.start()
    thread.join(120)
    assert result, "the terminal game did not finish:\n" + out.getvalue()[-2000:]
    return result[0], out.getvalue()


def test_the_terminal_redraws_after_a_resync_and_plays_the_same_match(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    args = ["turup", "--seed", "2", "--ai", "rules"]  # rules: the same moves each run
    answers = "1\n" * 3000
    status, plain = run_terminal([*args, "--record", "plain.json"], answers,
                                 tmp_path / "plain.db")
    assert status == 0 and "=== Match over ===" in plain
    assert "fell behind" not in plain
    monkeypatch.setattr(events_module, "SUBSCRIPTION_BOUND", MIN_BOUND)
    status, behind = run_terminal([*args, "--record", "behind.json"], answers,
                                  tmp_path / "behind.db")
    assert status == 0, behind[-2000:]
    assert "(the display fell behind; this is the table now)" in behind
    assert "=== Match over ===" in behind and "Record saved:" in behind
    plain_record = json.loads((tmp_path / "plain.json").read_text(encoding="utf-8"))
    behind_record = json.loads((tmp_path / "behind.json").read_text(encoding="utf-8"))
    assert behind_record["deals"] == plain_record["deals"]
    # Every prompt was answered once: the same number of choices in both runs.
    assert behind.count("Choose 1-") == plain.count("Choose 1-")
