"""Several bot processes on one PostgreSQL database, one per group of Discord shards.

No ``discord`` here: the Discord adapter wires these pieces in (see ``docs/scale.md`` and
the README's "Several processes").

* :mod:`bot.cluster.ownership` — who owns a guild (``(guild_id >> 22) % shard_count``).
* :mod:`bot.cluster.node` — a process's shards, their start locks, its inbox.
* :mod:`bot.cluster.forwarding` — the receiving side of a click for another's table.
* :mod:`bot.cluster.inbox` — the owner's side: apply forwarded requests exactly once.
* :mod:`bot.cluster.protocol` — the request, the outcome and the answer callback.
"""

from bot.cluster.forwarding import ForwardingClient
from bot.cluster.inbox import MAX_AGE, InboxConsumer
from bot.cluster.node import ClusterNode
from bot.cluster.ownership import DM_SHARD, Ownership, shard_of
from bot.cluster.protocol import (
    AnswerCallback,
    BadRequest,
    Delivery,
    ForwardOutcome,
    ForwardRequest,
    OutcomeStatus,
)

__all__ = [
    "DM_SHARD",
    "MAX_AGE",
    "AnswerCallback",
    "BadRequest",
    "ClusterNode",
    "Delivery",
    "ForwardOutcome",
    "ForwardRequest",
    "ForwardingClient",
    "InboxConsumer",
    "OutcomeStatus",
    "Ownership",
    "shard_of",
]
