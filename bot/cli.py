"""The ``tricktable`` command line.

Subcommands are small functions registered in :data:`COMMANDS`; each returns the exit
status. Heavy imports happen inside the subcommand that needs them, so ``tricktable
replay`` starts fast.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence

from bot import simulate, terminal
from bot.cli_lang import ENGLISH, Words, add_lang_argument, argparse_speaking, help_language
from bot.duplicate import cli as duplicate_cli
from bot.play.cli import extend_play  # light: the server is imported by --web only

Handler = Callable[[argparse.Namespace], int]


def cmd_replay(args: argparse.Namespace) -> int:
    """Replay a record file (``-`` for standard input) and print the result as JSON."""
    from games.errors import quote
    from games.records import replay_text

    try:
        if args.file == "-":
            text = sys.stdin.read()
        else:
            with open(args.file, encoding="utf-8") as fh:
                text = fh.read()
    except OSError as exc:
        print(json.dumps({"ok": False, "error": f"cannot read {quote(args.file)}: "
                                                f"{exc.strerror}"}))
        return 2
    except UnicodeDecodeError:
        print(json.dumps({"ok": False, "error": f"{quote(args.file)} is not UTF-8 text"}))
        return 2
    if args.analyse or args.seat is not None:
        from bot.cli_lang import translator_for
        from bot.words.analysis import analyse_text

        t = translator_for(args, "replay")
        if t is None:
            return 2
        account, status = analyse_text(text, args.seat, t=t)
        print(account)
        return status
    if args.show:
        from bot.cli_lang import translator_for
        from bot.words.review import show_text

        t = translator_for(args, "replay")
        if t is None:
            return 2
        account, status = show_text(text, t=t)
        print(account)
        return status
    out, status = replay_text(text)
    print(json.dumps(out, indent=None if args.compact else 2, ensure_ascii=False))
    return status


def cmd_rules(args: argparse.Namespace) -> int:
    """List the games, or one game's player summary and every rule option with its
    default, in the ``--lang`` language (:mod:`bot.cli_lang`)."""
    from bot.cli_lang import translator_for
    from bot.words.rules import games_list, rules_text
    from games.registry import UnknownGame, game_id

    t = translator_for(args, "rules")
    if t is None:
        return 2
    if args.game is None:
        print("\n".join(games_list(t)))
        return 0
    try:
        game = game_id(args.game)
    except UnknownGame as exc:
        print(f"tricktable rules: {exc}", file=sys.stderr)
        return 2
    print(rules_text(game, t))
    return 0


def cmd_db_upgrade(args: argparse.Namespace) -> int:
    """Apply the database migrations (DATABASE_URL, default sqlite:///tricktable.db)."""
    import asyncio

    from storage import StorageError, resolve_url, upgrade
    from storage.factory import scrub

    url = args.url or resolve_url(None)
    try:
        before, after = asyncio.run(upgrade(url))
    except (StorageError, ValueError, OSError) as exc:
        print(f"tricktable db upgrade: {scrub(str(exc), url)}", file=sys.stderr)
        return 1
    if before == after:
        print(f"the database is up to date (schema version {after})")
    else:
        print(f"upgraded the database from schema version {before} to {after}")
    return 0


NO_TOKEN = (
    "tricktable run: no bot token. Set DISCORD_TOKEN to the bot's token (and optionally "
    "DATABASE_URL, default sqlite:///tricktable.db; TRICKTABLE_LOG_LEVEL, "
    "TRICKTABLE_OWNER_IDS, TRICKTABLE_AI_WORKERS; see the README). To try the games "
    "without Discord, run `tricktable play`."
)


def cmd_run(args: argparse.Namespace) -> int:
    """Run the Discord bot (settings from the environment; see bot/settings.py)."""
    from bot.settings import Settings, SettingsError

    try:
        settings = Settings.from_env()
    except SettingsError as exc:
        print(f"tricktable run: {exc}", file=sys.stderr)
        return 2
    if not settings.token:
        print(NO_TOKEN, file=sys.stderr)
        return 2
    from storage import StorageError, UnsupportedURL
    from storage.factory import parse_url, redact, scrub

    try:  # before Discord: a mistyped URL is named part by part, never echoed
        parse_url(settings.database_url)
    except UnsupportedURL as exc:
        print(f"tricktable run: DATABASE_URL: {exc}", file=sys.stderr)
        return 2
    from bot.web.run import WebSettingError, WebSettings

    try:  # before Discord too: one line naming the variable (bot/web/run.py)
        web = WebSettings.from_env()
    except WebSettingError as exc:
        print(f"tricktable run: {exc}", file=sys.stderr)
        return 2
    import logging

    import discord

    from bot.app import configure_logging, create_bot

    configure_logging(settings)
    log = logging.getLogger("bot.cli")  # under "bot": configured by configure_logging
    log.info("starting (database %s)", redact(settings.database_url))
    bot = create_bot(settings, web=web)
    import signal

    # SIGTERM (docker stop, systemd) stops the bot as Ctrl-C does: asyncio.run turns SIGINT
    # into a cancellation, so the bot and its web server close cleanly (pages get 1012).
    signal.signal(signal.SIGTERM, lambda signum, frame: signal.raise_signal(signal.SIGINT))
    try:
        bot.run(settings.token, log_handler=None)
    except discord.LoginFailure:
        log.error("Discord refused the token: check DISCORD_TOKEN")
        return 1
    except discord.PrivilegedIntentsRequired:
        log.error("the bot asked for an intent the developer portal does not grant")
        return 1
    except (StorageError, SettingsError, OSError) as exc:  # the database, a shard lock
        # held by another process, or Discord's API out of reach
        log.error("tricktable run: %s", scrub(str(exc), settings.database_url))
        return 1
    return 0


def cmd_sync(args: argparse.Namespace) -> int:
    """Publish the slash commands: to one guild (instant) or globally."""
    import asyncio

    from bot.settings import Settings, SettingsError

    try:
        settings = Settings.from_env()
    except SettingsError as exc:
        print(f"tricktable sync: {exc}", file=sys.stderr)
        return 2
    if not settings.token:
        print(NO_TOKEN.replace("tricktable run", "tricktable sync"), file=sys.stderr)
        return 2
    from bot.app import configure_logging, sync_commands

    configure_logging(settings)
    guild = args.guild if args.guild is not None else (
        settings.dev_guild if not args.all else None)
    count = asyncio.run(sync_commands(settings, guild))
    where = f"guild {guild}" if guild is not None else "all guilds (global)"
    print(f"synced {count} commands to {where}")
    return 0


def build_parser(t: Words = ENGLISH) -> argparse.ArgumentParser:
    """The ``tricktable`` parser, its help texts in ``t``'s language (argparse's own words:
    :func:`bot.cli_lang.argparse_speaking`)."""
    _ = t.gettext
    parser = argparse.ArgumentParser(
        prog="tricktable",
        description=_("Traditional trick-taking card games: the Discord bot and its tools."),
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    p = sub.add_parser("replay", help=_("replay a game record and print the result as JSON"))
    p.add_argument("file", help=_("the record (JSON); '-' reads standard input"))
    p.add_argument("--compact", action="store_true", help=_("print the JSON on one line"))
    p.add_argument("--show", action="store_true",
                   help=_("print a readable trick-by-trick account instead of the JSON"))
    p.add_argument("--analyse", action="store_true",
                   help=_("judge every decision against the AI's evaluation of each choice"))
    p.add_argument("--seat", type=int, default=None, metavar="N",
                   help=_("with --analyse: only this seat (default: every seat)"))
    add_lang_argument(p, t)
    p.set_defaults(handler=cmd_replay)

    p = sub.add_parser("rules", help=_("list the games, or one game's rules and options"))
    p.add_argument("game", nargs="?", help=_("a game name (see `tricktable rules`)"))
    add_lang_argument(p, t)
    p.set_defaults(handler=cmd_rules)

    p = sub.add_parser("db", help=_("database maintenance"))
    db = p.add_subparsers(dest="db_command", required=True, metavar="ACTION")
    p = db.add_parser("upgrade", help=_("apply the schema migrations and print the versions"))
    p.add_argument("--url", help=_("database URL (default: DATABASE_URL, else "
                                   "sqlite:///tricktable.db)"))
    p.set_defaults(handler=cmd_db_upgrade)

    terminal.add_parser(sub, t)
    extend_play(sub.choices["play"], t)
    simulate.add_parser(sub, t)
    duplicate_cli.add_parser(sub, t)

    p = sub.add_parser("run", help=_("run the Discord bot (needs DISCORD_TOKEN)"))
    p.set_defaults(handler=cmd_run)

    p = sub.add_parser("sync", help=_("publish the bot's slash commands (needs DISCORD_TOKEN)"))
    p.add_argument("--guild", type=int, help=_("a guild id: sync there only, at once "
                                               "(default: TRICKTABLE_DEV_GUILD, else global)"))
    p.add_argument("--all", action="store_true", help=_("sync globally even when "
                                                        "TRICKTABLE_DEV_GUILD is set"))
    p.set_defaults(handler=cmd_sync)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    t = help_language(sys.argv[1:] if argv is None else argv)
    with argparse_speaking(t):
        parser = build_parser(t)
        args = parser.parse_args(argv)
    handler: Handler = args.handler
    try:
        return handler(args)
    except BrokenPipeError:
        # The reader went away (``tricktable replay FILE | head``): stop quietly, like other
        # command-line tools, instead of a traceback; 141 is a shell's 128 + SIGPIPE.
        _silence_stdout()
        return BROKEN_PIPE


BROKEN_PIPE = 141
"""Exit status when standard output was closed by its reader (128 + SIGPIPE)."""


def _silence_stdout() -> None:
    """Point standard output at the null device so the interpreter's final flush of the
    broken pipe raises nothing more."""
    import os

    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):  # no real file descriptor (tests capture stdout)
        pass


if __name__ == "__main__":
    raise SystemExit(main())
