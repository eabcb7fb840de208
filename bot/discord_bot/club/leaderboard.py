"""``/leaderboard``, ``/stats`` and ``/history``: ratings and statistics of the server.

* ``/leaderboard game [season] [page]`` — the rated players by conservative rating
  (mu − 3·sigma) with matches, wins and win rate, 10 per page, with ◀ ▶ buttons. The
  buttons are :class:`LeaderboardPageButton` dynamic items whose ``custom_id`` carries the
  guild, game, season (0: all time) and target page, so they work after a restart; a click
  edits the board in place (a page past the end shows the last page).
* ``/stats [user] [game]`` — a player's figures per game (matches, deals, wins, draws,
  losses, win rate, average tricks or points per deal), the most frequent partner and the
  best partnership, and the rating history chart as a PNG attachment: of ``game``, or of
  the game the player has played most.
* ``/season start name`` / ``/season end`` (Manage Server) — rating seasons: while one
  runs, every rated match also counts on that season's own leaderboard (starting fresh);
  the all-time ratings always update. Starting a season ends the running one. The name
  is stored cleaned to one line of visible characters, 1 to :data:`MAX_SEASON_NAME` of
  them (:func:`~bot.discord_bot.ranges.name_in_range`): a blank or longer one (a forged
  option) is refused privately and nothing changes.
* ``/history [game] [user]`` — the server's matches (or a player's rated matches of one
  game) with their result, newest first, :data:`HISTORY_PER_PAGE` a page
  (:func:`bot.stats.history_page`, offset paging), of the channels the member who runs it
  may read (:mod:`bot.discord_bot.club.match_access`: filtered in the query, so pages stay
  full). The answer (:func:`history_reply`) is public, like the other club lists, only
  when every match it shows was played in the channel where it is asked
  (:func:`~bot.discord_bot.club.match_access.public_in`); otherwise it is private (ephemeral)
  to the member who asked, in their language, and so are its pages. A slow answer waits
  privately (and stays private). Under it:

  * **◀ Newer** / **Older ▶** (:class:`HistoryPageButton`, persistent), shown when there
    is more than one page, disabled at the ends (no Newer on the first page, no Older on
    the last). The ``custom_id`` (:class:`HistoryQuery`) carries the guild, game, player,
    the member who ran the command and the target page, so the buttons work after a
    restart; a click replaces the list in place with that page (same filters), except
    that a page a public list may not show (a match of another channel) goes privately to
    the member as a new message, the public list staying as it was. Only the
    member who ran the command may page; anyone else, a click from another server, or a
    ``custom_id`` that is malformed or stale (an unknown game, a page that is now empty)
    gets an ephemeral explanation and the message stays as it was.
  * a select menu (:class:`RecordSelect`, persistent) listing the page's matches: anyone
    may pick one and gets its record JSON as an ephemeral attachment, replayable with
    ``tricktable replay`` — if they may read the match's channel themselves; else a
    private refusal.

  Discord's limits hold: at most 10 lines of at most 300 characters in the embed, 10
  options with labels of at most 100 characters, ``custom_id`` at most 100 characters.

A ``game`` that is not one of the offered choices, or a ``page`` out of its range (Discord
only suggests them: a client may send anything), is refused privately, never echoed in a
public answer.
"""

from __future__ import annotations

import json
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Final

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
    send_error,
    update_in_place,
)
from bot.discord_bot.club.club_texts import (
    clip,
    game_title,
    history_footer,
    history_line,
    history_title,
    leaderboard_footer,
    leaderboard_lines,
    leaderboard_title,
    pages_of,
    stats_lines,
)
from bot.discord_bot.club.match_access import public_in, reader_channels
from bot.discord_bot.drawing.safe import safe_name
from bot.discord_bot.ids import CustomIdKind
from bot.discord_bot.languages import Languages
from bot.discord_bot.ranges import in_range, name_in_range
from bot.i18n import N_, Translator, pgettext_noop
from bot.i18n.commands import Command, command, local_name
from bot.ratings import end_rating_season, leaderboard, start_rating_season
from bot.stats import (
    MAX_HISTORY_PAGE,
    HistoryEntry,
    HistoryPage,
    history_page,
    load_match_record,
    player_stats,
    rating_chart_for,
)
from games.errors import quote
from games.registry import GAMES
from storage.base import Store
from storage.models import Season

PER_PAGE: Final = 10
MAX_BOARD_PAGE: Final = 1000
"""The highest ``/leaderboard page`` (Discord offers 1 to this; checked again here)."""
HISTORY_PER_PAGE: Final = 10
MAX_SEASON_NAME: Final = 100
"""The longest ``/season start name`` (in visible characters; checked again here)."""
CUSTOM_ID_LIMIT: Final = 100
GAME_CHOICES: Final = [app_commands.Choice(name=info.title, value=name)
                       for name, info in GAMES.items()]
COLOUR: Final = discord.Colour.gold()


def offered_game(game: str) -> str:
    """``game`` if it is one of the games offered (:data:`GAME_CHOICES`); else a private
    refusal quoting it clipped and escaped, as ``/table new`` does."""
    if game not in GAMES:
        raise ClubError(N_("Unknown game {game}."), game=safe_name(quote(game)))
    return game


def _cog(interaction: discord.Interaction[Any]) -> StatsCog:
    cog = interaction.client.get_cog("ClubStats")
    if not isinstance(cog, StatsCog):
        raise ClubError(N_("the statistics are not available right now"))
    return cog


async def resolve_rating_season(store: Store, guild_id: int, text: str | None
                                ) -> Season | None:
    """A guild-wide rating season by id (autocomplete value) or name; None: all time."""
    if text is None or not text.strip() or text.strip().lower() in ("all", "all time"):
        return None
    seasons = await store.list_seasons(guild_id, league_id=None)
    wanted = text.strip()
    for season in seasons:
        if wanted == str(season.id) or wanted.lower() == season.name.lower():
            return season
    raise ClubError(N_("there is no rating season “{season}” on this server"),
                    season=safe_name(clip(wanted, 50)))


async def leaderboard_message(store: Store, guild_id: int, game: str,
                              season: Season | None, page: int, t: Translator
                              ) -> tuple[discord.Embed, discord.ui.View | None]:
    """The board's embed and its paging buttons (None when one page holds it all), in the
    server's language ``t``."""
    board = await leaderboard(store, guild_id, game, page=page, per_page=PER_PAGE,
                              season_id=season.id if season is not None else None)
    lines = leaderboard_lines(board, t)
    embed = discord.Embed(
        title=leaderboard_title(board, season.name if season else None, t), colour=COLOUR,
        description=clip("\n".join(lines), 4096) if lines
        else t.gettext("No rated matches yet: finish a rated match to appear here."))
    embed.set_footer(text=leaderboard_footer(board, t))
    if board.pages <= 1:
        return embed, None
    view = discord.ui.View(timeout=None)
    season_id = season.id if season is not None else 0
    view.add_item(LeaderboardPageButton(guild_id, game, season_id, max(board.page - 1, 0),
                                        "p", t, disabled=board.page == 0))
    view.add_item(LeaderboardPageButton(guild_id, game, season_id,
                                        min(board.page + 1, board.pages - 1), "n", t,
                                        disabled=board.page >= board.pages - 1))
    return embed, view


class LeaderboardPageButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=CustomIdKind.LEADERBOARD.template(
        r"(?P<guild>\d+):(?P<game>[a-z_]+):(?P<season>\d+):(?P<page>\d+):(?P<dir>[pn])"),
):
    """◀ / ▶ of a leaderboard: shows page ``page`` (0-based) of that board."""

    def __init__(self, guild_id: int, game: str, season_id: int, page: int, direction: str,
                 t: Translator | None = None, *, disabled: bool = False) -> None:
        label = None
        if t is not None:
            label = clip(t.gettext("◀ Previous") if direction == "p" else t.gettext("Next ▶"),
                         80)
        super().__init__(discord.ui.Button(
            label=label,
            style=discord.ButtonStyle.secondary, disabled=disabled,
            custom_id=f"{CustomIdKind.LEADERBOARD}:{guild_id}:{game}:{season_id}:{page}:{direction}"))
        self.guild_id, self.game, self.season_id, self.page = guild_id, game, season_id, page

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str]
                             ) -> LeaderboardPageButton:
        return cls(int(match["guild"]), match["game"], int(match["season"]), int(match["page"]),
                   match["dir"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        cog = _cog(interaction)
        reader = await cog.languages.reader(interaction)

        async def work() -> Reply:
            if interaction.guild_id != self.guild_id or self.game not in GAMES:
                raise ClubError(N_("this leaderboard belongs to another server"))
            season = None
            if self.season_id:
                season = await cog.store.get_season(self.season_id)
                if season is None or season.guild_id != self.guild_id:
                    raise ClubError(N_("that rating season no longer exists"))
            t = await cog.languages.server(self.guild_id)
            embed, view = await leaderboard_message(cog.store, self.guild_id, self.game,
                                                    season, self.page, t)
            return Reply(embeds=[embed], view=view)
        await update_in_place(interaction, work, t=reader)


HISTORY_ID: Final = re.compile(CustomIdKind.HISTORY_PAGE.template(
    r"(?P<guild>[1-9]\d{0,19}):(?P<game>[a-z_]{1,30}|-):(?P<user>\d{1,20})"
    r":(?P<owner>[1-9]\d{0,19}):(?P<page>\d{1,4}):(?P<dir>[on])"))
"""The exact shape of a ``/history`` paging button's ``custom_id`` (:class:`HistoryQuery`).
"""


@dataclass(frozen=True, slots=True)
class HistoryQuery:
    """What a ``/history`` list shows, as its paging buttons carry it in their
    ``custom_id``: ``club:hi:<guild>:<game or ->:<player or 0>:<owner>:<page>:<o|n>``
    (``o`` Older, ``n`` Newer; ``page`` 0-based, the page the button shows)."""

    guild_id: int
    game: str | None
    """None: every game (only without ``user_id``)."""
    user_id: int | None
    """None: the server's matches; else that player's rated matches of ``game``."""
    owner_id: int
    """The member who ran ``/history``: the only one who may page."""

    def custom_id(self, page: int, direction: str) -> str:
        """The ``custom_id`` of the button showing ``page`` (``direction`` ``"o"`` or
        ``"n"``); ValueError if it would not fit Discord's 100 characters."""
        cid = (f"{CustomIdKind.HISTORY_PAGE}:{self.guild_id}:{self.game or '-'}:"
               f"{self.user_id or 0}:{self.owner_id}:{page}:{direction}")
        if len(cid) > CUSTOM_ID_LIMIT or HISTORY_ID.fullmatch(cid) is None:
            raise ValueError(f"cannot encode a history button as {cid!r}")
        return cid

    @classmethod
    def parse(cls, custom_id: str) -> tuple[HistoryQuery, int, str]:
        """The query, target page and direction of a button's ``custom_id``; ValueError if
        it is malformed (wrong shape, a player without a game, a page out of range)."""
        m = HISTORY_ID.fullmatch(custom_id)
        if m is None:
            raise ValueError(f"not a history button: {custom_id!r}")
        game = None if m["game"] == "-" else m["game"]
        user_id = int(m["user"]) or None
        page = int(m["page"])
        if user_id is not None and game is None:
            raise ValueError("a player's history needs a game")
        if page > MAX_HISTORY_PAGE:
            raise ValueError(f"history page {page} is out of range")
        return cls(int(m["guild"]), game, user_id, int(m["owner"])), page, m["dir"]


def history_view(query: HistoryQuery, page: HistoryPage, t: Translator) -> discord.ui.View:
    """The components under a ``/history`` page: **◀ Newer** / **Older ▶** (row 0; left
    out when this single page holds it all, disabled at the ends) and the record menu of
    the page's matches (row 1)."""
    view = discord.ui.View(timeout=None)
    has_older = page.has_older and page.page < MAX_HISTORY_PAGE
    if page.has_newer or has_older:
        view.add_item(HistoryPageButton(query.custom_id(max(page.page - 1, 0), "n"), t,
                                        disabled=not page.has_newer))
        view.add_item(HistoryPageButton(
            query.custom_id(min(page.page + 1, MAX_HISTORY_PAGE), "o"), t,
            disabled=not has_older))
    view.add_item(RecordSelect(query.guild_id, page.entries, t, row=1))
    return view


TitleOf = Callable[[Translator, bool], str]
"""A list's title in a language, given whether the page replaces the clicked list in place
(then the title it already has may be kept)."""


async def history_reply(cog: StatsCog, interaction: discord.Interaction[Any],
                        query: HistoryQuery, page_no: int, title_of: TitleOf, *,
                        in_private: bool = False) -> Reply | None:
    """Page ``page_no`` of the list ``query`` describes, of the matches the member who
    sent ``interaction`` may read (:func:`reader_channels`), as an embed (a title, one line
    per match, a footer naming the page) and its :func:`history_view`; None when that page
    is empty (no matches at all, or a page past the end).

    Where it goes (:func:`~bot.discord_bot.club.match_access.public_in`): public, worded in the
    server's language, only when every match on the page was played in the channel of
    ``interaction``; else ``ephemeral``, in the member's language: the command's answer,
    or a page that may not replace a public list, goes to the member privately as a new
    message. ``in_private``: the clicked list is private already (ephemeral), so the page
    replaces it in place (``ephemeral`` False) and stays private."""
    page = await history_page(cog.store, query.guild_id, game=query.game,
                              user_id=query.user_id, page=page_no,
                              per_page=HISTORY_PER_PAGE, channels=reader_channels(interaction))
    if not page.entries:
        return None
    public = not in_private and public_in(interaction.channel_id,
                                          (e.channel_id for e in page.entries))
    t = (await cog.languages.server(query.guild_id) if public
         else await cog.languages.reader(interaction))
    lines = [history_line(e, t) for e in page.entries]
    embed = discord.Embed(title=clip(title_of(t, public or in_private), 256), colour=COLOUR,
                          description="\n".join(pages_of(lines)[0]))
    embed.set_footer(text=history_footer(page, t))
    return Reply(embeds=[embed], view=history_view(query, page, t),
                 ephemeral=not public and not in_private)


class HistoryPageButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                        template=CustomIdKind.HISTORY_PAGE.template(r"(?P<state>.*)")):
    """**◀ Newer** / **Older ▶** under a ``/history`` list (see :class:`HistoryQuery`).

    The template takes any ``club:hi:`` id so that a malformed one still reaches
    :meth:`callback`, which refuses it with an explanation instead of leaving the click
    unanswered."""

    def __init__(self, custom_id: str, t: Translator | None = None, *,
                 disabled: bool = False) -> None:
        older = custom_id.endswith(":o")
        label = None
        if t is not None:
            label = clip(t.gettext("Older ▶") if older else t.gettext("◀ Newer"), 80)
        super().__init__(discord.ui.Button(
            label=label, style=discord.ButtonStyle.secondary,
            disabled=disabled, custom_id=custom_id[:CUSTOM_ID_LIMIT]), row=0)
        self.raw = custom_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str]
                             ) -> HistoryPageButton:
        return cls(match.string)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        cog = _cog(interaction)
        reader = await cog.languages.reader(interaction)
        try:
            query, page_no, _ = HistoryQuery.parse(self.raw)
        except ValueError:
            # Translators: {command} is a command (/history) shown as a link.
            await send_error(interaction, reader.gettext(
                "this history button is not understood (it may be from an older version of "
                "the bot): run {command} again").format(command=command("history", reader)))
            return
        if interaction.guild_id != query.guild_id:
            await send_error(interaction, reader.gettext(
                "this history belongs to another server"))
            return
        if interaction.user.id != query.owner_id:
            # Translators: {member} is a member's name; {command} is a command (/history)
            # shown as a link.
            await send_error(interaction, reader.gettext(
                "only {member}, who ran {command}, can turn these pages: run {command} "
                "for a list of your own").format(member=f"<@{query.owner_id}>",
                                                 command=command("history", reader)))
            return
        if query.game is not None and query.game not in GAMES:
            # Translators: {command} is a command (/history) shown as a link.
            await send_error(interaction, reader.gettext(
                "this history's game is no longer offered: run {command} again").format(
                    command=command("history", reader)))
            return

        message = interaction.message
        in_private = message is not None and message.flags.ephemeral

        async def work() -> Reply:
            shown = await history_reply(
                cog, interaction, query, page_no,
                lambda t, in_place: _history_title(interaction, query, t, in_place),
                in_private=in_private)
            if shown is None:
                # Translators: {command} is a command (/history) shown as a link.
                raise ClubError(N_("there are no matches on that page any more: run "
                                   "{command} again"), command=Command("history"))
            return shown
        await update_in_place(interaction, work, t=reader)


def _history_title(interaction: discord.Interaction[Any], query: HistoryQuery,
                   t: Translator, in_place: bool) -> str:
    """The title the list already has when the page replaces it (it names the player as
    the command saw them, in the list's language), else a fresh one in ``t``'s."""
    message = interaction.message
    if in_place and message is not None and message.embeds and message.embeds[0].title:
        return message.embeds[0].title
    if query.user_id is None:
        return history_title(query.game, None, t)
    member = interaction.guild.get_member(query.user_id) if interaction.guild else None
    name = (safe_name(member.display_name) if member is not None
            else t.gettext("player {id}").format(id=query.user_id))
    return history_title(query.game, name, t)


MATCH_VALUE: Final = re.compile(r"[1-9][0-9]{0,18}")
"""A record menu value: a match id (ASCII digits, within a BIGINT)."""


class RecordSelect(discord.ui.DynamicItem[discord.ui.Select[Any]],
                   template=CustomIdKind.HISTORY_RECORD.template(r"(?P<guild>\d+)")):
    """The ``/history`` menu: sends the chosen match's record JSON, ephemerally, to a
    member who may read the channel it was played in (whoever lists it, whatever the menu
    offers: the choice is checked again)."""

    def __init__(self, guild_id: int, entries: list[HistoryEntry] | None = None,
                 t: Translator | None = None, *, row: int | None = None) -> None:
        options = [discord.SelectOption(
            label=clip(f"#{e.match_id} {game_title(e.game)} · "
                       f"{e.finished_at:%Y-%m-%d %H:%M} UTC", 100),
            value=str(e.match_id)) for e in (entries or [])[:25]]
        placeholder = clip(t.gettext("Get a match record (JSON)"), 150) if t else None
        super().__init__(discord.ui.Select(
            custom_id=f"{CustomIdKind.HISTORY_RECORD}:{guild_id}", placeholder=placeholder,
            options=options or [discord.SelectOption(label="—", value="0")]), row=row)
        self.guild_id = guild_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str]
                             ) -> RecordSelect:
        return cls(int(match["guild"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        data: Any = interaction.data or {}
        values = data.get("values") or []
        cog = _cog(interaction)
        t = await cog.languages.reader(interaction)

        async def work() -> Reply:
            if (interaction.guild_id != self.guild_id or not values
                    or MATCH_VALUE.fullmatch(str(values[0])) is None):
                raise ClubError(N_("that match is not from this server"))
            match_id = int(values[0])
            match = await cog.store.get_match(match_id)
            if match is None or match.guild_id != self.guild_id:
                raise ClubError(N_("there is no record of match #{match}"), match=match_id)
            if not reader_channels(interaction).admits(match.channel_id):
                raise ClubError(N_("match #{match} was played in a channel you cannot see: "
                                   "its record is only for the members who can see it"),
                                match=match_id)
            record = await load_match_record(cog.store, match_id)
            if record is None:
                raise ClubError(N_("there is no record of match #{match}"), match=match_id)
            body = json.dumps(record, indent=1, ensure_ascii=False).encode()
            return Reply(t.gettext("Record of match #{match} ({game}): replay it with "
                                   "{command}.").format(
                match=match_id, game=game_title(match.game),
                command=f"`tricktable replay match-{match_id}.json`"),
                files=[(f"match-{match_id}.json", body)], ephemeral=True)
        await answer(interaction, work, t=t, private_wait=True)


class StatsCog(commands.Cog, name="ClubStats"):
    """Leaderboards, player statistics and match history. The lists are public answers
    in the server's language (a ``/history`` list only where every match it shows was
    played: else private, in the member's); refusals are private, in the member's."""

    def __init__(self, bot: commands.Bot, store: Store, languages: Languages) -> None:
        self.bot = bot
        self.store = store
        self.languages = languages

    async def _public(self, interaction: discord.Interaction[Any],
                      work: Callable[[Translator], Awaitable[Reply]]) -> None:
        await answer_publicly(interaction, self.languages, work)

    # -- /leaderboard -----------------------------------------------------------------

    @app_commands.command(name=pgettext_noop("command name", "leaderboard"),
                          description=pgettext_noop("command description",
                                                    "The server's rated players"))
    @app_commands.guild_only()
    @app_commands.describe(
        game=pgettext_noop("command description", "Which game"),
        season=pgettext_noop("command description", "A rating season (default: all time)"),
        page=pgettext_noop("command description", "Page number (10 players per page)"))
    @app_commands.rename(game=pgettext_noop("command name", "game"),
                         season=pgettext_noop("command name", "season"),
                         page=pgettext_noop("command name", "page"))
    @app_commands.choices(game=GAME_CHOICES)
    async def leaderboard_command(self, interaction: discord.Interaction[Any], game: str,
                                  season: str | None = None,
                                  page: app_commands.Range[int, 1, MAX_BOARD_PAGE] = 1
                                  ) -> None:
        async def work(t: Translator) -> Reply:
            guild_id = guild_of(interaction)
            in_range(page, 1, MAX_BOARD_PAGE, "page")
            chosen = await resolve_rating_season(self.store, guild_id, season)
            embed, view = await leaderboard_message(self.store, guild_id, offered_game(game),
                                                    chosen, page - 1, t)
            return Reply(embeds=[embed], view=view)
        await self._public(interaction, work)

    @leaderboard_command.autocomplete("season")
    async def season_autocomplete(self, interaction: discord.Interaction[Any], current: str
                                  ) -> list[app_commands.Choice[str]]:
        if interaction.guild_id is None:
            return []
        t = await self.languages.reader(interaction)
        seasons = await self.store.list_seasons(interaction.guild_id, league_id=None)
        out = [app_commands.Choice(name=clip(t.gettext("All time"), 100), value="all")]
        for s in reversed(seasons):
            if current.lower() in s.name.lower():
                out.append(app_commands.Choice(name=clip(f"{s.name} ({s.status})", 100),
                                               value=str(s.id)))
        return out[:25]

    # -- /season -----------------------------------------------------------------------

    season_group = app_commands.Group(
        name=pgettext_noop("command name", "season"),
        description=pgettext_noop("command description", "Rating seasons"), guild_only=True,
        default_permissions=discord.Permissions(manage_guild=True))

    @season_group.command(name=pgettext_noop("command name", "start"),
                          description=pgettext_noop("command description",
                                                    "Start a rating season (ends the running "
                                                    "one)"))
    @app_commands.describe(name=pgettext_noop("command description",
                                              "The season's name, e.g. 'Spring 2027'"))
    @app_commands.rename(name=pgettext_noop("command name", "name"))
    async def season_start(self, interaction: discord.Interaction[Any],
                           name: app_commands.Range[str, 1, MAX_SEASON_NAME]) -> None:
        async def work(t: Translator) -> Reply:
            require_admin(interaction, N_("only members with the Manage Server permission "
                                          "may start a rating season"))
            season = await start_rating_season(
                self.store, guild_of(interaction),
                name_in_range(name, MAX_SEASON_NAME, "name"), discord.utils.utcnow())
            # Translators: {command} is the command /leaderboard (a link) and its option
            # season, "/leaderboard season:".
            return Reply(content=t.gettext(
                "Rating season **{season}** has started: rated matches now also count on its "
                "own leaderboard ({command}).").format(
                    season=safe_name(clip(season.name, 100)),
                    command=f"{command('leaderboard', t)} `{local_name('season', t)}:`"))
        await self._public(interaction, work)

    @season_group.command(name=pgettext_noop("command name", "end"),
                          description=pgettext_noop("command description",
                                                    "End the running rating season"))
    async def season_end(self, interaction: discord.Interaction[Any]) -> None:
        async def work(t: Translator) -> Reply:
            require_admin(interaction, N_("only members with the Manage Server permission "
                                          "may end a rating season"))
            season = await end_rating_season(self.store, guild_of(interaction),
                                             discord.utils.utcnow())
            if season is None:
                raise ClubError(N_("no rating season is running"))
            return Reply(content=t.gettext(
                "Rating season **{season}** has ended; its leaderboard stays readable."
            ).format(season=safe_name(clip(season.name, 100))))
        await self._public(interaction, work)

    # -- /stats ------------------------------------------------------------------------

    @app_commands.command(name=pgettext_noop("command name", "stats"),
                          description=pgettext_noop("command description",
                                                    "A player's statistics and rating chart"))
    @app_commands.guild_only()
    @app_commands.describe(
        user=pgettext_noop("command description", "Whose statistics (default: yours)"),
        game=pgettext_noop("command description", "One game only"))
    @app_commands.rename(user=pgettext_noop("command name", "user"),
                         game=pgettext_noop("command name", "game"))
    @app_commands.choices(game=GAME_CHOICES)
    async def stats_command(self, interaction: discord.Interaction[Any],
                            user: discord.User | None = None,
                            game: str | None = None) -> None:
        who = user or interaction.user

        async def work(t: Translator) -> Reply:
            guild_id = guild_of(interaction)
            if game is not None:
                offered_game(game)
            view = await player_stats(self.store, who.id, guild_id, game=game)
            name = safe_name(clip(who.display_name, 80))
            if not view.games:
                text = (t.gettext("{player} has no finished matches in {game} on this server "
                                  "yet.").format(player=name, game=game_title(game))
                        if game else
                        t.gettext("{player} has no finished matches on this server yet.")
                        .format(player=name))
                return Reply(content=text)
            title = (t.gettext("Statistics of {player} in {game}").format(
                player=name, game=game_title(game)) if game
                else t.gettext("Statistics of {player}").format(player=name))
            embed = discord.Embed(
                title=clip(title, 256), colour=COLOUR,
                description=t.gettext("{matches} matches · {deals} deals · win rate {rate}")
                .format(matches=t.number(view.matches), deals=t.number(view.deals),
                        rate=t.percent(view.win_rate)))
            for field_name, value in stats_lines(view, t):
                embed.add_field(name=clip(field_name, 256), value=value, inline=False)
            chart_game = game or max(view.games, key=lambda g: g.matches).game
            png = await rating_chart_for(self.store, who.id, guild_id, chart_game,
                                         title=f"{who.display_name} — {game_title(chart_game)}",
                                         t=t)
            embed.set_image(url="attachment://rating.png")
            embed.set_footer(text=clip(t.gettext(
                "Chart: {game} rating after each rated match").format(
                    game=game_title(chart_game)), 2048))
            return Reply(embeds=[embed], files=[("rating.png", png)])
        await self._public(interaction, work)

    # -- /history ----------------------------------------------------------------------

    @app_commands.command(name=pgettext_noop("command name", "history"),
                          description=pgettext_noop("command description",
                                                    "Recent matches of the server"))
    @app_commands.guild_only()
    @app_commands.describe(
        game=pgettext_noop("command description", "One game only"),
        user=pgettext_noop("command description",
                           "Only this player's rated matches (needs a game)"))
    @app_commands.rename(game=pgettext_noop("command name", "game"),
                         user=pgettext_noop("command name", "user"))
    @app_commands.choices(game=GAME_CHOICES)
    async def history_command(self, interaction: discord.Interaction[Any],
                              game: str | None = None,
                              user: discord.User | None = None) -> None:
        reader = await self.languages.reader(interaction)

        async def work() -> Reply:
            guild_id = guild_of(interaction)
            if game is not None:
                offered_game(game)
            if user is not None and game is None:
                raise ClubError(N_("choose a game to see a player's history"))
            query = HistoryQuery(guild_id, game, user.id if user is not None else None,
                                 interaction.user.id)
            name = safe_name(user.display_name) if user is not None else None
            shown = await history_reply(self, interaction, query, 0,
                                        lambda t, _: history_title(game, name, t))
            if shown is None:
                t = await self.languages.server(guild_id)
                return Reply(content=t.gettext("No finished matches yet."))
            return shown
        # A slow answer waits privately: a list that turns out private must not fill a
        # public "thinking" message (Discord keeps a deferred answer's visibility).
        await answer(interaction, work, t=reader, private_wait=True)


def dynamic_items() -> tuple[type[discord.ui.DynamicItem[Any]], ...]:
    return (LeaderboardPageButton, HistoryPageButton, RecordSelect)
