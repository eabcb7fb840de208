"""``tricktable play`` in Somali, Indonesian and Swahili: a whole deal of every game through
the Textual app (pilot) leaves no English on the screen, the ``--plain`` line mode speaks
the chosen language, ``TRICKTABLE_LANG`` is honoured, an unknown ``--lang`` is refused with
one line and exit status 2 before anything is opened, and argument refusals speak the
language too."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest
from terminal_pilot import screen_text, settle, type_card, until_a_card_is_refused

from bot.i18n import translator
from bot.i18n.leftovers import english_leftovers
from bot.terminal import main
from bot.terminal.app import KEYS_HELP, Help, Notice, TableApp
from bot.terminal.config import PlayConfig
from bot.words.actions import action_text
from bot.words.choices import Choices, interpret
from games.actions import Action
from games.registry import GAMES

ROOT = Path(__file__).resolve().parents[2]

GAME_LANGUAGE = [(game, language) for game in GAMES for language in ("so", "id", "sw")]
"""Every game in every language (English: tests/terminal/test_app.py)."""

WORDS = {"so": "Xukun", "id": "Truf", "sw": "Turufu"}
"""The label of the trump fact in each language: proof the language is on screen."""


@pytest.fixture(autouse=True)
def data_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.delenv("TRICKTABLE_LANG", raising=False)


@pytest.mark.parametrize(("game", "language"), GAME_LANGUAGE)
async def test_a_whole_deal_on_the_card_table_leaves_no_english(
        game: str, language: str, tmp_path: Path) -> None:
    cfg = PlayConfig(game=game, database=f"sqlite:///{tmp_path / 't.db'}", pace=0,
                     forced_pause=0, name="Ann", seed=3, language=language)
    app = TableApp(cfg)
    seen: list[str] = []
    async with app.run_test(size=(100, 30)) as pilot:
        assert await settle(pilot, app) == "turn"
        await pilot.press("question_mark")  # the help: keys and the rule summary
        await pilot.pause()
        assert isinstance(app.screen, Help)
        seen.append(screen_text(app))
        await pilot.press("escape")
        for _ in range(300):
            state = await settle(pilot, app)
            seen.append(screen_text(app))
            if state != "turn":
                break
            assert app.current is not None
            if app.current.cards:
                await pilot.press("enter")
            else:
                app.query_one("#buttons").children[0].focus()
                await pilot.press("enter")
            seen.append(screen_text(app))
        assert isinstance(app.screen, Notice)  # the deal's result, held on screen
        model = app.model
        assert model is not None
        log = [line for _, line in model.log]
    text = "\n".join(seen + log)
    assert english_leftovers(text, language) == []
    assert english_leftovers(KEYS_HELP, language)  # the check knows the table's words
    assert WORDS[language] in text
    assert "Press any key" not in text and "Your turn" not in text


def _plain(args: list[str], typed: str) -> tuple[int, str]:
    out = io.StringIO()
    status = main(args, stdin=io.StringIO(typed), stdout=out)
    return status, out.getvalue()


def test_plain_mode_speaks_swahili(tmp_path: Path) -> None:
    status, text = _plain(["turup", "--lang", "sw", "--database",
                           f"sqlite:///{tmp_path / 'p.db'}", "--pace", "0",
                           "--forced-pause", "0", "--seed", "5", "--name", "Ann"],
                          "1\n" * 12 + "zz\n9\n")
    assert status == 0
    assert "Machaguo: 1 " in text and "Mkononi mwako: " in text
    assert "Chagua 1-" in text and "Mgawo wa 1:" in text and "--- Mgawo wa 1 ---" in text
    assert "“zz” si karata wala chaguo hapa. Andika namba kuanzia 1 hadi" in text
    assert "Hakuna chaguo 9." in text
    assert "Mchezo umehifadhiwa. Endelea nao kwa `tricktable play turup --resume`." in text
    assert english_leftovers(text, "sw") == []
    assert "Choices:" not in text and "Game saved" not in text


def test_tricktable_lang_is_honoured_and_the_flag_wins(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TRICKTABLE_LANG", "id")
    db = f"sqlite:///{tmp_path / 'v.db'}"
    status, text = _plain(["truf", "--database", db, "--pace", "0", "--forced-pause", "0"],
                          "1\n" * 3)
    assert status == 0 and "Pilihan: 1 " in text and "Di tanganmu: " in text
    assert english_leftovers(text, "id") == []
    status, text = _plain(["truf", "--new", "--lang", "so", "--database", db, "--pace", "0",
                           "--forced-pause", "0"], "1\n" * 3)
    assert status == 0 and "Doorashooyinka: 1 " in text and "Pilihan" not in text


def test_argument_refusals_speak_the_language(tmp_path: Path) -> None:
    status, text = _plain(["turup", "--lang", "id", "--seat", "x", "--database",
                           f"sqlite:///{tmp_path / 'a.db'}"], "")
    assert status == 2
    assert text == "tricktable play: --seat harus bilangan bulat dari 0 sampai 5\n"


@pytest.mark.parametrize("how", [("--lang", "xx"), ()])
def test_an_unknown_language_is_refused_with_exit_2(tmp_path: Path,
                                                    how: tuple[str, ...]) -> None:
    env = {k: v for k, v in os.environ.items()
           if k not in ("TRICKTABLE_LANG", "LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")}
    env["PYTHONPATH"] = str(ROOT)
    env["XDG_DATA_HOME"] = str(tmp_path / "data")
    if not how:
        env["TRICKTABLE_LANG"] = "xx"
    db = tmp_path / "never.db"
    res = subprocess.run([sys.executable, "-m", "bot.cli", "play", "turup", "--plain",
                          "--database", f"sqlite:///{db}", *how], capture_output=True,
                         text=True, cwd=tmp_path, env=env, stdin=subprocess.DEVNULL,
                         timeout=120)
    assert res.returncode == 2 and res.stdout == ""
    lines = res.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("tricktable play: ")
    assert "'xx'" in lines[0] and "en, so, id, sw" in lines[0]
    assert not db.exists() and not (tmp_path / "data").exists()


@pytest.mark.parametrize("language", ["so", "id", "sw"])
def test_a_decision_is_typed_as_its_button_reads_or_in_english(language: str) -> None:
    t = translator(language)
    legal = [Action("pass"), Action("call_trump", suit="S")]
    choices = Choices.of(legal, [])
    for action in legal:
        assert interpret(action_text(action, t=t).lower(), choices, [], t) == action
    assert interpret("pass", choices, [], t) == legal[0]
    refusal = interpret("zz", choices, [], t)
    assert isinstance(refusal, str) and refusal.startswith("“zz” ")
    assert english_leftovers(refusal, language) == []
    assert english_leftovers(interpret("zz", choices, []), language)  # English by default


async def test_a_refused_card_is_told_in_somali_with_the_rules_reason(
        tmp_path: Path) -> None:
    """The engine's refusal through the terminal's session and the table service, in the
    table's language: Somali words, the led suit as its symbol, the held cards as ``K♣``."""
    cfg = PlayConfig(game="turup", database=f"sqlite:///{tmp_path / 't.db'}", pace=0,
                     forced_pause=0, name="Ann", seed=3, language="so")
    app = TableApp(cfg)
    async with app.run_test(size=(100, 30)) as pilot:
        card = await until_a_card_is_refused(pilot, app)
        assert card is not None and app.model is not None  # seed 3 has one within 40 turns
        version = app.model.version
        message = await type_card(pilot, app, card)
        assert message.startswith("Lama oggola: Waa inaad raacdaa "), message
        assert "waxaad haysaa " in message and "follow" not in message
        assert any(symbol in message for symbol in "♠♥♦♣")
        assert english_leftovers(message, "so") == []
        assert app.model is not None and app.model.version == version
