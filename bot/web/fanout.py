"""One wording per frame, however many sockets receive it.

The table service hands the *same* :class:`~bot.service.events.TableEvent` object to every
subscription that may see it: a public event to every seat and spectator, a seat's
``state`` to every subscription of that seat (two tabs of one seat), the spectators'
``state`` to every spectator. A frame is worded from the event and the viewer's
:class:`~bot.web.frames.Words` alone, so every socket that receives the same event with
the same kind of wording gets the same frame: :class:`FrameCache` words and encodes it
once and hands every such socket the same text.

**The key.** An entry is the event (by identity: the cache holds it, so no other live
object can share its ``id``) and a *wording key* naming what else the frame depends on —
the frame's kind, the viewer's language and, where the frame names the viewer (the table
frame: ``(you)``, the hand, the legal choices), the viewer's seat (``None``: a
spectator). A viewer's words change only on events it reads in order (``started``, a
lobby change), so two viewers reading the same event word it alike.

**The bound.** The cache keeps the :attr:`FrameCache.size` most recently used entries (a
socket that falls further behind words its frame again: the same text, a little later).
"""

from __future__ import annotations

import asyncio
import json
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Hashable, Mapping
from typing import Any, TypeVar, cast

from bot.service.events import TableEvent

Key = tuple[Hashable, ...]
"""A wording key: the frame's kind, the viewer's language and, if it matters, its seat."""

Entry = tuple[TableEvent, "str | asyncio.Task[str]"]
T = TypeVar("T")


def encode(frame: Mapping[str, Any]) -> str:
    """A frame as the JSON text every socket sends (compact, non-ASCII kept)."""
    return json.dumps(frame, ensure_ascii=False, separators=(",", ":"))


class FrameCache:
    """Encoded frames by (event, wording key), the newest :attr:`size` (module docstring)."""

    def __init__(self, size: int = 8192) -> None:
        self.size = size
        self._entries: OrderedDict[tuple[int, Key], Entry] = OrderedDict()
        self._memos: OrderedDict[tuple[int, Key], tuple[TableEvent, object]] = OrderedDict()
        self.worded = 0
        """How many frames were worded (misses); :attr:`shared` counts the hits."""
        self.shared = 0

    def memo(self, event: TableEvent, key: Key, make: Callable[[], T]) -> T:
        """What ``make()`` returns for ``event`` and ``key``, made once for every socket
        (a value every wording of the event reads: a deal's replayed scores), among the
        newest :attr:`size` // 32 such values."""
        slot = (id(event), key)
        held = self._memos.get(slot)
        if held is not None and held[0] is event:
            self._memos.move_to_end(slot)
            return cast(T, held[1])
        value = make()
        self._memos[slot] = (event, value)
        while len(self._memos) > max(1, self.size // 32):
            self._memos.popitem(last=False)
        return value

    def __len__(self) -> int:
        return len(self._entries)

    def _find(self, event: TableEvent, key: Key) -> str | asyncio.Task[str] | None:
        slot = (id(event), key)
        entry = self._entries.get(slot)
        if entry is None or entry[0] is not event:
            return None
        self._entries.move_to_end(slot)
        self.shared += 1
        return entry[1]

    def _keep(self, event: TableEvent, key: Key,
              value: str | asyncio.Task[str]) -> None:
        self.worded += 1
        self._entries[(id(event), key)] = (event, value)
        while len(self._entries) > self.size:
            self._entries.popitem(last=False)

    def frame(self, event: TableEvent, key: Key,
              word: Callable[[], Mapping[str, Any] | None]) -> str | None:
        """The encoded frame of ``event`` for ``key``; ``word()`` makes it on a miss
        (``None``: the event makes no frame for this key, remembered as ``""``)."""
        found = self._find(event, key)
        if isinstance(found, str):
            return found or None
        frame = word()
        data = "" if frame is None else encode(frame)
        self._keep(event, key, data)
        return data or None

    async def frame_async(self, event: TableEvent, key: Key,
                          word: Callable[[], Awaitable[Mapping[str, Any]]]) -> str:
        """:meth:`frame` for a frame whose wording awaits (reads the store): the sockets
        that ask while it is being worded await the same wording."""
        found = self._find(event, key)
        if found is None:
            async def make() -> str:
                return encode(await word())

            found = asyncio.ensure_future(make())
            self._keep(event, key, found)
        if isinstance(found, str):
            return found
        return await asyncio.shield(found)
