"""A league fixture and its records for the tests of a reported match."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import Any

from bot.leagues.service import create_league, join_league, start_league
from storage import Store
from storage.models import Fixture

NOW = dt.datetime(2026, 3, 16, 12, 0, tzinfo=dt.UTC)


ROOT = Path(__file__).resolve().parents[2]
HOME, AWAY = [11, 13], [12, 14]


async def fixture_of(store: Store, game: str = "arbaa_turub", **kw: Any) -> Fixture:
    league = await create_league(store, 1000, 2000, "Cup", game, weekday=3,
                                 start_time=dt.time(19, 0), time_zone="UTC", **kw)
    await join_league(store, league.id, HOME, name="Aces")
    await join_league(store, league.id, AWAY, name="Kings")
    [fixture] = await start_league(store, league.id, NOW)
    return fixture


def scoresheet_record() -> dict[str, Any]:
    """A record of score-only deals (the repository's example): home wins 3–0."""
    record: dict[str, Any] = json.loads(
        (ROOT / "examples" / "arbaa-turub-scoresheet.json").read_text(encoding="utf-8"))
    return record


async def untouched(store: Store, fixture: Fixture) -> None:
    stored = await store.get_fixture(fixture.id)
    assert stored is not None and (stored.status, stored.result) == ("scheduled", None)
