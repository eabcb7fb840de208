"""The AI process pool keeps the event loop responsive while search players think."""

from __future__ import annotations

import asyncio
import time

import pytest

from bot.ai_pool import AIPool, decide
from bot.service import Seat, TableService
from games.actions import Action
from games.ai import ALL_LEVELS, PLAYABLE_LEVELS, Budget
from games.registry import GAMES
from storage import Store, TerminalLocation


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
    async with AIPool(workers=2, max_wait_ms=0) as pool:  # no overload fallback here
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
        rounds = 0
        while len(lags) < 100:  # keep both workers searching until 100 beats were taken
            actions = await asyncio.gather(*(
                pool.choose("arbaa_turub", view, legal, level="search",
                            budget=Budget(ms=200, max_samples=10**6), seed=i)
                for i, (view, legal) in enumerate(positions)))
            for (_, legal), action in zip(positions, actions, strict=True):
                assert action in legal
            rounds += 1
        stop.set()
        await beat
    assert rounds >= 1 and pool.fallbacks == 0
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


async def test_an_overloaded_pool_gives_the_table_the_rules_move(store: Store) -> None:
    """A pooled move that waits longer than the pool's limit is given up and the table
    gets the ``rules`` move at once. The limit here (a nanosecond) is shorter than any
    round trip to a worker process, so every pooled move of the table waits too long."""
    first = GAMES["turup"].match_type(None, None, 0, seed="7").start_deal()
    ai_seat = first.to_act[0]
    rules: list[Action] = []  # the AI's moves until a human is to act: trump, first lead
    while first.to_act == (ai_seat,):
        rules.append(decide("turup", first.view(ai_seat), first.legal_actions(ai_seat),
                            "rules", Budget.samples(1), None, None))
        first.apply(ai_seat, rules[-1])
    async with AIPool(workers=1, max_wait_ms=1e-6) as pool:
        await pool.warm_up()
        service = TableService(store, ai_pool=pool)
        seats = [Seat.ai("search") if s == ai_seat else Seat.human(2000 + s, f"P{s}")
                 for s in range(4)]
        table_id = await service.create_table(TerminalLocation("overload"), "turup", seed=7,
                                              seats=seats, ai_pace=0, start=True)
        await service.settle()
        entries = [e for e in await store.load_actions(table_id) if e.action["by"] == "ai"]
        assert [e.action["action"] for e in entries] == [a.to_json(ai_seat) for a in rules]
        assert pool.fallbacks == len(rules) == 2
        assert service.info(table_id).to_act != (ai_seat,)  # the humans' turn now
        await service.close()


async def test_a_turn_that_waited_for_a_service_slot_past_the_limit_plays_the_rules_move(
        store: Store) -> None:
    """The overload limit counts the time a turn waits for one of the service's AI slots
    (not only the pool's queue): a turn held back longer than the limit is not sent to a
    worker at all and the table gets the ``rules`` move."""
    first = GAMES["turup"].match_type(None, None, 0, seed="7").start_deal()
    ai_seat = first.to_act[0]
    view, legal = first.view(ai_seat), first.legal_actions(ai_seat)
    rules = decide("turup", view, legal, "rules", Budget.samples(1), None, None)
    async with AIPool(workers=1, max_wait_ms=200) as pool:
        await pool.warm_up()
        service = TableService(store, ai_pool=pool, ai_concurrency=1)
        await service.ai.slots.acquire()  # another table's turn holds the only slot
        seats = [Seat.ai("search") if s == ai_seat else Seat.human(2000 + s, f"P{s}")
                 for s in range(4)]
        table_id = await service.create_table(TerminalLocation("slots"), "turup", seed=7,
                                              seats=seats, ai_pace=0, start=True)
        await asyncio.sleep(0.3)  # longer than the limit
        assert not [e for e in await store.load_actions(table_id) if e.action["by"] == "ai"]
        service.ai.slots.release()
        await service.settle()
        entries = [e for e in await store.load_actions(table_id) if e.action["by"] == "ai"]
        assert entries[0].action["action"] == rules.to_json(ai_seat)
        assert pool.fallbacks >= 1
        await service.close()


async def test_a_decision_that_arrives_with_no_time_left_is_not_queued() -> None:
    (view, legal), = first_trick_positions(1)
    rules = decide("arbaa_turub", view, legal, "rules", Budget.samples(1), 3, None)
    async with AIPool(workers=1, max_wait_ms=5000) as pool:
        await pool.warm_up()
        got = await pool.choose("arbaa_turub", view, legal, level="search",
                                budget=Budget.samples(50), seed=3, waited_ms=5001)
        assert got == rules and pool.fallbacks == 1
        patient = await pool.choose("arbaa_turub", view, legal, level="search",
                                    budget=Budget.samples(2), seed=3, waited_ms=0)
        assert patient == decide("arbaa_turub", view, legal, "search", Budget.samples(2), 3,
                                 None) and pool.fallbacks == 1


async def test_a_pool_without_a_limit_waits_and_the_oracle_is_not_playable() -> None:
    (view, legal), = first_trick_positions(1)
    async with AIPool(workers=1, max_wait_ms=0) as pool:
        budget = Budget.samples(3)
        got = await pool.choose("arbaa_turub", view, legal, level="search", budget=budget,
                                seed=2)
        assert got == decide("arbaa_turub", view, legal, "search", budget, 2, None)
        assert pool.fallbacks == 0 and pool.max_wait_ms is None
    assert "oracle" in ALL_LEVELS and "oracle" not in PLAYABLE_LEVELS
    with pytest.raises(ValueError, match="unknown AI level"):
        Seat.ai("oracle")


async def test_closing_the_pool_cancels_the_decisions_no_worker_took() -> None:
    """A closing bot does not think through a queue of moves nobody will play: the queued
    decisions are cancelled, the ones a worker took are finished."""
    positions = first_trick_positions(8)
    pool = AIPool(workers=1, max_wait_ms=0)
    await pool.warm_up()
    tasks = [asyncio.create_task(pool.choose("arbaa_turub", view, legal, level="search",
                                             budget=Budget.samples(24), seed=i))
             for i, (view, legal) in enumerate(positions)]
    await asyncio.sleep(0.05)  # every decision is queued, the first ones taken
    await pool.aclose()
    results = await asyncio.gather(*tasks, return_exceptions=True)
    done = [r for r in results if isinstance(r, Action)]
    cancelled = [r for r in results if isinstance(r, asyncio.CancelledError)]
    assert done and cancelled and len(done) + len(cancelled) == len(positions)
