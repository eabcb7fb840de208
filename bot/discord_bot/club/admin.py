"""``/settings`` (Manage Server) and the owner-only ``/admin sync`` and ``/admin status``
(the bot's use of Discord's REST budget: ``bot/discord_bot/rest_budget.py``)."""

from __future__ import annotations

import logging
import math

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord_bot.answer import Reply, UserError, answer
from bot.discord_bot.languages import AUTO, Languages, language_choices
from bot.discord_bot.ranges import in_range
from bot.discord_bot.rest_budget import (
    LIVE,
    PANELS,
    PER_DEAL,
    PER_TRICK,
    BudgetReport,
    process_budget,
)
from bot.discord_bot.table_hub import TableHub
from bot.i18n import N_, Translator, pgettext_noop
from bot.i18n.messages import language_setting_label, server_language_set
from bot.setting_ranges import (
    AI_PACE_MAX,
    AI_PACE_MIN,
    TURN_TIMEOUT_MAX,
    TURN_TIMEOUT_MIN,
    in_force,
)
from bot.settings import Settings
from storage import GuildSettings, Store

log = logging.getLogger(__name__)

Interaction = discord.Interaction[discord.Client]


NEEDS_MANAGE = N_("Changing the settings needs the Manage Server permission.")


def _seconds(t: Translator, value: float) -> str:
    """A stored number of seconds as the reader writes numbers; one outside what a
    setting allows (stored by older code) is still shown, never an error."""
    if not math.isfinite(value) or abs(value) > TURN_TIMEOUT_MAX:
        return f"{value:g}"
    return t.number(value)


def settings_text(gs: GuildSettings, t: Translator, language: str) -> str:
    """The server's settings in ``t``'s language; ``language``: the public language now in
    force (chosen, or from the server's Discord locale when ``gs.language`` is None)."""
    name = t.language_name(language)
    shown = (name if gs.language is not None
             else t.gettext("{language} (from the server's Discord language)").format(
                 language=name))
    return t.gettext(
        "Turn timeout: **{timeout} s** · AI pace: **{pace} s** · Images: **{images}** · "
        "Matches with AI players count for ratings: **{rated}** · {label}: **{language}**.\n"
        "New tables use these settings; the language applies at once."
    ).format(timeout=_seconds(t, gs.turn_timeout), pace=_seconds(t, gs.ai_pace),
             images=t.gettext("on") if gs.images else t.gettext("off"),
             rated=t.gettext("yes") if gs.ai_matches_rated else t.gettext("no"),
             label=language_setting_label(t), language=shown)


class AdminCog(commands.Cog, name="AdminCog"):
    """Guild settings and command syncing."""

    admin = app_commands.Group(name=pgettext_noop("command name", "admin"),
                               description=pgettext_noop("command description",
                                                         "Bot administration (owner only)"),
                               default_permissions=discord.Permissions(manage_guild=True))
    """Shown to members with Manage Server only; ``/admin sync`` is owner-checked too."""

    def __init__(self, bot: commands.Bot, settings: Settings, store: Store,
                 hub: TableHub | None, languages: Languages) -> None:
        self.bot, self.settings, self.store, self.hub = bot, settings, store, hub
        self.languages = languages

    @app_commands.command(name=pgettext_noop("command name", "settings"),
                          description=pgettext_noop("command description",
                                                    "This server's table settings"))
    @app_commands.guild_only()
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.describe(
        turn_timeout=pgettext_noop("command description",
                                   "seconds a player has to act before an AI plays for them"),
        ai_pace=pgettext_noop("command description", "seconds an AI player waits before it plays"),
        images=pgettext_noop("command description", "draw the table and hands as pictures"),
        ai_matches_rated=pgettext_noop("command description",
                                       "whether matches with AI players count for ratings"),
        language=pgettext_noop("command description",
                               "the language of public messages (lobby, table, results, "
                               "leagues)"))
    @app_commands.rename(turn_timeout=pgettext_noop("command name", "turn_timeout"),
                         ai_pace=pgettext_noop("command name", "ai_pace"),
                         images=pgettext_noop("command name", "images"),
                         ai_matches_rated=pgettext_noop("command name", "ai_matches_rated"),
                         language=pgettext_noop("command name", "language"))
    @app_commands.choices(language=language_choices())
    async def settings_command(self, interaction: Interaction,
                               turn_timeout: app_commands.Range[
                                   int, TURN_TIMEOUT_MIN, TURN_TIMEOUT_MAX] | None = None,
                               ai_pace: app_commands.Range[
                                   float, AI_PACE_MIN, AI_PACE_MAX] | None = None,
                               images: bool | None = None,
                               ai_matches_rated: bool | None = None,
                               language: str | None = None) -> None:
        async def run() -> Reply:
            guild_id = interaction.guild_id
            if not interaction.permissions.manage_guild or guild_id is None:
                raise UserError(NEEDS_MANAGE)
            if turn_timeout is not None:
                in_range(turn_timeout, TURN_TIMEOUT_MIN, TURN_TIMEOUT_MAX, "turn_timeout")
            if ai_pace is not None:
                in_range(ai_pace, AI_PACE_MIN, AI_PACE_MAX, "ai_pace")
            changes: dict[str, object] = {}
            for key, value in (("turn_timeout", turn_timeout), ("ai_pace", ai_pace),
                               ("images", images), ("ai_matches_rated", ai_matches_rated)):
                if value is not None:
                    changes[key] = float(value) if key == "ai_pace" else value
            head: list[str] = []
            if changes:
                await self.store.update_guild_settings(guild_id, changes)
                if self.hub is not None:
                    self.hub.forget_guild_settings(guild_id)
            if language is not None:
                await self.languages.set_server(guild_id, None if language == AUTO
                                                else language)
            gs = in_force(await self.store.get_guild_settings(guild_id))
            now = await self.languages.server_language(guild_id)
            # The answer is in the reader's language; a new server language is announced
            # in that language too (it is what the channel will read from now on).
            t = await self.languages.reader(interaction)
            if language is not None and language != AUTO:
                head.append(server_language_set(await self.languages.server(guild_id), now))
            if changes or language is not None:
                head.append(t.gettext("Settings changed."))
            return Reply("\n".join([*head, settings_text(gs, t, now)]), ephemeral=True)
        await answer(interaction, run, t=await self.languages.reader(interaction),
                     private_wait=True, defer_after=self.settings.defer_after)

    @admin.command(name=pgettext_noop("command name", "sync"),
                   description=pgettext_noop("command description",
                                             "Publish the slash commands (bot owner only)"))
    @app_commands.describe(here=pgettext_noop(
        "command description", "sync to this server only (instant) instead of globally"))
    @app_commands.rename(here=pgettext_noop("command name", "here"))
    async def sync(self, interaction: Interaction, here: bool = False) -> None:
        t = await self.languages.reader(interaction)

        async def run() -> Reply:
            if not await self._owner(interaction):
                raise UserError(N_("Only the bot's owner can sync commands."))
            guild = interaction.guild if here and interaction.guild is not None else None
            if guild is not None:
                self.bot.tree.copy_global_to(guild=guild)
            synced = await self.bot.tree.sync(guild=guild)
            log.info("synced %d commands to %s", len(synced),
                     "global" if guild is None else guild.id)
            text = (t.ngettext("Synced {count} command to this server.",
                               "Synced {count} commands to this server.", len(synced))
                    if guild is not None else
                    t.ngettext("Synced {count} command to every server (global).",
                               "Synced {count} commands to every server (global).",
                               len(synced)))
            return Reply(text.format(count=t.number(len(synced))), ephemeral=True)
        await answer(interaction, run, t=t, defer_after=0, private_wait=True)

    async def _owner(self, interaction: Interaction) -> bool:
        """Whether the user is the bot's owner (``TRICKTABLE_OWNER_IDS``, else the
        application's owners as Discord reports them)."""
        owners = self.settings.owner_ids
        return (interaction.user.id in owners if owners
                else await self.bot.is_owner(interaction.user))

    @admin.command(name=pgettext_noop("command name", "status"),
                   description=pgettext_noop(
                       "command description",
                       "How close the bot runs to Discord's request limit (bot owner only)"))
    async def status(self, interaction: Interaction) -> None:
        t = await self.languages.reader(interaction)

        async def run() -> Reply:
            if not await self._owner(interaction):
                raise UserError(N_("Only the bot's owner can see the bot's status."))
            return Reply(budget_text(process_budget().report(), t), ephemeral=True)
        await answer(interaction, run, t=t, defer_after=self.settings.defer_after,
                     private_wait=True)


LEVEL_TEXTS: dict[int, str] = {
    LIVE: N_("Table messages are edited as the cards are played."),
    PER_TRICK: N_("Table messages are edited once per trick, to save requests."),
    PER_DEAL: N_("Table messages are edited once per deal, to save requests."),
    PANELS: N_("Table messages are edited once per deal, and the panels of players who "
               "are not to act wait their turn: the bot is at its budget. The player to "
               "act always gets their controls at once."),
}


def budget_text(report: BudgetReport, t: Translator) -> str:
    """``/admin status``: the bot's use of Discord's REST budget, for its owner."""
    per_second = N_("{count} requests per second")

    def rate(value: float) -> str:
        return t.gettext(per_second).format(count=t.number(value, decimals=1))

    lines = [
        t.gettext("**Discord's request budget** (Discord allows 50 requests per second "
                  "per bot; this bot keeps to {budget}).").format(budget=rate(report.budget)),
        t.ngettext("The bot's {count} process made {rate} (last reading).",
                   "The bot's {count} processes made {rate} (last reading).",
                   report.processes).format(count=t.number(report.processes),
                                            rate=rate(report.bot_made)),
        t.gettext("This process made {rate} over the last minute; its share now is "
                  "{share}.").format(rate=rate(report.made), share=rate(report.share)),
        t.gettext(LEVEL_TEXTS[report.level]),
        t.ngettext("Since it started, {count} request waited for room in the budget.",
                   "Since it started, {count} requests waited for room in the budget.",
                   report.waited).format(count=t.number(report.waited)),
    ]
    if report.global_429s:
        lines.append(t.ngettext(
            "⚠️ Discord refused {count} request for the bot's global limit.",
            "⚠️ Discord refused {count} requests for the bot's global limit.",
            report.global_429s).format(count=t.number(report.global_429s)))
    return "\n".join(lines)
