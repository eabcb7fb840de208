"""Truf: one test per rule and option of ``docs/rules/truf.md`` (sections 1-8), records.

Properties over random games are in ``test_truf_properties.py``.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from itertools import combinations
from pathlib import Path
from typing import Any

import pytest

from games.actions import Action
from games.base import HIDDEN
from games.cards import NATURAL, SUITS, card, seat_order, shuffled
from games.errors import IllegalAction, RecordError
from games.records import replay, replay_text
from games.registry import GAMES
from games.truf import (
    CARD_VALUE,
    INFO,
    TrufDeal,
    TrufMatch,
    bids_possible,
    deal_hands,
    deal_points,
    misdeal_of,
    pick_dealer,
    random_playout,
)

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"

# Every seat holds numbers and courts; seat 0 has no clubs, 1 no spades, 2 no hearts,
# 3 no diamonds.
LAYOUT = [
    ["AS", "KS", "QS", "JS", "TS", "9S", "8S", "2H", "3H", "4H", "2D", "3D", "4D"],
    ["AH", "KH", "QH", "JH", "TH", "9H", "8H", "5D", "6D", "7D", "2C", "3C", "4C"],
    ["AD", "KD", "QD", "JD", "TD", "9D", "8D", "5C", "6C", "7C", "2S", "3S", "4S"],
    ["AC", "KC", "QC", "JC", "TC", "9C", "8C", "5S", "6S", "7S", "5H", "6H", "7H"],
]

# One whole suit each: seat 0 spades, 1 hearts, 2 diamonds, 3 clubs.
BY_SUIT = [[r + s for r in reversed(NATURAL)] for s in SUITS]


def start(hands: list[list[str]], *, hand_number: int = 1, dealer: int = 0,
          options: Mapping[str, Any] | None = None,
          players: int = 4) -> tuple[TrufMatch, TrufDeal]:
    """A match whose first deal has the given hands (as a record gives them)."""
    match = TrufMatch(options, players, dealer)
    deal = match.start_deal(hands, {"hand_number": hand_number})
    assert isinstance(deal, TrufDeal)
    return match, deal


def bid_all(deal: TrufDeal, bids: Mapping[int, str | tuple[str, ...]]) -> None:
    for seat, b in bids.items():
        deal.apply(seat, Action.bid(b) if isinstance(b, str) else Action.bid_cards(b))


def play(deal: TrufDeal, *cards: str) -> None:
    """Play ``cards`` in turn, each by the seat to move."""
    for c in cards:
        deal.apply(deal.turn, Action.play(c))


def refused(deal: TrufDeal, seat: int, action: Action) -> str:
    """Apply an action that must be refused; check nothing changed; return the reason."""
    before = (json.dumps(deal.summary()), [json.dumps(deal.view(s)) for s in range(4)])
    with pytest.raises(IllegalAction) as exc:
        deal.apply(seat, action)
    after = (json.dumps(deal.summary()), [json.dumps(deal.view(s)) for s in range(4)])
    assert before == after
    return exc.value.reason


def fill_hands(fixed: Mapping[int, list[str]], players: int = 4,
               removed: str = "C") -> list[list[str]]:
    """Hands where the seats of ``fixed`` hold those cards first and the rest of the pack
    fills every hand to 13 (deterministic; never a misdeal)."""
    suits = SUITS if players == 4 else SUITS.replace(removed, "")
    pack = [r + s for s in suits for r in NATURAL]
    used = {c for h in fixed.values() for c in h}
    rng = random.Random(0)
    while True:
        rest = [c for c in pack if c not in used]
        rng.shuffle(rest)
        hands = [list(fixed.get(s, [])) for s in range(players)]
        for h in hands:
            while len(h) < 13:
                h.append(rest.pop())
        if not misdeal_of([[card(c) for c in h] for h in hands]):
            return hands


def finish_randomly(deal: TrufDeal, seed: int = 0) -> None:
    rng = random.Random(seed)
    while not deal.is_over:
        seat = rng.choice(deal.to_act)
        deal.apply(seat, rng.choice(deal.legal_actions(seat)))


# -- 1, 3: players, pack, direction, dealing ----------------------------------------------------
def test_random_deal_gives_every_card_of_the_pack_once_13_each() -> None:
    deal = TrufMatch(None, 4, 2, seed=5).start_deal()
    hands = deal.dealt_hands()
    assert [len(h) for h in hands] == [13] * 4
    assert sorted(c for h in hands for c in h) == sorted(r + s for s in SUITS for r in NATURAL)


@pytest.mark.parametrize(("removed", "absent"), [(None, "C"), ("C", "C"), ("S", "S")])
def test_three_players_play_without_the_removed_suit(removed: str | None, absent: str) -> None:
    options = None if removed is None else {"removed_suit": removed}
    match = TrufMatch(options, 3, 0, seed=1)
    deal = match.start_deal()
    hands = deal.dealt_hands()
    assert [len(h) for h in hands] == [13, 13, 13]
    assert sorted(c for h in hands for c in h) == sorted(
        r + s for s in SUITS if s != absent for r in NATURAL)
    assert deal.view(0)["teams"] == [[0], [1], [2]]
    finish_randomly(deal)  # tie order S > H > D and 13 tricks still hold
    assert sum(deal.summary()["tricks_by_seat"]) == 13
    assert len(match.finish_deal()["points"]) == 3


def test_removed_suit_cards_are_not_in_a_three_player_pack() -> None:
    hands = fill_hands({}, players=3)
    hands[0][0] = "2C"
    with pytest.raises(RecordError, match="2C is not in the 39-card pack"):
        start(hands, players=3)


def test_removed_suit_is_an_option_error_with_four_players() -> None:
    out, status = replay({"game": "truf", "options": {"removed_suit": "S"},
                          "dealer": 0, "hands": LAYOUT})
    assert status == 2 and "removed_suit" in out["error"]


@pytest.mark.parametrize("players", [2, 5])
def test_truf_is_for_three_or_four_players(players: int) -> None:
    with pytest.raises(RecordError):
        TrufMatch(None, players, 0)


@pytest.mark.parametrize("direction", [-1, 1])
def test_cards_are_dealt_one_at_a_time_from_the_dealers_neighbour_in_the_deals_direction(
        direction: int) -> None:
    hands = deal_hands(4, 1, direction, (0, 1, 2, 3), random.Random(9))
    pack = shuffled(list(range(52)), random.Random(9))
    order = seat_order((1 + direction) % 4, 4, direction)
    expected: list[list[int]] = [[] for _ in range(4)]
    for i, c in enumerate(pack):
        expected[order[i % 4]].append(c)
    assert hands == expected
    assert order[0] == (0 if direction == -1 else 2)  # the dealer's right, or his left


def test_odd_deals_play_counter_clockwise_and_even_deals_clockwise() -> None:
    for hand_number, after_leader in ((1, 3), (2, 1)):
        _, deal = start(LAYOUT, hand_number=hand_number)
        bid_all(deal, {0: "TS", 1: "2C", 2: "2S", 3: "5S"})  # seat 0 high, leads
        play(deal, "2H")
        assert deal.to_act == (after_leader,)
        assert deal.view(0)["direction"] == ("counterclockwise" if hand_number == 1
                                             else "clockwise")


# -- 3: misdeal --------------------------------------------------------------------------------
NUMBERS_ONLY = [
    ["2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "TS", "2H", "3H", "4H", "5H"],
    ["AS", "KS", "QS", "JS", "6H", "7H", "8H", "9H", "TH", "2D", "3D", "4D", "5D"],
    ["AH", "KH", "QH", "JH", "6D", "7D", "8D", "9D", "TD", "2C", "3C", "4C", "5C"],
    ["AD", "KD", "QD", "JD", "AC", "KC", "QC", "JC", "6C", "7C", "8C", "9C", "TC"],
]


def test_a_hand_of_only_number_cards_voids_the_deal() -> None:
    assert misdeal_of([[card(c) for c in h] for h in NUMBERS_ONLY]) == [
        {"seat": 0, "reason": "only number cards"}]


def test_a_hand_of_only_court_cards_voids_the_deal() -> None:
    courts = [r + s for s in SUITS for r in "AKQJ"]  # 16 courts
    numbers = [r + s for s in SUITS for r in "23456789T"]
    hands = [courts[:13]] + [[courts[13 + i], *numbers[12 * i:12 * i + 12]] for i in range(3)]
    assert misdeal_of([[card(c) for c in h] for h in hands]) == [
        {"seat": 0, "reason": "only court cards"}]
    assert misdeal_of([[card(c) for c in h] for h in LAYOUT]) == []


def test_a_void_deal_rejects_every_action_and_the_same_dealer_redeals() -> None:
    match, deal = start(NUMBERS_ONLY, hand_number=3, dealer=2)
    assert deal.is_over and deal.to_act == ()
    for seat, action in [(0, Action.bid("2S")), (1, Action.bid("AS")),
                         (1, Action.play("AS")), (0, Action.adjust("up", 1))]:
        reason = refused(deal, seat, action)
        assert "void" in reason and "seat 0 holds only number cards" in reason
        assert deal.legal_actions(seat) == []
    summary = match.finish_deal()
    assert summary["redeal"] is True and "points" not in summary
    assert summary["next_dealer"] == 2
    assert match.totals == [0, 0, 0, 0]
    ms = match.summary()
    assert ms["next_hand_number"] == 3 and ms["next_direction"] == "counterclockwise"
    nxt = match.start_deal(LAYOUT, {"hand_number": 3})
    assert nxt.dealer == 2 and nxt.view(0)["redeals"] == 1


def test_a_void_deal_in_a_record_replays_as_a_redeal() -> None:
    def record(*deals: dict[str, Any]) -> dict[str, Any]:
        return {"game": "truf", "deals": list(deals)}

    bid = {"seat": 0, "type": "bid", "card": "2S"}
    out, status = replay(record({"dealer": 1, "hands": NUMBERS_ONLY, "actions": [bid]}))
    assert status == 1
    assert out["illegal"]["action"] == 0 and "void" in out["illegal"]["reason"]
    void = {"dealer": 1, "hands": NUMBERS_ONLY}
    out, status = replay(record(void, {"dealer": 1, "hands": LAYOUT,
                                       "extra": {"hand_number": 1}}))
    assert status == 0
    assert out["deals"][0]["redeal"] is True and "points" not in out["deals"][0]
    assert out["deals"][1]["redeal"] is False
    assert out["deals"][1]["direction"] == "counterclockwise"
    assert out["match"]["dealers"] == [1, 1]  # the void deal's dealer, then the next
    assert replay(record(void, {"dealer": 2, "hands": LAYOUT}))[1] == 2
    assert replay(record(void, {"hands": LAYOUT, "extra": {"hand_number": 2}}))[1] == 2


def test_a_random_misdeal_is_redealt_automatically_and_kept_in_the_record() -> None:
    seed = next(s for s in range(2000) if misdeal_of(_first_random_hands(s)))
    match = TrufMatch(None, 4, 3, seed=seed)
    deal = match.start_deal()
    assert isinstance(deal, TrufDeal)
    assert not deal.misdeal and not deal.is_over
    assert deal.dealer == 3 and deal.hand_number == 1
    assert deal.view(None)["redeals"] == len(match.deal_summaries) >= 1
    assert all(s["redeal"] for s in match.deal_summaries)
    void = match.deal_records[0]
    assert void["actions"] == [] and void["extra"] == {"hand_number": 1}
    assert misdeal_of([[card(c) for c in h] for h in void["hands"]])
    finish_randomly(deal)
    match.finish_deal()
    out, status = replay(match.record())
    assert status == 0
    assert out["deals"] == match.deal_summaries
    assert out["match"] == match.summary()


def _first_random_hands(seed: int) -> list[list[int]]:
    return deal_hands(4, 3, -1, (0, 1, 2, 3), TrufMatch(None, 4, 3, seed=seed).deal_rng(0))


# -- 4: bidding --------------------------------------------------------------------------------
def test_bids_are_simultaneous_every_seat_that_has_not_bid_is_to_act() -> None:
    _, deal = start(LAYOUT)
    assert deal.to_act == (0, 1, 2, 3)
    assert all(deal.legal_actions(s) for s in range(4))
    deal.apply(2, Action.bid("8D"))
    assert deal.to_act == (0, 1, 3)
    assert deal.legal_actions(2) == []
    assert "already bid 8D" in refused(deal, 2, Action.bid("9D"))
    deal.apply(3, Action.bid("5S"))
    deal.apply(0, Action.bid("2H"))
    assert deal.to_act == (1,)


def test_a_bid_is_secret_until_all_are_in_then_revealed() -> None:
    _, deal = start(LAYOUT)
    events = deal.apply(1, Action.bid("7D"))
    for seat in (0, 2, 3, None):
        visible = [e for e in events if e.visible_to(seat)]
        assert "7D" not in json.dumps([e.to_json() for e in visible])
        assert deal.view(seat)["bids"][1] is None
        assert deal.view(seat)["bid_placed"] == [False, True, False, False]
        assert "7D" not in json.dumps(deal.summary())
    assert deal.view(1)["bids"][1] == ["7D"]
    assert any(e.to == frozenset({1}) and e.data["cards"] == ["7D"] for e in events)
    bid_all(deal, {0: "4H", 2: "2S", 3: "AC"})
    for seat in (0, 1, 2, 3, None):
        assert deal.view(seat)["bids"] == [["4H"], ["7D"], ["2S"], ["AC"]]


def test_bid_values_jqk_zero_ace_one_ten_ten_numbers_face() -> None:
    assert [CARD_VALUE[card(r + "S")] for r in "23456789TJQKA"] == [
        2, 3, 4, 5, 6, 7, 8, 9, 10, 0, 0, 0, 1]
    _, deal = start(LAYOUT)
    bid_all(deal, {0: "JS", 1: "QH", 2: "KD", 3: "AC"})
    assert deal.summary()["bids"] == [0, 0, 0, 1]
    assert deal.summary()["leader"] == 3 and deal.trump == 3


@pytest.mark.parametrize(("bids", "high", "trump"), [
    ({0: "7S", 1: "7H", 2: "7D", 3: "7C"}, 0, "S"),
    ({0: "3S", 1: "7H", 2: "7D", 3: "7C"}, 1, "H"),
    ({0: "3S", 1: "2H", 2: "7D", 3: "7C"}, 2, "D"),
    ({0: "QS", 1: "AH", 2: "JD", 3: "AC"}, 1, "H"),
    ({0: "9S", 1: "TH", 2: "9D", 3: "2C"}, 1, "H"),
])
def test_high_bidder_largest_value_ties_by_suit_names_trump_and_leads(
        bids: dict[int, str], high: int, trump: str) -> None:
    _, deal = start(BY_SUIT)
    bid_all(deal, bids)
    s = deal.summary()
    assert s["leader"] == high and s["trump"] == trump
    if deal.phase == "play":
        assert deal.to_act == (high,)


def test_equal_zero_bids_of_one_suit_go_to_the_higher_court() -> None:
    hands = fill_hands({0: ["JS"], 1: ["QS"], 2: ["KH"], 3: ["QD"]})
    _, deal = start(hands)
    bid_all(deal, {0: "JS", 1: "QS", 2: "KH", 3: "QD"})
    assert (deal.summary()["leader"], deal.summary()["trump"]) == (1, "S")
    assert deal.summary()["mode"] == "bawah"


@pytest.mark.parametrize(("bids", "mode"), [
    ({0: "TS", 1: "2H", 2: "2D", 3: "QC"}, "atas"),   # 14
    ({0: "TS", 1: "AH", 2: "AD", 3: "QC"}, "bawah"),  # 12
])
def test_total_above_13_is_main_atas_below_is_main_bawah(bids: dict[int, str],
                                                         mode: str) -> None:
    _, deal = start(BY_SUIT)
    bid_all(deal, bids)
    assert deal.summary()["mode"] == mode
    assert deal.summary()["final_bids"] == deal.summary()["bids"]
    assert deal.phase == "play"


def test_total_13_the_high_bidder_adjusts_every_bid_negative_bids_kept() -> None:
    _, deal = start(BY_SUIT)
    bid_all(deal, {0: "TS", 1: "2H", 2: "AD", 3: "KC"})  # 10 + 2 + 1 + 0
    assert deal.phase == "adjust" and deal.to_act == (0,)
    assert deal.summary()["mode"] is None
    assert {a.type for a in deal.legal_actions(0)} == {"adjust"}
    assert len(deal.legal_actions(0)) == 26 and deal.legal_actions(1) == []
    assert "high bidder" in refused(deal, 1, Action.adjust("up", 1))
    assert "adjust" in refused(deal, 0, Action.play("AS"))
    assert "one of 1, 2" in refused(deal, 0, Action.adjust("up", 14))
    deal.apply(0, Action.adjust("down", 12))
    s = deal.summary()
    assert s["final_bids"] == [-2, -10, -11, -12] and s["mode"] == "bawah"
    assert s["bids"] == [10, 2, 1, 0] and s["adjust"] == {"direction": "down", "amount": 12}
    assert s["trump"] == "S" and deal.to_act == (0,)  # trump and leader unchanged
    assert "already been adjusted" in refused(deal, 0, Action.adjust("up", 1))
    finish_randomly(deal)
    t = deal.summary()["tricks_by_seat"]
    assert deal.summary()["points"] == [b - x for b, x in zip([-2, -10, -11, -12], t,
                                                              strict=True)]


def test_adjust_up_gives_main_atas() -> None:
    _, deal = start(BY_SUIT)
    bid_all(deal, {0: "TS", 1: "2H", 2: "AD", 3: "KC"})
    deal.apply(0, Action.adjust("up", 3))
    assert deal.summary()["final_bids"] == [13, 5, 4, 3]
    assert deal.summary()["mode"] == "atas"


def test_adjust_amounts_option_limits_the_amount() -> None:
    _, deal = start(BY_SUIT, options={"adjust_amounts": [1]})
    bid_all(deal, {0: "TS", 1: "2H", 2: "AD", 3: "KC"})
    assert deal.legal_actions(0) == [Action.adjust("up", 1), Action.adjust("down", 1)]
    assert "one of 1" in refused(deal, 0, Action.adjust("down", 2))


def test_no_adjustment_unless_the_total_is_13() -> None:
    _, deal = start(BY_SUIT)
    assert "not all in" in refused(deal, 0, Action.adjust("up", 1))
    bid_all(deal, {0: "TS", 1: "2H", 2: "2D", 3: "QC"})
    assert "total 14, not 13" in refused(deal, 0, Action.adjust("up", 1))


def test_bid_cards_go_back_to_their_owners_hands_and_are_played_normally() -> None:
    _, deal = start(LAYOUT)
    bid_all(deal, {0: "TS", 1: "2C", 2: "2S", 3: "5H"})
    assert "TS" in deal.view(0)["hand"] and len(deal.view(0)["hand"]) == 13
    assert deal.view(1)["hand_sizes"] == [13, 13, 13, 13]
    play(deal, "2H", "5H")  # seat 3 plays the card it bid with
    assert "5H" not in deal.view(3)["hand"] and deal.view(0)["hand_sizes"][3] == 12


def test_bids_refuse_cards_not_held_and_plays_before_the_bids_are_in() -> None:
    _, deal = start(LAYOUT)
    assert refused(deal, 0, Action.bid("AH")) == "you do not hold AH"
    assert "bid one card" in refused(deal, 0, Action.bid_cards(("AS", "KS")))
    assert "not all in" in refused(deal, 0, Action.play("AS"))
    assert "not an action in Truf" in refused(deal, 0, Action("pass"))
    deal.apply(0, Action.bid_cards(("TS",)))  # a one-card list is the same bid
    assert deal.bids[0] == (card("TS"),)


# -- 5: play -----------------------------------------------------------------------------------
def playing_layout() -> TrufDeal:
    """LAYOUT, hand 1 (counter-clockwise: 0, 3, 2, 1), seat 0 high with TS: spades trump."""
    _, deal = start(LAYOUT)
    bid_all(deal, {0: "TS", 1: "2C", 2: "2S", 3: "5S"})  # 10 + 2 + 2 + 5 = 19: atas
    assert deal.to_act == (0,) and deal.trump == 0 and deal.mode == "atas"
    return deal


def test_a_follower_must_follow_the_led_suit() -> None:
    deal = playing_layout()
    play(deal, "2H")
    assert refused(deal, 3, Action.play("5S")) == "you must follow hearts: you hold 7H, 6H, 5H"
    assert {a.card for a in deal.legal_actions(3)} == {"5H", "6H", "7H"}
    assert "not your turn" in refused(deal, 1, Action.play("AH"))
    assert refused(deal, 3, Action.play("AH")) == "you do not hold AH"


def test_a_void_follower_may_play_anything_trumps_included_no_duty_to_trump() -> None:
    deal = playing_layout()
    play(deal, "2H", "5H")
    legal = {a.card for a in deal.legal_actions(2)}  # seat 2 has no hearts
    assert legal == set(LAYOUT[2])
    play(deal, "5C")  # a club instead of a trump is fine
    play(deal, "AH")
    assert deal.completed[-1][2] == 1  # highest heart; the club does not win


def test_no_trump_lead_before_trumps_are_broken_unless_holding_only_trumps() -> None:
    deal = playing_layout()
    reason = refused(deal, 0, Action.play("AS"))
    assert "may not lead a trump (spades) before trumps are broken" in reason
    assert not any(a.card and a.card.endswith("S") for a in deal.legal_actions(0))
    play(deal, "2H", "5H", "2S", "8H")  # seat 2, void in hearts, trumps: broken
    assert deal.broken and deal.view(None)["broken"] is True
    assert deal.completed[-1][2] == 2  # the trump wins
    play(deal, "3S")  # seat 2 may now lead a trump
    _, only = start(BY_SUIT)
    bid_all(only, {0: "TS", 1: "2H", 2: "2D", 3: "QC"})
    assert {a.card for a in only.legal_actions(0)} == set(BY_SUIT[0])  # only trumps held
    play(only, "2S")
    assert only.broken


def test_a_discarded_trump_breaks_trumps_for_the_next_lead() -> None:
    deal = playing_layout()
    play(deal, "4H", "7H", "4S", "AH")  # seat 2's trump 4S beats AH
    assert deal.turn == 2
    play(deal, "2S")
    assert deal.trick[0] == (2, card("2S"))


def test_trumps_are_face_down_until_the_trick_is_complete() -> None:
    deal = playing_layout()
    play(deal, "2H", "5H")
    events = deal.apply(2, Action.play("4S"))
    for seat in (0, 1, 3, None):
        shown = deal.view(seat)["trick"]["cards"]
        assert shown == [[0, "2H"], [3, "5H"], [2, HIDDEN]]
        text = json.dumps([e.to_json() for e in events if e.visible_to(seat)])
        assert "4S" not in text and "4S" not in json.dumps(deal.view(seat))
    assert deal.view(2)["trick"]["cards"][-1] == [2, "4S"]
    own = [e for e in events if e.visible_to(2)]
    assert [e.data["card"] for e in own] == ["4S"] and own[0].to == frozenset({2})
    hidden = [e for e in events if e.data.get("card") == HIDDEN]
    assert len(hidden) == 1 and hidden[0].to is None and hidden[0].exclude == frozenset({2})
    assert hidden[0].visible_to(None) and not hidden[0].visible_to(2)
    assert "4S" not in json.dumps(deal.summary())
    events = deal.apply(1, Action.play("AH"))
    trick = [e for e in events if e.type == "trick"]
    assert trick[0].to is None and [2, "4S"] in trick[0].data["cards"]
    assert deal.view(0)["tricks"][-1]["cards"][2] == [2, "4S"]


def test_a_face_down_trump_lead_is_hidden_and_still_sets_the_led_suit() -> None:
    deal = playing_layout()
    play(deal, "4H", "7H", "4S", "AH")
    play(deal, "3S")  # seat 2 leads a trump, face down
    assert deal.view(1)["trick"]["cards"] == [[2, HIDDEN]]
    # seat 1 has no spades: anything goes; seat 0 would have to follow spades
    assert {a.card for a in deal.legal_actions(1)} == set(LAYOUT[1]) - {"AH"}


def test_trick_winner_highest_trump_else_highest_of_the_led_suit() -> None:
    deal = playing_layout()  # order from seat 0: 0, 3, 2, 1
    play(deal, "2D", "7S", "AD", "7D")
    assert deal.completed[-1][2] == 3  # a trump beats the led ace
    play(deal, "AC", "5C", "2C", "9S")
    assert deal.completed[-1][2] == 0
    play(deal, "3H", "6H", "8D", "KH")
    assert deal.completed[-1][2] == 1  # no trump: highest heart; the diamond cannot win
    play(deal, "5D", "3D", "6S", "KD")
    assert deal.completed[-1][2] == 3
    play(deal, "5S", "4S", "3C", "AS")
    assert deal.completed[-1][2] == 0  # highest trump
    assert deal.summary()["trick_winners"] == [3, 0, 1, 3, 0]


# -- 6: scoring --------------------------------------------------------------------------------
def test_difference_scoring() -> None:
    assert deal_points([3, 3, 3, 4], [5, 3, 1, 4], "atas", "difference") == [4, 0, -2, 0]
    assert deal_points([3, 3, 3, 4], [5, 3, 1, 4], "bawah", "difference") == [-2, 0, 4, 0]
    assert deal_points([-2, 0], [0, 3], "bawah", "difference") == [-2, -3]


def test_zero_bid_bonus_only_in_bawah_for_a_zero_bid_with_no_tricks() -> None:
    assert deal_points([0, 0, 2, 0], [0, 1, 0, 12], "bawah", "zero_bid_bonus") == [5, -1, 4,
                                                                                   -12]
    assert deal_points([0, 0], [0, 1], "atas", "zero_bid_bonus") == [0, 2]
    assert deal_points([0], [0], "bawah", "difference") == [0]


def test_exact_scoring_bid_for_exact_else_penalty_table() -> None:
    # exact: +b; atas over x1, under x2; bawah over x2, under x1
    assert deal_points([4, 4, 4, 0], [4, 6, 1, 0], "atas", "exact") == [4, -2, -6, 0]
    assert deal_points([4, 4, 4, -1], [4, 6, 1, 0], "bawah", "exact") == [4, -4, -3, -2]


def test_running_totals_add_each_deals_points() -> None:
    match = TrufMatch({"deals": 3}, 4, 0)
    s1 = match.score_only({"bids": [3, 3, 3, 3], "tricks_by_seat": [5, 3, 2, 3]})
    assert s1["points"] == [-2, 0, 2, 0] and s1["mode"] == "bawah"
    s2 = match.score_only({"bids": [5, 5, 2, 2], "tricks_by_seat": [6, 5, 2, 0]})
    assert s2["points"] == [2, 0, 0, -2]
    assert match.totals == [0, 0, 2, -2]


# -- 7: game end, next dealer ------------------------------------------------------------------
def test_next_dealer_is_the_lowest_total() -> None:
    match = TrufMatch(None, 4, 0)
    match.score_only({"bids": [3, 3, 3, 3], "tricks_by_seat": [2, 3, 3, 5]})  # bawah
    assert match.totals == [2, 0, 0, -2]
    assert match.next_dealer == 3


@pytest.mark.parametrize(("tie", "dealer"), [("last_deal", 1), ("next_deal", 3)])
def test_tie_for_lowest_total_furthest_from_the_previous_dealer(tie: str,
                                                                dealer: int) -> None:
    # deal 1 runs counter-clockwise from dealer 0: seat 3 is 1 step, seat 1 is 3 steps.
    match = TrufMatch({"dealer_tie_direction": tie}, 4, 0)
    match.score_only({"bids": [3, 3, 3, 3], "tricks_by_seat": [3, 4, 2, 4]})
    assert match.totals == [0, -1, 2, -1]
    assert match.next_dealer == dealer
    assert match.summary()["next_direction"] == "clockwise"


def test_the_previous_dealer_counts_as_furthest_in_a_tie() -> None:
    assert pick_dealer([0, 0, 0, 0], 2, -1) == 2
    assert pick_dealer([0, 0, 5, 0], 2, -1) == 3  # steps: 3 -> 3, 0 -> 2, 1 -> 1
    assert pick_dealer([0, 0, 5, 0], 2, 1) == 1
    assert pick_dealer([1, 0, 0], 0, 1) == 2


def test_a_game_is_13_deals_and_the_highest_total_wins() -> None:
    match = TrufMatch(None, 4, 0)
    for i in range(13):
        assert not match.over
        assert match.summary()["next_hand_number"] == i + 1
        match.score_only({"bids": [3, 3, 3, 3], "tricks_by_seat": [2, 3, 4, 4]})
    assert match.over and match.totals == [26, 0, -13, -13]
    s = match.summary()
    assert s["winner"] == 0 and s["winners"] == [0] and s["decided_after"] == 12
    with pytest.raises(RecordError):
        match.start_deal()


def test_equal_highest_totals_share_the_win() -> None:
    match = TrufMatch({"deals": 2}, 4, 0)
    match.score_only({"bids": [3, 3, 3, 3], "tricks_by_seat": [2, 3, 4, 4]})
    assert match.summary()["winners"] is None
    match.score_only({"bids": [3, 3, 3, 3], "tricks_by_seat": [3, 2, 4, 4]})
    assert match.totals == [2, 2, -2, -2]
    s = match.summary()
    assert s["over"] and s["winner"] is None and s["winners"] == [0, 1]


def test_deals_option_sets_the_game_length() -> None:
    match = TrufMatch({"deals": 1}, 3, 0, seed=4)
    deal = match.start_deal()
    finish_randomly(deal)
    match.finish_deal()
    assert match.over and match.summary()["decided_after"] == len(match.deal_summaries) - 1


def test_direction_flips_every_deal_and_the_hand_number_advances() -> None:
    match = TrufMatch(None, 4, 0, seed=2)
    seen = []
    for _ in range(3):
        deal = match.start_deal()
        seen.append(deal.view(None)["direction"])
        finish_randomly(deal)
        match.finish_deal()
    assert seen == ["counterclockwise", "clockwise", "counterclockwise"]
    assert match.summary()["next_hand_number"] == 4


# -- 8: multi-card bids ------------------------------------------------------------------------
MULTI = {"multi_card_bids": True}


def test_multi_card_legal_bids_are_every_1_2_3_card_set_meeting_the_minimum() -> None:
    _, deal = start(LAYOUT, options=MULTI)
    hand = [card(c) for c in LAYOUT[0]]
    expected = {frozenset(c) for k, least in ((1, 0), (2, 5), (3, 9))
                for c in combinations(hand, k) if sum(CARD_VALUE[x] for x in c) >= least}
    legal = deal.legal_actions(0)
    assert len(legal) == len(expected)
    assert {frozenset(card(x) for x in a.cards or ()) for a in legal} == expected
    assert all(a.type == "bid" and a.cards for a in legal)


def test_multi_card_minimums_and_shape() -> None:
    _, deal = start(LAYOUT, options=MULTI)
    assert "at least 5: 2H + 2D is worth 4" in refused(deal, 0, Action.bid_cards(("2H", "2D")))
    assert "at least 9" in refused(deal, 0, Action.bid_cards(("2H", "3H", "3D")))
    assert "one, two or three" in refused(deal, 0,
                                          Action.bid_cards(("TS", "9S", "8S", "2H")))
    assert "twice" in refused(deal, 0, Action.bid_cards(("TS", "TS")))
    assert "do not hold" in refused(deal, 0, Action.bid_cards(("TS", "AH")))
    deal.apply(0, Action.bid_cards(("4D", "2H", "3H")))  # 9, any order
    deal.apply(1, Action.bid("8H"))  # one card may be written with 'card'
    assert deal.bids[0] is not None and len(deal.bids[0]) == 3


def test_multi_card_single_suit_winner_names_trump_and_totals_add_up() -> None:
    _, deal = start(LAYOUT, options=MULTI)
    bid_all(deal, {0: ("TS", "9S"), 1: ("AH",), 2: ("2S", "3S"), 3: ("7S", "5H")})
    s = deal.summary()
    assert s["bids"] == [19, 1, 5, 12] and s["bid_total"] == 37 and s["mode"] == "atas"
    assert s["leader"] == 0 and s["trump"] == "S"


def test_a_mixed_suit_winning_bid_means_no_trump_and_no_lead_restriction() -> None:
    _, deal = start(LAYOUT, options=MULTI)
    bid_all(deal, {0: ("TS", "4H"), 1: ("AH",), 2: ("KD",), 3: ("JC",)})
    assert deal.summary()["trump"] is None and deal.summary()["leader"] == 0
    assert len(deal.legal_actions(0)) == 13
    play(deal, "2H")
    assert deal.view(1)["trick"]["cards"] == [[0, "2H"]]


@pytest.mark.parametrize(("bids", "leader", "trump"), [
    # single-suit above mixed; a tie with a mixed bid means no trump
    ({0: ("4H", "3D"), 1: ("7D",), 2: ("KD",), 3: ("JC",)}, 1, None),
    # two single-suit bids: the higher suit wins and is trump
    ({0: ("3H", "4H"), 1: ("7D",), 2: ("KD",), 3: ("JC",)}, 0, "H"),
    # two mixed bids: the one holding the higher suit leads
    ({0: ("4H", "3D"), 1: ("5D", "2C"), 2: ("KD",), 3: ("JC",)}, 0, None),
    ({0: ("3D", "4H"), 1: ("AH",), 2: ("5C", "2S"), 3: ("JC",)}, 2, None),
])
def test_multi_card_ties(bids: dict[int, tuple[str, ...]], leader: int,
                         trump: str | None) -> None:
    _, deal = start(LAYOUT, options=MULTI)
    bid_all(deal, bids)
    s = deal.summary()
    assert (s["leader"], s["trump"]) == (leader, trump)


def test_multi_card_equal_ties_go_to_the_first_player_from_the_dealer() -> None:
    hands = fill_hands({0: ["7S", "2H", "3H"], 1: ["5S", "2S"], 2: ["4S", "3S"],
                        3: ["2C"]})
    # hand 1 from dealer 0 runs 3, 2, 1, 0; hand 2 runs 1, 2, 3, 0
    for number, leader in ((1, 2), (2, 1)):
        _, deal = start(hands, options=MULTI, hand_number=number)
        bid_all(deal, {0: ("2H", "3H"), 1: ("5S", "2S"), 2: ("4S", "3S"), 3: ("2C",)})
        s = deal.summary()
        assert (s["leader"], s["trump"]) == (leader, "S")


def test_multi_card_bid_cards_return_to_the_hand() -> None:
    _, deal = start(LAYOUT, options=MULTI)
    bid_all(deal, {0: ("TS", "9S", "8S"), 1: ("AH",), 2: ("KD",), 3: ("JC",)})
    assert len(deal.view(0)["hand"]) == 13


# -- records -----------------------------------------------------------------------------------
def test_summary_has_the_truf_keys_of_records_md() -> None:
    match, deal = start(LAYOUT)
    bid_all(deal, {0: "TS", 1: "2C", 2: "2S", 3: "5S"})
    finish_randomly(deal)
    s = match.finish_deal()
    for key in ("dealer", "trump", "trick_winners", "tricks", "tricks_by_seat", "hand_over",
                "bids", "bid_total", "mode", "leader", "final_bids", "points", "redeal",
                "next_dealer"):
        assert key in s
    assert s["bids"] == [10, 2, 2, 5] and s["bid_total"] == 19 and s["leader"] == 0
    assert len(s["tricks"]) == 13 and s["trick_winners"] == [t["winner"] for t in s["tricks"]]
    m = match.summary()
    assert m["next_hand_number"] == 2 and m["next_direction"] == "clockwise"
    assert match.record()["deals"][0]["extra"] == {"hand_number": 1}


def test_first_record_deal_may_start_at_any_hand_number_later_ones_must_follow() -> None:
    out, status = replay({"game": "truf", "dealer": 0, "hands": LAYOUT,
                          "extra": {"hand_number": 2}, "actions": [
                              {"seat": 0, "type": "bid", "card": "TS"},
                              {"seat": 1, "type": "bid", "card": "2C"},
                              {"seat": 2, "type": "bid", "card": "2S"},
                              {"seat": 3, "type": "bid", "card": "5S"},
                              {"seat": 0, "type": "play", "card": "2H"}]})
    assert status == 0 and out["deals"][0]["direction"] == "clockwise"
    assert out["match"]["next_hand_number"] == 2
    for extra in ({"hand_number": 14}, {"hand_number": True}, {"stock": []}):
        assert replay({"game": "truf", "dealer": 0, "hands": LAYOUT, "extra": extra})[1] == 2
    match, deal = start(LAYOUT)
    finish_randomly(deal)
    match.finish_deal()
    with pytest.raises(RecordError, match="this is hand 2 of the game, not 3"):
        match.start_deal(LAYOUT, {"hand_number": 3})


def test_score_only_deals() -> None:
    match = TrufMatch(None, 4, 0)
    s = match.score_only({"bids": [10, 2, 1, 0], "adjust": {"direction": "up", "amount": 2},
                          "tricks_by_seat": [10, 1, 2, 0]})
    assert s["final_bids"] == [12, 4, 3, 2] and s["mode"] == "atas"
    assert s["points"] == [-2, -3, -1, -2] and s["redeal"] is False
    assert match.record()["deals"][0] == {"dealer": 0, "summary": {
        "bids": [10, 2, 1, 0], "adjust": {"direction": "up", "amount": 2},
        "tricks_by_seat": [10, 1, 2, 0]}}


@pytest.mark.parametrize(("summary", "fragment"), [
    ({"bids": [3, 3, 3, 3], "tricks_by_seat": [4, 3, 3, 4]}, "add up to 13"),
    ({"bids": [3, 3, 3, 3], "tricks_by_seat": [14, -1, 0, 0]}, "add up to 13"),
    ({"bids": [3, 3, 3], "tricks_by_seat": [4, 3, 3, 3]}, "must list 4"),
    ({"bids": [11, 0, 0, 0], "tricks_by_seat": [4, 3, 3, 3]}, "cannot be bid"),
    ({"bids": [10, 2, 1, 0], "tricks_by_seat": [4, 3, 3, 3]}, "total 13"),
    ({"bids": [10, 2, 1, 0], "adjust": {"direction": "up", "amount": 0},
      "tricks_by_seat": [4, 3, 3, 3]}, "amount"),
    ({"bids": [3, 3, 3, 3], "adjust": {"direction": "up", "amount": 1},
      "tricks_by_seat": [4, 3, 3, 3]}, "no adjustment"),
    ({"bids": [3, 3, 3, 3], "tricks_by_seat": [4, 3, 3, 3], "leader": 1}, "not a score-only"),
])
def test_impossible_score_only_summaries_are_errors(summary: dict[str, Any],
                                                     fragment: str) -> None:
    out, status = replay({"game": "truf", "deals": [{"dealer": 0, "summary": summary}]})
    assert status == 2 and fragment in out["error"]


def test_score_only_bid_values_must_come_from_one_pack() -> None:
    assert bids_possible([10, 10, 10, 10], 4, False)
    assert not bids_possible([10, 10, 10, 10], 3, False)
    assert bids_possible([30, 0, 0, 0], 4, True)
    assert not bids_possible([30, 30, 0, 0], 4, True)  # six tens
    assert bids_possible([4, 0, 0, 0], 4, True)  # one card (two would be too few)
    assert not bids_possible([21, 0, 0, 0], 4, False)
    assert bids_possible([21, 0, 0, 0], 4, True)
    assert bids_possible([0, 0, 0], 3, True)


def test_examples_replay() -> None:
    files = sorted(EXAMPLES.glob("truf-*.json"))
    assert files
    for path in files:
        out, status = replay_text(path.read_text(encoding="utf-8"))
        assert status == 0, (path.name, out)


def test_registered_and_described() -> None:
    assert GAMES["truf"] is INFO
    assert INFO.player_counts == (4, 3)
    assert INFO.teams(3, INFO.options_type()) == [(0,), (1,), (2,)]
    names = {row["name"] for row in INFO.options_type.describe()}
    assert names == {"deals", "scoring", "adjust_amounts", "dealer_tie_direction",
                     "removed_suit", "multi_card_bids"}


def test_random_playout_from_the_start_scores_the_deal() -> None:
    deal = TrufMatch(None, 4, 0, seed=11).start_deal()
    points = random_playout(deal, random.Random(1))
    assert isinstance(deal, TrufDeal) and deal.is_over
    assert sum(deal.tricks_by_seat) == 13
    assert deal.final_bids is not None and deal.mode is not None
    assert points == deal_points(deal.final_bids, deal.tricks_by_seat, deal.mode,
                                 "difference")
