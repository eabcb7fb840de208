"""The bot's settings: one frozen dataclass, built from the environment or passed
explicitly (tests, embedding).

Environment variables read by :meth:`Settings.from_env` (all optional except the token for
``tricktable run``):

========================  ==================================================================
``DISCORD_TOKEN``         the bot token (never logged; ``repr(settings)`` hides it)
``DATABASE_URL``          the store, default ``sqlite:///tricktable.db``
``TRICKTABLE_LOG_LEVEL``  ``DEBUG``, ``INFO`` (default), ``WARNING``, ``ERROR``: the level of
                          the project's own loggers (``bot``, ``games``, ``storage``)
``TRICKTABLE_LOG_LIBRARIES`` the level of third-party loggers (discord.py, database
                          drivers; default ``WARNING``). ``DEBUG`` logs hands, seeds and
                          interaction tokens: never in production
``TRICKTABLE_OWNER_IDS``  user ids (comma or space separated) allowed ``/admin sync``
                          and ``/admin status``;
                          empty: the application's owner(s) as Discord reports them
``TRICKTABLE_DEV_GUILD``  guild id that ``tricktable sync`` uses when no ``--guild`` is given
``TRICKTABLE_AI_WORKERS`` AI worker processes (default 2; 0 runs AI decisions in a thread)
``TRICKTABLE_AI_BUDGET_MS`` longest thinking time of one search decision in milliseconds
                          (default 50; search usually stops earlier, at its game's
                          default number of worlds)
``TRICKTABLE_AI_MAX_WAIT_MS`` how long a table waits for a pooled AI move before it gets
                          the ``rules`` move instead (default 1000; 0: no limit)
``TRICKTABLE_EDIT_INTERVAL`` least seconds between two edits of a public table message
                          (default 1.0)
``TRICKTABLE_REST_BUDGET`` REST requests per second the bot's processes make together
                          at most (default 45: a margin under Discord's global 50;
                          ``bot.discord_bot.rest_budget``)
``TRICKTABLE_SHARD_COUNT`` total number of Discord shards of the bot, a whole number >= 1
                          (default 1) or ``auto`` (Discord's recommendation)
``TRICKTABLE_SHARD_IDS``  the shards this process runs, comma separated (default: all)
``TRICKTABLE_DISCORD_API`` the base URL of Discord's API (default Discord's own,
                          ``https://discord.com/api/v10``): an HTTP proxy in front of
                          Discord, or a test server; the gateway URL is then asked from it
========================  ==================================================================

Several processes (each with some of the shards) need PostgreSQL: a process configured
for only some of the shards on SQLite is refused, and so are shard ids outside the count.
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
    log_libraries: str = "WARNING"
    """Level of third-party loggers (see :mod:`bot.logs`); DEBUG is unsafe in production."""
    owner_ids: frozenset[int] = frozenset()
    dev_guild: int | None = None
    ai_workers: int = 2
    ai_budget_ms: float = 50.0
    ai_max_wait_ms: float = 1000.0
    """Overload limit of the AI pool (:class:`bot.ai_pool.AIPool`): a move that waited
    longer is replaced by the ``rules`` move."""
    edit_interval: float = 1.0
    """Least seconds between two edits of one public table message (coalescing)."""
    ai_edit_interval: float = 4.0
    """Least seconds between two edits while only AI players are to act (an all-AI table,
    or the AI's turns between two human turns): nobody is waiting to choose."""
    rest_budget: float = 45.0
    """REST requests per second the bot's processes make together at most, counted
    ahead (:mod:`bot.discord_bot.rest_budget`); Discord's global limit is 50."""
    edit_delay: float = 0.2
    """Seconds a change waits before the table message is edited, so that a burst of AI
    plays lands in one edit."""
    defer_after: float = 0.025
    """A table interaction whose work has not finished after this many seconds is
    acknowledged first (deferred) and answered by an edit; quicker work is answered in the
    same request. Keeps every click acknowledged within a few tens of milliseconds even
    when the store is busy (see :mod:`bot.discord_bot.answer`)."""
    message_max_age: float = 50 * 60.0
    """A public table message older than this is replaced by a fresh one."""
    shard_count: int | None = 1
    """Total number of shards of the bot; None: Discord's recommendation (``auto``), known
    once connected (then check it with :meth:`shards_for`)."""
    shard_ids: tuple[int, ...] | None = None
    """The shards this process runs (sorted); None: all of them."""
    discord_api: str | None = None
    """Base URL of Discord's REST API (``…/api/v10``); None: Discord's own. The gateway
    URL is then asked from ``GET /gateway/bot`` of that API."""

    def __post_init__(self) -> None:
        check_shards(self.database_url, self.shard_count, self.shard_ids)

    def shards_for(self, shard_count: int) -> tuple[int, ...]:
        """The shards this process runs when the bot has ``shard_count`` shards (for
        ``auto``, once Discord said how many); raises SettingsError for ids outside it."""
        check_shards(self.database_url, shard_count, self.shard_ids)
        return self.shard_ids if self.shard_ids is not None else tuple(range(shard_count))

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
        count_text = e.get("TRICKTABLE_SHARD_COUNT", "").strip().lower()
        shard_count: int | None = 1
        if count_text == "auto":
            shard_count = None
        elif count_text:
            if not count_text.isdigit() or int(count_text) < 1:
                raise SettingsError(f"TRICKTABLE_SHARD_COUNT must be a whole number of at least"
                                    f" 1 or 'auto', not {count_text!r}")
            shard_count = int(count_text)
        libraries = e.get("TRICKTABLE_LOG_LIBRARIES", "WARNING").strip().upper() or "WARNING"
        if libraries not in ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"):
            raise SettingsError(f"TRICKTABLE_LOG_LIBRARIES must be DEBUG, INFO, WARNING or "
                                f"ERROR, not {libraries!r}")
        guild = e.get("TRICKTABLE_DEV_GUILD", "").strip()
        if guild and not guild.isdigit():
            raise SettingsError(f"TRICKTABLE_DEV_GUILD: {guild!r} is not a guild id")
        return Settings(
            token=e.get("DISCORD_TOKEN", "").strip() or None,
            database_url=e.get("DATABASE_URL", "").strip() or DEFAULT_DATABASE_URL,
            log_level=level,
            log_libraries=libraries,
            owner_ids=frozenset(owners),
            dev_guild=int(guild) if guild else None,
            ai_workers=int(number("TRICKTABLE_AI_WORKERS", 2, integer=True)),
            ai_budget_ms=number("TRICKTABLE_AI_BUDGET_MS", 50.0),
            ai_max_wait_ms=number("TRICKTABLE_AI_MAX_WAIT_MS", 1000.0),
            edit_interval=number("TRICKTABLE_EDIT_INTERVAL", 1.0),
            rest_budget=number("TRICKTABLE_REST_BUDGET", 45.0),
            shard_count=shard_count,
            shard_ids=parse_shard_ids(e.get("TRICKTABLE_SHARD_IDS", "")),
            discord_api=parse_api_url(e.get("TRICKTABLE_DISCORD_API", "")),
        )


def parse_api_url(text: str) -> str | None:
    """``TRICKTABLE_DISCORD_API``: an ``http(s)://`` URL (None when empty: Discord's own)."""
    url = text.strip().rstrip("/")
    if not url:
        return None
    if not re.fullmatch(r"https?://[^\s/]+(/\S*)?", url):
        raise SettingsError(f"TRICKTABLE_DISCORD_API must be an http:// or https:// URL, "
                            f"not {url!r}")
    return url


def parse_shard_ids(text: str) -> tuple[int, ...] | None:
    """``TRICKTABLE_SHARD_IDS``: comma-separated shard numbers (None when empty: all)."""
    ids: list[int] = []
    for part in text.split(","):
        part = part.strip()
        if not part:
            continue
        if not part.isdigit():
            raise SettingsError(f"TRICKTABLE_SHARD_IDS: {part!r} is not a shard number")
        if int(part) in ids:
            raise SettingsError(f"TRICKTABLE_SHARD_IDS names shard {int(part)} twice")
        ids.append(int(part))
    if not ids and text.strip():
        raise SettingsError("TRICKTABLE_SHARD_IDS names no shard")
    return tuple(sorted(ids)) if ids else None


def check_shards(database_url: str, shard_count: int | None,
                 shard_ids: tuple[int, ...] | None) -> None:
    """Refuse shard settings no deployment can run (SettingsError says why):

    * a shard count below 1, or shard ids outside ``0 … shard_count - 1``;
    * SQLite with a process that runs only some of the shards (the others would need a
      second process on the same file: SQLite serves one process; use PostgreSQL).
    """
    if shard_count is not None and shard_count < 1:
        raise SettingsError(f"TRICKTABLE_SHARD_COUNT must be at least 1, not {shard_count}")
    if shard_ids is None:
        return
    if shard_count is not None:
        outside = [i for i in shard_ids if i >= shard_count]
        if outside:
            raise SettingsError(
                f"TRICKTABLE_SHARD_IDS: shard {outside[0]} does not exist with"
                f" {shard_count} shard{'s' if shard_count != 1 else ''}"
                f" (shards are numbered 0 to {shard_count - 1})")
    every = shard_count is not None and set(shard_ids) == set(range(shard_count))
    if not every and database_url.strip().lower().startswith("sqlite"):
        raise SettingsError(
            "TRICKTABLE_SHARD_IDS runs only some of the shards in this process, so other"
            " processes must run the rest: several processes need PostgreSQL"
            " (DATABASE_URL=postgresql://…); SQLite serves one process, which then runs"
            " every shard (leave TRICKTABLE_SHARD_IDS unset)")
