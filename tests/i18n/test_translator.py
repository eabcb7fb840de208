"""Translators: real catalogs from package data, plural choice, contexts, formatting."""

from __future__ import annotations

import datetime as dt

import pytest

from bot.i18n import ENDONYMS, SUPPORTED, slash_command_text, translator, translators
from bot.i18n.messages import (
    language_setting_label,
    languages_overview,
    player_language_set,
    server_language_set,
    unknown_language,
)


def test_english_is_the_source_and_needs_no_catalog() -> None:
    t = translator("en")
    assert t.gettext("Anything at all") == "Anything at all"
    assert t.ngettext("{count} card", "{count} cards", 1) == "{count} card"
    assert t.ngettext("{count} card", "{count} cards", 0) == "{count} cards"


@pytest.mark.parametrize("bad", ["fr", "en-US", "", "SO"])
def test_translator_wants_a_resolved_code(bad: str) -> None:
    with pytest.raises(ValueError, match="unsupported language"):
        translator(bad)


def test_translators_are_loaded_once() -> None:
    assert translator("so") is translator("so")
    assert [t.language for t in translators()] == list(SUPPORTED)
    assert translators()[1] is translator(SUPPORTED[1])


def test_shipped_translations_are_used() -> None:
    assert server_language_set(translator("sw"), "sw").startswith(
        "Jumbe za umma katika seva hii sasa zitaandikwa kwa Kiswahili"
    )
    assert player_language_set(translator("id"), "id").endswith("dalam bahasa Indonesia.")
    assert language_setting_label(translator("so")) == "Luuqadda"
    assert language_setting_label(translator("en")) == "Language"
    # An unknown message falls back to its English source.
    assert translator("sw").gettext("Not in any catalog") == "Not in any catalog"


def test_plural_forms_follow_each_language() -> None:
    assert languages_overview(translator("en")).startswith("The bot speaks 4 languages:")
    assert languages_overview(translator("so")).startswith("Bot-ku wuxuu ku hadlaa 4 luuqadood:")
    singular, plural = "The bot speaks {count} language: {choices}.", (
        "The bot speaks {count} languages: {choices}."
    )
    so = translator("so")
    assert so.ngettext(singular, plural, 1) == "Bot-ku wuxuu ku hadlaa {count} luuqad: {choices}."
    assert so.ngettext(singular, plural, 2).endswith("luuqadood: {choices}.")
    # Indonesian has one form for every count.
    forms = {translator("id").ngettext(singular, plural, n) for n in (0, 1, 2, 5, 21)}
    assert forms == {"Bot ini menguasai {count} bahasa: {choices}."}


def test_every_language_lists_every_language_by_its_own_name() -> None:
    for code in SUPPORTED:
        text = languages_overview(translator(code))
        assert all(f"{ENDONYMS[c]} ({c})" in text for c in SUPPORTED)


def test_refusal_uses_or_and_keeps_the_given_text() -> None:
    text = unknown_language(translator("id"), "Klingon")
    assert text.startswith("“Klingon” bukan bahasa")
    assert "Bahasa Indonesia (id), atau Kiswahili (sw)." in text
    swahili = unknown_language(translator("sw"), "x")
    assert swahili.endswith("Bahasa Indonesia (id) au Kiswahili (sw).")


def test_numbers_by_locale_rules() -> None:
    assert translator("en").number(12345.5) == "12,345.5"
    assert translator("id").number(12345.5) == "12.345,5"
    assert translator("sw").number(1234) == "1,234"
    assert translator("id").number(2.0 / 3, decimals=2) == "0,67"
    assert translator("en").number(7, decimals=0) == "7"
    assert translator("id").percent(0.543, decimals=1) == "54,3%"
    assert translator("en").percent(0.5) == "50%"


def test_dates_times_and_durations_by_locale_rules() -> None:
    when = dt.datetime(2026, 11, 24, 13, 5, tzinfo=dt.UTC)
    assert translator("id").date(when.date(), "long") == "24 November 2026"
    assert translator("sw").date(when.date(), "long") == "24 Novemba 2026"
    assert translator("en").time(when) == "1:05\u202fPM"
    assert translator("id").time(when) == "13.05"
    assert "2026" in translator("so").datetime(when)
    with pytest.raises(ValueError, match="aware"):
        translator("en").datetime(when.replace(tzinfo=None))
    assert translator("sw").duration(dt.timedelta(minutes=2)) == "dakika 2"
    assert translator("en").duration(dt.timedelta(seconds=120)) == "2 minutes"


def test_lists_and_language_names() -> None:
    assert translator("sw").join(["A", "B", "C"]) == "A, B na C"
    assert translator("so").join(["A", "B"], "or") == "A ama B"
    assert translator("sw").language_name("so") == "Kisomali"
    assert translator("so").language_name("en") == "Ingiriisi"
    assert translator("en").language_name("xx") == "xx"


def test_slash_command_texts_for_discord_locales() -> None:
    # The shipped catalogs translate pgettext("setting", "Language"); the same lookup
    # serves slash command texts under their own contexts.
    assert slash_command_text("id", "setting", "Language") == "Bahasa"
    assert slash_command_text("en-US", "setting", "Language") is None
    assert slash_command_text("fr", "setting", "Language") is None
    # No translation yet: None, so Discord shows the default.
    assert slash_command_text("id", "command name", "nothing-here") is None
