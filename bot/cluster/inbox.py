"""The owner's side: apply the requests other processes forwarded to its shards.

:class:`InboxConsumer` runs in every process, for the shards it runs. It wakes when a
request is written for one of them (PostgreSQL ``NOTIFY``), and also every
``poll_seconds`` (a notification lost with a dropped connection only delays a request),
and once at start: requests written while the process was down are applied then.

Each request is applied through the same :class:`~bot.service.TableService` call a local
click makes (``act``, ``rejoin``, or for a card picked in the card select the action it
resolves to, :func:`bot.service.picks.resolve_pick`), so under the table's lock and with
the same checks. Whatever the request changes is stored first; only then is its outcome
stored (the entry is then ``done``), and only then handed to the
:class:`~bot.cluster.protocol.AnswerCallback`, which only draws.

**At least once, played once.** An entry is marked done only after its action is stored
(or refused), so an owner that dies at any point leaves it pending or done, never done
and unplayed: whoever runs the shard next delivers a pending entry again. A delivery
again changes nothing twice: one process runs a shard at a time (its start lock), an
entry is completed once, and an ``act`` or a pick carries the table version it was
chosen at, so one whose action was stored before the owner died is refused as ``stale``
(a seat that acted is to act again only from a newer version:
:meth:`bot.service.live.LiveTable.is_current`). A ``rejoin`` is idempotent, and a
``panel`` without a pick changes nothing (its ``applied`` only tells the answer
callback to draw). Requests of one table are applied in the order written; different
tables in parallel.

**Only while sure.** :meth:`InboxConsumer.pause` (the node is not sure it still holds its
shards' locks) leaves every request pending — not even completed as refused — until
:meth:`InboxConsumer.resume`: whoever runs the shard by then applies it.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import logging
from collections.abc import Callable, Mapping
from itertools import groupby
from typing import Any

from bot.cluster.ownership import Ownership
from bot.cluster.protocol import (
    AnswerCallback,
    BadRequest,
    Delivery,
    ForwardOutcome,
    ForwardRequest,
)
from bot.i18n import N_
from bot.service import (
    NoSuchTable,
    Rejected,
    SaveFailed,
    ServiceError,
    StaleAction,
    TableService,
)
from bot.service.errors import NO_SEAT
from bot.service.picks import resolve_pick
from bot.tasks import cancel
from games.actions import Action, action_from_json
from games.errors import GameError
from storage import ForwardedAction, Listener, Store
from storage.inbox import inbox_channel

log = logging.getLogger(__name__)

MAX_AGE = dt.timedelta(minutes=15)
"""A request older than this is not applied (``expired``): it is how long a Discord
interaction can still be answered, and a move made long after its click would surprise
everybody at the table."""
UNREADABLE = N_("That choice is not understood.")
PURGE_AFTER = dt.timedelta(days=1)
"""Done entries are deleted this long after they were done."""


def _utcnow() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


class InboxConsumer:
    """Applies the forwarded requests of ``ownership``'s shards (see the module doc)."""

    def __init__(self, store: Store, service: TableService, ownership: Ownership,
                 answer: AnswerCallback, *, poll_seconds: float = 5.0,
                 max_age: dt.timedelta = MAX_AGE,
                 now: Callable[[], dt.datetime] = _utcnow,
                 listener: Listener | None = None) -> None:
        """``listener``: a shared listener (its owner closes it); default: one of its own."""
        self.store = store
        self.service = service
        self.ownership = ownership
        self.answer = answer
        self.poll_seconds = poll_seconds
        self.max_age = max_age
        self._now = now
        self._wake = asyncio.Event()
        self._drain_lock = asyncio.Lock()
        self._given_listener = listener
        self._listener: Listener | None = None
        self._task: asyncio.Task[None] | None = None
        self._last_purge: dt.datetime | None = None
        self._paused = False

    def pause(self) -> None:
        """Leave the inbox alone (requests stay pending) until :meth:`resume`: the process
        is not sure it still runs these shards (:class:`~bot.cluster.ClusterNode`)."""
        self._paused = True

    def resume(self) -> None:
        """Apply the inbox again, at once."""
        self._paused = False
        self._wake.set()

    async def start(self) -> None:
        """Listen for the shards' notifications and run the loop (a first pass at once)."""
        self._listener = self._given_listener or self.store.listener()
        for shard in sorted(self.ownership.shard_ids):
            await self._listener.listen(inbox_channel(shard), self._notified)
        self._task = asyncio.create_task(self._run(), name="cluster-inbox")

    async def close(self) -> None:
        await cancel(self._task)
        self._task = None
        if self._listener is not None and self._given_listener is None:
            await self._listener.close()
        self._listener = None

    def _notified(self, _payload: str) -> None:
        self._wake.set()

    async def _run(self) -> None:
        while True:
            self._wake.clear()
            try:
                if not self._paused:
                    await self.drain()
                await self._purge()
            except Exception:
                log.exception("forwarded requests: a pass failed; trying again shortly")
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(self.poll_seconds):
                    await self._wake.wait()
            if self._listener is not None:
                with contextlib.suppress(Exception):
                    await self._listener.ensure()

    async def drain(self) -> list[tuple[Delivery, ForwardOutcome]]:
        """Apply every pending request of this process's shards, now; returns what was
        completed (for tests and tools; the loop calls it on every wake-up)."""
        done: list[tuple[Delivery, ForwardOutcome]] = []
        async with self._drain_lock:
            while True:
                entries = await self.store.pending_forwards(sorted(self.ownership.shard_ids))
                if not entries:
                    return done
                by_table = [list(g) for _, g in groupby(
                    sorted(entries, key=lambda e: (e.table_id, e.id)), key=lambda e: e.table_id)]
                results = await asyncio.gather(*(self._table_batch(b) for b in by_table),
                                               return_exceptions=True)
                failed = False
                for batch in results:
                    if isinstance(batch, BaseException):
                        # e.g. the store is unreachable: the entry stays pending and the
                        # next pass (a wake-up or the poll) tries again.
                        log.warning("forwarded requests: a table's batch failed (%r)", batch)
                        failed = True
                    else:
                        done.extend(batch)
                if failed or self._paused or len(entries) < 100:
                    return done

    async def _table_batch(
        self, entries: list[ForwardedAction]
    ) -> list[tuple[Delivery, ForwardOutcome]]:
        out = []
        for entry in entries:
            handled = await self._handle(entry)
            if handled is not None:
                out.append(handled)
        return out

    async def _handle(self, entry: ForwardedAction) -> tuple[Delivery, ForwardOutcome] | None:
        if self._paused:
            return None  # left pending: whoever runs the shard applies it
        try:
            delivery = Delivery.of(entry)
        except BadRequest as exc:
            log.warning("forwarded request %s is unreadable (%s); dropping it", entry.id, exc)
            await self.store.complete_forward(entry.id, ForwardOutcome("failed").to_json())
            return None
        outcome = await self.apply(delivery)
        if await self.store.complete_forward(entry.id, outcome.to_json()) is None:
            return None  # completed by someone else meanwhile: theirs is the answer
        try:
            await self.answer(delivery, outcome)
        except Exception:
            log.exception("table %s: answering forwarded request %s failed",
                          delivery.request.table_id, entry.id)
        return delivery, outcome

    async def apply(self, delivery: Delivery) -> ForwardOutcome:
        """Apply one request through the table service, as a local click would."""
        request = delivery.request
        if self._now() - delivery.created_at > self.max_age:
            return ForwardOutcome("expired")
        try:
            if request.kind == "act":
                assert request.action is not None and request.version is not None
                await self.service.act(request.table_id, request.user_id,
                                       _action(request.action), request.version)
            elif request.kind == "rejoin":
                await self.service.rejoin(request.table_id, request.user_id)
            elif self.service.seat_of(request.table_id, request.user_id) is None:
                return ForwardOutcome("refused", NO_SEAT)
            elif request.data and "pick" in request.data:
                return await self._pick(request)
        except NoSuchTable as exc:
            return ForwardOutcome.refusal("no_table", exc)
        except StaleAction as exc:
            return ForwardOutcome.refusal("stale", exc)
        except SaveFailed as exc:
            return ForwardOutcome.refusal("failed", exc)
        except ServiceError as exc:  # Rejected, LobbyError: the rule's reason
            return ForwardOutcome.refusal("refused", exc)
        try:
            version: int | None = self.service.info(request.table_id).version
        except NoSuchTable:
            version = None  # the match ended with this action
        return ForwardOutcome("applied", version=version)

    async def _pick(self, request: ForwardRequest) -> ForwardOutcome:
        """A card picked in the card select (``data`` ``{"pick": action, "version": v}``):
        played here when it names one legal action (before the outcome is stored: module
        docstring), else ``applied`` without a play (its variants are offered)."""
        table_id, data = request.table_id, request.data or {}
        seat = self.service.seat_of(table_id, request.user_id)
        version, chosen_json = data.get("version"), data.get("pick")
        if seat is None:
            return ForwardOutcome("refused", NO_SEAT)
        if not isinstance(chosen_json, dict) or not isinstance(version, int):
            return ForwardOutcome("refused", UNREADABLE)
        try:
            _, chosen = action_from_json({**chosen_json, "seat": seat}, "choice")
        except (GameError, ValueError):
            return ForwardOutcome("refused", UNREADABLE)
        info = self.service.info(table_id)
        if version != info.version:
            raise StaleAction()
        played = resolve_pick(self.service.legal(table_id, seat), chosen)
        if played is None:
            return ForwardOutcome("applied", version=info.version)
        await self.service.act(table_id, request.user_id, played, version)
        try:
            after: int | None = self.service.info(table_id).version
        except NoSuchTable:
            after = None  # the match ended with this card
        return ForwardOutcome("applied", version=after, played_deal=info.deal)

    async def _purge(self) -> None:
        now = self._now()
        if self._last_purge is not None and now - self._last_purge < dt.timedelta(hours=1):
            return
        self._last_purge = now
        removed = await self.store.purge_forwards(now - PURGE_AFTER)
        if removed:
            log.info("forwarded requests: purged %d old entries", removed)


def _action(record: Mapping[str, Any]) -> Action:
    """A forwarded action's record form, parsed (Rejected, with the parser's reason, when
    it is not an action)."""
    try:
        return action_from_json({**record, "seat": 0}, "action")[1]
    except GameError as exc:
        raise Rejected(str(exc)) from None
