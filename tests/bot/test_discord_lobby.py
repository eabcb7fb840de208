"""The lobby end to end: /table new, Join, Add AI, Start, one table per channel."""

from __future__ import annotations

from pathlib import Path

from app_fixture import start_app
from fakediscord import Harness, InteractionResult, SimulatedUser, StoredMessage


async def test_open_join_add_ai_start(fake_discord: Harness, tmp_path: Path) -> None:
    app = await start_app(fake_discord, tmp_path)
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    opened = await alice.slash("table", "new", game="turup")
    lobby = await opened.wait_filled()
    assert "Turup" in lobby.content and f"<@{alice.id}>" in lobby.content
    join = next(c for c in lobby.custom_ids() if c.endswith(":join"))
    r = await bob.click(lobby, join)
    assert r.type == 7 and f"<@{bob.id}>" in r.message.content
    ai = next(c for c in lobby.custom_ids() if c.endswith(":ai:rules"))
    await alice.click(lobby, ai)
    await alice.click(lobby, ai)
    start = next(c for c in lobby.custom_ids() if c.endswith(":start"))
    r = await bob.click(lobby, start)
    assert r.ephemeral and "Only the player who opened" in r.content
    r = await alice.click(lobby, start)
    assert r.type == 7 and "deal 1" in r.message.content
    again = await bob.slash("table", "new", game="tarabish")
    assert again.ephemeral and "already a table" in again.content
    assert str(lobby.id) in again.content  # a link to the existing table
    [table_id] = app.service.table_ids()
    info = app.service.info(table_id)
    assert info.status == "playing" and sum(s is not None and s.is_ai for s in info.seats) == 2


async def test_leave_remove_and_arrange(fake_discord: Harness, tmp_path: Path) -> None:
    app = await start_app(fake_discord, tmp_path)
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    opened = await alice.slash("table", "new", game="turup")
    lobby = await opened.wait_filled()
    [table_id] = app.service.table_ids()
    r = await bob.slash("table", "join")
    assert r.ephemeral and "seat 1" in r.content
    r = await bob.click(lobby, f"tt:l:{table_id}:0:leave")
    assert r.type == 7 and f"<@{bob.id}>" not in r.message.content
    await bob.click(lobby, f"tt:l:{table_id}:0:join")
    await alice.click(lobby, f"tt:l:{table_id}:0:ai:rules")
    r = await bob.slash("table", "remove", seat=2)
    assert r.ephemeral and "Only the host" in r.content
    r = await alice.slash("table", "arrange", order="0 2 1 3")  # bob to the partner seat
    assert "rearranged" in r.content
    seats = app.service.info(table_id).seats
    assert seats[2] is not None and seats[2].user_id == bob.id
    assert seats[1] is not None and seats[1].is_ai
    r = await alice.slash("table", "remove", seat=1)
    assert "free" in r.content and app.service.info(table_id).seats[1] is None
    r = await alice.slash("table", "arrange", order="0 1")
    assert r.ephemeral and "every seat" in r.content
    await fake_discord.wait_until(
        lambda: "`1` — (team B)" in fake_discord.server.message(lobby.id).content or None,
        what="the lobby redrawn")


async def test_table_ai_seats_an_ai_of_the_chosen_level(fake_discord: Harness,
                                                        tmp_path: Path) -> None:
    app = await start_app(fake_discord, tmp_path)
    alice = fake_discord.user("alice")
    opened = await alice.slash("table", "new", game="tarabish")
    lobby = await opened.wait_filled()
    [table_id] = app.service.table_ids()
    r = await alice.slash("table", "ai", level="search", seat=2)
    assert r.ephemeral and "An AI (search) sits at seat 2" in r.content
    r = await alice.slash("table", "ai")
    assert "An AI (rules) sits at seat 1" in r.content
    r = await alice.slash("table", "ai", seat=2)  # taken: refused, nothing changes
    assert r.ephemeral
    seats = app.service.info(table_id).seats
    assert [None if s is None else s.level for s in seats] == [None, "rules", "search", None]
    await fake_discord.wait_until(
        lambda: "search" in fake_discord.server.message(lobby.id).content or None,
        what="the lobby shows the search AI")


async def test_lobby_add_ai_buttons_seat_each_level(fake_discord: Harness,
                                                    tmp_path: Path) -> None:
    app = await start_app(fake_discord, tmp_path)
    alice = fake_discord.user("alice")
    opened = await alice.slash("table", "new", game="turup")
    lobby = await opened.wait_filled()
    [table_id] = app.service.table_ids()
    buttons = [c for c in lobby.walk_components() if ":ai:" in str(c.get("custom_id", ""))]
    assert [b["custom_id"].rsplit(":", 1)[1] for b in buttons] == ["search", "rules", "random"]
    assert all(b["label"].startswith("Add AI") for b in buttons)
    r = await alice.click(lobby, f"tt:l:{table_id}:0:ai:search")
    assert r.type == 7 and "search" in r.message.content
    await alice.click(lobby, f"tt:l:{table_id}:0:ai:random")
    levels = [None if s is None else s.level for s in app.service.info(table_id).seats]
    assert levels == [None, "search", "random", None]
    # a lobby drawn by an older version of the bot had one "Add AI" button: a rules AI
    fake_discord.server.message(lobby.id).payload["components"].append(
        {"type": 1, "components": [{"type": 2, "style": 2, "label": "Add AI",
                                    "custom_id": f"tt:l:{table_id}:0:ai"}]})
    await alice.click(lobby, f"tt:l:{table_id}:0:ai")
    assert app.service.info(table_id).seats[3] is not None
    assert app.service.info(table_id).seats[3].level == "rules"


async def _number_form(user: SimulatedUser, lobby: StoredMessage, table_id: int,
                       option: str) -> InteractionResult:
    """``user`` presses **Options**, picks ``option`` and presses **Enter …**: the open
    form."""
    panel = await user.click(lobby, f"tt:o:{table_id}:0:open")
    assert panel.ephemeral and panel.message is not None, panel.content
    picked = await user.select(panel.message, f"tt:o:{table_id}:0:pick", [option])
    assert picked.message is not None
    form = await user.click(picked.message, f"tt:o:{table_id}:0:num:{option}")
    assert form.modal is not None, form.content
    return form


async def test_two_members_options_forms_each_set_their_own_option(
        fake_discord: Harness, tmp_path: Path) -> None:
    """Security review P6: the host's and a manager's number forms are open at once on one
    lobby; each submission sets the option of its own form, and neither is dropped."""
    app = await start_app(fake_discord, tmp_path)
    alice, olga = fake_discord.user("alice"), fake_discord.user("olga", manager=True)
    opened = await alice.slash("table", "new", game="albastini")
    lobby = await opened.wait_filled()
    [table_id] = app.service.table_ids()
    alices = await _number_form(alice, lobby, table_id, "target_vp")
    olgas = await _number_form(olga, lobby, table_id, "session_games")
    assert alices.modal is not None and olgas.modal is not None
    assert alices.modal["custom_id"] != olgas.modal["custom_id"]
    done = await alice.submit_modal(alices, {"value": "3"})
    assert done.type == 7 and "Target" in done.content and "is now **3**" in done.content
    assert app.service.info(table_id).options == {"target_vp": 3}
    done = await olga.submit_modal(olgas, {"value": "4"})
    assert done.type == 7 and "is now **4**" in done.content, done.content
    assert app.service.info(table_id).options == {"target_vp": 3, "session_games": 4}


async def test_a_forged_options_form_submission_is_refused_and_keeps_the_hosts_form(
        fake_discord: Harness, tmp_path: Path) -> None:
    """[forged] A member without rights submits the host's open form (its ``custom_id``):
    refused privately, nothing changes, and the host's own submission still lands."""
    app = await start_app(fake_discord, tmp_path)
    alice, mallory = fake_discord.user("alice"), fake_discord.user("mallory")
    opened = await alice.slash("table", "new", game="albastini")
    lobby = await opened.wait_filled()
    [table_id] = app.service.table_ids()
    alices = await _number_form(alice, lobby, table_id, "target_vp")
    forged = await mallory.submit_modal(alices, {"value": "999"})
    assert forged.ephemeral and "opened by another member" in forged.content
    assert app.service.info(table_id).options == {}
    done = await alice.submit_modal(alices, {"value": "7"})
    assert done.type == 7 and "is now **7**" in done.content, done.content
    assert app.service.info(table_id).options == {"target_vp": 7}


async def test_setting_a_number_back_to_its_default_names_the_value(
        fake_discord: Harness, tmp_path: Path) -> None:
    """Security review L6: the answer shows the value in force, not "none", when the new
    value is the default (which the stored options omit)."""
    app = await start_app(fake_discord, tmp_path)
    alice = fake_discord.user("alice")
    opened = await alice.slash("table", "new", game="albastini")
    lobby = await opened.wait_filled()
    [table_id] = app.service.table_ids()
    done = await alice.submit_modal(await _number_form(alice, lobby, table_id, "target_vp"),
                                    {"value": "3"})
    assert "is now **3**" in done.content
    done = await alice.submit_modal(await _number_form(alice, lobby, table_id, "target_vp"),
                                    {"value": "5"})  # the default
    assert "is now **5**" in done.content and "none" not in done.content.split("\n")[1]
    assert app.service.info(table_id).options == {}
