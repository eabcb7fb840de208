"""The bot's REST budget shared by its processes: one row of use per process.

Discord lets a bot make 50 REST requests per second over all its shards and processes.
Each bot process counts its own requests and, about once a second, records here what it
made and what it wanted to make (its requests per second, those it held back included)
and reads every process's row (:meth:`RestBudgetMixin.share_rest_use`); from those it takes
its share of the budget (``bot/discord_bot/rest_budget.py``). A process that stops
writing drops out of the others' sums after a few seconds; rows older than a minute are
deleted by the next write. Nothing here is a secret: a process key and two numbers.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from storage import codec
from storage.core import StoreCore

FORGET_AFTER = dt.timedelta(minutes=1)
"""Rows older than this are deleted (a process gone for good)."""


@dataclass(frozen=True, slots=True)
class RestUse:
    """One process's recorded use: requests per second made and wanted."""

    process: str
    made: float
    wanted: float
    updated_at: dt.datetime


class RestBudgetMixin(StoreCore):
    """The ``rest_budget`` part of the store (module docstring)."""

    async def share_rest_use(self, process: str, made: float, wanted: float, *,
                             within: float) -> list[RestUse]:
        """Record ``process``'s use now and return every process's use recorded in the
        last ``within`` seconds (its own included), in one transaction."""
        now = self._now()
        async with self._db.write() as connection:
            await connection.execute(
                "INSERT INTO rest_budget (process, made, wanted, updated_at)"
                " VALUES (:process, :made, :wanted, :now)"
                " ON CONFLICT (process) DO UPDATE SET made = excluded.made,"
                " wanted = excluded.wanted, updated_at = excluded.updated_at",
                {"process": process, "made": float(made), "wanted": float(wanted),
                 "now": now})
            await connection.execute("DELETE FROM rest_budget WHERE updated_at < :old",
                                     {"old": now - FORGET_AFTER})
            rows = await connection.fetch(
                "SELECT process, made, wanted, updated_at FROM rest_budget"
                " WHERE updated_at >= :since ORDER BY process",
                {"since": now - dt.timedelta(seconds=within)})
        return [RestUse(str(r["process"]), float(r["made"]), float(r["wanted"]),
                        codec.to_datetime(r["updated_at"])) for r in rows]

    async def forget_rest_use(self, process: str) -> None:
        """Drop ``process``'s row (it stops: its share goes to the others at once)."""
        async with self._db.write() as connection:
            await connection.execute("DELETE FROM rest_budget WHERE process = :process",
                                     {"process": process})
