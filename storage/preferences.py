"""The players' preferences kept in ``player_settings`` besides their language.

``play_only_card``: "play my only legal card for me" — when the player's only legal action
is one card play, the front end plays it for them (as online bridge rooms offer). Off by
default: a player without a row, or who never chose, plays every card themselves.
"""

from __future__ import annotations

from storage import codec
from storage.core import StoreCore


class PreferencesMixin(StoreCore):
    """The preference part of ``player_settings``."""

    async def get_play_only_card(self, user_id: int) -> bool:
        async with self._db.read() as connection:
            row = await connection.fetchrow(
                "SELECT play_only_card FROM player_settings WHERE user_id = :user_id",
                {"user_id": codec.integer(user_id, "user_id")},
            )
        return row is not None and bool(row["play_only_card"])

    async def set_play_only_card(self, user_id: int, on: bool) -> None:
        params = {"user_id": codec.integer(user_id, "user_id"), "on": 1 if on else 0,
                  "now": self._now()}
        async with self._db.write() as connection:
            await connection.execute(
                """
                INSERT INTO player_settings (user_id, play_only_card, updated_at)
                VALUES (:user_id, :on, :now)
                ON CONFLICT (user_id) DO UPDATE
                SET play_only_card = excluded.play_only_card, updated_at = excluded.updated_at
                """,
                params,
            )
