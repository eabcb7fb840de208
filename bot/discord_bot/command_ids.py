"""The application commands' ids, so that sentences can mention commands.

A sentence that names a command (``bot.i18n.commands.Command``) is written with a command
mention, ``</league join:123>``: every Discord client shows it clickable and in its own
language (Indonesian clients read ``/liga gabung``). A mention needs the id Discord gave
the top-level command when it was synced. :class:`CommandTree` keeps them: it learns
them from every :meth:`~CommandTree.sync` (``tricktable sync``, ``/admin sync``) and, at
start-up, from Discord's list of the application's global commands
(:meth:`~CommandTree.learn_ids`); until then, or for a command Discord does not have,
sentences show the plain ``/name``.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import Any

import discord
from discord import app_commands

log = logging.getLogger(__name__)


def command_paths(command: app_commands.AppCommand) -> list[str]:
    """Every path a synced command answers to: ``league``, ``league join``,
    ``league team add`` … (its subcommands and groups, from the synced options)."""
    paths = [command.name]
    stack: list[Any] = list(command.options)
    while stack:
        option = stack.pop()
        if isinstance(option, app_commands.AppCommandGroup):
            paths.append(option.qualified_name)
            stack.extend(option.options)
    return paths


class CommandTree(app_commands.CommandTree[Any]):
    """discord.py's command tree that remembers the ids of the synced commands."""

    def __init__(self, client: discord.Client, **options: Any) -> None:
        super().__init__(client, **options)
        self.command_ids: dict[str, int] = {}
        """Command path → the id of its top-level command."""

    def remember(self, synced: Iterable[app_commands.AppCommand], *,
                 guild_only: bool = False) -> None:
        """Keep the ids of ``synced``; ``guild_only``: commands synced to one guild (a
        test server), whose ids only fill in commands that have no global id."""
        for command in synced:
            for path in command_paths(command):
                if guild_only:
                    self.command_ids.setdefault(path, command.id)
                else:
                    self.command_ids[path] = command.id

    def mention(self, path: str) -> str | None:
        """``</league join:123>`` for a command path Discord has; None otherwise."""
        command_id = self.command_ids.get(path)
        return None if command_id is None else f"</{path}:{command_id}>"

    async def sync(self, *, guild: discord.abc.Snowflake | None = None
                   ) -> list[app_commands.AppCommand]:
        synced = await super().sync(guild=guild)
        self.remember(synced, guild_only=guild is not None)
        return synced

    async def learn_ids(self) -> None:
        """Ask Discord for the application's global commands and remember their ids (a
        failure is logged: sentences then show plain command names)."""
        try:
            self.remember(await self.fetch_commands())
        except (discord.HTTPException, app_commands.MissingApplicationID):
            log.warning("could not fetch the application commands: sentences name "
                        "commands without mentions", exc_info=True)
