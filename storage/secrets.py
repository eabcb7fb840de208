"""Secrets the bot makes once and keeps (``secrets``: one value per name), such as the key
that signs the web table's links when ``TRICKTABLE_WEB_SECRET`` is not set.

:meth:`SecretsMixin.keep_secret` stores ``fresh`` under ``name`` unless a value is there
already, and returns the stored value: the first writer wins, so every process (and every
restart) on one database uses the same secret. The value is never logged.
"""

from __future__ import annotations

from storage.core import StoreCore


class SecretsMixin(StoreCore):
    """The ``secrets`` part of the store (module docstring)."""

    async def keep_secret(self, name: str, fresh: str) -> str:
        params = {"name": name, "value": fresh, "now": self._now()}
        async with self._db.write() as connection:
            await connection.execute(
                "INSERT INTO secrets (name, value, created_at) VALUES (:name, :value, :now)"
                " ON CONFLICT (name) DO NOTHING",
                params,
            )
            row = await connection.fetchrow("SELECT value FROM secrets WHERE name = :name",
                                            params)
        assert row is not None
        return str(row["value"])
