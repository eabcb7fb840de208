"""The web table as a Discord Activity in a real browser (Playwright driving Debian's
chromium): the page inside a frame of Discord's client, its Embedded App SDK answered as
Discord's client answers it, every request through the proxy's ``/.proxy/`` path
(tests/helpers/discord_client.py), against the fake Discord's OAuth2 and Activity
instances and the real table service and web server.

Four users in one instance play a whole deal of every game from the Activity; a user not
in the instance, a reused code and an instance that ends are refused or closed, and the
page says so. ``SHOTS=1`` also writes the Activity's screenshots in docs/gallery/ at
Discord's mobile (390×700) and desktop (1024×640) Activity sizes."""

from __future__ import annotations

import contextlib
import json
import os
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from discord_client import PROXY, DiscordClient
from fakediscord import FakeChannel, FakeDiscord, FakeUser
from web_stack import CHROMIUM, Moving, chromium, table_service, version_of

from bot.service import Seat, TableService
from bot.web.activity import ActivityConfig
from bot.web.config import WebConfig
from bot.web.server import WebServer
from games.registry import GAMES
from storage import ChannelLocation

playwright = pytest.importorskip("playwright.async_api")
pytestmark = pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="no Debian chromium")

MOBILE = (390, 700)
DESKTOP = (1024, 640)
NAMES = ("Amina", "Bilal", "Chausiku", "Dewi")
GALLERY = Path(__file__).resolve().parents[2] / "docs" / "gallery"


@dataclass
class Club:
    discord: FakeDiscord
    service: TableService
    server: WebServer
    channel: FakeChannel
    players: list[FakeUser]
    outsider: FakeUser

    async def table(self, game: str, pace: float = 0, humans: int = 4) -> int:
        """The channel's table, the first ``humans`` players seated, AI players after."""
        seats: list[Seat | None] = [
            Seat.human(u.id, NAMES[i]) if i < humans else Seat.ai("rules", NAMES[i])
            for i, u in enumerate(self.players)]
        return await self.service.create_table(
            ChannelLocation(self.channel.guild_id or 0, self.channel.id), game, seats=seats,
            players=4, seed=3, ai_pace=pace, turn_timeout=0, start=True)

    def client(self, user: FakeUser) -> DiscordClient:
        return DiscordClient(self.discord, user, self.server.base_url)


@pytest.fixture
async def club(tmp_path: Path) -> AsyncIterator[Club]:
    discord = FakeDiscord()
    await discord.start()
    guild = discord.add_guild("Club")
    channel = discord.add_text_channel(guild, "cards")
    players = [discord.add_user(n.lower(), global_name=n) for n in NAMES]
    outsider = discord.add_user("eve")
    try:
        async with table_service(tmp_path / "a.db") as service:
            activity = ActivityConfig(discord.application_id, discord.activities.client_secret,
                                      discord.token, discord.api_base, recheck=0.5)
            server = WebServer(service, WebConfig(secret=b"a" * 32), port=0,
                               activity=activity)
            await server.start()
            try:
                yield Club(discord, service, server, channel, players, outsider)
            finally:
                await server.stop()
    finally:
        await discord.close()


@pytest.fixture
async def browser() -> AsyncIterator[Any]:
    async with chromium() as b:
        yield b


async def _play_one(frame: Any) -> bool:
    """Make this page's decision if it has one (a playable card first, else a decision
    button); ``True`` when it did."""
    for target in ("#hand button:not([disabled])", "#decisions button"):
        button = frame.locator(target).first
        if await button.count():
            with contextlib.suppress(playwright.Error):  # redrawn meanwhile: look again
                await button.click(timeout=1000)
                return True
    return False


async def _refusal(frame: Any) -> str:
    """The page's refusal line once it shows one."""
    await frame.locator("#refusal:not(:empty)").wait_for(timeout=20000)
    text: str = await frame.locator("#refusal").inner_text()
    return text


@pytest.mark.parametrize("game", list(GAMES))
async def test_four_users_in_one_instance_play_a_whole_deal(club: Club, browser: Any,
                                                            game: str) -> None:
    table = await club.table(game)
    instance = club.discord.activities.start(club.channel, *club.players)
    clients = [club.client(u) for u in club.players]
    pages = []
    for i, client in enumerate(clients):
        width, height = MOBILE if i % 2 else DESKTOP
        pages.append(await client.open(browser, instance.instance_id, width=width,
                                       height=height, platform="mobile" if i % 2 else
                                       "desktop"))
    frames = [c.frame(p) for c, p in zip(clients, pages, strict=True)]
    for seat, frame in enumerate(frames):  # each user sits in their own seat
        await frame.locator(".seat.you").wait_for(timeout=20000)
        assert NAMES[seat] in await frame.locator(".seat.you").inner_text()
        wide = await frame.locator("html").evaluate("html => html.scrollWidth")
        assert wide <= (MOBILE if seat % 2 else DESKTOP)[0], wide  # no horizontal scrolling
    moving = Moving(version_of(club.service, table))
    while not await frames[0].locator("#result").is_visible():
        moving.check("the deal did not finish")
        if not any([await _play_one(f) for f in frames]):
            await pages[0].wait_for_timeout(40)
    for frame in frames:
        await frame.locator("#result").wait_for(state="visible", timeout=20000)
        assert await frame.locator("#resulttitle").inner_text()
    for client in clients:
        # the SDK's handshake and commands, as Discord's client saw them
        assert client.handshakes[0]["client_id"] == str(club.discord.application_id)
        assert [c for c, _ in client.commands] == ["AUTHORIZE", "AUTHENTICATE"]
        assert client.commands[0][1]["scope"] == ["identify"]
        # the page and its assets through the root mapping, its own requests under /.proxy/
        calls = [p for p in client.paths if p not in ("/", "/assets/app.js",
                                                     "/assets/style.css")]
        assert calls == [f"{PROXY}/api/activity", f"{PROXY}/assets/activity.js",
                         f"{PROXY}/api/token", f"{PROXY}/ws/activity"], client.paths
    for page in pages:
        await page.context.close()


async def test_who_is_not_in_the_instance_is_refused(club: Club, browser: Any) -> None:
    await club.table("turup")
    instance = club.discord.activities.start(club.channel, *club.players)
    client = club.client(club.outsider)
    page = await client.open(browser, instance.instance_id, width=MOBILE[0],
                             height=MOBILE[1], platform="mobile")
    text = await _refusal(client.frame(page))
    assert "does not open a table for you" in text
    assert await client.frame(page).locator(".seat").count() == 0
    await page.context.close()


async def test_a_reused_code_is_refused(club: Club, browser: Any) -> None:
    await club.table("turup")
    instance = club.discord.activities.start(club.channel, *club.players)
    code = club.discord.activities.authorize(club.players[0])
    first, again = club.client(club.players[0]), club.client(club.players[0])
    first.code = again.code = code
    page = await first.open(browser, instance.instance_id, width=DESKTOP[0],
                            height=DESKTOP[1])
    await first.frame(page).locator(".seat.you").wait_for(timeout=20000)
    second = await again.open(browser, instance.instance_id, width=DESKTOP[0],
                              height=DESKTOP[1])
    text = await _refusal(again.frame(second))
    assert "does not open a table for you" in text
    assert [c for c, _ in again.commands] == ["AUTHORIZE"]  # never authenticated
    assert f"{PROXY}/ws/activity" not in again.paths
    for p in (page, second):
        await p.context.close()


async def test_an_instance_that_ends_closes_the_page(club: Club, browser: Any) -> None:
    await club.table("tarabish")
    instance = club.discord.activities.start(club.channel, *club.players)
    client = club.client(club.players[1])
    page = await client.open(browser, instance.instance_id, width=MOBILE[0],
                             height=MOBILE[1], platform="mobile")
    frame = client.frame(page)
    await frame.locator(".seat.you").wait_for(timeout=20000)
    club.discord.activities.end(instance)
    assert await _refusal(frame) == "The Activity has ended."
    await page.wait_for_timeout(1500)  # closed for good: the page does not reconnect
    assert client.paths.count(f"{PROXY}/ws/activity") == 1
    assert await frame.locator("#link").inner_text() == ""
    await page.context.close()


async def test_the_page_config_names_the_client_and_words_the_refusal(club: Club) -> None:
    """``GET /api/activity``: the client id (nothing secret) and the refusal sentence in
    the first language of ``Accept-Language`` the bot speaks."""
    async with aiohttp.ClientSession() as session:
        answers = []
        for languages in ("xx, sw;q=0.9, en;q=0.8", ""):
            async with session.get(f"{club.server.base_url}/api/activity",
                                   headers={"Accept-Language": languages}) as answer:
                assert answer.status == 200
                answers.append(await answer.json())
    swahili, english = answers
    assert swahili["client_id"] == english["client_id"] == str(club.discord.application_id)
    assert set(english) == {"client_id", "refused"}
    assert "does not open a table for you" in english["refused"]
    assert swahili["refused"] != english["refused"]
    assert club.discord.activities.client_secret not in json.dumps(answers)


@pytest.mark.skipif(not os.environ.get("SHOTS"), reason="SHOTS=1 writes the gallery")
async def test_gallery_screenshots(club: Club, browser: Any) -> None:
    for (width, height), platform in ((MOBILE, "mobile"), (DESKTOP, "desktop")):
        table = await club.table("turup", pace=0.05, humans=1)
        instance = club.discord.activities.start(club.channel, *club.players)
        client = club.client(club.players[0])
        page = await client.open(browser, instance.instance_id, width=width, height=height,
                                 platform=platform)
        frame = client.frame(page)
        for _ in range(3):
            await frame.locator("#hand button:not([disabled]), #decisions button").first.wait_for(
                timeout=20000)
            await _play_one(frame)
            await page.wait_for_timeout(300)
        await frame.locator("#hand button:not([disabled]), #decisions button").first.wait_for(
            timeout=20000)
        await page.wait_for_timeout(300)
        await page.screenshot(path=str(GALLERY / f"activity-{platform}-{width}.png"))
        await page.context.close()
        await club.service.abandon(table)


@dataclass
class HostRights:
    """Lobby rights as the bot binds them (bot/discord_bot/tables/web_lobby.py, tested against
    the fake Discord in tests/bot/test_discord_web_links.py), here without a bot: the
    host may start, nobody else."""

    host: int
    names: dict[int, str]

    async def start_refusal(self, table: int, user: int) -> str | None:
        return None if user == self.host else "Only the host may start."

    async def name_of(self, table: int, user: int) -> str:
        return self.names[user]


async def test_the_lobby_from_the_activity(club: Club, browser: Any) -> None:
    """Issue 39: a watcher in the instance joins the lobby's free seat and adds AI players
    with the page's buttons; only the host is offered Start, and starting deals the
    joined user their seat's hand."""
    amina, bilal = club.players[:2]
    club.server.use_lobby(HostRights(amina.id, {u.id: n for u, n in zip(club.players, NAMES,
                                                                        strict=True)}))
    seats: list[Seat | None] = [Seat.human(amina.id, NAMES[0]), None, None, None]
    table = await club.service.create_table(
        ChannelLocation(club.channel.guild_id or 0, club.channel.id), "turup", seats=seats,
        players=4, seed=3, ai_pace=0, turn_timeout=0)
    instance = club.discord.activities.start(club.channel, amina, bilal)
    guest = club.client(bilal)
    page = await guest.open(browser, instance.instance_id, width=MOBILE[0],
                            height=MOBILE[1], platform="mobile")
    frame = guest.frame(page)
    buttons = frame.locator("#decisions button")
    await frame.get_by_role("button", name="Join").click(timeout=20000)
    await frame.get_by_role("button", name="Join").wait_for(state="detached", timeout=20000)
    assert club.service.seat_of(table, bilal.id) == 1
    for _ in range(2):
        before = sum(s is None for s in club.service.info(table).seats)
        await frame.get_by_role("button", name="Add AI: rules").click(timeout=20000)
        end = time.monotonic() + 20
        while sum(s is None for s in club.service.info(table).seats) == before:
            assert time.monotonic() < end, "no AI was seated"
            await page.wait_for_timeout(40)
    await buttons.first.wait_for(state="detached", timeout=20000)  # full: no Start for bilal
    host = club.client(amina)
    host_page = await host.open(browser, instance.instance_id, width=DESKTOP[0],
                                height=DESKTOP[1], platform="desktop")
    await host.frame(host_page).get_by_role("button", name="Start").click(timeout=20000)
    await frame.locator("#hand button").first.wait_for(timeout=20000)
    assert club.service.info(table).status == "playing"
    for p in (page, host_page):
        await p.context.close()
