"""The web table as a Discord Activity, server side (bot/web/activity.py): the OAuth2 code
exchange and the Activity socket against the fake Discord (its Activities and OAuth2,
tests/bot/fakediscord/activities.py) and the real table service on SQLite, through
aiohttp's test client."""

from __future__ import annotations

import json
import logging
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from aiohttp import ClientWebSocketResponse, WSMsgType
from aiohttp.test_utils import TestClient, TestServer
from fakediscord import FakeChannel, FakeDiscord, FakeUser
from web_stack import table_service
from webtable import (
    SECRET,
    activity_access_token,
    activity_socket,
    my_turn,
    of_type,
    read,
)

from bot.service import Seat, TableService
from bot.web.activity import ActivityConfig, JoinLimits
from bot.web.config import WebConfig
from bot.web.server import create_app
from storage import ChannelLocation


@dataclass
class Activity:
    discord: FakeDiscord
    service: TableService
    client: TestClient[Any, Any]
    channel: FakeChannel
    alice: FakeUser
    bob: FakeUser
    table: int
    sockets: list[ClientWebSocketResponse] = field(default_factory=list)

    async def token(self, user: FakeUser) -> str:
        return await activity_access_token(self.client, self.discord.activities.authorize(user))

    async def open(self, token: str, instance: str) -> ClientWebSocketResponse:
        ws = await activity_socket(self.client, self.discord.application_id, token, instance)
        self.sockets.append(ws)
        return ws


async def _app(discord: FakeDiscord, service: TableService, secret: str
               ) -> TestClient[Any, Any]:
    config = ActivityConfig(discord.application_id, secret, discord.token, discord.api_base,
                            recheck=0.2)
    client: TestClient[Any, Any] = TestClient(TestServer(
        create_app(service, WebConfig(secret=SECRET), activity=config)))
    await client.start_server()
    return client


@pytest.fixture
async def activity(tmp_path: Path) -> AsyncIterator[Activity]:
    discord = FakeDiscord()
    await discord.start()
    guild = discord.add_guild("Club")
    channel = discord.add_text_channel(guild, "cards")
    alice, bob = discord.add_user("alice"), discord.add_user("bob")
    try:
        async with table_service(tmp_path / "web.db") as service:
            table = await service.create_table(
                ChannelLocation(guild.id, channel.id), "turup",
                seats=[Seat.human(alice.id, "Alice")] + [Seat.ai("random", n) for n in "BCD"],
                players=4, seed=5, ai_pace=0, turn_timeout=0, start=True)
            client = await _app(discord, service, discord.activities.client_secret)
            a = Activity(discord, service, client, channel, alice, bob, table)
            try:
                yield a
            finally:
                for ws in a.sockets:
                    await ws.close()
                await client.close()
    finally:
        await discord.close()


async def fatal(ws: ClientWebSocketResponse) -> dict[str, Any]:
    frame = await read(ws, of_type("error", "hello"))
    assert frame["type"] == "error" and frame.get("fatal"), frame
    return frame


async def test_a_code_is_exchanged_once(activity: Activity) -> None:
    code = activity.discord.activities.authorize(activity.alice)
    first = await activity.client.post("/api/token", json={"code": code})
    assert first.status == 200 and first.headers["Cache-Control"] == "no-store"
    body = await first.json()
    assert set(body) == {"access_token"}
    again = await activity.client.post("/api/token", json={"code": code})
    assert again.status == 400 and await again.json() == {"error": "invalid_grant"}
    refused = activity.discord.requests[-1]
    assert refused.route == "/oauth2/token" and refused.response == {
        "error": "invalid_grant", "error_description": 'Invalid "code" in request.'}
    bad = await activity.client.post("/api/token", json={"code": 7})
    assert bad.status == 400 and activity.discord.requests[-1] is refused  # not asked


async def test_a_wrong_client_secret_is_refused_and_never_shown(
        activity: Activity, caplog: pytest.LogCaptureFixture) -> None:
    wrong = "not-the-secret-" + "x" * 20
    client = await _app(activity.discord, activity.service, wrong)
    try:
        with caplog.at_level(logging.DEBUG):
            answer = await client.post(
                "/api/token", json={"code": activity.discord.activities.authorize(
                    activity.alice)})
            text = await answer.text()
    finally:
        await client.close()
    call = activity.discord.requests[-1]
    assert call.status == 401 and call.response == {"error": "invalid_client"}
    assert "?" not in call.path and wrong not in call.path  # the secret is in the body only
    assert answer.status == 502 and wrong not in text
    assert wrong not in caplog.text and "DISCORD_CLIENT_SECRET" in caplog.text


async def test_a_seated_user_gets_their_seat(activity: Activity) -> None:
    instance = activity.discord.activities.start(activity.channel, activity.alice)
    ws = await activity.open(await activity.token(activity.alice), instance.instance_id)
    hello = await read(ws, of_type("hello", "error"))
    assert hello["type"] == "hello" and hello["seat"] == 0
    turn = await read(ws, my_turn)
    assert turn["hand"] == activity.service.view(activity.table, 0)["hand"]
    assert turn["choices"]
    alice = activity.alice.id  # her Discord avatar (the default one: she has none)
    assert turn["seats"][0]["avatar"] == (
        f"https://cdn.discordapp.com/embed/avatars/{(alice >> 22) % 6}.png")
    assert turn["seats"][0]["name"] == "Alice" and turn["seats"][1]["avatar"] is None
    page = await activity.client.get("/")
    assert "img-src 'self' data: https://cdn.discordapp.com;" in page.headers[
        "Content-Security-Policy"]


def test_an_avatar_hash_is_a_cdn_url() -> None:
    from bot.web.activity import avatar_url

    assert avatar_url(80351110224678912, "a" * 32) == (
        "https://cdn.discordapp.com/avatars/80351110224678912/" + "a" * 32 + ".png?size=64")
    assert avatar_url(80351110224678912, "../../x") == (
        "https://cdn.discordapp.com/embed/avatars/5.png")


async def test_anyone_else_in_the_instance_watches(activity: Activity) -> None:
    instance = activity.discord.activities.start(activity.channel, activity.alice)
    activity.discord.activities.join(instance, activity.bob)
    ws = await activity.open(await activity.token(activity.bob), instance.instance_id)
    hello = await read(ws, of_type("hello", "error"))
    assert hello["type"] == "hello" and hello["seat"] is None
    seen: list[dict[str, Any]] = []
    table = await read(ws, of_type("table"), seen)
    assert table["hand"] == [] and table["choices"] == [] and not table["your_turn"]
    text = json.dumps(seen)
    for seat in range(4):
        for card in activity.service.view(activity.table, seat)["hand"]:
            assert f'"{card}"' not in text


async def test_who_is_not_in_the_instance_gets_nothing(activity: Activity) -> None:
    instance = activity.discord.activities.start(activity.channel, activity.alice)
    ws = await activity.open(await activity.token(activity.bob), instance.instance_id)
    assert (await fatal(ws))["code"] == "activity"
    ws = await activity.open(await activity.token(activity.alice), "i-1-gc-2-3")
    assert (await fatal(ws))["code"] == "activity"  # shaped like one: Discord knows none


async def test_an_ended_instance_or_another_channel_gets_nothing(activity: Activity) -> None:
    ended = activity.discord.activities.start(activity.channel, activity.alice)
    activity.discord.activities.end(ended)
    ws = await activity.open(await activity.token(activity.alice), ended.instance_id)
    assert (await fatal(ws))["code"] == "activity"
    guild = activity.discord.guilds[activity.channel.guild_id or 0]
    elsewhere = activity.discord.add_text_channel(guild, "no-table")
    other = activity.discord.activities.start(elsewhere, activity.alice)
    ws = await activity.open(await activity.token(activity.alice), other.instance_id)
    frame = await fatal(ws)
    assert frame["code"] == "table" and "no open table" in frame["text"]


async def test_a_token_of_another_application_is_refused(activity: Activity) -> None:
    instance = activity.discord.activities.start(activity.channel, activity.alice)
    foreign = activity.discord.activities.foreign_token(activity.alice)
    ws = await activity.open(foreign, instance.instance_id)
    assert (await fatal(ws))["code"] == "activity"
    ws = await activity.open("made-up", instance.instance_id)
    assert (await fatal(ws))["code"] == "activity"


async def test_an_instance_that_ends_closes_its_sockets(activity: Activity) -> None:
    instance = activity.discord.activities.start(activity.channel, activity.alice)
    activity.discord.activities.join(instance, activity.bob)
    sockets = [await activity.open(await activity.token(u), instance.instance_id)
               for u in (activity.alice, activity.bob)]
    for ws in sockets:
        await read(ws, of_type("table"))
    activity.discord.activities.end(instance)
    for ws in sockets:
        closed = await read(ws, of_type("closed"), timeout=10.0)
        assert closed["text"] == "The Activity has ended."
        msg = await ws.receive(timeout=10.0)
        assert msg.type in (WSMsgType.CLOSE, WSMsgType.CLOSED, WSMsgType.CLOSING)


async def test_the_socket_takes_the_activity_frame_and_discord_may_frame_the_page(
        activity: Activity) -> None:
    refused = await activity.client.get("/ws/activity",
                                        headers={"Origin": "https://evil.example"})
    assert refused.status == 403
    page = await activity.client.get("/")
    policy = page.headers["Content-Security-Policy"]
    assert "frame-ancestors https://discord.com" in policy and "'none'" not in policy.split(
        "frame-ancestors")[1]
    assert "X-Frame-Options" not in page.headers
    assert "Cache-Control" in page.headers


async def test_who_leaves_the_instance_is_closed_the_others_stay(
        activity: Activity, caplog: pytest.LogCaptureFixture) -> None:
    instance = activity.discord.activities.start(activity.channel, activity.alice)
    activity.discord.activities.join(instance, activity.bob)
    with caplog.at_level(logging.DEBUG):
        tokens = [await activity.token(u) for u in (activity.alice, activity.bob)]
        alice, bob = [await activity.open(t, instance.instance_id) for t in tokens]
        for ws in (alice, bob):
            await read(ws, of_type("table"))
        activity.discord.activities.leave(instance, activity.bob)
        closed = await read(bob, of_type("closed"), timeout=10.0)
        assert closed["text"] == "The Activity has ended."
    assert not alice.closed and instance.users == [activity.alice.id]
    secret = activity.discord.activities.client_secret
    assert all(t not in caplog.text for t in [*tokens, secret])


def test_the_client_secret_comes_from_the_environment_and_is_never_shown() -> None:
    assert ActivityConfig.from_env(1, "bot-token", environ={}) is None
    config = ActivityConfig.from_env(1, "bot-token", "http://api.example/api/v10/",
                                     environ={"DISCORD_CLIENT_SECRET": " s3cret-value "})
    assert config is not None and config.client_secret == "s3cret-value"
    assert config.api == "http://api.example/api/v10"
    assert "s3cret-value" not in repr(config) and "bot-token" not in repr(config)


# -- issue 44: Discord is asked only for what a real client could need -------------------
def asked(activity: Activity, route: str) -> list[Any]:
    return [r for r in activity.discord.requests if route in r.path]


async def test_a_flood_of_junk_tokens_reaches_discord_a_few_times(
        activity: Activity, caplog: pytest.LogCaptureFixture) -> None:
    """W-P1: 150 joins with junk tokens from one client (Discord answers each 401): Discord
    sees at most the refusal budget's burst, a token refused once is not asked again, and
    the bot's own requests still go through."""
    caplog.set_level(logging.DEBUG)
    instance = activity.discord.activities.start(activity.channel, activity.alice)
    limits = JoinLimits()
    codes = []
    start = time.monotonic()
    for n in range(150):
        ws = await activity.open(f"junk{n:04d}" + "x" * 26, instance.instance_id)
        codes.append((await fatal(ws))["code"])
        await ws.close()
    assert set(codes) <= {"activity", "busy"} and "busy" in codes
    refused = [r for r in asked(activity, "/oauth2/@me") if r.status == 401]
    rate, burst = limits.refused_tokens  # the budget refills while the flood goes on
    assert 0 < len(refused) <= burst + rate * (time.monotonic() - start) + 1
    again = await activity.open("junk0000" + "x" * 26, instance.instance_id)
    assert (await fatal(again))["code"] in ("activity", "busy")
    assert len([r for r in asked(activity, "/oauth2/@me") if r.status == 401]) == len(refused)
    assert not [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR]


async def test_joins_with_one_valid_token_ask_for_the_instance_once(
        activity: Activity) -> None:
    """W-P2: 100 joins with alice's one valid token (half of them with made-up instance
    ids): the token is checked once, the instance's answer is shared, and look-ups with
    the bot token stay within their small budget."""
    instance = activity.discord.activities.start(activity.channel, activity.alice)
    token = await activity.token(activity.alice)
    frames = []
    start = time.monotonic()
    for n in range(100):
        made_up = f"i-{9000 + n}-gc-1-2"
        ws = await activity.open(token, instance.instance_id if n % 2 else made_up)
        frames.append(await read(ws, of_type("hello", "error")))
        await ws.close()
    assert any(f["type"] == "hello" for f in frames)
    assert {f["code"] for f in frames if f["type"] == "error"} <= {"activity", "busy"}
    assert len(asked(activity, "/oauth2/@me")) == 1
    rate, burst = JoinLimits().instances
    assert len(asked(activity, "/activity-instances/")) <= (
        burst + rate * (time.monotonic() - start) + 1)


async def test_hostile_activity_frames_are_refused_without_asking_discord(
        activity: Activity, caplog: pytest.LogCaptureFixture) -> None:
    """W-P6 and N6: an access token with CR/LF or NUL, instance ids ``.``, ``..`` or not
    shaped like Discord's: a refusal each, Discord not asked, no traceback."""
    caplog.set_level(logging.DEBUG)
    instance = activity.discord.activities.start(activity.channel, activity.alice)
    token = await activity.token(activity.alice)
    before = len(activity.discord.requests)
    for bad_token, bad_instance in ((token + "\r\nX-Injected: 1", instance.instance_id),
                                    (token + "\x00", instance.instance_id),
                                    (token, "."), (token, ".."), (token, "../../users/@me"),
                                    (token, "i-1-gc-2-3\n"), (token, "ı-1-gc-2-3")):
        ws = await activity.open(bad_token, bad_instance)
        frame = await fatal(ws)
        assert frame["code"] in ("join", "activity"), (bad_token, bad_instance)
    assert len(activity.discord.requests) == before
    assert not [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR]


async def test_the_token_endpoint_is_rate_limited(activity: Activity) -> None:
    """N7: 60 junk codes at once: Discord's token endpoint is asked at most the burst of
    the exchange budget; the rest are answered 429 here."""
    start = time.monotonic()
    answers = [await activity.client.post("/api/token", json={"code": f"junk-{n}"})
               for n in range(60)]
    rate, burst = JoinLimits().exchanges_per_address
    statuses = [a.status for a in answers]
    assert 429 in statuses and set(statuses) <= {400, 429}
    assert len(asked(activity, "/oauth2/token")) <= (
        burst + rate * (time.monotonic() - start) + 1)
    nested = await activity.client.post("/api/token", data="[" * 5000,
                                        headers={"Content-Type": "application/json"})
    assert nested.status == 400


async def test_instance_look_ups_go_through_the_bots_own_http_client(
        activity: Activity, monkeypatch: pytest.MonkeyPatch) -> None:
    """W-P2: with ``tricktable run``'s wiring the bot-token look-up is a request of the
    bot's discord.py client (its rate limiter, shared with every other request of the
    bot), not of the Activity's own session; the join works as before."""
    import discord
    from discord.http import Route

    from bot.discord_bot.activity_rest import instance_fetch

    monkeypatch.setattr(Route, "BASE", activity.discord.api_base)
    bot = discord.Client(intents=discord.Intents.none())
    await bot.login(activity.discord.token)
    try:
        config = ActivityConfig(activity.discord.application_id,
                                activity.discord.activities.client_secret,
                                activity.discord.token, activity.discord.api_base,
                                fetch=instance_fetch(bot))
        client: TestClient[Any, Any] = TestClient(TestServer(
            create_app(activity.service, WebConfig(secret=SECRET), activity=config)))
        await client.start_server()
        try:
            instance = activity.discord.activities.start(activity.channel, activity.alice)
            token = await activity_access_token(
                client, activity.discord.activities.authorize(activity.alice))
            ws = await activity_socket(client, activity.discord.application_id, token,
                                       instance.instance_id)
            assert (await read(ws, of_type("hello", "error")))["type"] == "hello"
            await ws.close()
        finally:
            await client.close()
    finally:
        await bot.close()
    looked_up = asked(activity, "/activity-instances/")
    assert len(looked_up) == 1
    assert looked_up[0].headers.get("User-Agent", "").startswith("DiscordBot")
