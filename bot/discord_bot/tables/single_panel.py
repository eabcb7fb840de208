"""One private panel per player: a new **My hand** panel retires the previous one.

Each **My hand** press (or ``/hand``) answers with a new ephemeral panel — Discord offers
no way to move an old ephemeral message to the bottom of the channel. So that panels do
not stack with live controls, the seat's :class:`PanelSlot` remembers the interaction that
made its current ephemeral panel; when a new one is shown, the previous one is edited
through that interaction's token (valid 15 minutes) into an inert note without controls.
A panel older than the token cannot be edited any more; its controls are refused as "no
longer current" by the table service anyway.

A click *on* the ephemeral panel (a card, a signal) updates that same message: it is the
same panel, nothing is retired.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import Final

import discord

from bot.discord_bot.drawing.texts import clip
from bot.i18n import N_, translator

log = logging.getLogger(__name__)

RETIRED: Final = N_("This panel was replaced by a newer one. Use the newest panel, or "
                    "**My hand** on the table message.")
TOKEN_LIFETIME: Final = 14 * 60.0
"""Seconds an interaction token may still edit its message (Discord: 15 minutes)."""

Interaction = discord.Interaction[discord.Client]


class PanelSlot:
    """The seat's current ephemeral panel (see the module docstring)."""

    def __init__(self) -> None:
        self.origin: Interaction | None = None
        self.since = 0.0
        self._tasks: set[asyncio.Task[None]] = set()

    def shown(self, interaction: Interaction, language: str) -> None:
        """``interaction`` was answered with the seat's private panel, in ``language``
        (the retired note of the previous panel is written in it)."""
        msg = interaction.message
        if msg is not None and msg.flags.ephemeral:
            return  # a click on the panel itself: the same panel, updated in place
        old, old_since = self.origin, self.since
        self.origin, self.since = interaction, time.monotonic()
        if old is not None and time.monotonic() - old_since < TOKEN_LIFETIME:
            note = clip(translator(language).gettext(RETIRED))
            task = asyncio.get_running_loop().create_task(retire(old, note))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)


async def retire(origin: Interaction, note: str) -> None:
    """Turn the panel ``origin`` answered with into an inert ``note`` (no controls)."""
    with contextlib.suppress(discord.HTTPException):
        await origin.edit_original_response(content=note, view=None, attachments=[],
                                            embeds=[])
