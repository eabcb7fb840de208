"""Truf: properties over random deals and games of every table shape (hypothesis)."""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from games.actions import Action
from games.base import HIDDEN, Event
from games.cards import NATURAL, SUITS, card, name
from games.errors import IllegalAction
from games.records import replay
from games.trick import trick_winner
from games.truf import TrufDeal, TrufMatch, deal_points, misdeal_of, random_playout

CARD_TOKEN = re.compile(r"(?<![A-Za-z0-9])[2-9TJQKA][SHDC](?![A-Za-z0-9])")
NATURAL_STRENGTH = [c % 13 for c in range(52)]

Table = tuple[int, dict[str, Any], int, int]


@st.composite
def tables(draw: st.DrawFn, multi: bool | None = None) -> Table:
    """Player count, options, first dealer and seed of a random table."""
    players = draw(st.sampled_from((3, 4)))
    options: dict[str, Any] = {}
    if draw(st.booleans()):
        options["scoring"] = draw(st.sampled_from(("difference", "zero_bid_bonus", "exact")))
    if draw(st.booleans()):
        options["adjust_amounts"] = draw(st.sampled_from(([1], [1, 2, 3], [13])))
    if draw(st.booleans()):
        options["dealer_tie_direction"] = "next_deal"
    if players == 3 and draw(st.booleans()):
        options["removed_suit"] = "S"
    use_multi = draw(st.integers(0, 3)) == 0 if multi is None else multi
    if use_multi:
        options["multi_card_bids"] = True
    dealer = draw(st.integers(0, players - 1))
    return players, options, dealer, draw(st.integers(0, 10**6))


def new_deal(table: Table, deals: int | None = None) -> tuple[TrufMatch, TrufDeal]:
    players, options, dealer, seed = table
    if deals is not None:
        options = {**options, "deals": deals}
    match = TrufMatch(options, players, dealer, seed=seed)
    deal = match.start_deal()
    assert isinstance(deal, TrufDeal)
    return match, deal


def tokens(obj: Any) -> set[str]:
    """Every card name written anywhere in a JSON-able object (texts included)."""
    return set(CARD_TOKEN.findall(json.dumps(obj)))


def forbidden(deal: TrufDeal, viewer: int | None) -> set[str]:
    """Cards ``viewer`` may not see: other seats' cards (except revealed bid cards, which
    go back to the hands) and other seats' face-down trumps in the trick in progress."""
    revealed = ({name(c) for b in deal.bids if b for c in b}
                if deal.bid_values is not None else set())
    out: set[str] = set()
    for s in range(deal.players):
        if s != viewer:
            out |= {name(c) for lst in deal.hands[s] for c in lst} - revealed
    out |= {name(c) for p, c in deal.trick
            if p != viewer and c // 13 == deal.trump} - revealed
    return out


def check_secrecy(deal: TrufDeal, events: list[Event]) -> None:
    """No view or event shows ``viewer`` a card it may not see; face-down trumps of others
    in the trick in progress (even a publicly known bid card) show as HIDDEN."""
    for viewer in [*range(deal.players), None]:
        hidden = forbidden(deal, viewer)
        view = deal.view(viewer)
        assert not tokens(view) & hidden, viewer
        for (p, c), (vp, shown) in zip(deal.trick, view["trick"]["cards"], strict=True):
            assert vp == p
            assert shown == (HIDDEN if c // 13 == deal.trump and p != viewer else name(c))
        seen = [e for e in events if e.visible_to(viewer)]
        assert not tokens([e.to_json() for e in seen]) & hidden, viewer
        for e in seen:
            if e.type == "play" and e.data["seat"] != viewer and deal.trump >= 0:
                is_trump = e.data["card"] != HIDDEN and card(e.data["card"]) // 13 == deal.trump
                assert not is_trump, (viewer, e)


def same_bid(a: Action, b: Action) -> bool:
    """Whether two bid actions name the same cards (``card`` or ``cards``, any order)."""
    def cards(x: Action) -> frozenset[str]:
        return frozenset((x.card,) if x.card else (x.cards or ()))
    return a.type == b.type == "bid" and cards(a) == cards(b)


def candidates(deal: TrufDeal, seat: int, rng: random.Random) -> list[tuple[int, Action]]:
    """Actions to try that may or may not be legal: every card of the pack played or bid by
    the seat to act and by others, adjustments, and actions of other types."""
    n = deal.players
    pack = [r + s for s in SUITS for r in NATURAL]
    out: list[tuple[int, Action]] = []
    for _ in range(3):
        who = rng.randrange(n) if rng.random() < 0.3 else seat
        kind = rng.random()
        if kind < 0.4:
            out.append((who, Action.play(rng.choice(pack))))
        elif kind < 0.7:
            out.append((who, Action.bid(rng.choice(pack))))
        elif kind < 0.8:
            size = rng.choice((2, 3, 4))
            out.append((who, Action.bid_cards(tuple(rng.sample(pack, size)))))
        elif kind < 0.9:
            out.append((who, Action.adjust(rng.choice(("up", "down")), rng.randint(0, 14))))
        else:
            out.append((who, rng.choice([Action.pass_(), Action.call_trump("S"),
                                         Action("declare_runs"), Action.kort(True)])))
    return out


def is_legal(legal: list[Action], action: Action) -> bool:
    return any(a == action or same_bid(a, action) for a in legal)


def state(deal: TrufDeal) -> str:
    """The deal's whole internal state (every view derives from it), summary, public view."""
    inner = sorted((k, v) for k, v in vars(deal).items() if k not in ("history", "options"))
    return (repr(inner) + str(deal.version)
            + json.dumps([deal.summary(), deal.view(None)]))


@settings(max_examples=40, deadline=None)
@given(tables())
def test_random_deal_is_the_pack_once_with_13_each_and_never_a_misdeal(table: Table) -> None:
    players, options, _, _ = table
    match, deal = new_deal(table)
    removed = options.get("removed_suit", "C") if players == 3 else ""
    pack = sorted(r + s for s in SUITS if s != removed for r in NATURAL)
    for rec in [*match.deal_records, deal.record()]:
        hands = rec["hands"]
        assert [len(h) for h in hands] == [13] * players
        assert sorted(c for h in hands for c in h) == pack
    assert not deal.misdeal
    assert all(misdeal_of([[card(c) for c in h] for h in rec["hands"]])
               for rec in match.deal_records)  # only void deals come before it


@settings(max_examples=30, deadline=None)
@given(tables(), st.integers(0, 10**6))
def test_random_play_legal_actions_accepted_others_rejected_nothing_leaks(
        table: Table, seed: int) -> None:
    rng = random.Random(seed)
    match, deal = new_deal(table)
    n = deal.players
    while not deal.is_over:
        to_act = deal.to_act
        assert to_act
        legal_of = {s: deal.legal_actions(s) for s in range(n)}
        assert [s for s in range(n) if legal_of[s]] == list(to_act)
        seat = rng.choice(to_act)
        legal = legal_of[seat]
        for action in rng.sample(legal, min(3, len(legal))):
            deal.copy().apply(seat, action)  # accepted (on an independent copy)
        before = state(deal)
        for who, action in candidates(deal, seat, rng):
            if is_legal(legal_of[who], action):
                continue
            try:
                deal.apply(who, action)
            except IllegalAction as exc:
                assert exc.reason
            else:
                raise AssertionError(f"seat {who} {action} was accepted")
            assert state(deal) == before
        events = deal.apply(seat, rng.choice(legal))
        check_secrecy(deal, events)
    s = deal.summary()
    assert sum(s["tricks_by_seat"]) == 13 and len(s["tricks"]) == 13
    played = Counter(c for t in s["tricks"] for _, c in t["cards"])
    assert sorted(played) == sorted(c for h in deal.dealt_hands() for c in h)
    assert set(played.values()) == {1}
    trump = SUITS.index(s["trump"]) if s["trump"] else -1
    for t in s["tricks"]:
        plays = [(p, card(c)) for p, c in t["cards"]]
        assert t["winner"] == trick_winner(plays, trump, NATURAL_STRENGTH)
        assert [p for p, _ in plays] == [(t["leader"] + deal.direction * i) % n
                                         for i in range(n)]
    assert s["points"] == deal_points(s["final_bids"], s["tricks_by_seat"], s["mode"],
                                      match.options.scoring)
    assert s["bid_total"] == sum(s["bids"])
    assert deal.view(0)["hand_sizes"] == [0] * n


@settings(max_examples=30, deadline=None)
@given(tables(), st.integers(0, 10**6))
def test_export_replays_to_identical_summaries(table: Table, seed: int) -> None:
    rng = random.Random(seed)
    players, options, dealer, table_seed = table
    match = TrufMatch({**options, "deals": 3}, players, dealer, seed=table_seed)
    while not match.over:
        if rng.random() < 0.3:  # a score-only deal taken from a random playout
            other = TrufMatch(options, players, 0, seed=rng.randrange(10**6)).start_deal()
            assert isinstance(other, TrufDeal)
            random_playout(other, rng)
            given_summary: dict[str, Any] = {"bids": other.bid_values,
                                             "tricks_by_seat": other.tricks_by_seat}
            if other.adjust:
                given_summary["adjust"] = {"direction": other.adjust[0],
                                           "amount": other.adjust[1]}
            match.score_only(given_summary)
            continue
        deal = match.start_deal()
        while not deal.is_over:
            seat = rng.choice(deal.to_act)
            deal.apply(seat, rng.choice(deal.legal_actions(seat)))
        match.finish_deal()
    out, status = replay(json.loads(json.dumps(match.record())))
    assert status == 0, out
    assert out["deals"] == match.deal_summaries
    assert out["match"] == match.summary()
    expected = [sum((d.get("points") or [0] * players)[i] for d in match.deal_summaries)
                for i in range(players)]  # void deals have no points
    assert out["match"]["totals"] == expected


@settings(max_examples=40, deadline=None)
@given(tables(), st.integers(0, 10**6), st.integers(0, 60))
def test_fast_playout_agrees_with_the_readable_api(table: Table, seed: int,
                                                   steps: int) -> None:
    rng = random.Random(seed)
    _, deal = new_deal(table)
    for _ in range(steps):  # start from any state reached through the readable API
        if deal.is_over:
            break
        seat = rng.choice(deal.to_act)
        deal.apply(seat, rng.choice(deal.legal_actions(seat)))
    readable = deal.copy()
    log: list[tuple[int, Action]] = []
    points = random_playout(deal, random.Random(seed), log)
    for seat, action in log:
        assert is_legal(readable.legal_actions(seat), action)
        readable.apply(seat, action)
    assert readable.is_over
    s = readable.summary()
    assert points == s["points"]
    assert deal.tricks_by_seat == s["tricks_by_seat"]
    assert (deal.bid_values, deal.final_bids, deal.mode) == (s["bids"], s["final_bids"],
                                                             s["mode"])


@settings(max_examples=20, deadline=None)
@given(tables(multi=True))
def test_multi_card_legal_bids_are_all_accepted(table: Table) -> None:
    _, deal = new_deal(table)
    for seat in range(deal.players):
        for action in deal.legal_actions(seat)[::7]:
            assert action.cards
            copy = deal.copy()
            copy.apply(seat, Action.bid_cards(tuple(reversed(action.cards))))
            assert copy.to_act == tuple(s for s in range(deal.players) if s != seat)
