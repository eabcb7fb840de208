"""The shared engine core: the trick, card keys, view keys, phases, copies, dealing.

The trick core (:class:`games.trick.TrickPlay`) plays every game's tricks with the game's
card-key tables; these tests hold it to the plain-language reference
(:func:`games.trick.trick_winner`) and check the pieces every game shares.
"""

from __future__ import annotations

import json
import random
from enum import StrEnum
from typing import Any, get_type_hints

from hypothesis import given, settings
from hypothesis import strategies as st

from games.actions import PLAYS
from games.albastini import KEY_SET as ALBASTINI_KEYS
from games.albastini import STRENGTH as ALBASTINI_STRENGTH
from games.base import Deal, TrickDeal
from games.cards import NATURAL, RANKS_36, RANKS_ALBASTINI, SUITS, card, deck, name, shuffled
from games.registry import GAMES
from games.tarabish import BIT_OF
from games.tarabish import KEYS as TARABISH_KEYS
from games.trick import NATURAL_KEYS, TrickPlay, trick_json, trick_winner
from games.views import CommonView

SETUPS: list[tuple[str, int | None]] = [
    ("arbaa_turub", None), ("turup", None), ("tarabish", None), ("truf", None), ("truf", 3),
    ("albastini", 2), ("albastini", 5),
]


def tarabish_strength(trump: int) -> list[int]:
    """Tarabish ranks as one strength table for a trump suit (trump order for trumps)."""
    return [BIT_OF[int(c // 13 == trump)][c] for c in range(52)]


GAME_KEYS = {
    "natural": (NATURAL_KEYS, lambda trump: [c % 13 for c in range(52)], RANKS_36),
    "tarabish": (TARABISH_KEYS, tarabish_strength, RANKS_36),
    "albastini": (ALBASTINI_KEYS, lambda trump: ALBASTINI_STRENGTH, RANKS_ALBASTINI),
}


class Bare(TrickPlay):
    """The trick core alone, for testing it without a game around it."""

    def __init__(self, players: int, keys: Any, trump: int) -> None:
        self.players = players
        self.init_tricks(players, 0, 1, keys, trump)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(sorted(GAME_KEYS)), st.integers(-1, 3), st.integers(2, 6),
       st.randoms(use_true_random=False), st.integers(0, 5))
def test_the_trick_core_agrees_with_the_reference_winner(kind, trump, players, rnd, leader):
    """Highest trump, else highest of the led suit; ties to the copy played first (cards
    may repeat, as Arba'a Turub's four packs do)."""
    keys, strength, ranks = GAME_KEYS[kind]
    pack = deck(ranks, copies=2)
    core = Bare(players, keys, trump)
    leader %= players
    core.leader = core.turn = leader
    plays = []
    for i in range(players):
        seat = (leader + i) % players
        c = rnd.choice(pack)
        plays.append((seat, c))
        done = core.trick_step(seat, c)
        assert done == (i == players - 1)
    winner = trick_winner(plays, trump, strength(trump))
    assert core.completed == [(leader, plays, winner)]
    assert core.leader == core.turn == winner and core.tricks_by_seat[winner] == 1
    assert core.trick == [] and core.best_key == -1


def test_identical_cards_go_to_the_copy_played_first():
    core = Bare(4, NATURAL_KEYS, 1)
    for seat, c in enumerate(["AH", "AH", "KH", "AH"]):
        core.trick_step(seat, card(c))
    assert core.completed[-1][2] == 0


def test_trick_json_and_trump_setter():
    core = Bare(4, NATURAL_KEYS, -1)
    core.trump = 0  # a trump named later selects its key table
    for seat, c in enumerate(["AH", "6S", "KH", "QH"]):
        core.trick_step(seat, card(c))
    assert trick_json(core.completed[0]) == {
        "leader": 0, "cards": [[0, "AH"], [1, "6S"], [2, "KH"], [3, "QH"]], "winner": 1}
    assert core.tricks_json() == [trick_json(core.completed[0])]
    assert core.trick_winners() == [1]


def play_some(deal: Deal, rng: random.Random, steps: int) -> None:
    for _ in range(steps):
        if deal.is_over:
            return
        seat = deal.to_act[rng.randrange(len(deal.to_act))]
        legal = [a for a in deal.legal_actions(seat) if a.type != "concede"]
        deal.apply(seat, rng.choice(legal))


def snapshot(deal: Deal) -> str:
    return json.dumps([deal.view(s) for s in [None, *range(deal.players)]]
                      + [deal.summary(), deal.record()], sort_keys=True)


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(SETUPS), st.integers(0, 10_000), st.integers(0, 60))
def test_copy_is_independent_and_equal(setup, seed, steps):
    """``Deal.copy`` (the fast clone search players use) starts equal to the deal, and
    playing on either never changes the other."""
    game, players = setup
    deal = GAMES[game].match_type(None, players, 0, seed=seed).start_deal()
    rng = random.Random(seed)
    play_some(deal, rng, steps)
    before = snapshot(deal)
    twin = deal.copy()
    assert type(twin) is type(deal) and snapshot(twin) == before
    play_some(twin, random.Random(seed + 1), 200)
    assert snapshot(deal) == before
    play_some(deal, random.Random(seed + 2), 200)
    again = deal.copy()
    assert snapshot(again) == snapshot(deal)


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(SETUPS), st.integers(0, 10_000), st.integers(0, 80))
def test_every_view_holds_the_common_keys_with_their_types(setup, seed, steps):
    game, players = setup
    deal = GAMES[game].match_type(None, players, 0, seed=seed).start_deal()
    assert isinstance(deal, TrickDeal)
    play_some(deal, random.Random(seed), steps)
    hints = get_type_hints(CommonView)
    for seat in [None, *range(deal.players)]:
        view = deal.view(seat)
        assert set(hints) <= set(view)
        assert view["game"] == game and view["seat"] == seat
        assert type(view["phase"]) is str and view["phase"] == deal.phase
        assert view["trump"] is None or view["trump"] in SUITS
        assert set(view["trick"]) == {"leader", "cards"}
        assert all(set(t) == {"leader", "cards", "winner"} for t in view["tricks"])
        assert len(view["hand_sizes"]) == deal.players
        json.dumps(view)


def test_phases_are_enums_per_game():
    for game, players in SETUPS:
        deal = GAMES[game].match_type(None, players, 0, seed=1).start_deal()
        assert isinstance(deal.phase, StrEnum)
        assert "over" in {p.value for p in type(deal.phase)}


def test_shuffled_is_random_shuffle_exactly():
    """The fast shuffle keeps every seeded deal (and so every stored table) unchanged."""
    for seed in range(300):
        for n in (0, 1, 2, 9, 36, 52, 144):
            a, b = random.Random(seed), random.Random(seed)
            cards = list(range(n))
            a.shuffle(cards)
            assert shuffled(range(n), b) == cards
            assert a.random() == b.random()


def test_shared_play_actions_are_the_plain_plays():
    for c in range(52):
        assert PLAYS[c].type == "play" and PLAYS[c].card == name(c)
        assert PLAYS[c].signal is None and not PLAYS[c].bella
    assert {a.card for a in PLAYS} == {r + s for r in NATURAL for s in SUITS}


def test_match_totals_are_one_shared_running_score():
    for game, players in SETUPS:
        m = GAMES[game].match_type(None, players, 0, seed=3)
        assert m.totals == [0] * len(GAMES[game].teams(m.players, m.options))
        rng = random.Random(3)
        d = m.start_deal()
        while not d.is_over:
            seat = d.to_act[0]
            d.apply(seat, rng.choice([a for a in d.legal_actions(seat) if a.type != "concede"]))
        m.finish_deal()
        assert m.totals == m.scores and m.totals is not m.scores
