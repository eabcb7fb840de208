"""Slash commands and their options named in a sentence, as the reader's Discord shows them.

Discord localizes command and option names for its client languages (of ours, Indonesian:
``/history`` is ``/riwayat`` there), so a sentence must not quote the English name. A
sentence names a command by a field (``"run {history} again"``) whose value is a
:class:`Command`, and an option by an :class:`Option`::

    t.gettext("run {history} again").format(history=Command("history").text(t))
    raise UserError(N_("use {join}"), join=Command("league join"))   # worded later

A :class:`Command` is written with the renderer the front end registered
(:func:`use_mentions`: the Discord adapter renders a command mention ``</history:123>``,
which every client shows clickable and in its own language); without one, or for a
command it does not know, as ``/name`` in the reader's language in code style (what
Discord shows a client of that language; English where Discord has no such client). An
:class:`Option` is the option's name in the reader's language by the same rule (options
cannot be mentioned). This module imports no ``discord``: the renderer is any function of
the command's path (``"league team add"``) that returns its text or None.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from bot.i18n.said import Said
from bot.i18n.translator import slash_command_text

if TYPE_CHECKING:
    from bot.i18n.translator import Translator

Mentions = Callable[[str], "str | None"]
"""A front end's way to write a command in a sentence, by its path (``"league join"``);
None: it does not know that command (the plain name is written)."""

_COMMAND_NAME = "command name"  # bot.i18n.COMMAND_NAME (not imported: no import cycle)

CLIENT_LANGUAGES: Final = frozenset({"id"})
"""Our languages that are Discord client languages (``discord.Locale``): only there does
Discord show translated command and option names."""

_mentions: list[Mentions] = []


def use_mentions(mentions: Mentions) -> None:
    """Register the renderer of commands in sentences (the Discord adapter, once it knows
    the commands' ids). One per process: the last registered wins."""
    _mentions[:] = [mentions]


def drop_mentions(mentions: Mentions) -> None:
    """Remove ``mentions`` if it is the registered renderer (a bot that stops): sentences
    show plain command names again."""
    if mentions in _mentions:
        _mentions.remove(mentions)


def local_name(name: str, t: Translator) -> str:
    """A command, group or option name as a Discord client of ``t``'s language shows it
    (the catalog's ``command name`` translation where Discord has that language)."""
    if t.language not in CLIENT_LANGUAGES:
        return name
    return slash_command_text(t.language, _COMMAND_NAME, name) or name


def command_name(path: str, t: Translator) -> str:
    """``/league fixtures`` as a client of ``t``'s language shows it, as plain text (for an
    embed's title or footer, where Discord shows no mention)."""
    return "/" + " ".join(local_name(part, t) for part in path.split())


@dataclass(frozen=True)
class Command(Said):
    """A slash command named in a sentence: ``message`` is its path (``"league join"``)."""

    def text(self, t: Translator) -> str:
        for mentions in _mentions:
            shown = mentions(self.message)
            if shown is not None:
                return shown
        return f"`{command_name(self.message, t)}`"


@dataclass(frozen=True)
class Option(Said):
    """A slash command's option named in a sentence: ``message`` is its name
    (``"result"``), written in code style as the reader's Discord client shows it."""

    def text(self, t: Translator) -> str:
        return f"`{local_name(self.message, t)}`"


def command(path: str, t: Translator) -> str:
    """:class:`Command` ``path`` in ``t``'s language, for a field worded at once."""
    return Command(path).text(t)


def option(name: str, t: Translator) -> str:
    """:class:`Option` ``name`` in ``t``'s language, for a field worded at once."""
    return Option(name).text(t)
