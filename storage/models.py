"""Plain, immutable values that go into and come out of a Store.

Every datetime here is timezone-aware and in UTC. JSON values are whatever ``json.loads``
returns; they come back exactly as they were written (same keys, same key order, same
numbers) on every backend.
"""

from __future__ import annotations

import datetime as dt
import enum
from dataclasses import dataclass
from typing import Any, Final, Literal, TypeAlias

JsonObject: TypeAlias = dict[str, Any]
"""A JSON object, as ``json.loads`` returns it."""

TableStatus: TypeAlias = Literal["lobby", "playing", "finished", "abandoned"]
TABLE_STATUSES: Final[tuple[TableStatus, ...]] = ("lobby", "playing", "finished", "abandoned")
OPEN_STATUSES: Final[tuple[TableStatus, ...]] = ("lobby", "playing")
"""Statuses of an unfinished table: these are reloaded on start."""

Outcome: TypeAlias = Literal["win", "draw", "loss"]
OUTCOMES: Final[tuple[Outcome, ...]] = ("win", "draw", "loss")

Rounds: TypeAlias = Literal["single", "double"]

MAX_KEY_LENGTH: Final = 200
"""Longest string accepted in an indexed key field (game, terminal location, status, kind).

Free-text fields (display names, league, season and team names, time zones) and JSON values
have no length limit.
"""


class Unset(enum.Enum):
    """Type of :data:`UNSET`, the "leave this field unchanged" marker of update methods."""

    UNSET = "UNSET"

    def __repr__(self) -> str:
        return "UNSET"


UNSET: Final = Unset.UNSET


@dataclass(frozen=True, slots=True)
class ChannelLocation:
    """A table in a Discord channel (or thread) of a guild."""

    guild_id: int
    channel_id: int

    def __str__(self) -> str:
        return f"channel {self.channel_id} of guild {self.guild_id}"


@dataclass(frozen=True, slots=True)
class TerminalLocation:
    """A table played in a terminal; ``name`` is any non-empty key (≤ 200 characters)."""

    name: str

    def __str__(self) -> str:
        return f"terminal {self.name!r}"


Location: TypeAlias = ChannelLocation | TerminalLocation


@dataclass(frozen=True, slots=True)
class Player:
    user_id: int
    display_name: str
    created_at: dt.datetime
    updated_at: dt.datetime


@dataclass(frozen=True, slots=True)
class GuildSettings:
    """Per-guild settings. A guild that never changed a setting gets the default here.

    Only the settings a guild changed are stored, so a new default reaches every guild that
    kept the old one.
    """

    turn_timeout: int = 120
    """Seconds a player has to act before the reminder and then the AI stand-in."""
    ai_pace: float = 1.5
    """Seconds an AI player waits before playing, so humans can follow."""
    images: bool = True
    """Whether the table is drawn with card pictures."""
    ai_matches_rated: bool = False
    """Whether matches with AI players in them count for ratings."""
    language: str | None = None
    """The language code of the server's public messages (``/settings language``); None:
    not chosen, the front end decides (``bot.i18n.languages.public_language``)."""


@dataclass(frozen=True, slots=True)
class Table:
    """A game table: where it is, what is played, who sits, and how far it got."""

    id: int
    location: Location
    game: str
    options: JsonObject
    seats: list[Any]
    status: TableStatus
    meta: JsonObject
    """Free-form data of the table service (seed, message ids…)."""
    turn_deadline: dt.datetime | None
    lobby_deadline: dt.datetime | None
    created_at: dt.datetime
    updated_at: dt.datetime
    """Last change of the fields above (appending to the log does not change it: each log
    entry has its own time)."""
    row_version: int = 0
    """Bumped by every ``update_table``: pass it back as ``expected_version`` to change the
    row only if nobody changed it since it was read (compare-and-set)."""


@dataclass(frozen=True, slots=True)
class ActionEntry:
    """One entry of a table's append-only action log."""

    seq: int
    action: JsonObject
    created_at: dt.datetime


@dataclass(frozen=True, slots=True)
class RecoveredTable:
    """An unfinished table with its whole action log (ordered by ``seq``)."""

    table: Table
    actions: list[ActionEntry]


@dataclass(frozen=True, slots=True)
class Participant:
    """One seat of a finished match. ``user_id`` is None for an AI player."""

    seat: int
    user_id: int | None
    team: int
    """Team or side; in a game without teams, use the seat number."""
    outcome: Outcome
    rank: int | None = None
    """Final place (1 = best), when the game ranks players."""


@dataclass(frozen=True, slots=True)
class DealRecord:
    """The full record of one deal of a match (``docs/records.md``)."""

    deal_no: int
    record: JsonObject


@dataclass(frozen=True, slots=True)
class MatchRecord:
    """What :meth:`Store.record_match` stores, once per table."""

    table_id: int
    game: str
    guild_id: int | None
    finished_at: dt.datetime
    result: JsonObject
    """Final totals and anything else the game reports about the match."""
    participants: tuple[Participant, ...]
    deals: tuple[DealRecord, ...] = ()
    rated: bool = True
    season_id: int | None = None
    started_at: dt.datetime | None = None
    channel_id: int | None = None
    """The channel (or thread) the match was played in; None for a terminal table. Who may
    list the match and read its record depends on it (:class:`MatchChannels`)."""


@dataclass(frozen=True, slots=True)
class Match:
    """A recorded match (its deals are read with :meth:`Store.load_deals`)."""

    id: int
    table_id: int
    game: str
    guild_id: int | None
    season_id: int | None
    rated: bool
    result: JsonObject
    deal_count: int
    started_at: dt.datetime | None
    finished_at: dt.datetime
    created_at: dt.datetime
    participants: tuple[Participant, ...]
    channel_id: int | None = None
    """Where it was played (:attr:`MatchRecord.channel_id`); None: unknown (a match stored
    before schema version 7 whose table had no channel, or a terminal table)."""


@dataclass(frozen=True, slots=True)
class MatchChannels:
    """Which of a guild's matches a reader may list, by the channel each was played in.

    A match is admitted when its channel is in ``readable``, or, with ``known`` set, when
    it is an orphan: its channel is unknown (NULL) or not in ``known`` (the guild's
    channels that still exist: the channel was deleted). The front end computes both sets
    from the reader's permissions; the store applies the rule in its queries, so pages stay
    full and counted right."""

    readable: frozenset[int]
    known: frozenset[int] | None = None
    """None: orphans are not admitted."""

    def admits(self, channel_id: int | None) -> bool:
        """The rule above for one match (the queries apply the same rule in SQL)."""
        if channel_id is not None and channel_id in self.readable:
            return True
        return self.known is not None and (channel_id is None or channel_id not in self.known)


@dataclass(frozen=True, slots=True)
class RatingUpdate:
    """A player's rating after a match, as computed by the rating code."""

    user_id: int
    mu: float
    sigma: float
    won: bool


@dataclass(frozen=True, slots=True)
class Rating:
    user_id: int
    mu: float
    sigma: float
    conservative: float
    """mu − 3·sigma, the value leaderboards are ordered by."""
    matches: int
    wins: int
    updated_at: dt.datetime


@dataclass(frozen=True, slots=True)
class LeaderboardEntry:
    rank: int
    """1-based position in the whole leaderboard (not in the page)."""
    user_id: int
    display_name: str | None
    mu: float
    sigma: float
    conservative: float
    matches: int
    wins: int


@dataclass(frozen=True, slots=True)
class LeaderboardPage:
    entries: list[LeaderboardEntry]
    total: int
    """Number of rated players in the whole leaderboard."""
    offset: int
    limit: int


@dataclass(frozen=True, slots=True)
class RatingHistoryEntry:
    match_id: int
    mu: float
    sigma: float
    conservative: float
    finished_at: dt.datetime


@dataclass(frozen=True, slots=True)
class GameStats:
    game: str
    matches: int
    wins: int
    draws: int
    losses: int
    deals: int


@dataclass(frozen=True, slots=True)
class PlayerStats:
    user_id: int
    display_name: str | None
    games: tuple[GameStats, ...]
    """One row per game played, ordered by game."""

    @property
    def matches(self) -> int:
        return sum(g.matches for g in self.games)

    @property
    def wins(self) -> int:
        return sum(g.wins for g in self.games)

    @property
    def deals(self) -> int:
        return sum(g.deals for g in self.games)


@dataclass(frozen=True, slots=True)
class PartnerStats:
    """How often a player sat in the same team as ``user_id``, and won with them."""

    user_id: int
    display_name: str | None
    matches: int
    wins: int


@dataclass(frozen=True, slots=True)
class League:
    id: int
    guild_id: int
    channel_id: int
    name: str
    game: str
    options: JsonObject
    weekday: int
    """0 = Monday … 6 = Sunday, as :meth:`datetime.date.weekday`."""
    start_time: dt.time
    """Local time of day in ``time_zone`` (minute precision)."""
    time_zone: str
    """IANA time zone name; not validated by the store."""
    rounds: Rounds
    points_win: int
    points_draw: int
    points_loss: int
    status: str
    created_at: dt.datetime
    updated_at: dt.datetime


@dataclass(frozen=True, slots=True)
class Season:
    """A season: of a league, or (``league_id`` None) a guild-wide rating season."""

    id: int
    guild_id: int
    league_id: int | None
    name: str
    status: str
    starts_at: dt.datetime | None
    ends_at: dt.datetime | None
    created_at: dt.datetime
    updated_at: dt.datetime


@dataclass(frozen=True, slots=True)
class Entrant:
    """A team (``name`` set) or a single player (``name`` None, one member) in a season."""

    id: int
    season_id: int
    name: str | None
    members: tuple[int, ...]
    created_at: dt.datetime


@dataclass(frozen=True, slots=True)
class NewFixture:
    round: int
    home_entrant_id: int
    away_entrant_id: int | None = None
    """None for a bye."""
    scheduled_at: dt.datetime | None = None
    status: str = "scheduled"


@dataclass(frozen=True, slots=True)
class Fixture:
    id: int
    season_id: int
    round: int
    scheduled_at: dt.datetime | None
    home_entrant_id: int
    away_entrant_id: int | None
    status: str
    result: JsonObject | None
    table_id: int | None
    match_id: int | None
    confirmed_by: int | None
    created_at: dt.datetime
    updated_at: dt.datetime


ForwardStatus: TypeAlias = Literal["pending", "done"]


@dataclass(frozen=True, slots=True)
class ForwardedAction:
    """One entry of the inbox of forwarded actions (several bot processes).

    A process that receives a player's request for a table another process owns writes it
    here for the owner's ``shard``; the owner applies it and stores the ``outcome``.
    ``request_key`` is unique: writing the same request twice yields the same entry.
    ``reply_to`` is the front end's private address for the answer (e.g. an interaction's
    webhook token): it is erased when the entry is done.
    """

    id: int
    request_key: str
    table_id: int
    shard: int
    request: JsonObject
    reply_to: JsonObject | None
    status: ForwardStatus
    outcome: JsonObject | None
    created_at: dt.datetime
    done_at: dt.datetime | None


@dataclass(frozen=True, slots=True)
class SeatPanelRecord:
    """Where one seat's private panel of a table is shown (``storage.adapter_state``)."""

    seat: int
    deal: int | None
    """The deal (0-based) whose hand the DM ``message_id`` shows; ``None``: no DM yet."""
    channel_id: int | None
    message_id: int | None
    dm_closed: bool
    """The player's DMs are closed (Discord error 50007): the channel was told once."""
    reminded: dt.datetime | None
    """The turn deadline the seat was last reminded of."""


@dataclass(frozen=True, slots=True)
class TableMessages:
    """Where a front end shows one game table (``storage.adapter_state``)."""

    table_id: int
    channel_id: int | None
    message_id: int | None
    """The table's public message."""
    creator: int | None
    """The member who opened the table (its host)."""
    seats: dict[int, SeatPanelRecord]
