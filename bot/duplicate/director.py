"""A duplicate event's making and what anyone may ask of it before the close: create (the
director's; the Discord adapter checks Manage Server), list, status.

Rules decided here: the **format** follows the game (partnership games are played by pairs,
individual games such as Truf and Albastini without teams by individuals); **IMPs** only
for Tarabish, matchpoints for every game; a **league's round** (``create_event(league_id=)``)
takes the running league's game, options, player count and entrants (entered confirmed).
"""

from __future__ import annotations

import datetime as dt
import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from bot.duplicate.context import MAX_BOARDS, DuplicateContext, DuplicateError
from bot.i18n import N_
from bot.i18n.said import engine_said
from bot.leagues.service import (
    RUNNING,
    LeagueSetup,
    active_entrants,
    league_season,
    quoted_name,
)
from bot.text_safety import clean_text
from games.errors import GameError
from games.registry import GAMES
from storage.duplicate import DuplicateEntrant, DuplicateEvent
from storage.models import League


@dataclass(frozen=True)
class EventStatus:
    """How far an event is, for anyone: counts only, nothing of any board."""

    event: DuplicateEvent
    entrants: int
    finished: Mapping[int, int]
    """Finished plays per board."""
    mine: DuplicateEntrant | None
    my_finished: tuple[int, ...]


class EventDirector:
    """Creates events and answers ``list`` and ``status`` (see the module docstring)."""

    def __init__(self, context: DuplicateContext) -> None:
        self.context = context

    async def create_event(
        self, guild_id: int, channel_id: int, name: str, game: str, *, boards: int,
        opens_at: dt.datetime, closes_at: dt.datetime, time_zone: str, created_by: int,
        options: Mapping[str, Any] | None = None, players: int | None = None,
        scoring: str = "matchpoints", leaderboard: bool = False, league_id: int | None = None,
    ) -> DuplicateEvent:
        """Create an open event of ``boards`` boards, each a fresh random seed and the
        dealer rotating from seat 0. With ``league_id`` the event is a round of that running
        league of the guild: of its game, player count and options, its entrants entered
        (confirmed) and nobody else. A bad request raises DuplicateError, creating nothing."""
        store = self.context.store
        league = None
        if league_id is not None:
            league, options, players = await self._league_round(guild_id, league_id, game)
        info = GAMES.get(game)
        if info is None:
            raise DuplicateError(N_("unknown game {game} (one of {games})"), game=repr(game),
                                 games=", ".join(sorted(GAMES)))
        try:
            match = info.match_type(dict(options or {}), players, 0, seed="check")
        except GameError as exc:
            said = engine_said(exc)
            raise DuplicateError(said.message, **said.fields) from None
        if not 1 <= boards <= MAX_BOARDS:
            raise DuplicateError(N_("an event has 1 to {most} boards"), most=MAX_BOARDS)
        if scoring not in ("matchpoints", "imps"):
            raise DuplicateError(N_("scoring is matchpoints or IMPs"))
        if scoring == "imps" and game != "tarabish":
            raise DuplicateError(N_("IMPs are for Tarabish; {game} is scored in matchpoints"),
                                 game=info.title)
        try:
            ZoneInfo(time_zone)
        except (ZoneInfoNotFoundError, ValueError):
            raise DuplicateError(N_("unknown time zone {zone}"), zone=repr(time_zone)) from None
        if closes_at <= opens_at:
            raise DuplicateError(N_("the window must close after it opens"))
        title = clean_text(name)
        if not title:
            raise DuplicateError(N_("the event needs a name"))
        sides = info.teams(match.players, match.options)
        fmt = "pairs" if any(len(s) > 1 for s in sides) else "individual"
        seed = secrets.token_hex(8)
        event = await store.create_duplicate_event(
            guild_id, channel_id, title, game,
            boards=[(f"{seed}:{n}", n % match.players) for n in range(boards)],
            players=match.players, options=match.options.to_json(), opens_at=opens_at,
            closes_at=closes_at, time_zone=time_zone, created_by=created_by, format=fmt,
            scoring=scoring, leaderboard=leaderboard, league_id=league_id)
        if league is not None:
            for entrant in await active_entrants(store, league,
                                                 await league_season(store, league)):
                names = [await self._player_name(m) for m in entrant.members]
                await store.add_duplicate_entrant(
                    event.id, await self.context.unique_name(
                        event.id, clean_text(entrant.name or "") or " & ".join(names)),
                    entrant.members, confirmed=entrant.members)
        return event

    async def _league_round(self, guild_id: int, league_id: int, game: str
                            ) -> tuple[League, Mapping[str, Any], int]:
        """The running league of the guild an event is a round of, its game options and
        player count (DuplicateError otherwise)."""
        league = await self.context.store.get_league(league_id)
        if league is None or league.guild_id != guild_id:
            raise DuplicateError(N_("there is no league “{league}” on this server"),
                                 league=league_id)
        if league.status != RUNNING:
            raise DuplicateError(N_("league {league} is not running: a duplicate round "
                                    "needs its entrants fixed by its schedule"),
                                 league=quoted_name(league))
        if league.game != game:
            raise DuplicateError(N_("league {league} plays {game}: its round is of its game"),
                                 league=quoted_name(league), game=GAMES[league.game].title)
        setup = LeagueSetup.of(league)
        return league, setup.game_options, setup.players

    async def _player_name(self, user_id: int) -> str:
        player = await self.context.store.get_player(user_id)
        return player.display_name if player is not None else str(user_id)

    async def list_events(self, guild_id: int) -> list[DuplicateEvent]:
        """The guild's events, newest first."""
        return await self.context.store.list_duplicate_events(guild_id)

    async def status(self, event_id: int, guild_id: int, user_id: int) -> EventStatus:
        """How far the event is (entrants, finished plays per board) and the reader's own
        progress: counts only, nothing of any board."""
        store = self.context.store
        event = await self.context.event(event_id, guild_id)
        entrants = await store.list_duplicate_entrants(event.id)
        plays = await store.list_duplicate_plays(event.id)
        finished: dict[int, int] = {}
        for p in plays:
            if p.status == "finished":
                finished[p.board] = finished.get(p.board, 0) + 1
        mine = await store.duplicate_entrant_of(event.id, user_id)
        done = tuple(p.board for p in plays
                     if mine is not None and p.entrant_id == mine.id and p.status == "finished")
        return EventStatus(event, len(entrants), finished, mine, done)
