"""Hypothesis: for any deal of any game and player count, played with random legal
actions, the result, every public event line and the review read as words (names, symbols,
no engine notation), and the review tells every trick of the deal."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from words_check import NAMES, SHORT, assert_clean

from bot.words.events import event_line
from bot.words.results import deal_result
from bot.words.review import review_pages
from bot.words.seating import Seating
from games.registry import GAMES

CASES = [(g, n) for g, info in GAMES.items() for n in info.player_counts]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=st.sampled_from(CASES), seed=st.integers(0, 10**6),
       deals=st.integers(1, 2))
def test_any_deal_reads_as_words(case: tuple[str, int], seed: int, deals: int) -> None:
    game, players = case
    rng = random.Random(seed)
    match = GAMES[game].match_type(SHORT[game], players, seed % players, seed=seed)
    seating = Seating.of(game, NAMES[:players], match.options.to_json())
    texts: list[str] = []
    tricks = 0
    for number in range(deals):
        if match.over:
            break
        deal = match.start_deal()
        while not deal.is_over:
            seat = deal.to_act[0]
            for event in deal.apply(seat, rng.choice(deal.legal_actions(seat))):
                if event.visible_to(None):
                    line = event_line(seating, event.type, event.data)
                    texts += [line] if line else []
        summary = match.finish_deal()
        tricks += len(summary.get("tricks") or [])
        texts += deal_result(seating, summary, number=number, match=match.summary()).lines
    pages = review_pages(match.record(), seating)
    told = [x for p in pages for x in p.lines if x.startswith("Trick ")]
    assert len(told) == tricks
    texts += [p.render() for p in pages]
    assert_clean(texts)
