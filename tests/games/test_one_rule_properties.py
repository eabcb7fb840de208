"""Each game has one legality rule for its card play (issue 37): the cards ``apply``
accepts are exactly the cards ``legal_actions`` lists (and the fast core's
``fast_legal``), in every position of random deals of every game; a held card is refused
with the rule's reason, and a card not held with "you do not hold"."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import example, given, settings
from hypothesis import strategies as st

from games.actions import Action
from games.base import Deal
from games.cards import NAMES
from games.errors import IllegalAction
from games.registry import GAMES

NOT_HELD = "you do not hold {card}"

TABLES: list[tuple[str, int | None, dict[str, Any]]] = [
    ("arbaa_turub", None, {}),
    ("arbaa_turub", None, {"signals_enabled": False}),
    ("turup", None, {}),
    ("turup", None, {"kort_declared_before_play": True}),
    ("tarabish", None, {}),
    ("tarabish", None, {"must_head_plain": True, "dealer_may_pass": True}),
    ("tarabish", None, {"partner_exception": True, "auto_bella": True}),
    ("tarabish", None, {"partner_exception": True, "must_head_plain": True,
                        "auto_declare_runs": True}),
    ("truf", 4, {}),
    ("truf", 3, {"multi_card_bids": True}),
    ("albastini", 2, {}),
    ("albastini", 4, {}),
    ("albastini", 5, {}),
]


def held_cards(deal: Deal, seat: int) -> set[str]:
    """The cards ``seat`` holds (from his own view)."""
    return set(deal.view(seat)["hand"])


def accepted_cards(deal: Deal, seat: int) -> set[str]:
    """Every card ``apply`` accepts as a plain play by ``seat`` (tried on copies); each
    refusal is checked to give the right kind of reason."""
    held = held_cards(deal, seat)
    out: set[str] = set()
    for text in NAMES:
        try:
            deal.copy().apply(seat, Action.play(text))
        except IllegalAction as exc:
            assert exc.reason
            assert (exc.template == NOT_HELD) == (text not in held), (text, exc.reason)
        else:
            out.add(text)
    return out


def play_phase(deal: Deal, seat: int) -> bool:
    return any(a.type == "play" for a in deal.legal_actions(seat))


@settings(max_examples=40, deadline=None)
@given(table=st.sampled_from(TABLES), seed=st.integers(0, 10**6))
@example(table=("turup", None, {}), seed=4013)  # found: no play turn was sampled
def test_apply_accepts_exactly_the_cards_legal_actions_lists(
        table: tuple[str, int | None, dict[str, Any]], seed: int) -> None:
    game, players, options = table
    info = GAMES[game]
    dealer = seed % (players or 4)
    deal = info.match_type(options, players, dealer, seed=seed).start_deal()
    rng = random.Random(seed)
    checked = 0
    while not deal.is_over:
        seat = deal.to_act[0]
        legal = [a for a in deal.legal_actions(seat) if a.type != "concede"]
        # the first play turn always, then one in four (a short deal still gets checked)
        if play_phase(deal, seat) and (not checked or rng.random() < 0.25):
            listed = {a.card for a in legal if a.type == "play"}
            assert accepted_cards(deal, seat) == listed
            fast_legal = getattr(deal, "fast_legal", None)
            if fast_legal is not None:
                assert {NAMES[c] for c in fast_legal(seat)} == listed
            checked += 1
        deal.apply(seat, rng.choice(legal))
    assert checked or deal.summary().get("hand_void") or deal.summary().get("redeal")
