"""Discord's REST budget with two real ``tricktable run`` processes on one PostgreSQL
database (issue 48): a forwarded hand-DM click costs no request counted against the bot's
global limit (the owner redraws the DM through the click's token), and the two processes
keep their requests together under one budget shared through the database.

The fake Discord counts every request per route and enforces Discord's global limit
(``global_limit``: a 429 with ``global: true`` past it).
"""

from __future__ import annotations

import asyncio
import random

import pytest
from shardworld import (
    ShardWorld,
    dm_click,
    open_table,
    redrawn,
    snapshot,
    wait_turn,
    warnings,
)

EDIT = "PATCH /channels/{channel_id}/messages/{message_id}"
ORIGINAL = "PATCH /webhooks/{webhook_id}/{webhook_token}/messages/@original"


async def test_forwarded_dm_clicks_cost_no_counted_request(world: ShardWorld) -> None:
    """Bob's table is owned by the process of shard 1; his DM clicks reach the process of
    shard 0 and are forwarded. Every one is answered on the clicked DM, and neither the
    answers nor the next turns' controls are edits with the bot's token (before: one
    counted ``PATCH /channels/{dm}/messages/{id}`` per forwarded click)."""
    world.server.global_limit = 50
    await world.start("0")
    await world.start("1")
    bob = world.user("bob", shard=1)
    await open_table(world, bob)
    dm_channel = str(bob.dm_channel.id)
    seq = None
    rng = random.Random(12)
    clicks = 0
    while clicks < 8:
        panel = await wait_turn(world, bob, 1)
        if panel is None:
            break
        before = snapshot(panel)
        result = await dm_click(world, bob, panel, rng)
        assert result.type == 6, result.content  # acknowledged, then forwarded
        await redrawn(world, result, panel, before)
        assert not warnings(result), warnings(result)
        clicks += 1
        if seq is None:  # counted from the first click's answer on (the deal's DM
            seq = world.server.requests[-1].seq  # was edited once before any click)
    assert clicks >= 4 and seq is not None, clicks
    dm_edits = [r for r in world.server.counted(since=seq)
                if r.params.get("channel_id") == dm_channel
                and f"{r.method} {r.route}" == EDIT]
    assert dm_edits == [], dm_edits
    assert len(world.server.calls(ORIGINAL, since=seq)) >= clicks - 1
    assert world.server.global_429s == 0


@pytest.mark.xfail(strict=False, reason=(
    "known gap (issue 48, docs/scale.md 'Measured: two processes at Discord's limit'): at a "
    "small global limit, tables opening or ending a deal together can still draw a few "
    "global 429s before the processes have read each other's use, and discord.py's release "
    "after one cascades; seen in 3 of 5 runs on a loaded machine"))
async def test_two_processes_keep_under_one_budget_shared_through_the_database(
        world: ShardWorld) -> None:
    """Discord's global limit is 10 requests per second here and the bot's budget 6: two
    processes, two tables each, their humans clicking as fast as their controls come, the
    table messages wanting an edit every 0.2 s. Each
    process counts its requests ahead against its share of the one budget (read from the
    other's use in PostgreSQL) and slows its table messages; Discord never answers a
    global 429, and every click is answered with the next controls."""
    await world.add_guilds(1)  # two guilds per shard: a table in each
    # table messages that want an edit every 0.2 s: far more than the budget allows
    a = await world.start("0", TRICKTABLE_REST_BUDGET="6", TRICKTABLE_EDIT_INTERVAL="0.2")
    b = await world.start("1", TRICKTABLE_REST_BUDGET="6", TRICKTABLE_EDIT_INTERVAL="0.2")
    world.server.global_limit = 10  # from here on (logging in is not counted ahead)
    humans = [world.user(f"p{n}", shard=n % 2, n=n // 2) for n in range(4)]
    for human in humans:
        await open_table(world, human)
    rng = random.Random(14)
    clicks = [0] * len(humans)

    async def play(n: int) -> None:
        human = humans[n]
        while clicks[n] < 12:
            panel = await wait_turn(world, human, 1)
            if panel is None:
                return  # the deal ended
            before = snapshot(panel)
            result = await dm_click(world, human, panel, rng)
            await redrawn(world, result, panel, before)
            assert not warnings(result), warnings(result)
            clicks[n] += 1

    await asyncio.gather(*(play(n) for n in range(len(humans))))
    assert sum(clicks) >= 24, clicks
    assert world.server.global_429s == 0
    # both processes record their use in PostgreSQL and read each other's
    uses = await world.store.share_rest_use("the test", 0.0, 0.0, within=3.0)
    await world.store.forget_rest_use("the test")
    assert len([u for u in uses if u.process != "the test"]) == 2, uses
    # and the table messages were slowed rather than Discord refusing requests
    assert any("REST budget: table messages now per trick" in bot.output()
               for bot in (a, b)), b.output()[-3000:]
