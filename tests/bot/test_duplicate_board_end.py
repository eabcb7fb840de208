"""A duplicate board ends on every display at once, in every game: when the board's deal
is scored, the table message in the board's thread, each hand DM and each live **My hand**
panel show the board's end (its result and where the reveal comes) with no control, and no
later edit brings back an older drawing (docs/duplicate.md, "The board's end")."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

import pytest
from app_fixture import start_app
from discord_helpers import play_until
from fakediscord import Harness
from fakediscord.client import SimulatedUser
from fakediscord.models import StoredMessage

from games.registry import GAMES

PAIRS = {"turup", "tarabish", "arbaa_turub"}
OVER = "board 1 is over.**"


def _versions(message: StoredMessage) -> list[dict[str, Any]]:
    return [*message.history, message.payload]


def _controls(payload: dict[str, Any]) -> list[str]:
    found: list[str] = []
    stack = list(payload.get("components", []))
    while stack:
        c = stack.pop()
        if "custom_id" in c:
            found.append(str(c["custom_id"]))
        stack += c.get("components", [])
    return found


def _ends_final(message: StoredMessage, what: str) -> None:
    """The message's last version is the board's end, with no control, and no version
    after the first final one is anything else."""
    versions = _versions(message)
    last = versions[-1]
    assert OVER in str(last.get("content")), (what, last.get("content"))
    assert _controls(last) == [], (what, _controls(last))
    first = next(i for i, v in enumerate(versions) if OVER in str(v.get("content")))
    assert all(OVER in str(v.get("content")) for v in versions[first:]), what


@pytest.mark.parametrize("game", sorted(GAMES))
async def test_a_board_ends_on_every_display(fake_discord: Harness, tmp_path: Any,
                                             game: str) -> None:
    h = fake_discord
    app = await start_app(h, tmp_path, ai_budget_ms=3)
    mona, ann, bo = h.user("mona", manager=True), h.user("ann"), h.user("bo")
    created = await mona.slash("duplicate", "create", name="Night", game=game, boards=1,
                               closes="2030-01-01 20:00")
    assert not created.ephemeral, created.content
    humans: list[SimulatedUser] = [ann]
    if game in PAIRS:
        await ann.slash("duplicate", "enter", partner=bo)
        await bo.slash("duplicate", "confirm")
        humans.append(bo)
        bo.dms_open = False  # bo plays from My hand only; his reveal comes in the thread
    else:
        await ann.slash("duplicate", "enter")
    started = await ann.slash("duplicate", "play")
    assert "Board 1 is dealt" in started.content, started.content
    [event] = await app.store.list_duplicate_events(h.guild.id)
    [play] = await app.store.list_duplicate_plays(event.id)
    table_id = play.table_id
    assert table_id is not None
    thread = app.service.info(table_id).location.channel_id  # type: ignore[union-attr]
    public = await h.wait_until(lambda: next(
        (m for m in h.server.messages(thread) if not m.ephemeral
         and any(c.startswith("tt:h:") for c in m.custom_ids())), None),
        what="the table message")
    await h.wait_until(lambda: next((m for m in ann.dms if "**Your hand**" in m.content),
                                    None), what="ann's hand DM")
    seats = {u: app.service.seat_of(table_id, u.user.id) for u in humans}
    await play_until(app, table_id, public, {u: s for u, s in seats.items() if s is not None},
                     lambda: not app.service.holds(table_id))
    await h.wait_until(lambda: next((m for m in ann.dms if "Night: board 1**" in m.content),
                                    None), what="ann's reveal")
    if bo in humans:
        await h.wait_until(lambda: next((m for m in h.server.messages(thread)
                                         if "Night: board 1**" in m.content), None),
                           what="bo's reveal in the thread")
    await app.service.settle()
    await h.settle()

    _ends_final(public, "the table message")
    assert "direct message" in public.content
    panels = [m for m in ann.dms if any("**Your hand**" in str(v.get("content"))
                                        or OVER in str(v.get("content"))
                                        for v in _versions(m))]
    assert panels, "ann has no hand DM"
    for message in panels:
        _ends_final(message, "ann's hand DM")
        assert "new direct message" in message.content
    for user in humans:  # each human's newest My hand panel
        mine = [m for m in h.server.messages(thread) if m.ephemeral_for == user.user.id]
        assert mine, f"{user.user.username} never opened My hand"
        _ends_final(mine[-1], f"{user.user.username}'s My hand panel")
    if bo in humans:
        assert f"<#{thread}>" in [m for m in h.server.messages(thread)
                                  if m.ephemeral_for == bo.user.id][-1].content
    seen = [str(v.get("content")) for m in [*h.server.messages(thread), *ann.dms]
            for v in _versions(m)]
    assert not any("Your next hand comes" in text for text in seen)
    assert not any("deal 2" in text for text in seen)
    assert not any("This table is closed" in text for text in seen)


async def test_a_board_over_before_a_restart_ends_on_every_display_after_it(
        fake_discord: Harness, tmp_path: Any) -> None:
    """The bot stops between the board's last card and its table's close (the duplicate
    watcher had not seen the end): the restarted bot finds the board over and every display
    ends on it, then the table is closed and the reveal sent."""
    h = fake_discord
    app = await start_app(h, tmp_path, ai_budget_ms=3)
    mona, ann = h.user("mona", manager=True), h.user("ann")
    await mona.slash("duplicate", "create", name="Night", game="turup", boards=1,
                     closes="2030-01-01 20:00")
    await ann.slash("duplicate", "enter")
    await ann.slash("duplicate", "play")
    [event] = await app.store.list_duplicate_events(h.guild.id)
    [play] = await app.store.list_duplicate_plays(event.id)
    table_id = play.table_id
    assert table_id is not None
    thread = app.service.info(table_id).location.channel_id  # type: ignore[union-attr]
    public = await h.wait_until(lambda: next(
        (m for m in h.server.messages(thread) if not m.ephemeral
         and any(c.startswith("tt:h:") for c in m.custom_ids())), None),
        what="the table message")
    await h.wait_until(lambda: next((m for m in ann.dms if "**Your hand**" in m.content),
                                    None), what="ann's hand DM")
    cog = app.bot.get_cog("ClubDuplicate")
    cog._task.cancel()  # nobody closes the board's table before the restart
    seat = app.service.seat_of(table_id, ann.user.id)
    assert seat is not None
    for _ in range(5000):  # ann's turns until the deal is over (no view: no deal in play)
        state = app.service.state(table_id, seat).data
        if state.get("view") is None:
            break
        if seat in state["to_act"] and state["legal"]:
            with contextlib.suppress(Exception):  # a turn gone stale while an AI moved
                await app.service.act(table_id, ann.user.id, state["legal"][0],
                                      state["version"])
        else:
            await asyncio.sleep(0.005)
    else:
        raise AssertionError("the board's deal did not end")
    assert app.service.holds(table_id)
    await app.restart()
    await h.wait_until(lambda: next((m for m in ann.dms if "Night: board 1**" in m.content),
                                    None), what="ann's reveal after the restart")
    await h.wait_until(lambda: None if app.service.holds(table_id) else True,
                       what="the table closed")
    await app.service.settle()
    await h.settle()
    _ends_final(public, "the table message")
    [panel] = [m for m in ann.dms if any("**Your hand**" in str(v.get("content"))
                                         for v in _versions(m))]
    _ends_final(panel, "ann's hand DM")
    seen = [str(v.get("content")) for m in [*h.server.messages(thread), *ann.dms]
            for v in _versions(m)]
    assert not any("This table is closed" in text for text in seen)
