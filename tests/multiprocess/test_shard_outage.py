"""Real processes when the database is away (issue 35): every DM click gets an answer.

Process A (shard 0: it receives every DM click) reaches PostgreSQL through a
:class:`pgproxy.CuttableProxy` that the test cuts: to A the database is gone (the
machine's server itself keeps running). Process B (shard 1) owns the table and reaches
the database directly.
"""

from __future__ import annotations

import random

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
