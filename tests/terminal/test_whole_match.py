"""A whole match of every game played on the Textual table through Textual's pilot, once
with the mouse only (clicks on cards, buttons and result dialogs) and once with the
keyboard only (Enter, arrows, Space; no focus set by the test), on a real SQLite file
and the real table service: short targets, rules AI at pace 0."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from terminal_pilot import click_card, settle
from textual.pilot import Pilot

from bot.terminal.app import ActionButton, TableApp
from bot.terminal.config import PlayConfig
from bot.terminal.widgets import HandView
from bot.words.choices import needs_confirmation
from games.registry import GAMES

SHORT = {"turup": {"target": 1}, "tarabish": {"target": 1}, "truf": {"deals": 1},
         "albastini": {"target_vp": 1}, "arbaa_turub": {}}
"""Rule options that make each game's match short (Arba'a Turub has no target: two deals
won in a row)."""
SEEDS = {"arbaa_turub": 6}
"""A seed whose Arba'a Turub match ends after two deals (others: 5)."""

TURNS = 400


@pytest.fixture(autouse=True)
def data_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))


def make_app(game: str, db: Path) -> TableApp:
    return TableApp(PlayConfig(game=game, database=f"sqlite:///{db}", options=SHORT[game],
                               pace=0, forced_pause=0, name="Ann", seed=SEEDS.get(game, 5),
                               ai="rules"))


def test_every_game_has_a_short_match() -> None:
    assert set(SHORT) == set(GAMES)


async def click_turn(pilot: Pilot[Any], app: TableApp) -> None:
    """Click the first legal card, else the first button that does not concede."""
    assert app.current is not None
    hand = app.query_one(HandView)
    spot = next((s for s in hand.spots if s.card in hand.legal), None)
    if spot is not None and not app.variants:
        await click_card(pilot, spot)
        await pilot.pause()
        if not app.variants:
            return
    button = next(b for b in app.query("#buttons ActionButton").results(ActionButton)
                  if not needs_confirmation(b.decision))
    await pilot.click(button)


async def key_turn(pilot: Pilot[Any], app: TableApp) -> None:
    """Enter: the highlighted card, or the focused button (a decision, a variant); a card
    with variants (a signal, bella) goes through the ``v`` step: → and Enter."""
    assert app.current is not None
    cursor = app.query_one(HandView).cursor
    choice = app.current.cards.get(cursor or "")
    if choice is not None and choice.variants:
        await pilot.press("v")
        await pilot.pause()
        await pilot.press("right")
    await pilot.press("enter")


async def play_match(app: TableApp, turn: Any, next_deal: Any) -> None:
    async with app.run_test(size=(80, 24)) as pilot:
        deals = 0
        for _ in range(TURNS):
            state = await settle(pilot, app)
            if state == "done":
                break
            if state == "notice":
                deals += 1
                await next_deal(pilot)
                continue
            await turn(pilot, app)
        else:
            pytest.fail("the match did not end")
    assert app.return_code == 0 and app.model is not None and app.model.over
    assert deals >= 2 and "Record saved" in app.final_text  # deal result(s), then match


@pytest.mark.parametrize("game", list(GAMES))
async def test_a_whole_match_with_the_mouse(game: str, tmp_path: Path) -> None:
    app = make_app(game, tmp_path / "t.db")

    async def next_deal(pilot: Pilot[Any]) -> None:
        await pilot.click(offset=(1, 1))

    await play_match(app, click_turn, next_deal)


@pytest.mark.parametrize("game", list(GAMES))
async def test_a_whole_match_with_the_keyboard(game: str, tmp_path: Path) -> None:
    app = make_app(game, tmp_path / "t.db")

    async def next_deal(pilot: Pilot[Any]) -> None:
        await pilot.press("space")

    await play_match(app, key_turn, next_deal)
