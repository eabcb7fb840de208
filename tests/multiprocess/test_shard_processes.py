"""Sharded bot processes for real: ``tricktable run`` processes against the fake Discord
with two shards and one PostgreSQL database (issue 17).

Process A runs shard 0 (Discord sends it every DM click), process B shard 1. A table in a
guild of shard 1 is owned by B, so its players' hand-DM clicks reach A and are forwarded
to B through PostgreSQL; B applies them and answers through the interaction's token.
"""

from __future__ import annotations

import datetime as dt
import random

from fakediscord import SimulatedUser
from shardworld import (
    BotProcess,
    ShardWorld,
    dm_click,
    dm_deals,
    human_actions,
    open_table,
    redrawn,
    snapshot,
    wait_turn,
    warnings,
)

from bot.leagues.service import create_league, join_league, start_league
from storage import ChannelLocation, ForwardedAction, Store

Player = tuple[SimulatedUser, int, int]
"""A human, their table, their seat."""


async def play_deal_from_dms(world: ShardWorld, players: list[Player], deal: int,
                             rng: random.Random, clicks: dict[int, int]) -> None:
    """Every human plays their turns of ``deal`` in their hand DM until the next deal's
    DM arrives; every click must be accepted (the panel clicked on redrawn — also by the
    click that ends the deal —, no private warning). ``clicks`` counts the accepted
    clicks per table: each is an action (the signal select, which only redraws the panel,
    is never chosen)."""
    pending = list(players)
    while pending:
        for entry in list(pending):
            user, table_id, _seat = entry
            panel = await wait_turn(world, user, deal)
            if panel is None:
                pending.remove(entry)
                continue
            before = snapshot(panel)
            result = await dm_click(world, user, panel, rng, actions_only=True)
            assert result.type in (6, 7), result.content
            await redrawn(world, result, panel, before)
            assert not warnings(result), warnings(result)
            clicks[table_id] = clicks.get(table_id, 0) + 1


async def forwards(store: Store) -> list[ForwardedAction]:
    """Every inbox entry written so far (ids are sequential)."""
    out: list[ForwardedAction] = []
    while (entry := await store.get_forward(len(out) + 1)) is not None:
        out.append(entry)
    return out


async def log_is_whole(store: Store, table_id: int) -> None:
    """The action log has no gap and no repeat: one entry per version."""
    entries = await store.load_actions(table_id)
    assert [e.seq for e in entries] == list(range(1, len(entries) + 1))


def open_tables_logged(bot: BotProcess) -> list[int]:
    """The counts of open tables a process logged at set-up, one per start."""
    marker = "tricktable is set up ("
    return [int(line.split(marker)[1].split(" ")[0])
            for line in bot.output().splitlines() if marker in line]


async def test_tables_on_both_shards_are_played_from_the_hand_dms(world: ShardWorld) -> None:
    await world.start("0")
    await world.start("1")
    alice = world.user("alice", shard=0)
    bob = world.user("bob", shard=1)
    t0 = await open_table(world, alice)
    t1 = await open_table(world, bob)
    locations = {t: (await world.store.get_table(t)).location for t in (t0, t1)}
    assert locations == {t0: ChannelLocation(world.guilds[0].id, world.channels[0].id),
                         t1: ChannelLocation(world.guilds[1].id, world.channels[1].id)}
    clicks: dict[int, int] = {}
    await play_deal_from_dms(world, [(alice, t0, 0), (bob, t1, 0)], 1, random.Random(5),
                             clicks)
    assert dm_deals(alice) == 2 and dm_deals(bob) == 2
    # every click was applied exactly once: one human action in the log per accepted
    # click (Turup has no card variants: one click, one action)
    for table_id in (t0, t1):
        assert await human_actions(world.store, table_id, 0) == clicks[table_id]
        await log_is_whole(world.store, table_id)
    # bob's clicks went through the inbox of shard 1 (all done); alice's never left A
    entries = await forwards(world.store)
    assert {e.table_id for e in entries} == {t1}
    assert len(entries) == clicks[t1]
    assert all(e.status == "done" and e.shard == 1 for e in entries)


async def test_owner_killed_mid_deal_then_the_deal_goes_on_from_the_dms(
        world: ShardWorld) -> None:
    await world.start("0")
    b = await world.start("1")
    bob = world.user("bob", shard=1)
    t1 = await open_table(world, bob)
    rng = random.Random(8)
    panel = await wait_turn(world, bob, 1)
    assert panel is not None
    made = await human_actions(world.store, t1, 0)

    b.kill()
    assert await b.wait() != 0
    # two clicks on the panel while its owner is down: each is told so, privately
    first = await dm_click(world, bob, panel, rng)
    second = await dm_click(world, bob, panel, rng)
    for result in (first, second):
        assert result.type == 6  # acknowledged at once by A (shard 0)
        answered = await result.wait_followups(1)
        assert "not answering" in answered[0].content
        assert answered[0].ephemeral
    assert await human_actions(world.store, t1, 0) == made  # nothing applied meanwhile

    before = snapshot(world.server.message(panel.id))
    await world.start("1", name="shards-1-again")
    # once back, the owner applies the click written first to its inbox (A handles the
    # two concurrently: either may be) and the panel shows it; the other was chosen at
    # the same, now past, version: refused, privately
    refused = await world.server.wait_until(
        lambda: next((r for r in (first, second) if len(r.followups) >= 2), None),
        timeout=20, what="one of the two clicks to be refused")
    applied = second if refused is first else first
    await redrawn(world, applied, panel, before, followups_before=1)
    assert "no longer current" in refused.followups[1].content
    assert len(applied.followups) == 1  # no refusal: applied
    assert await human_actions(world.store, t1, 0) == made + 1
    clicks = {t1: made + 1}
    await play_deal_from_dms(world, [(bob, t1, 0)], 1, rng, clicks)
    assert dm_deals(bob) == 2
    assert await human_actions(world.store, t1, 0) == clicks[t1]
    await log_is_whole(world.store, t1)


async def test_each_process_loads_only_its_shards_tables(world: ShardWorld) -> None:
    a = await world.start("0")
    b = await world.start("1")
    alice = world.user("alice", shard=0)
    bob = world.user("bob", shard=1)
    await open_table(world, alice)
    await open_table(world, bob)
    assert await a.stop() == 0 and await b.stop() == 0
    a2 = await world.start("0", name="a-again")
    b2 = await world.start("1", name="b-again")
    assert open_tables_logged(a2) == [1] and open_tables_logged(b2) == [1]
    assert len(await world.store.load_unfinished_tables()) == 2


async def test_a_second_process_for_a_running_shard_is_refused(world: ShardWorld) -> None:
    await world.start("0")
    await world.start("1")
    twin = world.process("1", name="twin")
    await twin.start()
    assert await twin.wait() == 1
    assert "shard 1 is already run by another process" in twin.output()
    # and a process that runs every shard is refused as well
    whole = world.process("0,1", name="whole")
    await whole.start()
    assert await whole.wait() == 1
    assert "is already run by another process" in whole.output()


async def test_a_signal_and_its_card_chosen_in_the_dm_of_another_shards_table(
        world: ShardWorld) -> None:
    """The leader's signal select and a card carrying it, both forwarded: the owner
    redraws the DM with every card carrying the signal, then plays the card.

    Bob sits at seat 3 (``/table arrange``): the first dealer is seat 0, so bob is the
    eldest hand — he names trumps and leads the first trick of deal 1, whatever the
    (random) cards."""
    await world.start("0")
    await world.start("1")
    bob = world.user("bob", shard=1)
    t1 = await open_table(world, bob, order="1 2 3 0")
    seat = 3
    rng = random.Random(3)
    while (panel := await wait_turn(world, bob, 1)) is not None:
        signal = next((c for c in panel.walk_components()
                       if str(c.get("custom_id", "")).startswith("tt:g:")), None)
        if signal is None:  # naming trumps, before the first lead
            before = snapshot(panel)
            result = await dm_click(world, bob, panel, rng)
            await redrawn(world, result, panel, before)
            assert not warnings(result)
            continue
        word = next(o["value"] for o in signal["options"] if o["value"] != "none")
        before = snapshot(panel)
        chosen = await bob.select(panel, signal["custom_id"], [word])
        assert chosen.type == 6  # forwarded
        shown = await redrawn(world, chosen, panel, before)
        assert not warnings(chosen)
        cards = next(c for c in shown.walk_components()
                     if str(c.get("custom_id", "")).startswith("tt:s:"))
        assert all(f'"signal":"{word}"' in o["value"] for o in cards["options"])
        made = await human_actions(world.store, t1, seat)
        before = snapshot(shown)
        played = await bob.select(shown, cards["custom_id"], [cards["options"][0]["value"]])
        await redrawn(world, played, shown, before)
        assert not warnings(played)
        assert await human_actions(world.store, t1, seat) == made + 1
        last = [e.action["action"] for e in await world.store.load_actions(t1)
                if e.action.get("by") == "human"][-1]
        assert last.get("signal") == word
        await log_is_whole(world.store, t1)
        return
    raise AssertionError("bob, the eldest hand, did not lead the first trick of deal 1")


async def test_league_reminders_of_a_guild_come_once_from_its_owner(
        world: ShardWorld) -> None:
    """A league in each guild, with a fixture in 23 hours (the 24-hour reminder is due).
    Process A alone posts its own guild's reminder and not the other's: its pass handles
    the fixtures in kick-off order, and guild 1's kicks off first, so once guild 0's
    reminder is in, A has passed guild 1's by. Then B starts and posts guild 1's, once."""
    now = dt.datetime.now(dt.UTC).replace(second=0, microsecond=0)
    for shard, minutes in ((1, 0), (0, 1)):
        kickoff = now + dt.timedelta(hours=23, minutes=minutes)
        league = await create_league(
            world.store, world.guilds[shard].id, world.channels[shard].id, f"Cup {shard}",
            "turup", weekday=kickoff.weekday(), start_time=kickoff.time(), time_zone="UTC")
        base = 10 * (shard + 1)
        await join_league(world.store, league.id, [base + 1, base + 3], name="Aces")
        await join_league(world.store, league.id, [base + 2, base + 4], name="Kings")
        await start_league(world.store, league.id, now)

    def reminders(shard: int) -> list[str]:
        return [m.content for m in world.server.messages(world.channels[shard])
                if "starts in 24 hours" in m.content]

    await world.start("0")
    await world.server.wait_until(lambda: reminders(0), timeout=20,
                                  what="guild 0's reminder from process A")
    assert reminders(1) == []
    await world.start("1")
    await world.server.wait_until(lambda: reminders(1), timeout=20,
                                  what="guild 1's reminder from process B")
    assert len(reminders(0)) == 1 and len(reminders(1)) == 1
    assert "Cup 1" in reminders(1)[0]


async def test_auto_takes_discords_recommended_shard_count(world: ShardWorld) -> None:
    """``TRICKTABLE_SHARD_COUNT=auto``: the count comes from ``GET /gateway/bot`` (the
    fake recommends its 2 shards), and the process connects only its own shard."""
    b = await world.start("1", TRICKTABLE_SHARD_COUNT="auto")
    assert "Discord recommends 2 shards" in b.output()
    assert "running shard 1 of 2" in b.output()
    shards = {s.shard_id for s in world.server.sessions.values() if not s.closed}
    assert shards == {1}
