"""The web table from Discord (issue 38, item 5), through the fake Discord and the real web
application (aiohttp's test client):

* the private hand panel (**My hand** and the hand DM) carries **Open in browser**: the
  player's seat link of that table, expiring, made anew when the panel is redrawn — and
  it costs no request of its own (the REST budget of a card holds with it);
* ``/table watch`` gives anyone in the channel a private **Watch** link (the public view);
* a seat acts from the page and from Discord in turn, and both show the same state;
* a player removed from the lobby: their old link opens nothing.
"""

from __future__ import annotations

import json
import random
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from aiohttp import ClientWebSocketResponse
from aiohttp.test_utils import TestClient, TestServer
from app_fixture import App, start_app
from discord_helpers import controls, my_hand, open_table, take_turn, versions
from fakediscord import Harness
from fakediscord.models import StoredMessage
from rest_budget import human_card_budget
from webtable import Clock, my_turn, of_type, read

from bot.discord_bot.tables.web_lobby import bind_web
from bot.discord_bot.tables.web_table import MAX_URL, link_button
from bot.web import links
from bot.web.config import WebConfig
from bot.web.presence import Presence
from bot.web.server import WebServer, create_app
from bot.words.cards import hand_lines

SECRET = b"w" * 32
PUBLIC = "https://tables.example"


@dataclass
class Served:
    """The bot on the fake Discord with its web table bound (links of ``PUBLIC``) and the
    same application in aiohttp's test server (where the tests open the sockets)."""

    app: App
    config: WebConfig
    clock: Clock
    page: TestClient[Any, Any]

    async def join(self, url: str) -> ClientWebSocketResponse:
        """Open the page's socket with the key of a link ``url`` (its ``#k=`` part)."""
        host = f"http://{self.page.host}:{self.page.port}"
        ws = await self.page.ws_connect("/ws", headers={"Origin": host})
        await ws.send_str(json.dumps({"v": 1, "type": "join", "key": key_of(url)}))
        return ws


@pytest.fixture
async def served(fake_discord: Harness, tmp_path: Path) -> AsyncIterator[Served]:
    app = await start_app(fake_discord, tmp_path)
    clock = Clock()
    config = WebConfig(secret=SECRET, clock=clock)
    assert app.bot.hub is not None
    bind_web(app.bot, app.bot.hub, WebServer(app.service, config, public_url=PUBLIC))
    page: TestClient[Any, Any] = TestClient(TestServer(create_app(app.service, config)))
    await page.start_server()
    try:
        yield Served(app, config, clock, page)
    finally:
        await page.close()


def link_buttons(message: StoredMessage) -> list[dict[str, Any]]:
    return [c for c in message.walk_components() if c.get("style") == 5]


def key_of(url: str) -> str:
    assert url.startswith(f"{PUBLIC}/#k="), url
    return url.split("#k=", 1)[1]


def browser_link(message: StoredMessage) -> str:
    """The URL of the panel's one **Open in browser** button."""
    [button] = link_buttons(message)
    assert button["label"] == "Open in browser"
    assert len(button["url"]) <= MAX_URL
    return str(button["url"])


async def _at_turn(app: App, table_id: int, seat: int) -> None:
    await app.harness.wait_until(
        lambda: seat in app.service.info(table_id).to_act or None,
        what=f"seat {seat}'s turn")


async def test_the_hand_panel_carries_the_seats_expiring_browser_link(
        served: Served, fake_discord: Harness) -> None:
    app, clock = served.app, served.clock
    alice = fake_discord.user("alice")
    table_id, public = await open_table(app, alice, "turup", ais=3)
    seat = app.service.seat_of(table_id, alice.id)
    assert seat is not None
    dm = await fake_discord.wait_until(
        lambda: next((m for m in alice.dms if f"table {table_id}," in m.content), None),
        what="alice's hand DM")
    first = links.verify(SECRET, key_of(browser_link(dm)), clock.now)
    assert (first.table, first.user, first.role) == (table_id, alice.id, "seat")
    assert first.expires == int(clock.now) + links.DEFAULT_TTL
    panel = await my_hand(alice, public, table_id)
    shown = links.verify(SECRET, key_of(browser_link(panel)), clock.now)
    assert (shown.table, shown.user, shown.role) == (table_id, alice.id, "seat")
    # a day later the DM's link has expired; the panel drawn now carries a working one
    clock.now += links.DEFAULT_TTL + 60
    with pytest.raises(links.BadLink) as expired:
        links.verify(SECRET, key_of(browser_link(dm)), clock.now)
    assert expired.value.code == "expired"
    again = await my_hand(alice, public, table_id)
    renewed = links.verify(SECRET, key_of(browser_link(again)), clock.now)
    assert renewed.expires == int(clock.now) + links.DEFAULT_TTL
    ws = await served.join(browser_link(again))
    assert (await read(ws, of_type("hello", "error")))["seat"] == seat
    await ws.close()
    # the table message is public: no one's seat link on it
    assert not link_buttons(fake_discord.server.message(public.id))


async def test_without_the_web_table_the_panel_has_no_link(fake_discord: Harness,
                                                           tmp_path: Path) -> None:
    app = await start_app(fake_discord, tmp_path)
    alice = fake_discord.user("alice")
    table_id, public = await open_table(app, alice, "turup", ais=3)
    assert not link_buttons(await my_hand(alice, public, table_id))


def test_a_link_longer_than_discord_allows_is_left_out() -> None:
    assert link_button(f"{PUBLIC}/#k=" + "a" * 100, "Open in browser") is not None
    assert link_button(PUBLIC + "/" + "a" * MAX_URL, "Open in browser") is None


async def test_the_link_costs_no_request_of_its_own(served: Served, fake_discord: Harness,
                                                    monkeypatch: pytest.MonkeyPatch,
                                                    tmp_path: Path) -> None:
    """The REST budget test of a human's cards (tests/bot/test_discord_rest_budget.py),
    run with the web table bound: its counts hold with the link on every DM, and a redraw
    asked for a state the panel shows costs nothing though its link would differ."""
    await fake_discord.stop_bot(served.app.bot)  # the budget test starts its own bot

    async def start_served(*args: Any, **kwargs: Any) -> App:
        app = await start_app(*args, **kwargs)
        assert app.bot.hub is not None
        bind_web(app.bot, app.bot.hub, WebServer(app.service, served.config,
                                                 public_url=PUBLIC))
        return app

    (tmp_path / "budget").mkdir()
    await human_card_budget(fake_discord, tmp_path / "budget", 2.0, start=start_served)
    server = fake_discord.server
    panels = [m for channel in server.dm_channels.values() for m in server.messages(channel)
              if controls(m)]
    assert panels and all(browser_link(m) for m in panels)


async def test_watch_gives_anyone_a_private_public_view_link(served: Served,
                                                             fake_discord: Harness) -> None:
    app = served.app
    alice, carol = fake_discord.user("alice"), fake_discord.user("carol")
    table_id, _ = await open_table(app, alice, "turup", ais=3)
    r = await carol.slash("table", "watch")
    assert r.ephemeral and "public view" in r.content and "12 hours" in r.content
    assert r.message is not None
    [button] = link_buttons(r.message)
    assert button["label"] == "Watch"
    p = links.verify(SECRET, key_of(button["url"]), served.clock.now)
    assert (p.table, p.user, p.role) == (table_id, carol.id, "watch")
    ws = await served.join(button["url"])
    assert (await read(ws, of_type("hello")))["seat"] is None
    frame = await read(ws, of_type("table"))
    assert frame["hand"] == [] and frame["choices"] == []
    await ws.close()
    # a seated player gets the public view too: watching is not playing
    r = await alice.slash("table", "watch")
    assert r.message is not None
    [button] = link_buttons(r.message)
    assert links.verify(SECRET, key_of(button["url"]), served.clock.now).role == "watch"


async def test_watch_without_a_table_or_a_web_table_says_so(fake_discord: Harness,
                                                            tmp_path: Path) -> None:
    app = await start_app(fake_discord, tmp_path)
    carol = fake_discord.user("carol")
    r = await carol.slash("table", "watch")
    assert r.ephemeral and r.content.endswith("This bot does not serve the table on the web.")
    assert app.bot.hub is not None
    bind_web(app.bot, app.bot.hub, WebServer(app.service, WebConfig(secret=SECRET),
                                             public_url=PUBLIC))
    r = await carol.slash("table", "watch")
    assert r.ephemeral and "There is no open table in this channel" in r.content
    assert r.message is not None and not link_buttons(r.message)


def _shows(panel: StoredMessage, hand: list[str]) -> bool:
    """The panel shows exactly ``hand``."""
    return f"({len(hand)} card" in panel.content and all(
        line in panel.content for line in hand_lines(hand))


async def test_a_seat_plays_from_the_page_and_from_discord_and_both_agree(
        served: Served, fake_discord: Harness) -> None:
    app = served.app
    alice = fake_discord.user("alice")
    table_id, public = await open_table(app, alice, "turup", ais=3)
    seat = app.service.seat_of(table_id, alice.id)
    assert seat is not None
    await _at_turn(app, table_id, seat)
    ws = await served.join(browser_link(await my_hand(alice, public, table_id)))
    seen: list[dict[str, Any]] = []

    def current(f: dict[str, Any]) -> bool:
        return bool(f["type"] == "table" and f["version"] == app.service.info(table_id).version)

    played_on_page = None
    while played_on_page is None:  # trump and kort questions on the way are answered too
        turn = await read(ws, lambda f: my_turn(f) and current(f), seen)
        choice = next((c for c in turn["choices"] if c["card"]), turn["choices"][0])
        await ws.send_str(json.dumps({"v": 1, "type": "act", "version": turn["version"],
                                      "action": choice["action"]}))
        played_on_page = choice["card"]
    # Discord shows what the page did: the hand without that card, the same turn
    frame = await read(ws, lambda f: my_turn(f) and current(f)
                       and f["version"] > turn["version"], seen)
    hand = list(app.service.view(table_id, seat)["hand"])
    assert frame["hand"] == hand
    assert played_on_page not in hand or turn["hand"].count(played_on_page) > 1
    panel = await my_hand(alice, public, table_id)
    assert _shows(panel, frame["hand"]) and versions(panel) == {frame["version"]}
    # now a card from Discord; the page follows
    rng = random.Random(3)

    def plays(c: dict[str, Any]) -> bool:
        return c["type"] == 3 and '"play"' in c["options"][0]["value"]

    for _ in range(6):  # a decision that is not a card may come first
        picked = any(plays(c) for c in controls(panel))
        r = await take_turn(alice, panel, rng, prefer=plays)
        assert r.message is not None
        panel = r.message
        if picked:
            break
        await _at_turn(app, table_id, seat)
        panel = await my_hand(alice, public, table_id)
    before = frame["version"]
    frame = await read(ws, lambda f: my_turn(f) and current(f) and f["version"] > before,
                       seen)
    hand = list(app.service.view(table_id, seat)["hand"])
    assert frame["hand"] == hand and len(hand) < len(turn["hand"]) - 1

    def live() -> StoredMessage | None:
        shown = fake_discord.server.message(panel.id)
        ok = _shows(shown, hand) and versions(shown) == {frame["version"]}
        return shown if ok else None

    await fake_discord.wait_until(live, what="the Discord panel showing the page's state")
    assert any(f["type"] == "line" for f in seen)  # the page told the cards in words
    await ws.close()


async def test_a_removed_players_link_opens_nothing(served: Served,
                                                    fake_discord: Harness) -> None:
    app = served.app
    fake_discord.server.activities.enabled = False  # Open table: the browser link
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    table_id, lobby = await open_table(app, alice, "turup", others=(bob,), start=False)
    seat = app.service.seat_of(table_id, bob.id)
    assert seat is not None
    r = await bob.click(lobby, f"tt:w:{table_id}:0:")
    assert r.message is not None
    [button] = link_buttons(r.message)
    url = str(button["url"])
    assert links.verify(SECRET, key_of(url), served.clock.now).role == "seat"
    ws = await served.join(url)
    assert (await read(ws, of_type("hello")))["seat"] == seat
    removed = await alice.slash("table", "remove", seat=seat)
    assert removed.ephemeral and f"Seat {seat} is free." in removed.content
    closed = await read(ws, of_type("closed"))
    assert closed["text"] == "You no longer sit at this table."
    await ws.close()
    again = await served.join(url)
    error = await read(again, of_type("error", "hello"))
    assert error["type"] == "error" and error["code"] == "seat" and error["fatal"]
    await again.close()





async def test_the_table_message_names_who_is_on_the_web(served: Served,
                                                         fake_discord: Harness) -> None:
    """Issue 39: the table message lists the users with a socket on the table (two tabs
    of one user are one name) and no longer once their last socket closes."""
    app = served.app
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    table_id, lobby = await open_table(app, alice, "turup", ais=2, start=False)
    server = fake_discord.server
    watcher = links.issue(SECRET, table_id, bob.id, "watch", served.clock.now)
    url = f"{PUBLIC}/#k={watcher}"
    tabs = [await served.join(url), await served.join(url)]
    for ws in tabs:
        assert (await read(ws, of_type("hello")))["seat"] is None
    line = f"🌐 On the web: <@{bob.id}>"

    def content() -> str:
        return server.message(lobby.id).content or ""

    await fake_discord.wait_until(lambda: line in content() or None,
                                  what="the table message naming bob")
    assert content().count(f"<@{bob.id}>") == 1
    for ws in tabs:
        await ws.close()
    await fake_discord.wait_until(lambda: "On the web" not in content() or None,
                                  what="the table message without bob")


def test_presence_changes_only_with_the_set_of_users() -> None:
    """A user's second tab or its closing is no change (no redraw of the table message);
    their last socket closing is."""
    presence = Presence()
    changed: list[int] = []
    presence.on_change = changed.append
    presence.enter(7, 1)
    presence.enter(7, 1)
    presence.enter(7, 2)
    assert presence.users(7) == (1, 2) and changed == [7, 7]
    presence.leave(7, 1)
    assert presence.users(7) == (1, 2) and changed == [7, 7]
    presence.leave(7, 1)
    presence.leave(7, 1)  # one too many: ignored
    assert presence.users(7) == (2,) and changed == [7, 7, 7]
    presence.leave(7, 2)
    assert presence.users(7) == () and changed == [7, 7, 7, 7]


def actions(frame: dict[str, Any]) -> list[str]:
    return [a["do"] for a in frame.get("actions", [])]


async def test_a_watcher_joins_adds_ai_and_only_the_host_or_a_manager_starts(
        served: Served, fake_discord: Harness) -> None:
    """Issue 39: from the web (the Activity's socket is the same viewer), anyone may take a
    lobby's free seat or add an AI player; starting takes the host or Manage Server, as in
    Discord — a refusal in words that changes nothing; the buttons offered follow."""
    app = served.app
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    carol = fake_discord.user("carol", manager=True)
    table_id, lobby = await open_table(app, alice, "turup", ais=1, start=False)
    server = fake_discord.server

    def watch(user_id: int) -> str:
        return f"{PUBLIC}/#k={links.issue(SECRET, table_id, user_id, 'watch', served.clock.now)}"

    ws = await served.join(watch(bob.id))
    assert (await read(ws, of_type("hello")))["seat"] is None
    first = await read(ws, of_type("lobby"))
    assert actions(first) == ["join", "add_ai"]
    assert [a["label"] for a in first["actions"]] == ["Join", "Add AI: rules"]
    await ws.send_str(json.dumps({"v": 1, "type": "lobby_act", "do": "join"}))
    hello = await read(ws, of_type("hello"))
    seat = app.service.seat_of(table_id, bob.id)
    assert seat is not None and hello["seat"] == seat
    assert actions(await read(ws, of_type("lobby"))) == ["add_ai"]
    await fake_discord.wait_until(
        lambda: f"`{seat}` <@{bob.id}>" in (server.message(lobby.id).content or "") or None,
        what="the table message showing bob seated")
    await ws.send_str(json.dumps({"v": 1, "type": "lobby_act", "do": "add_ai"}))
    full = await read(ws, lambda f: f["type"] == "lobby" and "add_ai" not in actions(f))
    assert actions(full) == []  # bob did not open the table and has no Manage Server
    assert all(s is not None for s in app.service.info(table_id).seats)
    await ws.send_str(json.dumps({"v": 1, "type": "lobby_act", "do": "start"}))
    refused = await read(ws, of_type("refused"))
    assert refused["text"] == ("Only the player who opened the table or a member with "
                               "Manage Server can start it.")
    assert app.service.info(table_id).status == "lobby"
    # a member with Manage Server (not cached by the bot: read from Discord) may start
    manager = await served.join(watch(carol.id))
    assert actions(await read(manager, of_type("lobby"))) == ["start"]
    await manager.send_str(json.dumps({"v": 1, "type": "lobby_act", "do": "start"}))
    await fake_discord.wait_until(
        lambda: app.service.info(table_id).status == "playing" or None,
        what="the match started from the web")
    table = await read(ws, lambda f: f["type"] == "table" and bool(f["hand"]))
    assert "??" not in table["hand"]  # bob's page is his seat's now
    assert [s["seat"] for s in table["seats"] if s["you"]] == [seat]
    for socket in (ws, manager):
        await socket.close()


async def test_the_host_starts_from_the_web_and_a_bad_lobby_frame_changes_nothing(
        served: Served, fake_discord: Harness) -> None:
    app = served.app
    alice = fake_discord.user("alice")
    table_id, _ = await open_table(app, alice, "turup", ais=3, start=False)
    key = links.issue(SECRET, table_id, alice.id, "seat", served.clock.now)
    ws = await served.join(f"{PUBLIC}/#k={key}")
    assert actions(await read(ws, of_type("lobby"))) == ["start"]
    await ws.send_str(json.dumps({"v": 1, "type": "lobby_act", "do": "close"}))
    error = await read(ws, of_type("error"))
    assert error["code"] == "malformed"
    await ws.send_str(json.dumps({"v": 1, "type": "lobby_act", "do": "join"}))
    assert "already" in (await read(ws, of_type("refused")))["text"].lower()
    assert app.service.info(table_id).status == "lobby"
    await ws.send_str(json.dumps({"v": 1, "type": "lobby_act", "do": "start"}))
    await read(ws, lambda f: f["type"] == "table" and f["status"] == "playing")
    await ws.close()


async def test_a_table_played_on_the_web_is_edited_once_a_deal_then_live_from_discord(
        served: Served, fake_discord: Harness) -> None:
    """Issue 48: while alice (the one human) plays on the page, the table message shows
    who plays and the score, and is edited at the deal's end only, with the deal's result
    in that edit (no result message); her hand DM says once that she plays on the web and
    is not redrawn turn by turn, and no DM is sent for the next deal. **Play here** on the
    DM brings the live drawing back: her panel with its controls, the table message with
    the cards."""
    app = served.app
    server = fake_discord.server
    alice = fake_discord.user("alice")
    table_id, public = await open_table(app, alice, "turup", ais=3)
    seat = app.service.seat_of(table_id, alice.id)
    assert seat is not None
    await _at_turn(app, table_id, seat)
    dm = await fake_discord.wait_until(
        lambda: next((m for m in alice.dms if f"table {table_id}," in m.content), None),
        what="alice's hand DM")
    key = links.issue(SECRET, table_id, alice.id, "seat", served.clock.now)
    ws = await served.join(f"{PUBLIC}/#k={key}")

    def table_message() -> str:
        return server.message(public.id).content or ""

    await fake_discord.wait_until(lambda: "Played on the web" in table_message() or None,
                                  what="the table message of a table played on the web")
    await fake_discord.wait_until(
        lambda: "playing deal 1" in server.message(dm.id).content or None,
        what="the DM saying alice plays on the web")
    assert "Last tricks" not in table_message() and "To act" not in table_message()
    seq = server.requests[-1].seq
    channel, dm_channel = str(public.channel_id), str(alice.dm_channel.id)
    deal = app.service.info(table_id).deal
    cards = 0
    while app.service.info(table_id).deal == deal:  # alice plays a whole deal on the page
        turn = await read(ws, lambda f: my_turn(f) and f["version"]
                          == app.service.info(table_id).version)
        choice = next((c for c in turn["choices"] if c["card"]), turn["choices"][0])
        await ws.send_str(json.dumps({"v": 1, "type": "act", "version": turn["version"],
                                      "action": choice["action"]}))
        cards += bool(choice["card"])
        await app.service.settle()
    assert cards >= 5, cards
    over = f"of table {table_id} is over"
    await fake_discord.wait_until(lambda: over in table_message() or None,
                                  what="the deal's result in the table message")
    await app.service.settle()
    await fake_discord.settle()
    counted = server.counted(since=seq)
    table_edits = [r for r in counted if r.params.get("channel_id") == channel
                   and r.method == "PATCH"]
    # one edit, at the deal's end (not per card)
    assert len(table_edits) == 1, [r.json.get("content") for r in table_edits]
    assert not [r for r in counted if r.params.get("channel_id") == channel
                and r.method == "POST"]  # the result is in the table message
    assert not [r for r in counted if r.params.get("channel_id") == dm_channel]
    # Play here: alice plays from Discord again
    play_here = next(c["custom_id"] for c in server.message(dm.id).walk_components()
                     if c.get("label") == "Play here")
    r = await alice.click(server.message(dm.id), play_here)
    assert r.type == 7 and r.message is not None and "Your hand" in r.message.content
    await fake_discord.wait_until(lambda: "Played on the web" not in table_message() or None,
                                  what="the table message drawn live again")
    await fake_discord.wait_until(
        lambda: next((m for m in alice.dms if f"deal {deal + 2}" in m.content), None),
        what="the deal's DM, sent now that alice plays from Discord")
    await ws.close()
