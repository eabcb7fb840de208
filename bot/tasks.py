"""Background tasks' one ending rule."""

from __future__ import annotations

import asyncio
import contextlib


async def cancel(task: asyncio.Task[None] | None) -> None:
    """Cancel ``task`` (None: nothing to do) and wait until it has ended; its cancellation
    is swallowed, any other error it ends with is raised."""
    if task is None:
        return
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await task
