"""The relay of bot/web/relay.py in one test process: two web applications on one SQLite
store, A (shard 0 of 2, holding no table) and B (shard 1, the owner), through aiohttp's
test servers. A socket joined at A is relayed to B; the owner moving or out of reach
closes the page's socket with a reconnect hint; ``/ws/relay`` admits relay passes from
processes only. (Two real processes on PostgreSQL: tests/multiprocess/test_web_relay.py.)"""

from __future__ import annotations

import json
import socket
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from aiohttp import ClientWebSocketResponse, WSMsgType
from aiohttp.test_utils import TestClient, TestServer
from webtable import HUMAN, SECRET, Clock, my_turn, of_type, read

from bot.cluster import Ownership
from bot.cluster.addresses import WebAddresses
from bot.service import Seat, TableService
from bot.web import links
from bot.web.config import WebConfig
from bot.web.relay import PATH, OwnerRelay, relay_secret
from bot.web.server import create_app
from storage import ChannelLocation, SqlStore, open_store

SHARD_1_GUILD = 1 << 22
"""A guild of shard 1 of 2."""


@dataclass
class Pair:
    store: SqlStore
    owner: TableService
    a: TestClient[Any, Any]
    b: TestClient[Any, Any]
    clock: Clock
    table: int
    driving: dict[int, bool]
    """Whether the process of shard 0 (A) and 1 (B) holds its shard's lock."""
    sockets: list[ClientWebSocketResponse] = field(default_factory=list)

    def url(self, client: TestClient[Any, Any]) -> str:
        return f"http://{client.host}:{client.port}"

    async def join(self, client: TestClient[Any, Any], role: links.Role = "seat",
                   user: int = HUMAN) -> ClientWebSocketResponse:
        ws = await client.ws_connect("/ws", headers={"Origin": self.url(client)})
        self.sockets.append(ws)
        key = links.issue(SECRET, self.table, user, role, self.clock.now)
        await ws.send_str(json.dumps({"v": 1, "type": "join", "key": key}))
        return ws


async def _client(service: TableService, config: WebConfig) -> TestClient[Any, Any]:
    client: TestClient[Any, Any] = TestClient(TestServer(create_app(service, config)))
    await client.start_server()
    return client


@pytest.fixture
async def pair(tmp_path: Path) -> AsyncIterator[Pair]:
    store = await open_store(f"sqlite:///{tmp_path / 'web.db'}")
    owner, other = TableService(store), TableService(store)
    await owner.start()
    await other.start(owns=lambda location: False)
    table = await owner.create_table(
        ChannelLocation(SHARD_1_GUILD, 99), "turup",
        seats=[Seat.human(HUMAN, "Ann")] + [Seat.ai("random", n) for n in ("Bo", "Cy", "Di")],
        players=4, seed=5, ai_pace=0, turn_timeout=0, start=True)
    clock = Clock()
    relays = []
    clients = []
    for service, shard in ((other, 0), (owner, 1)):
        config = WebConfig(secret=SECRET, clock=clock)
        ownership = Ownership.of(2, [shard])
        config.relay = relay = OwnerRelay(store, ownership, config)
        clients.append(await _client(service, config))
        relays.append((relay, ownership))
    driving = {0: True, 1: True}
    for (relay, ownership), client in zip(relays, clients, strict=True):
        shard = min(ownership.shard_ids)
        await relay.listen(WebAddresses(store, ownership, f"http://{client.host}:{client.port}",
                                        lambda shard=shard: driving[shard], period=0.2))
    p = Pair(store, owner, clients[0], clients[1], clock, table, driving)
    try:
        yield p
    finally:
        for ws in p.sockets:
            await ws.close()
        for (relay, _), client in zip(relays, clients, strict=True):
            await relay.close()
            await client.close()
        await owner.close()
        await other.close()
        await store.close()


async def closed_with(ws: ClientWebSocketResponse) -> tuple[int | None, list[dict[str, Any]]]:
    """The close code of a socket and the frames it still got."""
    frames = []
    while True:
        msg = await ws.receive(timeout=10)
        if msg.type != WSMsgType.TEXT:
            return ws.close_code, frames
        frames.append(json.loads(msg.data))


async def test_a_seat_joined_at_another_process_plays_at_the_owner(pair: Pair) -> None:
    ws = await pair.join(pair.a)
    hello = await read(ws, of_type("hello", "error"))
    assert hello["type"] == "hello" and hello["seat"] == 0
    turn = await read(ws, my_turn)
    assert turn["hand"] == pair.owner.view(pair.table, 0)["hand"]
    await ws.send_str(json.dumps({"v": 1, "type": "act", "version": turn["version"],
                                  "action": turn["choices"][0]["action"]}))
    seen: list[dict[str, Any]] = []
    await read(ws, lambda f: f["type"] == "table" and f["version"] > turn["version"], seen)
    assert not [f for f in seen if f["type"] in ("refused", "error")]
    watch = await pair.join(pair.a, "watch", user=99)
    public = await read(watch, of_type("table"))
    assert public["hand"] == [] and public["choices"] == []


async def test_the_owner_moving_closes_the_page_with_a_reconnect_hint(pair: Pair) -> None:
    ws = await pair.join(pair.a)
    await read(ws, of_type("table"))
    await pair.store.set_web_address([1], "http://10.255.255.1:8765")
    code, frames = await closed_with(ws)
    assert code == 1012
    assert not [f for f in frames if f["type"] in ("closed", "error")]


async def test_a_process_that_lost_its_shard_hands_its_own_sockets_over(pair: Pair) -> None:
    ws = await pair.join(pair.b)  # straight to the owner
    await read(ws, of_type("table"))
    # B loses shard 1's lock; the new holder (here B's own server under another name,
    # so that it holds the table) records itself
    pair.driving[1] = False
    await pair.store.set_web_address([1], f"http://localhost:{pair.b.port}")
    code, frames = await closed_with(ws)
    assert code == 1012
    assert not [f for f in frames if f["type"] in ("closed", "error")]
    again = await pair.join(pair.b)  # B holds the table still, yet relays it
    hello = await read(again, of_type("hello", "error"))
    assert hello["type"] == "hello" and hello["seat"] == 0
    assert await pair.store.web_addresses() == {0: pair.url(pair.a),
                                               1: f"http://localhost:{pair.b.port}"}


async def test_an_owner_out_of_reach_says_try_again_later(pair: Pair) -> None:
    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        dead = f"http://127.0.0.1:{s.getsockname()[1]}"
    await pair.store.set_web_address([1], dead)
    ws = await pair.join(pair.a)
    code, frames = await closed_with(ws)
    assert code == 1013 and frames == []


async def test_the_relay_socket_admits_processes_with_a_relay_pass_only(pair: Pair) -> None:
    with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
        await pair.b.ws_connect(PATH, headers={"Origin": pair.url(pair.b)})
    assert refused.value.status == 403
    link = links.issue(SECRET, pair.table, HUMAN, "seat", pair.clock.now)
    nonce = "n0nce-1"
    relay_pass = links.issue(relay_secret(SECRET, nonce), pair.table, HUMAN, "seat",
                             pair.clock.now)

    async def relay(client: TestClient[Any, Any], key: str, once: str) -> dict[str, Any]:
        ws = await client.ws_connect(PATH)
        pair.sockets.append(ws)
        await ws.send_str(json.dumps({"v": 1, "type": "relay", "pass": key, "nonce": once}))
        return await read(ws, of_type("error", "hello"))

    # a page's link is no relay pass, and a relay pass no link
    error = await relay(pair.b, link, nonce)
    assert error["type"] == "error" and error["code"] == "forged" and error.get("fatal")
    page = await pair.b.ws_connect("/ws", headers={"Origin": pair.url(pair.b)})
    pair.sockets.append(page)
    await page.send_str(json.dumps({"v": 1, "type": "join", "key": relay_pass}))
    error = await read(page, of_type("error", "hello"))
    assert error["type"] == "error" and error["code"] == "forged"
    # the pass is bound to its nonce
    error = await relay(pair.b, relay_pass, "another")
    assert error["type"] == "error" and error["code"] == "forged"
    # a relay pass for a table the process does not hold goes no further
    error = await relay(pair.a, relay_pass, nonce)
    assert error["type"] == "error" and error["code"] == "table"
    # a pass works once: replayed (as if captured on the private network), it is refused
    fresh = links.issue(relay_secret(SECRET, "n0nce-2"), pair.table, HUMAN, "seat",
                        pair.clock.now)
    assert (await relay(pair.b, fresh, "n0nce-2"))["type"] == "hello"
    error = await relay(pair.b, fresh, "n0nce-2")
    assert error["type"] == "error" and error["code"] == "forged"


async def test_the_owner_ending_a_socket_for_good_is_passed_on(pair: Pair) -> None:
    """A user who does not sit at the table: the owner's refusal reaches the page, and
    the socket is closed as the owner closed it (no reconnect hint)."""
    ws = await pair.join(pair.a, "seat", user=55)
    code, frames = await closed_with(ws)
    assert [(f["type"], f["code"], f.get("fatal")) for f in frames] == [("error", "seat", True)]
    assert code == 1000
