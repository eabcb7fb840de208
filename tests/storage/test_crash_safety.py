"""Crash safety: SIGKILL a process that is appending, then check what it acknowledged.

A child process (``crash_child.py``) appends to three tables at once and prints every
sequence number after its append returned. The parent kills it with SIGKILL at a random
moment, several times in a row, and then checks on both backends that every acknowledged
append is stored and that each log is 1..n without gaps (an append or batch that was
committed but not yet printed may be there too; a half-written one never is).
"""

from __future__ import annotations

import asyncio
import os
import random
import signal
import sys
from pathlib import Path

import pytest

from storage import ChannelLocation, SqlStore

CHILD = Path(__file__).with_name("crash_child.py")
REPO = Path(__file__).resolve().parents[2]
ROUNDS = 3

pytestmark = pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")


async def run_and_kill(url: str, table_ids: list[int], acks: int) -> list[tuple[int, int]]:
    """Start the child, let it acknowledge ``acks`` appends, SIGKILL it; return every
    acknowledgement it printed (also those printed between the decision and the kill)."""
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")]),
    }
    child = await asyncio.create_subprocess_exec(
        sys.executable,
        str(CHILD),
        url,
        *map(str, table_ids),
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        env=env,
    )
    assert child.stdout is not None and child.stderr is not None
    seen: list[tuple[int, int]] = []
    try:
        while len(seen) < acks:
            line = await asyncio.wait_for(child.stdout.readline(), timeout=60)
            if not line:
                error = (await child.stderr.read()).decode(errors="replace")
                pytest.fail(f"child exited early ({await child.wait()}):\n{error}")
            table_id, seq = map(int, line.split())
            seen.append((table_id, seq))
    finally:
        # Exactly one kill: a second one would poll (and reap) the child behind the back
        # of asyncio's child watcher.
        if child.returncode is None:
            child.send_signal(signal.SIGKILL)
        await child.wait()
    assert child.returncode == -signal.SIGKILL
    rest = await child.stdout.read()
    for text in rest.decode().splitlines(keepends=True):
        if text.endswith("\n"):  # a line cut by the kill was never a full acknowledgement
            table_id, seq = map(int, text.split())
            seen.append((table_id, seq))
    return seen


async def wait_for_server_sessions_to_end(store: SqlStore, application_name: str) -> None:
    """PostgreSQL only: a statement the killed child had sent may still be running (and
    commit) on the server until its session notices the dead client. Wait for that."""
    for _ in range(200):
        async with store.database.read() as connection:
            row = await connection.fetchrow(
                "SELECT COUNT(*) AS n FROM pg_stat_activity WHERE application_name = :name",
                {"name": application_name},
            )
        if row is not None and row["n"] == 0:
            return
        await asyncio.sleep(0.05)
    pytest.fail(f"sessions of {application_name} still alive 10 s after the kill")


async def test_sigkill_loses_no_acknowledged_append(
    store: SqlStore, store_url: str, backend: str
) -> None:
    tables = [await store.create_table(ChannelLocation(9, c), "truf") for c in range(3)]
    ids = [t.id for t in tables]
    acknowledged = {table_id: 0 for table_id in ids}
    rng = random.Random()
    for round_no in range(ROUNDS):
        child_url = store_url
        if backend == "postgres":  # tag the child's sessions (asyncpg takes it from the URL)
            application_name = f"tt_crash_{os.getpid()}_{round_no}"
            child_url = f"{store_url}&application_name={application_name}"
        for table_id, seq in await run_and_kill(child_url, ids, rng.randint(60, 240)):
            assert seq == acknowledged[table_id] + 1, "the child acknowledges in order"
            acknowledged[table_id] = seq
        if backend == "postgres":
            await wait_for_server_sessions_to_end(store, application_name)
        for table_id in ids:
            log = await store.load_actions(table_id)
            seqs = [entry.seq for entry in log]
            assert seqs == list(range(1, len(seqs) + 1)), "no gaps"
            assert len(seqs) >= acknowledged[table_id], "every acknowledged append is there"
            assert len(seqs) <= acknowledged[table_id] + 3, "at most one unacknowledged commit"
            assert all(entry.action["seq"] == entry.seq for entry in log)
            acknowledged[table_id] = len(seqs)
    # The store is fully usable after the crashes.
    for table_id in ids:
        await store.append_action(table_id, acknowledged[table_id] + 1, {"after": "crash"})
    assert sum(acknowledged.values()) >= ROUNDS * 60
