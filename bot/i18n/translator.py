"""Translators: one per language, with gettext and Babel's locale-aware formatting.

Catalogs are the ``.po`` files shipped as package data
(``bot/i18n/locales/<lang>/LC_MESSAGES/tricktable.po``). They are read with Babel's
``read_po`` and compiled to an in-memory ``.mo`` on first use, so a wheel or a Docker image
works without a build step; each language is loaded once per process. Fuzzy and empty
translations are left out: such a message shows its English source.

Messages are ``str.format`` templates with *named* fields (``"{player} leads"``): the
caller translates first, then formats — ``t.gettext("{player} leads").format(player=name)``.
Numbers put into a sentence go through :meth:`Translator.number` (``12.345`` in
Indonesian), dates through :meth:`Translator.date` / :meth:`Translator.datetime`.
"""

from __future__ import annotations

import datetime as dt
import functools
import io
from collections.abc import Iterable
from importlib import resources
from typing import Final, Literal

from babel import Locale
from babel.dates import format_date, format_datetime, format_time, format_timedelta
from babel.lists import format_list
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.numbers import format_decimal, format_percent
from babel.support import NullTranslations, Translations

from bot.i18n.languages import SOURCE_LANGUAGE, SUPPORTED, match_language

DOMAIN: Final = "tricktable"
"""The gettext domain: the catalogs' file name."""

Width = Literal["short", "medium", "long", "full"]

SMALL: Final = 10_000
"""Whole numbers below this (in magnitude) are formatted once per translator
(:meth:`Translator.number`): a web table words the same scores for every seat."""


def catalog_text(language: str) -> str:
    """The shipped ``.po`` text of ``language`` (a supported language other than English)."""
    path = (
        resources.files("bot.i18n") / "locales" / language / "LC_MESSAGES" / f"{DOMAIN}.po"
    )
    return path.read_text(encoding="utf-8")


def load_catalog(language: str) -> Catalog:
    """The shipped catalog of ``language``, parsed by Babel (fuzzy entries included and
    marked; :func:`translator` ignores them)."""
    return read_po(io.StringIO(catalog_text(language)), locale=language, domain=DOMAIN)


def _compiled(catalog: Catalog) -> NullTranslations:
    buffer = io.BytesIO()
    write_mo(buffer, catalog, use_fuzzy=False)
    buffer.seek(0)
    return Translations(fp=buffer, domain=DOMAIN)


LISTS = 4096
"""How many joined lists a translator remembers before it forgets them all."""


class Translator:
    """Everything a front end needs to write in one language.

    ``gettext`` / ``ngettext`` / ``pgettext`` / ``npgettext`` have the standard gettext
    meaning (and are the keywords ``pybabel extract`` looks for, also as methods:
    ``t.gettext(...)``). Plural choice follows the catalog's ``Plural-Forms``, which the
    catalog check keeps equal to the CLDR rule of the language. The formatting methods use
    Babel with the language's CLDR data.
    """

    def __init__(self, language: str, translations: NullTranslations) -> None:
        self.language = language
        self.locale = Locale.parse(language)
        self._translations = translations
        self._small: dict[int, str] = {}
        self._contexts: dict[tuple[str, str], str] = {}
        self._lists: dict[tuple[tuple[str, ...], str], str] = {}

    def __repr__(self) -> str:
        return f"Translator({self.language!r})"

    # -- messages ----------------------------------------------------------------------

    def gettext(self, message: str) -> str:
        """``message`` in this language (the English source when untranslated)."""
        return self._translations.gettext(message)

    def ngettext(self, singular: str, plural: str, count: int) -> str:
        """The form for ``count`` of a message with plural forms. Pass ``count`` to
        ``format`` as well when the template shows it: ``.format(count=t.number(n))``."""
        return self._translations.ngettext(singular, plural, count)

    def pgettext(self, context: str, message: str) -> str:
        """``message`` in a context (``pgettext("suit", "Spades")``): the same English
        words with different meanings get separate translations. Remembered: Babel's
        lookup of a context is slow, and suits and the like are asked for on every
        frame."""
        key = (context, message)
        text = self._contexts.get(key)
        if text is None:
            text = self._contexts[key] = str(self._translations.pgettext(context, message))
        return text

    def npgettext(self, context: str, singular: str, plural: str, count: int) -> str:
        """:meth:`ngettext` with a context."""
        return self._translations.npgettext(context, singular, plural, count)

    # -- formatting by the language's rules ------------------------------------------------

    def number(self, value: float | int, *, decimals: int | None = None) -> str:
        """A number with the language's separators (``12,345.5``; Indonesian ``12.345,5``);
        ``decimals`` fixes the number of decimal places. Small whole numbers (scores,
        counts) are formatted once per translator and remembered."""
        if decimals is None:
            if type(value) is int and -SMALL < value < SMALL:
                text = self._small.get(value)
                if text is None:
                    text = self._small[value] = format_decimal(value, locale=self.locale)
                return text
            return format_decimal(value, locale=self.locale)
        pattern = "#,##0" + ("." + "0" * decimals if decimals > 0 else "")
        return format_decimal(value, format=pattern, locale=self.locale)

    def percent(self, fraction: float, *, decimals: int = 0) -> str:
        """``0.543`` → ``54%`` (``decimals=1``: ``54.3%``; Indonesian ``54,3%``)."""
        pattern = "#,##0" + ("." + "0" * decimals if decimals > 0 else "") + "%"
        return format_percent(fraction, format=pattern, locale=self.locale)

    def date(self, value: dt.date, width: Width = "medium") -> str:
        """A calendar date, e.g. ``24 Nov 2026`` (Indonesian, ``medium``)."""
        return format_date(value, format=width, locale=self.locale)

    def time(self, value: dt.time | dt.datetime, width: Width = "short") -> str:
        """A time of day (``1:05 PM``; Indonesian ``13.05``). An aware datetime is shown
        in its own time zone."""
        return format_time(value, format=width, locale=self.locale)

    def datetime(self, value: dt.datetime, width: Width = "medium") -> str:
        """A date and time in the datetime's own time zone (naive values are refused)."""
        if value.tzinfo is None:
            raise ValueError("datetime() needs an aware datetime")
        return format_datetime(value, format=width, tzinfo=value.tzinfo, locale=self.locale)

    def duration(self, value: dt.timedelta, *, threshold: float = 0.85) -> str:
        """A rounded duration in words (``2 minutes``; Swahili ``dakika 2``)."""
        return format_timedelta(value, threshold=threshold, locale=self.locale)

    def join(self, items: Iterable[str], style: Literal["standard", "or"] = "standard") -> str:
        """``A, B and C`` (``or``: ``A, B or C``) with the language's conjunction. The
        newest :data:`LISTS` lists are remembered (a table's sides are joined on every
        frame)."""
        listed = tuple(items)
        key = (listed, style)
        text = self._lists.get(key)
        if text is None:
            if len(self._lists) >= LISTS:
                self._lists.clear()
            text = self._lists[key] = format_list(list(listed), style=style,
                                                  locale=self.locale)
        return text

    def language_name(self, language: str) -> str:
        """The name of ``language`` in this language (``so`` in Swahili: *Kisomali*)."""
        name = self.locale.languages.get(language)
        return name if name else language


@functools.cache
def translator(language: str) -> Translator:
    """The translator of a supported language (loaded once, shared, thread-safe to use).
    Raises ValueError for an unsupported code: resolve user input with
    :mod:`bot.i18n.languages` first."""
    code = match_language(language)
    if code is None or code != language:
        raise ValueError(f"unsupported language {language!r} (supported: {', '.join(SUPPORTED)})")
    if code == SOURCE_LANGUAGE:
        return Translator(code, NullTranslations())
    return Translator(code, _compiled(load_catalog(code)))


def translators() -> list[Translator]:
    """A translator for every supported language, in :data:`SUPPORTED` order — to check a
    text in all of them (Discord's limits: the longest translation decides)."""
    return [translator(code) for code in SUPPORTED]


def slash_command_text(locale: str, context: str, message: str) -> str | None:
    """What a Discord ``app_commands.Translator`` answers for a slash command text marked
    with ``pgettext_noop(context, message)``: its translation for the Discord client
    ``locale`` (``"id"``), or None — Discord's "no translation, show the default" — when the
    locale is English or unsupported or the catalog has no translation yet."""
    language = match_language(locale)
    if language is None or language == SOURCE_LANGUAGE:
        return None
    text = translator(language).pgettext(context, message)
    return None if text == message else text
