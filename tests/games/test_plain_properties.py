"""Hypothesis properties of Arba'a Turub and Turup (the foundation's engine invariants)."""

from __future__ import annotations

import json
import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from games.actions import Action
from games.arbaa_turub import ArbaaTurubDeal
from games.base import Deal
from games.cards import RANKS_36, deck, name
from games.errors import IllegalAction
from games.records import replay
from games.registry import GAMES
from games.turup import TurupDeal

PLAIN = ["arbaa_turub", "turup"]
seeds = st.integers(min_value=0, max_value=10**9)


def snapshot(d: Deal) -> str:
    return json.dumps([d.view(s) for s in (None, 0, 1, 2, 3)] + [d.summary()], sort_keys=True)


def held(d: Deal, seat: int) -> Counter[str]:
    assert isinstance(d, (ArbaaTurubDeal, TurupDeal))
    return Counter(name(s * 13 + r) for s in range(4) for r in d.hands[seat][s])


@settings(max_examples=25, deadline=None)
@given(game=st.sampled_from(PLAIN), seed=seeds)
def test_each_card_is_dealt_the_right_number_of_times(game: str, seed: int) -> None:
    d = GAMES[game].match_type(None, None, seed % 4, seed=seed).start_deal()
    copies = 4 if game == "arbaa_turub" else 1
    assert Counter(c for h in d.dealt_hands() for c in h) == Counter(
        {name(c): copies for c in deck(RANKS_36)})


@settings(max_examples=30, deadline=None)
@given(game=st.sampled_from(PLAIN), seed=seeds, options=st.sampled_from(
    [{}, {"signals_enabled": False}, {"extra_signals": ["void"]}]))
def test_legal_actions_partition_and_secret_views(game: str, seed: int, options: dict) -> None:
    """Whenever someone is to act, legal_actions is non-empty and every legal action is
    accepted; other cards, other seats and other action types are refused with the state
    unchanged; no view ever shows a card another seat still holds."""
    if game == "turup":
        options = options | ({"kort_declared_before_play": True} if seed % 2 else {})
    m = GAMES[game].match_type(options, None, seed % 4, seed=seed)
    d = m.start_deal()
    rng = random.Random(seed)
    all_cards = sorted({name(c) for c in deck(RANKS_36)})
    steps = 0
    while not d.is_over:
        steps += 1
        for viewer in range(4):
            # the viewer's hand shows only his own cards (before trump: the first packet)
            assert Counter(d.view(viewer)["hand"]) <= held(d, viewer)
            if d.phase != "trump":
                assert Counter(d.view(viewer)["hand"]) == held(d, viewer)
        assert d.view(None)["hand"] == []
        seat = d.to_act[0]
        legal = d.legal_actions(seat)
        assert legal
        # a sample of illegal attempts changes nothing
        before = snapshot(d)
        attempts = [Action.play(c) for c in rng.sample(all_cards, 6)]
        attempts += [Action.call_trump("S"), Action("kort", cont=True), Action("pass")]
        for other in range(4):  # the mover's choices, tried by everybody else
            for a in legal[:3]:
                if other != seat and a not in d.legal_actions(other):
                    try_refused(d, other, a, before)
        for a in attempts:
            if a not in legal:
                try_refused(d, seat, a, before)
        choice = rng.choice(legal)
        d.apply(seat, choice)
        if steps > 400:
            raise AssertionError("deal does not end")
    s = d.summary()
    assert s["hand_over"]
    assert sum(s["tricks_by_seat"]) == len(s["trick_winners"]) == len(s["tricks"])


def try_refused(d: Deal, seat: int, action: Action, before: str) -> None:
    try:
        d.apply(seat, action)
    except IllegalAction as exc:
        assert exc.reason
    else:
        raise AssertionError(f"{action} by seat {seat} was accepted but not listed as legal")
    assert snapshot(d) == before


@settings(max_examples=25, deadline=None)
@given(game=st.sampled_from(PLAIN), seed=seeds)
def test_every_legal_action_is_accepted(game: str, seed: int) -> None:
    d = GAMES[game].match_type(None, None, seed % 4, seed=seed).start_deal()
    rng = random.Random(seed)
    while not d.is_over:
        seat = d.to_act[0]
        for a in d.legal_actions(seat):
            d.copy().apply(seat, a)  # accepted on a copy
        d.apply(seat, rng.choice(d.legal_actions(seat)))


@settings(max_examples=15, deadline=None)
@given(game=st.sampled_from(PLAIN), seed=seeds)
def test_export_then_replay_gives_identical_summaries(game: str, seed: int) -> None:
    m = GAMES[game].match_type(None, None, seed % 4, seed=seed)
    rng = random.Random(seed)
    played = []
    while not m.over and len(played) < 8:
        d = m.start_deal()
        while not d.is_over:
            seat = d.to_act[0]
            d.apply(seat, rng.choice(d.legal_actions(seat)))
        played.append(m.finish_deal())
    record = json.loads(json.dumps(m.record()))
    out, status = replay(record)
    assert status == 0
    assert out["deals"] == json.loads(json.dumps(played))
    assert out["match"] == json.loads(json.dumps(m.summary()))


@settings(max_examples=40, deadline=None)
@given(game=st.sampled_from(PLAIN), seed=seeds, prefix=st.integers(0, 200))
def test_fast_path_agrees_with_the_readable_api(game: str, seed: int, prefix: int) -> None:
    """The same card sequence through ``fast_play`` and through ``apply`` gives the same
    state; the fast random playout only ever plays legal cards and ends where the readable
    API ends."""
    m = GAMES[game].match_type(None, None, seed % 4, seed=seed)
    readable = m.start_deal()
    assert isinstance(readable, (ArbaaTurubDeal, TurupDeal))
    fast = readable.copy()
    assert isinstance(fast, (ArbaaTurubDeal, TurupDeal))
    readable.apply(readable.eldest, Action.call_trump("H"))
    fast.trump, fast.phase = 1, "play"
    rng = random.Random(seed)
    for _ in range(prefix):
        if readable.phase != "play":
            break
        seat = readable.to_act[0]
        cards = fast.fast_legal(seat)
        assert {name(c) for c in cards} == {a.card for a in readable.legal_actions(seat)}
        c = rng.choice(cards)
        readable.apply(seat, Action.play(name(c)))
        fast.fast_play(c)
        assert fast.tricks_by_seat == readable.tricks_by_seat and fast.hands == readable.hands
    result = GAMES[game].random_playout(fast.copy(), random.Random(seed))
    if game == "arbaa_turub":
        assert sum(result) == 36
    else:
        assert sorted(result) in ([0, 1], [0, 3])


@settings(max_examples=60, deadline=None)
@given(seed=seeds, cut=st.integers(0, 40))
def test_replay_of_truncated_records_stops_cleanly(seed: int, cut: int) -> None:
    """A record that ends mid-deal replays to the state reached (hand_over false)."""
    m = GAMES["turup"].match_type(None, None, 0, seed=seed)
    d = m.start_deal()
    rng = random.Random(seed)
    while not d.is_over:
        d.apply(d.to_act[0], rng.choice(d.legal_actions(d.to_act[0])))
    rec = d.record()
    rec["actions"] = rec["actions"][:cut]
    out, status = replay({"game": "turup", **rec})
    assert status == 0
    assert out["deals"][0]["hand_over"] == (cut >= len(d.history))
