"""The sentences about languages themselves, shared by every front end.

``/settings language`` and ``/language`` in Discord and ``--lang`` in the CLI answer with
these. Each function takes the :class:`~bot.i18n.translator.Translator` of the reader and
returns finished text. Text a user typed (``given``) is inserted as it is: the caller
escapes it for its medium first (Discord markdown, Textual markup).
"""

from __future__ import annotations

from typing import Literal

from bot.i18n.languages import ENDONYMS, SUPPORTED
from bot.i18n.translator import Translator


def language_choices(t: Translator, style: Literal["standard", "or"] = "standard") -> str:
    """The supported languages as a reader of ``t`` sees them in a sentence: each name in
    itself with its code (``Soomaali (so)``), joined by the language's "and" (or "or")."""
    return t.join((f"{ENDONYMS[code]} ({code})" for code in SUPPORTED), style)


def server_language_set(t: Translator, language: str) -> str:
    """The answer to a server's ``/settings language``, in the new language ``t``."""
    # Translators: {language} is the language's name in your language (CLDR), e.g.
    # "Kiswahili", "Indonesia", "Soomaali".
    return t.gettext(
        "Public messages in this server are now in {language}: the lobby, the table, "
        "results, reminders and league posts."
    ).format(language=t.language_name(language))


def player_language_set(t: Translator, language: str) -> str:
    """The answer to a player's ``/language``, in the new language ``t``."""
    return t.gettext(
        "Your hand, your private panels and the bot's DMs to you are now in {language}."
    ).format(language=t.language_name(language))


def player_language_cleared(t: Translator, server_language: str) -> str:
    """The answer when a player drops their own choice (``t`` in the server's language)."""
    return t.gettext(
        "You have no language of your own any more: your private messages follow the "
        "server's language ({language})."
    ).format(language=t.language_name(server_language))


def unknown_language(t: Translator, given: str) -> str:
    """The refusal of a language tricktable does not speak (``given`` already escaped)."""
    # Translators: {given} is what the user typed; {choices} lists the four languages
    # with their codes, joined with your language's "or".
    return t.gettext(
        "“{given}” is not a language the bot speaks. Choose one of: {choices}."
    ).format(given=given, choices=language_choices(t, "or"))


def languages_overview(t: Translator) -> str:
    """The list of languages, for ``/language`` without a choice and ``--lang help``."""
    return t.ngettext(
        "The bot speaks {count} language: {choices}.",
        "The bot speaks {count} languages: {choices}.",
        len(SUPPORTED),
    ).format(count=t.number(len(SUPPORTED)), choices=language_choices(t))


def language_setting_label(t: Translator) -> str:
    """The name of the language setting in a list of settings (``/settings``)."""
    return t.pgettext("setting", "Language")
