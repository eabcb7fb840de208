"""``/duplicate …``: club duplicate nights on Discord (``docs/duplicate.md``).

Commands (``event`` is an event number; it defaults to the server's only open event):

* ``/duplicate create name game boards closes [opens] [timezone] [scoring] [leaderboard]
  [players] [league]`` (Manage Server, refused server-side to others) — an event hosted in
  this channel; ``opens`` and ``closes`` are ``YYYY-MM-DD HH:MM`` in ``timezone`` (default
  UTC; ``opens`` defaults to now); ``league`` makes it a round of that running league (its
  teams entered, its standings taking the ranking).
* ``/duplicate list``, ``/duplicate status [event]`` — counts only, nothing of a board.
* ``/duplicate enter [event] [partner]`` — alone, or a pair that ``partner`` confirms with
  ``/duplicate confirm [event]``.
* ``/duplicate play [event] [against] [board]`` — the next board (or the one under way,
  or ``board``) at a table in a private thread of the entrant's own, under the event's
  channel; ``against`` a member of another pair asks that pair to meet at one table
  (they are told by DM) or accepts its invitation: the two pairs play the board from its
  two directions in a private thread of the four.
* ``/duplicate close [event]`` (Manage Server) — close it now (it also closes at the end of
  its window).

After each board its entrant's members get, by DM, the traveller so far, the hand record
and what the AI scored in their seat. At the close a results thread in the event's channel
gets the ranking, each board's traveller and hand record and the records as one zip file,
and every member of every entrant a score card by DM; each piece is claimed in the store
first (``claim_duplicate_post``), so nothing is posted twice, even across a restart.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import io
import json
import logging
import zipfile
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, Final, Literal, TypeVar
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord_bot.club.club_common import (
    ClubError,
    Reply,
    answer,
    answer_publicly,
    guild_of,
    require_admin,
)
from bot.discord_bot.club.club_texts import clip, pages_of, stamp
from bot.discord_bot.club.duplicate_review import BoardReview, ReviewSource, review_view
from bot.discord_bot.club.duplicate_review import bind as bind_reviews
from bot.discord_bot.club.league_lookups import LeagueLookups
from bot.discord_bot.drawing.duplicate_pictures import hand_record_png
from bot.discord_bot.drawing.safe import NO_PINGS, safe_name
from bot.discord_bot.languages import Languages
from bot.duplicate.service import (
    DuplicateError,
    DuplicateService,
    EventResults,
    PlayStart,
    directions_of,
)
from bot.duplicate.text import (
    ai_text,
    best_by_board,
    card_lines,
    hand_labels,
    hand_record_lines,
    header_line,
    percent_text,
    ranking_lines,
    reveal_lines,
    traveller_lines,
)
from bot.i18n import N_, Translator, pgettext_noop
from bot.i18n.commands import command
from bot.service import TableService
from bot.setting_ranges import in_force
from games.ai import Budget
from games.registry import GAMES
from storage import ChannelLocation
from storage.base import Store
from storage.duplicate import DuplicateEntrant, DuplicateEvent
from storage.models import Location

log = logging.getLogger(__name__)

GAME_CHOICES: Final = [app_commands.Choice(name=info.title, value=name)
                       for name, info in GAMES.items()]
SCORING_CHOICES: Final = [
    app_commands.Choice(name=pgettext_noop("command description", "matchpoints"),
                        value="matchpoints"),
    app_commands.Choice(name=pgettext_noop("command description", "IMPs (Tarabish)"),
                        value="imps")]
MESSAGE_CHARS: Final = 1900
POST_INTERVAL: Final = 0.05
"""Seconds between two REST calls of the close's posting (at most 20 a second, under
Discord's global 50 with room for the tables)."""


def parse_when(text: str, zone: ZoneInfo) -> dt.datetime:
    """``YYYY-MM-DD HH:MM`` in ``zone`` as an aware datetime (ClubError otherwise)."""
    try:
        local = dt.datetime.strptime(text.strip(), "%Y-%m-%d %H:%M")
    except ValueError:
        raise ClubError(N_("cannot read the time {time}: write it as YYYY-MM-DD HH:MM"),
                        time=safe_name(repr(clip(text, 30)))) from None
    return local.replace(tzinfo=zone).astimezone(dt.UTC)


def event_line(event: DuplicateEvent, t: Translator) -> str:
    """``#3 Friday night · Turup · 12 boards · open until <t:…>``."""
    # Translators: A duplicate event in a list: {number} its number, {name} its name,
    # {game} the game, {boards} the number of boards, {closes} a date and time.
    text = (t.gettext("#{number} **{name}** · {game} · boards: {boards} · open until {closes}")
            if event.status == "open" else
            t.gettext("#{number} **{name}** · {game} · boards: {boards} · closed"))
    return text.format(number=event.id, name=safe_name(event.name),
                       game=GAMES[event.game].title, boards=t.number(event.boards),
                       closes=stamp(event.closes_at))


_F = TypeVar("_F", bound=Callable[..., Any])
EVENT_HELP: Final = pgettext_noop("command description",
                                  "The event's number (default: the open one)")
EVENT_NAME: Final = pgettext_noop("command name", "event")


def event_option(command: _F) -> _F:
    """Name and describe a command's optional ``event`` option (an event's number, the open
    event by default) the one way every ``/duplicate`` command does."""
    return app_commands.rename(event=EVENT_NAME)(app_commands.describe(event=EVENT_HELP)(command))


class DuplicateCog(LeagueLookups, commands.Cog, name="ClubDuplicate"):
    """``/duplicate`` commands, the boards' reveals and the results at the close."""

    duplicate = app_commands.Group(
        name=pgettext_noop("command name", "duplicate"),
        description=pgettext_noop("command description", "Club duplicate nights"),
        guild_only=True)

    def __init__(self, bot: commands.Bot, store: Store, service: TableService,
                 languages: Languages, *, run: bool = True) -> None:
        self.bot, self.store, self.languages = bot, store, languages
        self.service = DuplicateService(
            store, service, clock=service.clock, budget=Budget(ms=service.ai_budget_ms),
            on_board=self.tell_board, on_close=self.post_results)
        self.run = run
        self._task: asyncio.Task[None] | None = None
        self._posting: asyncio.Lock = asyncio.Lock()
        self._next_post = 0.0
        bind_reviews(bot, ReviewSource(store, languages))

    async def cog_load(self) -> None:
        if self.run:
            self._task = asyncio.create_task(self.service.run())

    async def cog_unload(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task

    # -- answering ------------------------------------------------------------------------

    async def _public(self, interaction: discord.Interaction[Any],
                      work: Callable[[Translator], Awaitable[Reply]]) -> None:
        await answer_publicly(interaction, self.languages, lambda t: _refusing(work(t)))

    async def _private(self, interaction: discord.Interaction[Any],
                       work: Callable[[Translator], Awaitable[Reply]]) -> None:
        reader = await self.languages.reader(interaction)

        async def run() -> Reply:
            reply = await _refusing(work(reader))
            reply.ephemeral = True
            return reply
        await answer(interaction, run, t=reader, private_wait=True)

    async def _event(self, interaction: discord.Interaction[Any],
                     number: int | None) -> DuplicateEvent:
        guild_id = guild_of(interaction)
        if number is not None:
            return await self.service.event(number, guild_id)
        open_events = await self.store.list_duplicate_events(guild_id, status="open")
        if len(open_events) == 1:
            return open_events[0]
        if not open_events:
            raise ClubError(N_("there is no open duplicate event on this server"))
        raise ClubError(N_("several duplicate events are open: name one by its number"))

    # -- commands ---------------------------------------------------------------------------

    @duplicate.command(name=pgettext_noop("command name", "create"),
                       description=pgettext_noop("command description",
                                                 "Create a duplicate event in this channel "
                                                 "(Manage Server)"))
    @app_commands.describe(
        name=pgettext_noop("command description", "The event's name"),
        game=pgettext_noop("command description", "The game played"),
        boards=pgettext_noop("command description", "Number of boards (deals), 1 to 36"),
        closes=pgettext_noop("command description", "When it closes: YYYY-MM-DD HH:MM"),
        opens=pgettext_noop("command description",
                            "When it opens: YYYY-MM-DD HH:MM (default now)"),
        timezone=pgettext_noop("command description",
                               "IANA time zone of the times, e.g. Europe/Berlin (default UTC)"),
        scoring=pgettext_noop("command description", "Matchpoints, or IMPs for Tarabish"),
        leaderboard=pgettext_noop("command description",
                                  "Whether results count for the duplicate leaderboard"),
        players=pgettext_noop("command description", "Players at a table where the game "
                                                     "allows several"),
        league=pgettext_noop("command description",
                             "Make it a round of this running league (its number or name)"))
    @app_commands.rename(name=pgettext_noop("command name", "name"),
                         game=pgettext_noop("command name", "game"),
                         boards=pgettext_noop("command name", "boards"),
                         closes=pgettext_noop("command name", "closes"),
                         opens=pgettext_noop("command name", "opens"),
                         timezone=pgettext_noop("command name", "timezone"),
                         scoring=pgettext_noop("command name", "scoring"),
                         leaderboard=pgettext_noop("command name", "leaderboard"),
                         players=pgettext_noop("command name", "players"),
                         league=pgettext_noop("command name", "league"))
    @app_commands.choices(game=GAME_CHOICES, scoring=SCORING_CHOICES)
    async def create(self, interaction: discord.Interaction[Any],
                     name: app_commands.Range[str, 1, 80], game: str,
                     boards: app_commands.Range[int, 1, 36], closes: str,
                     opens: str | None = None, timezone: str | None = None,
                     scoring: Literal["matchpoints", "imps"] = "matchpoints",
                     leaderboard: bool = False, players: int | None = None,
                     league: str | None = None) -> None:
        async def work(t: Translator) -> Reply:
            guild_id = guild_of(interaction)
            require_admin(interaction, N_("only members with the Manage Server permission "
                                          "may create a duplicate event"))
            zone_name = (timezone or "UTC").strip()
            try:
                zone = ZoneInfo(zone_name)
            except (ZoneInfoNotFoundError, ValueError):
                raise ClubError(N_("unknown time zone {zone}"),
                                zone=safe_name(repr(clip(zone_name, 40)))) from None
            start = (self.service.clock.now() if opens is None
                     else parse_when(opens, zone))
            assert interaction.channel_id is not None
            round_of = (None if league is None or not league.strip()
                        else await self.find_league(interaction, league))
            event = await self.service.create_event(
                guild_id, interaction.channel_id, name, game, boards=boards, opens_at=start,
                closes_at=parse_when(closes, zone), time_zone=zone_name,
                created_by=interaction.user.id, scoring=scoring, leaderboard=leaderboard,
                players=players, league_id=None if round_of is None else round_of.id)
            if round_of is not None:
                # Translators: {league} is a league's name; {play} a command shown as a link.
                how = t.gettext("A round of the league {league}: its teams are entered; "
                                "they play their boards with {play}.").format(
                    league=safe_name(round_of.name), play=command("duplicate play", t))
            else:
                # Translators: {enter} and {play} are commands shown as links.
                how = t.gettext("Enter with {enter}, then play your boards with "
                                "{play}.").format(enter=command("duplicate enter", t),
                                                  play=command("duplicate play", t))
            return Reply(f"{event_line(event, t)}\n{how}")
        await self._public(interaction, work)

    @duplicate.command(name=pgettext_noop("command name", "list"),
                       description=pgettext_noop("command description",
                                                 "The duplicate events of this server"))
    async def list_events(self, interaction: discord.Interaction[Any]) -> None:
        async def work(t: Translator) -> Reply:
            events = await self.service.list_events(guild_of(interaction))
            if not events:
                return Reply(t.gettext("No duplicate event yet."))
            return Reply("\n".join(event_line(e, t) for e in events[:20]))
        await self._private(interaction, work)

    @duplicate.command(name=pgettext_noop("command name", "status"),
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
            lines = [event_line(chosen, t), t.gettext(
                "Entrants: {entrants}; boards finished in all: {done}").format(
                entrants=t.number(got.entrants), done=t.number(done))]
            if got.mine is not None:
                lines.append(t.gettext("Boards you have finished: {done} of {boards}.").format(
                    done=t.number(len(got.my_finished)), boards=t.number(chosen.boards)))
            return Reply("\n".join(lines))
        await self._private(interaction, work)

    @duplicate.command(name=pgettext_noop("command name", "enter"),
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

    @duplicate.command(name=pgettext_noop("command name", "confirm"),
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

    @duplicate.command(name=pgettext_noop("command name", "play"),
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
            await self._dm(member, [reader.gettext(
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

    @duplicate.command(name=pgettext_noop("command name", "leaderboard"),
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

    @duplicate.command(name=pgettext_noop("command name", "close"),
                       description=pgettext_noop("command description",
                                                 "Close a duplicate event now (Manage Server)"))
    @event_option
    async def close(self, interaction: discord.Interaction[Any],
                    event: int | None = None) -> None:
        async def work(t: Translator) -> Reply:
            require_admin(interaction, N_("only members with the Manage Server permission "
                                          "may close a duplicate event"))
            chosen = await self._event(interaction, event)
            await self.service.close(chosen.id, chosen.guild_id)
            return Reply(t.gettext("{event} is closed; the results are posted in a "
                                   "thread.").format(event=safe_name(chosen.name)))
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

    # -- after a board, and at the close ---------------------------------------------------

    async def tell_board(self, event: DuplicateEvent, entrant: DuplicateEntrant,
                         board: int) -> None:
        """DM each member of the entrant what it may now see of the board; a member whose
        DMs are closed finds it in the board's private thread instead (the same readers)."""
        for member in entrant.members:
            reveal = await self.service.reveal(event.id, event.guild_id, member, board)
            t = await self.languages.player(member, event.guild_id)
            travel = reveal.score.travellers[board - 1]
            own = next((r.result for r in travel.rows if r.result.entrant == entrant.name),
                       None)
            boards = {b.number: b for b in await self.store.list_duplicate_boards(event.id)}
            lines = reveal_lines(event.game, directions_of(event), travel,
                                 reveal.score.method, reveal.hands, boards[board].dealer,
                                 reveal.ai_result, own, t, safe_name)
            title = t.gettext("{event}: board {board}").format(event=safe_name(event.name),
                                                               board=board)
            text = [f"**{title}**", *lines]
            view = review_view(event.id, board, entrant.id, t)
            if not await self._dm(member, text, view):
                await self._to_thread(entrant.id, board, member, text, view)

    async def _paced(self) -> None:
        """Wait for the close's next message slot (:data:`POST_INTERVAL`)."""
        loop = asyncio.get_running_loop()
        wait = self._next_post - loop.time()
        if wait > 0:
            await asyncio.sleep(wait)
        self._next_post = max(loop.time(), self._next_post) + POST_INTERVAL

    async def _dm(self, user_id: int, lines: list[str],
                  view: discord.ui.View | None = None) -> bool:
        """DM ``lines`` (paged), ``view`` under the last page."""
        try:
            await self._paced()
            channel = await self.bot.create_dm(discord.Object(user_id))
            pages = pages_of(lines, MESSAGE_CHARS)
            for n, page in enumerate(pages):
                await self._paced()
                if view is not None and n == len(pages) - 1:
                    await channel.send("\n".join(page), allowed_mentions=NO_PINGS, view=view)
                else:
                    await channel.send("\n".join(page), allowed_mentions=NO_PINGS)
            return True
        except discord.HTTPException:
            log.info("could not DM user %s a duplicate message", user_id)
            return False

    async def _to_thread(self, entrant_id: int, board: int, member: int, lines: list[str],
                         view: discord.ui.View) -> None:
        play = await self.store.get_duplicate_play(entrant_id, board)
        row = None if play is None or play.table_id is None else await self.store.get_table(
            play.table_id)
        if row is None or not isinstance(row.location, ChannelLocation):
            return
        channel = self.bot.get_channel(row.location.channel_id)
        if not isinstance(channel, discord.Thread):
            return
        pages = pages_of([f"<@{member}>", *lines], MESSAGE_CHARS)
        for n, page in enumerate(pages):
            await self._paced()
            if n == len(pages) - 1:
                await channel.send("\n".join(page), allowed_mentions=NO_PINGS, view=view)
            else:
                await channel.send("\n".join(page), allowed_mentions=NO_PINGS)

    async def post_results(self, event: DuplicateEvent) -> None:
        """The results thread and the score cards, each piece once (claimed first)."""
        async with self._posting:
            results = await self.service.results(event)
            t = await self.languages.server(event.guild_id)
            thread = await self._results_thread(event, t)
            if thread is not None:
                await self._post_thread(event, results, thread, t)
            await self._post_cards(event, results)

    async def _results_thread(self, event: DuplicateEvent,
                              t: Translator) -> discord.abc.Messageable | None:
        if await self.store.claim_duplicate_post(event.id, "thread"):
            channel = self.bot.get_channel(event.channel_id)
            if not isinstance(channel, discord.TextChannel):
                return None
            made = await channel.create_thread(
                name=clip(t.gettext("Results: {event}").format(event=event.name), 100),
                type=discord.ChannelType.public_thread)
            await self.store.set_duplicate_post_value(event.id, "thread", str(made.id))
            return made
        value = await self.store.duplicate_post_value(event.id, "thread")
        if value is None:
            return None
        found = self.bot.get_channel(int(value))
        return found if isinstance(found, discord.Thread) else None

    async def _post_thread(self, event: DuplicateEvent, results: EventResults,
                           thread: discord.abc.Messageable, t: Translator) -> None:
        score = results.score
        if await self.store.claim_duplicate_post(event.id, "ranking"):
            lines = [f"**{safe_name(event.name)}** — {header_line(event.game, score, t)}",
                     *ranking_lines(score, t, safe_name)]
            for page in pages_of(lines, MESSAGE_CHARS):
                await self._paced()
                await thread.send("\n".join(page), allowed_mentions=NO_PINGS)
        sides = directions_of(event)
        boards = {b.number: b for b in await self.store.list_duplicate_boards(event.id)}
        images = in_force(await self.store.get_guild_settings(event.guild_id)).images
        for travel in score.travellers:
            if not await self.store.claim_duplicate_post(event.id, f"board:{travel.board}"):
                continue
            lines = traveller_lines(travel, score.method, t, safe_name)
            hands = results.hands.get(travel.board)
            picture: discord.File | None = None
            if hands:
                dealer = boards[travel.board].dealer
                lines += ["", t.gettext("The hands as dealt:"),
                          *hand_record_lines(sides, hands, dealer, t)]
                if images:
                    labelled = hand_labels(sides, hands, dealer, t)
                    png = await asyncio.to_thread(hand_record_png, [x for x, _ in labelled],
                                                  [h for _, h in labelled])
                    picture = discord.File(io.BytesIO(png),
                                           filename=f"board-{travel.board}.png")
            pages = pages_of(lines, MESSAGE_CHARS)
            for n, page in enumerate(pages):
                await self._paced()
                if picture is not None and n == len(pages) - 1:
                    await thread.send("\n".join(page), allowed_mentions=NO_PINGS,
                                      file=picture)
                else:
                    await thread.send("\n".join(page), allowed_mentions=NO_PINGS)
        if results.records and await self.store.claim_duplicate_post(event.id, "records"):
            await self._paced()
            await thread.send(t.gettext("Every board's record (tricktable duplicate score "
                                        "reads the folder):"),
                              file=discord.File(io.BytesIO(records_zip(results)),
                                                filename=f"duplicate-{event.id}.zip"),
                              allowed_mentions=NO_PINGS)

    async def _post_cards(self, event: DuplicateEvent, results: EventResults) -> None:
        best = best_by_board(results.score)
        boards = {b.number: b for b in await self.store.list_duplicate_boards(event.id)}
        for row in results.score.ranking:
            entrant = results.entrants[row.entrant]
            ai: dict[int, str] = {}
            for member in entrant.members:
                if not await self.store.claim_duplicate_post(event.id, f"card:{member}"):
                    continue
                t = await self.languages.player(member, event.guild_id)
                for card in row.boards:
                    if card.scored is not None:
                        _, result = await self.service.ai_result(
                            event, boards[card.board], card.scored.result.direction)
                        ai[card.board] = ai_text(result, results.score.method, t)
                rank = "–" if row.rank is None else t.number(row.rank)
                title = t.gettext("{event}: your score card (place {rank})").format(
                    event=safe_name(event.name), rank=rank)
                await self._dm(member, [f"**{title}**",
                                        *card_lines(row, results.score, best, ai, t)])


async def _refusing(work: Awaitable[Reply]) -> Reply:
    """``work``'s reply; the duplicate service's refusal becomes the club's (told to the
    member privately, in their language)."""
    try:
        return await work
    except DuplicateError as exc:
        raise ClubError(exc.said.message, **exc.said.fields) from None


def records_zip(results: EventResults) -> bytes:
    """Every board's tagged record as ``board-NN/<entrant>.json`` in one zip (a folder
    ``tricktable duplicate score`` reads once unpacked: flattened, one file per record)."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for n, ((_, board), record) in enumerate(sorted(results.records.items())):
            archive.writestr(f"board{board:02d}-{n:04d}.json",
                             json.dumps(record, ensure_ascii=False))
    return out.getvalue()


async def setup(bot: commands.Bot, store: Store, service: TableService,
                languages: Languages, *, run: bool = True) -> None:
    """Add the ``/duplicate`` cog (its board watcher runs from ``cog_load``) and the
    boards' Review buttons."""
    await bot.add_cog(DuplicateCog(bot, store, service, languages, run=run))
    bot.add_dynamic_items(BoardReview)
