"""A duplicate board in the Discord Activity (bot/web/activity.py, bot/web/reveals.py): while
the board's table is open the Activity of its channel opens it as before; once the board
is over, the channel has no open table, and a reload of the Activity by a member of the
entrant that finished it gets the board's reveal then ``closed`` (the web table's
after-the-end path); a member of another entrant, a user who entered nothing, or the
entrant's own member in another channel gets the usual "no open table" refusal. Against
the fake Discord (its Activities and OAuth2) and the real table and duplicate services on
SQLite."""

from __future__ import annotations

import asyncio
import datetime as dt
import json
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from aiohttp import ClientWebSocketResponse
from aiohttp.test_utils import TestClient, TestServer
from duplicate_stack import duplicate_stack
from fakediscord import FakeChannel, FakeDiscord, FakeUser
from table_play import play_humans
from webtable import SECRET, activity_access_token, activity_socket, of_type, read

from bot.duplicate.service import DuplicateService
from bot.service import TableService
from bot.web.activity import ActivityConfig
from bot.web.config import WebConfig
from bot.web.server import create_app
from bot.web_duplicate import WebReveals
from storage import ChannelLocation
from storage.models import Location

START = dt.datetime(2026, 11, 27, 20, 0, tzinfo=dt.UTC)


@dataclass
class DuplicateActivity:
    discord: FakeDiscord
    tables: TableService
    dup: DuplicateService
    client: TestClient[Any, Any]
    channel: FakeChannel
    users: dict[str, FakeUser]
    sockets: list[ClientWebSocketResponse] = field(default_factory=list)

    @property
    def guild(self) -> int:
        return self.channel.guild_id or 0

    def names(self) -> dict[int, str]:
        return {u.id: name.title() for name, u in self.users.items()}

    async def place(self, board: int) -> Location:
        return ChannelLocation(self.guild, self.channel.id)

    async def open(self, name: str, instance: str) -> ClientWebSocketResponse:
        code = self.discord.activities.authorize(self.users[name])
        token = await activity_access_token(self.client, code)
        ws = await activity_socket(self.client, self.discord.application_id, token, instance)
        self.sockets.append(ws)
        return ws


@pytest.fixture
async def activity(tmp_path: Path) -> AsyncIterator[DuplicateActivity]:
    discord = FakeDiscord()
    await discord.start()
    guild = discord.add_guild("Club")
    channel = discord.add_text_channel(guild, "duplicate")
    users = {n: discord.add_user(n) for n in ("ann", "bo", "cy", "zed")}
    try:
        async with duplicate_stack(tmp_path / "dup.db", START + dt.timedelta(hours=1)) as s:
            config = ActivityConfig(discord.application_id, discord.activities.client_secret,
                                    discord.token, discord.api_base, recheck=30.0)
            client: TestClient[Any, Any] = TestClient(TestServer(create_app(
                s.tables, WebConfig(secret=SECRET, reveals=WebReveals(s.dup)),
                activity=config)))
            await client.start_server()
            a = DuplicateActivity(discord, s.tables, s.dup, client, channel, users)
            try:
                yield a
            finally:
                for ws in a.sockets:
                    await ws.close()
                await client.close()
    finally:
        await discord.close()


async def frames_until(ws: ClientWebSocketResponse, *kinds: str) -> list[dict[str, Any]]:
    seen: list[dict[str, Any]] = []
    await read(ws, of_type(*kinds), seen)
    return seen


async def test_after_the_boards_end_its_entrant_gets_the_reveal_and_nobody_else(
        activity: DuplicateActivity) -> None:
    a, dup = activity, activity.dup
    event = await dup.create_event(
        a.guild, a.channel.id, "Friday night", "turup", boards=2, opens_at=START,
        closes_at=START + dt.timedelta(days=2), time_zone="Europe/Oslo", created_by=1)
    ann, bo, cy = a.users["ann"].id, a.users["bo"].id, a.users["cy"].id
    await dup.enter(event.id, a.guild, ann, "Ann", partner=(bo, "Bo"))
    await dup.confirm(event.id, a.guild, bo)
    table = (await dup.play(event.id, a.guild, ann, a.names(), a.place)).table_id
    await dup.enter(event.id, a.guild, cy, "Cy")  # another entrant, its board elsewhere
    elsewhere = a.discord.add_text_channel(a.discord.guilds[a.guild], "other")

    async def cy_place(board: int) -> Location:
        return ChannelLocation(a.guild, elsewhere.id)

    await dup.play(event.id, a.guild, cy, a.names(), cy_place)
    instance = a.discord.activities.start(a.channel, *a.users.values()).instance_id

    # Before the end: the open table, as ever — Ann's seat, Zed watching, no reveal.
    live = await a.open("ann", instance)
    hello = await read(live, of_type("hello", "error"))
    assert hello["type"] == "hello" and hello["seat"] is not None
    watching = await a.open("zed", instance)
    hello = await read(watching, of_type("hello", "error"))
    assert hello["type"] == "hello" and hello["seat"] is None
    await play_humans(a.tables, table, [ann, bo])
    during = await frames_until(live, "closed")
    assert [f["type"] for f in during].count("reveal") == 1
    assert "reveal" not in [f["type"] for f in await frames_until(watching, "closed")]
    async with asyncio.timeout(30):  # the play's end is stored after the closed frame
        while not any(p.status == "finished" and p.table_id == table
                      for p in await a.tables.store.list_duplicate_plays(event.id, board=1)):
            await asyncio.sleep(0.01)

    # The reload after the end: the board's reveal then closed, for either member.
    for name in ("ann", "bo"):
        seen = await frames_until(await a.open(name, instance), "closed", "error")
        assert [f["type"] for f in seen] == ["reveal", "closed"], name
        assert seen[0]["title"] == "Board 1" and seen[0]["event"] == "Friday night"
        assert seen[0]["traveller"][1].startswith("  Ann & Bo: ")
        assert "the board is over, and its results are shown to you" in seen[1]["text"]
    # Everyone else in the channel: the usual refusal, nothing of the board.
    for name in ("cy", "zed"):
        seen = await frames_until(await a.open(name, instance), "closed", "error", "hello")
        assert [f["type"] for f in seen] == ["error"], name
        assert seen[0]["code"] == "table" and "no open table" in seen[0]["text"]
        assert seen[0].get("fatal") and "hands as dealt" not in json.dumps(seen)
    # Ann in an Activity of another channel (Cy's table is open there): watches it, no
    # reveal of her board.
    other = a.discord.activities.start(elsewhere, a.users["ann"]).instance_id
    seen = await frames_until(await a.open("ann", other), "hello", "error")
    assert [f["type"] for f in seen] == ["hello"] and seen[0]["seat"] is None


async def test_nothing_before_the_board_is_finished(activity: DuplicateActivity) -> None:
    """An entrant that started a board in the channel and has not finished it, with no
    open table there (its table closed mid-board): the usual refusal."""
    a, dup = activity, activity.dup
    event = await dup.create_event(
        a.guild, a.channel.id, "Friday night", "turup", boards=1, opens_at=START,
        closes_at=START + dt.timedelta(days=2), time_zone="Europe/Oslo", created_by=1)
    ann = a.users["ann"].id
    await dup.enter(event.id, a.guild, ann, "Ann")
    table = (await dup.play(event.id, a.guild, ann, a.names(), a.place)).table_id
    await a.tables.abandon(table)
    plays = await a.tables.store.list_duplicate_plays(event.id)
    assert [p.status for p in plays] == ["playing"] and not a.tables.holds(table)
    instance = a.discord.activities.start(a.channel, a.users["ann"]).instance_id
    seen = await frames_until(await a.open("ann", instance), "closed", "error", "hello")
    assert [f["type"] for f in seen] == ["error"]
    assert seen[0]["code"] == "table" and "no open table" in seen[0]["text"]
