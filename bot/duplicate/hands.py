"""A board's hands as dealt, ready to show: sorted by suit, each seat named one way.

Every display of a hand record (the reveal's text, the results thread's text and picture,
the web's reveal) takes its hands from :func:`board_hands`: each hand sorted like a hand
panel (suits black and red alternating, highest first in the game's rank order), and each
seat named by its *direction* (1-based, the side it held, as in the traveller) and a
compass-like position (North, East, South, West at four; the points between them at five
and six), never by a 0-based seat number.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.i18n import N_, Translator
from bot.words.text import or_english
from games.cards import DISPLAY_SUIT_ORDER, RANKS, RANKS_ALBASTINI, SUITS

NORTH, NORTH_EAST, EAST, SOUTH_EAST = N_("North"), N_("North-east"), N_("East"), N_("South-east")
SOUTH, SOUTH_WEST, WEST, NORTH_WEST = N_("South"), N_("South-west"), N_("West"), N_("North-west")

COMPASS: dict[int, tuple[str, ...]] = {
    1: (NORTH,),
    2: (NORTH, SOUTH),
    3: (NORTH, SOUTH_EAST, SOUTH_WEST),
    4: (NORTH, EAST, SOUTH, WEST),
    5: (NORTH, NORTH_EAST, SOUTH_EAST, SOUTH_WEST, NORTH_WEST),
    6: (NORTH, NORTH_EAST, SOUTH_EAST, SOUTH, SOUTH_WEST, NORTH_WEST),
}
"""Each seat's compass-like position by the table's player count (seat order round the
table: partners at four are North–South and East–West)."""


def direction_text(direction: int, t: Translator | None = None) -> str:
    """A direction (a side held on the board) by its 1-based number."""
    # Translators: A direction of a duplicate board: which side of the deal an entrant held
    # ("Direction 1"); the same cards are compared only within one direction.
    return or_english(t).gettext("Direction {number}").format(
        number=or_english(t).number(direction + 1))


def compass(seat: int, players: int, t: Translator | None = None) -> str:
    """Seat ``seat``'s position at a table of ``players`` (``North``)."""
    return or_english(t).gettext(COMPASS[players][seat])


def sorted_hand(cards: Sequence[str], game: str | None = None) -> list[str]:
    """A hand sorted by suit (spades, hearts, clubs, diamonds), highest first in the game's
    rank order (Albastini's own, else the usual A K Q J 10 … 2)."""
    ranks = RANKS_ALBASTINI if game == "albastini" else RANKS
    suit_rank = {SUITS[s]: n for n, s in enumerate(DISPLAY_SUIT_ORDER)}

    def key(card: str) -> tuple[int, int]:
        rank = ranks.index(card[0]) if card[0] in ranks else len(ranks)
        return suit_rank.get(card[1], len(suit_rank)), rank

    return sorted(cards, key=key)


@dataclass(frozen=True)
class BoardHand:
    """One seat's hand as dealt: ``direction`` 1-based, ``position`` compass-like (worded),
    ``dealer``, ``cards`` sorted (record notation), ``label`` as the text shows it;
    ``seat`` (0-based) only places it in a diagram, it is never shown."""

    seat: int
    direction: int
    position: str
    dealer: bool
    cards: tuple[str, ...]
    label: str


def board_hands(sides: Sequence[Sequence[int]], hands: Sequence[Sequence[str]],
                dealer: int | None, t: Translator | None = None, game: str | None = None
                ) -> list[BoardHand]:
    """Every hand of a board, per direction (each of its seats in turn): labelled
    ``Direction 1, North`` (``…, dealer`` for the dealer's)."""
    t = or_english(t)
    players = len(hands)
    out: list[BoardHand] = []
    for direction, seats in enumerate(sides):
        for seat in seats:
            if seat >= players:
                continue
            position = compass(seat, players, t) if players in COMPASS else t.gettext(
                "Seat {n}").format(n=t.number(seat + 1))
            head = direction_text(direction, t)
            # Translators: A hand record's label: {direction} "Direction 1", {position} a
            # seat's compass-like position ("North").
            label = t.gettext("{direction}, {position}").format(direction=head,
                                                                position=position)
            if seat == dealer:
                # Translators: A hand record's label of the dealer's hand: {direction} is
                # "Direction 1, North".
                label = t.gettext("{direction}, dealer").format(direction=label)
            out.append(BoardHand(seat, direction + 1, position, seat == dealer,
                                 tuple(sorted_hand(hands[seat], game)), label))
    return out
