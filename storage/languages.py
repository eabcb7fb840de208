"""The players' language choices (``player_settings``) and the check of a language code.

A server's language is one of its guild settings (:attr:`GuildSettings.language`, stored
with the others in the guild's settings row). A player's own language lives in
``player_settings``, one row per player who chose one; a player without a row (or with
``NULL``) has not chosen and the front end decides (``bot.i18n.languages``).

Storage checks only the shape of a code (two or three lowercase ASCII letters, ISO 639):
which languages exist is the front end's business, and a code the running code no longer
supports reads back unchanged for the front end to fall back from.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final

from storage import codec
from storage.core import StoreCore
from storage.signals import PLAYER_LANGUAGE_CHANNEL
from storage.sql import placeholders

_CODE: Final = re.compile(r"[a-z]{2,3}")


def language_code(value: object, what: str) -> str:
    """``value`` if it is a language code (``"so"``); ValueError otherwise."""
    if not isinstance(value, str) or not _CODE.fullmatch(value):
        raise ValueError(f"{what} must be a language code of 2 or 3 lowercase letters")
    return value


class LanguagesMixin(StoreCore):
    """The ``player_settings`` part of the store."""

    async def get_player_language(self, user_id: int) -> str | None:
        async with self._db.read() as connection:
            row = await connection.fetchrow(
                "SELECT language FROM player_settings WHERE user_id = :user_id",
                {"user_id": codec.integer(user_id, "user_id")},
            )
        return None if row is None else row["language"]

    async def get_player_languages(self, user_ids: Sequence[int]) -> dict[int, str]:
        if not user_ids:
            return {}
        wanted, names = placeholders("u", len(user_ids))
        params = {n: codec.integer(u, "user_id") for n, u in zip(names, user_ids, strict=True)}
        async with self._db.read() as connection:
            rows = await connection.fetch(
                "SELECT user_id, language FROM player_settings"
                f" WHERE user_id IN ({wanted}) AND language IS NOT NULL",
                params,
            )
        return {int(row["user_id"]): row["language"] for row in rows}

    async def set_player_language(self, user_id: int, language: str | None) -> None:
        params = {
            "user_id": codec.integer(user_id, "user_id"),
            "language": None if language is None else language_code(language, "language"),
            "now": self._now(),
        }
        async with self._db.write() as connection:
            await connection.execute(
                """
                INSERT INTO player_settings (user_id, language, updated_at)
                VALUES (:user_id, :language, :now)
                ON CONFLICT (user_id) DO UPDATE
                SET language = excluded.language, updated_at = excluded.updated_at
                """,
                params,
            )
            await self._notify(connection, PLAYER_LANGUAGE_CHANNEL, str(params["user_id"]))
