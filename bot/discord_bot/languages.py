"""Who reads which language in Discord: one :class:`Languages` per bot process.

The rules are :mod:`bot.i18n.languages`' (``docs/translating.md``):

* a server's **public** messages (lobby, table message, results, notices, reminders, league
  posts) are in its ``/settings language``, else its Discord preferred locale when that is
  one of ours, else English;
* a player's **private** messages (DMs, private panels, ephemeral answers) are in their own
  ``/language``, else the Discord client language of their newest interaction when it is a
  supported language other than English, else the language of the server the message is
  about (a DM about a table: that table's server).

Choices are read from the store once per server and player and kept; a change made here
(:meth:`Languages.set_server`, :meth:`Languages.set_player`) takes effect at once: the
cache is updated and every listener (:meth:`Languages.on_change`: the table hub, which
redraws the server's tables or the player's panels) is told. A change made by another
process sharing the PostgreSQL database (a ``/language`` typed in a DM reaches shard 0,
the player's table may live elsewhere) arrives as a notification
(:data:`~storage.signals.PLAYER_LANGUAGE_CHANNEL`,
:data:`~storage.signals.GUILD_SETTINGS_CHANNEL`, sent by the store with the write): the
choice is read again and, when it differs, the listeners are told the same way.
Client locales are seen with each interaction and remembered for the process's life (a DM
drawn before the player's first click after a restart follows the server until then).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from typing import Any, Final

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord_bot.answer import Reply, UserError, answer
from bot.discord_bot.drawing.safe import safe_name
from bot.i18n import (
    COMMAND_DESCRIPTION,
    COMMAND_NAME,
    ENDONYMS,
    SOURCE_LANGUAGE,
    SUPPORTED,
    Translator,
    match_language,
    pgettext_noop,
    private_language,
    public_language,
    slash_command_text,
    translator,
)
from bot.i18n.commands import command
from bot.i18n.messages import (
    languages_overview,
    player_language_cleared,
    player_language_set,
    unknown_language,
)
from bot.i18n.said import Said
from games.errors import quote
from storage import GuildSettings, Listener, Store
from storage.signals import GUILD_SETTINGS_CHANNEL, PLAYER_LANGUAGE_CHANNEL

log = logging.getLogger(__name__)

Interaction = discord.Interaction[discord.Client]


@dataclass(frozen=True)
class LanguageChange:
    """A server's or a player's choice changed (exactly one of the two ids is set)."""

    guild_id: int | None = None
    user_id: int | None = None


class Languages:
    """The servers' and players' language choices of one process (module docstring)."""

    def __init__(self, client: discord.Client, store: Store) -> None:
        self.client, self.store = client, store
        self._servers: dict[int, str | None] = {}
        self._players: dict[int, str | None] = {}
        self._clients: dict[int, str] = {}
        """Per user, the supported client locale of their newest interaction."""
        self._guild_locales: dict[int, str] = {}
        self._listeners: list[Callable[[LanguageChange], None]] = []
        self._notifications: Listener | None = None
        self._tasks: set[asyncio.Task[None]] = set()

    # -- other processes' changes -------------------------------------------------------------
    async def start(self) -> None:
        """Follow the changes other processes make (PostgreSQL; nothing on SQLite)."""
        self._notifications = self.store.listener()
        await self._notifications.listen(GUILD_SETTINGS_CHANNEL, self._server_notified)
        await self._notifications.listen(PLAYER_LANGUAGE_CHANNEL, self._player_notified)

    async def close(self) -> None:
        if self._notifications is not None:
            await self._notifications.close()
            self._notifications = None
        for task in list(self._tasks):
            task.cancel()

    def _server_notified(self, payload: str) -> None:
        if payload.isdigit() and int(payload) in self._servers:
            self._spawn(self._reread_server(int(payload)))

    def _player_notified(self, payload: str) -> None:
        if payload.isdigit() and int(payload) in self._players:
            self._spawn(self._reread_player(int(payload)))

    async def _reread_server(self, guild_id: int) -> None:
        language = (await self.store.get_guild_settings(guild_id)).language
        if self._servers.get(guild_id) != language:
            self._servers[guild_id] = language
            self._tell(LanguageChange(guild_id=guild_id))

    async def _reread_player(self, user_id: int) -> None:
        language = await self.store.get_player_language(user_id)
        if self._players.get(user_id) != language:
            self._players[user_id] = language
            self._tell(LanguageChange(user_id=user_id))

    def _spawn(self, coro: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # -- reading ---------------------------------------------------------------------------
    async def server_language(self, guild_id: int | None) -> str:
        """The language code of a server's public messages (English outside servers)."""
        if guild_id is None:
            return SOURCE_LANGUAGE
        if guild_id not in self._servers:
            gs = await self.store.get_guild_settings(guild_id)
            self._servers[guild_id] = gs.language
        return public_language(self._servers[guild_id], self._preferred_locale(guild_id))

    async def server(self, guild_id: int | None) -> Translator:
        """The translator of a server's public messages."""
        return translator(await self.server_language(guild_id))

    async def player_language(self, user_id: int, guild_id: int | None) -> str:
        """The language code of a player's private messages about ``guild_id``'s table."""
        if user_id not in self._players:
            self._players[user_id] = await self.store.get_player_language(user_id)
        return private_language(self._players[user_id], self._clients.get(user_id),
                                await self.server_language(guild_id))

    async def player(self, user_id: int, guild_id: int | None) -> Translator:
        """The translator of a player's private messages."""
        return translator(await self.player_language(user_id, guild_id))

    async def reader(self, interaction: Interaction) -> Translator:
        """The translator of the user of an interaction (their private language, the
        interaction's server deciding the fallback); remembers the client's locale."""
        self.seen(interaction)
        return await self.player(interaction.user.id, interaction.guild_id)

    def seen(self, interaction: Interaction) -> None:
        """Remember the client and server locales an interaction reports."""
        client = match_language(str(interaction.locale))
        if client is not None:
            self._clients[interaction.user.id] = client
        if interaction.guild_id is not None and interaction.guild_locale is not None:
            self._guild_locales[interaction.guild_id] = str(interaction.guild_locale)

    def chosen_by_player(self, user_id: int) -> str | None:
        """The player's own choice as last read (None: none, or not read yet)."""
        return self._players.get(user_id)

    def _preferred_locale(self, guild_id: int) -> str | None:
        guild = self.client.get_guild(guild_id)
        if guild is not None:
            return str(guild.preferred_locale)
        return self._guild_locales.get(guild_id)

    # -- changing ------------------------------------------------------------------------
    async def set_server(self, guild_id: int, language: str | None) -> GuildSettings:
        """Store a server's choice (None: back to its Discord locale) and apply it now."""
        gs = await self.store.update_guild_settings(guild_id, {"language": language})
        self._servers[guild_id] = gs.language
        self._tell(LanguageChange(guild_id=guild_id))
        return gs

    async def set_player(self, user_id: int, language: str | None) -> None:
        """Store a player's choice (None: forget it) and apply it now."""
        await self.store.set_player_language(user_id, language)
        self._players[user_id] = language
        self._tell(LanguageChange(user_id=user_id))

    def on_change(self, listener: Callable[[LanguageChange], None]) -> None:
        """Call ``listener`` after every change made through this object."""
        self._listeners.append(listener)

    def _tell(self, change: LanguageChange) -> None:
        for listener in self._listeners:
            try:
                listener(change)
            except Exception:
                log.exception("a language change listener failed")


def said_text(said: Said | str, t: Translator) -> str:
    """A :class:`~bot.i18n.said.Said` (or a plain message id) in ``t``'s language."""
    return said.text(t) if isinstance(said, Said) else t.gettext(said)


class CommandTexts(app_commands.Translator):
    """Slash command names, descriptions and choices in the Discord client languages we
    speak (of ours, Discord has only Indonesian): the catalog's translation of each text
    marked with ``pgettext_noop("command name" | "command description", …)``; no translation
    (English) otherwise. Choice names use the description context (they are shown, not
    typed)."""

    async def translate(self, string: app_commands.locale_str, locale: discord.Locale,
                        context: app_commands.TranslationContextTypes) -> str | None:
        kind = context.location
        name_like = kind in (app_commands.TranslationContextLocation.command_name,
                             app_commands.TranslationContextLocation.group_name,
                             app_commands.TranslationContextLocation.parameter_name)
        return slash_command_text(locale.value, COMMAND_NAME if name_like
                                  else COMMAND_DESCRIPTION, string.message)


AUTO: Final = "auto"
"""The choice that drops an explicit language (the server's Discord locale, or for a
player their client's or the server's language)."""


def language_choices() -> list[app_commands.Choice[str]]:
    """The languages as a slash command offers them: each in itself (never translated),
    then "automatic"."""
    return [*(app_commands.Choice(name=f"{ENDONYMS[code]} ({code})", value=code)
              for code in SUPPORTED),
            app_commands.Choice(name=pgettext_noop(
                "command description", "Automatic (from Discord's language)"), value=AUTO)]


class LanguageCog(commands.Cog, name="PlayerLanguage"):
    """``/language``: a player's own language for their DMs, panels and answers."""

    def __init__(self, languages: Languages) -> None:
        self.languages = languages

    @app_commands.command(
        name=pgettext_noop("command name", "language"),
        description=pgettext_noop("command description",
                                  "The language of your hand, your panels and the bot's DMs"))
    @app_commands.describe(choice=pgettext_noop(
        "command description", "your language; automatic: your Discord language, else the "
                             "server's"))
    @app_commands.rename(choice=pgettext_noop("command name", "language"))
    @app_commands.choices(choice=language_choices())
    async def language(self, interaction: Interaction, choice: str | None = None) -> None:
        async def run() -> Reply:
            user = interaction.user.id
            if choice is None:
                t = await self.languages.reader(interaction)
                return Reply(_overview(t, self.languages.chosen_by_player(user)),
                             ephemeral=True)
            if choice == AUTO:
                await self.languages.set_player(user, None)
                server = await self.languages.server_language(interaction.guild_id)
                t = await self.languages.reader(interaction)
                return Reply(player_language_cleared(t, server), ephemeral=True)
            code = match_language(choice)
            if code is None:  # Discord offers only the choices; a forged value is refused
                t = await self.languages.reader(interaction)
                raise UserError(unknown_language(t, safe_name(quote(choice, 40))))
            await self.languages.set_player(user, code)
            return Reply(player_language_set(translator(code), code), ephemeral=True)

        await answer(interaction, run, t=await self.languages.reader(interaction),
                     private_wait=True)


def _overview(t: Translator, chosen: str | None) -> str:
    lines = [languages_overview(t)]
    if chosen is None:
        lines.append(t.gettext("You have not chosen one: your private messages are in "
                               "{language}, from your Discord language or the server's.")
                     .format(language=t.language_name(t.language)))
    else:
        lines.append(t.gettext("Your language: {language}.").format(
            language=t.language_name(chosen)))
    # Translators: {command} is a command (/language) shown as a link.
    lines.append(t.gettext("Choose another with {command}.").format(
        command=command("language", t)))
    return "\n".join(lines)
