"""Playing the human seats of a table through the table service, for tests."""

from __future__ import annotations

import asyncio

from bot.service import TableService


async def play_humans(tables: TableService, table_id: int, users: list[int], *,
                      moves: int | None = None, rounds: int = 5000, pause: float = 0.01,
                      stale: tuple[type[Exception], ...] = ()) -> None:
    """Play the turns of ``users`` (each seated user's first legal action) until the table
    closes, or ``moves`` of their moves were made. An action refused with one of ``stale``
    (a turn gone stale while an AI moved) is looked at again; ``pause`` seconds pass
    between looks where nobody could act. Fails after ``rounds`` looks."""
    made = 0
    for _ in range(rounds):
        if not tables.holds(table_id) or (moves is not None and made >= moves):
            return
        acted = False
        for user in users:
            seat = tables.seat_of(table_id, user)
            if seat is None:
                continue
            state = tables.state(table_id, seat).data
            if seat in state["to_act"] and state["legal"]:
                try:
                    await tables.act(table_id, user, state["legal"][0], state["version"])
                except stale:
                    continue
                made += 1
                acted = True
        if not acted:
            await asyncio.sleep(pause)
    raise AssertionError("the board did not end")
