"""``/rules game`` and ``/table options`` as Discord shows them: one embed per page.

``/rules`` shows the players' summary of the game (:func:`bot.words.rules.rules_pages`:
how a deal goes, what is legal, how it scores, the options), one embed per page in one
private message — the pages of every game fit Discord's 10 embeds and 6,000 characters,
and a page that would not fit is named instead, so nothing is cut silently. ``/table
options`` quotes the rule file's text of each option in force
(:func:`bot.words.options.options_text`), pages of at most an embed each. No repository
path is shown: the summaries and rule files ship inside the package.
"""

from __future__ import annotations

from typing import Any, Final

import discord

from bot.discord_bot.drawing.texts import clip
from bot.i18n import Translator
from bot.words.options import options_text
from bot.words.rules import rules_pages
from bot.words.text import Text, paginate

COLOUR: Final = discord.Colour.dark_green()
EMBED_LIMIT: Final = 4096
MESSAGE_EMBEDS: Final = 10
MESSAGE_LIMIT: Final = 5800
"""Characters of all embeds of one message (Discord: 6,000, titles included)."""


def embeds_of(pages: list[Text], t: Translator) -> list[discord.Embed]:
    """``pages`` as embeds, as many as one message holds; the rest named in a footer."""
    out: list[discord.Embed] = []
    used = 0
    for i, page in enumerate(pages):
        size = len(page.title) + len(page.body)
        if len(out) == MESSAGE_EMBEDS or used + size > MESSAGE_LIMIT:
            rest = ", ".join(p.title for p in pages[i:])
            out[-1].set_footer(text=clip(t.gettext("More: {pages}").format(pages=rest), 2048))
            break
        out.append(discord.Embed(title=clip(page.title, 256),
                                 description=clip(page.body, EMBED_LIMIT), colour=COLOUR))
        used += size
    return out


def rules_embeds(game: str, t: Translator) -> list[discord.Embed]:
    """The players' summary of ``game`` in ``t``'s language."""
    return embeds_of(rules_pages(game, t=t), t)


def options_embeds(game: str, options: dict[str, Any], t: Translator) -> list[discord.Embed]:
    """The options in force at a table, each with its rule text (English quotes only)."""
    text = options_text(game, options, t=t)
    return embeds_of(paginate(text.title, list(text.lines), EMBED_LIMIT - 200, t=t), t)
