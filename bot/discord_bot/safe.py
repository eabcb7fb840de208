"""User-supplied text made safe for Discord, and who a message may ping.

The rule: every text a user chose (display names, team, league and season names) is shown
**literally** — :func:`safe_name` escapes Discord markdown (``**``, ``_``, `` ` ``, ``~``,
``|``, ``>``, headings and lists at the start of a line) and breaks every mention
(``@everyone``, ``@here``, ``<@id>``, ``<@&id>``) with a zero-width space after the ``@``,
so the name can neither format the message nor notify anybody. Line breaks become spaces (a
name is one line).

A message pings exactly the users it means to: :func:`pings` builds the
``allowed_mentions`` that lets those users' mentions notify them and nothing else
(never ``@everyone``, never roles); :data:`NO_PINGS` allows none.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Final

import discord

NO_PINGS: Final = discord.AllowedMentions.none()

_LINE_START = re.compile(r"^([#>\-+*]|\d+\.)")
_CONTROL = re.compile(r"[\x00-\x1f\x7f]+")
ZERO_WIDTH_SPACE: Final = "\u200b"


def safe_name(text: str) -> str:
    """``text`` escaped for a Discord message: shown literally, pinging nobody."""
    one_line = _CONTROL.sub(" ", text).strip()
    escaped = discord.utils.escape_markdown(one_line)
    escaped = _LINE_START.sub(r"\\\1", escaped)
    return escaped.replace("@", "@" + ZERO_WIDTH_SPACE)


def pings(user_ids: Iterable[int]) -> discord.AllowedMentions:
    """``allowed_mentions`` that notify exactly ``user_ids`` (none: nobody)."""
    users = sorted(set(user_ids))
    if not users:
        return NO_PINGS
    return discord.AllowedMentions(everyone=False, roles=False, replied_user=False,
                                   users=[discord.Object(u) for u in users])
