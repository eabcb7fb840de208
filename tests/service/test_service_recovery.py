"""Kill the service at random points and recover: the match must end with exactly the
record of an uninterrupted run.

A "kill" is a crash raised inside a store write (before or after the write reaches the
database: a lost acknowledgement), or a cancellation of every task after a random number
of event-loop turns. Then the service is thrown away, a new one is started on the same
database, and it must rebuild the table from the store and finish the match.
"""

from __future__ import annotations

import asyncio
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.service import FakeClock, Seat, TableService
from storage import Store, TerminalLocation, open_store

GAMES_UNDER_TEST = [("turup", 4), ("tarabish", 4), ("albastini", 2), ("truf", 3),
                    ("arbaa_turub", 4), ("albastini", 6)]
WRITES = ("create_table", "append_action", "update_table", "record_match")


class Crash(BaseException):
    """The process dies (not an Exception: nothing in the service may catch it)."""


class CrashingStore:
    """A store that counts writes and dies at write number ``crash_at`` (1-based), either
    before the write or after it (the write is durable, its acknowledgement lost)."""

    def __init__(self, inner: Store, crash_at: int | None = None, after: bool = False
                 ) -> None:
        self.inner = inner
        self.crash_at = crash_at
        self.after = after
        self.writes = 0
        self.crashed = False

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self.inner, name)
        if name not in WRITES:
            return attr

        async def write(*args: Any, **kwargs: Any) -> Any:
            self.writes += 1
            if self.crashed:
                raise Crash("dead")
            if self.writes == self.crash_at and not self.after:
                self.crashed = True
                raise Crash("before the write")
            result = await attr(*args, **kwargs)
            if self.writes == self.crash_at:
                self.crashed = True
                raise Crash("after the write")
            return result

        return write


def run(coro: Any) -> Any:
    return asyncio.run(coro)


async def start_match(service: TableService, game: str, players: int, seed: int) -> int:
    return await service.create_table(
        TerminalLocation("recovery"), game, players=players, seed=seed,
        seats=[Seat.ai("rules") for _ in range(players)], ai_pace=0, start=True,
    )


async def settle_or_crash(service: TableService, wrapper: CrashingStore) -> None:
    loop = asyncio.get_running_loop()
    end = loop.time() + 120
    while not wrapper.crashed:
        if not service.table_ids():
            return
        try:
            await asyncio.wait_for(service.settle(timeout=0.5), 1.0)
            return
        except TimeoutError:
            if loop.time() > end:
                raise
    await asyncio.sleep(0)


async def uninterrupted(url: str, game: str, players: int, seed: int
                        ) -> tuple[dict[str, Any], int]:
    store = await open_store(url)
    counter = CrashingStore(store)
    service = TableService(counter, clock=FakeClock())  # type: ignore[arg-type]
    try:
        table_id = await start_match(service, game, players, seed)
        await service.settle(timeout=120)
        return await service.record(table_id), counter.writes
    finally:
        await service.close()
        await store.close()


async def recover_and_finish(url: str, table_id: int) -> dict[str, Any]:
    store = await open_store(url)
    service = TableService(store, clock=FakeClock())
    try:
        loaded = await service.start()
        assert table_id in loaded or not service.table_ids()
        await service.settle(timeout=120)
        assert service.table_ids() == []
        table = await store.get_table(table_id)
        assert table is not None and table.status == "finished"
        return await service.record(table_id)
    finally:
        await service.close()
        await store.close()


async def crash_run(url: str, game: str, players: int, seed: int, crash_at: int,
                    after: bool) -> int:
    store = await open_store(url)
    wrapper = CrashingStore(store, crash_at, after)
    service = TableService(wrapper, clock=FakeClock())  # type: ignore[arg-type]
    try:
        table_id = await start_match(service, game, players, seed)
        await settle_or_crash(service, wrapper)
        assert wrapper.crashed
        return table_id
    finally:
        await service.close()
        await store.close()


_REFERENCE: dict[tuple[str, int, int], tuple[dict[str, Any], int]] = {}


def reference(game: str, players: int, seed: int) -> tuple[dict[str, Any], int]:
    key = (game, players, seed)
    if key not in _REFERENCE:
        with tempfile.TemporaryDirectory() as d:
            _REFERENCE[key] = run(uninterrupted(f"sqlite:///{Path(d) / 'ref.db'}",
                                                game, players, seed))
    return _REFERENCE[key]


@settings(max_examples=14, deadline=None, suppress_health_check=list(HealthCheck))
@given(which=st.sampled_from(GAMES_UNDER_TEST), seed=st.integers(0, 2),
       where=st.floats(0.0, 1.0), after=st.booleans(), twice=st.booleans())
def test_kill_in_a_write_and_recover(which: tuple[str, int], seed: int, where: float,
                                     after: bool, twice: bool) -> None:
    game, players = which
    expected, writes = reference(game, players, seed)
    crash_at = 3 + int(where * (writes - 3))  # writes 1 and 2 create and start the table
    with tempfile.TemporaryDirectory() as d:
        url = f"sqlite:///{Path(d) / 'crash.db'}"
        table_id = run(crash_run(url, game, players, seed, crash_at, after))
        if twice:  # die again, early in the recovered run
            async def second() -> None:
                store = await open_store(url)
                wrapper = CrashingStore(store, 3, not after)
                service = TableService(wrapper, clock=FakeClock())  # type: ignore[arg-type]
                try:
                    try:
                        await service.start()
                    except Crash:
                        return
                    await settle_or_crash(service, wrapper)
                finally:
                    await service.close()
                    await store.close()
            run(second())
        assert run(recover_and_finish(url, table_id)) == expected


@settings(max_examples=8, deadline=None, suppress_health_check=list(HealthCheck))
@given(turns=st.integers(1, 400), seed=st.integers(0, 2))
def test_cancel_everything_at_a_random_moment(turns: int, seed: int) -> None:
    """Kill by cancelling every task after ``turns`` event-loop iterations."""
    expected, _ = reference("turup", 4, seed)

    async def killed(url: str) -> int:
        store = await open_store(url)
        service = TableService(store, clock=FakeClock())
        try:
            table_id = await start_match(service, "turup", 4, seed)
            for _ in range(turns):
                await asyncio.sleep(0)
            return table_id
        finally:
            await service.close()
            await store.close()

    with tempfile.TemporaryDirectory() as d:
        url = f"sqlite:///{Path(d) / 'cancel.db'}"
        table_id = run(killed(url))
        assert run(recover_and_finish(url, table_id)) == expected


@pytest.mark.parametrize("after", [False, True])
async def test_kill_and_recover_both_backends(store_url: str, after: bool) -> None:
    """The same promise on each backend, at a few fixed points (one database: a finished
    table frees its location for the next run)."""
    expected, writes = await uninterrupted(store_url, "turup", 4, 1)
    for crash_at in (3, writes // 2, writes - 1):
        table_id = await crash_run(store_url, "turup", 4, 1, crash_at, after)
        assert await recover_and_finish(store_url, table_id) == expected
