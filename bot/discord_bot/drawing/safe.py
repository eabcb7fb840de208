"""User-supplied text made safe for Discord, and who a message may ping.

The rule: every text a user chose (display names, team, league and season names) is shown
**literally** — :func:`safe_name` (one implementation for every layer, in
:mod:`bot.text_safety`) cleans it to one line of visible characters (no controls, line or
paragraph separators, bidi overrides or zero-width characters), escapes every markdown
character unconditionally and breaks every mention (``@everyone``, ``@here``, ``<@id>``,
``<@&id>``) with a zero-width space after the ``@``, so the name can neither format the
message nor notify anybody.

A message pings exactly the users it means to: :func:`pings` builds the
``allowed_mentions`` that lets those users' mentions notify them and nothing else
(never ``@everyone``, never roles); :data:`NO_PINGS` allows none.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

import discord

from bot.text_safety import ZERO_WIDTH_SPACE, clean_text, safe_name

__all__ = ["NO_PINGS", "ZERO_WIDTH_SPACE", "clean_text", "pings", "safe_name"]

NO_PINGS: Final = discord.AllowedMentions.none()


def pings(user_ids: Iterable[int]) -> discord.AllowedMentions:
    """``allowed_mentions`` that notify exactly ``user_ids`` (none: nobody)."""
    users = sorted(set(user_ids))
    if not users:
        return NO_PINGS
    return discord.AllowedMentions(everyone=False, roles=False, replied_user=False,
                                   users=[discord.Object(u) for u in users])
