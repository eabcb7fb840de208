"""What the parts of the table service share: :class:`TableContext`.

The service (:class:`~bot.service.tables.TableService`) is the front ends' entry point and
builds its parts (:mod:`~bot.service.lobby`, :mod:`~bot.service.play`, …); each part
receives this context and the peer parts it calls, never the service itself, so the parts
import nothing above them. Events go out one way: :meth:`TableRegistry.publish
<bot.service.registry.TableRegistry.publish>` on the context's ``registry``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from bot.service.clock import Clock
from bot.service.hooks import Observer
from bot.service.live import LiveTable
from bot.service.registry import TableRegistry
from storage import Store


@dataclass(frozen=True, slots=True)
class TableContext:
    """The store, the clock, the open tables and how to wake one, shared by the parts."""

    store: Store
    clock: Clock
    registry: TableRegistry
    """The open tables and their subscriptions; the one place that publishes events."""
    kick: Callable[[LiveTable], None]
    """Start what a table's state needs after a change: its AI task when an automatic
    seat is to act, its timer task when a deadline is set (nothing for a held-back table
    or a closed service)."""
    observer: Observer
    """Who sees the service's work (:class:`~bot.service.hooks.Observer`)."""
