"""``tricktable replay FILE --analyse [--seat N]`` (:mod:`bot.words.analysis`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.cli import main
from bot.i18n import translator
from bot.words.analysis import analyse_text

ROOT = Path(__file__).resolve().parents[1]
TURUP = ROOT / "examples" / "turup-deal.json"


def test_analyse_one_seat_in_player_words(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(TURUP), "--analyse", "--seat", "1"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "Deal 1"
    assert out[1].startswith("Seat 1: ") and "% accuracy over 7 decisions." in out[1]
    assert out[2].startswith("  Trick 1: Play ") and "♣" in out[2]
    assert all(line.startswith("  Trick ") for line in out[2:])
    assert any("(best)" in line for line in out)


def test_every_seat_by_default() -> None:
    text = TURUP.read_text()
    first, status = analyse_text(text)
    assert status == 0
    assert [line.split(":")[0] for line in first.splitlines() if line.startswith("Seat")] == [
        "Seat 0", "Seat 1", "Seat 2", "Seat 3"]


def test_analysis_speaks_the_readers_language() -> None:
    out, status = analyse_text(TURUP.read_text(), 1, t=translator("sw"))
    assert status == 0 and "Kiti 1: usahihi" in out and "Mzunguko wa 1:" in out


def test_an_unreadable_record_and_a_missing_seat(tmp_path: Path) -> None:
    assert analyse_text("{")[1] == 2
    out, status = analyse_text(TURUP.read_text(), 7)
    assert status == 2 and "no seat 7" in out
