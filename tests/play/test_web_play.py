"""``tricktable play GAME --web``: the URL on standard output as soon as it listens, a whole
match played through the page's socket, the record written, exit 0; Ctrl+C keeps the match
resumable and exits 0."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sys
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import aiohttp

COMMAND = [sys.executable, "-m", "bot.cli", "play"]


async def _start(*args: str, said: list[str] | None = None
                 ) -> tuple[asyncio.subprocess.Process, str]:
    proc = await asyncio.create_subprocess_exec(
        *COMMAND, *args, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
        env={**os.environ, "TRICKTABLE_LANG": "en"})
    assert proc.stdout is not None
    line = ""
    while not line.startswith("http"):  # notices (resuming…) may come first
        line = (await asyncio.wait_for(proc.stdout.readline(), 60)).decode().strip()
        assert line, "no URL printed"
        if said is not None:
            said.append(line)
    assert line.startswith("http://127.0.0.1:") and "/#k=" in line, line
    return proc, line


async def _play_all(url: str) -> list[dict[str, Any]]:
    parts = urlsplit(url)
    origin = f"{parts.scheme}://{parts.netloc}"
    key = parts.fragment.removeprefix("k=")
    seen: list[dict[str, Any]] = []
    async with aiohttp.ClientSession() as http:
        page = await http.get(origin + "/")
        assert page.status == 200 and "assets/app.js" in await page.text()
        async with http.ws_connect(origin + "/ws", headers={"Origin": origin}) as ws:
            await ws.send_str(json.dumps({"v": 1, "type": "join", "key": key}))
            async for msg in ws:
                frame = json.loads(msg.data)
                seen.append(frame)
                if frame["type"] == "table" and frame["your_turn"]:
                    await ws.send_str(json.dumps({
                        "v": 1, "type": "act", "version": frame["version"],
                        "action": frame["choices"][0]["action"]}))
                if frame["type"] == "match_over":
                    break
    return seen


async def test_a_whole_match_from_the_page(tmp_path: Path) -> None:
    record = tmp_path / "match.json"
    proc, url = await _start("turup", "--web", "--port", "0", "--ai", "random", "--pace",
                             "0", "--seed", "4", "--options", '{"target": 1}',
                             "--database", f"sqlite:///{tmp_path / 'db.sqlite'}",
                             "--record", str(record), "--forced-pause", "off")
    seen = await asyncio.wait_for(_play_all(url), 120)
    out, err = await asyncio.wait_for(proc.communicate(), 60)
    assert proc.returncode == 0, err.decode()
    assert any(f["type"] == "deal_result" and f["review"] for f in seen)
    assert "Match over" in out.decode() or "wins" in out.decode()
    assert json.loads(record.read_text())["deals"]


async def test_ctrl_c_keeps_the_match_and_exits_0(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'db.sqlite'}"
    proc, url = await _start("tarabish", "--web", "--port", "0", "--ai", "random",
                             "--database", db, "--record", str(tmp_path / "r.json"))
    proc.send_signal(signal.SIGINT)
    out, err = await asyncio.wait_for(proc.communicate(), 60)
    assert proc.returncode == 0, err.decode()
    assert "tricktable play tarabish --web --resume" in out.decode()  # the hint says --web
    again, url2 = await _start("tarabish", "--web", "--port", "0", "--resume",
                               "--database", db)
    again.send_signal(signal.SIGINT)
    await asyncio.wait_for(again.communicate(), 60)
    assert again.returncode == 0 and url2 != url


async def test_a_bad_port_is_one_line_and_status_2(tmp_path: Path) -> None:
    proc = await asyncio.create_subprocess_exec(
        *COMMAND, "turup", "--web", "--port", "70000", "--database",
        f"sqlite:///{tmp_path / 'db.sqlite'}", stderr=asyncio.subprocess.PIPE)
    _, err = await proc.communicate()
    assert proc.returncode == 2 and "--port must be a whole number" in err.decode()


async def _frames(ws: aiohttp.ClientWebSocketResponse, seen: list[dict[str, Any]],
                  until: str) -> dict[str, Any]:
    """Play the first choice of every turn until a frame of type ``until``."""
    async for msg in ws:
        frame = json.loads(msg.data)
        seen.append(frame)
        if frame["type"] == "table" and frame["your_turn"]:
            await ws.send_str(json.dumps({"v": 1, "type": "act", "version": frame["version"],
                                          "action": frame["choices"][0]["action"]}))
        if frame["type"] == until:
            return frame
    raise AssertionError(f"the socket ended before a {until} frame")


async def test_the_page_is_awaited_and_offers_play_again(tmp_path: Path) -> None:
    """The sentence before the address says how to play and stop; the match waits for the
    page (its first frames are the lobby's), the human (seat 0) does not deal first; at the
    match's end **Play again** starts a new match on the same socket, under a new key."""
    said: list[str] = []
    proc, url = await _start("turup", "--web", "--port", "0", "--ai", "random", "--pace",
                             "0", "--seed", "4", "--options", '{"target": 1}',
                             "--database", f"sqlite:///{tmp_path / 'db.sqlite'}",
                             "--record", str(tmp_path / "r.json"), "--forced-pause", "off",
                             said=said)
    assert said[-2] == ("Play in your browser: open the address below. Press Ctrl+C to stop; "
                        "`tricktable play turup --web --resume` continues the match.")
    parts = urlsplit(url)
    origin = f"{parts.scheme}://{parts.netloc}"
    seen: list[dict[str, Any]] = []
    async with aiohttp.ClientSession() as http, \
            http.ws_connect(origin + "/ws", headers={"Origin": origin}) as ws:
        await ws.send_str(json.dumps({"v": 1, "type": "join",
                                      "key": parts.fragment.removeprefix("k=")}))
        first = await _frames(ws, seen, "table")
        before = [f["type"] for f in seen[:-1]]
        assert before[0] == "hello" and "lobby" in before  # not started before the page
        assert "history" not in before
        assert first["seats"][0]["you"] and not first["seats"][0]["dealer"]
        over = await asyncio.wait_for(_frames(ws, seen, "match_over"), 120)
        assert over["again"] == "Play again"
        assert over["lines"][0] in ("You won the match.", "Bilal and Dewi won the "
                                    "match: you lost.")
        await ws.send_str(json.dumps({"v": 1, "type": "again"}))
        hello = await _frames(ws, seen, "hello")
        assert hello["key"] and hello["table"] != seen[0]["table"]
        fresh = await _frames(ws, seen, "table")
        assert fresh["status"] == "playing" and fresh["deal"] == 0
    proc.send_signal(signal.SIGINT)  # the new match goes on until stopped, as any match
    out, err = await asyncio.wait_for(proc.communicate(), 60)
    assert proc.returncode == 0, err.decode()
    assert "--web --resume" in out.decode()
