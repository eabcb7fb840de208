"""Real processes when the database is away (issue 35): every DM click gets an answer.

Process A (shard 0: it receives every DM click) reaches PostgreSQL through a
:class:`pgproxy.CuttableProxy` that the test cuts: to A the database is gone (the
machine's server itself keeps running). Process B (shard 1) owns the table and reaches
the database directly.
"""

from __future__ import annotations

import asyncio
import random
import signal

from pgproxy import CuttableProxy
from shardworld import ShardWorld, dm_click, open_table, redrawn, snapshot, wait_turn, warnings


async def test_a_dm_click_for_another_shards_table_is_answered_while_the_database_is_away(
        world: ShardWorld) -> None:
    proxy = await CuttableProxy.before(world.db_url)
    try:
        await world.start("0", DATABASE_URL=proxy.url(world.db_url))
        await world.start("1")
        bob = world.user("bob", shard=1)
        await open_table(world, bob)
        rng = random.Random(3)
        panel = await wait_turn(world, bob, 1)
        assert panel is not None

        await proxy.cut()
        # A acknowledges the click, cannot pass it on, and says so privately
        result = await dm_click(world, bob, panel, rng)
        assert result.type == 6
        told = await result.wait_followups(1)
        assert "the database is not answering" in told[0].content
        assert told[0].ephemeral

        await proxy.restore()
        # once the database answers, the same click goes through and is applied
        panel = await wait_turn(world, bob, 1)
        assert panel is not None
        before = snapshot(panel)
        again = await dm_click(world, bob, panel, rng)
        await redrawn(world, again, panel, before, timeout=20)
        assert not warnings(again)
    finally:
        await proxy.close()


async def test_a_frozen_owner_keeps_its_shard_and_applies_the_click_when_it_thaws(
        world: ShardWorld) -> None:
    """SIGSTOP: the owner's lock session lives on in the server, so a replacement is
    refused; clicks meanwhile are told "not answering", and the one written first is
    applied once the owner runs again (it never lost the lock: no pause, no reload)."""
    await world.start("0")
    b = await world.start("1")
    bob = world.user("bob", shard=1)
    await open_table(world, bob)
    panel = await wait_turn(world, bob, 1)
    assert panel is not None and b.proc is not None
    before = snapshot(panel)
    b.proc.send_signal(signal.SIGSTOP)
    try:
        twin = world.process("1", name="twin")
        await twin.start()
        assert await twin.wait() == 1
        assert "shard 1 is already run by another process" in twin.output()
        result = await dm_click(world, bob, panel, random.Random(4))
        told = await result.wait_followups(1)
        assert "not answering" in told[0].content
        await asyncio.sleep(3)  # frozen well past a lock check or two
    finally:
        b.proc.send_signal(signal.SIGCONT)
    await redrawn(world, result, panel, before, timeout=20, followups_before=1)
    assert len(result.followups) == 1  # applied: no refusal
    assert "not sure this process still holds" not in b.output()
