"""Albastini: one test per rule of ``docs/rules/albastini.md`` (sections 1-10)."""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from games.actions import Action
from games.albastini import (
    INFO,
    PACK,
    POINTS,
    STRENGTH,
    AlbastiniDeal,
    AlbastiniMatch,
    random_playout,
    score_game,
    sides_for,
)
from games.base import HIDDEN, Deal
from games.cards import deal_packets, name, seat_order, shuffled
from games.errors import IllegalAction, OptionError, RecordError
from games.records import replay, replay_text
from games.registry import GAMES

ROOT = Path(__file__).resolve().parents[2]


def make(
    players: int,
    hands: Sequence[Sequence[str]],
    trump: str,
    stock_top: Sequence[str] = (),
    dealer: int = 0,
    options: dict[str, Any] | None = None,
) -> tuple[AlbastiniMatch, AlbastiniDeal]:
    """A match whose first deal has these hands and turned card; the stock starts with
    ``stock_top`` and holds the rest of the pack in pack order."""
    match = AlbastiniMatch(options, players, dealer)
    used = {c for h in hands for c in h} | {trump} | set(stock_top)
    rest = [name(c) for c in PACK if name(c) not in used]
    deal = match.start_deal([list(h) for h in hands],
                            {"stock": [*stock_top, *rest], "trump_card": trump})
    assert isinstance(deal, AlbastiniDeal)
    return match, deal


def snapshot(deal: AlbastiniDeal) -> str:
    views = [deal.view(s) for s in (None, *range(deal.players))]
    return json.dumps([views, deal.summary(), deal.version])


def refused(deal: AlbastiniDeal, seat: int, action: Action, words: str) -> None:
    before = snapshot(deal)
    with pytest.raises(IllegalAction) as info:
        deal.apply(seat, action)
    assert words in info.value.reason
    assert snapshot(deal) == before


def play_out(deal: Deal, rng: random.Random) -> None:
    while not deal.is_over:
        seat = deal.to_act[0]
        deal.apply(seat, rng.choice(deal.legal_actions(seat)))


FOUR = [["AS", "3S", "4H", "5H", "6H"],
        ["KS", "QS", "JD", "QC", "3C"],
        ["7S", "4S", "5D", "6D", "3D"],
        ["JS", "6S", "5S", "4C", "5C"]]


# -- 1. deck, rank, points --------------------------------------------------------------------
def test_pack_ranks_and_points() -> None:
    assert len(PACK) == 36 and len(set(PACK)) == 36
    assert {name(c)[0] for c in PACK} == set("A7KJQ6543")
    spades = sorted((c for c in PACK if c // 13 == 0), key=lambda c: -STRENGTH[c])
    assert "".join(name(c)[0] for c in spades) == "A7KJQ6543"
    by_rank = {name(c)[0]: POINTS[c] for c in PACK}
    assert by_rank == {"A": 11, "7": 10, "K": 4, "J": 3, "Q": 2, "6": 0, "5": 0, "4": 0,
                       "3": 0}
    assert sum(POINTS[c] for c in PACK) == 120


def test_seven_beats_king_and_jack_beats_queen_in_play() -> None:
    hands = [["QS", "3H", "4H", "5H", "6H"], ["KS", "3C", "4C", "5C", "6C"],
             ["7S", "3D", "4D", "5D", "6D"], ["JS", "QC", "QD", "QH", "4S"]]
    _, deal = make(4, hands, "AC")
    deal.apply(1, Action.pass_())
    deal.apply(3, Action.pass_())
    for seat, c in ((1, "KS"), (2, "7S"), (3, "JS"), (0, "QS")):
        deal.apply(seat, Action.play(c))
    assert deal.completed[-1][2] == 2  # 7S > KS > JS > QS
    assert deal.points_by_side == [10 + 4 + 3 + 2, 0]


# -- 2. seating, teams ------------------------------------------------------------------------
def test_sides_for_every_form() -> None:
    assert sides_for(4) == [(0, 2), (1, 3)]
    assert sides_for(6, "3x2") == [(0, 3), (1, 4), (2, 5)]
    assert sides_for(6, "2x3") == [(0, 2, 4), (1, 3, 5)]
    for n in (2, 3, 5):
        assert sides_for(n) == [(s,) for s in range(n)]
    assert INFO.player_counts == (2, 3, 4, 5, 6)
    assert INFO.teams(6, AlbastiniMatch({"teams": "2x3"}, 6).options) == [(0, 2, 4), (1, 3, 5)]
    assert GAMES["albastini"] is INFO


# -- 3. the deal ------------------------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_deal_one_at_a_time_from_dealers_left_then_turned_card_and_stock(players: int) -> None:
    dealer = players - 1
    match = AlbastiniMatch(None, players, dealer, seed="t")
    deal = match.start_deal()
    assert isinstance(deal, AlbastiniDeal)
    cards = shuffled(PACK, match.deal_rng(0))
    for i in range(5 * players):
        seat = (dealer + 1 + i) % players
        assert deal.dealt[seat][i // players] == cards[i]
    assert deal.trump_card == cards[5 * players]
    assert deal.stock_init == cards[5 * players + 1:]
    record = deal.record()
    assert record["extra"] == {"stock": [name(c) for c in cards[5 * players + 1:]],
                               "trump_card": name(cards[5 * players])}
    assert deal_packets(cards, seat_order((dealer + 1) % players, players, 1), 1, 5,
                        players) == deal.dealt


# -- 4. bidding and trump ---------------------------------------------------------------------
@pytest.mark.parametrize(("players", "teams", "dealer", "bidders"), [
    (2, "3x2", 0, [1]), (2, "3x2", 1, [0]),
    (3, "3x2", 1, [2, 0]),
    (4, "3x2", 0, [1, 3]), (4, "3x2", 3, [0, 2]),
    (5, "3x2", 2, [3, 4, 0, 1]),
    (6, "3x2", 1, [2, 3, 5, 0]),
    (6, "2x3", 1, [2, 4, 0]),
])
def test_bidders_are_the_dealers_opponents_from_his_left(
        players: int, teams: str, dealer: int, bidders: list[int]) -> None:
    options = {"teams": teams} if players == 6 else None
    match = AlbastiniMatch(options, players, dealer, seed=1)
    deal = match.start_deal()
    assert isinstance(deal, AlbastiniDeal)
    seen = []
    while deal.phase == "bidding":
        seat = deal.to_act[0]
        seen.append(seat)
        for other in range(players):
            if other != seat:
                assert deal.legal_actions(other) == []
        deal.apply(seat, Action.pass_())
    assert seen == bidders
    assert deal.view(None)["bidders"] == bidders


def test_dealer_and_partner_may_not_bid_and_bidders_keep_their_turn() -> None:
    _, deal = make(4, FOUR, "KH")
    refused(deal, 0, Action.bid("AS"), "only the dealer's opponents bid")
    refused(deal, 2, Action.pass_(), "only the dealer's opponents bid")
    refused(deal, 3, Action.pass_(), "not your turn")
    refused(deal, 1, Action.play("KS"), "the bidding is not finished")
    refused(deal, 1, Action.bid("AS"), "you do not hold AS")
    refused(deal, 1, Action.bid_cards(("KS", "QS")), "exactly one card")
    refused(deal, 1, Action.call_trump("S"), "not an action in Albastini")


def test_each_bid_in_a_suit_not_yet_bid() -> None:
    _, deal = make(4, FOUR, "KH")
    deal.apply(1, Action.bid("QC"))
    refused(deal, 3, Action.bid("4C"), "clubs has already been bid (by seat 1)")
    labels = {a.label() for a in deal.legal_actions(3)}
    assert labels == {"pass", "bid JS", "bid 6S", "bid 5S"}
    deal.apply(3, Action.bid("5S"))
    assert deal.view(2)["bids"] == [[1, "QC"], [3, "5S"]]


def test_a_bidder_may_always_pass_even_with_cards_to_bid() -> None:
    _, deal = make(4, FOUR, "KH")
    assert deal.legal_actions(1)[0] == Action.pass_()
    deal.apply(1, Action.pass_())
    assert deal.view(None)["bids"] == [[1, None]]


def test_fifth_player_form_last_bidder_has_one_suit_left() -> None:
    hands = [["AS", "AH", "AD", "AC", "7S"], ["KS", "3S", "4S", "5S", "6S"],
             ["KH", "3H", "4H", "5H", "6H"], ["KD", "3D", "4D", "5D", "6D"],
             ["KC", "3C", "QS", "QH", "QD"]]
    _, deal = make(5, hands, "7H")
    deal.apply(1, Action.bid("3S"))
    deal.apply(2, Action.bid("3H"))
    deal.apply(3, Action.bid("3D"))
    assert {a.label() for a in deal.legal_actions(4)} == {"pass", "bid KC", "bid 3C"}
    refused(deal, 4, Action.bid("QS"), "spades has already been bid")


def test_trump_is_turned_only_after_the_last_bidder_acts() -> None:
    _, deal = make(4, FOUR, "KH")
    events = deal.apply(1, Action.bid("QC"))
    assert [e.type for e in events] == ["bid"]
    assert deal.view(None)["trump"] is None and deal.view(None)["trump_card"] is None
    assert deal.view(None)["stock_size"] == 16  # the unturned card is still on the stock
    events = deal.apply(3, Action.pass_())
    assert [e.type for e in events][:3] == ["pass", "trump_turned", "bottom_card"]
    assert events[1].data == {"card": "KH", "suit": "H"} and events[1].to is None
    hand_events = [e for e in events if e.type == "hand"]
    assert [e.to for e in hand_events] == [frozenset({s}) for s in range(4)]
    assert deal.trump == 1 and deal.phase == "play"


def test_no_trump_bid_keeps_hands_and_turned_card_goes_under_the_stock() -> None:
    _, deal = make(4, FOUR, "KH", stock_top=["AH"])
    deal.apply(1, Action.bid("QC"))
    deal.apply(3, Action.bid("5S"))
    assert deal.exchanged_by is None
    assert [sorted(h) for h in deal.hands] == [sorted(h) for h in deal.dealt]
    left = [name(c) for c in deal.stock_left()]
    assert left[0] == "AH" and left[-1] == "KH" and len(left) == 16
    assert deal.view(3)["bottom_card"] == "KH"


def test_the_trump_suit_bidder_must_exchange_even_a_higher_card() -> None:
    hands = [list(h) for h in FOUR]
    hands[1] = ["AH", "QS", "JD", "QC", "3C"]
    _, deal = make(4, hands, "3H")
    deal.apply(1, Action.bid("AH"))
    events = deal.apply(3, Action.bid("4C"))
    exchange = next(e for e in events if e.type == "exchange")
    assert exchange.to is None and exchange.data == {"seat": 1, "took": "3H", "gave": "AH"}
    assert "3H" in deal.view(1)["hand"] and "AH" not in deal.view(1)["hand"]
    assert "4C" in deal.view(3)["hand"]  # other bid cards go back
    assert name(deal.stock_left()[-1]) == "AH"
    v = deal.view(0)
    assert (v["exchanged_by"], v["trump_card"], v["bottom_card"]) == (1, "3H", "AH")
    assert deal.summary()["exchanged_by"] == 1 and deal.summary()["bottom_card"] == "AH"


# -- 5. play ----------------------------------------------------------------------------------
def _after_bidding() -> AlbastiniDeal:
    _, deal = make(4, FOUR, "KH")
    deal.apply(1, Action.pass_())
    deal.apply(3, Action.pass_())
    return deal


def test_dealers_left_leads_and_any_card_is_legal() -> None:
    deal = _after_bidding()
    assert deal.to_act == (1,)
    deal.apply(1, Action.play("KS"))
    # seat 2 holds spades but may play anything
    assert {a.card for a in deal.legal_actions(2)} == {"7S", "4S", "5D", "6D", "3D"}
    deal.apply(2, Action.play("5D"))
    refused(deal, 0, Action.play("AS"), "not your turn")
    refused(deal, 3, Action.play("AS"), "you do not hold AS")
    refused(deal, 3, Action.play("JS", signal="strong"), "no signals")
    refused(deal, 3, Action.bid("JS"), "the bidding is over")


def test_highest_of_led_suit_wins_and_other_suits_never_win() -> None:
    deal = _after_bidding()
    for seat, c in ((1, "QS"), (2, "7S"), (3, "4C"), (0, "AS")):
        deal.apply(seat, Action.play(c))
    assert deal.completed[0][2] == 0  # AS, highest spade
    deal2 = _after_bidding()
    for seat, c in ((1, "3C"), (2, "7S"), (3, "4C"), (0, "AS")):
        deal2.apply(seat, Action.play(c))
    assert deal2.completed[0][2] == 3  # 4C beats 3C; the spades never win


def test_lowest_trump_beats_any_plain_card_and_leads_next() -> None:
    deal = _after_bidding()
    for seat, c in ((1, "KS"), (2, "7S"), (3, "JS"), (0, "4H")):
        deal.apply(seat, Action.play(c))
    assert deal.completed[0][2] == 0
    assert deal.to_act == (0,)


# -- 6. drawing -------------------------------------------------------------------------------
def test_trick_winner_draws_first_then_clockwise_privately() -> None:
    deal = _after_bidding()
    top = [deal.stock[i] for i in range(4)]
    for seat, c in ((1, "KS"), (2, "7S"), (3, "JS"), (0, "3S")):
        events = deal.apply(seat, Action.play(c))
    assert deal.draws == [[(2, top[0]), (3, top[1]), (0, top[2]), (1, top[3])]]
    public_round = next(e for e in events if e.type == "draw_round")
    assert public_round.to is None
    assert public_round.data["draws"] == [[2, HIDDEN], [3, HIDDEN], [0, HIDDEN], [1, HIDDEN]]
    private_draws = [e for e in events if e.type == "draw"]
    assert [(e.to, e.data["card"]) for e in private_draws] == [
        (frozenset({s}), name(c)) for s, c in deal.draws[0]]
    assert deal.view(3)["draws"] == [[[2, HIDDEN], [3, name(top[1])], [0, HIDDEN],
                                      [1, HIDDEN]]]
    assert all(len(h) == 5 for h in deal.hands)


@pytest.mark.parametrize(("players", "rounds", "tricks"),
                         [(2, 13, 18), (3, 7, 12), (4, 4, 9), (5, 2, 7), (6, 1, 6)])
def test_draw_rounds_and_tricks_per_player_count(players: int, rounds: int, tricks: int) -> None:
    for seed in range(3):
        options = {"teams": "2x3"} if players == 6 and seed else None
        deal = AlbastiniMatch(options, players, seed % players, seed=seed).start_deal()
        assert isinstance(deal, AlbastiniDeal)
        assert deal.view(None)["stock_size"] == 36 - 5 * players
        play_out(deal, random.Random(seed))
        assert len(deal.draws) == rounds and len(deal.completed) == tricks
        for number, drawn in enumerate(deal.draws):
            winner = deal.completed[number][2]
            assert [s for s, _ in drawn] == [(winner + i) % players for i in range(players)]
        flat = [c for rnd in deal.draws for _, c in rnd]
        assert flat == [*deal.stock_init, deal.bottom][:len(flat)]
        if players == 5:
            # the face-up card is never drawn and counts for nobody
            assert deal.stock_left() == [deal.bottom] and deal.bottom_drawn_by is None
            assert sum(deal.points_by_side) == 120 - POINTS[deal.bottom]
        else:
            last_winner = deal.completed[rounds - 1][2]
            assert deal.draws[-1][-1] == ((last_winner - 1) % players, deal.bottom)
            assert deal.bottom_drawn_by == (last_winner - 1) % players
            assert sum(deal.points_by_side) == 120


def test_the_face_up_card_stays_public_once_drawn() -> None:
    for seed in range(40):
        deal = AlbastiniMatch(None, 6, 0, seed=seed).start_deal()
        assert isinstance(deal, AlbastiniDeal)
        rng = random.Random(seed)
        while not deal.draws:
            seat = deal.to_act[0]
            deal.apply(seat, rng.choice(deal.legal_actions(seat)))
        holder = deal.bottom_drawn_by
        assert holder is not None
        for viewer in (None, *range(6)):
            v = deal.view(viewer)
            assert v["bottom_drawn_by"] == holder
            assert [holder, name(deal.bottom)] in v["draws"][0]


# -- 7. scoring -------------------------------------------------------------------------------
def test_victory_points_thresholds() -> None:
    two = sides_for(4)
    assert score_game([60, 60], two) == (None, [0, 0])
    assert score_game([100, 20], two) == (0, [1, 0])
    assert score_game([101, 19], two) == (0, [2, 0])
    ind = sides_for(3)
    assert score_game([50, 60, 10], ind) == (1, [0, 1, 0])
    assert score_game([51, 60, 9], ind) == (1, [0, 2, 0])
    assert score_game([50, 50, 20], ind) == (None, [0, 0, 0])
    pairs = sides_for(6, "3x2")
    assert score_game([20, 40, 60], pairs) == (2, [0, 0, 1])
    assert score_game([19, 41, 60], pairs) == (2, [0, 0, 2])
    assert score_game([40, 40, 40], pairs) == (None, [0, 0, 0])
    triples = sides_for(6, "2x3")
    assert score_game([30, 90], triples) == (1, [0, 1])
    assert score_game([29, 91], triples) == (1, [0, 2])
    five = sides_for(5)
    assert score_game([10, 10, 10, 10, 79], five) == (4, [0, 0, 0, 0, 1])


def test_played_deal_scores_into_the_match() -> None:
    match = AlbastiniMatch(None, 4, 0, seed=3)
    deal = match.start_deal()
    play_out(deal, random.Random(3))
    summary = match.finish_deal()
    expected = score_game(summary["points_by_side"], sides_for(4))
    assert (summary["winner_side"], summary["victory_points"]) == expected
    assert match.totals == expected[1]


# -- 8. next dealer and session -----------------------------------------------------------------
def _score_only(match: AlbastiniMatch, points: list[int], dealer: int | None = None) -> int:
    return int(match.score_only({"points_by_side": points}, dealer)["next_dealer"])


def test_next_dealer_is_first_clockwise_on_the_winning_side() -> None:
    match = AlbastiniMatch(None, 4, 1)
    assert _score_only(match, [40, 80]) == 3
    assert _score_only(match, [80, 40]) == 0
    assert _score_only(match, [60, 60]) == 0  # tie: the same dealer
    match6 = AlbastiniMatch(None, 6, 4)
    assert _score_only(match6, [20, 60, 40]) == 1  # team {1, 4}: after 4 comes 1
    match3 = AlbastiniMatch(None, 3, 0)
    assert _score_only(match3, [70, 40, 10]) == 0  # individuals: the winner


def test_winners_choose_any_member_of_the_winning_side() -> None:
    match = AlbastiniMatch({"dealer_choice": "winners_choose"}, 6, 0)
    _score_only(match, [20, 60, 40])  # team {1, 4} wins
    assert match.dealer_choices() == [1, 4]
    with pytest.raises(RecordError):
        _score_only(match, [40, 40, 40], dealer=2)
    with pytest.raises(IllegalAction):
        match.choose_dealer(3)
    match.choose_dealer(4)
    assert _score_only(match, [40, 40, 40]) == 4 and match.dealers == [0, 4]
    assert match.dealer_choices() == [4]  # after a tie nobody chooses
    fixed = AlbastiniMatch(None, 6, 0)
    _score_only(fixed, [20, 60, 40])
    with pytest.raises(RecordError):
        _score_only(fixed, [40, 40, 40], dealer=4)


def test_session_to_target_vp_and_session_games() -> None:
    match = AlbastiniMatch({"target_vp": 3}, 4, 0)
    _score_only(match, [101, 19])
    assert not match.over
    _score_only(match, [100, 20])
    assert match.over and match.winner == 0 and match.decided_after == 1
    short = AlbastiniMatch({"session_games": 3}, 2, 0)
    for pts in ([70, 50], [60, 60], [50, 70]):
        _score_only(short, pts)
    assert short.over and short.winner is None and short.totals == [1, 1]
    with pytest.raises(RecordError):
        _score_only(short, [70, 50])
    shorter = AlbastiniMatch({"session_games": 2}, 2, 0)
    _score_only(shorter, [109, 11])
    _score_only(shorter, [60, 60])
    assert shorter.over and shorter.winner == 0


# -- 9. player-count variants and options ------------------------------------------------------
def test_player_counts_and_the_teams_option() -> None:
    for bad in (1, 7):
        with pytest.raises(RecordError):
            AlbastiniMatch(None, bad)
    assert AlbastiniMatch().players == 4
    with pytest.raises(OptionError):
        AlbastiniMatch({"teams": "2x3"}, 4)
    with pytest.raises(OptionError):
        AlbastiniMatch({"teams": "3x3"}, 6)
    with pytest.raises(OptionError):
        AlbastiniMatch({"dealer_choice": "loser"}, 4)
    with pytest.raises(OptionError):
        AlbastiniMatch({"target": 5}, 4)
    assert AlbastiniMatch({"teams": "2x3"}, 6).sides == [(0, 2, 4), (1, 3, 5)]


def test_two_players_only_the_non_dealer_bids() -> None:
    hands = [["AS", "AH", "AD", "AC", "7S"], ["KS", "3S", "4S", "5S", "6S"]]
    _, deal = make(2, hands, "7H", dealer=1)
    assert deal.to_act == (0,)
    deal.apply(0, Action.bid("AH"))
    assert deal.phase == "play" and deal.exchanged_by == 0 and "7H" in deal.view(0)["hand"]
    assert deal.to_act == (0,)


# -- score-only deals --------------------------------------------------------------------------
@pytest.mark.parametrize(("players", "points", "words"), [
    (4, [60, 60, 0], "must list 2 point totals"),
    (4, [61, 60], "more than the 120"),
    (4, [60, 59], "not 120"),
    (4, [119, 1], "no split"),
    (4, [60, -60], "must list"),
    (5, [20, 20, 20, 20, 39], "only the face-up card"),
    (3, [40, 40, True], "must list"),
])
def test_impossible_score_only_summaries(players: int, points: list[Any], words: str) -> None:
    match = AlbastiniMatch(None, players, 0)
    with pytest.raises(RecordError) as info:
        match.score_only({"points_by_side": points})
    assert words in str(info.value)
    assert match.deal_summaries == []


def test_score_only_summary_is_scored_like_a_played_deal() -> None:
    match = AlbastiniMatch(None, 5, 0)
    summary = match.score_only({"points_by_side": [20, 9, 30, 30, 20]})  # the 11 unplayed
    assert summary["winner_side"] is None and summary["victory_points"] == [0] * 5
    summary = match.score_only({"points_by_side": [20, 9, 31, 30, 20]})  # 10 unplayed
    assert summary["winner_side"] == 2 and summary["victory_points"] == [0, 0, 2, 0, 0]
    with pytest.raises(RecordError):
        match.score_only({"points_by_side": [20, 9, 31, 30, 20], "trump": "S"})


# -- records ------------------------------------------------------------------------------------
def test_record_extra_is_validated() -> None:
    match = AlbastiniMatch(None, 4, 0, seed=2)
    record = match.start_deal().record()
    hands, extra = record["hands"], record["extra"]
    for bad_extra, words in (
        ({"stock": extra["stock"]}, "trump_card"),
        ({"stock": extra["stock"][1:], "trump_card": extra["trump_card"]}, "14 cards, not 15"),
        ({"stock": [extra["trump_card"], *extra["stock"][1:]],
          "trump_card": extra["trump_card"]}, "more than once"),
        ({"stock": ["TS", *extra["stock"][1:]], "trump_card": extra["trump_card"]},
         "not in the Albastini pack"),
        ({**extra, "hand_number": 1}, "not an albastini extra field"),
    ):
        fresh = AlbastiniMatch(None, 4, 0)
        with pytest.raises(RecordError) as info:
            fresh.start_deal(hands, bad_extra)
        assert words in str(info.value)
    out, status = replay({"game": "albastini", "players": 4, "dealer": 0, "hands": hands,
                          "extra": extra, "actions": [{"seat": 0, "type": "pass"}]})
    assert status == 1 and out["illegal"]["reason"].startswith("only the dealer's opponents")


@pytest.mark.parametrize("path", sorted(ROOT.glob("examples/albastini-*.json")))
def test_example_records_replay(path: Path) -> None:
    out, status = replay_text(path.read_text(encoding="utf-8"))
    assert status == 0 and out["ok"], out
    assert out["deals"]
    played = [d for d in out["deals"] if "draws" in d]
    assert played
    for deal in played:
        assert deal["hand_over"] and sum(deal["points_by_side"]) == 120


def test_examples_exist() -> None:
    assert len(list(ROOT.glob("examples/albastini-*.json"))) >= 2


def test_random_playout_returns_points_by_side() -> None:
    for players in (2, 3, 4, 5, 6):
        deal = AlbastiniMatch(None, players, 0, seed=players).start_deal()
        pts = random_playout(deal, random.Random(0))
        assert len(pts) == len(sides_for(players))
        assert 120 - max(POINTS) <= sum(pts) <= 120
