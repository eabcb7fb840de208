"""``--lang`` for the ``tricktable`` commands that print sentences for people.

``rules``, ``replay --show``, ``simulate`` (its table; ``--json`` stays English keys) and
``play`` speak the language chosen by :func:`bot.i18n.cli_language`: ``--lang``, else
``TRICKTABLE_LANG``, else the system locale, else English. A ``--lang`` or
``TRICKTABLE_LANG`` naming a language tricktable does not speak is refused with one line
on standard error and exit status 2, before anything else happens. The catalogs (and
Babel) are loaded only when a command runs, so ``tricktable replay`` still starts fast.
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bot.i18n import Translator


def add_lang_argument(parser: argparse.ArgumentParser) -> None:
    """Register ``--lang CODE`` on a subcommand's parser."""
    parser.add_argument(
        "--lang", default=None, metavar="CODE",
        help="language of the output: en, so, id or sw (default: TRICKTABLE_LANG, else "
             "the system locale, else English)")


def translator_for(args: argparse.Namespace, command: str) -> Translator | None:
    """The translator the user chose, or ``None`` after printing why the choice is refused
    (``tricktable COMMAND: unknown language 'xx': choose one of en, so, id, sw``)."""
    from bot.i18n import UnknownLanguage, cli_language, translator

    try:
        return translator(cli_language(getattr(args, "lang", None)))
    except UnknownLanguage as exc:
        print(f"tricktable {command}: {exc}", file=sys.stderr)
        return None
