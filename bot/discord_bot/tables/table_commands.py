"""``/table …``, ``/hand`` and ``/rules``: thin slash commands over the table service.

Each command parses and checks its options, calls the service (through
:class:`~bot.discord_bot.tables.clicks.TableClicks` where a click does the same) and answers
through :mod:`bot.discord_bot.answer`. The public message itself belongs to the table's
presenter; ``/table new`` posts it as the command's answer and hands it over.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Awaitable, Callable

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord_bot.answer import Reply, UserError, answer, refuse
from bot.discord_bot.drawing.rules_texts import options_embeds, rules_embeds
from bot.discord_bot.drawing.safe import safe_name
from bot.discord_bot.drawing.texts import clip
from bot.discord_bot.ranges import in_range
from bot.discord_bot.router import AbandonButton
from bot.discord_bot.table_hub import TableHub
from bot.discord_bot.tables.clicks import NOT_HOST_CLOSE, NOT_HOST_START, TableClicks
from bot.discord_bot.tables.presenter import PublicDrawing, TablePresenter
from bot.discord_bot.tables.web_table import NO_VIEW, NO_WEB, opener_of
from bot.i18n import N_, Translator, pgettext_noop
from bot.i18n.commands import Command, command
from bot.i18n.said import engine_said
from bot.service import LobbyError, NoSuchTable
from bot.words.players import level_name
from games.ai import PLAYABLE_LEVELS
from games.base import GameInfo
from games.errors import RecordError, quote
from games.records import load_json
from games.registry import GAMES
from storage import ChannelLocation

Interaction = discord.Interaction[discord.Client]

GAME_CHOICES = [app_commands.Choice(name=info.title, value=name)
                for name, info in GAMES.items()]


# Translators: {command} is a command (/table new) shown as a link.
NO_TABLE_HERE = N_("There is no open table in this channel: {command} opens one.")
UNKNOWN_GAME = N_("Unknown game {game}.")
NOT_HOST_SEATS = N_("Only the host or a member with Manage Server can change the seats.")


def _here(interaction: Interaction) -> ChannelLocation:
    if interaction.guild_id is None or interaction.channel_id is None:
        raise UserError(N_("Tables are played in server channels."))
    return ChannelLocation(interaction.guild_id, interaction.channel_id)


def _can_manage(interaction: Interaction) -> bool:
    perms = interaction.permissions
    return bool(perms and perms.manage_guild)


def _name(user: discord.User | discord.Member) -> str:
    return getattr(user, "display_name", None) or user.name


def private(text: str) -> Reply:
    return Reply(clip(text), ephemeral=True)


class TableCommands(commands.Cog, name="TableCommands"):
    """Tables in channels (see the module docstring)."""

    table = app_commands.Group(
        name=pgettext_noop("command name", "table"),
        description=pgettext_noop("command description", "Card tables in this channel"),
        guild_only=True)

    def __init__(self, hub: TableHub, clicks: TableClicks) -> None:
        self.hub = hub
        self.clicks = clicks
        self.service = hub.service

    async def _reader(self, interaction: Interaction) -> Translator:
        return await self.hub.languages.reader(interaction)

    async def _table_here(self, interaction: Interaction) -> TablePresenter:
        table_id = self.service.find(_here(interaction))
        if table_id is None:
            raise UserError(NO_TABLE_HERE, command=Command("table new"))
        return await self.clicks.presenter(table_id)

    async def _answer(self, interaction: Interaction, t: Translator,
                      run: Callable[[], Awaitable[Reply | None]]) -> None:
        """A private answer with the bot's defer policy."""
        await answer(interaction, run, t=t, private_wait=True,
                     defer_after=self.hub.settings.defer_after)

    @table.command(name=pgettext_noop("command name", "new"),
                   description=pgettext_noop("command description",
                                             "Open a table (a lobby) in this channel"))
    @app_commands.describe(
        game=pgettext_noop("command description", "the game"),
        options=pgettext_noop("command description", 'rule options as JSON, e.g. {"target": 1}'),
        players=pgettext_noop("command description",
                              "number of players, where the game allows several"))
    @app_commands.rename(game=pgettext_noop("command name", "game"),
                         options=pgettext_noop("command name", "options"),
                         players=pgettext_noop("command name", "players"))
    @app_commands.choices(game=GAME_CHOICES)
    async def table_new(self, interaction: Interaction, game: str,
                        options: str | None = None,
                        players: app_commands.Range[int, 2, 6] | None = None) -> None:
        t = await self._reader(interaction)
        try:
            opts = await self._check_new(interaction, game, options, players)
        except UserError as exc:
            await refuse(interaction, exc.said.text(t))
            return
        shown: list[tuple[TablePresenter, PublicDrawing]] = []
        user = interaction.user

        async def run() -> Reply | None:
            table_id = await self.service.create_table(_here(interaction), game,
                                                       options=opts, players=players)
            presenter = await self.clicks.presenter(table_id)
            presenter.creator = user.id
            await presenter.save(creator=user.id)
            with contextlib.suppress(LobbyError):
                await self.service.join(table_id, user.id, _name(user))
            drawing = await presenter.drawing()
            if drawing is None:
                return None
            shown.append((presenter, drawing))
            return drawing.reply(False)

        msg = await answer(interaction, run, t=t, defer_after=0)
        if shown and msg is not None:
            presenter, drawing = shown[0]
            presenter.shown(drawing, msg.id)
            await presenter.save(message_id=msg.id)
            presenter.live.mark()  # a picture, or a change made meanwhile

    async def _check_new(self, interaction: Interaction, game: str, options: str | None,
                         players: int | None) -> dict[str, object]:
        info = GAMES.get(game)
        if info is None:  # Discord offers only GAME_CHOICES; a forged name is quoted clipped
            raise UserError(UNKNOWN_GAME, game=safe_name(quote(game)))
        existing = self.service.find(_here(interaction))
        if existing is not None:
            presenter = await self.hub.ensure(existing)
            if presenter is not None:
                raise UserError(N_("There is already a table in this channel: {link}"),
                                link=presenter.link())
            raise UserError(N_("There is already a table in this channel."))
        return checked_options(info, options, players)

    @table.command(name=pgettext_noop("command name", "join"),
                   description=pgettext_noop("command description",
                                             "Take a seat at the table in this channel"))
    async def table_join(self, interaction: Interaction) -> None:
        t = await self._reader(interaction)

        async def run() -> Reply:
            p = await self._table_here(interaction)
            seat = await self.service.join(p.table_id, interaction.user.id,
                                           _name(interaction.user))
            return private(t.gettext("You sit at seat {seat}.").format(seat=seat))
        await self._answer(interaction, t, run)

    @table.command(name=pgettext_noop("command name", "leave"),
                   description=pgettext_noop("command description",
                                             "Leave the lobby in this channel"))
    async def table_leave(self, interaction: Interaction) -> None:
        t = await self._reader(interaction)

        async def run() -> Reply:
            p = await self._table_here(interaction)
            await self.service.leave(p.table_id, interaction.user.id)
            return private(t.gettext("You left the table."))
        await self._answer(interaction, t, run)

    @table.command(name=pgettext_noop("command name", "start"),
                   description=pgettext_noop("command description",
                                             "Start the match (host or Manage Server)"))
    async def table_start(self, interaction: Interaction) -> None:
        t = await self._reader(interaction)

        async def run() -> Reply:
            p = await self._table_here(interaction)
            self.clicks.check_host(p, interaction.user.id, _can_manage(interaction),
                                   NOT_HOST_START)
            await self.service.start_match(p.table_id)
            return private(t.gettext("The match has started: {link}").format(link=p.link()))
        await self._answer(interaction, t, run)

    @table.command(name=pgettext_noop("command name", "ai"),
                   description=pgettext_noop("command description",
                                             "Seat an AI player of a level, at a chosen seat"))
    @app_commands.describe(
        level=pgettext_noop("command description",
                            "random, rules (sound habits) or search (the strongest)"),
        seat=pgettext_noop("command description", "the seat (default: the first free one)"))
    @app_commands.rename(level=pgettext_noop("command name", "level"),
                         seat=pgettext_noop("command name", "seat"))
    @app_commands.choices(level=[app_commands.Choice(name=n, value=n)
                                 for n in PLAYABLE_LEVELS])
    async def table_ai(self, interaction: Interaction, level: str = "rules",
                       seat: app_commands.Range[int, 0, 5] | None = None) -> None:
        t = await self._reader(interaction)

        async def run() -> Reply:
            p = await self._table_here(interaction)
            taken = await self.service.add_ai(p.table_id, level, seat)
            p.live.mark()
            return private(t.gettext("An AI ({level}) sits at seat {seat}.").format(
                level=level_name(level, t), seat=taken))
        await self._answer(interaction, t, run)

    @table.command(name=pgettext_noop("command name", "remove"),
                   description=pgettext_noop("command description",
                                             "Empty a seat of the lobby (host or Manage "
                                             "Server)"))
    @app_commands.describe(seat=pgettext_noop("command description",
                                              "the seat number shown in the lobby"))
    @app_commands.rename(seat=pgettext_noop("command name", "seat"))
    async def table_remove(self, interaction: Interaction,
                           seat: app_commands.Range[int, 0, 5]) -> None:
        t = await self._reader(interaction)

        async def run() -> Reply:
            p = await self._table_here(interaction)
            if interaction.user.id != p.creator and not _can_manage(interaction):
                raise UserError(NOT_HOST_SEATS)
            in_range(seat, 0, len(self.service.info(p.table_id).seats) - 1, "seat")
            await self.service.clear_seat(p.table_id, seat)
            return private(t.gettext("Seat {seat} is free.").format(seat=seat))
        await self._answer(interaction, t, run)

    @table.command(name=pgettext_noop("command name", "arrange"),
                   description=pgettext_noop("command description",
                                             "Rearrange the seats (and so the teams)"))
    @app_commands.describe(order=pgettext_noop(
        "command description", "who sits where: e.g. '0 2 1 3' swaps seats 1 and 2"))
    @app_commands.rename(order=pgettext_noop("command name", "order"))
    async def table_arrange(self, interaction: Interaction, order: str) -> None:
        t = await self._reader(interaction)

        async def run() -> Reply:
            p = await self._table_here(interaction)
            if interaction.user.id != p.creator and not _can_manage(interaction):
                raise UserError(NOT_HOST_SEATS)
            try:
                seats = [int(x) for x in order.replace(",", " ").split()]
            except ValueError:
                raise UserError(N_("Write the order as seat numbers, e.g. {example}."),
                                example="`0 2 1 3`") from None
            await self.service.arrange(p.table_id, seats)
            return private(t.gettext("The seats are rearranged."))
        await self._answer(interaction, t, run)

    @table.command(name=pgettext_noop("command name", "status"),
                   description=pgettext_noop("command description",
                                             "Where the table in this channel stands"))
    async def table_status(self, interaction: Interaction) -> None:
        t = await self._reader(interaction)

        async def run() -> Reply:
            p = await self._table_here(interaction)
            drawing = await p.drawing()
            text = (drawing.content if drawing is not None
                    else t.gettext("The table is closed."))
            return private(f"{text}\n{p.link()}")
        await self._answer(interaction, t, run)

    @table.command(name=pgettext_noop("command name", "abandon"),
                   description=pgettext_noop("command description",
                                             "Close the table without a result"))
    async def table_abandon(self, interaction: Interaction) -> None:
        t = await self._reader(interaction)

        async def run() -> Reply:
            p = await self._table_here(interaction)
            self.clicks.check_host(p, interaction.user.id, _can_manage(interaction),
                                   NOT_HOST_CLOSE)
            view = discord.ui.View(timeout=None)
            view.add_item(AbandonButton(p.table_id,
                                        label=clip(t.gettext("Yes, close the table"), 80),
                                        style=discord.ButtonStyle.danger))
            return Reply(t.gettext("Close this table without a result? Nothing of the match "
                                   "will count."), view=view, ephemeral=True)
        await self._answer(interaction, t, run)

    @table.command(name=pgettext_noop("command name", "open"),
                   description=pgettext_noop("command description",
                                             "Open the table in this channel as an Activity "
                                             "(or in your browser)"))
    async def table_open(self, interaction: Interaction) -> None:
        t = await self._reader(interaction)
        opener = opener_of(interaction.client)
        try:
            if opener is None:
                raise UserError(NO_WEB)
            p = await self._table_here(interaction)
        except UserError as exc:
            await refuse(interaction, exc.said.text(t))
            return
        await opener.open(interaction, p.table_id)

    @table.command(name=pgettext_noop("command name", "watch"),
                   description=pgettext_noop("command description",
                                             "A private link to watch the table in this "
                                             "channel in your browser"))
    async def table_watch(self, interaction: Interaction) -> None:
        """Anyone who can see the channel (checked here: ``TableOpener.may_watch``): a
        **Watch** link of the web table's public view, signed for them
        (:meth:`~bot.discord_bot.tables.web_table.TableOpener.watch`), privately."""
        t = await self._reader(interaction)
        opener = opener_of(interaction.client)

        async def run() -> Reply:
            if opener is None:
                raise UserError(NO_WEB)
            p = await self._table_here(interaction)
            if not await opener.may_watch(p.table_id, interaction.user.id):
                raise UserError(NO_VIEW)
            text, view = opener.watch(p.table_id, interaction.user.id, t)
            return Reply(text, view=view, ephemeral=True)
        await self._answer(interaction, t, run)

    @table.command(name=pgettext_noop("command name", "export"),
                   description=pgettext_noop("command description",
                                             "The match record as a JSON file"))
    async def table_export(self, interaction: Interaction) -> None:
        t = await self._reader(interaction)

        async def run() -> Reply:
            where = _here(interaction)
            table_id = self.service.find(where)
            if table_id is None:
                table_id = self.hub.last_table.get(where.channel_id)
            if table_id is None:
                raise UserError(N_("There is no table to export in this channel."))
            record = await self.service.record(table_id)
            try:
                info = self.service.info(table_id)
            except NoSuchTable:
                info = None
            if info is not None and info.status == "playing":
                # The deal in progress stays secret: only the completed deals are exported.
                record = {**record, "deals": list(record.get("deals", []))[:info.deal]}
            deals = len(record.get("deals", []))
            if deals == 0:  # a record without deals is no record (docs/records.md)
                raise UserError(N_("No deal of table {table} is finished yet: there is "
                                   "nothing to export."), table=table_id)
            data = json.dumps(record, indent=1, ensure_ascii=False).encode()
            text = t.ngettext("The record of table {table} ({count} deal).",
                              "The record of table {table} ({count} deals).", deals)
            return Reply(text.format(table=table_id, count=t.number(deals)),
                         files=[(f"table-{table_id}.json", data)], ephemeral=True)
        await answer(interaction, run, t=t, defer_after=0, private_wait=True)

    @table.command(name=pgettext_noop("command name", "options"),
                   description=pgettext_noop("command description",
                                             "The rule options in force at this table"))
    async def table_options(self, interaction: Interaction) -> None:
        t = await self._reader(interaction)

        async def run() -> Reply:
            p = await self._table_here(interaction)
            info = self.service.info(p.table_id)
            return Reply(embeds=options_embeds(info.game, info.options, t), ephemeral=True)
        await self._answer(interaction, t, run)

    @app_commands.command(name=pgettext_noop("command name", "hand"),
                          description=pgettext_noop("command description",
                                                    "Your hand and your choices (private)"))
    @app_commands.guild_only()
    async def hand(self, interaction: Interaction) -> None:
        table_id = self.service.find(_here(interaction)) if interaction.guild_id else None
        if table_id is None:
            t = await self._reader(interaction)
            await refuse(interaction, t.gettext(NO_TABLE_HERE).format(
                command=command("table new", t)))
            return
        await self.clicks.show_hand(interaction, table_id, interaction.user.id, update=False)

    @app_commands.command(name=pgettext_noop("command name", "rules"),
                          description=pgettext_noop("command description",
                                                    "A game's rules in brief, with its options"))
    @app_commands.describe(game=pgettext_noop("command description", "the game"))
    @app_commands.rename(game=pgettext_noop("command name", "game"))
    @app_commands.choices(game=GAME_CHOICES)
    async def rules(self, interaction: Interaction, game: str) -> None:
        t = await self._reader(interaction)
        if game not in GAMES:
            await refuse(interaction, t.gettext(UNKNOWN_GAME).format(game=safe_name(quote(game))))
            return

        async def run() -> Reply:
            return Reply(embeds=rules_embeds(game, t), ephemeral=True)
        await answer(interaction, run, t=t, defer_after=self.hub.settings.defer_after)


__all__ = ["TableCommands"]


def checked_options(info: GameInfo, options: str | None, players: int | None
                    ) -> dict[str, object]:
    """The rule options a member typed as JSON (``/table new options:``, ``/duplicate
    create options:``), checked by the engine for ``players``: a :class:`UserError` with a
    clear sentence otherwise."""
    try:
        opts = load_json(options) if options else {}
    except RecordError as exc:  # bad syntax, too deep, a number of thousands of digits
        raise UserError(N_("Those options cannot be read: {problem}."),
                        problem=str(exc)) from None
    if not isinstance(opts, dict):
        raise UserError(N_('Those options are not valid JSON: options must be a JSON '
                           'object, e.g. {example}'), example='`{"target": 1}`')
    if players is not None and players not in info.player_counts:
        # Translators: {counts} lists the game's player counts, e.g. "2, 3, 4".
        raise UserError(N_("{game} is played by {counts} players."), game=info.title,
                        counts=", ".join(map(str, info.player_counts)))
    try:
        info.match_type(opts, players, 0, seed="check")
    except Exception as exc:  # the engine's reason, in the reader's language
        raise UserError(N_("Those options do not work: {problem}"),
                        problem=engine_said(exc)) from None
    return opts
