"""The languages tricktable speaks, and how a language is chosen.

Supported: English (``en``, the source language), Somali (``so``), Indonesian (``id``) and
Swahili (``sw``). A language is always one of these codes; every function here returns one
(or ``None`` where it says so) and never raises on a foreign tag it can ignore.

Who chooses (one rule per front end, each a function below):

* **Public messages in a Discord server** (lobby, table message, results, reminders, league
  posts): :func:`public_language` — the server's ``/settings language``, else the server's
  Discord *preferred locale* when it is supported, else English.
* **A player's DMs and private panels**: :func:`private_language` — the player's own
  ``/language``, else the Discord client language of the interaction when it is a supported
  language *other than English*, else the server's public language. English client locales
  do not override the server: ``en-US`` is what most Discord clients report whether or not
  the player chose it (Somali and Swahili are not Discord client languages at all), and a
  Somali club's players should not get English DMs by default; a player who wants English
  says ``/language en``. Without an interaction (the hand DM at a deal's start) pass
  ``None``.
* **The terminal and the CLI**: :func:`cli_language` — ``--lang``, else ``TRICKTABLE_LANG``,
  else the POSIX locale (``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG``: the order GNU
  gettext uses), else English. A ``--lang`` or ``TRICKTABLE_LANG`` that names no supported
  language is refused with :class:`UnknownLanguage` (the user asked for it explicitly); an
  unsupported system locale quietly means English.

Tags are read loosely: ``id``, ``en-US``, ``so_SO.UTF-8``, ``sw_KE@euro``, ``SW`` all work
(the primary language subtag decides); ``in`` is the legacy ISO 639 code of Indonesian.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from typing import Final

SOURCE_LANGUAGE: Final = "en"
"""The language the message ids are written in."""

SUPPORTED: Final[tuple[str, ...]] = ("en", "so", "id", "sw")
"""Every language with a catalog (English needs none), in menu order."""

ENDONYMS: Final[Mapping[str, str]] = {
    "en": "English",
    "so": "Soomaali",
    "id": "Bahasa Indonesia",
    "sw": "Kiswahili",
}
"""Each language's name in itself, as a language menu shows it (never translated). CLDR's
endonym of Indonesian is just *Indonesia*; speakers name the language *Bahasa Indonesia*."""

ENV_VARIABLE: Final = "TRICKTABLE_LANG"

_ALIASES: Final[Mapping[str, str]] = {"in": "id"}
_SPLIT = re.compile(r"[-_.@]")
_POSIX_VARIABLES: Final = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")


class UnknownLanguage(ValueError):
    """An explicitly requested language that tricktable does not speak."""

    def __init__(self, given: str) -> None:
        super().__init__(
            f"unknown language {given!r}: choose one of {', '.join(SUPPORTED)}"
        )
        self.given = given


def match_language(tag: str | None) -> str | None:
    """The supported language a locale tag names (``"en-US"`` → ``"en"``), or None when
    the tag is empty, ``C``/``POSIX`` or a language without a catalog."""
    if not tag:
        return None
    primary = _SPLIT.split(tag.strip(), maxsplit=1)[0].lower()
    primary = _ALIASES.get(primary, primary)
    return primary if primary in SUPPORTED else None


def require_language(tag: str) -> str:
    """The supported language ``tag`` names; raises :class:`UnknownLanguage` otherwise.
    For values a user typed (``--lang``, ``TRICKTABLE_LANG``, a stored setting check)."""
    language = match_language(tag)
    if language is None:
        raise UnknownLanguage(tag)
    return language


def public_language(server_choice: str | None, preferred_locale: str | None = None) -> str:
    """The language of a Discord server's public messages: its ``/settings language``,
    else its Discord preferred locale (``guild.preferred_locale``) if supported, else
    English."""
    return match_language(server_choice) or match_language(preferred_locale) or SOURCE_LANGUAGE


def private_language(
    player_choice: str | None, interaction_locale: str | None, server_language: str
) -> str:
    """The language of one player's DMs and private panels: their ``/language``, else a
    supported non-English Discord client locale (``interaction.locale``), else the server's
    public language (see the module docstring for why English clients defer)."""
    chosen = match_language(player_choice)
    if chosen is not None:
        return chosen
    client = match_language(interaction_locale)
    if client is not None and client != SOURCE_LANGUAGE:
        return client
    return match_language(server_language) or SOURCE_LANGUAGE


def system_language(environ: Mapping[str, str] | None = None) -> str:
    """The language of the POSIX locale in ``environ`` (default: ``os.environ``): the first
    set variable of ``LANGUAGE`` (a colon-separated list: its first supported entry),
    ``LC_ALL``, ``LC_MESSAGES``, ``LANG``; English when none names a supported language.
    ``LANGUAGE`` is ignored when the locale is set to ``C``/``POSIX``, as GNU gettext does."""
    env = os.environ if environ is None else environ
    locale_name = next(
        (env[name] for name in _POSIX_VARIABLES[1:] if env.get(name)), ""
    )
    if locale_name.split(".")[0] not in ("C", "POSIX") and env.get("LANGUAGE"):
        for entry in env["LANGUAGE"].split(":"):
            language = match_language(entry)
            if language is not None:
                return language
    return match_language(locale_name) or SOURCE_LANGUAGE


def cli_language(argument: str | None, environ: Mapping[str, str] | None = None) -> str:
    """The language of the terminal and the CLI: ``--lang`` (``argument``), else
    ``TRICKTABLE_LANG``, else :func:`system_language`. Raises :class:`UnknownLanguage` when
    ``--lang`` or ``TRICKTABLE_LANG`` names no supported language."""
    if argument:
        return require_language(argument)
    env = os.environ if environ is None else environ
    configured = env.get(ENV_VARIABLE, "").strip()
    if configured:
        return require_language(configured)
    return system_language(env)
