"""``--lang`` for the ``tricktable`` commands that print sentences for people.

``rules``, ``replay --show``, ``simulate`` (its table; ``--json`` stays English keys) and
``play`` speak the language chosen by :func:`bot.i18n.cli_language`: ``--lang``, else
``TRICKTABLE_LANG``, else the system locale, else English. A ``--lang`` or
``TRICKTABLE_LANG`` naming a language tricktable does not speak is refused with one line
on standard error and exit status 2, before anything else happens.

``--help`` speaks the same language: :func:`help_language` reads ``--lang`` from the
command line before the parser exists (an unknown one falls back to English here; the
command refuses it), the parsers are built with translated texts (``build_parser(t)``),
and :func:`argparse_speaking` lends ``t`` to argparse's own words (``usage:``,
``options:``, ``positional arguments:``, its error lines) while the command line is read.
In English no catalog is read (a catalog is read only for another language, or when a
command that speaks runs), so ``tricktable replay`` still starts fast.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from bot.i18n import Translator


class Words(Protocol):
    """What the parsers need of a translator (``Translator`` or :data:`ENGLISH`)."""

    def gettext(self, message: str) -> str: ...


class _English:
    """The source language without loading a catalog: every message is its own text."""

    def gettext(self, message: str) -> str:
        return message


ENGLISH: Words = _English()


def N_(message: str) -> str:
    """Mark ``message`` for extraction (:func:`bot.i18n.N_`, without importing Babel)."""
    return message


# argparse's own words, for the catalogs (argparse asks gettext for them by these ids).
ARGPARSE_TEXTS = (
    # Translators: argparse's words in `tricktable --help` and its error lines. Keep every
    # "%(…)s", "%s" and "%r" as they are, the space after "usage:" and the line end after
    # "%(message)s".
    N_("usage: "),
    N_("positional arguments"),
    N_("options"),
    N_("show this help message and exit"),
    N_("%(prog)s: error: %(message)s\n"),
    N_("the following arguments are required: %s"),
    N_("unrecognized arguments: %s"),
    N_("invalid choice: %(value)r (choose from %(choices)s)"),
    N_("argument %(argument_name)s: %(message)s"),
    N_("expected one argument"),
    N_("invalid %(type)s value: %(value)r"),
    N_("ambiguous option: %(option)s could match %(matches)s"),
)


def help_language(argv: Sequence[str]) -> Words:
    """The translator for the parsers of ``argv``: its ``--lang CODE`` (or ``--lang=CODE``),
    else ``TRICKTABLE_LANG``, else the system locale, else English. English (and an
    unknown language, which the command refuses later) loads nothing."""
    code: str | None = None
    for i, arg in enumerate(argv):
        if arg == "--":
            break
        if arg == "--lang" and i + 1 < len(argv):
            code = argv[i + 1]
        elif arg.startswith("--lang="):
            code = arg.partition("=")[2]
    from bot.i18n.languages import SOURCE_LANGUAGE, UnknownLanguage, cli_language

    try:
        language = cli_language(code)
    except UnknownLanguage:
        return ENGLISH
    if language == SOURCE_LANGUAGE:
        return ENGLISH
    from bot.i18n import translator

    return translator(language)


@contextlib.contextmanager
def argparse_speaking(t: Words) -> Iterator[None]:
    """While inside, argparse's own words (:data:`ARGPARSE_TEXTS`) are ``t``'s."""
    if t is ENGLISH:
        yield
        return
    module = vars(argparse)
    saved: Callable[[str], str] = module["_"]
    module["_"] = t.gettext
    try:
        yield
    finally:
        module["_"] = saved


def add_lang_argument(parser: argparse.ArgumentParser, t: Words = ENGLISH) -> None:
    """Register ``--lang CODE`` on a subcommand's parser."""
    parser.add_argument(
        "--lang", default=None, metavar="CODE",
        help=t.gettext("language of the output: en, so, id or sw (default: TRICKTABLE_LANG, "
                       "else the system locale, else English)"))


def translator_for(args: argparse.Namespace, command: str) -> Translator | None:
    """The translator the user chose, or ``None`` after printing why the choice is refused
    (``tricktable COMMAND: unknown language 'xx': choose one of en, so, id, sw``)."""
    from bot.i18n import UnknownLanguage, cli_language, translator

    try:
        return translator(cli_language(getattr(args, "lang", None)))
    except UnknownLanguage as exc:
        print(f"tricktable {command}: {exc}", file=sys.stderr)
        return None
