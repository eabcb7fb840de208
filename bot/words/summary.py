"""The packaged player summaries of the games, one Markdown file per language and game.

``summaries/<language>/<game>.md`` (package data): a ``# Title`` line, in a translation a
``> tagline`` (the game in one line, as the engine's English ``summary_line``), then one
``##`` section per page of ``/rules`` (how a deal goes, what is legal, how it scores). A translated
summary ends with a section ``## Options`` that gives each rule option's name and meaning
in the language, one bullet per option::

    * `draw_breaks_streak` **Sare ayaa jebisa**: …

(the English names and meanings are the engine's own, ``describe()`` of the game's
options). :func:`summary_file` falls back to English only for a language without the file;
``tests/i18n`` proves none is missing.
"""

from __future__ import annotations

import re
from functools import cache
from importlib import resources

from bot.i18n import SOURCE_LANGUAGE

OPTIONS_SECTION = "Options"
"""The heading (in every language's file) of the options' names and meanings."""

_OPTION = re.compile(r"^\* `(?P<key>\w+)` \*\*(?P<name>[^*]+)\*\*: (?P<doc>.+)$")


def has_summary(game: str, language: str) -> bool:
    """Whether the package holds the summary of ``game`` in ``language``."""
    return (resources.files("bot.words").joinpath("summaries", language, f"{game}.md")
            .is_file())


@cache
def summary_file(game: str, language: str = SOURCE_LANGUAGE) -> str:
    """The player summary of ``game`` (Markdown) in ``language`` (English if missing)."""
    if not has_summary(game, language):
        language = SOURCE_LANGUAGE
    return (resources.files("bot.words").joinpath("summaries", language, f"{game}.md")
            .read_text(encoding="utf-8"))


def sections(text: str) -> list[tuple[str, list[str]]]:
    """The ``##`` sections of a summary with their non-empty lines (the title and blank
    lines dropped)."""
    found: list[tuple[str, list[str]]] = []
    for line in text.splitlines():
        if line.startswith("## "):
            found.append((line[3:].strip(), []))
        elif line.startswith("# ") or not line.strip():
            continue
        elif found:
            found[-1][1].append(line.rstrip())
    return found


def tagline(game: str, language: str = SOURCE_LANGUAGE) -> str | None:
    """The game in one line from the summary's ``> `` line before its first section
    (``None`` when there is none: English uses the engine's ``summary_line``)."""
    if language == SOURCE_LANGUAGE or not has_summary(game, language):
        return None
    for line in summary_file(game, language).splitlines():
        if line.startswith("## "):
            break
        if line.startswith("> "):
            return line[2:].strip()
    return None


def page_sections(game: str, language: str = SOURCE_LANGUAGE) -> list[tuple[str, list[str]]]:
    """The sections shown as rules pages (all but the options' names and meanings)."""
    return [s for s in sections(summary_file(game, language)) if s[0] != OPTIONS_SECTION]


@cache
def option_words(game: str, language: str) -> dict[str, tuple[str, str]]:
    """Option key → (name, meaning) in ``language``, from its summary's ``## Options``
    (empty for English and for a language without the file)."""
    if language == SOURCE_LANGUAGE or not has_summary(game, language):
        return {}
    words: dict[str, tuple[str, str]] = {}
    for heading, lines in sections(summary_file(game, language)):
        if heading != OPTIONS_SECTION:
            continue
        for line in lines:
            match = _OPTION.match(line)
            if match:
                words[match["key"]] = (match["name"].strip(), match["doc"].strip())
    return words
