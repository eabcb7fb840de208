"""Rule summaries for players: ``/rules`` in Discord and ``?`` in the terminal.

Each game has a short summary written for players (``summaries/<language>/<game>.md``,
package data: how a deal goes, what is legal, how it scores), one page per ``##`` section,
followed by the game's options with their defaults and meaning. Pages fit a Discord embed
(4,096 characters); the full rule files stay available through
:func:`bot.words.rulebook.rule_file`.
"""

from __future__ import annotations

from functools import cache
from importlib import resources

from bot.words.options import option_label, value_text
from bot.words.text import Text, paginate
from games.registry import GAMES

EMBED_LIMIT = 4096
"""The most characters of a Discord embed description."""

PAGE_LIMIT = 3800
"""Characters per rules page (under :data:`EMBED_LIMIT`, leaving room for the title)."""


@cache
def summary_file(game: str, language: str = "en") -> str:
    """The player summary of ``game`` (Markdown) in ``language``."""
    return (resources.files("bot.words").joinpath("summaries", language, f"{game}.md")
            .read_text(encoding="utf-8"))


def _sections(text: str) -> list[tuple[str, list[str]]]:
    sections: list[tuple[str, list[str]]] = []
    for line in text.splitlines():
        if line.startswith("## "):
            sections.append((line[3:].strip(), []))
        elif line.startswith("# ") or not line.strip():
            continue
        elif sections:
            sections[-1][1].append(line.rstrip())
    return sections


def options_lines(game: str) -> list[str]:
    """Every option of ``game``: its name, default and meaning (no rule quotes)."""
    lines = []
    for row in GAMES[game].options_type.describe():
        lines.append("{name} (default {default}): {doc}".format(
            name=option_label(row["name"]), default=value_text(row["default"]),
            doc=row["doc"]))
    return lines


def rules_pages(game: str, language: str = "en") -> list[Text]:
    """The summary of ``game`` as pages: one per section, then the options."""
    info = GAMES[game]
    pages: list[Text] = []
    for heading, lines in _sections(summary_file(game, language)):
        pages += paginate("{game}: {part}".format(game=info.title, part=heading), lines,
                          PAGE_LIMIT)
    pages += paginate("{game}: options".format(game=info.title), options_lines(game),
                      PAGE_LIMIT)
    return pages
