"""The deal's facts agree their verbs with the reader: "you decide", "We won", "They score"
— never "you decides", "them won" or "Us play on" (the score line's *us*/*them* are not
subjects)."""

from __future__ import annotations

from typing import Any

import pytest

from bot.i18n import translator
from bot.words.seating import Seating
from bot.words.table_state import match_facts, table_facts

NAMES = ["Ann", "Bo", "Cy", "Di"]
WRONG = ("you decides", "you moves", "them won", "Them won", "us won", "Us won",
         "Them score", "Us score", "Us play", "Them play", "Us declared", "Them declared")


def facts(game: str, view: dict[str, Any], me: int | None) -> str:
    seating = Seating.of(game, NAMES)
    text = " | ".join(v for _, v in table_facts({"trump": "S", **view}, seating, me))
    assert not any(w in text for w in WRONG), text
    return text


def test_the_reader_decides_kort_in_the_second_person() -> None:
    view = {"decider": 0, "phase": "kort"}
    assert "5–0: you decide whether to play on" in facts("turup", view, 0)
    assert "5–0: Ann decides whether to play on" in facts("turup", view, 1)
    assert "5–0: Ann decides whether to play on" in facts("turup", view, None)


@pytest.mark.parametrize(("declared", "verb"), [(True, "declared kort"),
                                                (False, "play on for all nine")])
def test_a_kort_side_is_we_or_they(declared: bool, verb: str) -> None:
    view = {"kort_side": 1, "kort_declared": declared, "phase": "play"}
    assert f"They {verb}" in facts("turup", view, 0)
    assert f"We {verb}" in facts("turup", view, 1)
    assert f"Bo and Di {verb}" in facts("turup", view, None)


def test_tarabish_runs_are_scored_by_we_or_they() -> None:
    runs = {"declared": [{"seat": 1, "value": 20}], "resolved": True, "winner": 1,
            "points": 20, "shown": []}
    view = {"runs": runs, "phase": "play", "card_points_by_team": [0, 0]}
    assert "They score 20" in facts("tarabish", view, 0)
    assert "We score 20" in facts("tarabish", view, 3)
    assert "Bo and Di score 20" in facts("tarabish", view, None)


def test_truf_adjustment_by_the_reader() -> None:
    view = {"phase": "adjust", "high_bidder": 0, "final_bids": [4, 3, 3, 3]}
    assert "the bids total 13: you move every bid" in facts("truf", view, 0)
    assert "the bids total 13: Ann moves every bid" in facts("truf", view, 2)


def test_arbaa_turub_streak_is_we_or_they() -> None:
    seating = Seating.of("arbaa_turub", NAMES)
    match = {"holder": 1, "ref": 5}

    def text(me: int | None) -> str:
        return " ".join(v for _, v in match_facts(match, seating, me))
    assert text(0).startswith("They won the last deal with 5 tricks")
    assert text(1).startswith("We won the last deal with 5 tricks")
    assert text(None).startswith("Bo and Di won the last deal")


@pytest.mark.parametrize("language", ["so", "id", "sw"])
def test_the_we_and_they_sentences_are_translated(language: str) -> None:
    seating = Seating.of("arbaa_turub", NAMES, t=translator(language))
    english = Seating.of("arbaa_turub", NAMES)
    for me in (0, 1):
        said = match_facts({"holder": 1, "ref": 5}, seating, me)[0][1]
        assert said != match_facts({"holder": 1, "ref": 5}, english, me)[0][1]
