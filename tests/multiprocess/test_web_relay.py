"""The web table across processes for real (issue 38, item 9; issue 39, item 4): two
``tricktable run`` processes serving the web table on one PostgreSQL database.

Process A runs shard 0, process B shard 1; a table in a guild of shard 1 is driven by B.
A page's socket that reaches A (as any process behind the one public URL may be reached)
is relayed to B: the seat gets its state and plays a card B stores, a spectator gets the
public view, B stopping closes the page's socket with the reconnect hint (1012), and the
page reconnecting reaches B's replacement.
"""

from __future__ import annotations

import json
import signal
import socket
import time
from typing import Any

import aiohttp
import pytest
from aiohttp import WSMsgType
from fakediscord import SimulatedUser
from shardworld import ShardWorld, human_actions, open_table
from webtable import my_turn, of_type, read

from bot.web import links
from bot.web.activity import discordsays

SECRET = "relay-test-secret-of-at-least-32-characters"
PUBLIC = "https://tables.test"
"""The one public URL (as a reverse proxy in front of both processes would have it)."""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def web_env(port: int) -> dict[str, str]:
    return {"TRICKTABLE_WEB_PORT": str(port), "TRICKTABLE_WEB_HOST": "127.0.0.1",
            "TRICKTABLE_WEB_URL": PUBLIC, "TRICKTABLE_WEB_SECRET": SECRET}


def key(table: int, user: int, role: links.Role) -> str:
    return links.issue(SECRET.encode(), table, user, role, time.time())


async def join(http: aiohttp.ClientSession, port: int,
               link: str) -> aiohttp.ClientWebSocketResponse:
    ws = await http.ws_connect(f"http://127.0.0.1:{port}/ws", origin=PUBLIC)
    await ws.send_str(json.dumps({"v": 1, "type": "join", "key": link}))
    return ws


async def frames_until_closed(ws: aiohttp.ClientWebSocketResponse) -> list[dict[str, Any]]:
    """Every frame the socket still gets, until it is closed (cleanly: a close frame)."""
    out: list[dict[str, Any]] = []
    while True:
        msg = await ws.receive(timeout=20)
        if msg.type == WSMsgType.TEXT:
            out.append(json.loads(msg.data))
            continue
        assert msg.type == WSMsgType.CLOSE, msg
        return out


async def test_a_page_on_one_process_plays_at_the_table_another_drives(
        world: ShardWorld) -> None:
    a_port, b_port = free_port(), free_port()
    await world.start("0", **web_env(a_port))
    b = await world.start("1", **web_env(b_port))
    bob = world.user("bob", shard=1)
    table = await open_table(world, bob)  # in shard 1's guild: B drives it
    assert await world.store.web_addresses() == {0: f"http://127.0.0.1:{a_port}",
                                                 1: f"http://127.0.0.1:{b_port}"}
    async with aiohttp.ClientSession() as http:
        seat = await join(http, a_port, key(table, bob.user.id, "seat"))
        # a member of the table's server (a link opens nothing to someone who cannot read
        # its channel: bot/web/access.py)
        carol = world.user("carol", shard=1)
        watch = await join(http, a_port, key(table, carol.user.id, "watch"))
        seen: list[dict[str, Any]] = []
        hello = await read(seat, of_type("hello"), seen)
        assert hello["table"] == table and hello["seat"] == 0
        turn = await read(seat, my_turn, seen)
        assert turn["hand"]
        made = await human_actions(world.store, table, 0)
        card = next(c for c in turn["choices"] if c["card"])
        await seat.send_str(json.dumps({"v": 1, "type": "act", "version": turn["version"],
                                        "action": card["action"]}))
        after = await read(seat, lambda f: f["type"] == "table"
                           and f["version"] > turn["version"], seen)
        assert after["version"] > turn["version"]
        assert not [f for f in seen if f["type"] in ("refused", "error")], seen
        assert await human_actions(world.store, table, 0) == made + 1  # stored by B

        spectator = await read(watch, of_type("hello"))
        assert spectator["seat"] is None and spectator["table"] == table
        public = await read(watch, of_type("table"))
        assert public["hand"] == [] and public["choices"] == []

        assert await b.stop() == 0
        for ws in (seat, watch):
            rest = await frames_until_closed(ws)
            # no final frame: the page reconnects, to whoever drives the table then
            assert not [f for f in rest if f["type"] in ("closed", "error", "match_over")]
            assert ws.close_code == 1012

        # shard 1 restarted (another port): the page reconnecting to A reaches it
        c_port = free_port()
        await world.start("1", name="shards-1-again", **web_env(c_port))
        assert (await world.store.web_addresses())[1] == f"http://127.0.0.1:{c_port}"
        again = await join(http, a_port, key(table, bob.user.id, "seat"))
        back = await read(again, of_type("hello", "error"))
        assert back["type"] == "hello" and back["seat"] == 0
        now = await read(again, of_type("table"))
        assert now["version"] >= after["version"]


@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM])
async def test_a_stopping_process_closes_its_pages_with_1012(world: ShardWorld,
                                                             stop: signal.Signals) -> None:
    """Issue 44, item 6 (N11): Ctrl-C and SIGTERM (docker stop, systemd) close every page
    the process serves itself with 1012 and the reason, no final frame (the page says the
    server is restarting and reconnects), and the process exits 0."""
    port = free_port()
    bot = await world.start("0,1", **web_env(port))
    bob = world.user("bob", shard=1)
    table = await open_table(world, bob)
    async with aiohttp.ClientSession() as http:
        seat = await join(http, port, key(table, bob.user.id, "seat"))
        await read(seat, of_type("table"))
        waiting = await http.ws_connect(f"http://127.0.0.1:{port}/ws", origin=PUBLIC)
        assert bot.proc is not None
        bot.proc.send_signal(stop)
        for ws in (seat, waiting):
            rest = await frames_until_closed(ws)
            assert not [f for f in rest if f["type"] in ("closed", "error", "match_over")]
            assert ws.close_code == 1012
        assert await bot.wait() == 0


async def test_the_activity_on_one_process_opens_the_table_another_drives(
        world: ShardWorld) -> None:
    """The one URL mapping of the Activity: its socket reaches A, which checks the user
    and the instance with Discord once and relays to B."""
    activities = world.server.activities
    env = {"DISCORD_CLIENT_SECRET": activities.client_secret}
    a_port, b_port = free_port(), free_port()
    await world.start("0", **web_env(a_port), **env)
    await world.start("1", **web_env(b_port), **env)
    bob, carol = world.user("bob", shard=1), world.user("carol", shard=1)
    table = await open_table(world, bob)
    instance = activities.start(world.channels[1], bob.user, carol.user)
    frame_origin = discordsays(world.server.application_id)
    async with aiohttp.ClientSession() as http:

        async def open_activity(user: SimulatedUser) -> aiohttp.ClientWebSocketResponse:
            answer = await http.post(f"http://127.0.0.1:{a_port}/api/token",
                                     json={"code": activities.authorize(user.user)})
            assert answer.status == 200, await answer.text()
            token = (await answer.json())["access_token"]
            ws = await http.ws_connect(f"http://127.0.0.1:{a_port}/ws/activity",
                                       origin=frame_origin)
            await ws.send_str(json.dumps({"v": 1, "type": "activity", "access_token": token,
                                          "instance_id": instance.instance_id}))
            return ws

        seat, watch = await open_activity(bob), await open_activity(carol)
        hello = await read(seat, of_type("hello", "error"))
        assert hello["type"] == "hello" and hello["table"] == table and hello["seat"] == 0
        turn = await read(seat, my_turn)
        assert turn["hand"] and any(c["card"] for c in turn["choices"])
        spectator = await read(watch, of_type("hello", "error"))
        assert spectator["type"] == "hello" and spectator["seat"] is None
    checks = [r for r in world.server.requests if "/activity-instances/" in r.route]
    # one for the instance, kept for its sockets (a second only if the test outlived the
    # 15 s re-check period on a busy machine), by A: B asked nothing
    assert 1 <= len(checks) <= 2 and all(r.headers.get("User-Agent", "").startswith(
        "DiscordBot") for r in checks)
