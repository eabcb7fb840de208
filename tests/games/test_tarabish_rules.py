"""Tarabish: one test (at least) per rule and option of docs/rules/tarabish.md."""

from __future__ import annotations

import itertools
import json
import random
from pathlib import Path
from typing import Any

import pytest

from games.actions import Action
from games.cards import RANKS_36, card, deck, name, shuffled
from games.errors import IllegalAction, OptionError, RecordError
from games.records import replay
from games.registry import GAMES
from games.tarabish import (
    BIT_OF,
    POINTS,
    RUN_TOTALS,
    SIDE_POINTS,
    TarabishDeal,
    TarabishMatch,
    hand_result,
    sequences,
)

PACK = [r + s for s in "SHDC" for r in "AKQJT9876"]
EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def hands_from(spec: dict[int, str], no_more: dict[int, str] | None = None) -> list[list[str]]:
    """Nine cards per seat: the cards of ``spec`` first, then the rest of the pack dealt
    round the table (so filler cards make no runs), never giving a seat another card of a
    suit listed for it in ``no_more``."""
    no_more = no_more or {}
    hands = {s: spec.get(s, "").split() for s in range(4)}
    used = {c for h in hands.values() for c in h}
    seat = 0
    for c in (c for c in PACK if c not in used):
        for i in range(4):
            s = (seat + i) % 4
            if len(hands[s]) < 9 and c[1] not in no_more.get(s, ""):
                hands[s].append(c)
                seat = s + 1
                break
        else:
            raise AssertionError(f"no seat may take {c}")
    return [hands[s] for s in range(4)]


def new_deal(hands: list[list[str]], dealer: int = 3, **opts: Any) -> TarabishDeal:
    d = TarabishMatch(opts, None, dealer, seed=1).start_deal(hands)
    assert isinstance(d, TarabishDeal)
    return d


def start(spec: dict[int, str], no_more: dict[int, str] | None = None, *, trump: str = "H",
          dealer: int = 3, caller: int | None = None, **opts: Any) -> TarabishDeal:
    """A deal from ``hands_from(spec, no_more)`` with ``trump`` called by ``caller`` (default
    eldest; the players before him pass)."""
    d = new_deal(hands_from(spec, no_more), dealer, **opts)
    eldest = (dealer + 1) % 4
    caller = eldest if caller is None else caller
    seat = eldest
    while seat != caller:
        d.apply(seat, Action.pass_())
        seat = (seat + 1) % 4
    d.apply(caller, Action.call_trump(trump))
    return d


def play(d: TarabishDeal, seat: int, c: str, bella: bool = False) -> None:
    d.apply(seat, Action.play(c, bella=bella))


def legal_cards(d: TarabishDeal, seat: int) -> set[str]:
    return {a.card for a in d.legal_actions(seat) if a.type == "play" and a.card}


def refuse(d: TarabishDeal, seat: int, action: Action) -> str:
    before = json.dumps([d.view(s) for s in (None, 0, 1, 2, 3)] + [d.summary()])
    with pytest.raises(IllegalAction) as exc:
        d.apply(seat, action)
    assert json.dumps([d.view(s) for s in (None, 0, 1, 2, 3)] + [d.summary()]) == before
    return exc.value.reason


def play_first_legal(d: TarabishDeal, seat: int) -> str:
    a = next(a for a in d.legal_actions(seat) if a.type == "play" and not a.bella)
    d.apply(seat, a)
    assert a.card is not None
    return a.card


def finish_trick(d: TarabishDeal) -> None:
    n = len(d.completed)
    while len(d.completed) == n and not d.is_over:
        play_first_legal(d, d.turn)


def held(d: TarabishDeal, seat: int) -> list[str]:
    return d.hand_names(seat)


def other_card(d: TarabishDeal, seat: int, suits: str) -> str:
    """A card ``seat`` holds outside ``suits``."""
    return next(c for c in held(d, seat) if c[1] not in suits)


# 1. Ranks and card points -------------------------------------------------------------------
def test_plain_ten_ranks_above_the_king_and_jack_is_worth_two():
    d = start({0: "KS", 1: "TS", 2: "JS", 3: "QS"}, {1: "S", 2: "S", 3: "S"}, trump="H")
    for seat, c in enumerate(("KS", "TS", "JS", "QS")):
        play(d, seat, c)
    assert d.completed[0][2] == 1
    assert d.card_points == [0, 4 + 10 + 2 + 3]


def test_trump_order_and_points_j_9_a_t_k_q():
    # 9 beats A and J beats 9 in trumps; T beats K.
    d = start({0: "AH", 1: "9H 6H", 2: "JH 7H", 3: "KH"}, {1: "H", 2: "H", 3: "H"},
              trump="H")
    play(d, 0, "AH")
    assert legal_cards(d, 1) == {"9H"}  # 9 ranks above A: must head
    play(d, 1, "9H")
    assert legal_cards(d, 2) == {"JH"}
    play(d, 2, "JH")
    play(d, 3, "KH")
    assert d.completed[0][2] == 2
    assert d.card_points == [11 + 14 + 20 + 4, 0]


# 2. Dealing ---------------------------------------------------------------------------------
def test_deal_in_packets_of_three_clockwise_from_eldest():
    m = TarabishMatch(None, None, 2, seed=7)
    d = m.start_deal()
    pack = [name(c) for c in shuffled(deck(RANKS_36), m.deal_rng(0))]
    hands = d.dealt_hands()
    order = [3, 0, 1, 2]  # eldest = dealer 2's left = 3
    for rnd in range(3):
        for i, seat in enumerate(order):
            start_at = (rnd * 4 + i) * 3
            assert hands[seat][rnd * 3:rnd * 3 + 3] == pack[start_at:start_at + 3]


def test_kitty_hidden_until_trump_is_called():
    hands = hands_from({})
    d = new_deal(hands, dealer=3)
    for seat in range(4):
        v = d.view(seat)
        assert sorted(v["hand"]) == sorted(hands[seat][:6])
        assert v["kitty_hidden"] is True and v["my_runs"] == []
        assert not set(hands[seat][6:]) & set(json.dumps(v).replace('"', " ").split())
    d.apply(0, Action.call_trump("S"))
    for seat in range(4):
        assert sorted(d.view(seat)["hand"]) == sorted(hands[seat])
        assert d.view(seat)["kitty_hidden"] is False


def test_record_hands_must_be_the_36_card_pack():
    hands = hands_from({})
    bad = [list(h) for h in hands]
    bad[0][0] = "2S"
    with pytest.raises(RecordError, match="36-card pack"):
        new_deal(bad)
    with pytest.raises(RecordError, match="holds 8 cards"):
        new_deal([hands[0][:8], *hands[1:]])


# 3. Auction ---------------------------------------------------------------------------------
def test_auction_one_round_from_eldest_and_a_call_ends_it():
    d = new_deal(hands_from({}), dealer=1)
    assert d.to_act == (2,)
    assert "it is not your turn" in refuse(d, 3, Action.pass_())
    d.apply(2, Action.pass_())
    d.apply(3, Action.call_trump("C"))
    assert d.phase == "play" and d.trump == 3 and d.caller == 3
    assert d.to_act == (2,)  # eldest leads
    assert "auction is over" in refuse(d, 0, Action.pass_())
    assert d.summary()["auction"] == [[2, "pass"], [3, "C"]]


def test_dealer_is_forced_by_default():
    d = new_deal(hands_from({}), dealer=3)
    for seat in (0, 1, 2):
        d.apply(seat, Action.pass_())
    assert Action.pass_() not in d.legal_actions(3)
    assert len(d.legal_actions(3)) == 4
    assert "dealer must call" in refuse(d, 3, Action.pass_())


def test_dealer_may_pass_voids_the_hand_and_the_deal_passes_on():
    m = TarabishMatch({"dealer_may_pass": True}, None, 3, seed=2)
    d = m.start_deal()
    for seat in (0, 1, 2, 3):
        d.apply(seat, Action.pass_())
    assert d.is_over and d.hand_void
    assert "void" in refuse(d, 0, Action.call_trump("S"))
    s = m.finish_deal()
    assert s["hand_void"] and s["hand_score"] == [0, 0] and s["caller"] is None
    assert m.totals == [0, 0] and m.next_dealer == 0


# 4. Legal play ------------------------------------------------------------------------------
def test_must_follow_suit():
    d = start({0: "AS", 1: "KS 7H"}, {1: "S"})
    play(d, 0, "AS")
    assert legal_cards(d, 1) == {"KS"}
    assert refuse(d, 1, Action.play("7H")) == "you must follow spades: you hold KS"


def test_plain_follower_need_not_beat_but_must_head_plain_makes_him():
    spec, nm = {0: "9S", 1: "TS 7S"}, {1: "S"}
    d = start(spec, nm)
    play(d, 0, "9S")
    assert legal_cards(d, 1) == {"TS", "7S"}
    d = start(spec, nm, must_head_plain=True)
    play(d, 0, "9S")
    assert legal_cards(d, 1) == {"TS"}
    assert refuse(d, 1, Action.play("7S")) == (
        "you must beat the 9S with a higher spade: you hold TS")
    d = start({0: "KS", 1: "TS QS"}, nm, must_head_plain=True)  # T beats K in plain suits
    play(d, 0, "KS")
    assert legal_cards(d, 1) == {"TS"}
    d = start({0: "AS", 1: "TS 7S"}, nm, must_head_plain=True)  # cannot beat: any spade
    play(d, 0, "AS")
    assert legal_cards(d, 1) == {"TS", "7S"}


def test_must_head_plain_does_not_apply_once_a_trump_is_in_the_trick():
    d = start({0: "9S", 1: "7H", 2: "TS 7S"}, {1: "S", 2: "S"}, must_head_plain=True)
    play(d, 0, "9S")
    play(d, 1, "7H")
    assert legal_cards(d, 2) == {"TS", "7S"}


def test_void_must_trump():
    d = start({0: "AS", 1: "8H 7H"}, {1: "SH"})
    play(d, 0, "AS")
    assert legal_cards(d, 1) == {"8H", "7H"}
    assert refuse(d, 1, Action.play(other_card(d, 1, "SH"))) == (
        "you have no spades, so you must play a trump: you hold 8H, 7H")


def test_void_with_no_trump_may_play_anything():
    d = start({0: "AS"}, {1: "SH"})
    play(d, 0, "AS")
    assert legal_cards(d, 1) == set(held(d, 1))


def test_void_must_overtrump():
    d = start({0: "AS", 1: "9H", 2: "JH 7H"}, {1: "S", 2: "SH"})
    play(d, 0, "AS")
    play(d, 1, "9H")
    assert legal_cards(d, 2) == {"JH"}
    assert refuse(d, 2, Action.play("7H")) == "you must overtrump the 9H: you hold JH"
    assert refuse(d, 2, Action.play(other_card(d, 2, "SH"))) == (
        "you must overtrump the 9H: you hold JH")


def test_void_and_unable_to_overtrump_must_undertrump():
    d = start({0: "AS", 1: "JH", 2: "7H"}, {1: "S", 2: "SH"})
    play(d, 0, "AS")
    play(d, 1, "JH")
    assert legal_cards(d, 2) == {"7H"}
    assert refuse(d, 2, Action.play(other_card(d, 2, "SH"))) == (
        "you have no spades and cannot overtrump the JH, so you must still play a trump: "
        "you hold 7H")


def test_must_head_a_trump_lead():
    d = start({0: "9H", 1: "JH 6H"}, {1: "H"})
    play(d, 0, "9H")
    assert legal_cards(d, 1) == {"JH"}
    assert refuse(d, 1, Action.play("6H")) == (
        "trumps were led: you must beat the 9H with a higher trump: you hold JH")
    d = start({0: "JH", 1: "9H 6H"}, {1: "H"})  # nothing beats the jack: any trump
    play(d, 0, "JH")
    assert legal_cards(d, 1) == {"9H", "6H"}


def test_no_partner_exception_by_default_and_the_option():
    # Seat 2 (partner of the leader 0) wins with the AS; seat 2 void in spades.
    spec, nm = {0: "AS", 1: "7S", 2: "8H"}, {1: "S", 2: "S"}
    d = start(spec, nm)
    play(d, 0, "AS")
    play(d, 1, "7S")
    assert all(c[1] == "H" for c in legal_cards(d, 2))
    d = start(spec, nm, partner_exception=True)
    play(d, 0, "AS")
    play(d, 1, "7S")
    assert legal_cards(d, 2) == set(held(d, 2))
    # Partner winning with a trump: no duty to overtrump under the option.
    spec2, nm2 = {1: "AS", 2: "9H", 3: "6S", 0: "JH 6H"}, {2: "S", 0: "SH"}
    d = start(spec2, nm2, dealer=0)
    play(d, 1, "AS")
    play(d, 2, "9H")
    play(d, 3, "6S")
    assert legal_cards(d, 0) == {"JH"}
    d = start(spec2, nm2, dealer=0, partner_exception=True)
    play(d, 1, "AS")
    play(d, 2, "9H")
    play(d, 3, "6S")
    assert legal_cards(d, 0) == set(held(d, 0))
    # Trump lead won by the partner: still follow trumps, no duty to head.
    spec3, nm3 = {0: "9H", 2: "JH 7H"}, {1: "H", 2: "H"}
    d = start(spec3, nm3, partner_exception=True)
    play(d, 0, "9H")
    play_first_legal(d, 1)
    assert legal_cards(d, 2) == {"JH", "7H"}
    d = start(spec3, nm3)
    play(d, 0, "9H")
    play_first_legal(d, 1)
    assert legal_cards(d, 2) == {"JH"}


def test_cards_not_held_and_out_of_turn_are_refused():
    d = start({0: "AS"}, {1: "S"})
    assert refuse(d, 0, Action.play(other_card(d, 1, ""))).startswith("you do not hold")
    assert refuse(d, 1, Action.play(held(d, 1)[0])).startswith("it is not your turn")
    assert "signals" in refuse(d, 0, Action.play("AS", signal="strong"))


# 5. Concession ------------------------------------------------------------------------------
def test_concede_mid_trick_out_of_turn_gives_the_other_side_the_full_total():
    d = start({}, caller=0)
    play_first_legal(d, 0)
    assert Action("concede") in d.legal_actions(3)
    d.apply(3, Action("concede"))  # defenders throw in; not seat 3's turn
    s = d.summary()
    assert d.is_over and s["conceded_by"] == 3
    assert s["result"] == "made" and s["hand_total"] == 162 and s["hand_score"] == [162, 0]
    assert s["card_points_by_team"] == [0, 0]  # the unfinished trick counts for nobody
    assert "conceded" in refuse(d, 1, Action.play(held(d, 1)[0]))


def test_concede_by_the_callers_with_extras_announced():
    # Seat 0 calls and declares a run that wins at the end of trick 1; seat 1 concedes.
    d = start({0: "6S 7S 8S 9S"}, {0: "S"}, trump="D")
    d.apply(0, Action("declare_runs"))
    finish_trick(d)
    d.apply(2, Action("concede"))  # a caller concedes
    s = d.summary()
    assert s["runs_winner"] == 0 and s["hand_total"] == 212
    assert s["result"] == "bait" and s["hand_score"] == [0, 212]


def test_concede_in_trick_one_settles_runs_among_declarations_so_far():
    d = start({0: "6S 7S 8S", 1: "6C 7C 8C 9C"}, {0: "S", 1: "C"}, trump="D")
    d.apply(0, Action("declare_runs"))
    play_first_legal(d, 0)
    d.apply(1, Action("concede"))  # seat 1 never declared his fifty
    s = d.summary()
    assert s["runs_winner"] == 0 and s["run_points"] == 20 and s["hand_score"] == [182, 0]
    assert d.view(None)["runs"]["shown"] == [["8S", "7S", "6S"]]


def test_concede_not_in_the_auction_nor_when_not_allowed():
    d = new_deal(hands_from({}))
    assert "once trump has been called" in refuse(d, 2, Action("concede"))
    d = start({}, allow_concede=False)
    assert Action("concede") not in d.legal_actions(0)
    assert "not allowed" in refuse(d, 0, Action("concede"))


# 6. Runs ------------------------------------------------------------------------------------
def cards(text: str) -> list[int]:
    return [card(c) for c in text.split()]


def test_run_detection_natural_order():
    assert sequences(cards("6S 7S 8S")) == [(0, 4, 6)]
    assert sequences(cards("QS KS AS")) == [(0, 10, 12)]
    assert sequences(cards("9H JH AH")) == []  # the top trumps J-9-A are no run
    assert sequences(cards("6S 7S 8S TS JS QS")) == [(0, 4, 6), (0, 8, 10)]  # gap: two
    assert sequences(cards("6S 7S 8S 9S TS")) == [(0, 4, 8)]
    assert sequences(cards("6S 7S 6H 7H 8C")) == []


def declare_and_finish(d: TarabishDeal, declarers: set[int]) -> dict[str, Any]:
    while not d.completed:
        seat = d.turn
        if seat in declarers:
            d.apply(seat, Action("declare_runs"))
        play_first_legal(d, seat)
    return d.summary()


def test_declare_only_at_own_first_turn_with_a_run():
    d = start({0: "6S 7S 8S", 1: "TC JC QC"}, {0: "S", 1: "C"}, trump="D")
    assert d.run_total == (20, 20, 0, 0)
    assert Action("declare_runs") in d.legal_actions(0)
    assert "your own first turn" in refuse(d, 1, Action("declare_runs"))
    play_first_legal(d, 0)
    assert "your own first turn" in refuse(d, 0, Action("declare_runs"))
    d.apply(1, Action("declare_runs"))
    assert "already declared" in refuse(d, 1, Action("declare_runs"))
    play_first_legal(d, 1)
    assert Action("declare_runs") not in d.legal_actions(2)
    assert "hold no run" in refuse(d, 2, Action("declare_runs"))  # seat 2's turn, no run
    finish_trick(d)
    assert "first trick" in refuse(d, d.turn, Action("declare_runs"))
    d2 = new_deal(hands_from({0: "6S 7S 8S"}))
    assert "once trump has been called" in refuse(d2, 0, Action("declare_runs"))


def test_undeclared_runs_do_not_count():
    d = start({0: "6S 7S 8S 9S"}, {0: "S"}, trump="D")
    s = declare_and_finish(d, set())
    assert s["runs_winner"] is None and s["run_points"] == 0


@pytest.mark.parametrize(("spec", "trump", "dealer", "winner", "points"), [
    ({0: "6S 7S 8S 9S", 1: "QC KC AC"}, "D", 3, 0, 50),  # fifty beats twenty
    ({0: "6S 7S 8S", 1: "TC JC QC"}, "D", 3, 1, 20),  # higher top card
    ({0: "6S 7S 8S 9S TS JS", 1: "TC JC QC KC"}, "D", 3, 1, 50),  # top card, not length
    ({0: "9S TS JS QS", 1: "8C 9C TC JC QC"}, "D", 3, 0, 50),  # equal: eldest (seat 0)
    ({0: "6S 7S 8S", 1: "6H 7H 8H"}, "H", 3, 1, 20),  # equal: trump run wins
    ({0: "6S 7S 8S", 1: "6H 7H 8H"}, "S", 3, 0, 20),
    ({1: "6S 7S 8S", 3: "6C 7C 8C"}, "H", 3, 1, 20),  # still equal: earliest from eldest 0
    ({1: "6S 7S 8S", 3: "6C 7C 8C"}, "H", 2, 3, 20),  # eldest 3
])
def test_run_comparison(spec, trump, dealer, winner, points):
    d = start(spec, {s: spec[s][1] for s in spec}, trump=trump, dealer=dealer)
    for seat in spec:  # the declarers hold exactly the runs of the case
        assert d.runs[seat] == tuple(sequences(cards(spec[seat])))
    s = declare_and_finish(d, set(spec))
    assert (s["runs_winner"], s["run_points"]) == (winner, points)


def test_run_tie_none_score():
    d = start({1: "6S 7S 8S", 3: "6C 7C 8C"}, {1: "S", 3: "C"}, trump="H",
              run_tie="none_score")
    s = declare_and_finish(d, {1, 3})
    assert s["runs_winner"] is None and s["run_points"] == 0
    assert s["hand_total"] is None  # hand not over yet
    assert sum(s["raw_points_by_team"]) == sum(s["card_points_by_team"])


def test_only_the_best_declarer_scores_all_of_his_runs():
    hands = [
        ["6S", "7S", "8S", "TC", "JC", "QC", "KC", "6D", "8D"],  # 20 + 50 (top K)
        ["9S", "TS", "JS", "AC", "9C", "7D", "9D", "TD", "AD"],
        ["6H", "7H", "8H", "9H", "TH", "QS", "KS", "JD", "QD"],  # 50 (top T): partner
        ["AS", "JH", "QH", "KH", "AH", "6C", "7C", "8C", "KD"],  # 50 (top A) + 20
    ]
    d = new_deal(hands, dealer=3)
    d.apply(0, Action.call_trump("D"))
    s = declare_and_finish(d, {0, 2})
    assert (s["runs_winner"], s["run_points"]) == (0, 70)  # seat 3 did not declare
    assert s["raw_points_by_team"][0] == s["card_points_by_team"][0] + 70
    d = new_deal(hands, dealer=3)
    d.apply(0, Action.call_trump("D"))
    s = declare_and_finish(d, {0, 2, 3})
    assert (s["runs_winner"], s["run_points"]) == (3, 70)


def test_split_long_runs():
    seven = {0: "6S 7S 8S 9S TS JS QS"}
    nm = {0: "S"}
    assert declare_and_finish(start(seven, nm, trump="D"), {0})["run_points"] == 50
    s = declare_and_finish(start(seven, nm, trump="D", split_long_runs=True), {0})
    assert s["run_points"] == 70
    eight = {0: "6S 7S 8S 9S TS JS QS KS"}
    assert declare_and_finish(start(eight, nm, trump="D", split_long_runs=True),
                              {0})["run_points"] == 100


def test_declared_runs_are_public_at_once_but_cards_only_at_the_end_of_trick_1():
    d = start({0: "6S 7S 8S", 1: "TC JC QC KC"}, {0: "S", 1: "C"}, trump="D")
    d.apply(0, Action("declare_runs"))
    play(d, 0, held(d, 0)[0])
    d.apply(1, Action("declare_runs"))
    for viewer in (None, 0, 2, 3):
        runs = d.view(viewer)["runs"]
        assert runs["declared"] == [{"seat": 0, "value": 20}, {"seat": 1, "value": 50}]
        assert runs["shown"] == [] and runs["winner"] is None
        text = json.dumps(d.view(viewer))
        assert not any(c in text for c in ("TC", "JC", "QC", "KC"))
    finish_trick(d)
    runs = d.view(2)["runs"]
    assert runs["winner"] == 1 and runs["points"] == 50
    assert runs["shown"] == [["KC", "QC", "JC", "TC"]]


def test_auto_declare_runs():
    d = start({0: "6S 7S 8S", 1: "TC JC QC"}, {0: "S", 1: "C"}, trump="D",
              auto_declare_runs=True)
    assert d.run_total == (20, 20, 0, 0)
    assert d.view(None)["runs"]["declared"] == [{"seat": 0, "value": 20}]  # eldest at once
    assert Action("declare_runs") not in d.legal_actions(0)
    assert d.apply(0, Action("declare_runs")) == []  # explicit: accepted, changes nothing
    events = d.apply(0, Action.play(held(d, 0)[0]))
    assert any(e.type == "declare_runs" and e.data["seat"] == 1 for e in events)
    assert [x["seat"] for x in d.view(3)["runs"]["declared"]] == [0, 1]
    s = declare_and_finish(d, set())
    assert s["runs_winner"] == 1 and s["run_points"] == 20


# 7. Bella -----------------------------------------------------------------------------------
BELLA_SPEC = {0: "JH 9H AH TH KH QH 6S 6D 6C"}  # seat 0 holds the six top trumps


def bella_deal(**opts: Any) -> TarabishDeal:
    return start(BELLA_SPEC, trump="H", **opts)


def test_bella_with_the_second_card_scores_twenty():
    d = bella_deal()
    assert "second of the king and queen" in refuse(d, 0, Action.play("KH", bella=True))
    play(d, 0, "KH")
    finish_trick(d)
    assert d.turn == 0
    assert Action.play("QH", bella=True) in d.legal_actions(0)
    play(d, 0, "QH", bella=True)
    assert d.bella_seat == 0 and d.summary()["bella"] == 0
    while not d.is_over:
        play_first_legal(d, d.turn)
    s = d.summary()
    assert s["hand_total"] == 182 and s["raw_points_by_team"][0] == s["card_points_by_team"][0] + 20


def test_bella_not_announced_is_lost():
    d = bella_deal()
    play(d, 0, "KH")
    finish_trick(d)
    play(d, 0, "QH")
    while not d.is_over:
        play_first_legal(d, d.turn)
    assert d.summary()["bella"] is None and d.summary()["hand_total"] == 162


def test_bella_call_on_first_and_at_most_once():
    d = bella_deal(bella_call_on_first=True)
    play(d, 0, "KH", bella=True)
    assert d.bella_seat == 0
    finish_trick(d)
    assert Action.play("QH", bella=True) not in d.legal_actions(0)
    assert "already been announced" in refuse(d, 0, Action.play("QH", bella=True))


def test_auto_bella():
    d = bella_deal(auto_bella=True)
    assert not any(a.bella for a in d.legal_actions(0))
    play(d, 0, "KH")
    assert d.bella_seat is None
    finish_trick(d)
    play(d, 0, "QH")
    assert d.bella_seat == 0
    d = bella_deal(auto_bella=True)
    play(d, 0, "KH")
    finish_trick(d)
    play(d, 0, "QH", bella=True)  # explicit: accepted, same result
    assert d.bella_seat == 0


def test_bella_refused_for_wrong_cards_or_holder():
    d = bella_deal()
    assert "king or queen of trumps" in refuse(d, 0, Action.play("JH", bella=True))
    d = start({1: "KH", 3: "QH"}, trump="H", dealer=0)
    assert "not dealt both" in refuse(d, 1, Action.play("KH", bella=True))


def test_bella_inside_the_winning_run_is_announced_when_it_is_shown():
    d = bella_deal()
    d.apply(0, Action("declare_runs"))  # 9H TH JH QH KH AH: a fifty holding K-Q
    play(d, 0, "KH")
    assert d.bella_seat is None
    finish_trick(d)
    s = d.summary()
    assert s["runs_winner"] == 0 and s["run_points"] == 50 and s["bella"] == 0
    while not d.is_over:
        play_first_legal(d, d.turn)
    s = d.summary()
    assert s["hand_total"] == 162 + 50 + 20
    assert s["raw_points_by_team"][0] == s["card_points_by_team"][0] + 70


def test_the_holders_call_is_still_accepted_after_bella_counted_with_the_run():
    """Section 7: "Whether or not bella was counted with the run, the holder's call with
    the second card ... is still accepted; bella counts once." The record that follows the
    rule to the letter replays cleanly and scores the same as one without the call."""
    scores = []
    for call in (True, False):
        d = bella_deal()
        d.apply(0, Action("declare_runs"))
        play(d, 0, "KH")
        finish_trick(d)
        assert d.bella_seat == 0
        events = d.apply(0, Action.play("QH", bella=call))
        assert events[0].data["bella"] is False  # nothing newly announced
        while not d.is_over:
            play_first_legal(d, d.turn)
        s = d.summary()
        assert s["bella"] == 0 and s["hand_total"] == 162 + 50 + 20
        scores.append(s["hand_score"])
        record = {"game": "tarabish", **d.record()}
        out, status = replay(record)
        assert status == 0, out
        assert out["deals"][0]["hand_score"] == s["hand_score"]
    assert scores[0] == scores[1]


# 8. Scoring ---------------------------------------------------------------------------------
def test_hand_result_made_half_bait_bait():
    assert hand_result(0, [82, 80], 162, False) == ("made", [82, 80])
    assert hand_result(1, [81, 81], 162, False) == ("half_bait", [81, 0])
    assert hand_result(1, [81, 81], 162, True) == ("bait", [162, 0])
    assert hand_result(0, [80, 82], 162, False) == ("bait", [0, 162])
    # bait: the defenders take the whole total, the callers' runs included
    assert hand_result(0, [60 + 20, 102], 182, False) == ("bait", [0, 182])
    assert hand_result(0, [72 + 20, 90], 182, False) == ("made", [92, 90])
    assert hand_result(0, [71 + 20, 91], 182, False) == ("half_bait", [0, 91])


def test_last_trick_and_162_in_a_played_hand():
    d = start({}, caller=1, dealer=3)
    while not d.is_over:
        play_first_legal(d, d.turn)
    s = d.summary()
    assert sum(s["card_points_by_team"]) == 162
    last = s["tricks"][-1]["winner"]
    pts = [0, 0]
    for t in s["tricks"]:
        for _, c in t["cards"]:
            ci = card(c)
            trump = c[1] == "H"
            pts[t["winner"] & 1] += POINTS[trump][BIT_OF[trump][ci]]
    pts[last & 1] += 10
    assert pts == s["card_points_by_team"]


def test_score_only_hand_scores_like_a_played_one():
    d = bella_deal()
    d.apply(0, Action("declare_runs"))
    while not d.is_over:
        play_first_legal(d, d.turn)
    played = d.summary()
    m = TarabishMatch(None, None, 3)
    given = {"caller": played["caller"], "card_points_by_team": played["card_points_by_team"],
             "runs": {"seat": played["runs_winner"], "points": played["run_points"]},
             "bella": played["bella"]}
    s = m.score_only(given)
    for key in ("caller", "runs_winner", "run_points", "bella", "card_points_by_team",
                "raw_points_by_team", "hand_total", "result", "hand_score", "hand_void"):
        assert s[key] == played[key], key


@pytest.mark.parametrize(("given", "message"), [
    ({"card_points_by_team": [81, 81]}, "caller"),
    ({"caller": 5, "card_points_by_team": [81, 81]}, "seat"),
    ({"caller": 0, "card_points_by_team": [80, 81]}, "is not 162"),
    ({"caller": 0, "card_points_by_team": [161, 1]}, "cannot split"),
    ({"caller": 0, "card_points_by_team": [81, 81], "runs": {"seat": 0, "points": 30}},
     "run total"),
    ({"caller": 0, "card_points_by_team": [81, 81], "runs": {"seat": 0}}, "runs"),
    ({"caller": 0, "card_points_by_team": [81, 81], "bella": 4}, "seat"),
    ({"caller": 0, "card_points_by_team": [81, 81], "tricks": 3}, "not a score-only"),
    ({"caller": None}, "dealer_may_pass"),
])
def test_impossible_score_only_summaries_are_errors(given, message):
    with pytest.raises(RecordError, match=message):
        TarabishMatch(None, None, 0).score_only(given)


def test_score_only_void_hand_with_dealer_may_pass():
    m = TarabishMatch({"dealer_may_pass": True}, None, 0)
    s = m.score_only({"caller": None})
    assert s["hand_void"] and s["hand_score"] == [0, 0] and m.next_dealer == 1
    with pytest.raises(RecordError, match="void hand"):
        m.score_only({"caller": None, "card_points_by_team": [81, 81]})


def test_possible_totals_tables():
    assert sorted(RUN_TOTALS[False]) == [20, 40, 50, 60, 70, 100]
    assert RUN_TOTALS[True] == RUN_TOTALS[False]
    assert set(range(163)) - SIDE_POINTS == {1, 161}


# 9. Game end, tie-break, dealer rotation ----------------------------------------------------
def sheet(caller: int, a: int) -> dict[str, Any]:
    return {"caller": caller, "card_points_by_team": [a, 162 - a]}


def test_game_to_500_and_dealer_rotation():
    m = TarabishMatch(None, None, 2)
    for i in range(3):
        m.score_only(sheet(0, 162))
        assert not m.over and m.next_dealer == (3 + i) % 4
    m.score_only(sheet(0, 162))
    assert m.over and m.winner == 0 and m.totals == [648, 0]
    assert m.summary()["dealers"] == [2, 3, 0, 1, 2]
    assert m.summary()["decided_after"] == 3


def test_both_over_target_higher_total_wins():
    m = TarabishMatch({"target": 300}, None, 0)
    for h in (sheet(0, 150), sheet(1, 30), sheet(1, 10)):  # A 190, B 296
        m.score_only(h)
    assert not m.over and m.totals == [190, 296]
    m.score_only(sheet(0, 120))  # A 310, B 338: both over, B higher
    assert m.over and m.winner == 1


def test_equal_totals_over_target_another_hand_or_calling_side():
    # Six hands made by B (A takes 80 x 5 + 77): A 477, B 495; then A makes 90-72: 567-567.
    first = [sheet(1, 80)] * 5 + [sheet(1, 77), sheet(0, 90)]
    m = TarabishMatch(None, None, 0)
    c = TarabishMatch({"tie_break": "calling_side"}, None, 0)
    for h in first:
        m.score_only(h)
        c.score_only(h)
    assert m.totals == c.totals == [567, 567]
    assert not m.over  # equal above the target: another hand
    assert c.over and c.winner == 0  # seat 0 called the last hand
    m.score_only(sheet(3, 60))  # B makes 102-60
    assert m.over and m.winner == 1 and m.totals == [627, 669]


def test_options_are_validated():
    with pytest.raises(OptionError):
        TarabishMatch({"run_tie": "random"})
    with pytest.raises(OptionError):
        TarabishMatch({"no_trump": True})
    assert "tarabish" in GAMES


# Records ------------------------------------------------------------------------------------
@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("tarabish-*.json")))
def test_examples_replay(path: Path):
    out, status = replay(json.loads(path.read_text()))
    assert status == 0, out
    assert out["ok"] and out["match"]["totals"] == [
        sum(d["hand_score"][t] for d in out["deals"]) for t in (0, 1)]


def test_examples_exist_and_show_the_features():
    played = json.loads((EXAMPLES / "tarabish-hand.json").read_text())
    out, _ = replay(played)
    deal = out["deals"][0]
    assert deal["runs_winner"] is not None and deal["bella"] is not None
    sheet_rec = json.loads((EXAMPLES / "tarabish-scoresheet.json").read_text())
    out, _ = replay(sheet_rec)
    assert out["match"]["over"] and out["match"]["winner"] is not None


def test_replay_reports_the_duty_in_the_reason():
    hands = hands_from({0: "AS", 1: "9H", 2: "JH 7H"}, {1: "S", 2: "SH"})
    rec = {"game": "tarabish", "dealer": 3, "hands": hands, "actions": [
        {"seat": 0, "type": "call_trump", "suit": "H"},
        {"seat": 0, "type": "play", "card": "AS"},
        {"seat": 1, "type": "play", "card": "9H"},
        {"seat": 2, "type": "play", "card": "7H"}]}
    out, status = replay(rec)
    assert status == 1
    assert out["illegal"] == {"deal": 0, "action": 3,
                              "reason": "you must overtrump the 9H: you hold JH"}
    assert out["deals"][0]["hand_over"] is False


def test_random_match_dealer_rotation_with_void_hands():
    m = TarabishMatch({"dealer_may_pass": True}, None, 1, seed=3)
    rng = random.Random(3)
    while not m.over:
        d = m.start_deal()
        while not d.is_over:
            seat = d.to_act[0]
            d.apply(seat, rng.choice([a for a in d.legal_actions(seat) if a.type != "concede"]))
        m.finish_deal()
    dealers = m.summary()["dealers"]
    assert all((b - a) % 4 == 1 for a, b in itertools.pairwise(dealers))
