"""``tricktable play GAME --web [--port N] [--host HOST]``: the arguments (light: nothing of
the web server is imported until ``--web`` is given) and the ``play`` handler that serves
the page (:mod:`bot.play.web`) or opens the terminal table."""

from __future__ import annotations

import argparse
import sys

from bot.cli_lang import ENGLISH, Words
from bot.i18n import Translator

DEFAULT_PORT = 8765
DEFAULT_HOST = "127.0.0.1"


def extend_play(p: argparse.ArgumentParser, t: Words = ENGLISH) -> None:
    """Add ``--web``, ``--port`` and ``--host`` to the ``play`` parser and make its handler
    :func:`cmd_play`."""
    _ = t.gettext
    p.add_argument("--web", action="store_true",
                   help=_("serve the table as a web page on this computer and print its "
                          "address"))
    p.add_argument("--port", default=None, metavar="N",
                   help=_("the web page's port (default {port}; 0: any free port)").format(
                       port=DEFAULT_PORT))
    p.add_argument("--host", default=None, metavar="HOST",
                   help=_("the address the web page listens on (default {host})").format(
                       host=DEFAULT_HOST))
    p.set_defaults(handler=cmd_play)


def port_of(text: str | None, t: Translator) -> int:
    """The checked ``--port`` (ValueError with the line to show)."""
    if text is None:
        return DEFAULT_PORT
    value = text.strip()
    if not value.isdigit() or len(value) > 5 or int(value) > 65535:
        raise ValueError(t.gettext("{flag} must be a whole number from {low} to {high}")
                         .format(flag="--port", low=0, high=65535))
    return int(value)


def cmd_play(args: argparse.Namespace) -> int:
    """``play``: with ``--web`` the page (every other flag checked as the terminal checks
    it), else the terminal table."""
    from bot import terminal

    if not getattr(args, "web", False):
        return terminal.cmd_play(args)
    from bot.cli_lang import translator_for
    from bot.terminal.config import ConfigError, check

    t = translator_for(args, "play")
    if t is None:
        return 2
    try:
        cfg = check(args, t)
        port = port_of(args.port, t)
    except (ConfigError, ValueError) as exc:
        print(f"tricktable play: {exc}", file=sys.stderr)
        return 2
    from bot.play.web import serve

    host = (args.host or DEFAULT_HOST).strip() or DEFAULT_HOST
    return serve(cfg, host, port, sys.stdout)
