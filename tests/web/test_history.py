"""What a page gets besides the table (issue 46): the deal so far and the score sheet on
every join (a reload keeps the log), the viewer named ``you``, the decision's prompt and
captions, a forced move said, why a card is not playable, the spectators' count."""

from __future__ import annotations

import json
from typing import Any

from aiohttp import ClientWebSocketResponse
from webtable import Web, my_turn, of_type, open_table, read

from bot.words.cards import card_text


def _after(turn: dict[str, Any]) -> Any:
    """The viewer's next turn after ``turn``."""
    version = turn["version"]
    return lambda f: my_turn(f) and f["version"] > version


async def _play_first(ws: ClientWebSocketResponse, turn: dict[str, Any]) -> None:
    await ws.send_str(json.dumps({"v": 1, "type": "act", "version": turn["version"],
                                  "action": turn["choices"][0]["action"]}))


async def test_a_reload_gets_the_deal_so_far_in_the_viewers_words(web: Web) -> None:
    await open_table(web)
    ws = await web.join()
    seen: list[dict[str, Any]] = []
    await read(ws, of_type("hello"), seen)
    first = await read(ws, of_type("history"), seen)
    assert first["deal"] == 0 and first["lines"][0].startswith("Deal 1:")
    turn = await read(ws, my_turn, seen)
    for _ in range(2):
        await _play_first(ws, turn)
        turn = await read(ws, _after(turn), seen)
    await web.service.settle()
    live = [f["text"] for f in seen if f["type"] == "line"]
    await ws.close()
    again = await web.join()
    await read(again, of_type("hello"))
    history = await read(again, of_type("history"))
    assert history["lines"] == first["lines"] + live
    told = "\n".join(history["lines"])
    assert "You played" in told and "Ann <b>" not in told  # the viewer is "you"
    assert all(line[:1].isupper() for line in history["lines"])
    assert history["sheet"]["rows"] == [] and history["sheet"]["columns"] == ["us", "them"]


async def test_the_score_sheet_holds_every_finished_deal(web: Web) -> None:
    await open_table(web)
    ws = await web.join()
    result: dict[str, Any] | None = None
    while result is None:
        frame = await read(ws, lambda f: my_turn(f) or f["type"] == "deal_result")
        if frame["type"] == "deal_result":
            result = frame
        else:
            await _play_first(ws, frame)
    sheet = result["sheet"]
    assert result["next"] == "On to deal 2"  # not "Back": the next deal has begun
    assert [r["title"] for r in sheet["rows"]] == ["Deal 1"]
    row = sheet["rows"][0]
    assert len(row["points"]) == len(row["totals"]) == 2 and row["note"]
    assert sheet["unit"] == "game points" and sheet["title"] == "Score sheet"
    await web.service.settle()
    again = await web.join()
    await read(again, of_type("hello"))
    history = await read(again, of_type("history"))
    assert history["deal"] == 1 and history["sheet"]["rows"] == sheet["rows"]
    assert history["lines"][0].startswith("Deal 2:")


async def test_truf_bids_are_prompted_with_their_worth(web: Web) -> None:
    await open_table(web, "truf")
    ws = await web.join()
    turn = await read(ws, my_turn)
    assert turn["prompt"] == "Your bid: tap a card; it bids what it is worth (shown under it)."
    captions = {c["card"]: c["caption"] for c in turn["choices"] if c["card"]}
    assert captions and all(text and text.startswith("worth ") for text in captions.values())
    seen: list[dict[str, Any]] = []
    await _play_first(ws, turn)
    line = await read(ws, lambda f: f["type"] == "line" and f["text"].startswith("You bid"),
                      seen)
    assert "(worth " in line["text"]
    await web.service.settle()
    again = await web.join()
    await read(again, of_type("hello"))
    told = (await read(again, of_type("history")))["lines"]
    assert not any("You have chosen a bid" in t or "Ann" in t for t in told)  # said once


async def test_why_a_card_is_not_playable_is_answered_in_words(web: Web) -> None:
    table = await open_table(web)
    ws = await web.join()
    turn = await read(ws, my_turn)
    version = web.service.info(table).version
    legal = {c["card"] for c in turn["choices"] if c["card"]}
    refused = next((c for c in turn["hand"] if c not in legal), None)
    await ws.send_str(json.dumps({"v": 1, "type": "why", "card": sorted(legal)[0]}))
    fine = await read(ws, of_type("reason"))
    assert fine["text"] == f"You may play {card_text(sorted(legal)[0])} now."
    if refused is not None:
        await ws.send_str(json.dumps({"v": 1, "type": "why", "card": refused}))
        answer = await read(ws, of_type("reason"))
        assert answer["card"] == refused and answer["text"].endswith((".", ")"))
        assert answer["text"][:1].isupper() and "KS" not in answer["text"]
    await ws.send_str(json.dumps({"v": 1, "type": "why", "card": "??"}))
    assert (await read(ws, of_type("error")))["code"] == "malformed"
    assert web.service.info(table).version == version  # asking changes nothing


async def test_a_forced_move_is_said(web: Web) -> None:
    await open_table(web)
    ws = await web.join()
    turn = await read(ws, my_turn)
    while len(turn["choices"]) != 1:
        assert turn["forced"] is None
        await _play_first(ws, turn)
        turn = await read(ws, _after(turn))
    assert turn["forced"] == f"Your only choice: {turn['choices'][0]['label']}."


async def test_spectators_are_counted_for_everyone(web: Web) -> None:
    await open_table(web)
    seat = await web.join()
    await read(seat, of_type("hello"))
    assert (await read(seat, of_type("spectators")))["count"] == 0
    watcher = await web.join(web.key(user=99, role="watch"))
    mine = await read(watcher, of_type("spectators"))
    assert mine["count"] == 1 and mine["text"] == "1 watching"
    told = await read(seat, of_type("spectators"))
    assert told["count"] == 1 and told["text"] == "1 watching"
    await watcher.close()
    assert (await read(seat, of_type("spectators")))["count"] == 0


async def test_the_seat_of_the_viewer_and_the_prompt_while_waiting(web: Web) -> None:
    await open_table(web, "tarabish")
    ws = await web.join()
    hello = await read(ws, of_type("hello"))
    assert hello["help"] and all(p["title"] and p["lines"] for p in hello["help"])
    assert not any("**" in line for p in hello["help"] for line in p["lines"])
    seen: list[dict[str, Any]] = []
    turn = await read(ws, my_turn, seen)
    calls = {c["action"]["type"] for c in turn["choices"]}
    if "call_trump" in calls:
        assert turn["prompt"] == "Your call: name trump, or pass."
    else:
        assert turn["prompt"] in ("Your turn: tap a lit card.",
                                  "Your turn: declare your runs, or tap a lit card.")
    for frame in seen:  # the trick in play is a sentence of its own (never run into the
        # trump line: "called by you you Q♣")
        if frame["type"] == "table" and frame["trick"]["cards"]:
            assert frame["trick"]["line"].startswith("On the table: ")
            assert frame["trick"]["line"].endswith(".")
        waiting = [s for s in frame.get("seats") or [] if s["to_act"] and not s["you"]]
        if frame["type"] == "table" and waiting:
            assert frame["prompt"].startswith("Waiting for ")
    assert turn["seats"][0]["player"] == "Ann <b>" and turn["seats"][0]["avatar"] is None


def test_a_trump_call_without_pass_is_prompted_as_such() -> None:
    """Tarabish's dealer, when every other player passed, must call: the prompt does not
    offer a pass the rules refuse."""
    from bot.web.frames import Words
    from bot.words.seating import Seating
    from games.actions import action_from_json

    seating = Seating.of("tarabish", ["Ann", "Bo", "Cy", "Di"]).reading(0)
    words = Words(seating, 0, seating.names, seating.names, (False,) * 4)
    calls = [action_from_json({"type": "call_trump", "suit": s, "seat": 0}, "a")[1]
             for s in "SHDC"]
    data: Any = {"legal": calls, "to_act": [0], "status": "playing", "deal": 0}
    assert words.table(data, 1)["prompt"] == "Your call: name trump (you may not pass)."
    passing = [*calls, action_from_json({"type": "pass", "seat": 0}, "a")[1]]
    data = {**data, "legal": passing}
    assert words.table(data, 1)["prompt"] == "Your call: name trump, or pass."
    data = {**data, "legal": [], "to_act": [2]}
    assert words.table(data, 1)["prompt"] == "Waiting for Cy."


async def test_a_seat_going_away_after_a_join_is_still_told(web: Web) -> None:
    """The history tells what the record holds; a seat going away (no action, the same
    version as the history's) is still said."""
    table = await open_table(web)
    await web.service.settle()  # the AI players have played up to the human's turn
    ws = await web.join()
    await read(ws, of_type("history"))
    await read(ws, my_turn)
    await web.service.set_away(table, 0)
    line = await read(ws, lambda f: f["type"] == "line" and f["kind"] == "away")
    assert line["text"] == "You are away: an AI plays for you."
