"""A running league and played records for the ``/league report`` tests."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import Any

from club_app import ClubApp
from fakediscord import (
    Harness,
)

from bot.leagues.service import create_league, join_league, start_league
from bot.simulate import SimConfig, run
from games.ai import Budget
from storage.models import Fixture


def played_record(tmp_path: Path, game: str, *, players: int | None = None,
                  seed: int = 1) -> dict[str, Any]:
    """The record of one whole match between two random players, written by the code of
    ``tricktable simulate --matches 1 --records DIR``."""
    folder = tmp_path / f"records-{game}-{players}-{seed}"
    cfg = SimConfig(game=game, levels=("random", "random"), boards=1, matches=True,
                    players=players, seed=seed, budget=Budget.samples(1), records=str(folder))
    run(cfg)
    first = sorted(folder.iterdir())[0]
    record: dict[str, Any] = json.loads(first.read_text(encoding="utf-8"))
    return record


async def running_league(app: ClubApp, harness: Harness, name: str, game: str,
                         home: tuple[int, int], away: tuple[int, int]) -> Fixture:
    """A started league of two teams in the harness channel: its one fixture."""
    league = await create_league(app.store, harness.guild.id, harness.channel.id, name, game,
                                 weekday=3, start_time=dt.time(19, 0), time_zone="UTC")
    await join_league(app.store, league.id, list(home), name="Aces")
    await join_league(app.store, league.id, list(away), name="Kings")
    [fixture] = await start_league(app.store, league.id, app.clock.now())
    return fixture


async def assert_untouched(app: ClubApp, fixture: Fixture) -> None:
    stored = await app.store.get_fixture(fixture.id)
    assert stored is not None
    assert (stored.status, stored.result) == ("scheduled", None)
