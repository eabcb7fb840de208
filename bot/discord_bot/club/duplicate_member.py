"""The members' ``/duplicate`` commands: ``list``, ``status`` (counts only, nothing of a
board), ``enter`` alone or as a pair, ``confirm`` the pair, ``play`` the next board (or the
one under way, or a named one) at a table in a private thread of the entrant's own, or meet
another pair at one table (``against``), and the duplicate ``leaderboard``.
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from typing import Any

import discord
from discord import app_commands

from bot.discord_bot.club.club_common import ClubError, Reply, guild_of
from bot.discord_bot.club.club_texts import clip
from bot.discord_bot.club.duplicate_base import (
    DUPLICATE,
    EVENT_HELP,
    EVENT_NAME,
    GAME_CHOICES,
    DuplicateCommandBase,
    event_line,
    event_option,
)
from bot.discord_bot.drawing.safe import safe_name
from bot.duplicate.service import PlayStart
from bot.duplicate.text import percent_text, rules_line
from bot.i18n import N_, Translator, pgettext_noop
from bot.i18n.commands import command
from storage import ChannelLocation
from storage.duplicate import DuplicateEntrant, DuplicateEvent
from storage.models import Location


class MemberCommands(DuplicateCommandBase):
    """Every member's ``/duplicate`` commands, and the places and names their tables get."""

    @DUPLICATE.command(name=pgettext_noop("command name", "list"),
                       description=pgettext_noop("command description",
                                                 "The duplicate events of this server"))
    async def list_events(self, interaction: discord.Interaction[Any]) -> None:
        async def work(t: Translator) -> Reply:
            events = await self.service.list_events(guild_of(interaction))
            if not events:
                return Reply(t.gettext("No duplicate event yet."))
            return Reply("\n".join(event_line(e, t) for e in events[:20]))
        await self._private(interaction, work)

    @DUPLICATE.command(name=pgettext_noop("command name", "status"),
                       description=pgettext_noop("command description",
                                                 "How far a duplicate event is"))
    @event_option
    async def status(self, interaction: discord.Interaction[Any],
                     event: int | None = None) -> None:
        async def work(t: Translator) -> Reply:
            chosen = await self._event(interaction, event)
            got = await self.service.status(chosen.id, chosen.guild_id, interaction.user.id)
            done = sum(got.finished.values())
            # Translators: {entrants} entrants have finished {done} boards in all.
            lines = [event_line(chosen, t), rules_line(chosen.game, chosen.options, t),
                     t.gettext(
                "Entrants: {entrants}; boards finished in all: {done}").format(
                entrants=t.number(got.entrants), done=t.number(done))]
            if got.mine is not None:
                lines.append(t.gettext("Boards you have finished: {done} of {boards}.").format(
                    done=t.number(len(got.my_finished)), boards=t.number(chosen.boards)))
            return Reply("\n".join(lines))
        await self._private(interaction, work)

    @DUPLICATE.command(name=pgettext_noop("command name", "enter"),
                       description=pgettext_noop("command description",
                                                 "Enter a duplicate event, alone or as a pair"))
    @app_commands.describe(event=EVENT_HELP,
                           partner=pgettext_noop("command description",
                                                 "Your partner (they confirm)"))
    @app_commands.rename(event=EVENT_NAME,
                         partner=pgettext_noop("command name", "partner"))
    async def enter(self, interaction: discord.Interaction[Any], event: int | None = None,
                    partner: discord.User | None = None) -> None:
        async def work(t: Translator) -> Reply:
            chosen = await self._event(interaction, event)
            if partner is not None and partner.bot:
                raise ClubError(N_("your partner must be a member, not a bot"))
            entrant = await self.service.enter(
                chosen.id, chosen.guild_id, interaction.user.id, interaction.user.display_name,
                None if partner is None else (partner.id, partner.display_name))
            if partner is None:
                return Reply(t.gettext("You are entered in {event} as {name}.").format(
                    event=safe_name(chosen.name), name=safe_name(entrant.name)))
            # Translators: {partner} is a mention; {command} a command.
            return Reply(t.gettext("You are entered in {event} with {partner}, who confirms "
                                   "with {command}.").format(
                event=safe_name(chosen.name), partner=f"<@{partner.id}>",
                command=command("duplicate confirm", t)), ping=(partner.id,))
        await self._public(interaction, work)

    @DUPLICATE.command(name=pgettext_noop("command name", "confirm"),
                       description=pgettext_noop("command description",
                                                 "Confirm the pair your partner entered"))
    @event_option
    async def confirm(self, interaction: discord.Interaction[Any],
                      event: int | None = None) -> None:
        async def work(t: Translator) -> Reply:
            chosen = await self._event(interaction, event)
            entrant = await self.service.confirm(chosen.id, chosen.guild_id,
                                                 interaction.user.id)
            return Reply(t.gettext("{name} is ready to play {event}.").format(
                name=safe_name(entrant.name), event=safe_name(chosen.name)))
        await self._public(interaction, work)

    @DUPLICATE.command(name=pgettext_noop("command name", "play"),
                       description=pgettext_noop("command description",
                                                 "Play your next board of a duplicate event"))
    @app_commands.describe(event=EVENT_HELP,
                           against=pgettext_noop("command description",
                                                 "A member of another pair to meet at one "
                                                 "table (they ask you back)"),
                           board=pgettext_noop("command description",
                                               "The board to play (default: your next one)"))
    @app_commands.rename(event=EVENT_NAME,
                         against=pgettext_noop("command name", "against"),
                         board=pgettext_noop("command name", "board"))
    async def play(self, interaction: discord.Interaction[Any], event: int | None = None,
                   against: discord.User | None = None,
                   board: app_commands.Range[int, 1, 36] | None = None) -> None:
        async def work(t: Translator) -> Reply:
            chosen = await self._event(interaction, event)
            user = interaction.user.id
            if against is not None:
                return await self._meet(chosen, user, against, board, t)
            entrant = await self.store.duplicate_entrant_of(chosen.id, user)
            names = await self._names(entrant)

            async def place(number: int) -> Location:
                return await self._thread(chosen, () if entrant is None else entrant.members,
                                          number, t)
            start = await (self.service.play(chosen.id, chosen.guild_id, user, names, place)
                           if board is None else
                           self.service.play_board(chosen.id, chosen.guild_id, user, board,
                                                   names, place))
            return await self._started(start, t)
        await self._private(interaction, work)

    async def _meet(self, event: DuplicateEvent, user: int, against: discord.User,
                    board: int | None, t: Translator) -> Reply:
        """``/duplicate play against:``: ask another pair, or accept its invitation."""
        if against.bot:
            raise ClubError(N_("the pair you want to meet has not entered this event or is "
                               "not confirmed yet"))
        mine = await self.store.duplicate_entrant_of(event.id, user)
        theirs = await self.store.duplicate_entrant_of(event.id, against.id)
        names = {**await self._names(mine), **await self._names(theirs)}

        async def place(number: int, members: Sequence[int]) -> Location:
            return await self._thread(event, members, number, t)
        start = await self.service.meet(event.id, event.guild_id, user, against.id, names,
                                        place, board)
        if isinstance(start, PlayStart):
            return await self._started(start, t)
        for member in start.to.members:
            reader = await self.languages.player(member, event.guild_id)
            # Translators: {pair} is a pair's name, {event} an event's, {command} a command.
            await self.posts.dm(member, [reader.gettext(
                "{pair} ask your pair to meet at one table in {event}: accept with {command} "
                "naming one of them.").format(
                    pair=safe_name(start.by.name), event=safe_name(event.name),
                    command=command("duplicate play", reader))])
        return Reply(t.gettext("You asked {pair} to meet your pair at one table; the board "
                               "is dealt when one of them asks you back with {command}.").format(
            pair=safe_name(start.to.name), command=command("duplicate play", t)))

    async def _started(self, start: PlayStart, t: Translator) -> Reply:
        where = await self._table_channel(start.table_id)
        text = (t.gettext("Board {board} is under way in {place}.") if start.resumed
                else t.gettext("Board {board} is dealt for you in {place}."))
        return Reply(text.format(board=t.number(start.board), place=where))

    @DUPLICATE.command(name=pgettext_noop("command name", "leaderboard"),
                       description=pgettext_noop("command description",
                                                 "Members by their duplicate results"))
    @app_commands.describe(game=pgettext_noop("command description",
                                              "Only events of this game"))
    @app_commands.rename(game=pgettext_noop("command name", "game"))
    @app_commands.choices(game=GAME_CHOICES)
    async def leaderboard(self, interaction: discord.Interaction[Any],
                          game: str | None = None) -> None:
        async def work(t: Translator) -> Reply:
            rows = await self.service.leaderboard(guild_of(interaction), game)
            if not rows:
                return Reply(t.gettext("No closed duplicate event counts for the "
                                       "leaderboard yet."))
            # Translators: A duplicate leaderboard line: {rank} a place, {member} a mention,
            # {percent} a matchpoint percentage, {boards} and {events} counts.
            lines = [t.gettext("{rank}. {member}: {percent} · boards: {boards} · events: "
                               "{events}").format(
                rank=t.number(r.rank), member=f"<@{r.user_id}>",
                percent=percent_text(r.percent, t), boards=t.number(r.boards),
                events=t.number(r.events)) for r in rows[:25]]
            return Reply("\n".join(lines))
        await self._public(interaction, work)

    # -- places and names -------------------------------------------------------------------

    async def _names(self, entrant: DuplicateEntrant | None) -> dict[int, str]:
        names: dict[int, str] = {}
        for member in () if entrant is None else entrant.members:
            player = await self.store.get_player(member)
            user = self.bot.get_user(member)
            names[member] = (player.display_name if player is not None
                             else user.display_name if user is not None else "?")
        return names

    async def _thread(self, event: DuplicateEvent, members: Sequence[int], board: int,
                      t: Translator) -> Location:
        """A private thread of the table's members (one entrant's, or two meeting pairs')
        under the event's channel."""
        channel = self.bot.get_channel(event.channel_id)
        if not isinstance(channel, discord.TextChannel):
            raise ClubError(N_("the event's channel cannot be reached"))
        thread = await channel.create_thread(
            name=clip(t.gettext("{event}: board {board}").format(event=event.name,
                                                                 board=board), 100),
            type=discord.ChannelType.private_thread, invitable=False)
        for member in members:
            with contextlib.suppress(discord.HTTPException):
                await thread.add_user(discord.Object(member))
        return ChannelLocation(event.guild_id, thread.id)

    async def _table_channel(self, table_id: int) -> str:
        location = self.service.tables.info(table_id).location
        if isinstance(location, ChannelLocation):
            return f"<#{location.channel_id}>"
        return "?"
