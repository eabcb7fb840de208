"""The checks of a catalog against the code's messages (used by :mod:`bot.i18n.catalogs`
and the tests).

A catalog is wrong when: a message the code uses is missing, a message the code no longer
uses is still there, a translation is empty or fuzzy, its ``str.format`` fields differ from
the source's, a source uses positional ``{}`` fields, its ``Plural-Forms`` header does not
parse or disagrees with the language's CLDR plural rule, or a slash command text breaks
Discord's limits (contexts ``command name`` and ``command description``).
"""

from __future__ import annotations

import gettext
import re
from collections.abc import Callable, Iterable, Iterator
from string import Formatter
from typing import Final

from babel import Locale
from babel.messages.catalog import Catalog, Message

from bot.i18n import COMMAND_DESCRIPTION, COMMAND_NAME

_DISCORD_NAME: Final = re.compile(r"[-_\w]{1,32}")
_DISCORD_DESCRIPTION_LIMIT: Final = 100
_CLDR_ORDER: Final = ("zero", "one", "two", "few", "many", "other")
_PLURAL_SAMPLES: Final = range(0, 1001)

MessageKey = tuple[str | None, str]
"""(context, singular id): how a catalog identifies a message."""


def key(message: Message) -> MessageKey:
    singular = message.id if isinstance(message.id, str) else message.id[0]
    return (message.context, singular)


def messages(catalog: Catalog) -> dict[MessageKey, Message]:
    """The catalog's messages (not the header) by key."""
    return {key(m): m for m in catalog if m.id}


def plural_rule_problem(language: str, header: str) -> str | None:
    """Why a ``Plural-Forms`` header is wrong for ``language``, or None: it must parse,
    name as many forms as CLDR has categories, and pick CLDR's category (in CLDR order)
    for every count from 0 to 1000."""
    try:
        parts = [part.strip() for part in header.strip().split(";") if part.strip()]
        fields = dict(part.split("=", 1) for part in parts)
        count = int(fields["nplurals"])
        choose: Callable[[int], int] = gettext.c2py(fields["plural"])
    except (KeyError, ValueError, SyntaxError) as exc:
        return f"Plural-Forms {header!r} does not parse: {exc}"
    rule = Locale.parse(language).plural_form
    categories: list[str] = [tag for tag in _CLDR_ORDER if tag in rule.tags or tag == "other"]
    if count != len(categories):
        names = ", ".join(categories)
        return f"Plural-Forms has {count} forms; CLDR has {len(categories)} ({names})"
    for n in _PLURAL_SAMPLES:
        expected = categories.index(rule(n))
        if choose(n) != expected:
            return f"Plural-Forms picks form {choose(n)} for {n}; CLDR says {rule(n)!r}"
    return None


def placeholders(text: str) -> set[tuple[str, str | None, str | None]]:
    """The ``str.format`` fields of a message: (name, conversion, format spec) each.
    Raises ValueError for a malformed template (an unpaired brace)."""
    return {
        (name, conversion, spec or None)
        for _literal, name, spec, conversion in Formatter().parse(text)
        if name is not None
    }


def source_problems(message: Message) -> Iterator[str]:
    for text in [message.id] if isinstance(message.id, str) else list(message.id):
        try:
            fields = placeholders(text)
        except ValueError as exc:
            yield f"{text!r}: {exc}"
            continue
        if any(name == "" or name.isdigit() for name, _c, _s in fields):
            yield f"{text!r}: use named fields ({{player}}), not positional ones"


COUNT_FIELD: Final = "count"
"""The conventional name of the number a plural message is chosen by: a plural form used
for one number only (Somali "one" is exactly 1) may say the number in words instead."""


def single_number_forms(catalog: Catalog) -> set[int]:
    """The plural forms the catalog's rule picks for exactly one count in 0…1000."""
    try:
        choose: Callable[[int], int] = gettext.c2py(catalog.plural_expr)
    except (ValueError, SyntaxError):
        return set()
    picks = [choose(n) for n in _PLURAL_SAMPLES]
    return {form for form in set(picks) if picks.count(form) == 1}


def _translation_problems(message: Message, single: set[int]) -> Iterator[str]:
    sources = [message.id] if isinstance(message.id, str) else list(message.id)
    string = message.string
    forms = list(string) if isinstance(string, (list, tuple)) else [string or ""]
    label = repr(sources[0]) + (f" (context {message.context!r})" if message.context else "")
    if message.fuzzy:
        yield f"{label}: fuzzy (check the translation, then remove the fuzzy flag)"
    if not all(forms):
        yield f"{label}: not translated"
        return
    try:
        per_source = [placeholders(text) for text in sources]
    except ValueError:
        return  # reported as a source problem
    required = set.intersection(*per_source)
    allowed = set.union(*per_source)
    for index, form in enumerate(forms):
        try:
            fields = placeholders(form)
        except ValueError as exc:
            yield f"{label}: translation {index}: {exc}"
            continue
        needed = {f for f in required if index not in single or f[0] != COUNT_FIELD}
        if not needed <= fields or not fields <= allowed:
            yield (
                f"{label}: translation {index} has fields {_names(fields)},"
                f" the source {_names(allowed)}"
            )


def _discord_problems(message: Message) -> Iterator[str]:
    """Discord's limits on slash command texts (contexts ``command name`` and ``command
    description``), for translations and sources alike."""
    if message.context not in (COMMAND_NAME, COMMAND_DESCRIPTION):
        return
    texts = [message.id if isinstance(message.id, str) else message.id[0]]
    string = message.string
    texts += [s for s in (list(string) if isinstance(string, (list, tuple)) else [string]) if s]
    for text in texts:
        if message.context == COMMAND_NAME and not (
            _DISCORD_NAME.fullmatch(text) and text == text.lower()
        ):
            yield f"command name {text!r}: 1-32 lowercase letters, digits, - or _"
        elif message.context == COMMAND_DESCRIPTION and len(text) > _DISCORD_DESCRIPTION_LIMIT:
            yield f"command description {text[:30]!r}…: {len(text)} characters, at most 100"


def _names(fields: Iterable[tuple[str, str | None, str | None]]) -> str:
    shown = sorted("{" + name + (f"!{c}" if c else "") + (f":{s}" if s else "") + "}"
                   for name, c, s in fields)
    return ", ".join(shown) or "none"


def catalog_problems(template: Catalog, catalog: Catalog, language: str) -> list[str]:
    """Everything wrong with one language's catalog measured against the template."""
    found: list[str] = []
    header = catalog.plural_forms
    problem = plural_rule_problem(language, header)
    if problem is not None:
        found.append(problem)
    wanted, have = messages(template), messages(catalog)
    single = single_number_forms(catalog)
    found += [f"missing: {k[1]!r}" + (f" (context {k[0]!r})" if k[0] else "")
              for k in wanted.keys() - have.keys()]
    found += [f"stale: {k[1]!r}" + (f" (context {k[0]!r})" if k[0] else "")
              for k in have.keys() - wanted.keys()]
    for k in wanted.keys() & have.keys():
        source, message = wanted[k], have[k]
        if isinstance(source.id, str) != isinstance(message.id, str) or (
            not isinstance(source.id, str) and source.id != message.id
        ):
            found.append(f"{k[1]!r}: plural forms differ from the code's")
            continue
        found += list(_translation_problems(message, single if source.pluralizable else set()))
        found += list(_discord_problems(message))
    return sorted(found)
