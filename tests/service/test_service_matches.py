"""AI-only matches of every game through the table service, on SQLite and PostgreSQL.

Each match must end recorded (result, participants, every deal's record), with the table
finished, an action log that re-applies to the same state, and a record that
``games.records.replay`` accepts with the same match summary.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from bot.service import FakeClock, Seat, TableService
from games.records import replay
from games.registry import GAMES
from storage import TerminalLocation, open_store

DEFAULT_COUNTS = [(name, info.player_counts[0]) for name, info in GAMES.items()]
OTHER_COUNTS = [(name, n) for name, info in GAMES.items() for n in info.player_counts[1:]]


async def play_ai_match(url: str, game: str, players: int, seed: int,
                        level: str = "rules") -> tuple[int, dict[str, Any]]:
    store = await open_store(url)
    service = TableService(store, clock=FakeClock())
    try:
        await service.start()
        table_id = await service.create_table(
            TerminalLocation(f"{game}-{players}-{seed}"), game, players=players, seed=seed,
            seats=[Seat.ai(level) for _ in range(players)], ai_pace=0, start=True,
        )
        watcher = service.subscribe(table_id)
        await service.settle(timeout=120)
        events = watcher.drain()
        assert events[-1].type == "match_over"
        assert watcher.closed
        record = await service.record(table_id)
        return table_id, record
    finally:
        await service.close()
        await store.close()


async def check_recorded(url: str, table_id: int, record: dict[str, Any], players: int
                         ) -> None:
    store = await open_store(url)
    try:
        table = await store.get_table(table_id)
        assert table is not None and table.status == "finished"
        assert table.turn_deadline is None
        match = await store.get_match_for_table(table_id)
        assert match is not None
        assert [p.seat for p in match.participants] == list(range(players))
        assert all(p.user_id is None for p in match.participants)
        assert not match.rated  # a terminal table is never rated
        assert match.deal_count == len(record["deals"])
        log = await store.load_actions(table_id)
        assert [e.seq for e in log] == list(range(1, len(log) + 1))
        assert all(e.action["by"] == "ai" for e in log)
        played = [a for d in record["deals"] for a in d["actions"]]
        assert [e.action["action"] for e in log] == played
        out, status = replay(json.loads(json.dumps(record)))
        assert status == 0, out
        assert out["match"]["over"] is True
        assert out["match"] == match.result["summary"]
        winner = out["match"]["winner"]
        outcomes = {p.team: p.outcome for p in match.participants}
        if winner is None:
            assert set(outcomes.values()) == {"draw"}
        else:
            assert outcomes[winner] == "win"
            assert all(o == "loss" for t, o in outcomes.items() if t != winner)
    finally:
        await store.close()


@pytest.mark.parametrize(("game", "players"), DEFAULT_COUNTS)
async def test_ai_match_every_game_both_backends(store_url: str, game: str,
                                                 players: int) -> None:
    table_id, record = await play_ai_match(store_url, game, players, seed=11)
    await check_recorded(store_url, table_id, record, players)


@pytest.mark.parametrize(("game", "players"), OTHER_COUNTS)
async def test_ai_match_other_player_counts(sqlite_url: str, game: str, players: int) -> None:
    table_id, record = await play_ai_match(sqlite_url, game, players, seed=5, level="random")
    await check_recorded(sqlite_url, table_id, record, players)


async def test_same_seed_same_record(sqlite_url: str, tmp_path: Any) -> None:
    """An AI-only match is a pure function of its seed (what recovery relies on)."""
    other = f"sqlite:///{tmp_path / 'other.db'}"
    _, first = await play_ai_match(sqlite_url, "turup", 4, seed=3)
    _, second = await play_ai_match(other, "turup", 4, seed=3)
    _, third = await play_ai_match(other, "turup", 4, seed=4)
    assert first == second
    assert first != third
