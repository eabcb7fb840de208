"""A web table link stops working when its holder can no longer read the table's channel
(issue 44, item 5; the review's notes N1 and N2), through the fake Discord and the real
web application (aiohttp's test client):

* ``/table watch`` checks View Channel itself (a forged interaction from a channel the
  member cannot see gets no link);
* an open page is closed (a ``closed`` frame, then the close) at once when Discord tells
  the bot: an overwrite taking View Channel, a role losing it, a ban — and, for what
  Discord tells only with the privileged Server Members intent (a member who left), by
  the periodic re-check (shortened here);
* the same link then opens nothing (a final error frame);
* a seat's page is closed when its player leaves the seat.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import discord
import pytest
from aiohttp import ClientWebSocketResponse, WSMsgType
from aiohttp.test_utils import TestClient, TestServer
from app_fixture import App, start_app
from discord_helpers import open_table
from fakediscord import Harness
from fakediscord import payloads as P
from fakediscord.client import SimulatedUser
from fakediscord.models import FakeChannel, StoredMessage
from webtable import Clock, of_type, read

from bot.discord_bot.tables.web_lobby import bind_web
from bot.web import links
from bot.web.access import NO_ACCESS, Access
from bot.web.server import WebServer, create_app
from bot.web.viewer import NO_SEAT, WebConfig

SECRET = b"a" * 32
PUBLIC = "https://tables.example"
RECHECK = 0.3
"""The periodic re-check's period in its own test (60 s in the bot); the others wait an
hour for it, so only Discord's event can close their pages."""
VIEW_CHANNEL = discord.Permissions(view_channel=True).value


@dataclass
class Served:
    """The bot on the fake Discord with its web table bound, and the same application in
    aiohttp's test server (where the tests open the sockets)."""

    app: App
    config: WebConfig
    page: TestClient[Any, Any]

    async def join(self, url: str) -> ClientWebSocketResponse:
        """Open the page's socket with the key of the link ``url``."""
        assert url.startswith(f"{PUBLIC}/#k="), url
        host = f"http://{self.page.host}:{self.page.port}"
        ws = await self.page.ws_connect("/ws", headers={"Origin": host})
        await ws.send_str(json.dumps({"v": 1, "type": "join", "key": url.split("#k=")[1]}))
        return ws


@pytest.fixture
def recheck() -> float:
    return 3600.0


@pytest.fixture
async def served(fake_discord: Harness, tmp_path: Path, recheck: float
                 ) -> AsyncIterator[Served]:
    app = await start_app(fake_discord, tmp_path)
    config = WebConfig(secret=SECRET, clock=Clock(), access=Access(period=recheck))
    assert app.bot.hub is not None
    bind_web(app.bot, app.bot.hub, WebServer(app.service, config, public_url=PUBLIC))
    page: TestClient[Any, Any] = TestClient(TestServer(create_app(app.service, config)))
    await page.start_server()
    try:
        yield Served(app, config, page)
    finally:
        await page.close()


def watch_url(message: StoredMessage | None) -> str:
    assert message is not None
    [button] = [c for c in message.walk_components() if c.get("style") == 5]
    assert button["label"] == "Watch"
    return str(button["url"])


async def watching(served: Served, user: SimulatedUser) -> tuple[str, ClientWebSocketResponse]:
    """``user``'s watch link and a page joined with it (its hello read)."""
    r = await user.slash("table", "watch")
    url = watch_url(r.message)
    ws = await served.join(url)
    assert (await read(ws, of_type("hello")))["seat"] is None
    return url, ws


async def closed_for_good(ws: ClientWebSocketResponse, text: str) -> None:
    """The page gets a ``closed`` frame saying ``text``, then its socket ends."""
    frame = await read(ws, of_type("closed"))
    assert frame["text"] == text
    while True:  # frames sent before the close may follow; then the close itself
        msg = await ws.receive(timeout=20)
        if msg.type in (WSMsgType.CLOSE, WSMsgType.CLOSED, WSMsgType.CLOSING):
            return
        assert msg.type == WSMsgType.TEXT and json.loads(msg.data)["type"] != "hello"


async def refused_again(served: Served, url: str) -> None:
    """The same link opens nothing now: one final error frame, no hello."""
    ws = await served.join(url)
    frame = await read(ws, of_type("hello", "error"))
    assert frame["type"] == "error" and frame["code"] == "access" and frame["fatal"]
    assert frame["text"] == NO_ACCESS
    await ws.close()


async def hide_channel(fake_discord: Harness, app: App, channel: FakeChannel,
                       user: SimulatedUser) -> None:
    """An overwrite denying ``user`` View Channel in ``channel``, as Discord sends it to
    the bot (CHANNEL_UPDATE); returns once the bot's cache has it."""
    channel.overwrites = [{"id": str(user.id), "type": 1, "allow": "0",
                           "deny": str(VIEW_CHANNEL)}]
    await fake_discord.server.dispatch("CHANNEL_UPDATE", P.channel_payload(channel),
                                       guild_id=channel.guild_id)

    def cached() -> bool | None:
        found = app.bot.get_channel(channel.id)
        assert isinstance(found, discord.TextChannel)
        return found.overwrites_for(discord.Object(user.id)).view_channel is False or None

    await fake_discord.wait_until(cached, what="the overwrite in the bot's cache")


async def test_watch_is_refused_to_a_member_who_cannot_see_the_channel(
        served: Served, fake_discord: Harness) -> None:
    app = served.app
    alice, eve = fake_discord.user("alice"), fake_discord.user("eve")
    await open_table(app, alice, "turup", ais=3)
    await hide_channel(fake_discord, app, fake_discord.channel, eve)
    # Discord would not let eve run a command here; a forged interaction gets no link
    r = await eve.slash("table", "watch")
    assert r.ephemeral
    assert r.content.endswith("You cannot see this channel, so you cannot watch its table.")
    assert r.message is not None
    assert not [c for c in r.message.walk_components() if c.get("style") == 5]


async def test_a_page_is_closed_when_an_overwrite_takes_view_channel(
        served: Served, fake_discord: Harness) -> None:
    app = served.app
    alice, eve, carol = (fake_discord.user(n) for n in ("alice", "eve", "carol"))
    table_id, _ = await open_table(app, alice, "turup", ais=3)
    url, ws = await watching(served, eve)
    _, other = await watching(served, carol)
    await hide_channel(fake_discord, app, fake_discord.channel, eve)
    await closed_for_good(ws, NO_ACCESS)
    await refused_again(served, url)
    # carol still sees the channel: her page stays open
    assert served.config.access.sockets(table_id, carol.id) == 1
    assert not other.closed
    await other.close()


async def test_a_page_is_closed_when_a_role_loses_view_channel(
        served: Served, fake_discord: Harness) -> None:
    app = served.app
    alice, eve = fake_discord.user("alice"), fake_discord.user("eve")
    await open_table(app, alice, "turup", ais=3)
    url, ws = await watching(served, eve)
    everyone = fake_discord.guild.everyone
    everyone.permissions &= ~VIEW_CHANNEL
    await fake_discord.server.dispatch(
        "GUILD_ROLE_UPDATE", {"guild_id": str(fake_discord.guild.id),
                              "role": P.role_payload(everyone)},
        guild_id=fake_discord.guild.id)
    await closed_for_good(ws, NO_ACCESS)
    await refused_again(served, url)


async def test_a_page_is_closed_when_its_holder_is_banned(
        served: Served, fake_discord: Harness) -> None:
    app = served.app
    alice, eve = fake_discord.user("alice"), fake_discord.user("eve")
    await open_table(app, alice, "turup", ais=3)
    url, ws = await watching(served, eve)
    guild = fake_discord.guild
    del guild.members[eve.id]  # a banned user is no member
    await fake_discord.server.dispatch(
        "GUILD_BAN_ADD", {"guild_id": str(guild.id), "user": P.user_payload(eve.user)},
        guild_id=guild.id)
    await closed_for_good(ws, NO_ACCESS)
    await refused_again(served, url)


@pytest.mark.parametrize("recheck", [RECHECK])
async def test_every_tab_of_a_member_who_left_is_closed(
        served: Served, fake_discord: Harness) -> None:
    """Two tabs (and another user's page): the re-check closes both of hers, even as the
    first one's end leaves nobody else of hers holding a socket."""
    app = served.app
    alice, eve = fake_discord.user("alice"), fake_discord.user("eve")
    table_id, _ = await open_table(app, alice, "turup", ais=3)
    url, first = await watching(served, eve)
    second = await served.join(url)
    assert (await read(second, of_type("hello")))["seat"] is None
    assert served.config.access.sockets(table_id, eve.id) == 2
    del fake_discord.guild.members[eve.id]
    await closed_for_good(first, NO_ACCESS)
    await closed_for_good(second, NO_ACCESS)


@pytest.mark.parametrize("recheck", [RECHECK])
async def test_a_member_who_left_loses_the_page_at_the_periodic_recheck(
        served: Served, fake_discord: Harness) -> None:
    """Without the privileged Server Members intent the bot is not told that a member
    left: the periodic re-check (every RECHECK seconds here) asks Discord afresh."""
    app = served.app
    alice, eve = fake_discord.user("alice"), fake_discord.user("eve")
    await open_table(app, alice, "turup", ais=3)
    url, ws = await watching(served, eve)
    del fake_discord.guild.members[eve.id]  # no event reaches the bot
    await closed_for_good(ws, NO_ACCESS)
    await refused_again(served, url)


async def test_a_seat_page_is_closed_when_its_player_leaves_the_seat(
        served: Served, fake_discord: Harness) -> None:
    app = served.app
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    table_id, _ = await open_table(app, alice, "turup", others=(bob,), start=False)
    seat = app.service.seat_of(table_id, bob.id)
    assert seat is not None
    key = links.issue(SECRET, table_id, bob.id, "seat", served.config.clock())
    ws = await served.join(f"{PUBLIC}/#k={key}")
    assert (await read(ws, of_type("hello")))["seat"] == seat
    await bob.slash("table", "leave")
    await closed_for_good(ws, NO_SEAT)
