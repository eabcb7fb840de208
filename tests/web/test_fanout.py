"""One wording per frame (bot/web/fanout.py): sockets that receive the same event with the
same kind of wording (both spectators, two tabs of one seat) get the same text, worded
once; another language or another seat gets its own."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from webtable import Web, my_turn, of_type, open_table, read

from bot.service.events import TableEvent
from bot.web.fanout import FrameCache


def _event(kind: str = "play") -> TableEvent:
    return TableEvent(1, kind, {"seat": 0, "card": "KS"}, None, 3)


def test_a_frame_is_worded_once_per_event_and_key() -> None:
    cache = FrameCache()
    calls: list[str] = []

    def word(text: str) -> Any:
        return lambda: calls.append(text) or {"type": "line", "text": text}

    event = _event()
    first = cache.frame(event, ("line", "en"), word("a"))
    again = cache.frame(event, ("line", "en"), word("b"))
    assert first == again == '{"type":"line","text":"a"}'
    assert calls == ["a"]
    assert cache.frame(event, ("line", "sw"), word("c")) == '{"type":"line","text":"c"}'
    twin = _event()  # equal, but another event: worded again
    assert cache.frame(twin, ("line", "en"), word("d")) == '{"type":"line","text":"d"}'
    assert calls == ["a", "c", "d"]
    assert cache.frame(event, ("none", "en"), lambda: None) is None
    assert cache.frame(event, ("none", "en"), word("e")) is None  # remembered: no frame
    assert (cache.worded, cache.shared) == (4, 2)


def test_the_cache_keeps_only_the_newest_entries() -> None:
    cache = FrameCache(size=3)
    events = [_event() for _ in range(5)]
    for e in events:
        cache.frame(e, ("line", "en"), lambda: {"type": "line"})
    assert len(cache) == 3
    cache.frame(events[0], ("line", "en"), lambda: {"type": "again"})
    assert cache.worded == 6  # the oldest was forgotten: worded again


async def test_sockets_asking_at_once_await_one_wording() -> None:
    cache = FrameCache()
    calls = 0
    release = asyncio.Event()

    async def word() -> dict[str, Any]:
        nonlocal calls
        calls += 1
        await release.wait()
        return {"type": "deal_result"}

    event = _event("deal_scored")
    waiting = [asyncio.create_task(cache.frame_async(event, ("deal_result", "en"), word))
               for _ in range(3)]
    await asyncio.sleep(0)
    release.set()
    assert await asyncio.gather(*waiting) == ['{"type":"deal_result"}'] * 3
    assert calls == 1


async def _texts(ws: Any, until: Any) -> list[str]:
    """The raw texts read from ``ws`` up to the first frame satisfying ``until``."""
    out: list[str] = []
    while True:
        msg = await ws.receive(timeout=20)
        out.append(msg.data)
        if until(json.loads(msg.data)):
            return out


async def test_spectators_and_tabs_share_frames_and_languages_do_not(web: Web) -> None:
    async def language(user: int) -> str:
        return "sw" if user == 9 else "en"

    web.config.language = language
    await open_table(web)
    tab = await web.join()
    turn = await read(tab, my_turn)
    other_tab = await web.join()
    await read(other_tab, my_turn)
    watchers = [await web.join(web.key(user, "watch")) for user in (8, 8, 9)]
    for ws in watchers:
        await read(ws, of_type("table"))
    shared_before = web.config.frames.shared
    await tab.send_str(json.dumps({"v": 1, "type": "act", "version": turn["version"],
                                   "action": turn["choices"][0]["action"]}))

    def newer(f: dict[str, Any]) -> bool:
        return f["type"] == "table" and f["version"] > turn["version"]

    tabs = [await _texts(ws, newer) for ws in (tab, other_tab)]
    seen = [await _texts(ws, newer) for ws in watchers]
    assert tabs[0][-1] == tabs[1][-1]  # the seat's table, for both tabs
    english, english_too, swahili = seen
    assert english[-1] == english_too[-1] != swahili[-1]
    assert json.loads(swahili[-1])["hand"] == [] and json.loads(tabs[0][-1])["hand"]
    lines = [[json.loads(t)["text"] for t in texts if json.loads(t)["type"] == "line"]
             for texts in seen]
    assert lines[0] and lines[0] == lines[1] and lines[2] and lines[2] != lines[0]
    assert web.config.frames.shared > shared_before
