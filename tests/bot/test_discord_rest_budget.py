"""What a human's card costs in REST requests at a table of one human and three AI players,
and what the hand DM shows, end to end through the real discord.py client and the fake
Discord (``python bench/bot.py`` measures the requests at 200 tables).

Counted from the click on the hand DM to the panel of the player's next turn:

* the click's answer **is** the DM's edit: one interaction callback (an update of the
  clicked message, or when the work is slow an acknowledgement and one edit of it), and no
  second edit of the DM with the same state (the seat's redraw is held while the click is
  answered);
* the AI cards between two of the player's turns cost the DM nothing; it is edited once,
  when the turn comes back (or not at all when the answer already offered that turn),
  through the click's interaction token: no request counted against the bot's global
  limit;
* the table message shows every card and is never edited twice for one state;
* no new message within a deal, and a deal's DM is sent with the hand in it;
* so when the table message shows a round in one edit (the bench's shape), a card costs
  exactly three requests: its answer, the DM at the next turn, that table edit — and one
  of them, the table edit, counts against the bot's global limit.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import json
import logging
import random
from pathlib import Path

import aiohttp
import pytest
from discord_helpers import advance_until_turn, controls, live_panel
from fakediscord import Harness
from fakediscord.models import RecordedRequest, StoredMessage
from fakediscord.payloads import MESSAGE_COMPONENT
from rest_budget import (
    alice_at_turup,
    card_turns,
    human_card_budget,
    next_table,
    request_kind,
)

from bot.cluster import (
    ClusterNode,
    Delivery,
    ForwardRequest,
    InboxConsumer,
    Ownership,
)
from bot.discord_bot.rest_budget import (
    LATER,
    LIVE,
    PER_DEAL,
    PER_TRICK,
    TABLE,
    TO_ACT,
    RestBudget,
    use_budget,
)
from bot.discord_bot.tables.forwarded import ShardedClicks
from storage import RestUse

ORIGINAL = "PATCH /webhooks/{webhook_id}/{webhook_token}/messages/@original"


@pytest.mark.parametrize("defer_after", [2.0, 0.0], ids=["answered at once", "deferred"])
async def test_a_human_card_costs_its_answer_and_one_dm_edit_when_the_turn_comes_back(
        fake_discord: Harness, tmp_path: Path, defer_after: float) -> None:
    await human_card_budget(fake_discord, tmp_path, defer_after)


async def test_a_turup_deal_dm_is_sent_with_the_hand_when_an_ai_names_trump(
        fake_discord: Harness, tmp_path: Path) -> None:
    """Turup's eldest names trump from his first three cards; the others hold none until
    then. A human who is not eldest gets the deal's DM once the hand is dealt (an AI's
    moment later), not an empty DM edited a moment after."""
    at = await alice_at_turup(fake_discord, tmp_path)
    app, clock, alice, table_id, seat = at.app, at.clock, at.alice, at.table_id, at.seat
    server = fake_discord.server
    dm_channel = at.dm_channel
    eldest = app.service.info(table_id).to_act
    await app.service.settle()
    await fake_discord.settle()
    if seat not in eldest:
        assert not alice.dms  # nothing to show yet: the AI names trump first
    await advance_until_turn(app, clock, table_id, seat)
    dm = await alice.wait_for_dm(lambda m: f"table {table_id}, deal 1" in m.content)
    posts = [r for r in server.calls("POST /channels/{channel_id}/messages")
             if int(r.params["channel_id"]) == dm_channel]
    assert len(posts) == 1
    assert "(no cards)" not in str(posts[0].json.get("content"))
    assert "**Your hand** (9 cards)" in dm.content or seat in eldest


async def test_a_human_card_costs_three_requests_when_the_table_shows_a_round_in_one_edit(
        fake_discord: Harness, tmp_path: Path) -> None:
    """The shape ``bench/bot.py`` measures: the table message edited about once per round
    (there the 4 s ``ai_edit_interval`` against four cards in 4.5 s at AI pace 1.5 s; here
    the test lets the table message be edited once, when alice's turn comes back). A
    card of alice's then costs three requests: the click's answer (the DM's update), the
    DM's edit with the next turn's controls, and the table message's edit showing her card
    and the three AI cards after it."""
    at = await alice_at_turup(fake_discord, tmp_path)
    app, clock, alice, table_id, seat = at.app, at.clock, at.alice, at.table_id, at.seat
    server = fake_discord.server
    dm_channel = at.dm_channel
    presenter = app.tables.presenters[table_id]
    tickets: asyncio.Queue[None] = asyncio.Queue()

    async def when_let() -> None:
        await tickets.get()

    presenter.live._wait_before = when_let  # the table message waits for the test

    async def show_table() -> None:
        """Let the table message show the table now (one edit, if anything changed)."""
        drawn = await presenter.drawing()
        if drawn is None or drawn.key == presenter.live.shown:
            return
        tickets.put_nowait(None)
        for _ in range(500):
            drawn = await presenter.drawing()
            if drawn is None or drawn.key == presenter.live.shown:
                break
            await asyncio.sleep(0.01)
        else:
            raise AssertionError("the table message was not edited")
        while not tickets.empty():  # not taken (it was edited by its earlier pacing)
            tickets.get_nowait()

    rng = random.Random(6)
    rounds = 0
    async for deal, panel, select in card_turns(at, rng):
        if rounds >= 4:
            break
        await show_table()
        played_before = len(await app.store.load_actions(table_id))
        seq = server.requests[-1].seq
        r = await alice.select(panel, select["custom_id"],
                               [rng.choice(select["options"])["value"]])
        assert r.type == 7, r.content
        await advance_until_turn(app, clock, table_id, seat)
        if app.service.info(table_id).deal != deal:
            continue  # the deal ended: results and the next deal's DM are new messages
        await live_panel(app, panel.id, table_id)
        await show_table()
        await app.service.settle()
        await fake_discord.settle()
        if len(await app.store.load_actions(table_id)) - played_before < 4:
            continue  # alice led again at once: no AI card in between
        kinds = [request_kind(x, dm_channel, at.table_channel)
                 for x in server.calls(since=seq)]
        assert sorted(kinds) == ["callback", "original", "table edit"], kinds
        assert [request_kind(x, dm_channel, at.table_channel)
                for x in server.counted(since=seq)] == ["table edit"]
        rounds += 1
    assert rounds >= 2, rounds


async def test_the_dm_whose_deal_a_card_ended_says_so_and_keeps_no_controls(
        fake_discord: Harness, tmp_path: Path) -> None:
    """A card that ends the deal is answered on the clicked DM with the deal's end (its
    number, the channel) and no controls; the next deal's hand and controls are in a DM of
    their own, not on the old one as well."""
    at = await alice_at_turup(fake_discord, tmp_path)
    app = at.app
    rng = random.Random(8)
    for _ in range(16):  # a match may end before a card of alice's ends a deal (1 in 4)
        table_id = at.table_id
        async for deal, panel, select in card_turns(at, rng, tries=80):
            r = await at.alice.select(panel, select["custom_id"],
                                      [rng.choice(select["options"])["value"]])
            await app.service.settle()
            await fake_discord.settle()
            if (table_id not in app.service.table_ids()
                    or app.service.info(table_id).deal == deal):
                continue
            assert r.type == 7, r.content
            old = fake_discord.server.message(panel.id)
            assert old.content.startswith(
                f"Deal {deal + 1} is over: the result is in <#"), old.content
            assert "new message below" in old.content
            assert not list(old.walk_components())
            await advance_until_turn(app, at.clock, table_id, at.seat)
            newer = [m for m in at.alice.dms if f"table {table_id}, deal {deal + 2}" in m.content]
            assert newer and all(m.id != panel.id for m in newer)
            assert any(controls(m) for m in newer)
            return
        at = await next_table(at)
    raise AssertionError("no card of alice's ended a deal")


async def test_a_forwarded_card_that_ends_the_deal_is_answered_the_same_way(
        fake_discord: Harness, tmp_path: Path) -> None:
    """The owner of a table answers a card forwarded from another process (a DM click that
    reached shard 0) through the click's token: when that card ends the deal, the clicked
    DM says so and keeps no controls, as a local click's answer does."""
    at = await alice_at_turup(fake_discord, tmp_path)
    app = at.app
    clicks = ShardedClicks(app.tables, ClusterNode(app.store, Ownership.of(1, [0])))
    inbox = InboxConsumer(app.store, app.service, Ownership.of(1, [0]),
                          clicks.answer_forwarded)
    rng = random.Random(9)
    for _ in range(16):  # a match may end before alice holds a deal's last card (1 in 4)
        table_id = at.table_id
        async for deal, panel, select in card_turns(at, rng, tries=80):
            view = app.service.view(table_id, at.seat)
            last = len(view["hand"]) == 1 and len(view["trick"]["cards"]) == 3
            value = rng.choice(select["options"])["value"]
            if not last:
                await at.alice.select(panel, select["custom_id"], [value])
                continue
            # the process that received the click acknowledged it (deferred) and forwarded
            # it: the owner answers through its token
            server = fake_discord.server
            click = server.new_interaction(
                interaction_type=MESSAGE_COMPONENT, user=at.alice.user,
                channel=at.alice.dm_channel, message=panel, source_message_id=panel.id,
                data={"custom_id": select["custom_id"], "component_type": 3,
                      "values": [value]})
            async with aiohttp.ClientSession() as http:
                url = f"{server.api_base}/interactions/{click.id}/{click.token}/callback"
                async with http.post(url, json={"type": 6}) as response:
                    assert response.status < 300, await response.text()
            reply_to = {"application_id": server.application_id, "token": click.token,
                        "channel_id": at.dm_channel, "message_id": panel.id}
            version = app.service.info(table_id).version
            request = ForwardRequest.panel(table_id, at.alice.id,
                                           {"pick": json.loads(value), "version": version})
            # the owner's inbox plays the card (stored before the entry is done), then
            # the answer draws
            delivery = Delivery(1, "k", request, reply_to, dt.datetime.now(dt.UTC))
            outcome = await inbox.apply(delivery)
            assert outcome.status == "applied" and outcome.played_deal == deal
            await clicks.answer_forwarded(delivery, outcome)
            await app.service.settle()
            await fake_discord.settle()
            old = fake_discord.server.message(panel.id)
            if table_id not in app.service.table_ids():  # it ended the match too
                assert old.content.startswith("Done: the match is over"), old.content
                break
            assert app.service.info(table_id).deal == deal + 1
            assert old.content.startswith(
                f"Deal {deal + 1} is over: the result is in <#"), old.content
            assert not list(old.walk_components())
            return
        at = await next_table(at)
    raise AssertionError("alice never held the last card of a deal")


async def test_a_forwarded_card_is_redrawn_through_the_clicks_token_not_the_bots(
        fake_discord: Harness, tmp_path: Path) -> None:
    """The owner of a table redraws the live DM a forwarded click was made on through the
    click's interaction token (its one editor, in order): no request of the click counts
    against the bot's global limit — before, each cost one ``PATCH /channels/{dm}/
    messages/{id}`` with the bot's token. The next turn's controls come the same way."""
    at = await alice_at_turup(fake_discord, tmp_path)
    app, server = at.app, fake_discord.server
    clicks = ShardedClicks(app.tables, ClusterNode(app.store, Ownership.of(1, [0])))
    inbox = InboxConsumer(app.store, app.service, Ownership.of(1, [0]),
                          clicks.answer_forwarded)
    rng = random.Random(11)
    forwarded = 0
    async for _deal, panel, select in card_turns(at, rng):
        if forwarded >= 4:
            break
        view = app.service.view(at.table_id, at.seat)
        if len(view["hand"]) == 1:  # the deal's last card: answered as "deal over"
            await at.alice.select(panel, select["custom_id"], [select["options"][0]["value"]])
            continue
        value = rng.choice(select["options"])["value"]
        seq = server.requests[-1].seq
        click = server.new_interaction(
            interaction_type=MESSAGE_COMPONENT, user=at.alice.user,
            channel=at.alice.dm_channel, message=panel, source_message_id=panel.id,
            data={"custom_id": select["custom_id"], "component_type": 3, "values": [value]})
        async with aiohttp.ClientSession() as http:
            url = f"{server.api_base}/interactions/{click.id}/{click.token}/callback"
            async with http.post(url, json={"type": 6}) as response:
                assert response.status < 300, await response.text()
        reply_to = {"application_id": server.application_id, "token": click.token,
                    "channel_id": at.dm_channel, "message_id": panel.id}
        version = app.service.info(at.table_id).version
        request = ForwardRequest.panel(at.table_id, at.alice.id,
                                       {"pick": json.loads(value), "version": version})
        # the owner's inbox plays the card (stored before the entry is done), then the
        # answer draws
        delivery = Delivery(1, "k", request, reply_to, dt.datetime.now(dt.UTC))
        outcome = await inbox.apply(delivery)
        assert outcome.status == "applied", outcome
        await clicks.answer_forwarded(delivery, outcome)
        card = json.loads(value)["card"]

        def redrawn(panel: StoredMessage = panel, card: str = card) -> bool | None:
            hand = app.service.view(at.table_id, at.seat).get("hand") or []
            shown = server.message(panel.id).content
            return True if card not in hand and f"({len(hand)} card" in shown else None

        await fake_discord.wait_until(redrawn, what="the clicked DM redrawn")
        await advance_until_turn(app, at.clock, at.table_id, at.seat)
        await app.service.settle()
        await fake_discord.settle()
        dm_counted = [r for r in server.counted(since=seq)
                      if r.params.get("channel_id") == str(at.dm_channel)]
        assert dm_counted == [], dm_counted
        assert any(r.params.get("webhook_token") == click.token
                   for r in server.calls(ORIGINAL, since=seq))
        forwarded += 1
    assert forwarded >= 3, forwarded


async def test_near_the_budget_the_table_message_is_edited_per_trick_then_per_deal(
        fake_discord: Harness, tmp_path: Path) -> None:
    """As the bot nears its REST budget the public table message is slowed first: once
    per trick, then once per deal; the player to act still gets her controls at every
    turn (her DM is never held)."""
    at = await alice_at_turup(fake_discord, tmp_path)
    app, server = at.app, fake_discord.server
    budget = RestBudget(1e6)  # room enough: only the level is pinned here
    use_budget(budget)
    channel = str(at.table_channel)
    rng = random.Random(13)
    turns: dict[int, int] = {}
    edits: dict[int, list[RecordedRequest]] = {}
    tricks: dict[int, int] = {}
    for level in (PER_TRICK, PER_DEAL):
        budget.level = level
        await app.service.settle()
        await fake_discord.settle()
        presenter = app.tables.presenters[at.table_id]
        seq = server.requests[-1].seq
        deal0 = app.service.info(at.table_id).deal
        tricks_before = presenter._tricks
        turns[level] = 0
        async for deal, panel, select in card_turns(at, rng):
            # a few turns per trick, then the rest of the deal once per deal
            if deal != deal0 or (level == PER_TRICK and turns[level] >= 3):
                break
            r = await at.alice.select(panel, select["custom_id"],
                                      [rng.choice(select["options"])["value"]])
            assert r.type == 7, r.content
            turns[level] += 1
        await app.service.settle()
        await fake_discord.settle()
        edits[level] = [r for r in server.counted(since=seq)
                        if r.params.get("channel_id") == channel and r.method == "PATCH"]
        tricks[level] = presenter._tricks - tricks_before
    assert turns[PER_TRICK] >= 2 and turns[PER_DEAL] >= 2, turns
    # per trick: at most one edit per trick ended (and none within a trick)
    assert len(edits[PER_TRICK]) <= tricks[PER_TRICK], (edits[PER_TRICK], tricks)
    # per deal: none while the deal is played (the deal's end, if it came, is one)
    assert len(edits[PER_DEAL]) <= 1 and tricks[PER_DEAL] >= 2, (edits[PER_DEAL], tricks)


async def test_the_budget_lets_the_seat_to_act_go_first_and_tables_before_panels() -> None:
    """Counted ahead: with the share spent, the panel of the seat to act goes at once;
    the others wait, a table message before another panel, and go as the budget
    refills."""
    budget = RestBudget(4.0)  # 4 requests per second, a burst of 1
    await budget.take(lambda: LATER)  # spends the burst
    order: list[str] = []

    async def one(name: str, urgency: int) -> None:
        waited = await budget.take(lambda: urgency)
        order.append(f"{name}{'' if waited else '!'}")

    later = asyncio.create_task(one("panel", LATER))
    table = asyncio.create_task(one("table", TABLE))
    await asyncio.sleep(0)  # both queued
    await one("to act", TO_ACT)
    await asyncio.gather(later, table)
    assert order == ["to act!", "table", "panel"]


def test_the_share_and_the_level_follow_what_every_process_wants() -> None:
    """A process's share is what it wants and an even part of the room left while the sum
    fits, else the budget split in proportion; the level rises past 85 % of the share and
    falls below half of it after a while."""
    now = [0.0]
    budget = RestBudget(45.0, clock=lambda: now[0])
    use = dt.datetime.now(dt.UTC)
    budget.shared([RestUse("other", 10.0, 15.0, use)])  # the room left split evenly
    assert budget.share == 15.0 and budget.processes == 2 and budget.level == LIVE
    now[0] = 1.0
    for _ in range(40):  # this process makes 40 requests (20 a second over 2 s)
        budget.made()
    budget.shared([RestUse("other", 10.0, 50.0, use)])  # together over the budget
    assert budget.share == pytest.approx(45.0 * 20.0 / 70.0)
    assert budget.level == PER_TRICK  # wanted 20 of a share of 12.9
    now[0] = 2.0
    budget.shared([RestUse("other", 10.0, 50.0, use)])
    assert budget.level == PER_DEAL
    now[0] = 20.0  # quiet again, and long enough at that level
    budget.shared([])
    assert budget.share == 45.0 and budget.level == PER_TRICK


def test_the_budget_logs_its_use_once_a_minute(caplog: pytest.LogCaptureFixture) -> None:
    """The operator's line (INFO, once a minute): what the process made, its share, the
    bot's use, how table messages are edited, what waited, global 429s (WARNING too)."""
    now = [0.0]
    budget = RestBudget(45.0, clock=lambda: now[0])
    for _ in range(120):
        budget.made()
    budget.global_429()
    with caplog.at_level(logging.INFO, logger="bot.discord_bot.rest_budget"):
        budget.log_minute()
    lines = [r for r in caplog.records if r.name == "bot.discord_bot.rest_budget"]
    assert lines[0].levelno == logging.INFO
    assert lines[0].getMessage().startswith(
        "REST budget: this process made 2.0 requests/s over the last minute (its share now "
        "45.0 of the bot's 45;")
    assert "table messages per card" in lines[0].getMessage()
    assert "1 global 429(s)" in lines[0].getMessage()
    assert lines[1].levelno == logging.WARNING
