"""Maintain the message catalogs: extract, update, check (``python -m bot.i18n.catalogs``).

Run from a source checkout (the directory with ``babel.cfg``)::

    python -m bot.i18n.catalogs            # extract → update every catalog → check
    python -m bot.i18n.catalogs check      # only check; changes no file (what CI runs)
    python -m bot.i18n.catalogs init xx    # start the catalog of a new language

Extraction uses Babel with the map in ``babel.cfg`` and Babel's default gettext keywords
(``_``, ``gettext``, ``ngettext``, ``pgettext``, ``npgettext``, ``N_``…, also as methods such
as ``t.gettext``), and keeps comments starting with ``Translators:``. The template is
``bot/i18n/locales/tricktable.pot``; each language's catalog is
``bot/i18n/locales/<lang>/LC_MESSAGES/tricktable.po``. References carry file names but no
line numbers, and a file is rewritten only when more than its dates changed, so catalogs
change only when messages do. Messages that left the code are dropped (git keeps them);
messages that changed a little come back *fuzzy* with the old translation for a translator
to confirm (fuzzy entries are not used at run time).

``PO-Revision-Date`` is the tool's: whenever a catalog's translations differ from the
committed version (``git show HEAD:…``; outside git, from the file before the update) and
the date was not set since, the update stamps the current time (UTC, to the minute) — so a
hand edit, a merge or an update dates the catalog once, and running the tool again changes
nothing. ``Language-Team`` names the language and its glossary (:func:`language_team`).

The check (:func:`problems`) applies :mod:`bot.i18n.checks` to every catalog, holds every
translation and rule summary to its language's glossary (:mod:`bot.i18n.glossary`, when the
checkout has ``docs/glossary-<lang>.md``), and also fails when the template file is out of
date or a supported language has no catalog.
"""

from __future__ import annotations

import argparse
import datetime as dt
import io
import subprocess
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from babel import Locale
from babel.messages.catalog import Catalog
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.plurals import get_plural
from babel.messages.pofile import read_po, write_po
from babel.plural import to_gettext

from bot.i18n.checks import catalog_problems, messages, plural_rule_problem, source_problems
from bot.i18n.glossary import glossary_problems
from bot.i18n.languages import SOURCE_LANGUAGE, SUPPORTED
from bot.i18n.translator import DOMAIN

COMMENT_TAGS: Final = ("Translators:",)
KEYWORDS: Final = {**DEFAULT_KEYWORDS, "pgettext_noop": ((1, "c"), 2),
                   "ngettext_noop": (1, 2), "IllegalAction": None, "OptionError": None}
"""Babel's gettext keywords, ``pgettext_noop`` and ``ngettext_noop`` (``bot.i18n``), and
``IllegalAction`` and ``OptionError``: the engine's templates for players and hosts
(``games/*.py``: ``IllegalAction("you do not hold {card}", card="KH")``, or marked with
``games.errors.N_``)."""
_DATE_HEADERS: Final = (b'"POT-Creation-Date:', b'"PO-Revision-Date:')

_parse_mapping: Callable[..., Any] = parse_mapping_cfg  # Babel leaves it unannotated


@dataclass(frozen=True, slots=True)
class Paths:
    """The files of a source checkout."""

    root: Path

    @property
    def mapping(self) -> Path:
        return self.root / "babel.cfg"

    @property
    def locales(self) -> Path:
        return self.root / "bot" / "i18n" / "locales"

    @property
    def template(self) -> Path:
        return self.locales / f"{DOMAIN}.pot"

    def catalog(self, language: str) -> Path:
        return self.locales / language / "LC_MESSAGES" / f"{DOMAIN}.po"

    def languages(self) -> list[str]:
        """Every language with a catalog file, in :data:`SUPPORTED` order, then others."""
        found = {p.parent.parent.name for p in self.locales.glob(f"*/LC_MESSAGES/{DOMAIN}.po")}
        return [c for c in SUPPORTED if c in found] + sorted(found - set(SUPPORTED))


def source_checkout(start: Path | None = None) -> Paths:
    """The checkout this module lives in (the nearest parent with ``babel.cfg``); raises
    FileNotFoundError from an installed package, which carries no sources to extract."""
    here = (start or Path(__file__)).resolve()
    for directory in here.parents:
        if (directory / "babel.cfg").is_file():
            return Paths(directory)
    raise FileNotFoundError("no babel.cfg above this module: run from a source checkout")


# -- extraction ------------------------------------------------------------------------


def extract(paths: Paths) -> Catalog:
    """The template: every message the code marks, with its files and translator notes."""
    with paths.mapping.open(encoding="utf-8") as mapping:
        method_map, options_map = _parse_mapping(mapping, filename=str(paths.mapping))
    template = Catalog(
        domain=DOMAIN,
        project="tricktable",
        version="1",
        header_comment="# Messages of tricktable: extracted by `python -m bot.i18n.catalogs`.",
        msgid_bugs_address="the tricktable issue tracker",
        fuzzy=False,
        charset="utf-8",
    )
    found = extract_from_dir(
        paths.root,
        method_map,
        options_map,
        keywords=KEYWORDS,
        comment_tags=COMMENT_TAGS,
        strip_comment_tags=True,
    )
    for filename, lineno, message, comments, context in found:
        template.add(
            message,
            None,
            [(Path(filename).as_posix(), lineno)],
            auto_comments=comments,
            context=context,
        )
    return template


# -- catalogs ------------------------------------------------------------------------


def plural_forms(language: str) -> str:
    """The ``Plural-Forms`` header for a new catalog: Babel's usual gettext expression
    when it agrees with the CLDR rule (``nplurals=2; plural=(n != 1);``), else the CLDR
    rule itself converted by Babel (Indonesian: one form)."""
    usual = get_plural(language)
    header = f"nplurals={usual.num_plurals}; plural={usual.plural_expr};"
    if plural_rule_problem(language, header) is None:
        return header
    return to_gettext(Locale.parse(language).plural_form)


def read_catalog(path: Path, language: str) -> Catalog:
    with path.open("rb") as handle:
        return read_po(handle, locale=language, domain=DOMAIN)


def new_catalog(template: Catalog, language: str) -> Catalog:
    """An empty catalog of ``language`` with every message of the template."""
    name = Locale.parse(language).english_name or language
    catalog = Catalog(
        locale=language,
        domain=DOMAIN,
        project="tricktable",
        version="1",
        header_comment=f"# {name} messages of tricktable: see docs/translating.md and the"
        f" glossary docs/glossary-{language}.md.",
        last_translator=LAST_TRANSLATOR,
        language_team=language_team(language),
        revision_date=now_to_the_minute(),
        msgid_bugs_address="the tricktable issue tracker",
        fuzzy=False,
    )
    catalog.mime_headers = [*catalog.mime_headers, ("Plural-Forms", plural_forms(language))]
    catalog.update(template, update_creation_date=False)
    return catalog


def language_team(language: str) -> str:
    """The ``Language-Team`` header: the language and where its translators' words are."""
    name = Locale.parse(language).english_name or language
    return f"{name} (tricktable translators: docs/glossary-{language}.md)"


LAST_TRANSLATOR: Final = "tricktable translators (docs/translating.md)"
"""The ``Last-Translator`` header: no one person; the native reviews are listed in
docs/languages.md."""


_GENERIC_HEADERS: Final = ("tricktable translators", "FULL NAME <EMAIL@ADDRESS>",
                            "LANGUAGE <LL@li.org>", "")


def own_headers(catalog: Catalog, language: str) -> None:
    """Give a catalog the tool's ``Language-Team`` and ``Last-Translator`` where it has a
    placeholder or the bare language name (a real team or translator is kept)."""
    name = Locale.parse(language).english_name or language
    if catalog.language_team in (*_GENERIC_HEADERS, name):
        catalog.language_team = language_team(language)
    if catalog.last_translator in _GENERIC_HEADERS:
        catalog.last_translator = LAST_TRANSLATOR


def header_problems(catalog: Catalog) -> list[str]:
    """What is left of gettext's placeholder headers (``python -m bot.i18n.catalogs``
    fills them)."""
    found = []
    if not isinstance(catalog.revision_date, dt.datetime):
        found.append("PO-Revision-Date is not set: run python -m bot.i18n.catalogs")
    if catalog.language_team in _GENERIC_HEADERS:
        found.append("Language-Team is a placeholder: run python -m bot.i18n.catalogs")
    return found


def _translations(catalog: Catalog) -> dict[tuple[str | None, str], object]:
    return {(m.context, m.id if isinstance(m.id, str) else m.id[0]): m.string
            for m in catalog if m.id}


def committed_catalog(paths: Paths, language: str) -> Catalog | None:
    """The language's catalog as the checkout's last commit has it (None without git or
    when the file is not committed)."""
    relative = paths.catalog(language).relative_to(paths.root).as_posix()
    try:
        done = subprocess.run(["git", "-C", str(paths.root), "show", f"HEAD:{relative}"],
                              capture_output=True, check=False)
    except OSError:
        return None
    if done.returncode != 0:
        return None
    return read_po(io.BytesIO(done.stdout), locale=language, domain=DOMAIN)


def revised(catalog: Catalog, base: Catalog) -> bool:
    """Whether ``catalog`` needs a new ``PO-Revision-Date``: its date is still the
    placeholder, or its translations differ from ``base`` (the committed version) while its
    date is still ``base``'s (not stamped since)."""
    if not isinstance(catalog.revision_date, dt.datetime):
        return True
    return (_translations(catalog) != _translations(base)
            and catalog.revision_date == base.revision_date)


def now_to_the_minute() -> dt.datetime:
    return dt.datetime.now(dt.UTC).replace(second=0, microsecond=0)


def render(catalog: Catalog) -> bytes:
    buffer = io.BytesIO()
    write_po(buffer, catalog, width=96, include_lineno=False, ignore_obsolete=True)
    return buffer.getvalue()


def _without_dates(text: bytes) -> list[bytes]:
    return [line for line in text.splitlines() if not line.startswith(_DATE_HEADERS)]


def write_if_changed(path: Path, catalog: Catalog, *, dated: bool = False) -> bool:
    """Write the catalog unless the file already says the same apart from its dates
    (``dated``: the dates changed on purpose, compare them too)."""
    text = render(catalog)
    if path.is_file() and (path.read_bytes() == text if dated else
                           _without_dates(path.read_bytes()) == _without_dates(text)):
        return False
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text)
    return True


def update(paths: Paths, template: Catalog, only: str | None = None) -> list[Path]:
    """Write the template and bring every catalog up to it; return the files changed.
    ``only``: bring just that language's catalog up to the code (the template file is left
    as it is: for a translator working beside others)."""
    changed = []
    if only is None and write_if_changed(paths.template, template):
        changed.append(paths.template)
    for language in paths.languages() if only is None else [only]:
        path = paths.catalog(language)
        before = read_catalog(path, language)
        catalog = read_catalog(path, language)
        catalog.update(template, update_creation_date=False)
        own_headers(catalog, language)
        stamp = revised(catalog, committed_catalog(paths, language) or before)
        if stamp:
            catalog.revision_date = now_to_the_minute()
        if write_if_changed(path, catalog, dated=stamp):
            changed.append(path)
    return changed


def problems(paths: Paths, template: Catalog | None = None) -> dict[str, list[str]]:
    """Every problem of the checkout's catalogs, by file label (empty lists: all good)."""
    template = extract(paths) if template is None else template
    report: dict[str, list[str]] = {}
    on_disk = read_catalog(paths.template, SOURCE_LANGUAGE) if paths.template.is_file() else None
    stale_template = on_disk is None or messages(on_disk).keys() != messages(template).keys()
    report["template"] = [p for m in messages(template).values() for p in source_problems(m)]
    if stale_template:
        report["template"].append(
            f"{paths.template.name} is out of date: run python -m bot.i18n.catalogs"
        )
    for language in SUPPORTED:
        if language == SOURCE_LANGUAGE:
            continue
        path = paths.catalog(language)
        if not path.is_file():
            report[language] = [f"no catalog: run python -m bot.i18n.catalogs init {language}"]
            continue
        catalog = read_catalog(path, language)
        report[language] = [*catalog_problems(template, catalog, language),
                            *header_problems(catalog),
                            *glossary_problems(paths.root, language, catalog)]
    return report


# -- the command ---------------------------------------------------------------------


def _print_report(report: dict[str, list[str]]) -> bool:
    ok = True
    for label, found in report.items():
        if found:
            ok = False
            print(f"{label}: {len(found)} problem(s)")
            for problem in found:
                print(f"  {problem}")
        else:
            print(f"{label}: ok")
    return ok


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bot.i18n.catalogs",
        description="Extract the messages, update the catalogs, check them.",
    )
    parser.add_argument(
        "command",
        nargs="?",
        default="all",
        choices=("all", "extract", "update", "check", "init"),
        help="all (default): extract, update, check; extract: only write the template;"
        " update: extract and update the catalogs; check: change nothing;"
        " init LANG: create a new language's catalog",
    )
    parser.add_argument("language", nargs="?", help="the language code for init")
    parser.add_argument(
        "--only", metavar="LANG",
        help="update: bring only this language's catalog up to the code (not the template)",
    )
    parser.add_argument(
        "--root", type=Path, help="the source checkout (default: the one of this module)"
    )
    args = parser.parse_args(argv)
    if args.root is not None:
        if not (args.root / "babel.cfg").is_file():
            parser.error(f"{args.root} has no babel.cfg")
        paths = Paths(args.root)
    else:
        try:
            paths = source_checkout()
        except FileNotFoundError as exc:
            print(exc, file=sys.stderr)
            return 2
    template = extract(paths)
    if args.command == "init":
        if not args.language:
            parser.error("init needs a language code, e.g. init fr")
        try:
            Locale.parse(args.language)
        except (ValueError, LookupError):
            parser.error(f"Babel has no locale data for {args.language!r}")
        path = paths.catalog(args.language)
        if path.exists():
            parser.error(f"{path.relative_to(paths.root)} exists already")
        write_if_changed(paths.template, template)
        write_if_changed(path, new_catalog(template, args.language))
        print(f"created {path.relative_to(paths.root)}: translate it, add the language to"
              " bot/i18n/languages.py, then run this command again")
        return 0
    if args.command == "extract":
        changed = [paths.template] if write_if_changed(paths.template, template) else []
    elif args.command in ("all", "update"):
        if args.only is not None and args.only not in paths.languages():
            parser.error(f"there is no catalog for {args.only!r}")
        changed = update(paths, template, args.only)
    else:
        changed = []
    for path in changed:
        print(f"updated {path.relative_to(paths.root)}")
    if args.command in ("all", "check"):
        return 0 if _print_report(problems(paths, template)) else 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
