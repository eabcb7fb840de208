"""The Textual card table driven by keys and clicks through Textual's pilot, on a real
SQLite file and the real table service (AI players at pace 0)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from terminal_pilot import (
    click_card,
    screen_text,
    settle,
    take_turn,
    type_card,
    until,
    until_a_card_is_refused,
)
from textual.pilot import Pilot

from bot.terminal.app import Confirm, Notice, TableApp
from bot.terminal.config import PlayConfig
from bot.words.cards import card_text
from games.registry import GAMES


def make_app(game: str, db: Path, **kw: Any) -> TableApp:
    settings: dict[str, Any] = {"pace": 0, "forced_pause": 0, "name": "Ann", "seed": 3,
                                "ai": "rules", **kw}
    cfg = PlayConfig(game=game, database=f"sqlite:///{db}", **settings)
    return TableApp(cfg)


async def play_until_turn(pilot: Pilot[Any], app: TableApp, wanted: Callable[[TableApp], bool],
                          turns: int) -> None:
    """Play the human's turns until one where ``wanted(app)`` holds; fails after ``turns``."""
    for _ in range(turns):
        assert await settle(pilot, app) == "turn"
        if wanted(app):
            return
        await take_turn(pilot, app)
    pytest.fail(f"no such turn came in {turns} turns")


def signals_offered(app: TableApp) -> bool:
    """The turn offers a card with signal variants (a lead with signals)."""
    current = app.current
    assert current is not None
    return any(c.variants for c in current.cards.values())


def concede_offered(app: TableApp) -> bool:
    """The turn offers to concede."""
    return bool(app.current and any(a.type == "concede" for a in app.current.others))


def cards_offered(app: TableApp) -> bool:
    """The turn is a card play."""
    return bool(app.current and app.current.cards)


def log_since(app: TableApp, before: int) -> list[str]:
    """The log lines written since the log held ``before`` lines."""
    assert app.model is not None
    return [x for _, x in list(app.model.log)[-(app.model.logged - before):]]


@pytest.fixture(autouse=True)
def data_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))


@pytest.mark.parametrize("game", list(GAMES))
async def test_a_whole_deal_played_by_keys(game: str, tmp_path: Path) -> None:
    app = make_app(game, tmp_path / "t.db")
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(300):
            state = await settle(pilot, app)
            if state == "notice":
                break
            await take_turn(pilot, app)
        assert isinstance(app.screen, Notice)
        text = screen_text(app)
        assert "Deal 1" in text and "Press any key" in text
        model = app.model
        assert model is not None and model.match["totals"] is not None
        await pilot.press("space")  # the result stays until a key
        assert await settle(pilot, app) in ("turn", "notice", "done")
        # The score line at the top shows the totals after the deal.
        from bot.words.table_state import score_line

        line = score_line(model.match, model.seating, model.me)
        assert line.split(" (")[0] in screen_text(app).replace("\n", " ")


async def test_screen_fits_80x24_with_seats_trump_hand(tmp_path: Path) -> None:
    app = make_app("turup", tmp_path / "t.db")
    async with app.run_test(size=(80, 24)) as pilot:
        assert await settle(pilot, app) == "turn"
        text = screen_text(app)
        lines = text.splitlines()
        assert len(lines) == 24 and all(len(x) <= 80 for x in lines)
        for name in ("Ann (you)", "Chausiku (partner)", "Bilal", "Dewi", "Trump:",
                     "Game points: us 0 · them 0 (first to 5)"):
            assert name in text
        assert "[dealer]" in text and "▶" in text
        hand = app.model.hand if app.model else []
        from bot.words.cards import card_text

        assert all(card_text(c) in text for c in hand)


async def test_arbaa_turub_hand_all_36_cards_grouped(tmp_path: Path) -> None:
    app = make_app("arbaa_turub", tmp_path / "t.db")
    async with app.run_test(size=(80, 24)) as pilot:
        assert await settle(pilot, app) == "turn"
        if not app.current or not app.current.cards:  # the trump call comes first
            await take_turn(pilot, app)
            assert await settle(pilot, app) == "turn"
        model = app.model
        assert model is not None and len(model.hand) == 36
        text = screen_text(app)
        from bot.words.cards import count_text, grouped

        for card, n in grouped(model.hand):
            assert count_text(card, n) in text
        assert "×" in text


async def test_refused_card_shows_the_engines_reason(tmp_path: Path) -> None:
    app = make_app("turup", tmp_path / "t.db")
    async with app.run_test(size=(80, 24)) as pilot:
        card = await until_a_card_is_refused(pilot, app)
        assert card is not None and app.model is not None  # seed 3 has one within 40 turns
        version = app.model.version
        message = await type_card(pilot, app, card)
        assert message.startswith("Not allowed:") and "follow" in message
        assert "♠" in message or "♥" in message or "♦" in message or "♣" in message
        assert app.model is not None and app.model.version == version  # nothing changed


async def test_signal_is_an_optional_second_step(tmp_path: Path) -> None:
    app = make_app("turup", tmp_path / "t.db")
    async with app.run_test(size=(80, 24)) as pilot:
        await play_until_turn(pilot, app, signals_offered, 60)
        await pilot.press("v")
        message = str(app.query_one("#message").render())
        assert "signalling: strong suit" in message and "Esc" in message
        played_before = app.model.logged if app.model else 0
        await pilot.press("2")  # the first variant after the plain play
        await until(pilot, lambda: any("Ann led" in x and "signalling" in x
                                       for x in log_since(app, played_before)),
                    "Ann's signalled lead in the log")


async def test_concede_needs_confirmation(tmp_path: Path) -> None:
    app = make_app("tarabish", tmp_path / "t.db")
    async with app.run_test(size=(80, 24)) as pilot:
        await play_until_turn(pilot, app, concede_offered, 20)
        version = app.model.version if app.model else -1
        button = next(b for b in app.query("#buttons Button")
                      if "Concede" in str(b.label))
        await pilot.click(button)
        await pilot.pause()
        assert isinstance(app.screen, Confirm)
        await pilot.press("n")
        await settle(pilot, app)
        assert app.model is not None and app.model.version == version
        assert "Not conceded" in str(app.query_one("#message").render())
        await pilot.click(next(b for b in app.query("#buttons Button")
                               if "Concede" in str(b.label)))
        await pilot.pause()
        await pilot.press("y")
        assert await settle(pilot, app) == "notice"
        assert "conceded" in screen_text(app).lower()


async def test_truf_trumps_face_down_until_the_trick_is_complete(tmp_path: Path) -> None:
    from bot.terminal.widgets import CARD_BACK

    app = make_app("truf", tmp_path / "t.db", seed=11)
    seen_back = False
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(200):
            state = await settle(pilot, app)
            if state != "turn":
                break
            model = app.model
            assert model is not None
            cards = (model.view or {}).get("trick", {}).get("cards") or []
            if any(c == "??" for _, c in cards):
                seen_back = True
                assert CARD_BACK in screen_text(app)
                number = len(model.view.get("tricks") or []) + 1
                await take_turn(pilot, app)
                await settle(pilot, app)
                # The completed trick now shows every card face up.
                tricks = (app.model.view or {}).get("tricks") or []
                if len(tricks) >= number:
                    done = tricks[number - 1]
                    assert all(c != "??" for _, c in done["cards"])
                    from bot.words.events import trick_line

                    text = trick_line(app.model.seating, {**done, "number": number})
                    assert "🂠" not in text
                break
            await take_turn(pilot, app)
    assert seen_back, "no face-down trump came in this deal"


async def test_resume_brings_back_the_same_position(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    app = make_app("tarabish", db)
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(4):
            assert await settle(pilot, app) == "turn"
            await take_turn(pilot, app)
        assert await settle(pilot, app) == "turn"
        before = app.model
        assert before is not None
        hand, version = list(before.hand), before.version
        await pilot.press("ctrl+q")
    assert "--resume" in app.final_text
    again = make_app("tarabish", db, seed=None, resume=True, pace=None)
    async with again.run_test(size=(80, 24)) as pilot:
        assert await settle(pilot, again) == "turn"
        assert again.model is not None
        assert again.model.hand == hand and again.model.version == version


@pytest.mark.parametrize("game", ["turup", "arbaa_turub"])
def test_snapshot_of_the_80x24_table(game: str, tmp_path: Path, snap_compare: Any) -> None:
    """The table at the first turn after four of the player's cards (fixed seed, AI pace
    0): seats, trump, facts, the hand with legal cards bright. Update deliberately with
    ``pytest --snapshot-update`` after a layout change."""
    app = make_app(game, tmp_path / "t.db")

    async def run_before(pilot: Pilot[Any]) -> None:
        turns = 0
        while True:
            state = await settle(pilot, app)
            if state == "notice":
                await pilot.press("space")
                continue
            if turns == 4:
                break
            turns += 1
            await take_turn(pilot, app)

    assert snap_compare(app, terminal_size=(80, 24), run_before=run_before)


async def test_a_click_on_a_card_plays_it(tmp_path: Path) -> None:
    """A click on a card of any suit row (the bottom one too) plays that card: the hand
    panel's first card row is under its top border."""
    from bot.terminal.widgets import HandView

    app = make_app("turup", tmp_path / "t.db")
    async with app.run_test(size=(80, 24)) as pilot:
        assert await settle(pilot, app) == "turn"
        hand = app.query_one(HandView)
        goal = set(range(len(hand.rows())))
        clicked: set[int] = set()
        bottom = False
        for _ in range(40):
            if clicked == goal and bottom:
                break
            state = await settle(pilot, app)
            if state == "notice":
                await pilot.press("space")
                continue
            assert state == "turn" and app.current is not None and app.model is not None
            rows = hand.rows()
            spots = [s for s in hand.spots if s.card in app.current.cards]
            last = len(rows) - 1
            spot = next((s for s in spots if s.row == last and not bottom), None) or next(
                (s for s in spots if s.row in goal - clicked), None)
            if spot is None:
                await take_turn(pilot, app)
                continue
            before = app.model.logged
            await click_card(pilot, spot)
            await until(pilot, lambda spot=spot, before=before: any(
                x.startswith("Ann") and card_text(spot.card) in x
                for x in log_since(app, before)), f"{spot} played")
            clicked.add(spot.row)
            bottom = bottom or spot.row == len(rows) - 1
        assert clicked == goal and bottom, (clicked, goal, bottom)


async def test_a_click_on_the_hand_panels_border_plays_nothing(tmp_path: Path) -> None:
    from bot.terminal.widgets import HandView

    app = make_app("turup", tmp_path / "t.db")
    async with app.run_test(size=(80, 24)) as pilot:
        assert await settle(pilot, app) == "turn"
        assert app.model is not None
        spot = app.query_one(HandView).spots[0]
        version = app.model.version
        await pilot.click(HandView, offset=(spot.start + 2, 0))
        await settle(pilot, app)
        assert app.model.version == version


async def test_help_shows_how_to_play_and_the_keys(tmp_path: Path) -> None:
    from bot.terminal.app import Help

    app = make_app("tarabish", tmp_path / "t.db")
    async with app.run_test(size=(80, 24)) as pilot:
        assert await settle(pilot, app) == "turn"
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, Help)
        await pilot.pause()
        text = screen_text(app)
        assert "Tarabish" in text and "Keys" in text
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, Help)


def side_text(app: TableApp) -> str:
    """The side panel's rows (right of the table's border), joined into one text."""
    rows = [line.split("│", 1)[1] for line in screen_text(app).splitlines() if "│" in line]
    return flat(" ".join(rows).translate(SCROLLBAR))


SCROLLBAR = str.maketrans("", "", "▁▂▃▄▅▆▇█▔▕▏▎▍▌▋▊▉")
"""The glyphs of a scrollbar's thumb (the side panel scrolls)."""


def flat(text: str) -> str:
    return " ".join(text.split())


async def test_the_trick_shows_who_led_it_and_the_leaders_signal(tmp_path: Path) -> None:
    app = make_app("turup", tmp_path / "t.db")
    led = signalled = False
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(60):
            if led and signalled:
                break
            state = await settle(pilot, app)
            if state == "notice":
                await pilot.press("space")
                continue
            model = app.model
            assert model is not None and model.view is not None
            trick = model.view.get("trick") or {}
            if trick.get("cards"):
                leader = model.seating.name(trick["leader"])
                table = screen_text(app)
                assert f"{leader} led" in table
                number = len(model.view.get("tricks") or []) + 1
                signal = next((x["signal"] for x in model.view.get("signals") or []
                               if x["trick"] == number), None)
                led = True
                if signal:
                    signalled = True
                    word = f"{signal} suit"
                    assert f"signalling: {word}" in table  # in the middle of the table
                    assert f"{leader} led" in side_text(app) and word in side_text(app)
            await take_turn(pilot, app)
    assert led and signalled


@pytest.mark.parametrize("game", ["truf", "albastini", "tarabish"])
async def test_the_side_log_shows_its_newest_line(game: str, tmp_path: Path) -> None:
    app = make_app(game, tmp_path / "t.db")
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(12):
            state = await settle(pilot, app)
            if state == "notice":
                await pilot.press("space")
                continue
            model = app.model
            assert model is not None
            newest = [x for kind, x in model.log if kind not in ("play", "trick")][-1]
            # the panel scrolls to its end after the next refresh
            await until(pilot, lambda newest=newest: flat(newest) in side_text(app),
                        f"the newest line in the side log: {newest}")
            await take_turn(pilot, app)


async def test_every_trick_of_the_deal_can_be_looked_back_at(tmp_path: Path) -> None:
    from bot.terminal.widgets import TableView

    app = make_app("turup", tmp_path / "t.db")
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(4):
            assert await settle(pilot, app) == "turn"
            await take_turn(pilot, app)
        assert await settle(pilot, app) == "turn"
        assert app.model is not None and app.model.view is not None
        tricks = app.model.view["tricks"]
        assert len(tricks) >= 3
        for open_it in ("key", "click"):
            if open_it == "key":
                await pilot.press("l")
            else:
                await pilot.click(TableView, offset=(2, 2))
            await pilot.pause()
            assert isinstance(app.screen, Notice)
            text = flat(screen_text(app))
            for number in range(1, len(tricks) + 1):
                assert f"Trick {number}:" in text
            assert "signalled: strong suit" in text or "signalled: weak suit" in text
            await pilot.press("space")
            assert await settle(pilot, app) == "turn"


async def test_enter_chooses_the_variant_in_the_v_step(tmp_path: Path) -> None:
    app = make_app("turup", tmp_path / "t.db")
    async with app.run_test(size=(80, 24)) as pilot:
        await play_until_turn(pilot, app, signals_offered, 60)
        await pilot.press("v")
        await pilot.pause()
        await pilot.press("right")  # from the plain play to the first signal
        before = app.model.logged if app.model else 0
        await pilot.press("enter")
        await settle(pilot, app)
        assert app.model is not None
        lines = log_since(app, before)
        assert any("Ann led" in x and "signalling: strong suit" in x for x in lines), lines


async def test_after_no_to_concede_enter_does_not_reopen_it(tmp_path: Path) -> None:
    from bot.terminal.widgets import HandView

    app = make_app("tarabish", tmp_path / "t.db")
    async with app.run_test(size=(80, 24)) as pilot:
        await play_until_turn(pilot, app, concede_offered, 20)
        concede = next(b for b in app.query("#buttons Button") if "Concede" in str(b.label))
        concede.focus()
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, Confirm)
        await pilot.press("n")
        await pilot.pause()
        await pilot.pause()
        assert not isinstance(app.screen, Confirm)
        assert isinstance(app.focused, HandView)
        played = app.model.logged if app.model else 0
        await pilot.press("enter")  # plays the highlighted card
        await pilot.pause()
        assert not isinstance(app.screen, Confirm)
        await until(pilot, lambda: app.model is not None and app.model.logged > played,
                    "the highlighted card played")


async def test_truf_multi_card_bids_by_keys(tmp_path: Path) -> None:
    from bot.terminal.widgets import HandView

    app = make_app("truf", tmp_path / "t.db", options={"multi_card_bids": True})
    async with app.run_test(size=(80, 24)) as pilot:
        assert await settle(pilot, app) == "turn"
        assert app.current is not None and app.model is not None
        bid = next(a for a in app.current.multi if a.cards and len(a.cards) == 2)
        assert bid.cards is not None
        hand = app.query_one(HandView)
        assert hand.cursor is not None  # the arrows have cards to move over
        for card in bid.cards:  # ←/→ to the card, Space marks it
            for _ in range(len(hand.order()) + 1):
                if hand.cursor == card:
                    break
                await pilot.press("right")
            assert hand.cursor == card
            await pilot.press("space")
        assert sorted(hand.marked) == sorted(bid.cards)
        await pilot.press("enter")

        def bid_shown() -> bool:
            assert app.model is not None and bid.cards is not None
            mine = (app.model.view or {}).get("bids") or []
            return sorted(mine[app.model.me] or []) == sorted(bid.cards)

        await until(pilot, bid_shown, "the two-card bid in the table's view")


async def test_truf_one_card_bid_by_enter_at_a_multi_card_table(tmp_path: Path) -> None:
    app = make_app("truf", tmp_path / "t.db", options={"multi_card_bids": True})
    async with app.run_test(size=(80, 24)) as pilot:
        assert await settle(pilot, app) == "turn"
        from bot.terminal.widgets import HandView

        card = app.query_one(HandView).cursor
        await pilot.press("enter")
        await until(pilot, lambda: app.model is not None and (
            (app.model.view or {}).get("bids") or [])[app.model.me] == [card],
            "the one-card bid in the table's view")


async def test_a_refusal_wraps_at_80_columns(tmp_path: Path) -> None:
    app = make_app("turup", tmp_path / "t.db")
    async with app.run_test(size=(80, 24)) as pilot:
        card = await until_a_card_is_refused(pilot, app)
        assert card is not None
        message = await type_card(pilot, app, card)
        assert message.startswith("Not allowed:")
        assert flat(message) in flat(screen_text(app))
        app.say(message + " and a reason longer than one row of the screen ends here.")
        await pilot.pause()
        assert "ends here." in screen_text(app)


@pytest.mark.parametrize(("game", "kw"), [
    ("turup", {"language": "so"}), ("albastini", {"players": 6}),
    ("albastini", {"players": 6, "options": {"teams": "2x3"}})])
async def test_the_score_line_wraps_at_80_columns(game: str, kw: dict[str, Any],
                                                  tmp_path: Path) -> None:
    from bot.words.table_state import score_line

    app = make_app(game, tmp_path / "t.db", **kw)
    async with app.run_test(size=(80, 24)) as pilot:
        assert await settle(pilot, app) == "turn"
        model = app.model
        assert model is not None
        line = score_line(model.match, model.seating, model.me)
        assert flat(line) in flat(screen_text(app))
        for seat in range(model.seating.players):
            assert model.seating.name(seat) in screen_text(app)
        if model.seating.players == 6:  # the two upper side seats share a row, whole
            table = [x.split("│")[0] for x in screen_text(app).splitlines() if "│" in x]
            rows = [x for x in table if "Chausiku" in x and "Ekon" in x]
            assert len(rows) == 1 and "rules AI" not in rows[0], screen_text(app)


async def test_a_small_window_warns_and_keeps_your_seat(tmp_path: Path) -> None:
    app = make_app("turup", tmp_path / "t.db")
    async with app.run_test(size=(60, 20)) as pilot:
        assert await settle(pilot, app) == "turn"
        text = screen_text(app)
        assert "60×20" in flat(text) and "80×24" in flat(text)
        for name in ("Ann (you)", "Chausiku (partner)", "Bilal", "Dewi"):
            assert name in text, text
    app = make_app("turup", tmp_path / "u.db")
    async with app.run_test(size=(80, 24)) as pilot:
        assert await settle(pilot, app) == "turn"
        assert "80×24" not in screen_text(app)


async def test_the_result_dialog_stands_alone(tmp_path: Path) -> None:
    app = make_app("tarabish", tmp_path / "t.db")
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(300):
            if await settle(pilot, app) == "notice":
                break
            await take_turn(pilot, app)
        text = screen_text(app)
        assert "Deal 1" in text
        assert "│" not in text and "Waiting for" not in text and "Your turn" not in text


async def test_the_default_ai_is_the_strongest_level(tmp_path: Path) -> None:
    from bot.terminal.config import DEFAULT_AI
    from games.ai import PLAYABLE_LEVELS

    assert DEFAULT_AI == "search" and DEFAULT_AI in PLAYABLE_LEVELS
    app = make_app("turup", tmp_path / "t.db", ai=None)
    async with app.run_test(size=(80, 24)) as pilot:
        assert await settle(pilot, app) == "turn"
        assert app.model is not None
        assert [x for x in app.model.levels if x] == ["search"] * 3
        assert "search AI" in screen_text(app)


async def test_a_click_on_the_side_panel_leaves_the_keys_on_the_hand(tmp_path: Path) -> None:
    from bot.terminal.widgets import HandView

    app = make_app("tarabish", tmp_path / "t.db")
    async with app.run_test(size=(80, 24)) as pilot:
        await play_until_turn(pilot, app, cards_offered, 20)
        for panel in ("#facts", "#logbox"):
            await pilot.click(panel)
            await pilot.pause()
            assert isinstance(app.focused, HandView), (panel, app.focused)
        assert app.model is not None
        before = app.model.logged
        await pilot.press("enter")
        await until(pilot, lambda: app.model is not None and app.model.logged > before,
                    "the card played")
