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
