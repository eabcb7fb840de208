"""One process of a sharded deployment: its shards, their start locks, its inbox.

The front end (the Discord adapter) drives a :class:`ClusterNode` in this order::

    node = ClusterNode(store, Ownership.of(shard_count, shard_ids))
    await node.lock()                       # refuses a second process for a shard
    await service.start(owns=node.owns)     # only this process's tables
    await node.start(service, answer)       # inbox consumer + forwarding client
    ...
    if node.owns_table(location): act locally, else: await node.client.forward(...)
    ...
    await node.close()                      # after the service stopped

**Start locks.** ``lock`` takes one lock per shard (PostgreSQL session advisory locks,
all on one connection; on SQLite lock files next to the database): a second process
started for a shard that is already running is refused with :class:`~storage.ShardBusy`
before it loads anything. The locks live as long as the process (a killed process frees
them at once). Should their connection drop while the process runs, the node takes them
again and logs an error when it cannot (then another process runs that shard).

One process holds two connections besides its pool: the locks, and one listener shared
by the inbox consumer and the forwarding client.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

from bot.cluster.forwarding import ForwardingClient
from bot.cluster.inbox import InboxConsumer
from bot.cluster.ownership import Ownership
from bot.cluster.protocol import AnswerCallback
from bot.service import TableService
from storage import Listener, SessionLock, ShardBusy, Store
from storage.models import Location

log = logging.getLogger(__name__)


class ClusterNode:
    """This process's place in the deployment (see the module docstring)."""

    def __init__(self, store: Store, ownership: Ownership, *,
                 forward_timeout: float | None = None, poll_seconds: float = 5.0) -> None:
        self.store = store
        self.ownership = ownership
        self.poll_seconds = poll_seconds
        self._listener: Listener = store.listener()
        self.client = ForwardingClient(store, ownership, listener=self._listener,
                                       **({} if forward_timeout is None
                                          else {"timeout": forward_timeout}))
        self.consumer: InboxConsumer | None = None
        self._lock: SessionLock | None = None
        self._watch: asyncio.Task[None] | None = None

    @property
    def locked(self) -> bool:
        """Whether this process holds the start locks of its shards now."""
        return self._lock is not None and self._lock.held

    def owns(self, location: Location) -> bool:
        """Whether this process owns the table at ``location`` (pass as ``owns=``)."""
        return self.ownership.owns(location)

    def owns_guild(self, guild_id: int) -> bool:
        """Whether this process serves ``guild_id`` (e.g. its league reminders)."""
        return self.ownership.owns_guild(guild_id)

    async def lock(self) -> None:
        """Take the start lock of every shard of this process, or none: raises ShardBusy
        (naming the shard) when another process runs one of them."""
        self._lock = await self.store.lock_shards(sorted(self.ownership.shard_ids))

    async def start(self, service: TableService, answer: AnswerCallback) -> None:
        """Start applying forwarded requests for this process's shards (requests written
        while it was down are applied now) and listening for forwarded outcomes."""
        if self._lock is None:
            raise RuntimeError("take the start locks (ClusterNode.lock) before starting")
        self.consumer = InboxConsumer(self.store, service, self.ownership, answer,
                                      poll_seconds=self.poll_seconds,
                                      listener=self._listener)
        await self.consumer.start()
        await self.client.start()
        self._watch = asyncio.create_task(self._watch_locks(), name="cluster-locks")

    async def close(self) -> None:
        if self._watch is not None:
            self._watch.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._watch
            self._watch = None
        if self.consumer is not None:
            await self.consumer.close()
            self.consumer = None
        await self._listener.close()
        lock, self._lock = self._lock, None
        if lock is not None:
            await lock.release()

    async def _watch_locks(self) -> None:
        while True:
            await asyncio.sleep(self.poll_seconds)
            if self._lock is None or self._lock.held:
                continue
            shards = sorted(self.ownership.shard_ids)
            try:
                self._lock = await self.store.lock_shards(shards)
                log.warning("shards %s: the start locks were lost and taken again", shards)
            except ShardBusy as exc:
                log.error("shard %s: its start lock was lost and another process holds it"
                          " now; stop this process", exc.shard)
            except Exception as exc:
                log.error("shards %s: the start locks were lost (%s); retrying", shards, exc)
