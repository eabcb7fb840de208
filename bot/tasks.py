"""Background tasks' one ending rule."""

from __future__ import annotations

import asyncio


async def cancel(task: asyncio.Task[None] | None) -> None:
    """Cancel ``task`` (None: nothing to do) and wait until it has ended; its cancellation
    is swallowed, any other error it ends with is raised. A cancellation of the caller
    itself meanwhile (Ctrl+C while a task is being ended) is never swallowed."""
    if task is None:
        return
    task.cancel()
    try:
        await task
    except asyncio.CancelledError:
        current = asyncio.current_task()
        if current is not None and current.cancelling():
            raise
