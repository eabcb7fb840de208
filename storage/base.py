"""The Store protocol: everything the layers above may ask of storage.

Contracts common to every method:

* Every method is a coroutine and is safe to call from many coroutines at once.
* A method that writes does so in one transaction: when it returns, the change is durable
  (committed and flushed as the backend's durability setting promises); when it raises,
  nothing was changed.
* Datetimes in and out are timezone-aware; the store returns them in UTC and refuses naive
  ones (``ValueError``).
* JSON values (options, seats, meta, actions, results, records) read back exactly as written.
* ``user_id``, ``guild_id``, ``channel_id`` are Discord snowflakes (64-bit integers). They
  are not foreign keys: a result may be recorded before a player's name is known.
* Free-text values must not contain NUL; key values (game, terminal location, statuses,
  reminder kinds) are at most :data:`~storage.models.MAX_KEY_LENGTH` characters.
* Update methods change only the fields passed; :data:`~storage.models.UNSET` (the
  default) leaves a field as it is, ``None`` clears a nullable one.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from types import TracebackType
from typing import Any, Protocol, Self

from storage.duplicate import (
    DuplicateBoard,
    DuplicateEntrant,
    DuplicateEvent,
    DuplicateInvitation,
    DuplicatePlay,
)
from storage.models import (
    ActionEntry,
    DealRecord,
    Entrant,
    Fixture,
    ForwardedAction,
    GuildSettings,
    JsonObject,
    LeaderboardPage,
    League,
    Location,
    Match,
    MatchChannels,
    MatchRecord,
    NewFixture,
    PartnerStats,
    Player,
    PlayerStats,
    Rating,
    RatingHistoryEntry,
    RatingUpdate,
    RecoveredTable,
    Rounds,
    Season,
    Table,
    TableMessages,
    TableStatus,
    Unset,
)
from storage.rest_budget import RestUse
from storage.signals import Listener, SessionLock


class TableStore(Protocol):
    """Tables, their action logs and finished matches (with players and guild settings)."""

    # -- lifecycle ---------------------------------------------------------------------

    async def close(self) -> None:
        """Close every connection. The store must not be used afterwards."""
        ...

    async def __aenter__(self) -> Self: ...

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        """Close the store (``async with await open_store() as store: ...``)."""
        ...

    async def schema_version(self) -> int:
        """The database's schema version (equal to ``storage.LATEST_VERSION`` once open)."""
        ...

    # -- players and guilds ------------------------------------------------------------

    async def upsert_player(self, user_id: int, display_name: str) -> Player:
        """Create the player or update their last display name; return the stored row."""
        ...

    async def get_player(self, user_id: int) -> Player | None: ...

    async def get_guild_settings(self, guild_id: int) -> GuildSettings:
        """The guild's settings, with the default for every setting it never changed
        (also for a guild the store has never seen)."""
        ...

    async def update_guild_settings(
        self, guild_id: int, changes: Mapping[str, object]
    ) -> GuildSettings:
        """Change some settings (keys are GuildSettings field names; ``None`` restores the
        default) and return the resulting settings. Unknown keys or values of the wrong type
        raise ValueError. Atomic across processes."""
        ...

    # -- tables and their action logs --------------------------------------------------

    async def create_table(
        self,
        location: Location,
        game: str,
        *,
        options: JsonObject | None = None,
        seats: list[Any] | None = None,
        status: TableStatus = "lobby",
        meta: JsonObject | None = None,
        turn_deadline: dt.datetime | None = None,
        lobby_deadline: dt.datetime | None = None,
    ) -> Table:
        """Create a table (empty action log). A location holds at most one unfinished
        (lobby or playing) table: otherwise raises LocationBusy, naming the one there."""
        ...

    async def get_table(self, table_id: int) -> Table | None: ...

    async def find_open_table(self, location: Location) -> Table | None:
        """The unfinished table at ``location``, if any."""
        ...

    async def update_table(
        self,
        table_id: int,
        *,
        status: TableStatus | Unset = ...,
        options: JsonObject | Unset = ...,
        seats: list[Any] | Unset = ...,
        meta: JsonObject | Unset = ...,
        turn_deadline: dt.datetime | Unset | None = ...,
        lobby_deadline: dt.datetime | Unset | None = ...,
        expected_version: int | None = None,
    ) -> Table:
        """Change the given fields and ``updated_at``, bump ``row_version``; return the
        table. ``finished`` and ``abandoned`` are final: changing the status of such a table
        raises TableClosed (other fields stay editable). Raises NotFound.

        Compare-and-set: with ``expected_version`` the change is made only if the row's
        ``row_version`` is still that number; otherwise StaleTable (carrying the current
        row) is raised and nothing changes. Atomic across processes."""
        ...

    async def append_action(self, table_id: int, seq: int, action: JsonObject) -> None:
        """Append one entry to the table's log; durable when this returns.

        Sequence numbers start at 1 and have no gaps: ``seq`` must be the next one.
        An already used ``seq`` raises DuplicateAction (carrying the stored entry) and
        changes nothing, so retrying an append whose acknowledgement was lost is safe.
        A ``seq`` past the next one raises SequenceGap; a finished or abandoned table raises
        TableClosed; an unknown table raises NotFound.
        """
        ...

    async def append_actions(
        self, table_id: int, first_seq: int, actions: Sequence[JsonObject]
    ) -> None:
        """Append several entries (``first_seq``, ``first_seq + 1``, …) atomically: all or
        none, with the same rules as :meth:`append_action`."""
        ...

    async def load_actions(self, table_id: int, *, after_seq: int = 0) -> list[ActionEntry]:
        """The table's log entries with ``seq > after_seq``, in order. Raises NotFound."""
        ...

    async def load_unfinished_tables(self) -> list[RecoveredTable]:
        """Every lobby or playing table with its whole log, ordered by table id, read from
        one consistent snapshot with two queries (whatever the number of tables)."""
        ...

    # -- matches -----------------------------------------------------------------------

    async def record_match(self, record: MatchRecord) -> bool:
        """Store a finished match with its participants and deal records, atomically.

        At most one match per table: returns True when stored, False (and changes nothing)
        when the table's match was already recorded. Raises NotFound for an unknown table.
        """
        ...

    async def get_match(self, match_id: int) -> Match | None: ...

    async def get_match_for_table(self, table_id: int) -> Match | None: ...

    async def list_matches(
        self, guild_id: int, *, game: str | None = None, user_id: int | None = None,
        limit: int = 10, before_id: int | None = None, offset: int = 0,
        channels: MatchChannels | None = None,
    ) -> list[Match]:
        """The guild's matches newest first (by id), optionally of one game or with one
        player, and with ``channels`` only those it admits (played in a channel the reader
        may read; the filter is part of the query, so pages stay full); at most 100 per
        call. Two ways to page back: ``before_id`` (keyset: only ids below it) and
        ``offset`` (skip that many of the matching matches first, ``>= 0``; ValueError
        otherwise); both together skip ``offset`` of the ids below ``before_id``."""
        ...

    async def load_deals(self, match_id: int) -> list[DealRecord]:
        """The match's deal records ordered by deal number."""
        ...

class RatingsStore(Protocol):
    """Ratings, leaderboards and statistics of finished matches."""

    # -- ratings, leaderboards, statistics ---------------------------------------------

    async def get_ratings(
        self, guild_id: int, game: str, user_ids: Sequence[int], *, season_id: int | None = None
    ) -> dict[int, Rating]:
        """Current ratings of the given players (players without one are absent).
        ``season_id`` None means the all-time ratings."""
        ...

    async def record_ratings(
        self, match_id: int, updates: Sequence[RatingUpdate], *, season_id: int | None = None
    ) -> bool:
        """Store the players' new ratings after a match (guild and game are the match's):
        set mu and sigma, count the match and the win, and add a rating history row each.

        Once per match and season: returns False (changing nothing) if this match already
        updated ratings of that season. The caller computes the new values from
        :meth:`get_ratings`; rating updates of one guild and game should be serialised by
        the caller (one match result at a time), or a concurrent update may be overwritten.
        """
        ...

    async def leaderboard(
        self,
        guild_id: int,
        game: str,
        *,
        season_id: int | None = None,
        limit: int = 20,
        offset: int = 0,
    ) -> LeaderboardPage:
        """One page of the leaderboard ordered by conservative rating (mu − 3·sigma), best
        first, ties by user id; ``rank`` counts from the top of the whole board."""
        ...

    async def rating_history(
        self,
        user_id: int,
        guild_id: int,
        game: str,
        *,
        season_id: int | None = None,
        limit: int = 50,
        offset: int = 0,
        channels: MatchChannels | None = None,
    ) -> list[RatingHistoryEntry]:
        """The player's rating after each of their last ``limit`` rated matches, newest
        first (by the match's finish time, then match id); with ``channels``, only the
        matches it admits (as :meth:`list_matches`). ``offset`` (``>= 0``, ValueError
        otherwise) skips that many of the newest first: pages of ``limit`` rows are
        ``offset = page * limit``."""
        ...

    async def player_stats(self, user_id: int, *, guild_id: int | None = None) -> PlayerStats:
        """Matches, wins, draws, losses and deals per game, in one guild or everywhere."""
        ...

    async def player_partners(
        self,
        user_id: int,
        *,
        guild_id: int | None = None,
        game: str | None = None,
        limit: int = 10,
    ) -> list[PartnerStats]:
        """The human players most often in the same team as ``user_id`` (most matches
        first) and the wins they shared."""
        ...

class LeaguesStore(Protocol):
    """Club leagues: leagues, seasons, entrants, fixtures and their reminders."""

    # -- leagues -----------------------------------------------------------------------

    async def create_league(
        self,
        guild_id: int,
        channel_id: int,
        name: str,
        game: str,
        *,
        weekday: int,
        start_time: dt.time,
        time_zone: str,
        options: JsonObject | None = None,
        rounds: Rounds = "single",
        points_win: int = 3,
        points_draw: int = 1,
        points_loss: int = 0,
        status: str = "draft",
    ) -> League: ...

    async def get_league(self, league_id: int) -> League | None: ...

    async def list_leagues(self, guild_id: int) -> list[League]:
        """The guild's leagues, oldest first."""
        ...

    async def update_league(
        self,
        league_id: int,
        *,
        channel_id: int | Unset = ...,
        name: str | Unset = ...,
        game: str | Unset = ...,
        options: JsonObject | Unset = ...,
        weekday: int | Unset = ...,
        start_time: dt.time | Unset = ...,
        time_zone: str | Unset = ...,
        rounds: Rounds | Unset = ...,
        points_win: int | Unset = ...,
        points_draw: int | Unset = ...,
        points_loss: int | Unset = ...,
        status: str | Unset = ...,
    ) -> League:
        """Raises NotFound."""
        ...

    async def create_season(
        self,
        guild_id: int,
        name: str,
        *,
        league_id: int | None = None,
        status: str = "planned",
        starts_at: dt.datetime | None = None,
        ends_at: dt.datetime | None = None,
    ) -> Season:
        """A league's season, or with ``league_id`` None a guild-wide rating season."""
        ...

    async def get_season(self, season_id: int) -> Season | None: ...

    async def list_seasons(
        self, guild_id: int, *, league_id: int | Unset | None = ...
    ) -> list[Season]:
        """The guild's seasons, oldest first; ``league_id`` narrows to one league (None:
        only the guild-wide seasons)."""
        ...

    async def update_season(
        self,
        season_id: int,
        *,
        name: str | Unset = ...,
        status: str | Unset = ...,
        starts_at: dt.datetime | Unset | None = ...,
        ends_at: dt.datetime | Unset | None = ...,
    ) -> Season:
        """Raises NotFound."""
        ...

    async def add_entrant(
        self, season_id: int, members: Sequence[int], *, name: str | None = None
    ) -> Entrant:
        """A team (with ``name``) or a single player (one member, no name); members keep
        their order."""
        ...

    async def get_entrant(self, entrant_id: int) -> Entrant | None: ...

    async def list_entrants(self, season_id: int) -> list[Entrant]: ...

    async def update_entrant(
        self,
        entrant_id: int,
        *,
        name: str | Unset | None = ...,
        members: Sequence[int] | Unset = ...,
    ) -> Entrant:
        """Rename and/or replace the members. Raises NotFound."""
        ...

    async def create_fixtures(
        self, season_id: int, fixtures: Sequence[NewFixture]
    ) -> list[Fixture]:
        """Create fixtures atomically; returned in the order given."""
        ...

    async def get_fixture(self, fixture_id: int) -> Fixture | None: ...

    async def list_fixtures(self, season_id: int, *, round: int | None = None) -> list[Fixture]:
        """The season's fixtures by round, then creation order."""
        ...

    async def fixtures_due(self, until: dt.datetime, *, status: str = "scheduled") -> list[Fixture]:
        """Fixtures of every guild with this status scheduled at or before ``until``,
        earliest first (for the scheduler)."""
        ...

    async def update_fixture(
        self,
        fixture_id: int,
        *,
        scheduled_at: dt.datetime | Unset | None = ...,
        status: str | Unset = ...,
        result: JsonObject | Unset | None = ...,
        table_id: int | Unset | None = ...,
        match_id: int | Unset | None = ...,
        confirmed_by: int | Unset | None = ...,
    ) -> Fixture:
        """Raises NotFound."""
        ...

    async def mark_reminder_sent(self, fixture_id: int, kind: str) -> bool:
        """Claim the reminder ``kind`` of a fixture: True the first time, False ever after
        (from any process). Claim before sending, and a reminder is never sent twice."""
        ...

    async def reminders_sent(self, fixture_id: int) -> dict[str, dt.datetime]:
        """Kinds of reminder already claimed for the fixture, with when."""
        ...

class ClusterStore(Protocol):
    """What several bot processes on one database share besides tables."""

    # -- several processes: forwarded actions, start locks, wake-ups ------------------

    async def forward_action(
        self,
        table_id: int,
        shard: int,
        request_key: str,
        request: JsonObject,
        *,
        reply_to: JsonObject | None = None,
    ) -> ForwardedAction:
        """Write a request for the process running ``shard`` (the owner of the table) to
        the inbox, ``pending``, and notify :func:`storage.inbox.inbox_channel` of the
        shard when it commits. ``request_key`` (a key, unique per request) makes it
        idempotent: writing the same key again returns the stored entry and writes
        nothing. ``reply_to`` is kept until the entry is done. Raises NotFound for an
        unknown table."""
        ...

    async def get_forward(self, forward_id: int) -> ForwardedAction | None: ...

    async def pending_forwards(
        self, shards: Sequence[int], *, limit: int = 100
    ) -> list[ForwardedAction]:
        """The oldest ``pending`` entries for these shards, in the order written."""
        ...

    async def complete_forward(
        self, forward_id: int, outcome: JsonObject
    ) -> ForwardedAction | None:
        """Mark a pending entry ``done`` with its outcome, erase its ``reply_to``, and
        notify :data:`storage.inbox.DONE_CHANNEL` with its id. Returns the entry, or None
        (changing nothing) when it was done already or does not exist: only the first
        completion counts."""
        ...

    async def purge_forwards(self, done_before: dt.datetime) -> int:
        """Delete the entries done before ``done_before``; returns how many."""
        ...

    def listener(self) -> Listener:
        """A new listener of this database's notifications (see :mod:`storage.signals`;
        on SQLite it never delivers and callers poll). Its owner closes it."""
        ...

    async def lock_shards(self, shards: Sequence[int]) -> SessionLock:
        """Take the start locks of ``shards`` (one PostgreSQL session, or lock files next
        to an SQLite database): held by one process at a time until released or until
        that process ends (also when it is killed). All or none: raises ShardBusy, naming
        the shard and holding nothing, when another process holds one of them."""
        ...

    async def set_web_address(self, shards: Sequence[int], url: str) -> None:
        """Record ``url`` as where the process running ``shards`` serves the web table
        (its internal address, :mod:`storage.web_addresses`); the newest write wins."""
        ...

    async def web_addresses(self) -> dict[int, str]:
        """Every shard's recorded web address (shard → URL)."""
        ...

    async def share_rest_use(self, process: str, made: float, wanted: float, *,
                             within: float) -> list[RestUse]:
        """Record ``process``'s use of the bot's REST budget now (requests per second
        made and wanted, :mod:`storage.rest_budget`) and return every process's use
        recorded in the last ``within`` seconds, its own included."""
        ...

    async def forget_rest_use(self, process: str) -> None:
        """Drop ``process``'s recorded use (it stops)."""
        ...

class FrontEndStore(Protocol):
    """What the front ends keep: where a table is shown, players' languages and
    preferences."""

    # -- where a front end shows a table (storage.adapter_state) ----------------------

    async def get_table_messages(self, table_id: int) -> TableMessages | None:
        """The public message, host and seat panels recorded for a table; None when
        nothing was recorded."""
        ...

    async def save_table_message(
        self,
        table_id: int,
        *,
        channel_id: int | Unset = ...,
        message_id: int | Unset | None = ...,
        creator: int | Unset | None = ...,
    ) -> None:
        """Record (upsert) the given fields of a table's public message."""
        ...

    async def save_seat_panel(
        self,
        table_id: int,
        seat: int,
        *,
        deal: int | Unset | None = ...,
        channel_id: int | Unset | None = ...,
        message_id: int | Unset | None = ...,
        dm_closed: bool | Unset = ...,
    ) -> None:
        """Record (upsert) the given fields of a seat's panel."""
        ...

    async def mark_seat_reminded(self, table_id: int, seat: int,
                                 deadline: dt.datetime) -> bool:
        """Claim the reminder of ``seat`` for the turn ending at ``deadline``: True the
        first time, False (changing nothing) when that deadline was claimed already."""
        ...

    # -- languages (storage.languages; a server's language is GuildSettings.language) --

    async def get_player_language(self, user_id: int) -> str | None:
        """The language code the player chose with ``/language``; None if they never chose
        one or cleared it."""
        ...

    async def get_player_languages(self, user_ids: Sequence[int]) -> dict[int, str]:
        """The chosen languages of several players in one query (players without a choice
        are absent)."""
        ...

    async def set_player_language(self, user_id: int, language: str | None) -> None:
        """Store the player's language code (``None``: forget the choice). A value that is
        not 2–3 lowercase letters raises ValueError and changes nothing."""
        ...

    # -- preferences (storage.preferences) --------------------------------------------

    async def get_play_only_card(self, user_id: int) -> bool:
        """Whether the player wants their only legal card played for them (False unless
        they turned it on)."""
        ...

    async def set_play_only_card(self, user_id: int, on: bool) -> None:
        """Turn the player's "play my only legal card" preference on or off (their
        language choice is kept)."""
        ...


class DuplicateStore(Protocol):
    """Duplicate events (:mod:`storage.duplicate`, whose docstring gives the promises)."""

    async def create_duplicate_event(
        self, guild_id: int, channel_id: int, name: str, game: str, *,
        boards: Sequence[tuple[str, int]], players: int, opens_at: dt.datetime,
        closes_at: dt.datetime, time_zone: str, created_by: int,
        options: JsonObject | None = None, format: str = "pairs",
        scoring: str = "matchpoints", leaderboard: bool = False, league_id: int | None = None,
    ) -> DuplicateEvent:
        """Create an open event with its boards, each ``(seed, dealer)``."""
        ...

    async def get_duplicate_event(self, event_id: int) -> DuplicateEvent | None: ...

    async def list_duplicate_events(self, guild_id: int, *,
                                    status: str | None = None) -> list[DuplicateEvent]: ...

    async def due_duplicate_events(self, until: dt.datetime) -> list[DuplicateEvent]:
        """Open events whose window closed at or before ``until``."""
        ...

    async def close_duplicate_event(self, event_id: int) -> DuplicateEvent: ...

    async def list_duplicate_boards(self, event_id: int) -> list[DuplicateBoard]: ...

    async def add_duplicate_entrant(self, event_id: int, name: str, members: Sequence[int],
                                    *, confirmed: Sequence[int] = ()) -> DuplicateEntrant:
        """Enter members as one entrant (AlreadyEntered when one is in another)."""
        ...

    async def confirm_duplicate_member(self, event_id: int, user_id: int) -> DuplicateEntrant:
        ...

    async def remove_duplicate_entrant(self, entrant_id: int) -> None: ...

    async def get_duplicate_entrant(self, entrant_id: int) -> DuplicateEntrant | None: ...

    async def list_duplicate_entrants(self, event_id: int) -> list[DuplicateEntrant]: ...

    async def duplicate_entrant_of(self, event_id: int,
                                   user_id: int) -> DuplicateEntrant | None: ...

    async def start_duplicate_play(self, event_id: int, entrant_id: int, board: int,
                                   directions: int) -> DuplicatePlay:
        """Start a board from the least-played direction (AlreadyPlayed: started before)."""
        ...

    async def set_duplicate_play_table(self, entrant_id: int, board: int,
                                       table_id: int) -> DuplicatePlay: ...

    async def finish_duplicate_play(self, entrant_id: int, board: int, record: JsonObject,
                                    result: JsonObject) -> DuplicatePlay: ...

    async def get_duplicate_play(self, entrant_id: int, board: int) -> DuplicatePlay | None:
        ...

    async def start_duplicate_meeting(self, event_id: int, entrants: tuple[int, int],
                                      board: int) -> tuple[DuplicatePlay, DuplicatePlay]:
        """Start two entrants' plays of a board at one table, from its two directions
        (AlreadyPlayed, naming the entrant, when either started it before)."""
        ...

    async def duplicate_plays_of_table(self, table_id: int) -> list[DuplicatePlay]: ...

    async def last_finished_duplicate_table(self, guild_id: int, channel_id: int,
                                            user_id: int, since: dt.datetime) -> int | None:
        """The table of the board an entrant of ``user_id`` finished last, at or after
        ``since``, at a table of the channel (None: none)."""
        ...

    async def list_duplicate_plays(self, event_id: int, *,
                                   board: int | None = None) -> list[DuplicatePlay]: ...

    async def get_duplicate_ai(self, event_id: int, board: int,
                               direction: int) -> JsonObject | None: ...

    async def put_duplicate_ai(self, event_id: int, board: int, direction: int,
                               record: JsonObject) -> JsonObject:
        """Store the AI's record unless one is stored; return the stored one."""
        ...

    async def claim_duplicate_post(self, event_id: int, key: str) -> bool:
        """Claim one piece of the close's posting: true the first time only."""
        ...

    async def set_duplicate_post_value(self, event_id: int, key: str, value: str) -> None: ...

    async def duplicate_post_value(self, event_id: int, key: str) -> str | None: ...

    async def put_duplicate_invitation(self, event_id: int, entrant_id: int, invited_id: int,
                                       board: int | None) -> DuplicateInvitation:
        """Store an entrant's meeting invitation, replacing its previous one."""
        ...

    async def get_duplicate_invitation(self, event_id: int,
                                       entrant_id: int) -> DuplicateInvitation | None: ...

    async def take_duplicate_invitation(
            self, event_id: int, entrant_id: int,
            expected: DuplicateInvitation | None = None) -> DuplicateInvitation | None:
        """Remove and return an entrant's pending invitation (one caller gets it); with
        ``expected``, only while it is still that one (same invited entrant and board)."""
        ...


class SecretStore(Protocol):
    """Secrets made once and kept (``storage.secrets``)."""

    async def keep_secret(self, name: str, fresh: str) -> str:
        """Store ``fresh`` under ``name`` unless a value is stored already; return the
        stored value (the first writer's, in every process)."""
        ...


class Store(TableStore, RatingsStore, LeaguesStore, ClusterStore, FrontEndStore,
            DuplicateStore, SecretStore, Protocol):
    """Persistent state of tricktable. Open one with :func:`storage.open_store`; each part
    is a protocol of its own (:class:`TableStore`, :class:`RatingsStore`,
    :class:`LeaguesStore`, :class:`ClusterStore`, :class:`FrontEndStore`,
    :class:`DuplicateStore`, :class:`SecretStore`)."""
