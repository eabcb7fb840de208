"""Issue 44: the web table under hostile clients (``docs/web.md``, "Limits"). Real aiohttp
clients and raw sockets on 127.0.0.1 against the real application and table service:
every bad frame counts toward the strike limit, every hostile input is one clean error
frame (no traceback), sockets are capped per link, user, address and in total, a
half-sent request is dropped after the header timeout, a user's sockets can be ended
from outside with a reason, and a stopping server closes every page with 1012."""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from aiohttp import ClientWebSocketResponse, WSMsgType
from web_stack import table_service
from webtable import SECRET, Web, my_turn, of_type, open_table, read

from bot.service import TableService
from bot.web import links
from bot.web.config import WebConfig
from bot.web.registry import Caps, Sockets
from bot.web.server import WebServer


async def frames_until_closed(ws: ClientWebSocketResponse) -> list[dict[str, Any]]:
    """Every frame until the server closes the socket."""
    seen: list[dict[str, Any]] = []
    while True:
        msg = await ws.receive(timeout=20)
        if msg.type != WSMsgType.TEXT:
            return seen
        seen.append(json.loads(msg.data))


def tracebacks(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR]


async def test_every_kind_of_bad_frame_counts_toward_the_strike_limit(web: Web) -> None:
    """W-P5: 300 frames at once (unreadable, then over the budget) close the socket after
    ``strikes`` bad frames, answered at most once each (a run over the budget once)."""
    table = await open_table(web)
    ws = await web.join()
    await read(ws, my_turn)
    version = web.service.info(table).version
    for _ in range(300):
        await ws.send_str("{}")
    seen = await frames_until_closed(ws)
    errors = [f for f in seen if f["type"] == "error"]
    assert errors[-1]["code"] == "strikes" and errors[-1].get("fatal") and errors[-1]["text"]
    assert "rate" in [f["code"] for f in errors[:-1]]
    assert len(errors) <= web.config.strikes + 2
    assert ws.closed and web.service.info(table).version == version


async def test_hostile_input_is_one_clean_refusal(web: Web,
                                                  caplog: pytest.LogCaptureFixture) -> None:
    """W-P6: JSON nested past the parser's stack within the frame limit, before and after
    the join; link keys with non-ASCII characters or control characters: an error frame
    each, no traceback in the log."""
    caplog.set_level(logging.DEBUG)
    table = await open_table(web)
    nested = "[" * 1000 + "]" * 1000
    assert len(nested) <= web.config.max_frame
    ws = await web.connect()
    await ws.send_str(nested)
    assert (await read(ws, of_type("error")))["code"] == "join"
    key = web.key()
    payload, mac = key.split(".")
    for bad in (f"{payload}.{mac[:-1]}é", f"{payload[:-1]}é.{mac}", f"{payload}\x00.{mac}",
                f"{payload}.{mac}\r\n", "ключ.ключ", "\ud800.\ud800"):
        ws = await web.join(bad)
        error = await read(ws, of_type("error", "hello"))
        assert error["type"] == "error" and error["code"] == "forged", repr(bad)
        assert error.get("fatal") and error["text"]
    ws = await web.join()
    await read(ws, my_turn)
    version = web.service.info(table).version
    await ws.send_str(nested)
    assert (await read(ws, of_type("error")))["code"] == "malformed"
    await ws.send_str(json.dumps({"v": 1, "type": "act", "version": version,
                                  "action": {"type": "play", "card": "A\x00"}}))
    assert (await read(ws, of_type("error")))["code"] == "malformed"
    assert web.service.info(table).version == version
    assert tracebacks(caplog) == []


async def test_sockets_are_capped_per_link_and_per_user(web: Web) -> None:
    """W-P4: one watch link opens at most ``per_link`` live sockets, one user at most
    ``per_user`` over every table and role; the next gets a fatal error frame in player
    words, and a socket that closes frees its place."""
    table = await open_table(web)
    caps = web.config.sockets.caps
    key = web.key(user=50, role="watch")
    held = []
    for _ in range(caps.per_link):
        ws = await web.join(key)
        await read(ws, of_type("hello"))
        held.append(ws)
    ws = await web.join(key)
    refused = await read(ws, of_type("error", "hello"))
    assert refused["code"] == "busy" and refused.get("fatal")
    assert refused["text"] == ("This table is already open in too many of your pages: close "
                               "one and try again.")
    await held.pop().close()
    ws = await web.join(key)  # a place freed
    assert (await read(ws, of_type("error", "hello")))["type"] == "hello"
    held.append(ws)
    other = await web.service.create_table(
        web.service.info(table).location.__class__("web:other"), "turup", seats=[None] * 4,
        players=4, seed=1, ai_pace=0, turn_timeout=0, start=False)
    for _ in range(caps.per_user - caps.per_link):
        ws = await web.join(web.key(user=50, role="watch", table=other))
        await read(ws, of_type("lobby"))
    ws = await web.join(web.key(user=50, role="watch", table=other))
    refused = await read(ws, of_type("error", "hello"))
    assert refused["code"] == "busy" and "too many table pages" in refused["text"]


@pytest.fixture
async def small(tmp_path: Path) -> AsyncIterator[tuple[TableService, WebServer]]:
    """A real server on 127.0.0.1 with small caps and a short header timeout."""
    async with table_service(tmp_path / "small.db") as service:
        config = WebConfig(secret=SECRET, header_timeout=0.5,
                           sockets=Sockets(Caps(total=6, per_address=4)))
        server = WebServer(service, config, host="127.0.0.1", port=0)
        await server.start()
        try:
            yield service, server
        finally:
            await server.stop()


async def test_sockets_are_capped_per_address_and_in_total(
        small: tuple[TableService, WebServer]) -> None:
    _service, server = small
    url = server.base_url
    async with aiohttp.ClientSession() as http:
        opened = [await http.ws_connect(url + "/ws", headers={"Origin": url})
                  for _ in range(4)]
        ws = await http.ws_connect(url + "/ws", headers={
            "Origin": url, "Accept-Language": "sw"})
        refused = json.loads((await ws.receive(timeout=20)).data)
        assert refused["code"] == "busy" and refused.get("fatal")
        assert refused["text"] == ("Kurasa nyingi mno ziko wazi kutoka mtandao wako: funga "
                                   "baadhi ujaribu tena.")  # the page's language
        for ws in opened:
            await ws.close()
        # a proxy in front: each client is its X-Forwarded-For address, up to the total
        server.config.forwarded = True
        held = [await http.ws_connect(url + "/ws", headers={
            "Origin": url, "X-Forwarded-For": f"203.0.113.{n}"}) for n in range(6)]
        ws = await http.ws_connect(url + "/ws", headers={
            "Origin": url, "X-Forwarded-For": "203.0.113.99"})
        refused = json.loads((await ws.receive(timeout=20)).data)
        assert refused["code"] == "busy" and "server is full" in refused["text"]
        for ws in held:
            await ws.close()


async def test_a_half_sent_request_is_dropped_after_the_header_timeout(
        small: tuple[TableService, WebServer]) -> None:
    """W-P3: connections that send half a request (slowloris) are closed once the header
    timeout passes, trickling or not."""
    _service, server = small
    held = [await asyncio.open_connection("127.0.0.1", server.port) for _ in range(20)]
    for _, writer in held:
        writer.write(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-a: ")
        await writer.drain()
    for reader, writer in held:
        writer.write(b"b")  # a trickle does not keep it open
        try:
            got = await asyncio.wait_for(reader.read(), 20)
        except ConnectionResetError:  # closed before the trickle came: answered by a reset
            got = b""
        assert got == b""  # closed by the server
        writer.close()


async def test_a_users_sockets_end_from_outside_with_a_reason(
        small: tuple[TableService, WebServer]) -> None:
    """The revocation hook: ``WebServer.revoke`` ends every socket of a user at a table,
    with a closed frame in the page's words; the page's socket ends for good (1000)."""
    service, server = small
    from storage import TerminalLocation

    table = await service.create_table(TerminalLocation("web:revoke"), "turup",
                                       seats=[None] * 4, players=4, seed=1, ai_pace=0,
                                       turn_timeout=0, start=False)
    url = server.base_url
    async with aiohttp.ClientSession() as http:
        async def watch(user: int) -> ClientWebSocketResponse:
            ws = await http.ws_connect(url + "/ws", headers={"Origin": url})
            await ws.send_str(json.dumps({"v": 1, "type": "join", "key": links.issue(
                SECRET, table, user, "watch", server.config.clock())}))
            await read(ws, of_type("lobby"))
            return ws

        eve, eve2, bob = await watch(60), await watch(60), await watch(61)
        assert await server.revoke(table, 60, "You no longer sit at this table.") == 2
        for ws in (eve, eve2):
            frames = await frames_until_closed(ws)
            assert frames[-1] == {"v": 1, "type": "closed",
                                  "text": "You no longer sit at this table."}
            assert ws.close_code == 1000
        assert await server.revoke(table, 60, "You no longer sit at this table.") == 0
        await bob.send_str("{}")
        assert (await read(bob, of_type("error")))["code"] == "malformed"  # still open


async def test_a_stopping_server_closes_every_page_with_1012(
        small: tuple[TableService, WebServer]) -> None:
    """Item 6: every socket — joined or not yet — is closed with 1012 (service restart)
    and a reason, so the page says the server is restarting and reconnects."""
    service, server = small
    from storage import TerminalLocation

    table = await service.create_table(TerminalLocation("web:stop"), "turup",
                                       seats=[None] * 4, players=4, seed=1, ai_pace=0,
                                       turn_timeout=0, start=False)
    url = server.base_url
    async with aiohttp.ClientSession() as http:
        joined = await http.ws_connect(url + "/ws", headers={"Origin": url})
        await joined.send_str(json.dumps({"v": 1, "type": "join", "key": links.issue(
            SECRET, table, 5, "watch", server.config.clock())}))
        await read(joined, of_type("lobby"))
        waiting = await http.ws_connect(url + "/ws", headers={"Origin": url})
        stopping = asyncio.create_task(server.stop())
        for ws in (joined, waiting):
            msg = await ws.receive(timeout=20)
            while msg.type == WSMsgType.TEXT:
                msg = await ws.receive(timeout=20)
            assert msg.type == WSMsgType.CLOSE and msg.data == 1012
            assert msg.extra == "the server is restarting"
        await stopping


async def test_a_flood_of_bad_requests_writes_a_few_log_lines(
        small: tuple[TableService, WebServer], caplog: pytest.LogCaptureFixture) -> None:
    """W-P6 and N10: malformed HTTP requests each get a 4xx, and the log keeps a few
    lines a minute of them, without tracebacks."""
    caplog.set_level(logging.DEBUG)
    _service, server = small
    for _ in range(40):
        reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
        writer.write(b"GET /\x00 HTTP/1.1\r\nHost: x\r\n\r\n")
        await writer.drain()
        answer = await asyncio.wait_for(reader.read(), 20)
        assert answer.split(b" ")[1].startswith(b"4"), answer[:40]
        writer.close()
    lines = [r for r in caplog.records if r.name.startswith("aiohttp")]
    assert len(lines) <= 10
    assert not any(r.exc_info for r in lines)
