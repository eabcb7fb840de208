"""The standard trick winner and follow-suit helpers, shared by every game.

Standard trick winner (``docs/rules/README.md``): if the trick holds a trump, the highest
trump wins; otherwise the highest card of the led suit. Cards of other suits never win.
Among identical cards (Arba'a Turub's four copies) the copy played first wins, so only a
strictly stronger card takes the lead.
"""

from __future__ import annotations

from collections.abc import Sequence

from games.cards import SUIT_NAMES, describe


def trick_winner(plays: Sequence[tuple[int, int]], trump: int, strength: Sequence[int]) -> int:
    """Seat that wins ``plays`` (``(seat, card)`` in the order played).

    ``trump`` is a suit int or ``-1`` for no trump; ``strength[card]`` ranks cards within a
    suit (higher wins); a game with separate trump and plain orders passes a table whose
    trump entries are already its trump strengths.
    """
    led = plays[0][1] // 13
    best_seat, best_key = plays[0][0], -1
    for seat, c in plays:
        s = c // 13
        if s == trump:
            key = 1000 + strength[c]
        elif s == led:
            key = strength[c]
        else:
            continue
        if key > best_key:
            best_seat, best_key = seat, key
    return best_seat


def follow_reason(led: int, holding: Sequence[int]) -> str:
    """The refusal for a card that does not follow suit: ``"you must follow hearts: you hold
    9H, KH"``."""
    return f"you must follow {SUIT_NAMES[led]}: you hold {describe(holding)}"
