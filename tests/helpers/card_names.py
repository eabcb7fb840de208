"""Finding card names in JSON-like data (events, views), for the secrecy tests."""

from __future__ import annotations

import re
from typing import Any

CARD = re.compile(r"^[2-9TJQKA][SHDC]$")
"""A card string (rank, suit), as views and events write cards."""


def cards_in(value: Any) -> set[str]:
    """Every card named anywhere in a JSON-like value."""
    if isinstance(value, str):
        return {value} if CARD.match(value) else set()
    if isinstance(value, dict):
        return set().union(*(cards_in(v) for v in value.values())) if value else set()
    if isinstance(value, (list, tuple)):
        return set().union(*(cards_in(v) for v in value)) if value else set()
    return set()
