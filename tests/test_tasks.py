"""bot.tasks.cancel: a background task's one ending rule (the cluster's loops use it)."""

from __future__ import annotations

import asyncio

import pytest

from bot.tasks import cancel


async def test_cancel_ends_the_task_and_swallows_its_cancellation() -> None:
    started = asyncio.Event()

    async def forever() -> None:
        started.set()
        await asyncio.Event().wait()

    task = asyncio.create_task(forever())
    await started.wait()
    await cancel(task)
    assert task.cancelled()
    await cancel(None)


async def test_cancel_raises_what_the_task_ended_with() -> None:
    async def broken() -> None:
        raise LookupError("boom")

    task = asyncio.create_task(broken())
    await asyncio.sleep(0)
    with pytest.raises(LookupError):
        await cancel(task)


async def test_a_cancellation_of_the_caller_while_it_ends_a_task_is_not_swallowed() -> None:
    """Ctrl+C (the main task cancelled) while it waits for a background task to end: the
    main task must end too, not go on as if nothing happened (`play --web` then ignored
    Ctrl+C)."""
    ending, release = asyncio.Event(), asyncio.Event()

    async def slow_to_end() -> None:
        try:
            await asyncio.Event().wait()
        finally:
            ending.set()
            await release.wait()  # its cleanup takes a while

    went_on: list[str] = []

    async def caller() -> None:
        task = asyncio.create_task(slow_to_end())
        await asyncio.sleep(0)
        await cancel(task)
        went_on.append("after cancel")

    outer = asyncio.create_task(caller())
    await ending.wait()
    outer.cancel()  # the caller itself is cancelled while it waits
    release.set()
    with pytest.raises(asyncio.CancelledError):
        await outer
    assert went_on == []
