"""Two bot "processes" on one real PostgreSQL database, in one test process.

Each process is what ``tricktable run`` builds besides Discord: its own store (its own
connections), a :class:`TableService` started with ``owns=`` its shards, and a
:class:`ClusterNode` (start locks, inbox consumer, forwarding client). Two shards: process
0 runs shard 0 (it receives the DM clicks), process 1 runs shard 1.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
from dataclasses import dataclass, field
from typing import Any

import pytest
from pgtest import pg_execute

from bot.cluster import (
    BadRequest,
    ClusterNode,
    Delivery,
    ForwardOutcome,
    ForwardRequest,
    InboxConsumer,
    Ownership,
)
from bot.leagues.reminders import ReminderScheduler
from bot.leagues.service import create_league, join_league, start_league
from bot.service import FakeClock, LobbyError, NoSuchTable, Seat, TableChanged, TableService
from storage import ChannelLocation, ShardBusy, Store, open_store

SHARDS = 2
GUILD0 = 5  # shard 0 of 2
GUILD1 = (1 << 22) + 5  # shard 1 of 2
TABLE0 = ChannelLocation(GUILD0, 100)
TABLE1 = ChannelLocation(GUILD1, 200)


@dataclass
class Answers:
    """The answer callback: what the Discord adapter would send through the webhook."""

    got: list[tuple[Delivery, ForwardOutcome]] = field(default_factory=list)

    async def __call__(self, delivery: Delivery, outcome: ForwardOutcome) -> None:
        self.got.append((delivery, outcome))

    async def wait_for(self, count: int) -> None:
        async with asyncio.timeout(10):
            while len(self.got) < count:
                await asyncio.sleep(0.01)


@dataclass
class Process:
    store: Store
    service: TableService
    node: ClusterNode
    answers: Answers

    async def stop(self) -> None:
        await self.node.close()
        await self.service.close()
        await self.store.close()


async def start_process(url: str, shards: list[int], *, forward_timeout: float = 30.0,
                        inbox: bool = True) -> Process:
    """Start one process the way the bot does: lock, load own tables, run the inbox."""
    store = await open_store(url)
    node = ClusterNode(store, Ownership.of(SHARDS, shards), forward_timeout=forward_timeout,
                       poll_seconds=0.2)
    await node.lock()
    service = TableService(store, clock=FakeClock())
    await service.start(owns=node.owns)
    answers = Answers()
    if inbox:
        await node.start(service, answers)
    return Process(store, service, node, answers)


def humans() -> list[Seat | None]:
    return [Seat.human(user, f"player {user}") for user in (1, 2, 3, 4)]


async def open_turup(process: Process, location: ChannelLocation) -> int:
    """A Turup match of four humans with no turn timer, started."""
    return await process.service.create_table(location, "turup", seats=humans(), seed=7,
                                              turn_timeout=0, start=True)


def next_click(owner: Process, table_id: int) -> tuple[ForwardRequest, int]:
    """The click of the player to act (their first legal action), and the version."""
    info = owner.service.info(table_id)
    seat = info.to_act[0]
    player = info.seats[seat]
    assert player is not None and player.user_id is not None
    action = owner.service.legal(table_id, seat)[0]
    request = ForwardRequest.act(table_id, player.user_id, action.to_json(), info.version)
    return request, info.version


@pytest.fixture
async def processes(pg_url: str) -> Any:
    started: list[Process] = []

    async def make(shards: list[int], **kwargs: Any) -> Process:
        process = await start_process(pg_url, shards, **kwargs)
        started.append(process)
        return process

    yield make
    for process in reversed(started):
        await process.stop()


async def test_a_forwarded_click_is_applied_once_by_the_owner(processes: Any) -> None:
    p0, p1 = await processes([0]), await processes([1])
    table = await open_turup(p1, TABLE1)
    assert table not in p0.service.table_ids()
    assert p1.service.holds(table) and not p0.service.holds(table)  # so p0 forwards
    request, version = next_click(p1, table)

    outcome = await p0.node.client.forward(request, key="interaction-1",
                                           reply_to={"token": "webhook-secret"})

    assert outcome == ForwardOutcome("applied", version=version + 1)
    assert p1.service.info(table).version == version + 1
    log = await p0.store.load_actions(table)
    assert len(log) == version + 1 and log[-1].action["by"] == "human"
    assert log[-1].action["action"]["type"] == request.action["type"]  # type: ignore[index]
    # The owner answered the player once (right after storing the outcome, which is
    # what woke the receiver), with the address the receiver gave it...
    await p1.answers.wait_for(1)
    assert [(d.request, d.reply_to, o) for d, o in p1.answers.got] == [
        (request, {"token": "webhook-secret"}, outcome)]
    # ...which the store no longer keeps.
    stored = await p0.store.get_forward(p1.answers.got[0][0].id)
    assert stored is not None and stored.reply_to is None and stored.status == "done"

    # Discord delivers the same interaction again: one entry, one application.
    assert await p0.node.client.forward(request, key="interaction-1") == outcome
    # The same choice clicked again (a new interaction): no longer current.
    again = await p0.node.client.forward(request, key="interaction-2")
    assert again == ForwardOutcome("stale", "that choice is no longer current")
    assert p1.service.info(table).version == version + 1
    assert len(await p1.store.load_actions(table)) == version + 1
    await p1.answers.wait_for(2)
    assert [o.status for _, o in p1.answers.got] == ["applied", "stale"]


async def test_refusals_carry_the_reason_and_change_nothing(processes: Any) -> None:
    p0, p1 = await processes([0]), await processes([1])
    table = await open_turup(p1, TABLE1)
    request, version = next_click(p1, table)
    stranger = ForwardRequest.act(table, 999, request.action or {}, version)
    outcome = await p0.node.client.forward(stranger, key="k-stranger")
    assert outcome == ForwardOutcome("refused", "you have no seat at this table")
    unknown = ForwardRequest.act(table + 1000, 1, request.action or {}, version)
    assert (await p0.node.client.forward(unknown, key="k-none")).status == "no_table"
    assert p1.service.info(table).version == version


async def test_panel_and_rejoin_requests_reach_the_owner(processes: Any) -> None:
    """My hand (or a page of it) and I'm back, clicked in a DM of another shard's table."""
    p0, p1 = await processes([0]), await processes([1])
    table = await open_turup(p1, TABLE1)
    version = p1.service.info(table).version
    await p1.service.set_away(table, 2)  # an AI keeps seat 2 (user 3) for now
    page = ForwardRequest.panel(table, 3, {"page": 2})
    assert await p0.node.client.forward(page, key="hand") == ForwardOutcome(
        "applied", version=version)
    stranger = ForwardRequest.panel(table, 99)
    assert (await p0.node.client.forward(stranger, key="hand-99")).status == "refused"
    back = ForwardRequest.rejoin(table, 3)
    assert (await p0.node.client.forward(back, key="back")).status == "applied"
    seat = p1.service.info(table).seats[2]
    assert seat is not None and not seat.away
    await p1.answers.wait_for(3)
    assert [(d.request.kind, d.request.data, o.status) for d, o in p1.answers.got] == [
        ("panel", {"page": 2}, "applied"), ("panel", None, "refused"),
        ("rejoin", None, "applied")]


async def test_a_click_while_the_owner_is_down_is_applied_once_it_is_back(
    processes: Any,
) -> None:
    p1 = await processes([1])
    table = await open_turup(p1, TABLE1)
    request, version = next_click(p1, table)
    await p1.stop()  # the owner goes down (its start lock is freed)

    p0 = await processes([0], forward_timeout=0.3)
    outcome = await p0.node.client.forward(request, key="while-down", reply_to={"t": "x"})
    assert outcome == ForwardOutcome("timeout")  # the player is told privately
    [waiting] = await p0.store.pending_forwards([1])
    assert waiting.request == request.to_json()

    p1 = await processes([1])  # back: the durable request is applied at start
    await p1.answers.wait_for(1)
    [(delivery, answered)] = p1.answers.got
    assert delivery.id == waiting.id and delivery.reply_to == {"t": "x"}
    assert answered == ForwardOutcome("applied", version=version + 1)
    assert p1.service.info(table).version == version + 1
    assert await p0.store.pending_forwards([0, 1]) == []
    # The receiver can still read the final outcome of the request it gave up on.
    assert await p0.node.client.wait(waiting, 1.0) == answered

    # Play goes on from the DMs: the next click is forwarded and applied at once.
    follow, v2 = next_click(p1, table)
    applied = await p0.node.client.forward(follow, key="after", timeout=30)
    assert applied.status == "applied"
    assert p1.service.info(table).version == v2 + 1


async def test_a_request_delivered_again_after_a_crash_is_not_applied_twice(
    processes: Any,
) -> None:
    """The owner applied a request and died before storing the outcome: on restart the
    entry is still pending; delivering it again must not play the card a second time."""
    p1 = await processes([1], inbox=False)  # the owner, its inbox not running yet
    table = await open_turup(p1, TABLE1)
    request, version = next_click(p1, table)
    p0 = await processes([0], forward_timeout=0.2)
    assert (await p0.node.client.forward(request, key="crash")).status == "timeout"
    [entry] = await p1.store.pending_forwards([1])

    consumer = InboxConsumer(p1.store, p1.service, p1.node.ownership, p1.answers)
    assert await consumer.apply(Delivery.of(entry)) == ForwardOutcome(
        "applied", version=version + 1)
    # ...the process dies here; the entry is delivered again after the restart:
    [(_, outcome)] = await consumer.drain()
    assert outcome.status == "stale"
    assert p1.service.info(table).version == version + 1
    assert len(await p1.store.load_actions(table)) == version + 1


async def test_a_picked_card_is_stored_before_its_entry_is_done_and_played_once(
    processes: Any,
) -> None:
    """A card picked in the card select of another shard's DM (a ``panel`` pick): the
    owner plays it and stores the action *before* it marks the entry done. The owner
    dies in that window (the action stored, the entry not yet done): whoever runs the
    shard next delivers the entry again, and the card is played exactly once."""
    p1 = await processes([1], inbox=False)
    table = await open_turup(p1, TABLE1)
    click, version = next_click(p1, table)
    assert click.action is not None
    pick = ForwardRequest.panel(table, click.user_id,
                                {"pick": click.action, "version": version})
    p0 = await processes([0], forward_timeout=0.2)
    assert (await p0.node.client.forward(pick, key="picked")).status == "timeout"

    window = asyncio.Event()  # the owner is "killed" while marking the entry done
    real_complete = p1.store.complete_forward

    async def dies_while_completing(forward_id: int, outcome: Any) -> Any:
        window.set()
        await asyncio.Event().wait()  # never returns: the process is killed here
        return await real_complete(forward_id, outcome)

    p1.store.complete_forward = dies_while_completing  # type: ignore[method-assign]
    consumer = InboxConsumer(p1.store, p1.service, p1.node.ownership, p1.answers)
    draining = asyncio.create_task(consumer.drain())
    async with asyncio.timeout(10):
        await window.wait()
    # The card is stored before the entry is done, and the entry is still pending.
    log = await p0.store.load_actions(table)
    assert len(log) == version + 1 and log[-1].action["by"] == "human"
    assert log[-1].action["action"]["type"] == click.action["type"]
    [pending] = await p0.store.pending_forwards([1])
    assert pending.request_key == "picked"
    # The owner dies (its task and connections gone, its start lock freed)...
    draining.cancel()
    await asyncio.gather(draining, return_exceptions=True)
    await p1.stop()
    # ...and the next owner delivers the entry again: nothing is played twice.
    p1 = await processes([1])
    await p1.answers.wait_for(1)
    [(delivery, outcome)] = p1.answers.got
    assert delivery.request == pick and outcome.status == "stale"
    assert len(await p0.store.load_actions(table)) == version + 1
    assert p1.service.info(table).version == version + 1
    assert await p0.store.pending_forwards([1]) == []


async def test_a_picked_card_with_one_variant_is_played_by_the_owners_inbox(
    processes: Any,
) -> None:
    """Without a death: the pick is played by the inbox (not by the answer, which only
    draws) and its outcome names the deal it was played in."""
    p0, p1 = await processes([0]), await processes([1])
    table = await open_turup(p1, TABLE1)
    click, version = next_click(p1, table)
    assert click.action is not None
    deal = p1.service.info(table).deal
    pick = ForwardRequest.panel(table, click.user_id,
                                {"pick": click.action, "version": version})
    outcome = await p0.node.client.forward(pick, key="pick-1")
    assert outcome == ForwardOutcome("applied", version=version + 1, played_deal=deal)
    assert len(await p1.store.load_actions(table)) == version + 1
    # The same pick again (another interaction): stale, nothing played.
    again = await p0.node.client.forward(pick, key="pick-2")
    assert again.status == "stale" and len(await p1.store.load_actions(table)) == version + 1
    unreadable = ForwardRequest.panel(table, click.user_id, {"pick": 3, "version": version})
    assert (await p0.node.client.forward(unreadable, key="pick-3")) == ForwardOutcome(
        "refused", "That choice is not understood.")


async def test_a_request_older_than_an_interaction_is_not_applied(processes: Any) -> None:
    p1 = await processes([1], inbox=False)
    table = await open_turup(p1, TABLE1)
    request, version = next_click(p1, table)
    p0 = await processes([0], forward_timeout=0.2)
    await p0.node.client.forward(request, key="old")
    late = InboxConsumer(p1.store, p1.service, p1.node.ownership, p1.answers,
                         now=lambda: dt.datetime.now(dt.UTC) + dt.timedelta(minutes=16))
    [(_, outcome)] = await late.drain()
    assert outcome == ForwardOutcome("expired")
    assert p1.service.info(table).version == version


async def test_a_process_never_loads_or_drives_another_shards_table(pg_url: str,
                                                                    processes: Any) -> None:
    # Tables of both shards, opened by an earlier single-process run.
    store = await open_store(pg_url)
    first = TableService(store, clock=FakeClock())
    await first.start()
    lobby0 = await first.create_table(TABLE0, "turup", ai_pace=0)
    lobby1 = await first.create_table(TABLE1, "turup", ai_pace=0)
    await first.close()
    await store.close()

    p0, p1 = await processes([0]), await processes([1])
    assert p0.service.table_ids() == [lobby0]
    assert p1.service.table_ids() == [lobby1]
    with pytest.raises(NoSuchTable):
        await p0.service.add_ai(lobby1)
    with pytest.raises(LobbyError, match="served by another bot process"):
        await p0.service.create_table(ChannelLocation(GUILD1, 201), "turup")

    # Process 1's AI players play its table to the end; process 0 takes no part.
    for _ in range(4):
        await p1.service.add_ai(lobby1, "random")
    await p1.service.start_match(lobby1)
    await p1.service.settle(timeout=60)
    match = await p1.store.get_match_for_table(lobby1)
    assert match is not None
    assert p0.service.table_ids() == [lobby0]


async def test_a_second_process_for_a_running_shard_is_refused(pg_url: str,
                                                               processes: Any) -> None:
    await processes([0])
    store = await open_store(pg_url)
    try:
        late = ClusterNode(store, Ownership.of(SHARDS, [0, 1]))
        with pytest.raises(ShardBusy, match="shard 0 is already run by another process"):
            await late.lock()
        # It holds nothing: shard 1 is still free for the right process.
        other = await processes([1])
        assert other.node.owns(TABLE1)
    finally:
        await store.close()


async def test_a_stale_lobby_write_fails_cleanly_and_reloads(pg_url: str) -> None:
    """Two processes holding the same lobby (two old-style processes that each load
    everything): no lost update, and the loser catches up."""
    stores = [await open_store(pg_url), await open_store(pg_url)]
    a = TableService(stores[0], clock=FakeClock())
    b = TableService(stores[1], clock=FakeClock())
    try:
        await a.start()
        table = await a.create_table(TABLE0, "turup")
        await b.start()
        assert b.table_ids() == [table]

        assert await a.join(table, 11, "alice", seat=1) == 1
        with pytest.raises(TableChanged, match="changed in the meantime"):
            await b.join(table, 22, "bob", seat=1)
        row = await stores[0].get_table(table)
        assert row is not None and row.seats[1]["user_id"] == 11  # alice kept her seat
        seat1 = b.info(table).seats[1]
        assert seat1 is not None and seat1.user_id == 11  # b reloaded
        assert await b.join(table, 22, "bob", seat=1 + 1) == 2  # on fresh state: fine

        # Now a is behind: its next change is refused too, then it sees bob.
        with pytest.raises(TableChanged):
            await a.add_ai(table, "rules", seat=0)
        seat2 = a.info(table).seats[2]
        assert seat2 is not None and seat2.user_id == 22
        await a.add_ai(table, "rules", seat=0)
        await a.add_ai(table, "rules", seat=3)
        await a.start_match(table)
        with pytest.raises(TableChanged):  # b still thinks seat 3 is free
            await b.add_ai(table, "random", seat=3)
        # b adopted the match a started, with the seats the store names.
        assert b.info(table).status == "playing"
        assert [s.user_id if s else None for s in b.info(table).seats] == [
            None, 11, 22, None]
    finally:
        await a.close()
        await b.close()
        for s in stores:
            await s.close()


async def test_league_reminders_are_sent_once_by_the_guilds_owner(processes: Any) -> None:
    p0, p1 = await processes([0]), await processes([1])
    kickoff = dt.datetime(2026, 3, 19, 18, 0, tzinfo=dt.UTC)
    league = await create_league(p0.store, GUILD1, 300, "Cup", "turup", weekday=3,
                                 start_time=dt.time(19, 0), time_zone="Europe/Berlin")
    await join_league(p0.store, league.id, [11, 13], name="Aces")
    await join_league(p0.store, league.id, [12, 14], name="Kings")
    await start_league(p0.store, league.id, kickoff - dt.timedelta(hours=72))

    sent: dict[int, list[tuple[int, str]]] = {0: [], 1: []}
    schedulers = []
    for index, process in enumerate((p0, p1)):
        clock = FakeClock(kickoff - dt.timedelta(hours=24))

        async def send(channel: int, text: str, members: tuple[int, ...],
                       index: int = index) -> None:
            sent[index].append((channel, text))

        schedulers.append(ReminderScheduler(process.store, send, clock=clock,
                                            handles_guild=process.node.owns_guild))
    for scheduler in schedulers * 2:
        await scheduler.tick()
    assert sent[0] == []
    assert [(channel, "24 hours" in text) for channel, text in sent[1]] == [(300, True)]


async def test_an_unreadable_request_is_closed_without_an_answer(processes: Any) -> None:
    p1 = await processes([1], inbox=False)
    table = await open_turup(p1, TABLE1)
    entry = await p1.store.forward_action(table, 1, "garbage", {"kind": "explode"})
    consumer = InboxConsumer(p1.store, p1.service, p1.node.ownership, p1.answers)
    assert await consumer.drain() == []
    done = await p1.store.get_forward(entry.id)
    assert done is not None and done.status == "done"
    assert ForwardOutcome.from_json(done.outcome).status == "failed"
    assert p1.answers.got == []


def test_requests_and_outcomes_round_trip_through_json() -> None:
    for request in (ForwardRequest.act(1, 2, {"type": "play", "card": "AS"}, 7),
                    ForwardRequest.rejoin(1, 2), ForwardRequest.panel(1, 2, {"page": 1})):
        assert ForwardRequest.from_json(request.to_json()) == request
    for outcome in (ForwardOutcome("applied", version=3), ForwardOutcome("refused", "no")):
        assert ForwardOutcome.from_json(outcome.to_json()) == outcome
    assert ForwardOutcome.from_json({"status": "weird"}).status == "failed"
    with pytest.raises(BadRequest):
        ForwardRequest.from_json({"kind": "act", "table_id": 1, "user_id": 2})
    with pytest.raises(BadRequest):
        ForwardRequest.from_json({"kind": "panel", "table_id": "x", "user_id": 2})


async def test_start_locks_lost_with_their_connection_are_taken_again(
    pg_schema_url: str, processes: Any, caplog: pytest.LogCaptureFixture
) -> None:
    """The server ends the session holding the shard locks (a network blip, an admin):
    the process notices and takes them again. (Loss and recovery can both happen between
    two looks at ``locked``, so the test follows the node's log of the two.)"""
    caplog.set_level(logging.WARNING, logger="bot.cluster.node")
    p1 = await processes([1])
    assert p1.node.locked
    schema = pg_schema_url.rsplit("schema=", 1)[1]
    await pg_execute(
        "SELECT pg_terminate_backend(pid) FROM pg_locks WHERE locktype = 'advisory'"
        " AND granted AND objsubid = 2 AND objid = 1 AND classid::bigint ="
        f" (hashtext('tricktable:shard:{schema}')::bigint & 4294967295)")
    lost, again = "not sure this process still holds", "the start locks are held again"
    async with asyncio.timeout(10):
        while not any(again in r.getMessage() for r in caplog.records):
            await asyncio.sleep(0.01)
    said = [r.getMessage() for r in caplog.records]
    assert any(lost in m for m in said)
    assert p1.node.locked
    store = await open_store(pg_schema_url)
    try:
        with pytest.raises(ShardBusy):
            await store.lock_shards([1])
    finally:
        await store.close()
