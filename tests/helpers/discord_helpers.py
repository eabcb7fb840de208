"""Helpers of the Discord adapter's end-to-end tests: open a table, play a human's turn by
reading the panel's own select options and buttons (as a person would), play on until a
condition holds."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

from app_fixture import App, start_app
from fakediscord import Harness, InteractionResult, SimulatedUser
from fakediscord.models import RecordedRequest, StoredMessage

from bot.service import FakeClock

CONTROL_PREFIXES = ("tt:s:", "tt:a:", "tt:m:")


EDIT = "PATCH /channels/{channel_id}/messages/{message_id}"
ORIGINAL = "PATCH /webhooks/{webhook_id}/{webhook_token}/messages/@original"
MESSAGE_EDITS = (EDIT, ORIGINAL)
"""The two routes a DM panel is edited by: with the bot's token, or through the token of
a click on it (``bot/discord_bot/tables/token_route.py``)."""


def edits_of(harness: Harness, message_id: int) -> Callable[[RecordedRequest], bool]:
    """Whether a request of :data:`MESSAGE_EDITS` edits ``message_id`` (by its id, or
    through the token of a click on it)."""
    server = harness.server

    def edits(r: RecordedRequest) -> bool:
        if f"{r.method} {r.route}" == EDIT:
            return int(r.params["message_id"]) == message_id
        token = r.params.get("webhook_token")
        return f"{r.method} {r.route}" == ORIGINAL and any(
            i.token == token and i.source_message_id == message_id
            for i in server.interactions.values())
    return edits


def controls(msg: StoredMessage) -> list[dict[str, Any]]:
    return [c for c in msg.walk_components()
            if str(c.get("custom_id", "")).startswith(CONTROL_PREFIXES)]


def find(msg: StoredMessage, suffix: str) -> str:
    return next(c for c in msg.custom_ids() if c.endswith(suffix))


async def open_table(app: App, host: SimulatedUser, game: str, *, ais: int = 0,
                     others: tuple[SimulatedUser, ...] = (), start: bool = True,
                     **options: Any) -> tuple[int, StoredMessage]:
    """``host`` opens ``game``, ``others`` join, ``ais`` AI players are added, and (by
    default) the host starts. Returns the table id and the public message."""
    opened = await host.slash("table", "new", game=game, **options)
    msg = await opened.wait_filled()
    for user in others:
        await updated(await user.click(msg, find(msg, ":join")))
    for _ in range(ais):
        await updated(await host.click(msg, find(msg, ":ai:rules")))
    table_id = int(find(msg, ":join").split(":")[2])
    if start:
        await updated(await host.click(msg, find(msg, ":start")))
    return table_id, msg


async def updated(r: InteractionResult) -> InteractionResult:
    """The click updated its message: at once (7), or deferred (6) then edited."""
    assert r.type in (6, 7), r.content
    if r.type == 6:
        await r.wait_request("PATCH /webhooks/{webhook_id}/{webhook_token}/messages/@original")
    return r


async def my_hand(user: SimulatedUser, public: StoredMessage, table_id: int) -> StoredMessage:
    r = await user.click(public, f"tt:h:{table_id}:0:")
    assert r.ephemeral, r.content
    assert r.message is not None
    return r.message


async def take_turn(user: SimulatedUser, panel: StoredMessage, rng: random.Random, *,
                    prefer: Callable[[dict[str, Any]], bool] | None = None
                    ) -> InteractionResult:
    """Choose at random among what the panel offers (never ``concede``), following a
    card's variant buttons when the panel shows them."""
    offered = [c for c in controls(panel) if "concede" not in c["custom_id"]]
    assert offered, f"no controls on the panel: {panel.content}"
    if prefer is not None and any(prefer(c) for c in offered):
        offered = [c for c in offered if prefer(c)]
    c = rng.choice(offered)
    cid = c["custom_id"]
    if c["type"] == 3:
        opts = [o["value"] for o in c["options"]]
        values = [rng.choice(opts)]
        r = await user.select(panel, cid, values)
    else:
        r = await user.click(panel, cid)
    assert r.type == 7, f"refused: {r.content}"
    msg = r.message
    assert msg is not None
    if any(x.endswith(":0:") and x.startswith("tt:h:") for x in msg.custom_ids()) and any(
            x.startswith("tt:a:") for x in msg.custom_ids()) and "Your turn" in msg.content \
            and not any(x.startswith("tt:s:") for x in msg.custom_ids()) and \
            cid.startswith("tt:s:"):
        # a card with variants (signal, bella): choose one of them
        return await take_turn(user, msg, rng)
    return r


async def play_until(app: App, table_id: int, public: StoredMessage,
                     humans: dict[SimulatedUser, int], done: Callable[[], bool], *,
                     rng: random.Random | None = None, limit: int = 2000) -> int:
    """Let the AI play and make the humans' choices from their **My hand** panels until
    ``done()``; returns the number of human choices made."""
    rng = rng or random.Random(7)
    made = 0
    for _ in range(limit):
        await app.service.settle()
        await app.harness.settle()
        if done():
            return made
        try:
            info = app.service.info(table_id)
        except Exception:
            await app.harness.wait_until(lambda: done() or None, what="the end")
            return made
        acting = [u for u, s in humans.items() if s in info.to_act]
        if not acting:
            continue
        for user in acting:
            panel = await my_hand(user, public, table_id)
            await take_turn(user, panel, rng)
            made += 1
    raise AssertionError("play did not finish")


def channel_texts(app: App) -> list[str]:
    return [m.content for m in app.harness.server.messages(app.harness.channel)
            if not m.ephemeral]


async def advance_until_turn(app: App, clock: FakeClock, table_id: int, seat: int, *,
                             step: float = 1.0, limit: int = 60) -> None:
    """Let the AI players (whose pace runs on the fake ``clock``) play, moving the clock
    ``step`` seconds at a time, until ``seat`` is to act; fails after ``limit`` steps."""
    for _ in range(limit):
        await app.service.settle()
        await app.harness.settle()
        if seat in app.service.info(table_id).to_act:
            return
        await clock.advance(step)
    raise AssertionError(f"seat {seat} never got the turn")


async def alice_at_turup(fake_discord: Harness, tmp_path: Path, turn_timeout: int
                         ) -> tuple[App, FakeClock, SimulatedUser, int, int]:
    """A bot on a fake clock (AI pace 1 s) and a Turup table of alice and three AI players,
    once alice has the first deal's DM with her hand (when an AI is eldest it names trump
    first: the clock moves on one AI move): ``(app, clock, alice, table_id, alice's seat)``."""
    clock = FakeClock()
    app = await start_app(fake_discord, tmp_path, clock=clock,
                          guild_settings={"ai_pace": 1.0, "turn_timeout": turn_timeout})
    alice = fake_discord.user("alice")
    table_id, _ = await open_table(app, alice, "turup", ais=3)
    seat = app.service.seat_of(table_id, alice.id)
    assert seat is not None
    for _ in range(10):
        await app.service.settle()
        await app.harness.settle()
        if any(f"table {table_id}," in m.content for m in alice.dms):
            break
        await clock.advance(1.0)
    return app, clock, alice, table_id, seat


async def alice_before_ai_turns(app: App, clock: FakeClock, alice: SimulatedUser,
                                table_id: int, seat: int, rng: random.Random, *,
                                rounds: int = 3) -> StoredMessage:
    """Play alice's turns (a random legal choice on her DM with her hand, which is returned)
    until one after which she is not to act: the next moves are the AI players'. Fails after
    ``rounds`` of her turns."""
    dm = await alice.wait_for_dm(lambda m: "Your hand" in m.content)
    for _ in range(rounds):
        await advance_until_turn(app, clock, table_id, seat)
        await take_turn(alice, await live_panel(app, dm.id, table_id), rng)
        await app.service.settle()
        await app.harness.settle()
        if seat not in app.service.info(table_id).to_act:
            return dm
    raise AssertionError(f"no AI turn after alice's in {rounds} rounds")


def versions(msg: StoredMessage) -> set[int]:
    """The table versions the message's play controls were offered at."""
    return {int(c["custom_id"].split(":")[3]) for c in controls(msg)}


async def live_panel(app: App, message_id: int, table_id: int) -> StoredMessage:
    """Wait until message ``message_id`` offers the choices of the table's version now."""
    server = app.harness.server

    def live() -> StoredMessage | None:
        msg = server.message(message_id)
        return msg if versions(msg) == {app.service.info(table_id).version} else None

    return await app.harness.wait_until(live, what="the panel with live controls")
