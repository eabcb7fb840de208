"""Languages: gettext catalogs managed with Babel, and who reads which language.

The API the front ends use (see ``docs/translating.md``)::

    from bot.i18n import translator, public_language, private_language, cli_language

    t = translator(public_language(settings.language, str(guild.preferred_locale)))
    text = t.gettext("{player} leads").format(player=name)
    line = t.ngettext("{count} trick", "{count} tricks", n).format(count=t.number(n))
    suit = t.pgettext("suit", "Spades")

Module-level texts are marked with :func:`N_` and translated where they are shown:
``LABEL = N_("Trump")`` … ``t.gettext(LABEL)``.

This package imports no ``discord``: the Discord adapter passes locale strings
(``str(interaction.locale)``, ``str(guild.preferred_locale)``) to the functions here.
"""

from __future__ import annotations

from typing import Final

from bot.i18n.languages import (
    ENDONYMS,
    ENV_VARIABLE,
    SOURCE_LANGUAGE,
    SUPPORTED,
    UnknownLanguage,
    cli_language,
    match_language,
    private_language,
    public_language,
    require_language,
    system_language,
)
from bot.i18n.translator import (
    DOMAIN,
    Translator,
    load_catalog,
    slash_command_text,
    translator,
    translators,
)


def N_(message: str) -> str:
    """Mark ``message`` for extraction without translating it (for texts defined before
    the reader's language is known); translate it later with ``t.gettext(message)``."""
    return message


def pgettext_noop(context: str, message: str) -> str:
    """:func:`N_` with a context: translate later with ``t.pgettext(context, message)``.
    Slash command names and descriptions use the contexts :data:`COMMAND_NAME` and
    :data:`COMMAND_DESCRIPTION`, whose translations the catalog check holds to Discord's
    limits. Write the context as a literal (``pgettext_noop("command name", "table")``):
    extraction reads literals only."""
    return message


def ngettext_noop(singular: str, plural: str) -> tuple[str, str]:
    """:func:`N_` for a message with plural forms: the pair, translated later with
    ``t.ngettext(*pair, count)`` (or :meth:`bot.i18n.said.Said.counted`)."""
    return singular, plural


COMMAND_NAME: Final = "command name"
"""Context of slash command, option and choice *names*: translations must be 1–32
lowercase letters, digits, ``-`` or ``_`` (Discord's rule for names)."""

COMMAND_DESCRIPTION: Final = "command description"
"""Context of slash command and option *descriptions*: at most 100 characters."""


__all__ = [
    "COMMAND_DESCRIPTION",
    "COMMAND_NAME",
    "DOMAIN",
    "ENDONYMS",
    "ENV_VARIABLE",
    "N_",
    "SOURCE_LANGUAGE",
    "SUPPORTED",
    "Translator",
    "UnknownLanguage",
    "cli_language",
    "load_catalog",
    "match_language",
    "ngettext_noop",
    "pgettext_noop",
    "private_language",
    "public_language",
    "require_language",
    "slash_command_text",
    "system_language",
    "translator",
    "translators",
]
