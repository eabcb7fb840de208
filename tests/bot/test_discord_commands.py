"""The other commands: status, options, rules, export, abandon (with confirmation),
/hand, /settings; pictures when images are on; the cost in REST calls of AI play; the
public message replaced when it gets old."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import random
from pathlib import Path

from app_fixture import start_app
from discord_helpers import channel_texts, my_hand, open_table, play_until
from fakediscord import Harness

from games.records import replay
from games.registry import GAMES


async def test_status_options_rules_hand(fake_discord: Harness, tmp_path: Path) -> None:
    app = await start_app(fake_discord, tmp_path)
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    r = await alice.slash("table", "status")
    assert r.ephemeral and "no open table" in r.content
    table_id, public = await open_table(app, alice, "tarabish", ais=3,
                                        options=json.dumps({"target": 300}))
    r = await bob.slash("table", "status")
    assert r.ephemeral and "Tarabish" in r.content and str(public.id) in r.content
    r = await bob.slash("table", "options")
    assert r.ephemeral and r.message is not None
    shown = "\n".join(e.get("description", "") for e in r.message.embeds)
    for row in GAMES["tarabish"].options_type.describe():
        assert f"`{row['name']}`" in shown
    assert "(`target`): 300 (changed; the default is 500)" in shown
    r = await bob.slash("rules", game="truf")
    assert r.ephemeral and r.message is not None
    assert r.message.embeds and "Truf" in r.message.embeds[0]["title"]
    r = await bob.slash("hand")
    assert r.ephemeral and "no seat" in r.content
    await app.service.settle()
    r = await alice.slash("hand")
    assert r.ephemeral and "Your hand" in r.content
    assert app.service.info(table_id).status == "playing"


async def test_abandon_needs_the_host_and_a_confirmation(fake_discord: Harness,
                                                         tmp_path: Path) -> None:
    app = await start_app(fake_discord, tmp_path)
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    mona = fake_discord.user("mona", manager=True)
    table_id, public = await open_table(app, alice, "turup", ais=2, others=(bob,))
    r = await bob.slash("table", "abandon")
    assert r.ephemeral and "Only the player who opened" in r.content
    r = await mona.slash("table", "abandon")  # a manager may
    assert r.ephemeral and "Close this table" in r.content
    assert table_id in app.service.table_ids()  # nothing happens without the confirmation
    r = await mona.click(r.message, f"tt:x:{table_id}:0:")
    assert r.type == 7 and "closed" in r.content
    assert table_id not in app.service.table_ids()
    await fake_discord.wait_until(
        lambda: any("was closed" in t for t in channel_texts(app)) or None, what="notice")
    await fake_discord.wait_until(
        lambda: not fake_discord.server.message(public.id).custom_ids() or None,
        what="the table message without buttons")
    # a new table may be opened in the channel now (the answer is deferred at once: wait
    # for the lobby itself, so the test does not end while the command still runs)
    r2 = await alice.slash("table", "new", game="truf")
    lobby = await r2.wait_filled() if r2.type == 5 else r2.message
    assert lobby is not None and not lobby.ephemeral and "Truf" in lobby.content


async def test_export_gives_only_completed_deals(fake_discord: Harness,
                                                 tmp_path: Path) -> None:
    app = await start_app(fake_discord, tmp_path)
    alice = fake_discord.user("alice")
    table_id, public = await open_table(app, alice, "turup", ais=3)
    r = await alice.slash("table", "export")
    done = await r.wait_filled()  # the deal in play stays secret: nothing to export yet
    assert r.ephemeral and not done.attachments, done.attachments
    assert f"No deal of table {table_id} is finished yet" in done.content, done.content

    def deal_over() -> bool:
        return any(f"Deal 1 of table {table_id} is over" in t for t in channel_texts(app))

    await play_until(app, table_id, public, {alice: 0}, deal_over)
    r = await alice.slash("table", "export")
    done = await r.wait_filled()
    data = json.loads(done.attachments[0].data)
    assert len(data["deals"]) == 1 and data["deals"][0]["actions"]
    out, status = replay(data)  # what `tricktable replay` prints and exits with
    assert status == 0 and out["ok"], out


async def test_settings_are_for_managers_and_reach_new_tables(fake_discord: Harness,
                                                              tmp_path: Path) -> None:
    app = await start_app(fake_discord, tmp_path)
    mona = fake_discord.user("mona", manager=True)
    r = await mona.slash("settings", turn_timeout=45, ai_matches_rated=True)
    done = await r.wait_filled()
    assert "45 s" in done.content and "ratings: **yes**" in done.content
    gs = await app.store.get_guild_settings(int(fake_discord.guild.id))
    assert gs.turn_timeout == 45 and gs.ai_matches_rated
    table_id, _ = await open_table(app, mona, "turup", ais=3, start=False)
    settings = app.service.info(table_id).settings
    assert settings.turn_timeout == 45 and settings.rated


async def test_images_are_attached_when_on(fake_discord: Harness, tmp_path: Path) -> None:
    app = await start_app(fake_discord, tmp_path, guild_settings={"images": True})
    alice = fake_discord.user("alice")
    table_id, public = await open_table(app, alice, "turup", ais=3)
    await app.service.settle()
    await fake_discord.wait_until(
        lambda: fake_discord.server.message(public.id).attachments or None,
        what="the table picture")
    att = fake_discord.server.message(public.id).attachments[0]
    assert att.data[:8] == b"\x89PNG\r\n\x1a\n"
    panel = await my_hand(alice, public, table_id)
    assert panel.attachments and panel.attachments[0].data[:4] == b"\x89PNG"


async def test_ai_play_costs_few_rest_calls_per_card(fake_discord: Harness,
                                                     tmp_path: Path) -> None:
    """One human and three AI players at pace 0: the AI's plays between two human turns
    land in one coalesced edit, so a played card costs well under one REST call."""
    app = await start_app(fake_discord, tmp_path, edit_delay=0.05, edit_interval=0.2)
    alice = fake_discord.user("alice")
    table_id, public = await open_table(app, alice, "turup", ais=3)
    await app.service.settle()
    seat = app.service.seat_of(table_id, alice.id)
    server = fake_discord.server
    start_seq = server.requests[-1].seq
    start_version = app.service.info(table_id).version
    rng = random.Random(9)

    def deal_over() -> bool:
        return any(f"Deal 1 of table {table_id} is over" in t for t in channel_texts(app))

    human = await play_until(app, table_id, public, {alice: seat}, deal_over, rng=rng)
    cards = app.service.info(table_id).version - start_version
    calls = [r for r in server.requests if r.seq > start_seq]
    # the human's own clicks: My hand + the choice (+ a signal) are interaction callbacks
    bot_calls = [r for r in calls if "/callback" not in r.route]
    assert cards >= 16
    # per human turn the hand DM is redrawn (it always holds the current hand) and the
    # previous My hand panel is made inert (one live private panel): two calls each
    assert (len(bot_calls) - 2 * human) / cards <= 1.0, (len(bot_calls), cards, human)
    edits = [r for r in calls if r.route == "/channels/{channel_id}/messages/{message_id}"
             and r.method == "PATCH"
             and r.params.get("channel_id") == str(fake_discord.channel.id)]
    assert len(edits) <= human + 3  # about one table edit per human turn, not per card


async def test_old_table_message_is_replaced(fake_discord: Harness, tmp_path: Path) -> None:
    app = await start_app(fake_discord, tmp_path)
    alice = fake_discord.user("alice")
    table_id, public = await open_table(app, alice, "turup", ais=3)
    # Old at once from here (not while the lobby's buttons are being clicked: a message
    # replaced under a click is gone), and its next redraw replaces it.
    presenter = app.tables.presenters[table_id]
    presenter.settings = dataclasses.replace(presenter.settings, message_max_age=0.0)
    presenter.live.mark()
    await fake_discord.wait_until(
        lambda: app.tables.presenters[table_id].message_id not in (None, public.id) or None,
        what="a fresh table message")
    await fake_discord.settle()
    presenter = app.tables.presenters[table_id]
    async with asyncio.timeout(30):  # the new message is recorded after it was sent
        while presenter.live.busy:
            await asyncio.sleep(0.01)
    new_id = presenter.message_id
    assert fake_discord.server.message(public.id).deleted
    shown = await app.store.get_table_messages(table_id)
    assert shown is not None and shown.message_id == new_id
    assert f"tt:h:{table_id}:0:" in fake_discord.server.message(new_id).custom_ids()


async def test_slow_work_is_deferred_then_the_panel_is_edited(fake_discord: Harness,
                                                              tmp_path: Path) -> None:
    """With ``defer_after=0`` every store-touching click is acknowledged first (type 6)
    and the panel is edited when the action is stored."""
    app = await start_app(fake_discord, tmp_path, defer_after=0.0)
    alice = fake_discord.user("alice")
    table_id, public = await open_table(app, alice, "turup", ais=3)
    seat = app.service.seat_of(table_id, alice.id)
    await app.service.settle()
    await fake_discord.settle()
    assert seat in app.service.info(table_id).to_act
    panel = await my_hand(alice, public, table_id)
    version = app.service.info(table_id).version
    select = next(c for c in panel.walk_components() if c.get("type") == 3)
    value = select["options"][0]["value"]
    r = await alice.select(panel, select["custom_id"], [value])
    if r.type == 7:  # a card with signal variants: choose the plain one
        plain = next(c for c in r.message.custom_ids() if c.startswith("tt:a:")
                     and "signal" not in c)
        r = await alice.click(r.message, plain)
    assert r.type == 6
    await r.wait_request("PATCH /webhooks/{webhook_id}/{webhook_token}/messages/@original")
    assert app.service.info(table_id).version > version
    assert "Your hand** (8 cards)" in fake_discord.server.message(panel.id).content
