"""Arba'a Turub: one test (at least) per numbered rule of docs/rules/arbaa-turub.md."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from plain_helpers import play, plays, suit_hands

from games.actions import Action
from games.arbaa_turub import ArbaaTurubDeal, ArbaaTurubMatch, draw_for_partners
from games.cards import card
from games.errors import IllegalAction, OptionError
from games.plain_tricks import deal_hands
from games.records import replay

RANKS = "AKQJT9876"


def new_deal(dealer: int = 0, hands: list[list[str]] | None = None, **opts: object):
    m = ArbaaTurubMatch(opts, None, dealer, seed=7)
    return m, m.start_deal(hands if hands is not None else suit_hands(RANKS, 4))


# 1. Players and deck ---------------------------------------------------------------------
def test_deck_is_four_identical_packs_and_hands_hold_36():
    hands = deal_hands(0, 1, 36, 4, random.Random(3))
    counts = Counter(c for h in hands for c in h)
    assert len(counts) == 36 and set(counts.values()) == {4}
    assert [len(h) for h in hands] == [36] * 4


def test_hands_that_are_not_the_pack_are_refused():
    hands = suit_hands(RANKS, 4)
    hands[0][0] = "AH"  # five AH, three AS
    from games.errors import RecordError
    with pytest.raises(RecordError, match="not the pack"):
        ArbaaTurubMatch(None, None, 0).start_deal(hands)


# 3. Deal ---------------------------------------------------------------------------------
def test_deal_in_packets_of_three_clockwise_from_eldest():
    rng = random.Random(11)
    hands = deal_hands(2, 1, 36, 4, random.Random(11))
    from games.cards import RANKS_36, deck, shuffled
    pack = shuffled(deck(RANKS_36, copies=4), rng)
    # dealer 2: eldest 3, then 0, 1, 2; packets of three, round and round
    assert hands[3][:3] == pack[0:3]
    assert hands[0][:3] == pack[3:6]
    assert hands[2][:3] == pack[9:12]
    assert hands[3][3:6] == pack[12:15]


def test_trump_call_sees_only_the_first_packet_and_nobody_else_sees_anything():
    m = ArbaaTurubMatch(None, None, 1, seed=3)
    d = m.start_deal()
    assert isinstance(d, ArbaaTurubDeal)
    assert d.eldest == 2 and d.to_act == (2,)
    first = sorted(d.dealt_hands()[2][:3])
    assert sorted(d.view(2)["hand"]) == first
    for seat in (0, 1, 3, None):
        assert d.view(seat)["hand"] == []
    assert d.view(0)["hand_sizes"] == [0, 0, 3, 0]
    # nobody may play before trump is named; only eldest names it, any suit
    with pytest.raises(IllegalAction, match="trump has not been named"):
        d.apply(2, Action.play(d.dealt_hands()[2][0]))
    with pytest.raises(IllegalAction, match="only seat 2"):
        d.apply(0, Action.call_trump("S"))
    d.apply(2, Action.call_trump("C"))
    assert d.view(0)["trump"] == "C" and len(d.view(0)["hand"]) == 36
    with pytest.raises(IllegalAction, match="already"):
        d.apply(2, Action.call_trump("S"))


# 4. Legal play ---------------------------------------------------------------------------
def test_follow_suit_if_able_otherwise_anything():
    hands = suit_hands(RANKS, 4)
    hands[0][0], hands[1][0] = "AH", "AS"  # seat 0: 35 spades + AH; seat 1: AS + 35 hearts
    _, d = new_deal(3, hands)  # eldest = 0
    d.apply(0, Action.call_trump("D"))
    play(d, 0, "KS")
    with pytest.raises(IllegalAction) as exc:
        play(d, 1, "KH")
    assert exc.value.reason == "you must follow spades: you hold AS"
    play(d, 1, "AS")
    play(d, 2, "AD")  # void in spades: anything, trump included
    play(d, 3, "6C")  # void: no duty to trump or beat
    assert d.summary()["trick_winners"] == [2]


def test_leader_may_lead_trumps_and_a_card_not_held_is_refused():
    _, d = new_deal(3)
    d.apply(0, Action.call_trump("S"))
    with pytest.raises(IllegalAction, match="you do not hold AH"):
        play(d, 0, "AH")
    play(d, 0, "6S")
    assert d.view(None)["trick"]["cards"] == [[0, "6S"]]


# 5. Trick winner -------------------------------------------------------------------------
def test_highest_trump_wins_else_highest_of_led_suit_and_identical_first_copy_wins():
    hands = suit_hands(RANKS, 4)
    _, d = new_deal(3, hands)
    d.apply(0, Action.call_trump("H"))
    plays(d, (0, "AS"), (1, "6H"), (2, "AD"), (3, "AC"))
    assert d.summary()["trick_winners"] == [1]  # the lowest trump beats every plain card
    plays(d, (1, "AH"), (2, "KD"), (3, "KC"), (0, "KS"))
    assert d.summary()["trick_winners"] == [1, 1]
    plays(d, (1, "AH"), (2, "QD"), (3, "QC"), (0, "QS"))
    assert d.summary()["trick_winners"][-1] == 1


def test_identical_top_trumps_first_copy_played_wins():
    hands = suit_hands(RANKS, 4)
    # seats 0 and 2 both hold AS copies: swap two of seat 0's spades with seat 2's diamonds
    hands[0][0], hands[2][0] = "AD", "AS"
    _, d = new_deal(3, hands)
    d.apply(0, Action.call_trump("S"))
    plays(d, (0, "AD"), (1, "AH"))
    # seat 2 holds AD copies: must follow diamonds
    with pytest.raises(IllegalAction, match="must follow diamonds"):
        play(d, 2, "AS")
    plays(d, (2, "AD"), (3, "6C"))
    assert d.summary()["trick_winners"] == [0]  # two AD: the first copy (seat 0) wins
    # now seat 0 leads AS and seat 2 (void? no: holds one AS) — seat 2 follows with AS
    plays(d, (0, "AS"), (1, "KH"), (2, "AS"), (3, "7C"))
    assert d.summary()["trick_winners"] == [0, 0]


# 6. End of deal --------------------------------------------------------------------------
def test_all_36_tricks_are_played_and_the_counts_add_up():
    _, d = new_deal(0)
    rng = random.Random(2)
    from plain_helpers import play_random
    play_random(d, rng)
    s = d.summary()
    assert len(s["trick_winners"]) == 36 and sum(s["tricks_by_team"]) == 36
    assert s["hand_over"] is True
    with pytest.raises(IllegalAction, match="over"):
        d.apply(0, Action.play("AS"))


# 7. Match rule (worked example scaled to 36 tricks) --------------------------------------
def scored(*deals: tuple[int, int], dealer: int = 0, **opts: object) -> dict:
    rec = {"format": "tricktable/1", "game": "arbaa_turub", "options": opts,
           "deals": [{"summary": {"tricks_by_team": list(t)}} for t in deals]}
    rec["deals"][0]["dealer"] = dealer
    out, status = replay(rec)
    assert status == 0, out
    return out


def test_worked_example_21_19_22_wins_the_match():
    out = scored((21, 15), (19, 17))
    assert out["match"]["over"] is False
    assert (out["match"]["holder"], out["match"]["ref"]) == (0, 21)  # the ref stays 21
    out = scored((21, 15), (19, 17), (22, 14))
    assert out["match"]["over"] is True and out["match"]["winner"] == 0
    assert out["match"]["decided_after"] == 2
    assert out["match"]["totals"] == [3, 0]


def test_second_win_needs_strictly_more_tricks():
    out = scored((21, 15), (21, 15))
    assert out["match"]["over"] is False and out["match"]["ref"] == 21


def test_a_win_by_the_other_side_takes_the_hold_and_only_it_can_win_next():
    out = scored((21, 15), (19, 17), (15, 21))
    assert (out["match"]["holder"], out["match"]["ref"]) == (1, 21)
    out = scored((21, 15), (19, 17), (15, 21), (30, 6))  # A's win is again a *first* win
    assert out["match"]["over"] is False
    assert (out["match"]["holder"], out["match"]["ref"]) == (0, 30)


def test_draw_leaves_the_hold_by_default_and_clears_it_with_draw_breaks_streak():
    out = scored((20, 16), (18, 18), (21, 15))
    assert out["match"]["winner"] == 0
    out = scored((20, 16), (18, 18), (21, 15), draw_breaks_streak=True)
    assert out["match"]["over"] is False and out["match"]["holder"] == 0
    assert out["match"]["ref"] == 21


def test_deals_after_the_match_is_decided_are_refused():
    rec = {"game": "arbaa_turub", "deals": [{"summary": {"tricks_by_team": t}}
                                            for t in ([20, 16], [21, 15], [20, 16])]}
    rec["deals"][0]["dealer"] = 0
    out, status = replay(rec)
    assert status == 2 and "deal 2" in out["error"] and "already decided" in out["error"]


def test_score_only_tricks_must_add_up_to_36():
    rec = {"game": "arbaa_turub", "dealer": 0, "summary": {"tricks_by_team": [20, 15]}}
    out, status = replay(rec)
    assert status == 2 and "do not add up to 36" in out["error"]


# 8. Next dealer --------------------------------------------------------------------------
@pytest.mark.parametrize(("dealer", "tricks", "expected"), [
    (0, (20, 16), 1),  # dealer's side won: the opponent on his left deals
    (0, (16, 20), 2),  # dealer's side lost: his partner deals
    (1, (20, 16), 3),  # dealer 1 (B) lost: partner 3
    (1, (16, 20), 2),  # B won: first A seat clockwise after 1 is 2
    (3, (18, 18), 3),  # drawn: same dealer
])
def test_next_dealer(dealer, tricks, expected):
    out = scored(tricks, dealer=dealer)
    assert out["deals"][0]["next_dealer"] == expected
    assert out["match"]["dealers"] == [dealer, expected]


# 9. Signals ------------------------------------------------------------------------------
def test_only_the_leader_signals_and_the_signal_is_public():
    _, d = new_deal(3)
    d.apply(0, Action.call_trump("S"))
    events = d.apply(0, Action.play("AS", signal="strong"))
    assert events[0].to is None and events[0].data["signal"] == "strong"
    before = d.view(1)
    with pytest.raises(IllegalAction, match="only the player leading"):
        d.apply(1, Action.play("AH", signal="weak"))
    assert d.view(1) == before  # rejected whole: the card was not played
    assert d.view(2)["signals"] == [{"trick": 1, "seat": 0, "signal": "strong"}]
    assert d.summary()["signals"] == [{"trick": 1, "seat": 0, "signal": "strong"}]


def test_signals_disabled_and_extra_signals():
    _, d = new_deal(3, signals_enabled=False)
    d.apply(0, Action.call_trump("S"))
    with pytest.raises(IllegalAction, match="not used"):
        d.apply(0, Action.play("AS", signal="strong"))
    assert all(a.signal is None for a in d.legal_actions(0))
    _, d = new_deal(3, extra_signals=["void"])
    d.apply(0, Action.call_trump("S"))
    assert Action.play("AS", signal="void") in d.legal_actions(0)
    with pytest.raises(IllegalAction, match="not a signal here"):
        d.apply(0, Action.play("AS", signal="loud"))
    d.apply(0, Action.play("AS", signal="void"))


# 10. Options -----------------------------------------------------------------------------
def test_unknown_option_and_bad_values_name_the_option():
    with pytest.raises(OptionError, match=r"unknown option 'drawbreaks'.*draw_breaks_streak"):
        ArbaaTurubMatch({"drawbreaks": True})
    with pytest.raises(OptionError, match=r"'signals_enabled'.*true \| false"):
        ArbaaTurubMatch({"signals_enabled": "yes"})
    with pytest.raises(OptionError, match="extra_signals"):
        ArbaaTurubMatch({"extra_signals": ["Loud Knock"]})


def test_draw_for_partners_pairs_the_two_highest_and_seats_every_player():
    for seed in range(30):
        seat_of, dealer = draw_for_partners(random.Random(seed))
        assert sorted(seat_of) == [0, 1, 2, 3] and dealer == 0


def test_card_ints_round_trip():
    from games.cards import name
    assert all(name(card(r + s)) == r + s for r in RANKS for s in "SHDC")
