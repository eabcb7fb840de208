"""OpenSkill ratings per guild and game, leaderboards, and guild-wide rating seasons.

The model is OpenSkill's Plackett–Luce (``openskill.models.PlackettLuce``, default
parameters: mu 25, sigma 25/3). The store keeps the numbers; this module computes them.

Contract (issue 10):

* **Who is rated.** Only matches the table service recorded as ``rated`` in a guild (the
  service sets ``rated`` from the guild setting ``ai_matches_rated`` when AI seats are
  present). AI players are never rated. In a rated match with AI seats, every AI seat plays
  as a fixed, unrated opponent of rating mu 25, sigma 25/3 (the model's default, see
  :data:`AI_MU`, :data:`AI_SIGMA`): it counts in its team's strength, its rating never
  changes and nothing is stored for it. A side made only of AI seats is such an opponent as
  a whole (so a human pair that beats two AI players gains, against two 25/8.33 players).
* **Sides.** The participants' ``team`` numbers are the sides: partnership games rate the
  two teams, Albastini its sides, Truf its four (or three) individual seats.
* **Ranks** (1 = best, ties share a rank): a side in the match's winners (summary
  ``winners``, else ``winner``) ranks first; every other side ranks by its match total
  (summary ``totals``, higher is better), ties sharing. In a two-side game this is simply
  winner 1, loser 2, and a drawn match ranks both first.
* **Exactly once.** :func:`rate_match` reads the stored match, computes from the current
  ratings and writes them with ``Store.record_ratings``, which stores a match's update
  once per season and returns False afterwards, so a repeated or recovered call changes
  nothing. Updates of one guild and game are serialised by an in-process lock (a guild's
  tables live in one bot process, the one running its shard).
* **Seasons.** Every rated match updates the all-time ratings and, when the guild has an
  active guild-wide rating season (a season with ``league_id`` None and status
  ``"active"``), that season's ratings too; the season's leaderboard starts from scratch.
"""

from __future__ import annotations

import asyncio
import datetime as dt
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from openskill.models import PlackettLuce

from bot.leagues.reports import record_table_match
from bot.service.hooks import FinishedMatch
from storage.base import Store
from storage.errors import NotFound
from storage.models import Match, Participant, RatingUpdate, Season

MODEL = PlackettLuce()
AI_MU: float = MODEL.mu
"""Fixed rating of an AI seat in a rated match (the model's default mu, 25)."""
AI_SIGMA: float = MODEL.sigma
"""Fixed uncertainty of an AI seat (the model's default sigma, 25/3)."""

_locks: dict[tuple[int, str], asyncio.Lock] = {}


def _lock(guild_id: int, game: str) -> asyncio.Lock:
    return _locks.setdefault((guild_id, game), asyncio.Lock())


def conservative(mu: float, sigma: float) -> float:
    """The leaderboard value: mu − 3·sigma."""
    return mu - 3.0 * sigma


def side_ranks(participants: Sequence[Participant], summary: Mapping[str, Any]) -> dict[int, int]:
    """Rank of each side (``team``) of a finished match: winners first, then by ``totals``.

    Ties share a rank and the next rank skips (1, 1, 3) — only the order matters to the
    model.
    """
    sides = sorted({p.team for p in participants})
    winners_raw = summary.get("winners")
    if isinstance(winners_raw, list):
        winners = {int(w) for w in winners_raw}
    elif summary.get("winner") is not None:
        winners = {int(summary["winner"])}
    else:
        winners = set()
    totals = summary.get("totals")

    def total(side: int) -> float:
        if isinstance(totals, list) and 0 <= side < len(totals) and len(sides) > 2:
            value = totals[side]
            return float(value) if isinstance(value, (int, float)) else 0.0
        return 0.0

    def key(side: int) -> tuple[int, float]:
        return (0 if side in winners else 1, -total(side))

    ordered = sorted(sides, key=key)
    ranks: dict[int, int] = {}
    for position, side in enumerate(ordered, start=1):
        previous = ordered[position - 2] if position > 1 else None
        if previous is not None and key(previous) == key(side):
            ranks[side] = ranks[previous]
        else:
            ranks[side] = position
    return ranks


@dataclass(frozen=True, slots=True)
class PlayerRating:
    """A rating as input to :func:`compute_updates` (defaults: an unrated newcomer)."""

    mu: float = AI_MU
    sigma: float = AI_SIGMA


def compute_updates(
    participants: Sequence[Participant],
    ranks: Mapping[int, int],
    current: Mapping[int, PlayerRating],
) -> list[RatingUpdate]:
    """New ratings of the human participants (pure; the heart of :func:`rate_match`).

    ``current`` holds the ratings of players who have one; others start at the model's
    default. AI seats (``user_id`` None) take part at the fixed AI rating and get no update.
    ``won`` is the participant's stored outcome ``"win"``. Returns [] when there is no human
    or only one side.
    """
    sides = sorted({p.team for p in participants})
    if len(sides) < 2 or all(p.user_id is None for p in participants):
        return []
    teams: list[list[Any]] = []
    members: list[list[Participant]] = []
    for side in sides:
        seated = sorted((p for p in participants if p.team == side), key=lambda p: p.seat)
        team = []
        for p in seated:
            r = current.get(p.user_id) if p.user_id is not None else None
            if p.user_id is None:
                team.append(MODEL.rating(mu=AI_MU, sigma=AI_SIGMA))
            else:
                r = r or PlayerRating()
                team.append(MODEL.rating(mu=r.mu, sigma=r.sigma))
        teams.append(team)
        members.append(seated)
    rated = MODEL.rate(teams, ranks=[float(ranks[side]) for side in sides])
    updates: list[RatingUpdate] = []
    for team_members, new_team in zip(members, rated, strict=True):
        for p, new in zip(team_members, new_team, strict=True):
            if p.user_id is not None:
                updates.append(RatingUpdate(p.user_id, float(new.mu), float(new.sigma),
                                            p.outcome == "win"))
    return updates


async def active_rating_season(store: Store, guild_id: int, at: dt.datetime) -> Season | None:
    """The guild-wide rating season running at ``at``: status ``"active"`` and ``at`` within
    its ``starts_at``/``ends_at`` where they are set (the newest such season)."""
    found = None
    for season in await store.list_seasons(guild_id, league_id=None):
        if season.status != "active":
            continue
        if season.starts_at is not None and at < season.starts_at:
            continue
        if season.ends_at is not None and at >= season.ends_at:
            continue
        found = season
    return found


async def start_rating_season(
    store: Store, guild_id: int, name: str, now: dt.datetime
) -> Season:
    """End the guild's active rating season (if any) at ``now`` and start a new one."""
    current = await active_rating_season(store, guild_id, now)
    if current is not None:
        await store.update_season(current.id, status="finished", ends_at=now)
    return await store.create_season(guild_id, name, status="active", starts_at=now)


async def end_rating_season(store: Store, guild_id: int, now: dt.datetime) -> Season | None:
    """Finish the active rating season at ``now``; its leaderboard stays readable."""
    current = await active_rating_season(store, guild_id, now)
    if current is None:
        return None
    return await store.update_season(current.id, status="finished", ends_at=now)


async def rate_match(store: Store, match_id: int) -> dict[int | None, bool]:
    """Rate a recorded match, once: all-time and the active rating season.

    Returns, per season key (None = all time), whether ratings were written now (False:
    this match had already been rated there, so nothing changed). Returns {} for a match
    that is not rated (unrated, not in a guild, no human).
    Raises NotFound for an unknown match.
    """
    match = await store.get_match(match_id)
    if match is None:
        raise NotFound(f"match {match_id} does not exist")
    if not match.rated or match.guild_id is None:
        return {}
    summary = _summary_of(match)
    ranks = side_ranks(match.participants, summary)
    humans = sorted({p.user_id for p in match.participants if p.user_id is not None})
    seasons: list[int | None] = [None]
    season = await active_rating_season(store, match.guild_id, match.finished_at)
    if season is not None:
        seasons.append(season.id)
    if match.season_id is not None and match.season_id not in seasons:
        seasons.append(match.season_id)
    written: dict[int | None, bool] = {}
    async with _lock(match.guild_id, match.game):
        for season_id in seasons:
            stored = await store.get_ratings(match.guild_id, match.game, humans,
                                             season_id=season_id)
            current = {uid: PlayerRating(r.mu, r.sigma) for uid, r in stored.items()}
            updates = compute_updates(match.participants, ranks, current)
            if not updates:
                return {}
            written[season_id] = await store.record_ratings(match.id, updates,
                                                            season_id=season_id)
    return written


def _summary_of(match: Match) -> Mapping[str, Any]:
    """The match summary the table service stores in ``result["summary"]`` (or the result
    itself when it is a bare summary, e.g. a reported match)."""
    inner = match.result.get("summary")
    return inner if isinstance(inner, Mapping) else match.result


# -- leaderboards ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class LeaderboardRow:
    rank: int
    user_id: int
    display_name: str | None
    rating: float
    """The conservative rating mu − 3·sigma the board is ordered by."""
    mu: float
    sigma: float
    matches: int
    wins: int

    @property
    def win_rate(self) -> float:
        """Wins per match played (0.0 with no match)."""
        return self.wins / self.matches if self.matches else 0.0


@dataclass(frozen=True, slots=True)
class Leaderboard:
    guild_id: int
    game: str
    season_id: int | None
    page: int
    """0-based page number."""
    pages: int
    """Number of pages (at least 1, even for an empty board)."""
    total: int
    rows: list[LeaderboardRow]


async def leaderboard(
    store: Store,
    guild_id: int,
    game: str,
    *,
    page: int = 0,
    per_page: int = 10,
    season_id: int | None = None,
) -> Leaderboard:
    """One page (0-based) of the guild's board for ``game``, best conservative rating first.

    A page past the end is clamped to the last page.
    """
    if per_page < 1:
        raise ValueError("per_page must be at least 1")
    page = max(0, page)
    result = await store.leaderboard(guild_id, game, season_id=season_id, limit=per_page,
                                     offset=page * per_page)
    pages = max(1, -(-result.total // per_page))
    if page >= pages:
        page = pages - 1
        result = await store.leaderboard(guild_id, game, season_id=season_id,
                                         limit=per_page, offset=page * per_page)
    rows = [LeaderboardRow(e.rank, e.user_id, e.display_name, e.conservative, e.mu, e.sigma,
                           e.matches, e.wins) for e in result.entries]
    return Leaderboard(guild_id, game, season_id, page, pages, result.total, rows)


# -- the table service's hook ----------------------------------------------------------


class MatchResultsHook:
    """The :class:`bot.service.hooks.RatingsHook` of the bot: rates the match and records
    it on a league fixture when it is one. Idempotent per match (recovery may call twice).

    Pass it to the table service: ``TableService(store, ratings=MatchResultsHook(store))``.
    """

    def __init__(self, store: Store) -> None:
        self.store = store

    async def match_finished(self, match: FinishedMatch) -> None:
        await rate_match(self.store, match.match_id)
        if match.guild_id is None:
            return
        table = await self.store.get_table(match.table_id)
        if table is None:
            return
        sides: dict[int, list[int | None]] = {}
        for p in sorted(match.participants, key=lambda p: p.seat):
            sides.setdefault(p.team, []).append(p.user_id)
        await record_table_match(
            self.store, guild_id=match.guild_id, game=match.game, players=len(table.seats),
            options=table.options, sides=[sides[t] for t in sorted(sides)],
            summary=match.summary, match_id=match.match_id, table_id=match.table_id)
