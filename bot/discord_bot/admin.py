"""``/settings`` (Manage Server) and the owner-only ``/admin sync``."""

from __future__ import annotations

import logging

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord_bot.answer import Reply, UserError, answer
from bot.discord_bot.hub import TableHub
from bot.settings import Settings
from storage import GuildSettings, Store

log = logging.getLogger(__name__)

Interaction = discord.Interaction[discord.Client]


def settings_text(gs: GuildSettings) -> str:
    return (f"Turn timeout: **{gs.turn_timeout} s** · AI pace: **{gs.ai_pace} s** · "
            f"Images: **{'on' if gs.images else 'off'}** · Matches with AI players count "
            f"for ratings: **{'yes' if gs.ai_matches_rated else 'no'}**.\n"
            "New tables use these settings.")


class AdminCog(commands.Cog, name="AdminCog"):
    """Guild settings and command syncing."""

    admin = app_commands.Group(name="admin", description="Bot administration (owner only)",
                               default_permissions=discord.Permissions(manage_guild=True))
    """Shown to members with Manage Server only; ``/admin sync`` is owner-checked too."""

    def __init__(self, bot: commands.Bot, settings: Settings, store: Store,
                 hub: TableHub | None) -> None:
        self.bot, self.settings, self.store, self.hub = bot, settings, store, hub

    @app_commands.command(name="settings", description="This server's table settings")
    @app_commands.guild_only()
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.describe(turn_timeout="seconds a player has to act before an AI plays for them",
                           ai_pace="seconds an AI player waits before it plays",
                           images="draw the table and hands as pictures",
                           ai_matches_rated="whether matches with AI players count for "
                                            "ratings")
    async def settings_command(self, interaction: Interaction,
                               turn_timeout: app_commands.Range[int, 10, 86400] | None = None,
                               ai_pace: app_commands.Range[float, 0.0, 30.0] | None = None,
                               images: bool | None = None,
                               ai_matches_rated: bool | None = None) -> None:
        async def run() -> Reply:
            if not interaction.permissions.manage_guild or interaction.guild_id is None:
                raise UserError("Changing the settings needs the Manage Server permission.")
            changes: dict[str, object] = {}
            for key, value in (("turn_timeout", turn_timeout), ("ai_pace", ai_pace),
                               ("images", images), ("ai_matches_rated", ai_matches_rated)):
                if value is not None:
                    changes[key] = float(value) if key == "ai_pace" else value
            if changes:
                gs = await self.store.update_guild_settings(interaction.guild_id, changes)
                if self.hub is not None:
                    self.hub.forget_guild_settings(interaction.guild_id)
                head = "Settings changed. "
            else:
                gs = await self.store.get_guild_settings(interaction.guild_id)
                head = ""
            return Reply(head + settings_text(gs), ephemeral=True)
        await answer(interaction, run, private_wait=True,
                     defer_after=self.settings.defer_after)

    @admin.command(name="sync", description="Publish the slash commands (bot owner only)")
    @app_commands.describe(here="sync to this server only (instant) instead of globally")
    async def sync(self, interaction: Interaction, here: bool = False) -> None:
        async def run() -> Reply:
            owners = self.settings.owner_ids
            allowed = (interaction.user.id in owners if owners
                       else await self.bot.is_owner(interaction.user))
            if not allowed:
                raise UserError("Only the bot's owner can sync commands.")
            guild = interaction.guild if here and interaction.guild is not None else None
            if guild is not None:
                self.bot.tree.copy_global_to(guild=guild)
            synced = await self.bot.tree.sync(guild=guild)
            where = (f"this server ({guild.id})" if guild is not None
                     else "every server (global)")
            log.info("synced %d commands to %s", len(synced), where)
            return Reply(f"Synced {len(synced)} commands to {where}.", ephemeral=True)
        await answer(interaction, run, defer_after=0, private_wait=True)
