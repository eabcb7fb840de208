"""A duplicate board on the web table (issue 40 items 6 and 7): when the board's deal ends,
a seat of an entrant that finished it gets the board's reveal frame (traveller, hand
record, the AI's result, the review) and nobody else does — not a spectator, not a seat of
a non-entrant, not a member of another entrant; before the end no frame holds the reveal
or another seat's hand; a seat's link opened after the end (a reload) gets it again."""

from __future__ import annotations

import asyncio
import dataclasses
import datetime as dt
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from aiohttp import ClientWebSocketResponse
from aiohttp.test_utils import TestClient, TestServer
from duplicate_stack import duplicate_stack
from table_play import play_humans
from webtable import SECRET, Clock, Web, of_type, read

from bot.duplicate.context import board_of, directions_of
from bot.duplicate.service import DuplicateService
from bot.duplicate.text import hand_record_lines
from bot.web.config import WebConfig
from bot.web.server import create_app
from bot.web_duplicate import WebReveals
from bot.words.cards import card_text
from storage import ChannelLocation
from storage.models import Location

GUILD = 9
START = dt.datetime(2026, 11, 27, 20, 0, tzinfo=dt.UTC)
NAMES = {100: "Ann", 101: "Bo", 102: "Cy", 555: "Zed"}


@dataclasses.dataclass
class DuplicateWeb:
    web: Web
    dup: DuplicateService
    places: int = 0

    async def place(self, board: int) -> Location:
        self.places += 1
        return ChannelLocation(GUILD, 5000 + self.places)

    async def event(self, boards: int = 1) -> int:
        event = await self.dup.create_event(
            GUILD, 1, "Friday night", "turup", boards=boards, opens_at=START,
            closes_at=START + dt.timedelta(days=2), time_zone="Europe/Oslo", created_by=1)
        return event.id

    async def pair(self, event_id: int) -> int:
        """Ann & Bo entered and confirmed; their board 1's table."""
        await self.dup.enter(event_id, GUILD, 100, "Ann", partner=(101, "Bo"))
        await self.dup.confirm(event_id, GUILD, 101)
        start = await self.dup.play(event_id, GUILD, 100, NAMES, self.place)
        self.web.table = start.table_id
        return start.table_id


@pytest.fixture
async def dweb(tmp_path: Path) -> AsyncIterator[DuplicateWeb]:
    async with duplicate_stack(tmp_path / "dup.db", START + dt.timedelta(hours=1)) as s:
        clock = Clock()
        config = WebConfig(secret=SECRET, clock=clock, reveals=WebReveals(s.dup))
        client: TestClient[Any, Any] = TestClient(TestServer(create_app(s.tables, config)))
        await client.start_server()
        w = Web(s.tables, client, config, clock)
        try:
            yield DuplicateWeb(w, s.dup)
        finally:
            for ws in w.sockets:
                await ws.close()
            await client.close()


async def until_closed(ws: ClientWebSocketResponse, seen: list[dict[str, Any]]) -> None:
    await read(ws, of_type("closed"), seen)


def of(frames: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [f for f in frames if f["type"] == kind]


async def test_the_entrants_seats_get_the_reveal_at_the_end_and_nobody_else(
        dweb: DuplicateWeb) -> None:
    w = dweb.web
    event_id = await dweb.event()
    table = await dweb.pair(event_id)
    frames: dict[str, list[dict[str, Any]]] = {"ann": [], "bo": [], "watch": []}
    ann, bo = await w.join(w.key(100)), await w.join(w.key(101))
    watch = await w.join(w.key(102, "watch"))
    await read(ann, of_type("table"), frames["ann"])
    # A seat's socket opened mid-board gets nothing of the reveal either.
    mid: list[dict[str, Any]] = []
    again = await w.join(w.key(101))
    await read(again, of_type("table"), mid)
    await again.close()
    await play_humans(w.service, table, [100, 101])
    for name, ws in (("ann", ann), ("bo", bo), ("watch", watch)):
        await until_closed(ws, frames[name])

    expected = await dweb.dup.reveal(event_id, GUILD, 100, 1)
    event = await dweb.dup.event(event_id, GUILD)
    dealer = (await w.service.store.list_duplicate_boards(event_id))[0].dealer
    for name in ("ann", "bo"):
        seen = frames[name]
        kinds = [f["type"] for f in seen]
        [reveal] = of(seen, "reveal")
        # The deal's end first, then the reveal, then the table's close.
        assert kinds.index("deal_result") < kinds.index("reveal") < kinds.index("closed")
        assert reveal["title"] == "Board 1" and reveal["event"] == "Friday night"
        assert reveal["traveller"][0] == "Direction " + str(expected.play.direction + 1)
        assert reveal["traveller"][1].startswith("  Ann & Bo: ")
        assert "alone in its direction, 50.00%" in reveal["traveller"][1]  # not "0 of 0"
        assert reveal["hands_title"] == "The hands as dealt:"
        assert reveal["hands"] == hand_record_lines(directions_of(event), expected.hands,
                                                    dealer, game=event.game)
        for hand in expected.hands:  # every hand as dealt, cards in player words
            assert all(card_text(c) in "\n".join(reveal["hands"]) for c in hand)
        assert reveal["ai"].startswith("AI in your seat: net ")
        assert "(you: " in reveal["ai"]
        assert reveal["review"] and reveal["review_label"] == "Review"
        # Before the deal's end: nothing of the reveal, and the hand shown is one's own.
        before = seen[:kinds.index("deal_result")]
        text = json.dumps(before, ensure_ascii=False)
        assert "The hands as dealt" not in text and '"reveal"' not in text
        side = directions_of(event)[expected.play.direction]  # Ann, then Bo
        own = set(expected.hands[side[0 if name == "ann" else 1]])
        for frame in of(before, "table"):
            assert set(frame["hand"]) <= own, name
    assert not of(frames["watch"], "reveal") and not of(mid, "reveal")
    assert "The hands as dealt" not in json.dumps(frames["watch"] + mid)


async def test_a_reload_after_the_end_gets_the_reveal_again_if_entitled(
        dweb: DuplicateWeb) -> None:
    w = dweb.web
    event_id = await dweb.event(boards=2)
    table = await dweb.pair(event_id)
    await dweb.dup.enter(event_id, GUILD, 102, "Cy")  # another entrant, board 1 not done
    await dweb.dup.play(event_id, GUILD, 102, NAMES, dweb.place)
    await play_humans(w.service, table, [100, 101])
    async with asyncio.timeout(30):  # the board's end is stored after its last card
        while not any(p.status == "finished"
                      for p in await w.service.store.list_duplicate_plays(event_id)):
            await asyncio.sleep(0.01)
    seen: list[dict[str, Any]] = []
    bo = await w.join(w.key(101))
    await until_closed(bo, seen)
    assert [f["type"] for f in seen] == ["reveal", "closed"]
    assert seen[0]["title"] == "Board 1" and seen[0]["traveller"][1].startswith("  Ann & Bo")
    assert "the board is over, and its results are shown to you" in seen[1]["text"]
    # Cy's seat link to Ann & Bo's closed table, and a stranger's: refused, no reveal.
    for user in (102, 555):
        other: list[dict[str, Any]] = []
        ws = await w.join(w.key(user))
        await read(ws, of_type("error"), other)
        assert [f["type"] for f in other] == ["error"] and other[0]["code"] == "table"
    # A spectator's link after the end: nothing either.
    ws = await w.join(w.key(100, "watch"))
    refused: list[dict[str, Any]] = []
    await read(ws, of_type("error"), refused)
    assert [f["type"] for f in refused] == ["error"]


async def test_a_seat_of_a_non_entrant_gets_nothing(dweb: DuplicateWeb) -> None:
    """Ann entered alone; the board's table seats her and Zed, who entered nothing (the
    duplicate service's own table opening, with Zed put in her partner's seat)."""
    w, dup = dweb.web, dweb.dup
    event_id = await dweb.event()
    entrant = await dup.enter(event_id, GUILD, 100, "Ann")
    event = await dup.event(event_id, GUILD)
    board = board_of(event, (await dup.context.boards(event_id))[1])
    play = await w.service.store.start_duplicate_play(event_id, entrant.id, 1,
                                                      len(board.sides()))
    with_zed = dataclasses.replace(entrant, members=(100, 555))
    table = await dup.seating._open_table(event, board, [(with_zed, play)], NAMES,
                                          await dweb.place(1))
    w.table = table
    assert w.service.seat_of(table, 555) is not None
    ann, zed = await w.join(w.key(100)), await w.join(w.key(555))
    frames: dict[int, list[dict[str, Any]]] = {100: [], 555: []}
    await play_humans(w.service, table, [100, 555])
    await until_closed(ann, frames[100])
    await until_closed(zed, frames[555])
    assert len(of(frames[100], "reveal")) == 1
    assert of(frames[555], "deal_result") and not of(frames[555], "reveal")
    assert "The hands as dealt" not in json.dumps(frames[555])


async def test_the_deal_result_shows_no_review_of_a_duplicate_board(
        dweb: DuplicateWeb) -> None:
    """The deal result's review tells every hand as dealt: on a board's table it would hand
    the board's hand record to a spectator (a member of an entrant that has not played the
    board) or a seat of a non-entrant. A board's review travels in the reveal only."""
    w = dweb.web
    event_id = await dweb.event(boards=2)
    table = await dweb.pair(event_id)
    await dweb.dup.enter(event_id, GUILD, 102, "Cy")  # board 1 still to play
    watch = await w.join(w.key(102, "watch"))
    ann = await w.join(w.key(100))
    frames: dict[str, list[dict[str, Any]]] = {"watch": [], "ann": []}
    await read(ann, of_type("table"), frames["ann"])
    await play_humans(w.service, table, [100, 101])
    await until_closed(watch, frames["watch"])
    await until_closed(ann, frames["ann"])
    [result] = of(frames["watch"], "deal_result")
    assert result["review"] == []
    assert "hands as dealt" not in json.dumps(frames["watch"], ensure_ascii=False)
    [reveal] = of(frames["ann"], "reveal")  # the entrant's review is in its reveal
    assert any("hands as dealt" in page["title"] for page in reveal["review"])
