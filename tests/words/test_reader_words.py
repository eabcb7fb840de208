"""Words for one player's eyes (the web page of a seat; issue 46): the reader is ``you`` in
every sentence, with the verb of the second person in every language, and a result is said
from the reader's side — the same rule as the table's facts (``test_subject_agreement``)."""

from __future__ import annotations

from typing import Any

import pytest

from bot.i18n import translator
from bot.words.events import event_line, trick_line
from bot.words.results import deal_result, match_result
from bot.words.seating import Seating

NAMES = ["Ann", "Bo", "Cy", "Di"]
EVENTS: list[tuple[str, Any, str]] = [
    ("play", {"seat": 0, "card": "KD", "trick": 1}, "You played K♦."),
    ("play", {"seat": 0, "card": "KD", "trick": 1, "signal": "strong"},
     "You led K♦, signalling: strong suit."),
    ("pass", {"seat": 0}, "You pass."),
    ("call_trump", {"seat": 0, "suit": "H"}, "You call ♥ hearts trump."),
    ("trump", {"seat": 0, "suit": "H"}, "You name ♥ hearts trump."),
    ("concede", {"seat": 0}, "You concede the hand."),
    ("kort", {"seat": 0, "continue": True}, "You play on for kort: all nine tricks."),
    ("deal_started", {"deal": 1, "dealer": 0}, "Deal 2: you deal."),
    ("away", {"seat": 0}, "You are away: an AI plays for you."),
    ("ask_partner", {"seat": 2, "partner": 0},
     "Cy asks you how many more tricks you expect."),
]


@pytest.mark.parametrize(("kind", "data", "said"), EVENTS)
def test_the_reader_is_you_in_every_event(kind: str, data: Any, said: str) -> None:
    game = "turup" if kind in ("kort", "ask_partner", "trump") else "tarabish"
    reader = Seating.of(game, NAMES).reading(0)
    assert event_line(reader, kind, data) == said
    public = event_line(Seating.of(game, NAMES), kind, data) or ""
    assert "Ann" in public and "you" not in public.lower().split()  # others read the name


@pytest.mark.parametrize("language", ["so", "id", "sw"])
def test_the_second_person_is_translated(language: str) -> None:
    t = translator(language)
    reader = Seating.of("tarabish", NAMES, t=t).reading(0)
    for kind, data, english in EVENTS:
        game = "turup" if kind in ("kort", "ask_partner", "trump") else "tarabish"
        said = event_line(Seating.of(game, NAMES, t=t).reading(0), kind, data)
        assert said and said != english and "Ann" not in said, (kind, said)
    assert reader.name(0) == t.gettext("you") != "you"


def test_truf_bid_is_said_once_with_its_worth() -> None:
    reader = Seating.of("truf", NAMES).reading(0)
    assert event_line(reader, "bid", {"seat": 0, "card": "5H"}) == "You bid 5♥ (worth 5)."
    assert event_line(reader, "bid_placed", {"seat": 0}) is None
    assert event_line(reader, "bid_placed", {"seat": 1}) == "Bo has chosen a bid."


def test_a_trick_names_the_reader() -> None:
    reader = Seating.of("tarabish", NAMES).reading(0)
    trick: Any = {"leader": 0, "cards": [[0, "QC"], [1, "TC"]], "winner": 0, "number": 2}
    assert trick_line(reader, trick) == "Trick 2: you led Q♣, Bo 10♣; you win."


def test_the_match_result_is_said_from_the_readers_side() -> None:
    match: Any = {"totals": [5, 3], "over": True, "winner": 0, "decided_after": 4}
    won = match_result(Seating.of("turup", NAMES).reading(2), match).lines
    lost = match_result(Seating.of("turup", NAMES).reading(1), match).lines
    public = match_result(Seating.of("turup", NAMES), match).lines
    assert won[0] == "You won the match."
    assert lost[0] == "Ann and Cy won the match: you lost."
    assert public[0] == "Ann and Cy win the match."
    truf: Any = {"totals": [3, 1, 3, 0], "over": True, "winner": None, "winners": [0, 2]}
    shared = match_result(Seating.of("truf", NAMES).reading(0), truf).lines
    assert shared[0] == "You share the win with Cy."
    solo = match_result(Seating.of("truf", NAMES).reading(3), truf).lines
    assert solo[0] == "Ann and Cy won the match: you lost."


def test_the_deal_result_says_who_dealt() -> None:
    summary: Any = {"dealer": 0, "trump": "S", "tricks_by_team": [5, 4], "game_points": [1, 0]}
    lines = deal_result(Seating.of("turup", NAMES).reading(0), summary).lines
    assert lines[0] == "You dealt."
