"""Driving the Textual card table through Textual's pilot, for the terminal's tests (no
clock involved: the AI players play at pace 0)."""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable
from typing import Any

from textual.pilot import Pilot

from bot.terminal.app import Notice, TableApp
from bot.terminal.widgets import HandView, Spot

LIMIT = 60.0
"""Seconds a helper waits for the table at most (a liveness bound: on a busy machine the
AI's worker processes and the table's tasks take longer, never fewer loop turns)."""


def screen_text(app: TableApp) -> str:
    """The screen as plain text, row by row."""
    return "\n".join(strip.text for strip in app.screen._compositor.render_strips())


async def settle(pilot: Pilot[Any], app: TableApp) -> str:
    """Wait until the player must do something: ``turn`` (a choice), ``notice`` (a
    result held on screen) or ``done`` (the app ended). Right after an accepted action
    the turn it answered may still be shown until the table's next state arrives: to
    assert the action's effect, wait for it with :func:`until`."""
    end = time.monotonic() + LIMIT
    for turn in itertools.count():
        if time.monotonic() > end:
            break
        # the loop's own turns first; then a little sleep, so that waiting for the AI's
        # worker process does not take the CPU it needs
        await (pilot.pause() if turn < 100 else pilot.pause(0.01))
        if not app.is_running or app.return_code is not None:
            return "done"
        if isinstance(app.screen, Notice):
            await pilot.pause()  # let the notice draw
            return "notice"
        if app.current is not None and not app.busy:
            return "turn"
    raise AssertionError("the table never asked for anything:\n" + screen_text(app))


async def until(pilot: Pilot[Any], check: Callable[[], object], what: str) -> None:
    """Let the app run until ``check()`` is true (the effect a test asserts: a line in
    the log, a bid shown); fails saying ``what`` after :data:`LIMIT` seconds."""
    end = time.monotonic() + LIMIT
    while not check():
        if time.monotonic() > end:
            raise AssertionError(f"never happened: {what}\n" + screen_text(pilot.app))
        await pilot.pause(0.01)


async def take_turn(pilot: Pilot[Any], app: TableApp) -> None:
    """Play the highlighted card with Enter, or press the first button."""
    assert app.current is not None
    if app.current.cards:
        await pilot.press("enter")
    else:
        first = app.query_one("#buttons").children[0]
        first.focus()
        await pilot.press("enter")


async def until_a_card_is_refused(pilot: Pilot[Any], app: TableApp,
                                  turns: int = 40) -> str | None:
    """Take turns until the player holds a card the rules refuse now; that card's code
    (``None`` when every card stayed legal for ``turns`` turns)."""
    for _ in range(turns):
        assert await settle(pilot, app) == "turn"
        assert app.model is not None and app.current is not None
        illegal = [c for c in app.model.hand if c not in app.current.cards]
        if illegal:
            return illegal[0]
        await take_turn(pilot, app)
    return None


async def type_card(pilot: Pilot[Any], app: TableApp, card: str) -> str:
    """Type ``card`` (``TH`` as ``10h``) and Enter; the message line it leaves."""
    rank = "10" if card[0] == "T" else card[0].lower()
    await pilot.press(*rank, card[1].lower(), "enter")
    await settle(pilot, app)
    return str(app.query_one("#message").render())


async def click_card(pilot: Pilot[Any], spot: Spot) -> None:
    """Click the middle of a card of the hand panel where it is drawn: below the panel's
    top border, right of its left padding."""
    hand = pilot.app.query_one(HandView)
    left, top = hand.styles.gutter.left, hand.styles.gutter.top
    await pilot.click(HandView, offset=(left + (spot.start + spot.end) // 2, top + spot.row))
