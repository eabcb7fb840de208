"""``tricktable play``: one human against AI players in the terminal.

The terminal is a front end of the table service like the Discord adapter, in two forms
sharing one controller (:mod:`bot.terminal.session`): a full-screen card table on Textual
(:mod:`bot.terminal.app`) and the ``--plain`` line mode (:mod:`bot.terminal.plain`), which
is also used when input or output is not a terminal (pipes, scripts). Arguments are read
by :mod:`bot.terminal.config`.

**Language.** ``--lang``, else ``TRICKTABLE_LANG``, else the system locale, else English
(:mod:`bot.cli_lang`); an unknown one is refused with one line and exit status 2 before
anything is opened. The session's translator (``Session.t``) speaks for both front ends
and travels to :mod:`bot.words` with the seating (``Seating.of(..., t=t)``). Typed input
keeps the card letters (``qh``), the engine's signal words and ``bella``; a decision may
be typed in English or as its button reads. The engine's refusals are worded in the same
language, with the players' names and cards as ``K♣`` (:mod:`bot.words.refusals`), and
``tricktable play --help`` speaks it too (:mod:`bot.cli_lang`).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Sequence
from typing import IO, Any

from bot.cli_lang import ENGLISH, Words, argparse_speaking, help_language
from bot.terminal.config import ConfigError, PlayConfig, add_arguments, check, data_dir

__all__ = ["add_parser", "cmd_play", "main", "play"]


def add_parser(sub: Any, t: Words = ENGLISH) -> None:
    """Register ``play`` on an ``argparse`` subparsers object, its help in ``t``'s
    language."""
    p = sub.add_parser(
        "play", help=t.gettext("play a game against AI players in the terminal"),
        description=t.gettext(
            "Play a whole match against AI players on a full-screen card table (--plain: "
            "line mode). The match is saved as it is played; --resume continues an "
            "interrupted one. Data folder: {folder}").format(folder=data_dir()),
    )
    add_arguments(p, t)
    p.set_defaults(handler=cmd_play)


def cmd_play(args: argparse.Namespace) -> int:
    """The ``play`` command: the Textual table on a terminal, else the line mode."""
    plain = bool(args.plain) or not (sys.stdin.isatty() and sys.stdout.isatty())
    return play(args, sys.stdin, sys.stdout, plain=plain)


def main(argv: Sequence[str], stdin: IO[str] | None = None,
         stdout: IO[str] | None = None) -> int:
    """Run ``tricktable play`` in line mode with these arguments and streams (tests and
    ``python -m bot.terminal``)."""
    t = help_language(argv)
    with argparse_speaking(t):
        parser = argparse.ArgumentParser(prog="tricktable")
        add_parser(parser.add_subparsers(dest="command", required=True), t)
        args = parser.parse_args(["play", *argv])
    return play(args, stdin or sys.stdin, stdout or sys.stdout, plain=True)


def play(args: argparse.Namespace, stdin: IO[str], stdout: IO[str], *, plain: bool) -> int:
    """Check the arguments (one line and status 2 when one is bad, an unknown ``--lang``
    or ``TRICKTABLE_LANG`` included), then play."""
    from bot.cli_lang import translator_for

    t = translator_for(args, "play")
    if t is None:
        return 2
    try:
        cfg = check(args, t)
    except ConfigError as exc:
        print(f"tricktable play: {exc}", file=sys.stderr if stdout is sys.stdout else stdout)
        return 2
    if plain:
        return _plain(cfg, stdin, stdout)
    from bot.terminal.app import TableApp

    app = TableApp(cfg)
    status = app.run()
    if app.final_text:
        print(app.final_text)
    return int(status or 0)


def _plain(cfg: PlayConfig, stdin: IO[str], stdout: IO[str]) -> int:
    from bot.terminal.plain import PlainFront
    from bot.terminal.session import Session

    front = PlainFront(stdin, stdout)
    session = Session(cfg, front)
    front.session = session
    try:
        return asyncio.run(session.run())
    except KeyboardInterrupt:
        stdout.write("\n" + session.t.gettext(
            "Interrupted: the game is saved. Continue it with `{command}`.").format(
                command=f"tricktable play {cfg.game} --resume") + "\n")
        return 130
