"""The adapter's promises beyond the happy path (issue 15): every edit lands or is
superseded, the first panel of a turn holds every legal action, I'm back brings the DM
panel up to the current turn, a DEBUG log keeps secrets, and a click reads the service
once or twice — not once per thing it draws."""

from __future__ import annotations

import asyncio
import io
import logging
import random
import time
from pathlib import Path
from typing import Any

import pytest
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
    open_table,
    take_turn,
)
from fakediscord import Harness
from fakediscord.models import StoredMessage

from bot.logs import configure_logging
from bot.service import AWAY_AFTER, FakeClock, Seat
from bot.settings import Settings
from storage import ChannelLocation

EDIT = "PATCH /channels/{channel_id}/messages/{message_id}"



FAULTS = 8.0
"""Seconds Discord fails every edit of the player's DM (429s and 502s in turn)."""
RECOVERY = 4.0
"""Seconds after Discord answers normally again by which the player has her controls."""


async def test_controls_arrive_within_seconds_of_discord_answering_again_after_429s_and_502s(
        fake_discord: Harness, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """Every edit of alice's DM gets a 502 or a 429 for 8 s while her turn comes: her
    controls arrive within 4 s of Discord answering normally again (discord.py's own
    retries of one request sleep 1, 3, 5, 7 s on an outdated drawing: each delivery
    attempt is bounded and the next one draws the newest state), with one warning."""
    app, clock, alice, table_id, seat = await alice_at_turup(fake_discord, tmp_path, 3600)
    rng = random.Random(3)
    server = fake_discord.server
    dm = await alice_before_ai_turns(app, clock, alice, table_id, seat, rng)

    on_dm = edits_of(fake_discord, dm.id)  # with the bot's token or a click's
    seq = server.requests[-1].seq
    with caplog.at_level(logging.WARNING, logger="bot"):
        for route in MESSAGE_EDITS:
            healthy = server.fail_for(route, FAULTS, [502, 429], match=on_dm)
        await advance_until_turn(app, clock, table_id, seat)  # the AI players' cards
        fake_discord.timeout = FAULTS + 30  # fail late, not by a timeout
        panel = await live_panel(app, dm.id, table_id)  # nobody pressed anything
    late = time.monotonic() - healthy
    assert late <= RECOVERY, f"the controls came {late:.1f} s after Discord recovered"
    failed = [r for r in server.calls(since=seq) if on_dm(r) and r.status >= 400]
    assert {r.status for r in failed} == {429, 502}
    warnings = [r for r in caplog.records if "update failed" in r.getMessage()]
    assert len(warnings) == 1 and f"table {table_id} seat {seat}" in warnings[0].getMessage()
    r = await take_turn(alice, panel, rng)
    assert r.type == 7


async def test_the_first_tarabish_panel_of_a_turn_offers_declare_runs(
        fake_discord: Harness, tmp_path: Path) -> None:
    """Four humans play the auction and the first trick of many seeded deals in their DMs;
    the first drawing of each play turn's panel offers "Declare runs" exactly when the
    rules allow it (a hand with a run, the first trick)."""
    app = await start_app(fake_discord, tmp_path)
    h = fake_discord
    names = ("ann", "ben", "cat", "dan")
    users = [h.user(n) for n in names]
    checked = with_runs = 0
    rng = random.Random(9)
    for n in range(8):
        channel = h.server.add_text_channel(h.guild, f"t{n}")
        seats = [Seat.human(u.id, name) for u, name in zip(users, names, strict=True)]
        table_id = await app.service.create_table(
            ChannelLocation(int(h.guild.id), int(channel.id)), "tarabish", seats=seats,
            seed=f"runs-{n}", start=True)
        first_turn: set[int] = set()
        for _ in range(40):
            await app.service.settle()
            await h.settle()
            info = app.service.info(table_id)
            if info.deal > 0 or len(first_turn) == 4:
                break
            (seat,) = info.to_act
            user = users[seat]
            mine = await user.wait_for_dm(lambda m, t=table_id: f"table {t}," in m.content)
            dm = await live_panel(app, mine.id, table_id)
            legal = app.service.legal(table_id, seat)
            if any(a.type == "play" for a in legal) and seat not in first_turn:
                first_turn.add(seat)
                first = first_drawing_at(dm, info.version)
                can = any(a.type == "declare_runs" for a in legal)
                offered = any('"declare_runs"' in c for c in first)
                assert offered == can, (n, seat, first)
                checked += 1
                with_runs += can
            await take_turn(user, dm, rng,
                            prefer=lambda c: "declare_runs" not in c["custom_id"])
        await app.service.abandon(table_id)
    assert checked >= 24 and with_runs >= 2, (checked, with_runs)


def first_drawing_at(msg: StoredMessage, version: int) -> list[str]:
    """The custom ids of the first drawing of ``msg`` offering controls at ``version``."""
    for payload in [*msg.history, msg.payload]:
        ids = [c.get("custom_id", "") for row in payload.get("components", [])
               for c in row.get("components", [])]
        if any(i.startswith(("tt:s:", "tt:a:", "tt:m:")) and i.split(":")[3] == str(version)
               for i in ids):
            return ids
    raise AssertionError("the panel never offered controls at that version")


async def test_after_im_back_the_dm_panel_shows_the_current_turn(
        fake_discord: Harness, tmp_path: Path) -> None:
    clock = FakeClock()
    app = await start_app(fake_discord, tmp_path, clock=clock,
                          guild_settings={"turn_timeout": 10, "ai_pace": 1.0})
    alice = fake_discord.user("alice")
    table_id, _ = await open_table(app, alice, "turup", ais=3)
    seat = app.service.seat_of(table_id, alice.id)
    assert seat is not None
    # the deal's DM comes with the hand: after an AI eldest named trump
    await advance_until_turn(app, clock, table_id, seat)
    dm = await alice.wait_for_dm(lambda m: "Your hand" in m.content)
    for _ in range(AWAY_AFTER):
        await advance_until_turn(app, clock, table_id, seat)
        await clock.advance(10)  # the turn runs out: an AI plays for alice
        await app.service.settle()
    await fake_discord.wait_until(
        lambda: any("seems to be away" in t for t in channel_texts(app)) or None, what="away")
    await app.service.settle()
    await fake_discord.settle()
    # While an AI keeps the seat, the DM offers no stale controls, only I'm back.
    shown = fake_discord.server.message(dm.id)
    assert not controls(shown) and f"tt:b:{table_id}:0:" in shown.custom_ids()
    r = await alice.click(shown, f"tt:b:{table_id}:0:")
    assert r.ephemeral and "Welcome back" in r.content
    await advance_until_turn(app, clock, table_id, seat)
    panel = await live_panel(app, dm.id, table_id)
    assert "Your turn" in panel.content
    version = app.service.info(table_id).version
    r = await take_turn(alice, panel, random.Random(1))
    assert r.type == 7 and app.service.info(table_id).version > version


async def test_a_debug_log_holds_no_token_seed_interaction_token_or_hand(
        fake_discord: Harness, tmp_path: Path) -> None:
    stream = io.StringIO()
    token = fake_discord.server.token
    handler = configure_logging(Settings(token=token, log_level="DEBUG"), stream)
    try:
        app, clock, alice, table_id, seat = await alice_at_turup(fake_discord, tmp_path, 3600)
        dm = await alice.wait_for_dm(lambda m: "Your hand" in m.content)
        seed = app.service.info(table_id).settings.seed
        rng = random.Random(4)
        for _ in range(3):
            await advance_until_turn(app, clock, table_id, seat)
            hand = list(app.service.view(table_id, seat)["hand"])
            await take_turn(alice, await live_panel(app, dm.id, table_id), rng)
        logging.getLogger("bot.test").debug("a debug line of the project")
    finally:
        logging.getLogger().removeHandler(handler)
        for name in ("bot", "games", "storage"):
            logging.getLogger(name).setLevel(logging.NOTSET)
    text = stream.getvalue()
    assert "DEBUG" in text and "a debug line of the project" in text
    assert token not in text and seed not in text
    tokens = [i.token for i in fake_discord.server.interactions.values()]
    assert tokens and not any(t in text for t in tokens)
    assert hand and "Your hand" not in text and "'hand'" not in text
    assert " ".join(hand) not in text and str(hand) not in text


async def test_a_card_click_reads_the_service_at_most_twice(fake_discord: Harness,
                                                            tmp_path: Path) -> None:
    """Reads of the click itself: the table's message is redrawn later (one snapshot per
    redraw, after ``edit_delay``, here longer than the test)."""
    clock = FakeClock()
    app = await start_app(fake_discord, tmp_path, clock=clock, edit_delay=60.0,
                          guild_settings={"ai_pace": 1.0, "turn_timeout": 3600})
    alice = fake_discord.user("alice")
    table_id, _ = await open_table(app, alice, "turup", ais=3)
    seat = app.service.seat_of(table_id, alice.id)
    assert seat is not None
    # the deal's DM comes with the hand: after an AI eldest named trump
    await advance_until_turn(app, clock, table_id, seat)
    dm = await alice.wait_for_dm(lambda m: "Your hand" in m.content)
    await advance_until_turn(app, clock, table_id, seat)
    panel = await live_panel(app, dm.id, table_id)
    await fake_discord.settle()
    reads: list[str] = []
    service: Any = app.service
    for name in ("info", "state", "legal", "view", "meta", "seat_of"):
        real = getattr(service, name)

        def counted(*args: Any, _real: Any = real, _name: str = name, **kw: Any) -> Any:
            reads.append(_name)
            return _real(*args, **kw)

        setattr(service, name, counted)
    select = next(c for c in controls(panel) if c["type"] == 3)
    plain = next(o["value"] for o in select["options"])
    r = await alice.select(panel, select["custom_id"], [plain])
    assert r.type == 7
    if any(c["custom_id"].startswith("tt:a:") for c in controls(r.message)):
        assert reads == ["seat_of"]  # the signal choice is drawn from the kept state
        reads.clear()
        variant = next(c["custom_id"] for c in controls(r.message))
        r = await alice.click(r.message, variant)
        assert r.type == 7
    assert reads == ["seat_of", "state"], reads


def test_the_token_is_redacted_from_chained_exceptions_and_tracebacks() -> None:
    stream = io.StringIO()
    token = "s3cret-token-xyz"
    handler = configure_logging(Settings(token=token), stream)
    log = logging.getLogger("bot.test.chain")
    try:
        try:
            try:
                raise ValueError(f"the inner error names {token}")
            except ValueError as inner:
                raise RuntimeError("the outer error") from inner
        except RuntimeError:
            log.exception("a chained failure")
        try:
            raise KeyError(f"Bot {token}")
        except KeyError:
            log.warning("with context", exc_info=True, stack_info=True)
    finally:
        logging.getLogger().removeHandler(handler)
        for name in ("bot", "games", "storage"):
            logging.getLogger(name).setLevel(logging.NOTSET)
    text = stream.getvalue()
    assert "the inner error names" in text and "the outer error" in text
    assert "Traceback" in text and "Stack (most recent call last)" in text
    assert token not in text and text.count("[redacted token]") >= 2


async def test_a_deleted_dm_panel_is_sent_anew_when_the_turn_comes(
        fake_discord: Harness, tmp_path: Path) -> None:
    """The player deleted the hand DM (Discord answers 10008 to its edit): the turn's
    panel arrives as a new DM, recorded for the next restart, and plays."""
    app, clock, alice, table_id, seat = await alice_at_turup(fake_discord, tmp_path, 3600)
    dm = await alice.wait_for_dm(lambda m: "Your hand" in m.content)
    await advance_until_turn(app, clock, table_id, seat)
    rng = random.Random(8)
    while True:  # act until the turn passes on (a call can leave her to act again)
        await take_turn(alice, await live_panel(app, dm.id, table_id), rng)
        await app.service.settle()
        await fake_discord.settle()
        if seat not in app.service.info(table_id).to_act:
            break
    fake_discord.server.message(dm.id).deleted = True
    await advance_until_turn(app, clock, table_id, seat)
    fresh = await fake_discord.wait_until(
        lambda: next((m for m in alice.dms if m.id != dm.id and not m.deleted
                      and f"table {table_id}," in m.content), None), what="a new DM panel")
    panel = await live_panel(app, fresh.id, table_id)
    async with asyncio.timeout(30):  # recorded right after it was sent
        while (shown := await app.store.get_table_messages(table_id)) is None or (
                shown.seats[seat].message_id != fresh.id):
            await asyncio.sleep(0.01)
    r = await take_turn(alice, panel, random.Random(8))
    assert r.type == 7
