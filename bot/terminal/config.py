"""``tricktable play`` arguments: parsing, checking, defaults, and what ``--resume`` keeps.

Every refusal is one short line (``tricktable play: …``) and exit status 2; nothing is
opened or changed before the arguments are all good. Game names are accepted in any case,
with hyphens or underscores (``Arbaa-Turub``). The default database is
``tricktable.db`` in the user's data folder (``platformdirs``), records are written to its
``records`` folder: both are shown by ``tricktable play --help``.

**Resume.** A match keeps what it was started with: its rule options, seed, seats and
player count are fixed (``--options``, ``--seed``, ``--players`` and ``--seat`` with
``--resume`` are refused: start a new match with ``--new``). The AI level, AI pace and
forced-move pause are stored with the table and reused; given with ``--resume`` they
replace the stored ones, and the terminal says which.
"""

from __future__ import annotations

import argparse
import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot.cli_lang import ENGLISH, Words, add_lang_argument
from bot.i18n import Translator
from bot.words.text import or_english
from games.ai import LEVELS
from games.registry import GAMES, UnknownGame, game_id

DEFAULT_AI = "search"
"""The AI players' level when ``--ai`` is not given: the strongest playable level, the one
Discord's lobby offers first (``Add AI: search (strong)``)."""
DEFAULT_PACE = 0.6
DEFAULT_FORCED_PAUSE = 0.5
MAX_SECONDS = 60.0
MAX_OPTIONS_TEXT = 4000


class ConfigError(Exception):
    """A bad argument: the message is the one line shown."""


def data_dir() -> Path:
    """The user's data folder for tricktable (``platformdirs``), not created here."""
    import platformdirs

    return Path(platformdirs.user_data_dir("tricktable", appauthor=False))


def default_database() -> str:
    return f"sqlite:///{data_dir() / 'tricktable.db'}"


def records_dir() -> Path:
    return data_dir() / "records"


@dataclass(frozen=True)
class PlayConfig:
    """Checked arguments; ``None`` means "not given" (the stored or default value)."""

    game: str
    seat: int | None = None
    ai: str | None = None
    options: dict[str, Any] | None = None
    seed: int | None = None
    players: int | None = None
    resume: bool = False
    new: bool = False
    pace: float | None = None
    forced_pause: float | None = None
    database: str | None = None
    record: str | None = None
    plain: bool = False
    name: str | None = None
    language: str = "en"
    """The language the table speaks (``--lang``, ``TRICKTABLE_LANG``, the system locale,
    English): chosen by :func:`bot.cli_lang.translator_for` before the check."""

    @property
    def database_url(self) -> str:
        return self.database or default_database()

    def record_path(self, table_id: int) -> Path:
        if self.record:
            return Path(self.record)
        return records_dir() / f"tricktable-{self.game}-{table_id}.json"


def add_arguments(p: argparse.ArgumentParser, t: Words = ENGLISH) -> None:
    """The ``play`` arguments (strings: :func:`check` reads them, so that every refusal
    is the same one short line), their help in ``t``'s language. Help texts pass through
    argparse's ``%`` formatting: a path or value with ``%`` in it is doubled."""
    _ = t.gettext

    def shown(value: object) -> str:
        return str(value).replace("%", "%%")

    p.add_argument("game", help=_("the game: {games} (any case, - or _)").format(
        games=", ".join(GAMES)))
    p.add_argument("--seat", default=None, metavar="N", help=_("your seat (default 0)"))
    p.add_argument("--ai", default=None, metavar="LEVEL",
                   help=_("the AI players' level: {levels} (default {default})").format(
                       levels=", ".join(LEVELS), default=DEFAULT_AI))
    p.add_argument("--options", default=None, metavar="JSON",
                   help=_("rule options as a JSON object, e.g. '{example}' (see `tricktable "
                          "rules GAME`)").format(example='{"target": 3}'))
    p.add_argument("--seed", default=None, metavar="N",
                   help=_("the match seed: the same seed deals the same cards"))
    p.add_argument("--players", default=None, metavar="N",
                   help=_("number of players where the game allows several (Albastini 2-6, "
                          "Truf 3-4)"))
    p.add_argument("--resume", action="store_true",
                   help=_("continue the interrupted match of GAME with its stored settings"))
    p.add_argument("--new", action="store_true",
                   help=_("abandon an interrupted match of GAME and start a new one"))
    p.add_argument("--pace", default=None, metavar="SECONDS",
                   help=_("how long each AI player waits before playing, 0-{high} (default "
                          "{default})").format(high=f"{MAX_SECONDS:g}", default=DEFAULT_PACE))
    p.add_argument("--forced-pause", default=None, metavar="SECONDS",
                   help=_("a move that is your only legal one is played for you after this "
                          "pause, 0-{high}, or 'off' to always ask (default {default})")
                   .format(high=f"{MAX_SECONDS:g}", default=DEFAULT_FORCED_PAUSE))
    p.add_argument("--plain", action="store_true",
                   help=_("line mode for pipes, screen readers and scripts (no full screen)"))
    p.add_argument("--name", default=None,
                   help=_("your name at the table (default: your login name)"))
    p.add_argument("--database", default=None, metavar="URL",
                   help=_("database URL (default {url})").format(url=shown(default_database())))
    p.add_argument("--record", default=None, metavar="PATH",
                   help=_("where to write the match record at the end (default {path})").format(
                       path=shown(records_dir() / "tricktable-GAME-TABLE.json")))
    add_lang_argument(p, t)


def game_name(text: str) -> str:
    """``Arbaa-Turub`` → ``arbaa_turub`` (:func:`games.registry.game_id`); refuses an
    unknown game."""
    try:
        return game_id(text)
    except UnknownGame as exc:
        raise ConfigError(str(exc)) from None


def _int(text: str | None, flag: str, low: int, high: int, t: Translator) -> int | None:
    if text is None:
        return None
    value = text.strip()
    if not value.lstrip("-").isdigit() or len(value) > 20 or not low <= int(value) <= high:
        raise ConfigError(t.gettext("{flag} must be a whole number from {low} to {high}")
                          .format(flag=flag, low=low, high=high))
    return int(value)


def _seconds(text: str | None, flag: str, t: Translator, off: bool = False
             ) -> float | None:
    if text is None:
        return None
    if off and text.strip().lower() == "off":
        return -1.0
    try:
        value = float(text) if len(text) <= 20 else math.nan
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and 0 <= value <= MAX_SECONDS):
        template = (t.gettext("{flag} must be a number of seconds from 0 to {high} or 'off'")
                    if off else t.gettext("{flag} must be a number of seconds from 0 to "
                                          "{high}"))
        raise ConfigError(template.format(flag=flag, high=f"{MAX_SECONDS:g}"))
    return value


def _options(text: str | None, t: Translator) -> dict[str, Any] | None:
    if text is None:
        return None
    example = '{"target": 3}'
    if len(text) > MAX_OPTIONS_TEXT:
        raise ConfigError(t.gettext("--options is too long: give a JSON object such as "
                                    "'{example}'").format(example=example))
    try:
        value = json.loads(text)
    except ValueError:  # JSONDecodeError, or a number too long to convert
        raise ConfigError(t.gettext("--options is not valid JSON: give a JSON object such "
                                    "as '{example}'").format(example=example)) from None
    if not isinstance(value, dict):
        raise ConfigError(t.gettext("--options must be a JSON object such as '{example}'")
                          .format(example=example))
    return value


def check(args: argparse.Namespace, t: Translator | None = None) -> PlayConfig:
    """The checked configuration speaking ``t``'s language (English by default), or
    :class:`ConfigError` with the line to show in that language."""
    t = or_english(t)
    game = game_name(args.game)
    if args.ai is not None and args.ai.strip().lower() not in LEVELS:
        raise ConfigError(t.gettext("--ai must be one of {levels}").format(
            levels=", ".join(LEVELS)))
    if args.resume and args.new:
        raise ConfigError(t.gettext("--resume and --new exclude each other"))
    cfg = PlayConfig(
        game=game,
        seat=_int(args.seat, "--seat", 0, 5, t),
        ai=None if args.ai is None else args.ai.strip().lower(),
        options=_options(args.options, t),
        seed=_int(args.seed, "--seed", 0, 2**63 - 1, t),
        players=_int(args.players, "--players", 2, 6, t),
        resume=bool(args.resume), new=bool(args.new),
        pace=_seconds(args.pace, "--pace", t),
        forced_pause=_seconds(args.forced_pause, "--forced-pause", t, off=True),
        database=args.database, record=args.record, plain=bool(args.plain),
        name=None if args.name is None else (args.name.strip()[:32] or None),
        language=t.language,
    )
    if cfg.resume:
        fixed = [flag for flag, value in (("--options", cfg.options), ("--seed", cfg.seed),
                                          ("--players", cfg.players), ("--seat", cfg.seat))
                 if value is not None]
        if fixed:
            raise ConfigError(t.gettext(
                "{flags} cannot change a match in progress: resume without, or start a new "
                "match with --new").format(flags=", ".join(fixed)))
    return cfg
