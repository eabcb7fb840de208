"""The four suits: letters, names and symbols (``docs/rules/README.md``).

A suit's int is its index in :data:`SUITS` (S=0, H=1, D=2, C=3). This module depends on
nothing, so both :mod:`games.cards` (which re-exports these names) and
:mod:`games.errors` (which words a suit in a refusal) can use it.
"""

from __future__ import annotations

SUITS = "SHDC"
"""Suit letters; a suit's int is its index here (S=0, H=1, D=2, C=3)."""

SUIT_NAMES = ("spades", "hearts", "diamonds", "clubs")
SUIT_SYMBOLS = ("♠", "♥", "♦", "♣")
RED_SUITS = frozenset({1, 2})
