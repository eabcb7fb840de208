"""Hypothesis properties of the Tarabish engine: deal, legal/illegal partition, secrecy of
views (the kitty included), card points, export/replay and the fast playout."""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from games.actions import Action
from games.cards import RANKS_36, card, deck, name
from games.errors import IllegalAction
from games.records import replay
from games.tarabish import TarabishDeal, TarabishMatch, _playout

seeds = st.integers(min_value=0, max_value=10**9)
OPTION_SETS = [
    {},
    {"dealer_may_pass": True, "must_head_plain": True, "split_long_runs": True},
    {"partner_exception": True, "auto_bella": True, "auto_declare_runs": True},
    {"bella_call_on_first": True, "run_tie": "none_score", "half_bait_is_whole_bait": True},
]
options = st.sampled_from(OPTION_SETS)
CARD_RE = re.compile(r"\b[6-9TJQKA][SHDC]\b")
ALL_CARDS = [name(c) for c in deck(RANKS_36)]


def new_deal(seed: int, opts: dict[str, Any]) -> TarabishDeal:
    d = TarabishMatch(opts, None, seed % 4, seed=seed).start_deal()
    assert isinstance(d, TarabishDeal)
    return d


def snapshot(d: TarabishDeal) -> str:
    return json.dumps([d.view(s) for s in (None, 0, 1, 2, 3)] + [d.summary()], sort_keys=True)


def fingerprint(d: TarabishDeal) -> str:
    """The whole mutable state, cheaply (the views and summary derive from it)."""
    return repr(sorted((k, v) for k, v in vars(d).items() if k != "opts"))


def choose(d: TarabishDeal, rng: random.Random, concede: bool = False) -> tuple[int, Action]:
    seat = d.to_act[0]
    acts = d.legal_actions(seat)
    if not concede:
        acts = [a for a in acts if a.type != "concede"]
    return seat, rng.choice(acts)


def played_cards(d: TarabishDeal) -> set[str]:
    out = {name(c) for _, cards, _ in d.completed for _, c in cards}
    return out | {name(c) for _, c in d.trick}


def check_secrecy(d: TarabishDeal) -> None:
    """No view shows a card another seat holds (except the run winner's runs, public after
    trick 1), nor a seat's own kitty before trump is fixed; the summary shows only played
    and shown cards."""
    played = played_cards(d)
    runs = d.runs_public()
    shown = {c for run in runs["shown"] for c in run}
    if shown:
        assert runs["resolved"] and (d.completed or d.conceded_by is not None)
    for viewer in (None, 0, 1, 2, 3):
        if viewer is None:
            own: set[str] = set()
        elif d.trump < 0:
            own = {name(c) for c in d.dealt[viewer][:6]}
            assert sorted(d.view(viewer)["hand"]) == sorted(own)
        else:
            own = set(d.hand_names(viewer)) | {
                name(c) for c in d.dealt[viewer]}  # his own runs may list played cards
        seen = set(CARD_RE.findall(json.dumps(d.view(viewer))))
        assert seen <= own | played | shown, (viewer, seen - own - played - shown)
    assert set(CARD_RE.findall(json.dumps(d.summary()))) <= played | shown


def illegal_samples(d: TarabishDeal, seat: int, legal: list[Action],
                    rng: random.Random) -> list[tuple[int, Action]]:
    """Actions that are not legal: other cards for the acting seat, legal actions by the
    wrong seats, other action types."""
    out: list[tuple[int, Action]] = []
    for c in rng.sample(ALL_CARDS, 8):
        for bella in (False, True):
            out.append((seat, Action.play(c, bella=bella)))
    for a in rng.sample(legal, min(3, len(legal))):
        if a.type != "concede":
            out.extend((s, a) for s in range(4) if s != seat)
    out += [(seat, Action.pass_()), (seat, Action.call_trump("S")),
            (seat, Action("declare_runs")), (seat, Action("concede")), (seat, Action.bid("AS")),
            (seat, Action("kort", cont=True))]
    opts = d.opts
    keep = []
    for s, a in out:
        if a in legal and s == seat:
            continue
        if s == seat and a.type == "concede" and d.phase == "play" and opts.allow_concede:
            continue
        if (opts.auto_bella and a.type == "play" and a.bella and s == seat
                and Action.play(a.card or "") in legal):
            continue  # an explicit bella with auto_bella: documented equivalent
        if (d.bella_with_run and d.bella_seat == seat and a.type == "play" and a.bella
                and s == seat and Action.play(a.card or "") in legal
                and d.bella_refusal(seat, card(a.card or "")) is None):
            continue  # the holder's call after bella counted with his run (section 7)
        if opts.auto_declare_runs and a.type == "declare_runs" and s == seat \
                and d.phase == "play" and not d.completed and d.run_total[seat] \
                and seat in d.declared:
            continue  # explicit declaration with auto_declare_runs: accepted no-op
        keep.append((s, a))
    return keep


@settings(max_examples=25, deadline=None)
@given(seed=seeds)
def test_each_card_is_dealt_once_nine_each(seed: int) -> None:
    d = new_deal(seed, {})
    hands = d.dealt_hands()
    assert [len(h) for h in hands] == [9, 9, 9, 9]
    assert Counter(c for h in hands for c in h) == Counter(ALL_CARDS)


@settings(max_examples=40, deadline=None)
@given(seed=seeds, opts=options)
def test_legal_actions_partition_and_secret_views(seed: int, opts: dict[str, Any]) -> None:
    d = new_deal(seed, opts)
    rng = random.Random(seed)
    while not d.is_over:
        check_secrecy(d)
        seat = d.to_act[0]
        legal = d.legal_actions(seat)
        assert legal
        assert len(set(legal)) == len(legal)
        for a in legal:  # every legal action is accepted
            d.copy().apply(seat, a)
        before, state = snapshot(d), fingerprint(d)
        for s, a in illegal_samples(d, seat, legal, rng):
            try:
                d.apply(s, a)
            except IllegalAction as exc:
                assert exc.reason
            else:
                raise AssertionError(f"accepted illegal {a} by seat {s}")
            assert fingerprint(d) == state
        assert snapshot(d) == before
        d.apply(*choose(d, rng))
    check_secrecy(d)
    s = d.summary()
    if s["hand_void"]:
        assert s["hand_score"] == [0, 0] and s["caller"] is None
        return
    assert sum(s["card_points_by_team"]) == 162  # cards + last trick, before extras
    assert sum(s["raw_points_by_team"]) == s["hand_total"]
    assert s["hand_total"] == 162 + s["run_points"] + (20 if s["bella"] is not None else 0)
    assert sum(s["tricks_by_team"]) == 9
    assert s["result"] in ("made", "half_bait", "bait")
    for seat in range(4):
        assert d.legal_actions(seat) == []


@settings(max_examples=30, deadline=None)
@given(seed=seeds, opts=options, concede=st.booleans())
def test_export_then_replay_gives_identical_summaries(seed: int, opts: dict[str, Any],
                                                      concede: bool) -> None:
    m = TarabishMatch(opts, None, seed % 4, seed=seed)
    rng = random.Random(seed)
    for _ in range(3):
        d = m.start_deal()
        while not d.is_over:
            if concede and rng.random() < 0.02 and d.phase == "play" and opts.get(
                    "allow_concede", True):
                d.apply(rng.randrange(4), Action("concede"))
                break
            d.apply(*choose(d, rng))
        m.finish_deal()
        if m.over:
            break
    out, status = replay(json.loads(json.dumps(m.record())))
    assert status == 0, out
    assert out["deals"] == json.loads(json.dumps(m.deal_summaries))
    assert out["match"] == json.loads(json.dumps(m.summary()))


@settings(max_examples=50, deadline=None)
@given(seed=seeds, opts=options, prefix=st.integers(0, 45))
def test_fast_playout_agrees_with_the_readable_api(seed: int, opts: dict[str, Any],
                                                    prefix: int) -> None:
    """A playout that logs its decisions replays through ``apply`` (declaring every run at
    the first turn and announcing bella with the second card, the playout's policy) to the
    same hand score."""
    d = new_deal(seed, opts)
    rng = random.Random(seed)
    for _ in range(prefix):
        if d.is_over:
            break
        d.apply(*choose(d, rng))
    log: list[tuple[int, Any]] = []
    result = _playout(d.copy(), random.Random(seed + 1), log)
    for seat, x in log:
        if isinstance(x, Action):
            d.apply(seat, x)
            continue
        if Action("declare_runs") in d.legal_actions(seat):
            d.apply(seat, Action("declare_runs"))
        bella = d.bella_seat is None and d.completes_bella(seat, x)
        d.apply(seat, Action.play(name(x), bella=bella and not opts.get("auto_bella")))
    assert d.is_over
    assert d.summary()["hand_score"] == result


@settings(max_examples=40, deadline=None)
@given(seed=seeds, opts=options)
def test_playout_card_points_always_162(seed: int, opts: dict[str, Any]) -> None:
    d = new_deal(seed, opts)
    score = _playout(d, random.Random(seed), None)
    if d.hand_void:
        assert score == [0, 0]
        return
    assert max(score) > 0 and min(score) >= 0
    assert sum(score) <= 162 + 100 + 20


def test_copy_is_independent() -> None:
    d = new_deal(5, {})
    d.apply(d.to_act[0], d.legal_actions(d.to_act[0])[1])  # a call
    c = d.copy()
    before = snapshot(d)
    rng = random.Random(1)
    while not c.is_over:
        c.apply(*choose(c, rng))
    assert snapshot(d) == before
