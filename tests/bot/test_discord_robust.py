"""Restarts, closed DMs, a REST proxy's timeouts, and every kind of bad click: each refused
click gets a clear ephemeral answer and changes nothing."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

from app_fixture import start_app
from discord_helpers import (
    MESSAGE_EDITS,
    advance_until_turn,
    alice_at_turup,
    alice_before_ai_turns,
    channel_texts,
    controls,
    edits_of,
    live_panel,
    my_hand,
    open_table,
    play_until,
    take_turn,
)
from fakediscord import Harness

EDIT = "PATCH /channels/{channel_id}/messages/{message_id}"


async def _until_turn(app, table_id: int, seat: int) -> None:  # type: ignore[no-untyped-def]
    await app.service.settle()
    await app.harness.settle()
    assert seat in app.service.info(table_id).to_act


async def test_restart_mid_deal_continues_and_old_buttons_work(fake_discord: Harness,
                                                               tmp_path: Path) -> None:
    app = await start_app(fake_discord, tmp_path)
    alice = fake_discord.user("alice")
    table_id, public = await open_table(app, alice, "turup", ais=3)
    seat = app.service.seat_of(table_id, alice.id)
    assert seat is not None
    rng = random.Random(5)
    for _ in range(2):  # two of alice's turns, then stop while she is to act
        await _until_turn(app, table_id, seat)
        await take_turn(alice, await my_hand(alice, public, table_id), rng)
    await _until_turn(app, table_id, seat)
    panel = await my_hand(alice, public, table_id)  # shown before the restart
    version = app.service.info(table_id).version
    stored = len(await app.store.load_actions(table_id))
    assert stored == version

    await app.restart()
    assert table_id in app.service.table_ids()
    assert app.service.info(table_id).version == version  # nothing lost, nothing redone
    # the panel shown before the restart still plays
    r = await take_turn(alice, panel, rng)
    assert r.type == 7 and app.service.info(table_id).version > version
    # the public message is the same one, edited by the new process
    await app.service.settle()
    await fake_discord.wait_until(
        lambda: len(fake_discord.server.message(public.id).history) > 0 or None,
        what="the table message edited")
    assert app.tables.presenters[table_id].message_id == public.id

    def deal_over() -> bool:
        return any(f"Deal 1 of table {table_id} is over" in t for t in channel_texts(app))

    await play_until(app, table_id, public, {alice: seat}, deal_over, rng=rng)
    log = await app.store.load_actions(table_id)
    assert [e.seq for e in log] == list(range(1, len(log) + 1))


async def test_closed_dms_are_told_once_in_the_channel(fake_discord: Harness,
                                                       tmp_path: Path) -> None:
    app = await start_app(fake_discord, tmp_path)
    alice = fake_discord.user("alice")
    bob = fake_discord.user("bob", dms_open=False)
    table_id, public = await open_table(app, alice, "turup", ais=2, others=(bob,))
    await app.service.settle()

    def notices() -> list[str]:
        return [t for t in channel_texts(app)
                if f"<@{bob.id}>" in t and "cannot send you direct messages" in t]

    await fake_discord.wait_until(lambda: notices() or None, what="the DM notice")
    notice = next(m for m in fake_discord.server.messages(fake_discord.channel)
              if "cannot send you direct messages" in m.content)
    assert bob.id in [int(u["id"]) for u in notice.payload["mentions"]]
    assert "My hand" in notices()[0]
    seats = {alice: app.service.seat_of(table_id, alice.id),
             bob: app.service.seat_of(table_id, bob.id)}

    def second_deal() -> bool:
        return app.service.info(table_id).deal >= 1 and any(
            f"Deal 1 of table {table_id} is over" in t for t in channel_texts(app))

    await play_until(app, table_id, public, seats, second_deal, rng=random.Random(1))
    await app.service.settle()
    await fake_discord.settle()
    assert len(notices()) == 1  # told once, not at every deal
    bob_dm = fake_discord.server.dm_channel(bob.user).id
    attempts = fake_discord.server.calls("POST /channels/{channel_id}/messages")
    assert sum(1 for r in attempts if int(r.params["channel_id"]) == bob_dm) == 1
    alice_dm = fake_discord.server.dm_channel(alice.user).id
    assert sum(1 for r in attempts if int(r.params["channel_id"]) == alice_dm) >= 2


async def test_stale_double_and_foreign_clicks_change_nothing(fake_discord: Harness,
                                                              tmp_path: Path) -> None:
    app = await start_app(fake_discord, tmp_path)
    alice, carol = fake_discord.user("alice"), fake_discord.user("carol")
    table_id, public = await open_table(app, alice, "turup", ais=3)
    seat = app.service.seat_of(table_id, alice.id)
    assert seat is not None
    await _until_turn(app, table_id, seat)
    # a double click: the same choice sent twice before the panel changes; the first
    # plays, the second is refused and changes nothing (an older My hand panel cannot be
    # clicked any more: it is made inert, see test_discord_players_view)
    first = await my_hand(alice, public, table_id)
    c = controls(first)[0]
    version = app.service.info(table_id).version
    if c["type"] == 3:
        value = c["options"][0]["value"]
        clicks = [alice.select(first, c["custom_id"], [value]) for _ in range(2)]
    else:
        clicks = [alice.click(first, c["custom_id"]) for _ in range(2)]
    results = await asyncio.gather(*clicks)
    refused = [r for r in results if r.ephemeral and r.type == 4]
    assert len(refused) == 1 and "no longer current" in refused[0].content
    rng = random.Random(2)
    view = app.service.view(table_id, None)
    # somebody without a seat
    r = await carol.click(public, f"tt:h:{table_id}:0:")
    assert r.ephemeral and "no seat" in r.content
    r = await carol.click(public, f"tt:h:{table_id}:0:")
    assert "no seat" in r.content
    # later turns play on
    for _ in range(2):
        await _until_turn(app, table_id, seat)
        await take_turn(alice, await my_hand(alice, public, table_id), rng)
    assert app.service.info(table_id).version > version
    del view


async def test_bad_table_options_are_answered_privately(fake_discord: Harness,
                                                        tmp_path: Path) -> None:
    app = await start_app(fake_discord, tmp_path)
    alice = fake_discord.user("alice")
    r = await alice.slash("table", "new", game="turup", options='{"no_such_option": 1}')
    assert r.ephemeral and "no_such_option" in r.content
    r = await alice.slash("table", "new", game="turup", options="{not json")
    assert r.ephemeral and "JSON" in r.content
    r = await alice.slash("table", "new", game="turup", players=3)
    assert r.ephemeral and "4" in r.content
    assert app.service.table_ids() == []
    r = await alice.slash("table", "new", game="albastini", players=3)
    msg = await r.wait_filled()
    assert not msg.ephemeral and "`2`" in msg.content and "`3`" not in msg.content


async def test_a_request_timeout_from_a_rest_proxy_is_retried(fake_discord: Harness,
                                                              tmp_path: Path) -> None:
    """A REST proxy in front of Discord (``TRICKTABLE_DISCORD_API``) answers 408 when
    Discord is slow: the DM edit is tried again, and the player gets her controls."""
    app, clock, alice, table_id, seat = await alice_at_turup(fake_discord, tmp_path, 3600)
    rng = random.Random(5)
    server = fake_discord.server
    dm = await alice_before_ai_turns(app, clock, alice, table_id, seat, rng)

    on_dm = edits_of(fake_discord, dm.id)  # with the bot's token or a click's
    seq = server.requests[-1].seq
    for route in MESSAGE_EDITS:
        server.fail_next(route, status=408, times=2, match=on_dm,
                         body={"message": "Request timed out", "code": 0})
    await advance_until_turn(app, clock, table_id, seat)
    await live_panel(app, dm.id, table_id)  # nobody pressed anything
    assert [r.status for r in server.calls(since=seq) if on_dm(r)][:3] == [408, 408, 200]
