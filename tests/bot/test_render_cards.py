"""Card faces and backs: every card of every deck at both sizes, drawn from shipped shapes."""

from __future__ import annotations

import pytest
from PIL import Image, ImageChops

from bot.render import CARD, rank_label, render_card, warm_up
from bot.render.cards import card_image
from bot.render.suits import suit_mask
from bot.render.theme import BACK_COLOUR, BACK_PATTERN, FONT_PATH, RED
from games.cards import NATURAL, RANKS_36, RANKS_ALBASTINI, SUITS, deck, names

DECKS = {
    "36-card": sorted(set(names(deck(RANKS_36)))),
    "Albastini": sorted(set(names(deck(RANKS_ALBASTINI)))),
    "52-card": sorted(set(names(deck(NATURAL)))),
    "Arba'a Turub (distinct cards of 144)": sorted(set(names(deck(RANKS_36, copies=4)))),
}


def pixels(im: Image.Image) -> list:
    """Every pixel of ``im`` (Pillow 13 renamed ``getdata``)."""
    flat = getattr(im, "get_flattened_data", None)
    return list(flat() if flat is not None else im.getdata())


def near(p: tuple[int, ...], c: tuple[int, int, int], tol: int = 40) -> bool:
    return sum(abs(a - b) for a, b in zip(p[:3], c, strict=True)) <= tol


def is_red(p: tuple[int, ...]) -> bool:
    return p[0] > 150 and p[1] < 110 and p[2] < 110 and p[3] > 0


def ink_box(im: Image.Image, box: tuple[int, int, int, int]) -> tuple[int, int, int, int] | None:
    """Bounding box of the non-white, opaque pixels of ``im`` inside ``box``."""
    region = Image.alpha_composite(Image.new("RGBA", im.size, "white"), im).crop(box)
    region = region.convert("RGB")
    inverted = ImageChops.invert(region).convert("L").point(lambda v: 255 if v > 60 else 0)
    return inverted.getbbox()


def test_the_font_is_shipped_with_the_project_with_its_licence():
    assert FONT_PATH.is_file()
    assert (FONT_PATH.parent / "LICENSE-DejaVu.txt").read_text().count("Bitstream") > 0


@pytest.mark.parametrize("size", ["small", "large"])
@pytest.mark.parametrize("deck_name", list(DECKS))
def test_every_card_of_every_deck_draws_a_clean_face(deck_name: str, size: str) -> None:
    m = CARD[size]  # type: ignore[index]
    seen: set[bytes] = set()
    for text in DECKS[deck_name]:
        im = render_card(text, size)  # type: ignore[arg-type]
        assert im.size == (m.width, m.height) and im.mode == "RGBA"
        # rounded transparent corners, white face inside
        assert im.getpixel((0, 0))[3] == 0
        assert im.getpixel((int(m.width * 0.15), m.height // 2)) == (255, 255, 255, 255)
        # an index in the top-left corner and its copy upside down in the bottom-right
        assert ink_box(im, (2, 2, m.width // 2 - 4, m.height // 3)) is not None
        assert ink_box(im, (m.width // 2 + 4, 2 * m.height // 3, m.width - 2,
                            m.height - 2)) is not None
        reds = sum(1 for p in pixels(im) if is_red(p))
        if SUITS.index(text[1]) in (1, 2):
            assert reds > m.width * m.height // 20, text
        else:
            assert reds == 0, text
        seen.add(im.tobytes())
    assert len(seen) == len(DECKS[deck_name]), "two cards drew the same picture"


def test_ten_is_printed_as_10_two_glyphs_wider_than_a_single_rank():
    assert rank_label("T") == "10" and rank_label("Q") == "Q"
    m = CARD["large"]
    corner = (2, 8, m.width // 2, 18)  # across the rank, below the rounded corner
    ten = ink_box(render_card("TS"), corner)
    nine = ink_box(render_card("9S"), corner)
    assert ten is not None and nine is not None
    assert ten[2] - ten[0] > 1.6 * (nine[2] - nine[0])


@pytest.mark.parametrize("size", ["small", "large"])
def test_the_back_is_the_blue_lattice_and_shows_no_face(size: str) -> None:
    m = CARD[size]  # type: ignore[index]
    back = render_card("??", size)  # type: ignore[arg-type]
    assert back.size == (m.width, m.height)
    inner_im = back.crop((m.margin + 3, m.margin + 3, m.width - m.margin - 3,
                       m.height - m.margin - 3))
    inner = pixels(inner_im)
    blue = sum(1 for p in inner if near(p, BACK_COLOUR) or near(p, BACK_PATTERN))
    assert blue == len(inner)
    assert not any(is_red(p) for p in pixels(back))


def test_suit_symbols_are_distinct_filled_mirror_symmetric_shapes():
    masks = {s: suit_mask(s, 64) for s in SUITS}
    for s, mask in masks.items():
        filled = sum(1 for v in pixels(mask) if v > 127) / (64 * 64)
        assert 0.3 < filled < 0.8, s
        mirror = ImageChops.difference(mask, mask.transpose(Image.Transpose.FLIP_LEFT_RIGHT))
        assert sum(1 for v in pixels(mirror) if v > 127) < 64 * 64 * 0.02, s
    for a in SUITS:
        for b in SUITS:
            if a < b:
                diff = ImageChops.difference(masks[a], masks[b])
                assert sum(1 for v in pixels(diff) if v > 127) > 64 * 64 * 0.05, (a, b)
    # a heart has its point at the bottom, a spade at the top
    heart, spade = masks["H"], masks["S"]
    assert heart.getpixel((32, 55)) > 127 and heart.getpixel((32, 4)) < 128
    assert spade.getpixel((32, 3)) > 127


def test_looks_dim_and_light_the_same_face():
    plain = card_image("AH", "large")
    dim = card_image("AH", "large", "dim")
    lit = card_image("AH", "large", "lit")
    m = CARD["large"]
    probe = (int(m.width * 0.15), m.height // 2)
    assert dim.size == plain.size
    assert max(dim.getpixel(probe)[:3]) < 160
    assert lit.width > plain.width and lit.getpixel((lit.width // 2, 0))[:3] != (255, 255, 255)


def test_render_card_returns_a_private_copy():
    im = render_card("AS")
    im.paste((0, 0, 0, 255), (0, 0, im.width, im.height))
    assert render_card("AS").getpixel((im.width // 2, 5)) != (0, 0, 0, 255)


@pytest.mark.parametrize("bad", ["1S", "AX", "A", "ASX", "", "as"])
def test_a_string_that_is_not_a_card_is_refused(bad: str) -> None:
    with pytest.raises(ValueError):
        render_card(bad)


def test_an_unknown_size_or_look_is_refused():
    with pytest.raises(ValueError, match="size"):
        render_card("AS", "huge")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="look"):
        card_image("AS", "large", "glow")  # type: ignore[arg-type]


def test_warm_up_fills_the_cache_with_every_face():
    warm_up()
    before = card_image.cache_info().hits
    for text in DECKS["52-card"]:
        card_image(text, "small", "dim")
    assert card_image.cache_info().hits - before == len(DECKS["52-card"])
    assert near(render_card("TH").getpixel((CARD["large"].width // 2,
                                            CARD["large"].height // 2)), RED, 60)
