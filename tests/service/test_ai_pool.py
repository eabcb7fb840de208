"""The AI process pool keeps the event loop responsive while search players think."""

from __future__ import annotations

import asyncio
import time

import pytest

from bot.ai_pool import AIPool, decide
from games.actions import Action
from games.ai import Budget
from games.registry import GAMES


def first_trick_positions(n: int) -> list[tuple[dict, list[Action]]]:
    """Arba'a Turub views at the first lead (36 cards in hand, the heaviest search)."""
    out = []
    for i in range(n):
        deal = GAMES["arbaa_turub"].match_type(None, None, i % 4, seed=i).start_deal()
        eldest = deal.to_act[0]
        deal.apply(eldest, Action.call_trump("SHDC"[i % 4]))
        seat = deal.to_act[0]
        out.append((deal.view(seat), deal.legal_actions(seat)))
    return out


async def test_heartbeat_lag_stays_small_while_eight_searches_run() -> None:
    positions = first_trick_positions(8)
    async with AIPool(workers=2) as pool:
        await pool.warm_up()
        lags: list[float] = []
        stop = asyncio.Event()

        async def heartbeat() -> None:
            period = 0.005
            while not stop.is_set():
                t0 = time.perf_counter()
                await asyncio.sleep(period)
                lags.append(time.perf_counter() - t0 - period)

        beat = asyncio.create_task(heartbeat())
        started = time.perf_counter()
        actions = await asyncio.gather(*(
            pool.choose("arbaa_turub", view, legal, level="search", budget=Budget(ms=200),
                        seed=i)
            for i, (view, legal) in enumerate(positions)))
        elapsed = time.perf_counter() - started
        stop.set()
        await beat
    for (_, legal), action in zip(positions, actions, strict=True):
        assert action in legal
    # eight 200 ms searches on two workers: they really ran in the pool, concurrently
    assert elapsed >= 0.6
    assert len(lags) > 50
    assert max(lags) < 0.050, f"event loop stalled {max(lags) * 1000:.0f} ms"


async def test_pool_answers_like_the_in_process_player_and_shortcuts() -> None:
    (view, legal), = first_trick_positions(1)
    budget = Budget.samples(2)
    async with AIPool(workers=1) as pool:
        got = await pool.choose("arbaa_turub", view, legal, level="search", budget=budget,
                                seed=5)
        assert got == decide("arbaa_turub", view, legal, "search", budget, 5, None)
        assert await pool.choose("arbaa_turub", view, legal[:1]) == legal[0]
        assert await pool.choose("arbaa_turub", view, legal, level="random", seed=1) in legal
        with pytest.raises(ValueError):
            await pool.choose("arbaa_turub", view, [])
        with pytest.raises(ValueError):
            await pool.choose("turup", view, legal, level="rules")
    with pytest.raises(RuntimeError):
        await pool.choose("arbaa_turub", view, legal)
