"""Card pictures for the adapter, drawn off the event loop and cached.

Pillow work runs in a thread (:func:`asyncio.to_thread`) so that drawing a table never
delays other tables' clicks; a picture already drawn for the same input is returned at
once from a small cache (the renderer's own caches also live in :mod:`bot.render`).
"""

from __future__ import annotations

import asyncio
import json
from collections import OrderedDict
from collections.abc import Sequence

from games.view_types import GameView

CACHE_SIZE = 256
_cache: OrderedDict[str, bytes] = OrderedDict()


def _remember(key: str, png: bytes) -> bytes:
    _cache[key] = png
    _cache.move_to_end(key)
    while len(_cache) > CACHE_SIZE:
        _cache.popitem(last=False)
    return png


async def hand_picture(hand: Sequence[str], lit: frozenset[str] | None) -> bytes:
    """PNG of a hand, legal cards lit (``lit`` None: all lit)."""
    key = json.dumps(["hand", list(hand), None if lit is None else sorted(lit)])
    if key in _cache:
        _cache.move_to_end(key)
        return _cache[key]
    from bot.render import render_hand

    png = await asyncio.to_thread(render_hand, list(hand), None if lit is None else set(lit))
    return _remember(key, png)


async def table_picture(view: GameView, names: Sequence[str], score: str) -> bytes:
    """PNG of the table from the public view."""
    key = json.dumps(["table", view, list(names), score], sort_keys=True, default=str)
    if key in _cache:
        _cache.move_to_end(key)
        return _cache[key]
    from bot.render import render_table

    png = await asyncio.to_thread(render_table, view, list(names), score)
    return _remember(key, png)
