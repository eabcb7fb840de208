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


async def _start(*args: str) -> tuple[asyncio.subprocess.Process, str]:
    proc = await asyncio.create_subprocess_exec(
        *COMMAND, *args, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
        env={**os.environ, "TRICKTABLE_LANG": "en"})
    assert proc.stdout is not None
    line = ""
    while not line.startswith("http"):  # notices (resuming…) may come first
        line = (await asyncio.wait_for(proc.stdout.readline(), 60)).decode().strip()
        assert line, "no URL printed"
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
    assert "--resume" in out.decode()
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
