"""League operations on the Store: create, join, withdraw, start, fixtures, standings, close.

Life of a league (``League.status``): ``open`` (taking entrants) → ``running`` (fixtures
made by :func:`start_league`) → ``closed``. Each league has one season (created with it)
that holds the entrants and fixtures.

Rules decided here (issue 10):

* **Which games.** A fixture is one entrant against another, so a league's game must be
  played by exactly two sides: the four-player partnership games (Arba'a Turub, Turup,
  Tarabish; Albastini with 4 players) with teams of two members, or two-player Albastini
  with single players. Truf (three or four individuals) cannot be a league game.
* **Points** are stored explicitly on the league (default win 2, draw 1, loss 0; the store's
  own default would be 3/1/0).
* **League options JSON**: ``{"players": n, "game_options": {...}, "withdrawn": {...}}`` —
  the player count, the game options (validated; tables must use the same options for a
  match to count), and the withdrawn entrants (entrant id as a string → ISO time).
* **Withdrawal.** Before the league starts, a withdrawn entrant is simply left out of the
  schedule. Once it has started, every unplayed fixture of the entrant (``scheduled`` or
  ``reported`` but unconfirmed) becomes a ``forfeit`` won by the opponent (0–0 score, so
  the difference is untouched), its byes become ``void``; results already played stand.
* **Closing** voids every fixture not yet played (status ``void``; they never count).
* Fixture statuses: ``scheduled``, ``reported`` (score-only result awaiting confirmation),
  ``played``, ``forfeit``, ``bye``, ``void``.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from bot.i18n import N_
from bot.i18n.commands import Option
from bot.i18n.said import Said, SaidError, engine_said
from bot.leagues.schedule import first_kickoff_date, round_robin, weekly_times
from bot.leagues.standings import (
    DEFAULT_POINTS,
    ROUND_POST,
    Points,
    ResultOutcome,
    StandingRow,
    compute_standings,
    fixture_result,
    round_outcomes,
)
from bot.text_safety import clean_text, safe_name
from games.errors import OptionError
from games.registry import GAMES
from storage.base import Store
from storage.models import Entrant, Fixture, League, NewFixture, Rounds, Season

OPEN, RUNNING, CLOSED = "open", "running", "closed"
UNPLAYED = ("scheduled", "reported")
"""Fixture statuses of a match still to be played or confirmed."""


class LeagueError(SaidError):
    """A league operation refused, with a message for the user
    (``LeagueError(N_("…{name}…"), name=…)``: :class:`~bot.i18n.said.SaidError`)."""


def quoted_name(league: League) -> str:
    """The league's name quoted in a refusal (``'Club League'``), shown literally
    (:func:`bot.text_safety.safe_name`: it formats nothing, pings nobody)."""
    return safe_name(repr(league.name))


def league_formats(game: str) -> dict[int, int]:
    """Player counts at which ``game`` can be a league game → members per entrant."""
    info = GAMES.get(game)
    if info is None:
        raise LeagueError(N_("unknown game {game}; games: {games}"), game=repr(game),
                          games=", ".join(GAMES))
    defaults = info.options_type.from_json(None)
    out: dict[int, int] = {}
    for players in info.player_counts:
        sides = info.teams(players, defaults)
        if len(sides) == 2 and len(sides[0]) == len(sides[1]):
            out[players] = len(sides[0])
    return out


@dataclass(frozen=True, slots=True)
class LeagueSetup:
    """The league's options JSON, decoded."""

    players: int
    game_options: dict[str, Any]
    withdrawn: dict[str, str]

    @classmethod
    def of(cls, league: League) -> LeagueSetup:
        o = league.options
        return cls(int(o.get("players", 4)), dict(o.get("game_options", {})),
                   dict(o.get("withdrawn", {})))

    def to_json(self) -> dict[str, Any]:
        return {"players": self.players, "game_options": self.game_options,
                "withdrawn": self.withdrawn}

    def is_withdrawn(self, entrant_id: int) -> bool:
        return str(entrant_id) in self.withdrawn


async def create_league(
    store: Store,
    guild_id: int,
    channel_id: int,
    name: str,
    game: str,
    *,
    weekday: int,
    start_time: dt.time,
    time_zone: str,
    rounds: Rounds = "single",
    players: int | None = None,
    options: dict[str, Any] | None = None,
    points: Points = DEFAULT_POINTS,
) -> League:
    """Create an ``open`` league and its season. ``players`` defaults to the game's
    partnership form (4) where it has one, else its two-player form. The name is stored
    cleaned to one line of visible characters (:func:`bot.text_safety.clean_text`)."""
    formats = league_formats(game)
    if not formats:
        raise LeagueError(N_("{game} is not played by two sides, so it cannot be a league "
                             "game"), game=GAMES[game].title)
    if players is None:
        players = 4 if 4 in formats else min(formats)
    if players not in formats:
        counts: object = "/".join(map(str, sorted(formats)))
        if len(formats) == 2:
            low, high = sorted(formats)
            counts = Said.of(N_("{first} or {second}"), first=low, second=high)
        raise LeagueError(N_("a league of {game} needs {counts} players"),
                          game=GAMES[game].title, counts=counts)
    try:
        game_options = GAMES[game].options_type.from_json(options or {}).to_json()
    except OptionError as exc:  # the engine's reason, in the reader's language
        said = engine_said(exc)
        raise LeagueError(said.message, **said.fields) from None
    if not 0 <= weekday <= 6:
        # Translators: {option} is the name of the option (weekday).
        raise LeagueError(N_("{option} must be 0 (Monday) to 6 (Sunday)"),
                          option=Option("weekday"))
    try:
        ZoneInfo(time_zone)
    except (ZoneInfoNotFoundError, ValueError):
        raise LeagueError(N_("unknown time zone {zone} (use a name like {example})"),
                          zone=repr(time_zone), example="'Europe/Berlin'") from None
    if rounds not in ("single", "double"):
        # Translators: {option} is the name of the option (rounds); {single} and {double}
        # are its values, as typed.
        raise LeagueError(N_("{option} must be {single} or {double}"), option=Option("rounds"),
                          single="'single'", double="'double'")
    name = clean_text(name)
    if not name:
        raise LeagueError(N_("a league needs a name"))
    setup = LeagueSetup(players, game_options, {})
    league = await store.create_league(
        guild_id, channel_id, name, game, weekday=weekday,
        start_time=start_time.replace(second=0, microsecond=0, tzinfo=None),
        time_zone=time_zone, options=setup.to_json(), rounds=rounds,
        points_win=points.win, points_draw=points.draw, points_loss=points.loss, status=OPEN)
    await store.create_season(guild_id, "Season 1", league_id=league.id, status="planned")
    return league


async def get_league(store: Store, league_id: int) -> League:
    league = await store.get_league(league_id)
    if league is None:
        raise LeagueError(N_("there is no league {league}"), league=league_id)
    return league


async def league_season(store: Store, league: League) -> Season:
    """The league's (latest) season."""
    seasons = await store.list_seasons(league.guild_id, league_id=league.id)
    if not seasons:
        raise LeagueError(N_("league {league} has no season"), league=quoted_name(league))
    return seasons[-1]


def league_points(league: League) -> Points:
    return Points(league.points_win, league.points_draw, league.points_loss)


async def active_entrants(store: Store, league: League, season: Season) -> list[Entrant]:
    setup = LeagueSetup.of(league)
    return [e for e in await store.list_entrants(season.id) if not setup.is_withdrawn(e.id)]


async def join_league(
    store: Store, league_id: int, members: Sequence[int], *, name: str | None = None
) -> Entrant:
    """Enter a team (partnership games: two members, ``name`` optional, stored cleaned to
    one line of visible characters: ``Team n`` if nothing is left) or a single player.

    Refused once the league has started, with the wrong number of members, or when a member
    already plays in the league.
    """
    league = await get_league(store, league_id)
    if league.status != OPEN:
        raise LeagueError(N_("league {league} is not taking entrants"), league=quoted_name(league))
    size = league_formats(league.game)[LeagueSetup.of(league).players]
    if len(members) != size or len(set(members)) != size:
        if size == 1:
            raise LeagueError(N_("an entrant of this league is one player"))
        raise LeagueError(N_("an entrant of this league is {count} different players"),
                          count=size)
    season = await league_season(store, league)
    for entrant in await active_entrants(store, league, season):
        taken = set(entrant.members) & set(members)
        if taken:
            raise LeagueError(N_("{player} already plays in league {league}"),
                              player=f"<@{min(taken)}>", league=quoted_name(league))
    if size == 1:
        return await store.add_entrant(season.id, list(members))
    count = len(await store.list_entrants(season.id))
    return await store.add_entrant(season.id, list(members),
                                   name=clean_text(name or "") or f"Team {count + 1}")


@dataclass(frozen=True, slots=True)
class Withdrawal:
    entrant: Entrant
    forfeited: list[Fixture]
    """Fixtures turned into forfeits won by the opponent (empty before the start)."""
    voided: list[Fixture]
    """Byes of the entrant that no longer happen."""


async def withdraw(
    store: Store, league_id: int, entrant_id: int, now: dt.datetime
) -> Withdrawal:
    """Withdraw an entrant (see the module docstring for what happens to its fixtures)."""
    league = await get_league(store, league_id)
    if league.status == CLOSED:
        raise LeagueError(N_("league {league} is closed"), league=quoted_name(league))
    season = await league_season(store, league)
    entrant = await store.get_entrant(entrant_id)
    setup = LeagueSetup.of(league)
    if entrant is None or entrant.season_id != season.id or setup.is_withdrawn(entrant_id):
        raise LeagueError(N_("that entrant does not play in this league"))
    forfeited: list[Fixture] = []
    voided: list[Fixture] = []
    if league.status == RUNNING:
        for f in await store.list_fixtures(season.id):
            if entrant_id not in (f.home_entrant_id, f.away_entrant_id):
                continue
            if f.away_entrant_id is None and f.status == "bye":
                voided.append(await store.update_fixture(f.id, status="void"))
            elif f.status in UNPLAYED:
                outcome: ResultOutcome = ("away" if f.home_entrant_id == entrant_id
                                          else "home")
                forfeited.append(await store.update_fixture(
                    f.id, status="forfeit",
                    result=fixture_result(outcome, 0, 0, source="withdrawal", forfeit=True,
                                          withdrawn=entrant_id)))
    withdrawn = {**setup.withdrawn, str(entrant_id): now.isoformat()}
    await store.update_league(league.id, options={**setup.to_json(), "withdrawn": withdrawn})
    return Withdrawal(entrant, forfeited, voided)


async def start_league(
    store: Store, league_id: int, now: dt.datetime, *, first_day: dt.date | None = None
) -> list[Fixture]:
    """Make the round-robin schedule and start the league.

    Round ``k`` (1-based) is played ``k − 1`` weeks after ``first_day`` (default: the first
    league weekday whose kick-off is after ``now``) at the league's local time. Entrants
    are scheduled in the order they joined.
    """
    league = await get_league(store, league_id)
    if league.status != OPEN:
        raise LeagueError(N_("league {league} has already started"), league=quoted_name(league))
    season = await league_season(store, league)
    entrants = await active_entrants(store, league, season)
    if len(entrants) < 2:
        raise LeagueError(N_("a league needs at least two entrants to start"))
    rounds = round_robin([e.id for e in entrants], league.rounds)
    if first_day is None:
        first_day = first_kickoff_date(now, league.weekday, league.start_time,
                                       league.time_zone)
    elif first_day.weekday() != league.weekday:
        raise LeagueError(N_("the first round must be on the league's weekday"))
    times = weekly_times(first_day, league.start_time, league.time_zone, len(rounds))
    new = [NewFixture(r, home, away, when, "scheduled" if away is not None else "bye")
           for r, (pairs, when) in enumerate(zip(rounds, times, strict=True), start=1)
           for home, away in pairs]
    fixtures = await store.create_fixtures(season.id, new)
    await store.update_season(season.id, status="active", starts_at=times[0],
                              ends_at=times[-1])
    await store.update_league(league.id, status=RUNNING)
    return fixtures


async def standings(store: Store, league_id: int) -> list[StandingRow]:
    """The league table (every entrant, withdrawn ones included): its fixtures and its
    closed duplicate rounds (``docs/duplicate.md``)."""
    league = await get_league(store, league_id)
    season = await league_season(store, league)
    entrants = await store.list_entrants(season.id)
    fixtures = await store.list_fixtures(season.id)
    rounds = [round_outcomes(await store.duplicate_post_value(event.id, ROUND_POST))
              for event in await store.list_duplicate_events(league.guild_id, status="closed")
              if event.league_id == league.id]
    return compute_standings([e.id for e in entrants], fixtures, league_points(league),
                             rounds)


@dataclass(frozen=True, slots=True)
class LeagueView:
    """Everything a ``/league show`` needs in one read."""

    league: League
    season: Season
    entrants: dict[int, Entrant]
    withdrawn: frozenset[int]
    fixtures: list[Fixture]

    def members(self, entrant_id: int | None) -> tuple[int, ...]:
        return () if entrant_id is None else self.entrants[entrant_id].members

    def label(self, entrant_id: int | None) -> str:
        """The entrant for a Discord message: the team's name shown literally (cleaned and
        escaped by :func:`bot.text_safety.safe_name`: it formats nothing, pings nobody),
        or the members' mentions (a single player, or a name with nothing visible left);
        "bye" for None."""
        if entrant_id is None:
            return "bye"
        e = self.entrants[entrant_id]
        return safe_name(e.name or "") or " & ".join(f"<@{m}>" for m in e.members)


async def league_view(store: Store, league_id: int, *, round: int | None = None) -> LeagueView:
    """The league, its season, entrants and fixtures (of one round if given)."""
    league = await get_league(store, league_id)
    season = await league_season(store, league)
    entrants = {e.id: e for e in await store.list_entrants(season.id)}
    setup = LeagueSetup.of(league)
    fixtures = await store.list_fixtures(season.id, round=round)
    withdrawn = frozenset(e for e in entrants if setup.is_withdrawn(e))
    return LeagueView(league, season, entrants, withdrawn, fixtures)


async def close_league(store: Store, league_id: int, now: dt.datetime) -> list[StandingRow]:
    """Close the league: void unplayed fixtures, finish the season; return final table."""
    league = await get_league(store, league_id)
    if league.status == CLOSED:
        raise LeagueError(N_("league {league} is already closed"), league=quoted_name(league))
    season = await league_season(store, league)
    for f in await store.list_fixtures(season.id):
        if f.status in UNPLAYED:
            await store.update_fixture(f.id, status="void")
    await store.update_season(season.id, status="finished", ends_at=now)
    await store.update_league(league.id, status=CLOSED)
    return await standings(store, league_id)
