"""Discord's REST budget with two real ``tricktable run`` processes on one PostgreSQL
database (issue 48): a forwarded hand-DM click costs no request counted against the bot's
global limit (the owner redraws the DM through the click's token), and the two processes
keep their requests together under one budget shared through the database.

The fake Discord counts every request per route and enforces Discord's global limit
(``global_limit``: a 429 with ``global: true`` past it).
"""

from __future__ import annotations

import random

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
