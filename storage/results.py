"""Match results, deal records, ratings, leaderboards and player statistics."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, cast

from storage import codec
from storage.core import StoreCore
from storage.driver import Row
from storage.errors import NotFound
from storage.models import (
    OUTCOMES,
    DealRecord,
    GameStats,
    LeaderboardEntry,
    LeaderboardPage,
    Match,
    MatchChannels,
    MatchRecord,
    Outcome,
    Participant,
    PartnerStats,
    PlayerStats,
    Rating,
    RatingHistoryEntry,
    RatingUpdate,
)
from storage.sql import placeholders

# Leaderboards read the index ratings_leaderboard in order: no sort, no scan of the board.
_BOARD = "r.guild_id = :guild_id AND r.game = :game AND r.season_key = :season_key"
LEADERBOARD_COUNT_SQL: Final = f"SELECT COUNT(*) AS n FROM ratings r WHERE {_BOARD}"
LEADERBOARD_SQL: Final = f"""
SELECT r.*, p.display_name FROM ratings r
LEFT JOIN players p ON p.user_id = r.user_id
WHERE {_BOARD}
ORDER BY r.conservative DESC, r.user_id
LIMIT :limit OFFSET :offset
"""

_GUILD_FILTER = "(CAST(:guild_id AS BIGINT) IS NULL OR m.guild_id = :guild_id)"
_GAME_FILTER = "(CAST(:game AS TEXT) IS NULL OR m.game = :game)"


def _participant(row: Row) -> Participant:
    user_id = row["user_id"]
    rank = row["final_rank"]
    return Participant(
        seat=int(row["seat"]),
        user_id=None if user_id is None else int(user_id),
        team=int(row["team"]),
        outcome=cast(Outcome, row["outcome"]),
        rank=None if rank is None else int(rank),
    )


def _channel_filter(channels: MatchChannels | None, params: dict[str, object]) -> str:
    """The SQL condition of :class:`MatchChannels` (its ``admits``) on the channel of the
    match ``m`` (TRUE for None), adding its values to ``params`` (``:ch<n>``, ``:kn<n>``)."""
    column = "m.channel_id"
    if channels is None:
        return "1 = 1"
    readable = sorted(codec.integer(c, "channel_id") for c in channels.readable)
    terms = []
    if readable:
        marks, names = placeholders("ch", len(readable))
        params.update(zip(names, readable, strict=True))
        terms.append(f"{column} IN ({marks})")
    known = (None if channels.known is None
             else sorted(codec.integer(c, "channel_id") for c in channels.known))
    if known == []:
        terms.append("1 = 1")  # no channel exists any more: every match is an orphan
    elif known is not None:
        marks, names = placeholders("kn", len(known))
        params.update(zip(names, known, strict=True))
        terms.append(f"{column} IS NULL OR {column} NOT IN ({marks})")
    return "(" + " OR ".join(terms) + ")" if terms else "1 = 0"


def _match(row: Row, participants: tuple[Participant, ...]) -> Match:
    guild_id = row["guild_id"]
    season_id = row["season_id"]
    channel_id = row["channel_id"]
    return Match(
        id=int(row["id"]),
        table_id=int(row["table_id"]),
        game=row["game"],
        guild_id=None if guild_id is None else int(guild_id),
        season_id=None if season_id is None else int(season_id),
        rated=bool(row["rated"]),
        result=codec.decode_object(row["result"]),
        deal_count=int(row["deal_count"]),
        started_at=codec.to_optional_datetime(row["started_at"]),
        finished_at=codec.to_datetime(row["finished_at"]),
        created_at=codec.to_datetime(row["created_at"]),
        participants=participants,
        channel_id=None if channel_id is None else int(channel_id),
    )


def _rating(row: Row) -> Rating:
    return Rating(
        user_id=int(row["user_id"]),
        mu=float(row["mu"]),
        sigma=float(row["sigma"]),
        conservative=float(row["conservative"]),
        matches=int(row["matches"]),
        wins=int(row["wins"]),
        updated_at=codec.to_datetime(row["updated_at"]),
    )


def _check_participants(participants: Sequence[Participant]) -> list[dict[str, object]]:
    if not participants:
        raise ValueError("a match needs at least one participant")
    seats = [p.seat for p in participants]
    if len(set(seats)) != len(seats):
        raise ValueError("participants must have distinct seats")
    rows: list[dict[str, object]] = []
    for p in participants:
        if p.outcome not in OUTCOMES:
            raise ValueError(f"outcome must be one of {', '.join(OUTCOMES)}: {p.outcome!r}")
        rows.append(
            {
                "seat": codec.integer(p.seat, "seat"),
                "user_id": codec.optional_integer(p.user_id, "user_id"),
                "team": codec.integer(p.team, "team"),
                "outcome": p.outcome,
                "final_rank": codec.optional_integer(p.rank, "rank"),
            }
        )
    return rows


class ResultsMixin(StoreCore):
    # -- matches -----------------------------------------------------------------------

    async def record_match(self, record: MatchRecord) -> bool:
        participants = _check_participants(record.participants)
        deal_numbers = [d.deal_no for d in record.deals]
        if len(set(deal_numbers)) != len(deal_numbers):
            raise ValueError("deals must have distinct deal numbers")
        deals = [
            {
                "deal_no": codec.integer(d.deal_no, "deal_no"),
                "record": codec.encode_object(d.record, "deal record"),
            }
            for d in record.deals
        ]
        params = {
            "table_id": codec.integer(record.table_id, "table_id"),
            "guild_id": codec.optional_integer(record.guild_id, "guild_id"),
            "channel_id": codec.optional_integer(record.channel_id, "channel_id"),
            "game": codec.key(record.game, "game"),
            "season_id": codec.optional_integer(record.season_id, "season_id"),
            "rated": bool(record.rated),
            "result": codec.encode_object(record.result, "result"),
            "deal_count": len(deals),
            "started_at": codec.optional_aware(record.started_at, "started_at"),
            "finished_at": codec.aware(record.finished_at, "finished_at"),
            "now": self._now(),
        }
        async with self._db.write() as connection:
            table = await connection.fetchrow(
                "SELECT id FROM game_tables WHERE id = :table_id", params
            )
            if table is None:
                raise NotFound(f"table {record.table_id} does not exist")
            row = await connection.fetchrow(
                """
                INSERT INTO matches (table_id, guild_id, channel_id, game, season_id, rated,
                    result, deal_count, started_at, finished_at, created_at)
                VALUES (:table_id, :guild_id, :channel_id, :game, :season_id, :rated,
                    :result, :deal_count, :started_at, :finished_at, :now)
                ON CONFLICT (table_id) DO NOTHING
                RETURNING id
                """,
                params,
            )
            if row is None:
                return False  # already recorded: nothing is written
            match_id = int(row["id"])
            await connection.executemany(
                "INSERT INTO participants (match_id, seat, user_id, team, outcome, final_rank)"
                " VALUES (:match_id, :seat, :user_id, :team, :outcome, :final_rank)",
                [{**p, "match_id": match_id} for p in participants],
            )
            await connection.executemany(
                "INSERT INTO deals (match_id, deal_no, record)"
                " VALUES (:match_id, :deal_no, :record)",
                [{**d, "match_id": match_id} for d in deals],
            )
        return True

    async def get_match(self, match_id: int) -> Match | None:
        return await self._get_match("id", match_id)

    async def get_match_for_table(self, table_id: int) -> Match | None:
        return await self._get_match("table_id", table_id)

    async def list_matches(
        self, guild_id: int, *, game: str | None = None, user_id: int | None = None,
        limit: int = 10, before_id: int | None = None, offset: int = 0,
        channels: MatchChannels | None = None,
    ) -> list[Match]:
        params: dict[str, object] = {
            "guild_id": codec.integer(guild_id, "guild_id"),
            "limit": max(1, min(int(limit), 100)),
            "offset": codec.integer(offset, "offset", minimum=0),
        }
        where = ["m.guild_id = :guild_id"]
        if game is not None:
            params["game"] = codec.key(game, "game")
            where.append("m.game = :game")
        if before_id is not None:
            params["before_id"] = codec.integer(before_id, "before_id")
            where.append("m.id < :before_id")
        if user_id is not None:
            params["user_id"] = codec.integer(user_id, "user_id")
            where.append("EXISTS (SELECT 1 FROM participants p"
                         " WHERE p.match_id = m.id AND p.user_id = :user_id)")
        if channels is not None:
            where.append(_channel_filter(channels, params))
        async with self._db.read() as connection:
            rows = await connection.fetch(
                f"SELECT * FROM matches m WHERE {' AND '.join(where)}"
                " ORDER BY m.id DESC LIMIT :limit OFFSET :offset",
                params,
            )
            ids = [int(r["id"]) for r in rows]
            people: dict[int, list[Participant]] = {i: [] for i in ids}
            if ids:
                marks = ", ".join(f":id{i}" for i in range(len(ids)))
                for r in await connection.fetch(
                    f"SELECT * FROM participants WHERE match_id IN ({marks})"
                    " ORDER BY match_id, seat",
                    {f"id{i}": v for i, v in enumerate(ids)},
                ):
                    people[int(r["match_id"])].append(_participant(r))
        return [_match(r, tuple(people[int(r["id"])])) for r in rows]

    async def _get_match(self, column: str, value: int) -> Match | None:
        async with self._db.read() as connection:
            row = await connection.fetchrow(
                f"SELECT * FROM matches WHERE {column} = :value", {"value": value}
            )
            if row is None:
                return None
            rows = await connection.fetch(
                "SELECT * FROM participants WHERE match_id = :id ORDER BY seat", {"id": row["id"]}
            )
        return _match(row, tuple(_participant(r) for r in rows))

    async def load_deals(self, match_id: int) -> list[DealRecord]:
        async with self._db.read() as connection:
            rows = await connection.fetch(
                "SELECT deal_no, record FROM deals WHERE match_id = :id ORDER BY deal_no",
                {"id": match_id},
            )
        return [DealRecord(int(r["deal_no"]), codec.decode_object(r["record"])) for r in rows]

    # -- ratings -----------------------------------------------------------------------

    async def get_ratings(
        self, guild_id: int, game: str, user_ids: Sequence[int], *, season_id: int | None = None
    ) -> dict[int, Rating]:
        if not user_ids:
            return {}
        in_list, names = placeholders("u", len(user_ids))
        params: dict[str, object] = dict(zip(names, user_ids, strict=True))
        params.update(guild_id=guild_id, game=game, season_key=season_id or 0)
        async with self._db.read() as connection:
            rows = await connection.fetch(
                f"""
                SELECT * FROM ratings
                WHERE guild_id = :guild_id AND game = :game AND season_key = :season_key
                  AND user_id IN ({in_list})
                """,
                params,
            )
        return {int(r["user_id"]): _rating(r) for r in rows}

    async def record_ratings(
        self, match_id: int, updates: Sequence[RatingUpdate], *, season_id: int | None = None
    ) -> bool:
        if not updates:
            raise ValueError("record_ratings needs at least one update")
        if len({u.user_id for u in updates}) != len(updates):
            raise ValueError("rating updates must be for distinct players")
        now = self._now()
        rows: list[dict[str, object]] = []
        for u in updates:
            sigma = codec.finite(u.sigma, "sigma")
            if sigma <= 0:
                raise ValueError("sigma must be positive")
            rows.append(
                {
                    "match_id": match_id,
                    "season_id": codec.optional_integer(season_id, "season_id"),
                    "user_id": codec.integer(u.user_id, "user_id"),
                    "mu": codec.finite(u.mu, "mu"),
                    "sigma": sigma,
                    "win": 1 if u.won else 0,
                    "now": now,
                }
            )
        history_sql = (
            "INSERT INTO rating_history (match_id, season_id, user_id, mu, sigma, created_at)"
            " VALUES (:match_id, :season_id, :user_id, :mu, :sigma, :now)"
        )
        async with self._db.write() as connection:
            match = await connection.fetchrow(
                "SELECT guild_id, game FROM matches WHERE id = :id", {"id": match_id}
            )
            if match is None:
                raise NotFound(f"match {match_id} does not exist")
            if match["guild_id"] is None:
                raise ValueError(f"match {match_id} was not played in a guild; it has no ratings")
            first = await connection.fetchrow(
                history_sql + " ON CONFLICT DO NOTHING RETURNING user_id", rows[0]
            )
            if first is None:
                return False  # this match already updated these ratings
            await connection.executemany(history_sql, rows[1:])
            await connection.executemany(
                """
                INSERT INTO ratings (guild_id, game, season_id, user_id, mu, sigma, matches,
                    wins, updated_at)
                VALUES (:guild_id, :game, :season_id, :user_id, :mu, :sigma, 1, :win, :now)
                ON CONFLICT (guild_id, game, season_key, user_id) DO UPDATE
                SET mu = excluded.mu, sigma = excluded.sigma,
                    matches = ratings.matches + 1, wins = ratings.wins + excluded.wins,
                    updated_at = excluded.updated_at
                """,
                [{**r, "guild_id": match["guild_id"], "game": match["game"]} for r in rows],
            )
        return True

    async def leaderboard(
        self,
        guild_id: int,
        game: str,
        *,
        season_id: int | None = None,
        limit: int = 20,
        offset: int = 0,
    ) -> LeaderboardPage:
        codec.integer(limit, "limit", minimum=1)
        codec.integer(offset, "offset", minimum=0)
        params = {
            "guild_id": guild_id,
            "game": game,
            "season_key": season_id or 0,
            "limit": limit,
            "offset": offset,
        }
        async with self._db.read() as connection:
            total = await connection.fetchrow(LEADERBOARD_COUNT_SQL, params)
            rows = await connection.fetch(LEADERBOARD_SQL, params)
        entries = [
            LeaderboardEntry(
                rank=offset + i + 1,
                user_id=int(r["user_id"]),
                display_name=r["display_name"],
                mu=float(r["mu"]),
                sigma=float(r["sigma"]),
                conservative=float(r["conservative"]),
                matches=int(r["matches"]),
                wins=int(r["wins"]),
            )
            for i, r in enumerate(rows)
        ]
        return LeaderboardPage(entries, int(total["n"]) if total is not None else 0, offset, limit)

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
        codec.integer(offset, "offset", minimum=0)
        params: dict[str, object] = {
            "user_id": user_id,
            "season_key": season_id or 0,
            "guild_id": guild_id,
            "game": game,
            "limit": limit,
            "offset": offset,
        }
        where = _channel_filter(channels, params)
        async with self._db.read() as connection:
            rows = await connection.fetch(
                f"""
                SELECT h.match_id, h.mu, h.sigma, m.finished_at
                FROM rating_history h JOIN matches m ON m.id = h.match_id
                WHERE h.user_id = :user_id AND h.season_key = :season_key
                  AND m.guild_id = :guild_id AND m.game = :game AND {where}
                ORDER BY m.finished_at DESC, h.match_id DESC
                LIMIT :limit OFFSET :offset
                """,
                params,
            )
        return [
            RatingHistoryEntry(
                match_id=int(r["match_id"]),
                mu=float(r["mu"]),
                sigma=float(r["sigma"]),
                conservative=float(r["mu"]) - 3 * float(r["sigma"]),
                finished_at=codec.to_datetime(r["finished_at"]),
            )
            for r in rows
        ]

    # -- statistics --------------------------------------------------------------------

    async def player_stats(self, user_id: int, *, guild_id: int | None = None) -> PlayerStats:
        params = {"user_id": user_id, "guild_id": guild_id}
        async with self._db.read() as connection:
            rows = await connection.fetch(
                f"""
                SELECT m.game,
                    COUNT(*) AS matches,
                    SUM(CASE WHEN p.outcome = 'win' THEN 1 ELSE 0 END) AS wins,
                    SUM(CASE WHEN p.outcome = 'draw' THEN 1 ELSE 0 END) AS draws,
                    SUM(CASE WHEN p.outcome = 'loss' THEN 1 ELSE 0 END) AS losses,
                    SUM(m.deal_count) AS deals
                FROM participants p JOIN matches m ON m.id = p.match_id
                WHERE p.user_id = :user_id AND {_GUILD_FILTER}
                GROUP BY m.game
                ORDER BY m.game
                """,
                params,
            )
            player = await connection.fetchrow(
                "SELECT display_name FROM players WHERE user_id = :user_id", params
            )
        games = tuple(
            GameStats(
                game=r["game"],
                matches=int(r["matches"]),
                wins=int(r["wins"]),
                draws=int(r["draws"]),
                losses=int(r["losses"]),
                deals=int(r["deals"]),
            )
            for r in rows
        )
        return PlayerStats(user_id, None if player is None else player["display_name"], games)

    async def player_partners(
        self,
        user_id: int,
        *,
        guild_id: int | None = None,
        game: str | None = None,
        limit: int = 10,
    ) -> list[PartnerStats]:
        async with self._db.read() as connection:
            rows = await connection.fetch(
                f"""
                SELECT o.user_id, pl.display_name, COUNT(*) AS matches,
                    SUM(CASE WHEN me.outcome = 'win' THEN 1 ELSE 0 END) AS wins
                FROM participants me
                JOIN participants o
                    ON o.match_id = me.match_id AND o.team = me.team AND o.seat <> me.seat
                JOIN matches m ON m.id = me.match_id
                LEFT JOIN players pl ON pl.user_id = o.user_id
                WHERE me.user_id = :user_id AND o.user_id IS NOT NULL
                  AND o.user_id <> me.user_id AND {_GUILD_FILTER} AND {_GAME_FILTER}
                GROUP BY o.user_id, pl.display_name
                ORDER BY COUNT(*) DESC, o.user_id
                LIMIT :limit
                """,
                {"user_id": user_id, "guild_id": guild_id, "game": game, "limit": limit},
            )
        return [
            PartnerStats(
                user_id=int(r["user_id"]),
                display_name=r["display_name"],
                matches=int(r["matches"]),
                wins=int(r["wins"]),
            )
            for r in rows
        ]
