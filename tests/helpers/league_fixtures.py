"""Fixtures for the ratings, statistics and leagues tests, on SQLite and on PostgreSQL.

Not a conftest (the name only says what it is): each test file imports the fixtures it
uses. The idea is the storage suite's (``tests/storage/conftest.py``):

* ``club_backend`` is parametrized over ``sqlite`` and ``postgres``; ``club_store`` is an
  open store on an empty, migrated database of that backend (a file under ``tmp_path``,
  or a fresh PostgreSQL schema ``ttclub_<random>_<n>`` dropped at the end of the run).
* PostgreSQL is ``TEST_DATABASE_URL`` (default ``postgresql://postgres@127.0.0.1:5432/test``).
  When it is unreachable the PostgreSQL tests are skipped, or fail when ``CI`` is set.

Also helpers to store a finished match the way the table service does.
"""

from __future__ import annotations

import datetime as dt
import itertools
from collections.abc import AsyncIterator, Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from pgtest import Schemas, require_postgres

from storage import Store, open_store
from storage.models import ChannelLocation, DealRecord, MatchRecord, Outcome, Participant


@pytest.fixture(scope="session")
def club_schemas() -> Iterator[Schemas]:
    require_postgres()
    run = Schemas("ttclub")
    try:
        yield run
    finally:
        run.drop_all()


@pytest.fixture(params=["sqlite", "postgres"])
def club_backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def club_url(request: pytest.FixtureRequest, club_backend: str, tmp_path: Path) -> str:
    """A new database of the backend under test (sync, so the PostgreSQL session setup
    never runs inside an event loop)."""
    if club_backend == "sqlite":
        return f"sqlite:///{tmp_path / 'club.db'}"
    schemas: Schemas = request.getfixturevalue("club_schemas")
    return schemas.fresh_url()


@pytest.fixture
async def club_store(club_url: str) -> AsyncIterator[Store]:
    """An open store on an empty, migrated database; parametrized over both backends."""
    opened = await open_store(club_url)
    try:
        yield opened
    finally:
        await opened.close()


GUILD = 1000
CHANNEL = 2000
T0 = dt.datetime(2026, 3, 1, 12, 0, tzinfo=dt.UTC)
_channels = itertools.count(5000)


async def store_match(
    store: Store,
    game: str,
    sides: Sequence[Sequence[int | None]],
    *,
    winner: int | None,
    totals: Sequence[int] | None = None,
    winners: Sequence[int] | None = None,
    rated: bool = True,
    guild_id: int | None = GUILD,
    finished_at: dt.datetime = T0,
    options: dict[str, Any] | None = None,
    record_head: dict[str, Any] | None = None,
    deals: Sequence[dict[str, Any]] = (),
    channel_id: int | None = None,
) -> int:
    """Store a finished match as the table service does; return its match id.

    The match is played in ``channel_id`` (default: its table's channel, one of its own).

    ``sides[t]`` lists the user ids of team ``t`` in seat order; seats are assigned as the
    partnership games do (team t holds seats t, t + n_sides, …).
    """
    n_sides = len(sides)
    players = sum(len(s) for s in sides)
    seats: list[Any] = [None] * players
    participants = []
    for team, members in enumerate(sides):
        for k, user in enumerate(members):
            seat = team + k * n_sides
            seats[seat] = user
            outcome: Outcome = ("draw" if winner is None and not winners
                                else "win" if team == winner or team in (winners or ())
                                else "loss")
            participants.append(Participant(seat, user, team, outcome))
    location = ChannelLocation(guild_id or 1, next(_channels))
    table = await store.create_table(location, game, options=options or {}, seats=seats,
                                     status="playing")
    summary: dict[str, Any] = {"totals": list(totals or [0] * n_sides), "over": True,
                               "winner": winner}
    if winners is not None:
        summary["winners"] = list(winners)
    result = {"summary": summary, "teams": [], "seats": seats,
              "record_head": record_head or {"format": "tricktable/1", "game": game,
                                             "players": players, "options": options or {}}}
    await store.record_match(MatchRecord(
        table_id=table.id, game=game, guild_id=guild_id, finished_at=finished_at,
        result=result, participants=tuple(sorted(participants, key=lambda p: p.seat)),
        deals=tuple(DealRecord(i, d) for i, d in enumerate(deals)), rated=rated,
        channel_id=location.channel_id if channel_id is None else channel_id))
    match = await store.get_match_for_table(table.id)
    assert match is not None
    return match.id
