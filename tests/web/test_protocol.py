"""The web table's protocol through aiohttp's test client against the real table service:
joining as a seat or a spectator, actions accepted and refused, reconnecting, hostile
frames, forged and expired links, a removed player's link, and secrecy (no frame ever
holds a card another seat still holds)."""

from __future__ import annotations

import json
import re
from typing import Any

from webtable import HUMAN, Web, my_turn, of_type, open_table, read

from bot.words.cards import card_text


async def test_seat_joins_sees_its_hand_and_plays(web: Web) -> None:
    table = await open_table(web)
    ws = await web.join()
    seen: list[dict[str, Any]] = []
    hello = await read(ws, of_type("hello"), seen)
    assert hello["seat"] == 0 and hello["game"] == "turup" and hello["v"] == 1
    turn = await read(ws, my_turn, seen)
    assert turn["hand"] == web.service.view(table, 0)["hand"]
    assert turn["seats"][0]["name"] == "Ann <b>"  # text: the page never reads it as HTML
    cards = [c for c in turn["choices"] if c["card"]]
    assert cards and all(c["label"] for c in turn["choices"])
    choice = turn["choices"][0]
    await ws.send_str(json.dumps({"v": 1, "type": "act", "version": turn["version"],
                                  "action": choice["action"]}))
    after = await read(ws, lambda f: f["type"] == "table" and f["version"] > turn["version"],
                       seen)
    if choice["card"]:
        assert choice["card"] not in after["hand"] or turn["hand"].count(choice["card"]) > 1
    assert any(f["type"] == "line" for f in seen)  # events are told in sentences


async def test_no_frame_holds_another_seats_card(web: Web) -> None:
    """Play three turns, then scan every frame for the cards the other seats still
    hold (notation and words)."""
    table = await open_table(web)
    ws = await web.join()
    seen: list[dict[str, Any]] = []
    for _ in range(3):
        turn = await read(ws, my_turn, seen)
        await ws.send_str(json.dumps({"v": 1, "type": "act", "version": turn["version"],
                                      "action": turn["choices"][0]["action"]}))
    await read(ws, lambda f: f["type"] == "table", seen)
    await web.service.settle()
    text = "\n".join(json.dumps(f, ensure_ascii=False) for f in seen)
    for seat in (1, 2, 3):
        for card in web.service.view(table, seat)["hand"]:
            assert f'"{card}"' not in text, (seat, card)
            assert not re.search(re.escape(card_text(card)) + r"(?![0-9])", text), (seat, card)


async def test_spectator_gets_the_public_view_and_cannot_act(web: Web) -> None:
    table = await open_table(web)
    ws = await web.join(web.key(user=99, role="watch"))
    hello = await read(ws, of_type("hello"))
    assert hello["seat"] is None
    frame = await read(ws, of_type("table"))
    assert frame["hand"] == [] and frame["choices"] == [] and not frame["your_turn"]
    version = web.service.info(table).version
    await ws.send_str(json.dumps({"v": 1, "type": "act", "version": version,
                                  "action": {"type": "pass"}}))
    error = await read(ws, of_type("error"))
    assert error["code"] == "malformed" and error["text"]
    held = [c for s in range(4) for c in web.service.view(table, s)["hand"]]
    assert not any(f'"{c}"' in json.dumps(frame) for c in held)


async def test_refusals_are_in_words_and_change_nothing(web: Web) -> None:
    table = await open_table(web)
    ws = await web.join()
    turn = await read(ws, my_turn)
    version = web.service.info(table).version
    legal = {c["card"] for c in turn["choices"] if c["card"]}
    other = next((c for c in turn["hand"] if c not in legal), None)
    if other is not None:  # a held card the rules refuse now
        await ws.send_str(json.dumps({"v": 1, "type": "act", "version": turn["version"],
                                      "action": {"type": "play", "card": other}}))
        refused = await read(ws, of_type("refused"))
        assert card_text(other) in refused["text"] or refused["text"].endswith(".")
    await ws.send_str(json.dumps({"v": 1, "type": "act", "version": turn["version"] - 1,
                                  "action": turn["choices"][0]["action"]}))
    stale = await read(ws, of_type("refused"))
    assert "no longer current" in stale["text"]
    assert web.service.info(table).version == version


async def test_reconnect_and_two_tabs_stay_live(web: Web) -> None:
    await open_table(web)
    first = await web.join()
    turn = await read(first, my_turn)
    await first.close()
    again = await web.join()
    resumed = await read(again, my_turn)
    assert resumed["version"] == turn["version"] and resumed["hand"] == turn["hand"]
    other_tab = await web.join()
    await read(other_tab, my_turn)
    await again.send_str(json.dumps({"v": 1, "type": "act", "version": resumed["version"],
                                     "action": resumed["choices"][0]["action"]}))

    def newer(f: dict[str, Any]) -> bool:
        return f["type"] == "table" and f["version"] > resumed["version"]

    a = await read(again, newer)
    b = await read(other_tab, newer)
    assert a["hand"] == b["hand"]


async def test_hostile_frames_get_error_frames_and_change_nothing(web: Web) -> None:
    table = await open_table(web)
    ws = await web.join()
    turn = await read(ws, my_turn)
    version = web.service.info(table).version
    hostile = [
        "not json", "[]", json.dumps({"v": 2, "type": "act"}),
        json.dumps({"v": 1, "type": "nope"}),
        json.dumps({"v": 1, "type": "act", "version": "1", "action": {}}),
        json.dumps({"v": 1, "type": "act", "version": turn["version"], "action": []}),
        json.dumps({"v": 1, "type": "act", "version": turn["version"],
                    "action": {"type": "explode"}}),
        json.dumps({"v": 1, "type": "act", "version": turn["version"],
                    "action": {"type": "play", "card": "<script>"}}),
        json.dumps({"v": 1, "type": "act", "version": turn["version"],
                    "action": {"type": "play", "card": "X" * 5000}}),
        json.dumps({"v": 1, "type": "join", "key": web.key()}),
    ]
    for text in hostile:
        await ws.send_str(text)
        error = await read(ws, of_type("error", "refused"))
        assert error["text"], text
    await ws.send_bytes(b"\x00\x01")
    assert (await read(ws, of_type("error")))["code"] == "malformed"
    assert web.service.info(table).version == version
    # a burst past the budget is refused too, answered once (tests/web/test_hostile.py)


async def test_forged_expired_and_foreign_links_are_refused(web: Web) -> None:
    table = await open_table(web)
    key = web.key()
    payload, mac = key.split(".")
    forged = f"{payload}.{'A' * len(mac)}"
    for bad, code in ((forged, "forged"), ("garbage", "forged"), ("", "forged"),
                      (web.key(user=8), "seat"), (web.key(table=table + 50), "table")):
        ws = await web.join(bad)
        error = await read(ws, of_type("error"))
        assert error["code"] == code and error.get("fatal"), bad
    expired = web.key(ttl=60)
    web.clock.now += 61
    ws = await web.join(expired)
    error = await read(ws, of_type("error"))
    assert error["code"] == "expired" and "expired" in error["text"]
    # the first frame must be a join
    ws = await web.connect()
    await ws.send_str(json.dumps({"v": 1, "type": "act", "version": 0, "action": {}}))
    assert (await read(ws, of_type("error")))["code"] == "join"


async def test_another_origin_cannot_open_a_socket(web: Web) -> None:
    await open_table(web)
    try:
        await web.connect(origin="https://evil.example")
    except Exception as exc:  # the handshake is refused with 403
        assert "403" in str(exc)
    else:
        raise AssertionError("a foreign origin opened a socket")


async def test_a_removed_players_link_stops_working(web: Web) -> None:
    table = await open_table(web, start=False)
    await web.service.clear_seat(table, 1)
    await web.service.join(table, 42, "Gus", seat=1)
    key = web.key(user=42)
    ws = await web.join(key)
    assert (await read(ws, of_type("hello")))["seat"] == 1
    await read(ws, of_type("lobby"))
    await web.service.clear_seat(table, 1)
    closed = await read(ws, of_type("closed"))
    assert closed["text"]
    again = await web.join(key)
    assert (await read(again, of_type("error")))["code"] == "seat"


async def test_the_page_is_served_with_a_strict_policy(web: Web) -> None:
    response = await web.client.get("/")
    policy = response.headers["Content-Security-Policy"]
    assert "default-src 'none'" in policy and "connect-src 'self'" in policy
    assert "http" not in policy  # no other origin
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["Server"] == "tricktable"  # no software versions (N4)
    ws = await web.client.ws_connect("/ws", headers={
        "Origin": f"http://{web.client.host}:{web.client.port}"})
    assert ws._response.headers["Server"] == "tricktable"
    await ws.close()
    assert HUMAN == 7


async def test_the_page_speaks_the_viewers_language(web: Web) -> None:
    """Every sentence of the frames is in the viewer's language (here Swahili): labels,
    seats, facts, choices, event lines — no English phrase of the catalog left over."""
    from bot.i18n.leftovers import english_leftovers

    async def swahili(user: int) -> str:
        return "sw"

    web.config.language = swahili
    await open_table(web)
    ws = await web.join()
    seen: list[dict[str, Any]] = []
    hello = await read(ws, of_type("hello"), seen)
    assert hello["language"] == "sw"
    turn = await read(ws, my_turn, seen)
    await ws.send_str(json.dumps({"v": 1, "type": "act", "version": turn["version"],
                                  "action": turn["choices"][0]["action"]}))
    await read(ws, lambda f: f["type"] == "line", seen)
    text = "\n".join(json.dumps(f, ensure_ascii=False) for f in seen)
    assert english_leftovers(text, "sw") == []
    assert english_leftovers("Your turn: choose with the buttons (Tab, Enter or a click).",
                             "sw")  # the check does see English
    assert hello["labels"]["trump"] != "Trump"


async def test_the_turn_sentence_is_the_webs_own(web: Web) -> None:
    """The page's turn sentences (a card to tap, or a decision below) are the web's own, in
    every language, not the terminal's keyboard sentence."""
    from bot.i18n import translator
    from bot.words.table_state import YOUR_TURN_CARD, YOUR_TURN_CHOOSE

    await open_table(web)
    terminal = "Your turn: choose with the buttons (Tab, Enter or a click)."
    for language in ("en", "so", "id", "sw"):
        async def speaks(user: int, language: str = language) -> str:
            return language

        web.config.language = speaks
        labels = (await read(await web.join(), of_type("hello")))["labels"]
        t = translator(language)
        assert labels["your_turn"] == t.gettext(YOUR_TURN_CARD)
        assert labels["your_turn_choose"] == t.gettext(YOUR_TURN_CHOOSE)
        assert t.gettext(terminal) not in (labels["your_turn"], labels["your_turn_choose"])
        if language != "en":  # translated, not the English source
            assert labels["your_turn"] != YOUR_TURN_CARD
            assert labels["your_turn_choose"] != YOUR_TURN_CHOOSE


async def test_ai_seats_without_names_are_told_apart_in_the_viewers_language(web: Web) -> None:
    """AI seats added without a name (a Discord lobby's, a duplicate board's) read ``AI n
    (level)`` after their seat, the level in players' words (``easy``, never the engine's
    ``rules`` or ``search``), translated; the seat label says the level once. An AI with its
    own name keeps it and is named ``Bilal, AI (easy)``."""
    from bot.i18n import translator
    from bot.service import Seat
    from storage import TerminalLocation

    seats: list[Seat | None] = [Seat.human(HUMAN, "Ann"), Seat.ai("rules"),
                                Seat.ai("random"), Seat.ai("search", "Bilal")]
    web.table = await web.service.create_table(
        TerminalLocation("web:ai-names"), "turup", seats=seats, players=4, seed=5,
        ai_pace=0, turn_timeout=0, start=False)
    for language in ("en", "so", "sw"):
        async def speaks(user: int, language: str = language) -> str:
            return language

        web.config.language = speaks
        t = translator(language)
        easy, random = t.pgettext("AI strength", "easy"), t.pgettext("AI strength", "random")
        strong = t.pgettext("AI strength", "strong")
        ws = await web.join()
        lobby = await read(ws, of_type("lobby", "table"))
        names = lobby["seats"] if lobby["type"] == "lobby" else [
            s["name"] for s in lobby["seats"]]
        ai = t.gettext("AI {number} ({level})")
        assert names == ["Ann", ai.format(number=1, level=easy),
                         ai.format(number=2, level=random), "Bilal"]
        if language == "en":
            await web.service.start_match(web.table)
        table = await read(ws, of_type("table"))
        labels = [s["label"] for s in table["seats"]]
        players = [s["player"] for s in table["seats"]]
        assert len(set(s["name"] for s in table["seats"])) == 4
        assert labels[1] == ai.format(number=1, level=easy)
        assert labels[2].startswith(ai.format(number=2, level=random) + " ")
        assert labels[2].count(random) == 1 and t.gettext("(partner)") in labels[2]
        assert players[3] == t.gettext("{name}, AI ({level})").format(name="Bilal",
                                                                       level=strong)
        text = json.dumps(table, ensure_ascii=False)
        assert "AI (rules)" not in text and "AI (random)" not in text
        assert "search" not in text and "rules" not in text
        if language == "en":
            assert labels[2] == "AI 2 (random) (partner)"
            assert players[3] == "Bilal, AI (strong)"
        else:  # the level words are the language's own
            assert strong != "strong" and easy != "easy"
