"""The service's observer (:class:`bot.service.Observer`) sees every accepted action and
every AI decision, whoever made them (human, AI turn, timeout), and nothing refused."""

from __future__ import annotations

import pytest

from bot.service import FakeClock, Observer, Seat, StaleAction, TableService
from storage import Store, TerminalLocation

HUMAN = 1001
TIMEOUT = 60.0


class Seen:
    """What the observer was told: one duration per accepted action, per AI decision."""

    def __init__(self) -> None:
        self.actions: list[float] = []
        self.choices: list[float] = []

    def observer(self) -> Observer:
        return Observer(on_action=self.actions.append, on_ai_choice=self.choices.append)


async def test_the_observer_sees_every_accepted_action_and_ai_decision(
        store: Store, clock: FakeClock) -> None:
    seen = Seen()
    service = TableService(store, clock=clock, observer=seen.observer())
    await service.start()
    try:
        seats = [Seat.human(HUMAN, "Ann"), *(Seat.ai("random") for _ in range(3))]
        table_id = await service.create_table(
            TerminalLocation("observed"), "turup", seed=7, seats=seats, ai_pace=0,
            turn_timeout=TIMEOUT, start=True)
        await service.settle()
        info = service.info(table_id)
        assert info.to_act == (0,)

        # A stale choice is refused: the observer hears nothing of it.
        before = (len(seen.actions), len(seen.choices))
        with pytest.raises(StaleAction):
            await service.act(table_id, HUMAN, service.legal(table_id, 0)[0], info.version - 1)
        assert (len(seen.actions), len(seen.choices)) == before

        await service.act(table_id, HUMAN, service.legal(table_id, 0)[0], info.version)
        await service.settle()
        assert service.info(table_id).to_act == (0,)
        await clock.advance(TIMEOUT)  # Ann is late: the stand-in AI plays for her
        await service.settle()

        entries = [e.action["by"] for e in await store.load_actions(table_id)]
        assert entries.count("human") == 1 and entries.count("timeout") == 1
        assert len(seen.actions) == len(entries)
        assert len(seen.choices) == entries.count("ai") + entries.count("timeout")
        assert min(seen.actions + seen.choices) >= 0
    finally:
        await service.close()

