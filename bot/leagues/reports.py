"""Fixture results: from a match played at a bot table, or reported from a physical table.

* :func:`record_table_match` — called for every finished table match (by
  :class:`bot.ratings.MatchResultsHook`). If the two sides are exactly the two entrants of
  an open (``scheduled``) fixture of a running league of that guild, with the league's game,
  player count and options (compared after validation, so defaults spelled out or left out
  are the same), the earliest such fixture gets the result (status ``played``). The table
  may be in any channel of the guild; a table with an AI seat never counts. Idempotent: a
  match already recorded on a fixture is not recorded again.
* :func:`report_result` — a member of either entrant (or an admin) enters the deals as
  score-only deals (``docs/records.md``); they are replayed with
  :func:`games.records.replay` to get the result, and the fixture waits (status
  ``reported``) until :func:`confirm_report` by a member of the *other* entrant or by an
  admin; :func:`reject_report` puts it back to ``scheduled``. In a report, team 0 of the
  game (seats 0 and 2, or seat 0) is the home entrant and team 1 the away entrant; the
  match must be complete (decided) for the report to be accepted.
* :func:`report_record` — the same for a match given as a full game record (a ``/history``
  or ``/table export`` file, or one from another tricktable instance): it must be of the
  league's game, player count and options and replay cleanly; it is stored as given.

Both reports share one path (:func:`_report`): the checks of who may report, the replay
(in a worker thread: a long record takes tens of milliseconds), the result stored with
the record replayed. A refusal is a :class:`LeagueError` quoting the replay's reason.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.i18n import N_, ngettext_noop
from bot.i18n.said import Said
from bot.leagues.service import (
    RUNNING,
    LeagueError,
    LeagueSetup,
    active_entrants,
    league_season,
    quoted_name,
)
from bot.leagues.standings import ResultOutcome, fixture_result
from games.errors import OptionError, RecordError, quote
from games.records import FORMAT, open_match, replay
from games.registry import GAMES, UnknownGame, game_id
from storage.base import Store
from storage.models import Entrant, Fixture, League

REPORTED = "reported"


def _outcome(winner: object) -> ResultOutcome:
    if winner == 0:
        return "home"
    if winner == 1:
        return "away"
    return "draw"


def _same_options(game: str, a: Mapping[str, Any], b: Mapping[str, Any]) -> bool:
    opts = GAMES[game].options_type
    try:
        return bool(opts.from_json(a) == opts.from_json(b))
    except OptionError:
        return False


async def _fixture_context(store: Store, fixture_id: int) -> tuple[Fixture, League]:
    fixture = await store.get_fixture(fixture_id)
    if fixture is None:
        raise LeagueError(N_("there is no fixture {fixture}"), fixture=fixture_id)
    season = await store.get_season(fixture.season_id)
    league = None
    if season is not None and season.league_id is not None:
        league = await store.get_league(season.league_id)
    if league is None:
        raise LeagueError(N_("fixture {fixture} belongs to no league"), fixture=fixture_id)
    return fixture, league


async def _entrants_of(store: Store, fixture: Fixture) -> tuple[Entrant, Entrant]:
    if fixture.away_entrant_id is None:
        raise LeagueError(N_("a bye has no result"))
    home = await store.get_entrant(fixture.home_entrant_id)
    away = await store.get_entrant(fixture.away_entrant_id)
    assert home is not None and away is not None
    return home, away


async def report_result(
    store: Store,
    fixture_id: int,
    reporter_id: int,
    deals: Sequence[Mapping[str, Any]],
    *,
    first_dealer: int = 0,
    is_admin: bool = False,
) -> Fixture:
    """Record a physical-table result (score-only deal summaries, in order), awaiting
    confirmation. Returns the fixture with status ``reported`` and the computed result."""

    def scoresheet(league: League, setup: LeagueSetup) -> dict[str, Any]:
        if not deals:
            raise LeagueError(N_("a report needs at least one deal"))
        return {
            "format": FORMAT, "game": league.game, "players": setup.players,
            "options": setup.game_options,
            "deals": [{"dealer": first_dealer, "summary": dict(deals[0])},
                      *({"summary": dict(d)} for d in deals[1:])],
        }

    return await _report(store, fixture_id, reporter_id, is_admin, scoresheet, _SCORESHEET)


async def report_record(
    store: Store,
    fixture_id: int,
    reporter_id: int,
    record: Mapping[str, Any],
    *,
    first_dealer: int | None = None,
    is_admin: bool = False,
) -> Fixture:
    """Record the result of a match given as a full game record (``docs/records.md``: a
    ``/history`` or ``/table export`` file, ``tricktable simulate --records``, another
    tricktable instance), awaiting confirmation like :func:`report_result`.

    The record must be of the league's game (named in any case, ``-`` for ``_``, as
    :func:`games.registry.game_id` reads it; a name that is no game is quoted clipped),
    player count and options (compared after validation), replay cleanly
    (:func:`games.records.replay`: every action accepted) and finish the match;
    ``first_dealer``, when given, must be the record's first dealer. Team 0 (seats 0 and 2,
    or seat 0) is the home entrant, as in a scoresheet. The record is stored in the result
    as given (its game name too; a single-deal shorthand written out as a ``deals`` list).
    Raises :class:`LeagueError` quoting the replay's problem."""

    def checked(league: League, setup: LeagueSetup) -> dict[str, Any]:
        game = record.get("game")
        if isinstance(game, str):  # any other value: the replay names the problem
            try:
                named: str | None = game_id(game)  # any case, "-" for "_"
            except UnknownGame:
                named = None
            if named != league.game:
                title = GAMES[named].title if named is not None else quote(game)
                raise LeagueError(N_("this is a record of {game}, but league {league} plays "
                                     "{played}"), game=title, league=quoted_name(league),
                                  played=GAMES[league.game].title)
        listed = _deals_listed(record)
        try:
            played = open_match(listed)
        except RecordError:
            return listed  # the replay names the problem
        wanted = GAMES[league.game].options_type.from_json(setup.game_options)
        if played.players != setup.players:
            raise LeagueError(N_("the record is of a {count}-player match; league {league} "
                                 "plays with {players} players"), count=played.players,
                              league=quoted_name(league), players=setup.players)
        if played.options != wanted:
            raise LeagueError(N_("the record was played with the options {given}; league "
                                 "{league} plays with {wanted}"),
                              given=json.dumps(played.options.to_json()),
                              league=quoted_name(league), wanted=json.dumps(wanted.to_json()))
        if first_dealer is not None and first_dealer != played.next_dealer:
            raise LeagueError(N_("the record says seat {dealer} dealt first, not seat {given} "
                                 "(leave first_dealer out for a record)"),
                              dealer=played.next_dealer, given=first_dealer)
        return listed

    return await _report(store, fixture_id, reporter_id, is_admin, checked, _RECORD)


_HEAD_KEYS = frozenset({"format", "game", "players", "options"})
_DEAL_KEYS = frozenset({"dealer", "hands", "extra", "actions", "summary"})


def _deals_listed(record: Mapping[str, Any]) -> dict[str, Any]:
    """The record with its deals as a ``deals`` list: a single-deal shorthand (deal fields
    at the top level, nothing else) becomes the one-deal list :func:`games.records.replay`
    reads it as; anything else is copied unchanged, for the replay to judge."""
    keys = set(record)
    if "deals" in keys or not keys & _DEAL_KEYS or keys - _HEAD_KEYS - _DEAL_KEYS:
        return dict(record)
    return {**{k: v for k, v in record.items() if k in _HEAD_KEYS},
            "deals": [{k: v for k, v in record.items() if k in _DEAL_KEYS}]}


@dataclass(frozen=True)
class _Wording:
    """How a refused report names what was sent."""

    invalid: str
    unfinished: str


_SCORESHEET = _Wording(
    N_("the scoresheet is not valid: {problem}"),
    N_("the scoresheet does not finish the match: add the missing deals ({score})"))
_RECORD = _Wording(
    N_("the game record does not replay: {problem}"),
    N_("the game record's match is not finished: report it once the match is over "
       "({score})"))

Build = Callable[[League, LeagueSetup], dict[str, Any]]
"""Makes the record of a report for the league (or raises :class:`LeagueError`)."""


def _replay_problem(out: Mapping[str, Any]) -> str:
    """The replay's own words for why a record is refused (status 1 or 2)."""
    illegal = out.get("illegal")
    if isinstance(illegal, Mapping):
        return (f"deal {illegal.get('deal')}, action {illegal.get('action')} is refused: "
                f"{illegal.get('reason')}")
    return str(out.get("error"))


async def _report(store: Store, fixture_id: int, reporter_id: int, is_admin: bool,
                  build: Build, wording: _Wording) -> Fixture:
    """The one path of every report: who may report, the record ``build`` makes for the
    league, its replay (clean, and finishing the match), the result stored as
    ``reported``."""
    fixture, league = await _fixture_context(store, fixture_id)
    if league.status != RUNNING:
        raise LeagueError(N_("league {league} is not running"), league=quoted_name(league))
    if fixture.status not in ("scheduled", REPORTED):
        raise LeagueError(N_("this fixture already has a result"))
    home, away = await _entrants_of(store, fixture)
    side = ("home" if reporter_id in home.members
            else "away" if reporter_id in away.members else None)
    if side is None and not is_admin:
        raise LeagueError(N_("only the players of this fixture or an admin may report it"))
    setup = LeagueSetup.of(league)
    record = build(league, setup)
    # A full record of a long match takes tens of milliseconds: keep the loop free.
    out, status = await asyncio.to_thread(replay, record)
    if status != 0:
        raise LeagueError(wording.invalid, problem=_replay_problem(out))
    match = out["match"]
    if not match.get("over"):
        totals = "–".join(str(t) for t in match.get("totals", []))
        after = Said.counted(ngettext_noop("after {count} deal the score is {score}",
                                           "after {count} deals the score is {score}"),
                             len(out["deals"]), score=totals)
        raise LeagueError(wording.unfinished, score=after)
    totals = match.get("totals", [0, 0])
    result = fixture_result(_outcome(match.get("winner")), int(totals[0]), int(totals[1]),
                            source="report", reported_by=reporter_id, reporter_side=side,
                            record=record)
    return await store.update_fixture(fixture.id, status=REPORTED, result=result,
                                      confirmed_by=None)


async def _check_confirmer(store: Store, fixture: Fixture, user_id: int,
                           is_admin: bool) -> None:
    if fixture.status != REPORTED or fixture.result is None:
        raise LeagueError(N_("this fixture has no result waiting for confirmation"))
    if is_admin:
        return
    home, away = await _entrants_of(store, fixture)
    reporter_side = fixture.result.get("reporter_side")
    allowed: tuple[int, ...] = {
        "home": away.members, "away": home.members,
    }.get(str(reporter_side), home.members + away.members)
    if user_id not in allowed:
        raise LeagueError(N_("only the opponents of the reporter or an admin may confirm "
                             "or reject this result"))


async def confirm_report(
    store: Store, fixture_id: int, user_id: int, *, is_admin: bool = False
) -> Fixture:
    """Confirm a reported result: it counts from now on (status ``played``)."""
    fixture, _ = await _fixture_context(store, fixture_id)
    await _check_confirmer(store, fixture, user_id, is_admin)
    return await store.update_fixture(fixture.id, status="played", confirmed_by=user_id)


async def reject_report(
    store: Store, fixture_id: int, user_id: int, *, is_admin: bool = False
) -> Fixture:
    """Reject a reported result: the fixture is open again."""
    fixture, _ = await _fixture_context(store, fixture_id)
    await _check_confirmer(store, fixture, user_id, is_admin)
    return await store.update_fixture(fixture.id, status="scheduled", result=None,
                                      confirmed_by=None)


async def record_table_match(
    store: Store,
    *,
    guild_id: int,
    game: str,
    players: int,
    options: Mapping[str, Any],
    sides: Sequence[Sequence[int | None]],
    summary: Mapping[str, Any],
    match_id: int | None = None,
    table_id: int | None = None,
) -> Fixture | None:
    """Record a finished table match on the open fixture between its two sides, if any.

    ``sides[t]`` are the user ids seated in team ``t`` (None for an AI seat); ``summary`` is
    the match summary (``winner``, ``totals``). Returns the updated fixture, or None when
    the match is no league match.
    """
    if len(sides) != 2 or any(u is None for side in sides for u in side):
        return None
    wanted = [frozenset(u for u in side if u is not None) for side in sides]
    for league in await store.list_leagues(guild_id):
        setup = LeagueSetup.of(league)
        if (league.status != RUNNING or league.game != game or setup.players != players
                or not _same_options(game, setup.game_options, options)):
            continue
        season = await league_season(store, league)
        by_members = {frozenset(e.members): e.id
                      for e in await active_entrants(store, league, season)}
        team_entrants = [by_members.get(s) for s in wanted]
        if None in team_entrants:
            continue
        fixtures = await store.list_fixtures(season.id)
        if match_id is not None and any(f.match_id == match_id for f in fixtures):
            return None
        pair = set(team_entrants)
        for f in fixtures:
            if f.status != "scheduled" or {f.home_entrant_id, f.away_entrant_id} != pair:
                continue
            home_team = team_entrants.index(f.home_entrant_id)
            winner = summary.get("winner")
            totals = summary.get("totals") or [0, 0]
            outcome: ResultOutcome = (
                "draw" if winner is None else "home" if winner == home_team else "away")
            result = fixture_result(outcome, int(totals[home_team]),
                                    int(totals[1 - home_team]), source="table",
                                    match_id=match_id, table_id=table_id)
            return await store.update_fixture(f.id, status="played", result=result,
                                              match_id=match_id, table_id=table_id)
    return None
