"""The deal review: pages from a stored record, every hand as dealt, trick by trick with
the running count, the result; ``tricktable replay FILE --show`` on every example."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from words_check import NAMES, assert_clean, random_match

from bot.words.review import PAGE_LIMIT, review_pages, show_text
from bot.words.seating import Seating
from games.records import replay
from games.turup import TurupMatch

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((ROOT / "examples").glob("*.json"))


def test_review_of_a_turup_deal_tells_hands_tricks_count_and_result() -> None:
    record = json.loads((ROOT / "examples" / "turup-deal.json").read_text())
    seating = Seating.of("turup", NAMES[:4])
    pages = review_pages(record, seating)
    hands, play, result = pages
    assert hands.title == "Deal 1: hands as dealt"
    assert hands.lines[0] == "Ann dealt."
    # every hand as dealt, by name, all nine cards with symbols
    for seat, name in enumerate(NAMES[:4]):
        line = next(x for x in hands.lines if x.startswith(f"{name}: "))
        assert len(re.findall(r"(?:10|[2-9AKQJ])[♠♥♦♣]", line)) == 9
        assert len(record["hands"][seat]) == 9
    tricks = [x for x in play.lines if x.startswith("Trick ")]
    summary = replay(record)[0]["deals"][0]
    assert len(tricks) == len(summary["tricks"]) == 9
    first = summary["tricks"][0]
    leader = NAMES[first["leader"]]
    assert tricks[0].startswith(f"Trick 1: {leader} led ")
    assert tricks[0].endswith(f"; {NAMES[first['winner']]} wins.")
    counts = [x for x in play.lines if x.startswith("Tricks so far: ")]
    assert counts[-1] == "Tricks so far: Ann and Cy 9, Bob and Di 0."
    assert "Di names ♠ spades trump." in play.lines
    assert "Cy plays on for kort: all nine tricks." in play.lines
    assert result.title == "Deal 1: result"
    assert "Kort! Ann and Cy took all nine tricks and score 3 game points." in result.lines
    assert_clean([p.render() for p in pages])


def test_review_of_one_deal_of_a_longer_match_and_page_sizes() -> None:
    match, _, _ = random_match("arbaa_turub", 4, seed=5)
    record = match.record()
    seating = Seating.of("arbaa_turub", NAMES[:4])
    pages = review_pages(record, seating, deal=1)
    assert pages[0].title.startswith("Deal 2: hands as dealt")
    assert all(p.title.startswith("Deal 2") for p in pages)
    tricks = [x for p in pages for x in p.lines if x.startswith("Trick ")]
    assert len(tricks) == 36
    assert all(len(p.render()) <= PAGE_LIMIT for p in pages)
    assert len(pages) > 3  # 36 tricks do not fit one page: ◀ ▶ turn them
    assert_clean([p.render() for p in pages])


@pytest.mark.parametrize("game", ["tarabish", "truf", "albastini"])
def test_review_of_whole_random_matches_reads_as_words(game: str) -> None:
    players = 4
    match, summaries, _ = random_match(game, players, seed=11)
    pages = review_pages(match.record(), Seating.of(game, NAMES[:players],
                                                    match.options.to_json()))
    results = [p for p in pages if ": result" in p.title]
    assert len(results) == len(summaries)
    if match.over:
        assert pages[-1].title == "Match over"
    assert_clean([p.render() for p in pages])


def test_a_refused_action_is_told_with_its_reason_in_symbols() -> None:
    record = json.loads((ROOT / "examples" / "turup-revoke.json").read_text())
    pages = review_pages(record, Seating.of("turup", NAMES[:4]), finished_only=False)
    last = pages[-1].lines[-1]
    assert last == ("Di tried an action the rules refuse: you must follow spades: "
                    "you hold 10♠.")


def test_an_invalid_record_gives_one_page_saying_why() -> None:
    pages = review_pages({"game": "nope", "dealer": 0, "hands": []})
    assert len(pages) == 1 and pages[0].title == "This record cannot be read"
    text, status = show_text("{not json")
    assert status == 2 and text.startswith("This record cannot be read: not valid JSON")


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.name for p in EXAMPLES])
def test_replay_show_on_every_example(path: Path) -> None:
    res = subprocess.run([sys.executable, "-m", "bot.cli", "replay", str(path), "--show"],
                         capture_output=True, text=True, cwd=ROOT, timeout=120)
    expected = replay(json.loads(path.read_text()))[1]
    assert res.returncode == expected, res.stderr
    assert res.stderr == ""
    out = res.stdout
    assert "Deal 1" in out
    record = json.loads(path.read_text())
    if any("hands" in d for d in record.get("deals", [record])):
        assert "hands as dealt" in out and ("Trick 1:" in out or "refuse" in out)
    assert_clean(out.replace("Seat ", "Player ").splitlines())


def test_a_deal_in_play_is_not_reviewed_so_no_hand_is_shown() -> None:
    match = TurupMatch(None, 4, 0, seed=4)
    deal = match.start_deal()
    for _ in range(3):
        seat = deal.to_act[0]
        deal.apply(seat, deal.legal_actions(seat)[0])
    record = match.record()
    pages = review_pages(record, Seating.of("turup", NAMES[:4]))
    assert len(pages) == 1
    assert pages[0].lines == ("This deal is still being played: its review opens when it "
                              "is over.",)
    assert not re.search(r"[♠♥♦♣]", pages[0].render())
    told = review_pages(record, Seating.of("turup", NAMES[:4]), finished_only=False)
    assert told[0].title == "Deal 1: hands as dealt"
