"""A table service on a real SQLite file with one human (user 7) and the web app in
aiohttp's test server; helpers to read frames."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from aiohttp import ClientWebSocketResponse, WSMsgType
from aiohttp.test_utils import TestClient, TestServer
from web_stack import table_service

from bot.contract.validate import problems
from bot.service import Seat, TableService
from bot.web import links
from bot.web.config import WebConfig
from bot.web.server import create_app
from storage import TerminalLocation

HUMAN = 7
SECRET = b"s" * 32
SCHEMA = Path(__file__).resolve().parents[2] / "bot" / "web" / "protocol.schema.json"


@cache
def _schema() -> dict[str, Any]:
    document: dict[str, Any] = json.loads(SCHEMA.read_text(encoding="utf-8"))
    return document


def nonconforming(text: str) -> list[str]:
    """Why the frame ``text`` is not a ``ServerFrame`` of the published schema (the
    committed ``bot/web/protocol.schema.json``, as the page and other clients read it)."""
    document = _schema()
    return problems(json.loads(text), document["$defs"]["ServerFrame"], document)


@dataclass
class Clock:
    now: float = 1_900_000_000.0

    def __call__(self) -> float:
        return self.now


@dataclass
class Web:
    service: TableService
    client: TestClient[Any, Any]
    config: WebConfig
    clock: Clock
    table: int = 0
    sockets: list[ClientWebSocketResponse] = field(default_factory=list)

    def key(self, user: int = HUMAN, role: links.Role = "seat", table: int | None = None,
            ttl: int = 3600) -> str:
        return links.issue(SECRET, self.table if table is None else table, user, role,
                           self.clock.now, ttl)

    async def connect(self, origin: str | None = None) -> ClientWebSocketResponse:
        host = f"http://{self.client.host}:{self.client.port}"
        ws = await self.client.ws_connect("/ws", headers={"Origin": origin or host})
        self.sockets.append(ws)
        return ws

    async def join(self, key: str | None = None) -> ClientWebSocketResponse:
        ws = await self.connect()
        key = self.key() if key is None else key
        await ws.send_str(json.dumps({"v": 1, "type": "join", "key": key}))
        return ws


async def activity_access_token(client: TestClient[Any, Any], code: str) -> str:
    """The Activity page's first step: ``POST /api/token`` with Discord's authorization
    code; the access token it answers."""
    answer = await client.post("/api/token", json={"code": code})
    assert answer.status == 200
    token: str = (await answer.json())["access_token"]
    return token


async def activity_socket(client: TestClient[Any, Any], application_id: int, token: str,
                          instance: str) -> ClientWebSocketResponse:
    """A socket of the Activity's page: opened from Discord's frame origin, its first frame
    the ``activity`` hello with the access token and the instance."""
    from bot.web.activity import discordsays

    ws = await client.ws_connect("/ws/activity",
                                 headers={"Origin": discordsays(application_id)})
    await ws.send_str(json.dumps({"v": 1, "type": "activity", "access_token": token,
                                  "instance_id": instance}))
    return ws


async def read(ws: ClientWebSocketResponse, until: Callable[[dict[str, Any]], bool],
               seen: list[dict[str, Any]] | None = None, timeout: float = 20.0
               ) -> dict[str, Any]:
    """Frames from ``ws`` until one satisfies ``until`` (returned); every frame read is
    appended to ``seen``."""
    while True:
        msg = await ws.receive(timeout=timeout)
        if msg.type != WSMsgType.TEXT:
            raise AssertionError(f"socket ended: {msg.type}")
        frame = json.loads(msg.data)
        if seen is not None:
            seen.append(frame)
        if until(frame):
            return frame


def of_type(*types: str) -> Callable[[dict[str, Any]], bool]:
    return lambda f: f["type"] in types


def my_turn(f: dict[str, Any]) -> bool:
    return f["type"] == "table" and bool(f["your_turn"])


@pytest.fixture
async def web(tmp_path: Path) -> AsyncIterator[Web]:
    async with table_service(tmp_path / "web.db") as service:
        clock = Clock()
        config = WebConfig(secret=SECRET, clock=clock)
        app = create_app(service, config)
        client: TestClient[Any, Any] = TestClient(TestServer(app))
        await client.start_server()
        w = Web(service, client, config, clock)
        try:
            yield w
        finally:
            for ws in w.sockets:
                await ws.close()
            await client.close()


async def open_table(w: Web, game: str = "turup", *, start: bool = True,
                     players: int = 4) -> int:
    seats: list[Seat | None] = [Seat.human(HUMAN, "Ann <b>")] + [
        Seat.ai("random", n) for n in ("Bo", "Cy", "Di", "Ed", "Fa")[:players - 1]]
    w.table = await w.service.create_table(TerminalLocation(f"web:{game}"), game, seats=seats,
                                           players=players, seed=5, ai_pace=0,
                                           turn_timeout=0, start=start)
    return w.table
