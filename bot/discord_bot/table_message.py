"""The per-table state of the Discord adapter and the coalescing editor of the public table
message.

One :class:`TableUI` per open table: where its public message is, who opened it, the short
trick log, the players whose DMs are closed, each seat's live panel. The public message is
redrawn from the table service's public view (never from anything private) by
:class:`MessageEditor`: a change marks the table dirty; the editor waits ``edit_delay``
(a burst of AI plays lands in one edit) and keeps at least ``edit_interval`` seconds
between two edits of one table; an unchanged text costs nothing; a message older than
``message_max_age`` is replaced by a fresh one (its old buttons keep working anyway).
"""

from __future__ import annotations

import asyncio
import datetime as dt
import time
from dataclasses import dataclass, field
from typing import Any

import discord


@dataclass
class PanelRef:
    """Where a seat's live panel is shown: a DM message, or an ephemeral interaction
    response (editable for 15 minutes through its interaction)."""

    kind: str  # "dm" | "eph"
    channel_id: int = 0
    message_id: int = 0
    interaction: discord.Interaction | None = None
    shown_at: float = 0.0
    to_act: bool = False
    legal_key: str = ""
    version: int = 0


@dataclass
class TableUI:
    table_id: int
    channel_id: int
    guild_id: int | None
    message_id: int | None = None
    creator: int | None = None
    images: bool = False
    log: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    dm_closed: set[int] = field(default_factory=set)
    panels: dict[int, PanelRef] = field(default_factory=dict)
    seat_tasks: dict[int, asyncio.Task[None]] = field(default_factory=dict)
    dirty: bool = False
    editor: asyncio.Task[None] | None = None
    last_edit: float = 0.0
    last_drawn: str | None = None
    last_text: str = ""
    closing_note: str = "**This table is closed.**"
    info: Any = None
    """The latest :class:`bot.service.TableInfo` seen (for the results of a closed table)."""
    post_lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    closed: bool = False

    def message_age(self) -> float:
        """Seconds since the public message was posted (from its snowflake)."""
        if self.message_id is None:
            return 0.0
        made = discord.utils.snowflake_time(self.message_id)
        return (dt.datetime.now(dt.UTC) - made).total_seconds()

    def link(self) -> str:
        if self.message_id is None:
            return f"<#{self.channel_id}>"
        return (f"https://discord.com/channels/{self.guild_id or '@me'}/{self.channel_id}/"
                f"{self.message_id}")


def drawn_key(content: str, components: Any, image: bytes | None) -> str:
    """What decides whether a redraw changes the message."""
    return f"{content}\x00{components!r}\x00{hash(image) if image else ''}"


def monotonic() -> float:
    return time.monotonic()
