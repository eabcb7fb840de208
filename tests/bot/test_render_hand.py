"""The hand picture, checked on its pixels: where faces are, how many, lit or dimmed."""

from __future__ import annotations

import io
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from bot.render import CARD, layout_hand, render_hand
from bot.render.hand import LIFT, MAX_WIDTH, HandLayout, Placement
from bot.render.theme import BACK_COLOUR, BACK_PATTERN, BACKGROUND, BADGE, GOLD, dimmed
from games.arbaa_turub import ArbaaTurubMatch
from games.cards import DISPLAY_SUIT_ORDER, RANKS_36, SUITS, card, deck, names, sort_for_display
from games.turup import TurupMatch

WHITE = (255, 255, 255)


def decode(png: bytes) -> Image.Image:
    im = Image.open(io.BytesIO(png))
    assert im.format == "PNG"
    return im.convert("RGB")


def near(p: tuple[int, ...], c: tuple[int, int, int], tol: int = 24) -> bool:
    return sum(abs(a - b) for a, b in zip(p[:3], c, strict=True)) <= tol


def probe(layout: HandLayout, p: Placement) -> tuple[int, int]:
    """A point of plain face: left margin at mid-height (no index, symbol or tag there)."""
    m = CARD[layout.size]
    return p.x + int(m.width * 0.15), p.y + m.height // 2


def faces_on_row(im: Image.Image, y: int, x0: int = 0) -> int:
    """Count the card faces a horizontal line crosses just below the cards' top edge: each
    face starts with a run of white after its (grey) left edge."""
    count, before = 0, False
    for x in range(x0, im.width):
        white = min(im.getpixel((x, y))) >= 245
        count += white and not before
        before = white
    return count


def at_hand(seed: int) -> tuple[list[str], set[str]]:
    """An Arba'a Turub hand of 36 cards in play, with its legal cards (following a lead)."""
    rng = random.Random(seed)
    d = ArbaaTurubMatch(None, 4, 0, seed=seed).start_deal()
    while not (d.view(None)["phase"] == "play" and d.view(None)["trick"]["cards"]):
        seat = d.to_act[0]
        d.apply(seat, rng.choice(d.legal_actions(seat)))
    seat = d.to_act[0]
    hand = d.view(seat)["hand"]
    return hand, {a.card for a in d.legal_actions(seat) if a.card}


def test_a_36_card_arbaa_turub_hand_fits_a_phone_with_a_face_per_distinct_card():
    hand, legal = at_hand(3)
    assert len(hand) == 36
    for group in (True, False):
        png = render_hand(hand, legal, group)
        assert len(png) <= 200_000
        im = decode(png)
        layout = layout_hand(hand, frozenset(legal), group)
        assert im.size == (layout.width, layout.height) and im.width <= MAX_WIDTH
        assert sum(p.count for p in layout.placements) == 36
        if group:
            assert len(layout.placements) == len(set(hand))
        for p in layout.placements:
            colour = im.getpixel(probe(layout, p))
            assert colour == WHITE if p.card in legal else near(colour, dimmed(WHITE)), p


def test_rows_follow_the_suits_in_hand_order():
    hand = names(sort_for_display(deck(RANKS_36)))
    layout = layout_hand(hand, None, True)
    rows: dict[int, list[Placement]] = {}
    for p in layout.placements:
        rows.setdefault(p.y, []).append(p)
    order = [SUITS[s] for s in DISPLAY_SUIT_ORDER]
    assert [row[0].card[1] for _, row in sorted(rows.items())] == order
    for row in rows.values():
        assert len({p.card[1] for p in row}) == 1
        assert [p.x for p in row] == sorted(p.x for p in row)
        assert [p.card[0] for p in row] == list(RANKS_36)


def test_the_image_shows_exactly_one_face_per_placement_row_by_row():
    hand, _ = at_hand(5)
    for group in (True, False):
        layout = layout_hand(hand, None, group)
        im = decode(render_hand(hand, None, group))
        rows: dict[int, int] = {}
        for p in layout.placements:
            rows[p.y] = rows.get(p.y, 0) + 1
        for y, n in rows.items():
            assert faces_on_row(im, y + 2) == n, (group, y)


def test_identical_cards_are_drawn_once_with_their_count():
    hand = ["AS"] * 4 + ["KS"] * 3 + ["QS"] * 2 + ["JS"] + ["AH"] * 2
    layout = layout_hand(hand, None, True)
    counts = {p.card: p.count for p in layout.placements}
    assert counts == {"AS": 4, "KS": 3, "QS": 2, "JS": 1, "AH": 2}
    im = decode(render_hand(hand, None, True))
    m = CARD[layout.size]
    for p in layout.placements:
        tag = [im.getpixel((x, p.y + m.height - m.margin - 3))
               for x in range(p.x + m.margin, p.x + m.width // 2)]
        assert any(near(c, BADGE) for c in tag) == (p.count > 1), p
    ungrouped = layout_hand(hand, None, False)
    assert len(ungrouped.placements) == len(hand)
    assert all(p.count == 1 for p in ungrouped.placements)


def test_legal_cards_are_raised_and_outlined_in_gold_the_others_dimmed():
    hand = ["AS", "TS", "9S", "KH", "7H", "QC", "8D"]
    legal = {"TS", "KH"}
    layout = layout_hand(hand, frozenset(legal), False)
    im = decode(render_hand(hand, legal, False))
    lift = LIFT[layout.size]
    by_card = {p.card: p for p in layout.placements}
    assert by_card["AS"].y == by_card["TS"].y + lift
    assert by_card["7H"].y == by_card["KH"].y + lift
    for p in layout.placements:
        x, y = probe(layout, p)
        edge = im.getpixel((p.x - 2, y))
        if p.card in legal:
            assert im.getpixel((x, y)) == WHITE and near(edge, GOLD, 60)
        else:
            assert near(im.getpixel((x, y)), dimmed(WHITE)) and not near(edge, GOLD, 60)


def test_without_a_legal_set_nothing_is_lit_or_dimmed_and_no_gold_is_drawn():
    hand = ["AS", "TS", "KH", "QC", "8D"]
    layout = layout_hand(hand, None, False)
    im = decode(render_hand(hand))
    for p in layout.placements:
        assert p.look == "plain" and im.getpixel(probe(layout, p)) == WHITE
    colours = {c for _, c in im.getcolors(1 << 16) or []}
    assert not any(near(c, GOLD, 30) for c in colours)


def test_an_empty_legal_set_dims_every_card():
    hand = ["AS", "TS", "KH"]
    layout = layout_hand(hand, frozenset(), False)
    im = decode(render_hand(hand, set(), False))
    assert all(near(im.getpixel(probe(layout, p)), dimmed(WHITE)) for p in layout.placements)


def test_a_long_suit_overlaps_then_splits_into_rows_and_never_exceeds_the_width():
    one_suit = [r + "S" for r in RANKS_36] * 4  # 36 spades: Arba'a Turub's worst case
    layout = layout_hand(one_suit, None, False)
    assert layout.width <= MAX_WIDTH
    assert len({p.y for p in layout.placements}) >= 2
    im = decode(render_hand(one_suit, None, False))
    assert im.width <= MAX_WIDTH
    for y in {p.y for p in layout.placements}:
        assert faces_on_row(im, y + 2) == sum(1 for p in layout.placements if p.y == y)


def test_a_nine_card_hand_is_large_cards_in_suit_rows():
    dealt = TurupMatch(None, 4, 0, seed=2).start_deal().dealt_hands()[0]
    hand = names(sort_for_display(card(c) for c in dealt))
    layout = layout_hand(hand, None, False)
    assert layout.size == "large" and len(layout.placements) == 9
    assert len({p.y for p in layout.placements}) == len({c[1] for c in hand})


def test_hidden_cards_in_a_hand_are_drawn_as_backs():
    layout = layout_hand(["??", "??"], None, False)
    im = decode(render_hand(["??", "??"], None, False))
    m = CARD[layout.size]
    for p in layout.placements:
        c = im.getpixel((p.x + m.width // 2, p.y + m.height // 2))
        assert near(c, BACK_COLOUR, 60) or near(c, BACK_PATTERN, 60)


def test_an_empty_hand_is_a_small_picture_and_bad_cards_are_refused():
    im = decode(render_hand([]))
    assert im.width < 200 and im.getpixel((1, 1)) == BACKGROUND
    with pytest.raises(ValueError):
        render_hand(["AS", "ZZ"])


def test_pictures_are_cached_by_their_exact_inputs():
    hand = ["AS", "KS", "AH"]
    a = render_hand(hand, {"AS"}, True)
    assert render_hand(list(hand), {"AS"}, True) is a
    assert render_hand(hand, {"KS"}, True) != a
    assert render_hand(hand, None, True) != a


@settings(max_examples=40, deadline=None)
@given(st.lists(st.sampled_from(names(deck(RANKS_36))), max_size=36),
       st.sets(st.sampled_from(names(deck(RANKS_36)))), st.booleans())
def test_every_hand_fits_and_every_card_is_somewhere(hand: list[str], legal: set[str],
                                                    group: bool) -> None:
    layout = layout_hand(hand, frozenset(legal), group)
    assert layout.width <= MAX_WIDTH
    assert sum(p.count for p in layout.placements) == len(hand)
    m = CARD[layout.size]
    for p in layout.placements:
        assert p.x >= 0 and p.x + m.width <= layout.width
        assert p.y >= 0 and p.y + m.height <= layout.height
        assert (p.look == "lit") == (p.card in legal)
