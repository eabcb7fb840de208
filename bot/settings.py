"""The bot's settings: one frozen dataclass, built from the environment or passed
explicitly (tests, embedding).

Environment variables read by :meth:`Settings.from_env` (all optional except the token for
``tricktable run``):

========================  ==================================================================
``DISCORD_TOKEN``         the bot token (never logged; ``repr(settings)`` hides it)
``DATABASE_URL``          the store, default ``sqlite:///tricktable.db``
``TRICKTABLE_LOG_LEVEL``  ``DEBUG``, ``INFO`` (default), ``WARNING``, ``ERROR``
``TRICKTABLE_OWNER_IDS``  user ids (comma or space separated) allowed ``/admin sync``;
                          empty: the application's owner(s) as Discord reports them
``TRICKTABLE_DEV_GUILD``  guild id that ``tricktable sync`` uses when no ``--guild`` is given
``TRICKTABLE_AI_WORKERS`` AI worker processes (default 2; 0 runs AI decisions in a thread)
``TRICKTABLE_AI_BUDGET_MS`` time budget of one AI decision in milliseconds (default 200)
``TRICKTABLE_EDIT_INTERVAL`` least seconds between two edits of a public table message
                          (default 1.0)
========================  ==================================================================
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field

DEFAULT_DATABASE_URL = "sqlite:///tricktable.db"


class SettingsError(ValueError):
    """A setting in the environment has a value that cannot be used (the message says
    which variable and why)."""


@dataclass(frozen=True, slots=True)
class Settings:
    """Everything the bot process is configured with."""

    token: str | None = field(default=None, repr=False)
    database_url: str = DEFAULT_DATABASE_URL
    log_level: str = "INFO"
    owner_ids: frozenset[int] = frozenset()
    dev_guild: int | None = None
    ai_workers: int = 2
    ai_budget_ms: float = 200.0
    edit_interval: float = 1.0
    """Least seconds between two edits of one public table message (coalescing)."""
    ai_edit_interval: float = 4.0
    """Least seconds between two edits while only AI players are to act (an all-AI table,
    or the AI's turns between two human turns): nobody is waiting to choose."""
    edit_delay: float = 0.2
    """Seconds a change waits before the table message is edited, so that a burst of AI
    plays lands in one edit."""
    defer_after: float = 0.02
    """An interaction whose work (a store write) has not finished after this many seconds
    is deferred first; quicker work is answered in the same request."""
    message_max_age: float = 50 * 60.0
    """A public table message older than this is replaced by a fresh one."""

    @staticmethod
    def from_env(env: Mapping[str, str] | None = None) -> Settings:
        """Read the settings from ``env`` (default ``os.environ``); raises SettingsError
        naming the variable for a value that does not parse."""
        e = os.environ if env is None else env

        def number(name: str, default: float, *, integer: bool = False) -> float:
            raw = e.get(name, "").strip()
            if not raw:
                return default
            try:
                value = int(raw) if integer else float(raw)
            except ValueError:
                kind = "a whole number" if integer else "a number"
                raise SettingsError(f"{name} must be {kind}, not {raw!r}") from None
            if value < 0:
                raise SettingsError(f"{name} must not be negative")
            return value

        owners: set[int] = set()
        for part in re.split(r"[,\s]+", e.get("TRICKTABLE_OWNER_IDS", "").strip()):
            if not part:
                continue
            if not part.isdigit():
                raise SettingsError(f"TRICKTABLE_OWNER_IDS: {part!r} is not a user id")
            owners.add(int(part))
        level = e.get("TRICKTABLE_LOG_LEVEL", "INFO").strip().upper() or "INFO"
        if level not in ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"):
            raise SettingsError(f"TRICKTABLE_LOG_LEVEL must be DEBUG, INFO, WARNING or ERROR, "
                                f"not {level!r}")
        guild = e.get("TRICKTABLE_DEV_GUILD", "").strip()
        if guild and not guild.isdigit():
            raise SettingsError(f"TRICKTABLE_DEV_GUILD: {guild!r} is not a guild id")
        return Settings(
            token=e.get("DISCORD_TOKEN", "").strip() or None,
            database_url=e.get("DATABASE_URL", "").strip() or DEFAULT_DATABASE_URL,
            log_level=level,
            owner_ids=frozenset(owners),
            dev_guild=int(guild) if guild else None,
            ai_workers=int(number("TRICKTABLE_AI_WORKERS", 2, integer=True)),
            ai_budget_ms=number("TRICKTABLE_AI_BUDGET_MS", 200.0),
            edit_interval=number("TRICKTABLE_EDIT_INTERVAL", 1.0),
        )
