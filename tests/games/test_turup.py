"""Turup: one test (at least) per rule and option of docs/rules/turup.md."""

from __future__ import annotations

import random

import pytest
from plain_helpers import play, play_random, plays

from games.actions import Action
from games.cards import RANKS_36, deck, shuffled
from games.errors import IllegalAction
from games.plain_tricks import deal_hands
from games.records import replay
from games.turup import TurupDeal, TurupMatch

RANKS = "AKQJT9876"
# Seat 0: eight spades and the 6H; seat 1: the 6S and eight hearts; 2: diamonds; 3: clubs.
KORT_HANDS = [
    ["AS", "KS", "QS", "JS", "TS", "9S", "8S", "7S", "6H"],
    ["6S", "AH", "KH", "QH", "JH", "TH", "9H", "8H", "7H"],
    [r + "D" for r in RANKS],
    [r + "C" for r in RANKS],
]


def new_deal(hands=None, dealer: int = 1, **opts: object) -> TurupDeal:
    d = TurupMatch(opts, None, dealer, seed=1).start_deal(hands or KORT_HANDS)
    assert isinstance(d, TurupDeal)
    return d


def lead_round(d: TurupDeal, lead: str) -> None:
    """Seat 0 leads ``lead``; the others (counter-clockwise 3, 2, 1) play their first legal card."""
    play(d, 0, lead)
    for seat in (3, 2, 1):
        d.apply(seat, d.legal_actions(seat)[0])


def five_nil(**opts: object) -> TurupDeal:
    d = new_deal(**opts)
    d.apply(0, Action.call_trump("S"))
    for lead in ("AS", "KS", "QS", "JS", "TS"):
        lead_round(d, lead)
    return d


# 2. Deal, counter-clockwise --------------------------------------------------------------
def test_eldest_is_dealers_right_and_the_deal_runs_counter_clockwise():
    rng = random.Random(4)
    pack = shuffled(deck(RANKS_36), random.Random(4))
    hands = deal_hands(2, -1, 9, 1, rng)
    assert hands[1][:3] == pack[0:3]  # eldest = dealer 2's right = seat 1
    assert hands[0][:3] == pack[3:6]
    assert hands[3][:3] == pack[6:9]
    assert hands[2][:3] == pack[9:12]
    assert hands[1][3:6] == pack[12:15]


def test_trump_named_by_eldest_from_his_first_packet():
    d = TurupMatch(None, None, 2, seed=5).start_deal()
    assert isinstance(d, TurupDeal)
    assert d.eldest == 1 and d.to_act == (1,)
    assert sorted(d.view(1)["hand"]) == sorted(d.dealt_hands()[1][:3])
    assert all(d.view(s)["hand"] == [] for s in (0, 2, 3, None))
    with pytest.raises(IllegalAction, match="only seat 1"):
        d.apply(2, Action.call_trump("H"))
    d.apply(1, Action.call_trump("H"))
    assert len(d.view(1)["hand"]) == 9


# 3. Play ---------------------------------------------------------------------------------
def test_play_goes_counter_clockwise_and_must_follow_suit():
    d = new_deal()
    d.apply(0, Action.call_trump("D"))
    play(d, 0, "AS")
    assert d.to_act == (3,)
    play(d, 3, "AC")
    play(d, 2, "6D")  # void in spades: may trump
    with pytest.raises(IllegalAction, match="you must follow spades: you hold 6S"):
        play(d, 1, "AH")
    play(d, 1, "6S")
    assert d.summary()["trick_winners"] == [2]


# 4. Early finish, 5-0 and kort -----------------------------------------------------------
def test_a_side_with_five_tricks_ends_the_deal_with_one_game_point():
    hands = [["AS", "KS", "QS", "JS", "TS", "6C", "7C", "8C", "9C"],
             ["9S", "8S", "7S", "6S", "AH", "KH", "QH", "JH", "TH"],
             [r + "D" for r in RANKS],
             ["9H", "8H", "7H", "6H", "AC", "KC", "QC", "JC", "TC"]]
    d = new_deal(hands)
    d.apply(0, Action.call_trump("S"))
    plays(d, (0, "6C"), (3, "AC"), (2, "AD"), (1, "6S"))  # B ruffs
    plays(d, (1, "AH"), (0, "AS"), (3, "9H"), (2, "KD"))  # A ruffs
    for lead in ("KS", "QS", "JS"):
        lead_round(d, lead)  # seat 1 follows with his last spades
    assert d.tricks_by_team() == [4, 1] and not d.is_over
    lead_round(d, "TS")
    s = d.summary()
    assert s["hand_over"] and s["tricks_by_team"] == [5, 1] and s["game_points"] == [1, 0]
    assert len(s["trick_winners"]) == 6  # the remaining three tricks are not played


def test_five_nil_waits_for_the_decision_and_play_is_refused():
    d = five_nil()
    s = d.summary()
    assert s["hand_over"] is False and s["game_points"] == [0, 0]
    assert d.to_act == (0,)
    assert set(d.legal_actions(0)) == {Action("ask_partner"), Action.kort(False),
                                       Action.kort(True)}
    with pytest.raises(IllegalAction, match="must first decide"):
        play(d, 0, "9S")
    with pytest.raises(IllegalAction, match="only seat 0"):
        d.apply(2, Action.kort(True))


def test_ask_partner_then_public_answer_then_decision():
    d = five_nil()
    d.apply(0, Action("ask_partner"))
    assert d.to_act == (2,)
    with pytest.raises(IllegalAction, match="0 to 4"):
        d.apply(2, Action.answer(5))
    events = d.apply(2, Action.answer(3))
    assert events[0].to is None and events[0].data["tricks"] == 3
    assert d.view(1)["partner_answer"] == 3
    assert Action("ask_partner") not in d.legal_actions(0)
    with pytest.raises(IllegalAction, match="already asked"):
        d.apply(0, Action("ask_partner"))
    d.apply(0, Action.kort(False))
    assert d.is_over and d.summary()["game_points"] == [1, 0]


def test_kort_continue_all_nine_scores_three():
    d = five_nil()
    d.apply(0, Action.kort(True))
    for lead in ("9S", "8S", "7S"):
        lead_round(d, lead)
    assert not d.is_over
    lead_round(d, "6H")  # seat 1's hearts win: the opponents took a trick
    s = d.summary()
    assert s["hand_over"] and s["game_points"] == [0, 3] and s["kort"] == "failed"
    assert s["tricks_by_team"] == [8, 1]


def test_kort_made_scores_three():
    hands = [[r + "S" for r in RANKS], [r + "H" for r in RANKS],
             [r + "D" for r in RANKS], [r + "C" for r in RANKS]]
    d = new_deal(hands)
    d.apply(0, Action.call_trump("S"))
    for lead in RANKS[:5]:
        lead_round(d, lead + "S")
    d.apply(0, Action.kort(True))
    for lead in RANKS[5:]:
        lead_round(d, lead + "S")
    s = d.summary()
    assert s["game_points"] == [3, 0] and s["kort"] == "made" and s["tricks_by_team"] == [9, 0]


def test_failed_kort_ends_at_the_first_lost_trick():
    d = five_nil()
    d.apply(0, Action.kort(True))
    lead_round(d, "6H")
    assert d.is_over and d.summary()["game_points"] == [0, 3]
    assert len(d.summary()["trick_winners"]) == 6
    with pytest.raises(IllegalAction, match="over"):
        play(d, 0, "9S")


def test_kort_declared_before_play():
    d = new_deal(kort_declared_before_play=True)
    assert Action("declare_kort") not in d.legal_actions(1)  # trump not named yet
    d.apply(0, Action.call_trump("S"))
    assert Action("declare_kort") in d.legal_actions(1)  # any player, before the lead
    d.apply(0, Action("declare_kort"))
    with pytest.raises(IllegalAction, match="already been declared"):
        d.apply(1, Action("declare_kort"))
    for lead in ("AS", "KS", "QS", "JS", "TS"):
        lead_round(d, lead)
    assert not d.is_over and d.phase == "play"  # no early finish for the declaring side
    lead_round(d, "6H")
    assert d.is_over and d.summary()["game_points"] == [0, 3]


def test_with_the_option_on_but_no_declaration_the_5_0_decision_is_offered():
    """Section 4: "With the option on but no declaration made, the 5–0 decision (ask,
    then stop or continue) is offered as without the option." """
    for opts in ({}, {"kort_declared_before_play": True}):
        d = five_nil(**opts)
        assert d.phase == "kort" and d.to_act == (0,) and not d.is_over
        assert [a.type for a in d.legal_actions(0)] == ["ask_partner", "kort", "kort"]
        d.apply(0, Action("ask_partner"))
        d.apply(2, Action.answer(3))
        d.apply(0, Action.kort(False))
        assert d.is_over and d.summary()["game_points"] == [1, 0]
        assert d.summary()["kort"] is None
        d = five_nil(**opts)
        d.apply(0, Action.kort(True))
        lead_round(d, "9S")
        lead_round(d, "8S")
        lead_round(d, "7S")
        lead_round(d, "6H")
        assert d.is_over and d.summary()["game_points"] == [0, 3]  # the first trick lost
        assert d.summary()["kort"] == "failed"


def test_declare_kort_needs_the_option_and_comes_before_the_first_lead():
    d = new_deal()
    d.apply(0, Action.call_trump("S"))
    with pytest.raises(IllegalAction, match="not declared before play"):
        d.apply(1, Action("declare_kort"))
    d = new_deal(kort_declared_before_play=True)
    d.apply(0, Action.call_trump("S"))
    play(d, 0, "AS")
    with pytest.raises(IllegalAction, match="before the first card"):
        d.apply(1, Action("declare_kort"))


# Game to target, next dealer -------------------------------------------------------------
def test_match_to_target_and_dealer_rotation():
    deals = [{"summary": {"tricks_by_team": t}} for t in ([5, 2], [0, 9], [5, 3])]
    deals[1]["summary"]["kort"] = "made"
    deals[0]["dealer"] = 2
    out, status = replay({"game": "turup", "options": {"target": 4}, "deals": deals})
    assert status == 0, out
    assert out["match"]["dealers"] == [2, 1, 0, 3]  # counter-clockwise
    assert out["match"]["totals"] == [2, 3] and out["match"]["over"] is False
    deals.append({"summary": {"tricks_by_team": [1, 5]}})
    out, _ = replay({"game": "turup", "options": {"target": 4}, "deals": deals})
    assert out["match"]["over"] and out["match"]["winner"] == 1
    out, _ = replay({"game": "turup", "options": {"dealer_rotation": "clockwise"},
                     "deals": deals[:2]})
    assert out["match"]["dealers"] == [2, 3, 0]


@pytest.mark.parametrize(("tricks", "kort", "points"), [
    ([5, 4], None, [1, 0]), ([3, 5], None, [0, 1]), ([5, 0], None, [1, 0]),
    ([9, 0], "made", [3, 0]), ([7, 1], "failed", [0, 3]), ([1, 6], "failed", [3, 0]),
])
def test_score_only_deals(tricks, kort, points):
    summary = {"tricks_by_team": tricks} | ({"kort": kort} if kort else {})
    out, status = replay({"game": "turup", "dealer": 0, "summary": summary})
    assert status == 0 and out["deals"][0]["game_points"] == points


@pytest.mark.parametrize("summary", [
    {"tricks_by_team": [5, 5]}, {"tricks_by_team": [4, 4]}, {"tricks_by_team": [9, 1],
                                                             "kort": "made"},
    {"tricks_by_team": [3, 1], "kort": "failed"}, {"tricks_by_team": [5, 1], "kort": "maybe"},
    {"tricks_by_team": [5, 1], "cards": 3},
])
def test_impossible_score_only_deals_are_invalid(summary):
    out, status = replay({"game": "turup", "dealer": 0, "summary": summary})
    assert status == 2 and "summary" in out["error"]


def test_signals_as_arbaa_turub():
    d = new_deal()
    d.apply(0, Action.call_trump("S"))
    d.apply(0, Action.play("AS", signal="weak"))
    with pytest.raises(IllegalAction, match="only the player leading"):
        d.apply(3, Action.play("AC", signal="strong"))
    d = new_deal(signals_enabled=False)
    d.apply(0, Action.call_trump("S"))
    with pytest.raises(IllegalAction, match="not used"):
        d.apply(0, Action.play("AS", signal="weak"))


def test_random_matches_end_with_one_side_scoring_each_deal():
    for seed in range(20):
        m = TurupMatch(None, None, seed % 4, seed=seed)
        rng = random.Random(seed)
        while not m.over:
            d = m.start_deal()
            play_random(d, rng)
            s = m.finish_deal()
            assert sorted(s["game_points"]) in ([0, 1], [0, 3])
        assert max(m.totals) >= 5 and m.winner == m.totals.index(max(m.totals))
