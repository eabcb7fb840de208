"""A restart loses nothing of a seat's DM panel nor of the half-time reminder.

* The DM sent at the start of a deal stays the seat's live panel across a restart: the new
  process edits that same message when the seat's turn comes (and at once when the seat is
  already to act at the restart), and a choice made on it plays.
* The half-time reminder is posted once per turn: not again after a restart (the service
  publishes it again), and a reminder that fell due while the bot was down is posted once
  it is back.

The AI players' pace (and the turn timer) run on a :class:`FakeClock`, so that a test can
stop the bot while an AI player is to act, or exactly after the reminder.
"""

from __future__ import annotations

import random
from pathlib import Path

from app_fixture import App, start_app
from discord_helpers import (
    advance_until_turn,
    alice_at_turup,
    channel_texts,
    controls,
    my_hand,
    open_table,
    take_turn,
)
from fakediscord import Harness
from fakediscord.models import StoredMessage

from bot.service import FakeClock

EDIT_MESSAGE = "PATCH /channels/{channel_id}/messages/{message_id}"
REMINDER = "it is your turn"


def versions(msg: StoredMessage) -> set[int]:
    """The table versions the message's play controls were offered at."""
    return {int(c["custom_id"].split(":")[3]) for c in controls(msg)}


def last_seq(app: App) -> int:
    """The seq of the latest request the fake Discord received (a point in time)."""
    return app.harness.server.requests[-1].seq


def edited_since(app: App, message_id: int, seq: int) -> int:
    """How many times the bot edited ``message_id`` through the channel routes (not as an
    interaction answer) after request ``seq``."""
    return sum(1 for r in app.harness.server.calls(EDIT_MESSAGE, since=seq)
               if int(r.params["message_id"]) == message_id)


async def live_dm(app: App, dm: StoredMessage, table_id: int,
                  since: int | None) -> StoredMessage:
    """Wait until ``dm`` offers the choices of the current table version; returns the
    message as it is now. With ``since``, the bot must have edited it for them after
    request ``since``; with None, the click's answer may have brought them too (when the
    seat's own card won the trick it leads again at once, and that answer is the DM's
    update for the turn: no separate edit follows)."""
    server = app.harness.server

    def live() -> StoredMessage | None:
        msg = server.message(dm.id)
        version = app.service.info(table_id).version
        if (since is None or edited_since(app, dm.id, since)) and versions(msg) == {version}:
            return msg
        return None

    return await app.harness.wait_until(live, what="the DM panel offering this turn")


async def test_dm_of_the_deal_is_edited_after_a_restart_and_plays(
        fake_discord: Harness, tmp_path: Path) -> None:
    app, clock, alice, table_id, seat = await alice_at_turup(fake_discord, tmp_path, 3600)
    dm = await alice.wait_for_dm(lambda m: "Your hand" in m.content)
    rng = random.Random(11)
    # alice plays her first turn(s) on the DM, until an AI player is to act
    for _ in range(5):
        await advance_until_turn(app, clock, table_id, seat)
        await take_turn(alice, await live_dm(app, dm, table_id, None), rng)
        await app.service.settle()
        if seat not in app.service.info(table_id).to_act:
            break
    else:
        raise AssertionError("alice is still to act")
    assert app.service.info(table_id).deal == 0
    dms_before = len(alice.dms)

    since = last_seq(app)
    await app.restart()
    assert edited_since(app, dm.id, since) == 0
    await advance_until_turn(app, clock, table_id, seat)
    # the new process edits the DM sent before the restart, with the controls of now
    panel = await live_dm(app, dm, table_id, since)
    assert "Your turn" in panel.content
    assert len(alice.dms) == dms_before  # the same message, not a new DM
    version = app.service.info(table_id).version
    r = await take_turn(alice, panel, rng)
    assert r.type == 7 and r.message is not None and r.message.id == dm.id
    assert app.service.info(table_id).version > version
    assert len(await app.store.load_actions(table_id)) == app.service.info(table_id).version


async def test_a_seat_to_act_at_the_restart_gets_its_dm_brought_up_to_date(
        fake_discord: Harness, tmp_path: Path) -> None:
    app = await start_app(fake_discord, tmp_path)
    alice = fake_discord.user("alice")
    table_id, public = await open_table(app, alice, "turup", ais=3)
    seat = app.service.seat_of(table_id, alice.id)
    assert seat is not None
    dm = await alice.wait_for_dm(lambda m: "Your hand" in m.content)
    rng = random.Random(4)
    # alice plays from **My hand** panels: the live panel is the ephemeral one; the DM is
    # kept current too (it always holds the hand)
    for _ in range(2):
        await app.service.settle()
        await fake_discord.settle()
        assert seat in app.service.info(table_id).to_act
        await take_turn(alice, await my_hand(alice, public, table_id), rng)
    await app.service.settle()
    await fake_discord.settle()
    info = app.service.info(table_id)
    assert seat in info.to_act and info.deal == 0
    await fake_discord.wait_until(
        lambda: versions(fake_discord.server.message(dm.id)) == {info.version} or None,
        what="the DM brought up to date")

    since = last_seq(app)
    await app.restart()
    panel = await live_dm(app, dm, table_id, since)  # at once: alice was already to act
    version = app.service.info(table_id).version
    r = await take_turn(alice, panel, rng)
    assert r.type == 7 and app.service.info(table_id).version > version


def reminders(app: App) -> int:
    return sum(REMINDER in t for t in channel_texts(app))


async def test_the_reminder_is_posted_once_per_turn_across_a_restart(
        fake_discord: Harness, tmp_path: Path) -> None:
    app, clock, alice, table_id, seat = await alice_at_turup(fake_discord, tmp_path, 10)
    dm = await alice.wait_for_dm(lambda m: "Your hand" in m.content)
    await advance_until_turn(app, clock, table_id, seat)
    await clock.advance(5)
    await fake_discord.wait_until(lambda: reminders(app) or None, what="the reminder")
    version = app.service.info(table_id).version

    since = last_seq(app)
    await app.restart()  # the service publishes the same turn's reminder again, at once
    assert app.service.info(table_id).version == version
    panel = await live_dm(app, dm, table_id, since)
    # alice's next turn: her seat's events (the repeated reminder among them) are handled
    # in order, so once the DM offers this turn that reminder was dealt with. (When her
    # card wins the trick she leads again at once, and the click's answer is the DM's
    # update for that turn: no separate edit follows.)
    await take_turn(alice, panel, random.Random(8))
    await advance_until_turn(app, clock, table_id, seat)
    await live_dm(app, dm, table_id, None)
    await app.service.settle()
    await fake_discord.settle()
    assert reminders(app) == 1
    # a new turn has its own reminder
    await clock.advance(5)
    await fake_discord.wait_until(lambda: reminders(app) == 2 or None, what="the 2nd reminder")
    await app.service.settle()
    await fake_discord.settle()
    assert reminders(app) == 2


async def test_a_reminder_due_while_the_bot_was_down_is_posted_once(
        fake_discord: Harness, tmp_path: Path) -> None:
    app, clock, _, table_id, seat = await alice_at_turup(fake_discord, tmp_path, 10)
    await advance_until_turn(app, clock, table_id, seat)
    await clock.advance(2)
    assert reminders(app) == 0

    await app.stop()
    await clock.advance(4)  # half time passes while the bot is down
    await app.start()
    await fake_discord.wait_until(lambda: reminders(app) or None, what="the late reminder")
    await app.service.settle()
    await fake_discord.settle()
    assert reminders(app) == 1
    assert seat in app.service.info(table_id).to_act


async def test_a_due_reminder_is_not_lost_while_other_tables_are_recovered(
        fake_discord: Harness, tmp_path: Path) -> None:
    other = fake_discord.server.add_text_channel(fake_discord.guild, "tables")
    clock = FakeClock()
    app = await start_app(fake_discord, tmp_path, clock=clock,
                          guild_settings={"turn_timeout": 60, "ai_pace": 1.0})
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob").at(other)
    first, _ = await open_table(app, alice, "turup", ais=3)
    second, _ = await open_table(app, bob, "turup", ais=3)
    assert first < second  # recovered in this order
    for table_id, user in ((first, alice), (second, bob)):
        seat = app.service.seat_of(table_id, user.id)
        assert seat is not None
        await advance_until_turn(app, clock, table_id, seat)
    # the second table lost its deadline (as in a crash before the row was updated): its
    # recovery plans a new one and stores it, an await after the first table is loaded
    await app.store.update_table(second, turn_deadline=None)

    await app.stop()
    await clock.advance(40)  # alice's half time passes while the bot is down
    await app.start()
    await fake_discord.wait_until(lambda: reminders(app) or None, what="alice's reminder")
    await app.service.settle()
    await fake_discord.settle()
    assert reminders(app) == 1
    assert not any(REMINDER in m.content for m in fake_discord.server.messages(other))
