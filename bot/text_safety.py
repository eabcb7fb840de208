"""Text a user chose (display names; team, league and season names; quoted input) made safe
to show: one line of visible characters, and literal in Discord's markdown.

Pure string code (no discord import), so every layer shares the one implementation: the
Discord adapter (:mod:`bot.discord_bot.drawing.safe` re-exports :func:`safe_name`), the league
texts (:mod:`bot.leagues`) and the pictures (:func:`bot.render.theme.fit_text` draws
:func:`clean_text`'s output only).

* :func:`clean_text` — the name as one line of visible characters: Unicode format
  characters (category ``Cf``: the bidi controls U+202A–U+202E and U+2066–U+2069,
  zero-width spaces and joiners, the BOM, soft hyphens) and lone surrogates are removed;
  control characters (``Cc``: line breaks, tabs, U+0085, U+001C–U+001E, …) and separators
  other than a plain space (``Zl``, ``Zp``, ``Zs`` such as U+2029 or a no-break space)
  become a plain space; runs of spaces become one, and the ends are trimmed. A name can
  thus neither break a message's line, nor reverse the text after it, nor hide characters
  (``a\\u200blice`` is the ``alice`` it looks like), nor make Pillow's text layout (with
  libraqm) fail in a picture.
* :func:`escape_markdown` — every markdown character (``\\ * _ ~ ` | > # - [ ] ( ) <``)
  gets a backslash, unconditionally (Discord shows the character, without the backslash),
  as do the list markers at the start (``+``, the dot of ``1.``); every ``@`` is followed
  by a zero-width space, which breaks ``@everyone``, ``@here`` and ``<@id>`` mentions.
* :func:`safe_name` — both: the text for a Discord message, shown literally, pinging
  nobody. It may be empty (a name of invisible characters only): the callers that show a
  *name* put the person or team's id-based name in its place (a ``<@id>`` mention in a
  message, ``Seat n`` in a picture), see :func:`bot.discord_bot.drawing.texts.display_name`.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Final

ZERO_WIDTH_SPACE: Final = "\u200b"

_REMOVED: Final = frozenset({"Cf", "Cs"})
"""Categories dropped: format characters (invisible) and lone surrogates."""
_SPACED: Final = frozenset({"Cc", "Zl", "Zp", "Zs"})
"""Categories that become a plain space: controls and separators."""
_MARKDOWN: Final = re.compile(r"([\\*_~`|>#\-\[\]()<])")
_LIST_START: Final = re.compile(r"^(\+|\d+(?=\.))")
"""A list marker at the start: ``+`` (escaped itself) or the number of ``1.`` (whose dot
is escaped: Discord shows a backslash before a digit)."""


def clean_text(text: str) -> str:
    """``text`` as one trimmed line of visible characters (see the module docstring)."""
    kept = []
    for ch in text:
        category = unicodedata.category(ch)
        if category in _REMOVED:
            continue
        kept.append(" " if category in _SPACED else ch)
    return " ".join("".join(kept).split())


def escape_markdown(text: str) -> str:
    """``text`` with every markdown character escaped and every mention broken."""
    escaped = _MARKDOWN.sub(r"\\\1", text)
    escaped = _LIST_START.sub(lambda m: "\\+" if m[1] == "+" else m[1] + "\\", escaped)
    return escaped.replace("@", "@" + ZERO_WIDTH_SPACE)


def safe_name(text: str) -> str:
    """``text`` for a Discord message: cleaned (:func:`clean_text`), then shown literally
    and pinging nobody (:func:`escape_markdown`). Empty if nothing visible is left."""
    return escape_markdown(clean_text(text))
