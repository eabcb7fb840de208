"""Find English left over in text meant for another language (for tests and reviews).

A sentence posted to a Somali table must contain no phrase of the English source that the
Somali catalog translates: if it does, a string was not wrapped for translation or its
translation is missing. :func:`english_leftovers` checks a text against the template's
messages: it cuts every English message at its ``{fields}`` into phrases, keeps the phrases
of at least two words that the language's own translation does not also contain (a word
kept as is, such as *DM* or *bella*, is no leftover), and reports those found in the text.

It cannot see English that never went through a catalog; the tests that post whole matches
catch that by also checking against the phrases of the source strings they know.
"""

from __future__ import annotations

import functools
import io
import re
from collections.abc import Iterable
from importlib import resources
from string import Formatter

from babel.messages.pofile import read_po

from bot.i18n.languages import SOURCE_LANGUAGE
from bot.i18n.translator import DOMAIN, load_catalog

_WORDS = re.compile(r"[A-Za-z]+(?:'[a-z]+)?")
_MIN_WORDS = 2


def _phrases(template: str) -> Iterable[str]:
    """The literal runs of a ``str.format`` template that have two words or more."""
    try:
        parts = [literal for literal, *_ in Formatter().parse(template)]
    except ValueError:
        parts = [template]
    for part in parts:
        for line in part.splitlines():
            phrase = line.strip(" \t:;,.!?()[]“”\"'—–-*_`>")
            if len(_WORDS.findall(phrase)) >= _MIN_WORDS:
                yield phrase


def _texts(value: object) -> list[str]:
    if isinstance(value, str):
        return [value] if value else []
    if isinstance(value, (list, tuple)):
        return [v for v in value if isinstance(v, str) and v]
    return []


@functools.cache
def _source_messages() -> tuple[tuple[tuple[str | None, str], tuple[str, ...]], ...]:
    path = resources.files("bot.i18n") / "locales" / f"{DOMAIN}.pot"
    template = read_po(io.StringIO(path.read_text(encoding="utf-8")), domain=DOMAIN)
    found = []
    for message in template:
        if not message.id or message.context == "command name":
            continue  # slash command names are identifiers, not text (``ai_pace``)
        ids = _texts(message.id)
        found.append(((message.context, ids[0]), tuple(ids)))
    return tuple(found)


@functools.cache
def leftover_phrases(language: str) -> tuple[str, ...]:
    """The English phrases that must not appear in text written in ``language``."""
    if language == SOURCE_LANGUAGE:
        return ()
    catalog = load_catalog(language)
    phrases: set[str] = set()
    for (context, singular), ids in _source_messages():
        message = catalog.get(singular, context=context)
        translated = " ".join(_texts(message.string)) if message is not None else ""
        for text in ids:
            phrases.update(p for p in _phrases(text) if p not in translated)
    return tuple(sorted(phrases, key=lambda p: (-len(p), p)))


def english_leftovers(text: str, language: str) -> list[str]:
    """The English phrases of the catalog found in ``text`` (empty: none left over).
    Longer phrases are reported before the shorter ones they contain."""
    return [phrase for phrase in leftover_phrases(language) if phrase in text]
