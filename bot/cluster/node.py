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
them at once).

**Driving only while sure.** The process drives its shards' tables (applies their moves,
local and forwarded, plays their AI turns, runs their timers) only while it is sure it
holds the locks. The moment it is not — the locks' connection ended (the server ended
the session, the network closed it), or the server did not answer a check (every
``heartbeat`` seconds, within ``check_timeout``) — it stops driving them: the service is
paused (:meth:`bot.service.TableService.pause`: actions refused with the reason, no AI
turn, no timer) and the inbox is left alone. Then it tries to take the locks back (at
once, then with backoff up to ``poll_seconds``); once it holds them again it rebuilds
every table from the store (another process may have driven them meanwhile) and drives
again. While another process holds them, this one stays paused and keeps trying (see
``docs/scale.md``, "What the shard lock guarantees").

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
from bot.tasks import cancel
from storage import Listener, SessionLock, ShardBusy, Store
from storage.models import Location

log = logging.getLogger(__name__)


class ClusterNode:
    """This process's place in the deployment (see the module docstring)."""

    def __init__(self, store: Store, ownership: Ownership, *,
                 forward_timeout: float | None = None, poll_seconds: float = 5.0,
                 heartbeat: float = 1.0, check_timeout: float = 2.0) -> None:
        self.store = store
        self.ownership = ownership
        self.poll_seconds = poll_seconds
        self.heartbeat = heartbeat
        self.check_timeout = check_timeout
        self._service: TableService | None = None
        self._driving = False
        self._changed = asyncio.Event()
        self._listener: Listener = store.listener()
        self.client = ForwardingClient(store, ownership, listener=self._listener,
                                       **({} if forward_timeout is None
                                          else {"timeout": forward_timeout}))
        self.consumer: InboxConsumer | None = None
        self._lock: SessionLock | None = None
        self._watch: asyncio.Task[None] | None = None

    @property
    def locked(self) -> bool:
        """Whether this process holds the start locks of its shards now (and so drives
        its shards)."""
        return self._driving and self._lock is not None and self._lock.held

    def owns(self, location: Location) -> bool:
        """Whether this process owns the table at ``location`` (pass as ``owns=``)."""
        return self.ownership.owns(location)

    def owns_guild(self, guild_id: int) -> bool:
        """Whether this process serves ``guild_id`` (e.g. its league reminders)."""
        return self.ownership.owns_guild(guild_id)

    async def lock(self) -> None:
        """Take the start lock of every shard of this process, or none: raises ShardBusy
        (naming the shard) when another process runs one of them."""
        self._take(await self.store.lock_shards(sorted(self.ownership.shard_ids)))

    def _take(self, lock: SessionLock) -> None:
        self._lock = lock
        self._driving = True
        lock.on_lost(self._lost)

    async def start(self, service: TableService, answer: AnswerCallback) -> None:
        """Start applying forwarded requests for this process's shards (requests written
        while it was down are applied now) and listening for forwarded outcomes."""
        if self._lock is None:
            raise RuntimeError("take the start locks (ClusterNode.lock) before starting")
        self._service = service
        self.consumer = InboxConsumer(self.store, service, self.ownership, answer,
                                      poll_seconds=self.poll_seconds,
                                      listener=self._listener)
        await self.consumer.start()
        await self.client.start()
        self._watch = asyncio.create_task(self._watch_locks(), name="cluster-locks")

    async def close(self) -> None:
        await cancel(self._watch)
        self._watch = None
        if self.consumer is not None:
            await self.consumer.close()
            self.consumer = None
        await self._listener.close()
        lock, self._lock = self._lock, None
        if lock is not None:
            await lock.release()

    def _lost(self) -> None:
        """The locks' connection ended: stop driving now, before anything else runs."""
        self._stop_driving("their connection ended")

    def _stop_driving(self, why: str) -> None:
        if not self._driving:
            return
        self._driving = False
        if self._service is not None:
            self._service.pause()
        if self.consumer is not None:
            self.consumer.pause()
        log.error("shards %s: not sure this process still holds their start locks (%s);"
                  " it stops driving them until it holds the locks again",
                  sorted(self.ownership.shard_ids), why)
        self._changed.set()

    async def _watch_locks(self) -> None:
        """Check the locks while driving; take them back when not (module docstring)."""
        delay = min(0.1, self.poll_seconds)
        busy_told = False
        while True:
            if self._driving:
                self._changed.clear()
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(self.heartbeat):
                        await self._changed.wait()
                lock = self._lock
                if self._driving and (lock is None or not await lock.check(
                        self.check_timeout)):
                    self._stop_driving("the server did not answer a check")
                delay = min(0.1, self.poll_seconds)
                continue
            old, self._lock = self._lock, None
            if old is not None:
                await old.release()
            shards = sorted(self.ownership.shard_ids)
            try:
                lock = await self.store.lock_shards(shards)
            except ShardBusy as exc:
                if not busy_told:
                    log.error("shard %s: another process runs it now; this process leaves"
                              " it to that one and tries again every %s s",
                              exc.shard, self.poll_seconds)
                    busy_told = True
                await asyncio.sleep(self.poll_seconds)
                continue
            except Exception as exc:
                log.warning("shards %s: could not take the start locks back (%s); retrying"
                            " in %.1f s", shards, exc, delay)
                await asyncio.sleep(delay)
                delay = min(self.poll_seconds, delay * 2)
                continue
            busy_told = False
            await self._drive_again(lock)

    async def _drive_again(self, lock: SessionLock) -> None:
        """The locks are ours again: rebuild the tables from the store, then drive (not
        when the locks were lost again meanwhile: the watch takes them back first)."""
        self._lock = lock
        lock.on_lost(self._lost)
        if self._service is not None:
            await self._service.resume()
        if not lock.held:
            if self._service is not None:
                self._service.pause()
            return
        self._driving = True
        if self.consumer is not None:
            self.consumer.resume()
        log.warning("shards %s: the start locks are held again; driving the shards again",
                    sorted(self.ownership.shard_ids))
