"""The table picture, checked on its pixels: seats, trick cards (hidden ones face down),
trump, dealer, seats to act and the score line."""

from __future__ import annotations

import io
import random
from itertools import combinations
from typing import Any

import pytest
from PIL import Image

from bot.render import CARD, layout_table, render_hand, render_table
from bot.render.hand import MAX_WIDTH
from bot.render.table import HEIGHT, TRUMP_RADIUS, WIDTH, TableLayout
from bot.render.theme import (
    BACK_COLOUR,
    BACK_PATTERN,
    BLACK,
    FELT,
    GOLD,
    PLATE_EDGE,
    RED,
    TEXT,
    fit_text,
    font,
)
from games.albastini import AlbastiniMatch
from games.base import HIDDEN, Deal
from games.registry import GAMES
from games.truf import TrufMatch

WHITE = (255, 255, 255)
NAMES = ["Amina", "Budi", "Citra", "Dewi", "Eshe", "Faraji"]


def decode(png: bytes) -> Image.Image:
    im = Image.open(io.BytesIO(png))
    assert im.format == "PNG" and im.size == (WIDTH, HEIGHT)
    return im.convert("RGB")


def decode_hand(png: bytes) -> Image.Image:
    im = Image.open(io.BytesIO(png))
    assert im.format == "PNG"
    return im


def near(p: tuple[int, ...], c: tuple[int, int, int], tol: int = 40) -> bool:
    return sum(abs(a - b) for a, b in zip(p[:3], c, strict=True)) <= tol


Colours = list[tuple[int, tuple[int, int, int]]]


def region(im: Image.Image, box: tuple[int, int, int, int]) -> Colours:
    """How many pixels of each colour ``box`` holds."""
    part = im.crop(box)
    return part.getcolors(part.width * part.height) or []


def share(colours: Colours, *targets: tuple[int, int, int]) -> float:
    """The fraction of the pixels that are near one of ``targets``."""
    total = sum(n for n, _ in colours)
    return sum(n for n, c in colours if any(near(c, t) for t in targets)) / total


def face_up(im: Image.Image, layout: TableLayout, seat: int) -> bool:
    """A white face at the seat's card place (its left margin at mid-height)."""
    x0, y0, x1, y1 = layout.cards[seat]
    return im.getpixel((x0 + (x1 - x0) * 15 // 100, (y0 + y1) // 2)) == WHITE


def face_down(im: Image.Image, layout: TableLayout, seat: int) -> bool:
    """The back's blue lattice fills the inside of the seat's card place (below the top
    third, where the first card of a trick carries its ``led`` tag)."""
    x0, y0, x1, y1 = layout.cards[seat]
    inner = region(im, (x0 + 8, y0 + (y1 - y0) // 3, x1 - 8, y1 - 8))
    return share(inner, BACK_COLOUR, BACK_PATTERN) > 0.95


def view(players: int = 4, **changes: Any) -> dict[str, Any]:
    """A hand-made public view with the common keys."""
    v: dict[str, Any] = {
        "game": "turup", "seat": None, "players": players, "dealer": 0, "phase": "play",
        "trump": "H", "to_act": [1], "hand_sizes": [9] * players,
        "teams": [[0, 2], [1, 3]] if players == 4 else [[s] for s in range(players)],
        "trick": {"leader": 0, "cards": [[0, "AS"]]}, "facts": [],
    }
    v.update(changes)
    return v


def played_until(deal: Deal, done: Any, seed: int) -> Deal:
    rng = random.Random(seed)
    while not done(deal):
        assert not deal.is_over
        seat = deal.to_act[0]
        deal.apply(seat, rng.choice(deal.legal_actions(seat)))
    return deal


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_layout_keeps_plates_cards_and_trump_apart_inside_the_picture(players: int) -> None:
    for bottom in range(players):
        layout = layout_table(players, bottom)
        cx, cy = layout.trump
        trump = (cx - TRUMP_RADIUS, cy - TRUMP_RADIUS, cx + TRUMP_RADIUS, cy + TRUMP_RADIUS)
        boxes = [*layout.plates, *layout.cards, trump]
        for a, b in combinations(boxes, 2):
            assert a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1], (a, b)
        for x0, y0, x1, y1 in boxes:
            assert 0 <= x0 < x1 <= WIDTH and 0 <= y0 < y1 <= HEIGHT
        # the bottom seat's plate is the lowest one
        assert layout.plates[bottom][1] == max(p[1] for p in layout.plates)
    assert layout_table(players).size == ("large" if players <= 4 else "small")


def test_each_seat_shows_its_trick_card_and_empty_places_show_the_felt():
    v = view(trick={"leader": 3, "cards": [[3, "KD"], [0, "TS"]]})
    im = decode(render_table(v, NAMES[:4], "A 0 – B 0"))
    layout = layout_table(4)
    for seat in (3, 0):
        assert face_up(im, layout, seat)
    for seat in (1, 2):
        x0, y0, x1, y1 = layout.cards[seat]
        assert share(region(im, (x0, y0, x1, y1)), FELT) > 0.95
    # the diamond is red, the spade black
    def reds(seat: int) -> float:
        return share(region(im, layout.cards[seat]), RED)
    assert reds(3) > 0.05 and reds(0) == 0


def test_a_hidden_truf_trump_is_face_down_for_others_and_face_up_for_its_owner():
    deal = played_until(
        TrufMatch(None, 4, 0, seed=0).start_deal(),
        lambda d: any(c == HIDDEN for _, c in d.view(None)["trick"]["cards"]), seed=0)
    public = deal.view(None)
    seat, _ = next((s, c) for s, c in public["trick"]["cards"] if c == HIDDEN)
    im = decode(render_table(public, NAMES[:4], ""))
    layout = layout_table(4)
    assert face_down(im, layout, seat) and not face_up(im, layout, seat)
    # another seat's own view still hides it; the owner's view (owner at the bottom) shows it
    other = (seat + 1) % 4
    im_other = decode(render_table(deal.view(other), NAMES[:4], ""))
    assert face_down(im_other, layout_table(4, other), seat)
    im_own = decode(render_table(deal.view(seat), NAMES[:4], ""))
    own_layout = layout_table(4, seat)
    assert face_up(im_own, own_layout, seat) and not face_down(im_own, own_layout, seat)
    assert own_layout.cards[seat][1] == max(box[1] for box in own_layout.cards)


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_an_albastini_table_from_the_engine_draws_every_played_card(players: int) -> None:
    deal = played_until(AlbastiniMatch(None, players, 0, seed=players).start_deal(),
                        lambda d: len(d.view(None)["trick"]["cards"]) == players - 1,
                        seed=players)
    v = deal.view(None)
    im = decode(render_table(v, NAMES[:players], "score"))
    layout = layout_table(players)
    played = {s for s, _ in v["trick"]["cards"]}
    for s in range(players):
        assert face_up(im, layout, s) == (s in played), s


def test_the_first_card_of_an_unfinished_trick_is_tagged_led():
    layout = layout_table(4)

    def tagged(im: Image.Image, seat: int) -> bool:
        _, y0, x1, _ = layout.cards[seat]
        return share(region(im, (x1 - 30, y0 + 5, x1 - 6, y0 + 24)), WHITE) < 0.8

    one = decode(render_table(view(trick={"leader": 1, "cards": [[1, "9C"]]}), NAMES[:4], ""))
    assert not tagged(one, 1)
    cards = [[1, "9C"], [2, "9D"], [3, "9S"]]
    three = decode(render_table(view(trick={"leader": 1, "cards": cards}), NAMES[:4], ""))
    assert tagged(three, 1) and not tagged(three, 2) and not tagged(three, 3)


def test_seats_to_act_have_a_gold_plate_and_the_dealer_a_button():
    v = view(to_act=[2], dealer=3)
    im = decode(render_table(v, NAMES[:4], ""))
    layout = layout_table(4)
    for s in range(4):
        x0, y0, x1, _ = layout.plates[s]
        border = region(im, (x0 + 12, y0, x1 - 12, y0 + 2))
        assert (share(border, GOLD) > 0.9) == (s == 2), s
        if s != 2:
            assert share(border, PLATE_EDGE) > 0.3
        button = region(im, (x1 - 20, y0 + 9, x1 - 8, y0 + 21))
        assert (share(button, WHITE) > 0.3) == (s == 3), s


def test_the_trump_disc_shows_the_suit_in_its_colour_or_a_dash():
    layout = layout_table(4)
    cx, cy = layout.trump
    disc = (cx - 16, cy - 20, cx + 16, cy + 12)
    for trump, red, black in (("H", True, False), ("D", True, False), ("S", False, True),
                              ("C", False, True), (None, False, False)):
        im = decode(render_table(view(trump=trump, trick={"leader": 0, "cards": []}),
                                 NAMES[:4], ""))
        pixels = region(im, disc)
        assert (share(pixels, RED) > 0.1) == red, trump
        assert (share(pixels, BLACK) > 0.1) == black, trump


def test_names_and_score_line_are_written():
    layout = layout_table(4)
    blank = decode(render_table(view(), ["", "", "", ""], ""))
    named = decode(render_table(view(), NAMES[:4], "Sides A 3 – B 5"))
    band = (0, HEIGHT - 30, WIDTH, HEIGHT - 6)
    assert share(region(blank, band), TEXT) == 0
    assert share(region(named, band), TEXT) > 0.01
    # seat 0 is named "seat 0" when no name is given: the ink differs from "Amina"
    x0, y0, x1, _ = layout.plates[0]
    name_box = (x0 + 8, y0 + 6, x1 - 30, y0 + 24)
    assert blank.crop(name_box).tobytes() != named.crop(name_box).tobytes()


def test_a_long_name_is_shortened_with_an_ellipsis_to_fit_the_plate():
    text = fit_text("Budi Santoso the Magnificent of Yogyakarta", 15, 120)
    assert text.endswith("…") and font(15).getlength(text) <= 120
    assert fit_text("Budi", 15, 120) == "Budi"


def test_pictures_are_small_pngs_cached_by_what_they_show():
    v = view(players=6, trick={"leader": 1, "cards": [[1, "AS"], [2, "??"], [3, "7H"]]})
    png = render_table(v, NAMES, "score")
    assert len(png) <= 200_000
    assert render_table(dict(v), list(NAMES), "score") is png
    # keys the picture does not show do not make a new picture; the trick does
    assert render_table({**v, "facts": [["x", "y"]]}, NAMES, "score") is png
    assert render_table({**v, "trick": {"leader": 1, "cards": []}}, NAMES, "score") != png
    assert render_table(v, NAMES, "other score") != png


@pytest.mark.parametrize("players", [1, 7])
def test_a_table_needs_two_to_six_seats(players: int) -> None:
    with pytest.raises(ValueError, match="2 to 6"):
        render_table(view(players=players), NAMES, "")


def test_small_cards_for_five_and_six_seats():
    layout = layout_table(6)
    x0, y0, x1, y1 = layout.cards[0]
    assert (x1 - x0, y1 - y0) == (CARD["small"].width, CARD["small"].height)


def test_a_trump_that_is_not_a_suit_letter_is_written_not_drawn():
    layout = layout_table(4)
    cx, cy = layout.trump
    im = decode(render_table(view(trump="SH", trick={"leader": 0, "cards": []}), NAMES, ""))
    pixels = region(im, (cx - 16, cy - 20, cx + 16, cy + 12))
    assert share(pixels, RED) == 0 and share(pixels, BLACK) > 0.02


@pytest.mark.parametrize(("game", "players"), [
    (name, n) for name, info in GAMES.items() for n in info.player_counts])
def test_every_game_every_seat_sees_exactly_what_its_view_shows(game: str,
                                                                 players: int) -> None:
    """Across real positions of every game: each trick card the viewer's view shows is
    drawn face up, each hidden one face down, each empty place is felt; the viewer's
    own hand renders with its legal cards lit."""
    rng = random.Random(7)
    checked = 0
    for seed in range(20):
        deal = GAMES[game].match_type(None, players, 0, seed=seed).start_deal()
        checked += check_positions(deal, players, rng, 3 - checked)
        if checked == 3:
            break
    assert checked == 3


def check_positions(deal: Deal, players: int, rng: random.Random, wanted: int) -> int:
    checked = 0
    while not deal.is_over and checked < wanted:
        seat = deal.to_act[0]
        v = deal.view(seat)
        if v["trick"]["cards"] and rng.random() < 0.3:
            checked += 1
            for viewer in (None, seat, (seat + 1) % players):
                vv = deal.view(viewer)
                layout = layout_table(players, viewer or 0)
                im = decode(render_table(vv, NAMES, ""))
                shown = {s: c for s, c in vv["trick"]["cards"]}
                for s in range(players):
                    c = shown.get(s)
                    assert face_up(im, layout, s) == (c is not None and c != HIDDEN)
                    assert face_down(im, layout, s) == (c == HIDDEN)
            legal = {a.card for a in deal.legal_actions(seat) if a.card}
            hand = decode_hand(render_hand(v["hand"], legal, True))
            assert hand.width <= MAX_WIDTH
        deal.apply(seat, rng.choice(deal.legal_actions(seat)))
    return checked
