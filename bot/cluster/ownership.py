"""Which process owns which guild: Discord's own shard formula.

Discord sends a guild's events and interactions to shard ``(guild_id >> 22) %
shard_count``; a process runs some shards and owns exactly the guilds of its shards:
their tables (loaded, driven, timed, AI turns), their league reminders. A table lives in a
guild's channel, so its owner follows from its guild. DM interactions carry no guild and
always reach shard 0: the table named in the click says whose it is (see
:mod:`bot.cluster.forwarding`). Terminal tables belong to ``tricktable play``, never to a
bot process.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from storage.models import ChannelLocation, Location

DM_SHARD = 0
"""The shard Discord delivers every direct-message interaction to."""


def shard_of(guild_id: int, shard_count: int) -> int:
    """The shard of a guild (Discord's formula: the snowflake's timestamp bits)."""
    if shard_count < 1:
        raise ValueError(f"shard_count must be at least 1, not {shard_count}")
    return (guild_id >> 22) % shard_count


@dataclass(frozen=True, slots=True)
class Ownership:
    """The shards of this process out of ``shard_count``."""

    shard_count: int
    shard_ids: frozenset[int]

    def __post_init__(self) -> None:
        if self.shard_count < 1:
            raise ValueError(f"shard_count must be at least 1, not {self.shard_count}")
        if not self.shard_ids:
            raise ValueError("a process runs at least one shard")
        outside = sorted(i for i in self.shard_ids if not 0 <= i < self.shard_count)
        if outside:
            raise ValueError(f"shard {outside[0]} does not exist with {self.shard_count} shards")

    @classmethod
    def of(cls, shard_count: int, shard_ids: Iterable[int] | None = None) -> Ownership:
        """The ownership of a process running ``shard_ids`` (None: all the shards)."""
        ids = range(shard_count) if shard_ids is None else shard_ids
        return cls(shard_count, frozenset(ids))

    @property
    def everything(self) -> bool:
        """Whether this process runs every shard (a single-process deployment)."""
        return len(self.shard_ids) == self.shard_count

    @property
    def receives_dms(self) -> bool:
        """Whether Discord delivers direct-message interactions to this process."""
        return DM_SHARD in self.shard_ids

    def owner_shard(self, location: Location) -> int | None:
        """The shard whose process owns a table at ``location`` (None: a terminal table,
        owned by no bot process)."""
        if isinstance(location, ChannelLocation):
            return shard_of(location.guild_id, self.shard_count)
        return None

    def owns_guild(self, guild_id: int) -> bool:
        return shard_of(guild_id, self.shard_count) in self.shard_ids

    def owns(self, location: Location) -> bool:
        """Whether this process owns the table at ``location`` (``service.start(owns=…)``)."""
        shard = self.owner_shard(location)
        return shard is not None and shard in self.shard_ids
