"""Results in players' words for whole simulated matches of every game: no record card
codes, no engine keys, no Python literals, no bare seat numbers; the players' names, the
scores of the summaries and the reason of each result appear."""

from __future__ import annotations

import pytest
from words_check import NAMES, assert_clean, problems, random_match

from bot.words.events import event_line, trick_line
from bot.words.results import deal_result, match_result
from bot.words.seating import Seating
from games.registry import GAMES

CASES = [(g, n) for g, info in GAMES.items() for n in info.player_counts]


@pytest.mark.parametrize(("game", "players"), CASES)
def test_whole_match_results_and_events_read_as_words(game: str, players: int) -> None:
    match, summaries, events = random_match(game, players, seed=players * 7 + 1)
    seating = Seating.of(game, NAMES[:players], match.options.to_json())
    texts = []
    for i, (summary, seen) in enumerate(zip(summaries, events, strict=True)):
        result = deal_result(seating, summary, number=i, match=match.summary())
        assert result.title == f"Deal {summary.get('hand_number', i + 1)}"
        assert result.lines, "a deal result says something"
        texts += [result.title, *result.lines]
        for event in seen:
            line = event_line(seating, event.type, event.data)
            if line is not None:
                texts.append(line)
    final = match_result(seating, match.summary())
    texts += [final.title, *final.lines]
    assert_clean(texts)
    everything = "\n".join(texts)
    for name in NAMES[:players]:
        assert name in everything
    if match.over:
        assert final.title == "Match over"


def test_the_checker_catches_what_it_must() -> None:
    assert problems("winner side: 0")
    assert problems("Bob played KC")
    assert problems("redeal: False")
    assert problems("seat 1 scores 20")
    assert problems("points: [6, 6]")
    assert problems("points: 6–6–-2–-5")
    assert not problems("Bob played K♣; Ann and Cy win the deal with 22 tricks.")


def seating(game: str = "turup") -> Seating:
    return Seating.of(game, NAMES[:4])


def test_turup_results_say_why() -> None:
    s = seating()
    kort = {"dealer": 0, "trump": "S", "tricks_by_team": [9, 0], "game_points": [3, 0],
            "kort": "made"}
    text = deal_result(s, kort, match={"totals": [3, 0]}).body
    assert "named by Di" in text  # eldest is the dealer's right
    assert "Kort! Ann and Cy took all nine tricks and score 3 game points." in text
    assert "Score: Ann and Cy 3, Bob and Di 0 game points (first to 5)." in text
    failed = {"dealer": 1, "trump": "H", "tricks_by_team": [5, 1], "game_points": [0, 3],
              "kort": "failed"}
    assert ("Kort failed: Bob and Di took a trick, so they score 3 game points."
            in deal_result(s, failed).body)
    plain = {"dealer": 1, "trump": "H", "tricks_by_team": [3, 5], "game_points": [0, 1],
             "kort": None}
    assert "Bob and Di took five tricks first: 1 game point." in deal_result(s, plain).body


def test_arbaa_turub_names_the_first_win_and_the_count_to_beat() -> None:
    s = seating("arbaa_turub")
    summary = {"dealer": 3, "trump": "S", "tricks_by_team": [14, 22]}
    text = deal_result(s, summary, match={"totals": [0, 1], "holder": 1, "ref": 22,
                                          "over": False}).body
    assert "Trump: ♠ spades, named by Ann." in text  # eldest is the dealer's left
    assert "Bob and Di win the deal with 22 tricks." in text
    assert ("Bob and Di hold a first win of 22 tricks: if they win the next deal with more "
            "than 22 tricks, they win the match.") in text
    draw = deal_result(s, {"dealer": 0, "trump": "H", "tricks_by_team": [18, 18]}).body
    assert "18–18: a drawn deal." in draw


@pytest.mark.parametrize(("result", "phrase"), [
    ("made", "Made: Ann and Cy took 120 of 212"),
    ("half_bait", "Half bait: Ann and Cy took exactly half"),
    ("bait", "Bait: Ann and Cy took 120 of 212, less than half: they score nothing and Bob "
             "and Di score all 212."),
])
def test_tarabish_results_say_made_half_bait_or_bait(result: str, phrase: str) -> None:
    summary = {"dealer": 3, "trump": "C", "caller": 0, "runs_declared": [
        {"seat": 0, "value": 50}], "runs_winner": 0, "run_points": 50, "bella": 1,
        "card_points_by_team": [70, 92], "raw_points_by_team": [120, 92], "hand_total": 212,
        "result": result, "hand_score": [120, 92]}
    text = deal_result(seating("tarabish"), summary).body
    assert phrase in text
    assert "Ann called ♣ clubs." in text
    assert "Ann has the best run and scores runs worth 50." in text
    assert "Bob announced bella: 20." in text


def test_truf_results_show_each_bid_its_value_and_the_mode() -> None:
    summary = {"dealer": 2, "redeal": False, "bids": [0, 3, 3, 7],
               "bid_cards": [["KC"], ["3H"], ["3S"], ["7C"]], "bid_total": 13,
               "mode": "atas", "adjust": {"direction": "up", "amount": 1}, "leader": 3,
               "trump": "C", "final_bids": [1, 4, 4, 8], "tricks_by_seat": [3, 5, 3, 2],
               "points": [4, 2, -1, -6]}
    text = deal_result(Seating.of("truf", NAMES[:4]), summary).body
    assert "Bids: Ann K♣ (0), Bob 3♥ (3), Cy 3♠ (3), Di 7♣ (7)." in text
    assert "Di moved every bid up by 1, so the deal is main atas (play high)." in text
    assert "Ann: bid 1, took 3 tricks: +4." in text
    assert "Di: bid 8, took 2 tricks: -6." in text
    void = {"dealer": 1, "redeal": True, "misdeal": [{"seat": 2, "reason":
                                                      "only court cards"}]}
    assert "Misdeal: Cy held only court cards." in deal_result(
        Seating.of("truf", NAMES[:4]), void).body


def test_albastini_names_the_turned_trump_and_who_took_it() -> None:
    summary = {"dealer": 0, "trump": "S", "exchanged_by": 3, "bottom_card": "6S",
               "points_by_side": [59, 61], "winner_side": 1, "victory_points": [0, 1],
               "hand_over": True}
    deal = {"extra": {"trump_card": "KS"}, "actions": [
        {"seat": 1, "type": "bid", "card": "4C"}, {"seat": 3, "type": "bid", "card": "6S"}]}
    text = deal_result(seating("albastini"), summary, deal=deal).body
    assert "Bids: Bob 4♣, Di 6♠." in text
    assert "Di had bid trumps, took the turned K♠ and put 6♠ face up under the stock." in text
    assert "Bob and Di win the game: 1 victory point" in text
    solo = Seating.of("albastini", NAMES[:3])
    lone = {"dealer": 0, "trump": "H", "exchanged_by": None, "bottom_card": "5H",
            "points_by_side": [5, 80, 35], "winner_side": 1, "victory_points": [0, 2, 0],
            "hand_over": True}
    text = deal_result(solo, lone).body
    assert "Trump: ♥ hearts, the turned 5♥; nobody took it." in text
    assert "Bob wins the game: 2 victory points, because a side took fewer than 10" in text


def test_match_result_names_winners_and_shared_wins() -> None:
    s = Seating.of("truf", NAMES[:4])
    shared = match_result(s, {"totals": [4, 4, -1, 0], "over": True, "winner": None,
                              "winners": [0, 1], "decided_after": 12})
    assert shared.lines[0] == "Ann and Bob share the win."
    assert "Final score: Ann 4, Bob 4, Cy -1, Di 0 points." in shared.lines
    assert "Decided after deal 13." in shared.lines  # without Truf's hand count
    full = match_result(s, {"totals": [4, 3, -1, 0], "over": True, "winner": 0,
                            "winners": [0], "decided_after": 13, "next_hand_number": 14})
    assert full.lines == ("Ann wins the match.", "Final score: Ann 4, Bob 3, Cy -1, Di 0 "
                          "points.", "After 13 deals.")
    team = match_result(seating(), {"totals": [5, 2], "over": True, "winner": 0})
    assert team.lines[0] == "Ann and Cy win the match."


def test_trick_lines_name_leader_cards_and_winner() -> None:
    s = seating()
    line = trick_line(s, {"number": 3, "leader": 1, "cards": [[1, "KC"], [0, "9C"],
                                                              [3, "AC"], [2, "TD"]],
                          "winner": 3})
    assert line == "Trick 3: Bob led K♣, Ann 9♣, Di A♣, Cy 10♦; Di wins."
    assert "(29 card points)" in trick_line(
        seating("albastini"), {"number": 1, "cards": [[0, "AS"], [1, "7S"]], "winner": 1,
                               "points": 29})
