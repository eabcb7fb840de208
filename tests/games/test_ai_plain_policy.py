"""The rollout policy of Arba'a Turub and Turup: the fast card of a world is the policy's.

:func:`games.ai.plain.world_card` reads the trick's best card from the deal and computes
``top`` and ``danger`` only when the choice depends on them; it must give exactly the card
:func:`games.ai.plain.pick_card` gives with the whole picture, computed here plainly."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from games.ai import make_player
from games.ai.plain import pick_card, world_card
from games.plain_tricks import ORDERS, PlainTrickDeal
from games.registry import GAMES


def full_sight(d: PlainTrickDeal, seat: int) -> tuple[list[int], list[bool]]:
    """Every suit's ``top`` and ``danger`` from the real hands of the players still to play
    (all three others when leading)."""
    order = ORDERS[d.direction][d.leader] if d.trick else ORDERS[d.direction][seat]
    later = order[len(d.trick) + 1:] if d.trick else order[1:]
    top = [-1, -1, -1, -1]
    danger = [False, False, False, False]
    for o in later:
        h = d.hands[o]
        for s in range(4):
            if h[s]:
                top[s] = max(top[s], h[s][-1])
            elif (o - seat) % 2 and d.trump >= 0 and h[d.trump]:
                danger[s] = True
    return top, danger


@settings(max_examples=40, deadline=None)
@given(game=st.sampled_from(["arbaa_turub", "turup"]),
       seed=st.integers(min_value=0, max_value=10**9))
def test_world_card_is_the_policys_card_with_every_hand_in_view(game: str, seed: int) -> None:
    d = GAMES[game].match_type(None, None, seed % 4, seed=seed).start_deal()
    assert isinstance(d, PlainTrickDeal)
    rules = make_player("rules", seed=seed)
    plays = 0
    while not d.is_over:
        if d.phase != "play":
            seat = d.to_act[0]
            d.apply(seat, rules.choose(d.view(seat), d.legal_actions(seat)))
            continue
        seat = d.turn
        c = world_card(d, d.trump)
        assert c == pick_card(d.hands[seat], d.trump, d.trick, seat, *full_sight(d, seat))
        d.fast_play(c)
        plays += 1
    assert plays > 0
