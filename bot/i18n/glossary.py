"""The glossaries' rules, read from the glossaries themselves (``docs/glossary-<lang>.md``)
and applied to every translation of the language's catalog and every rule summary
(``bot/words/summaries/<lang>/*.md``): the glossary is the one source of its rules.

What a glossary states and what is checked:

* **Checked words** (its last section but the sources): every word under **Use** appears in
  some translation; no translation and no summary contains a word under **Never** (found at
  the start of a word, in any case: ``kaar`` also finds *Kaarka*; a reason starting with
  "(whole word)" bans the word alone: ``bot`` but not *boti*).
* A word the tables mark *not used* (``*raundi* … not used``) and a word the **Register**
  paragraph excludes (``*kamu* / *-mu* (not *Anda*)``) must be listed under **Never**, so the
  list is complete and checked like the others.
* The **Manage Server** row gives the permission's name as the players' Discord shows it:
  every translation of a message naming the permission contains that name.
* The **pair** row gives the word for a duplicate pair (or its stem: ``stem *lammaan-*``): a
  message that names a pair and a partner does not use that word twice (one word for both
  reads "confirm the partner your partner entered").
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from babel.messages.catalog import Catalog

PERMISSION: Final = "Manage Server"
"""The Discord permission's English name, as the source messages write it."""
_PAIR_AND_PARTNER: Final = (re.compile(r"\bpairs?\b"), re.compile(r"\bpartners?\b"))
_NOT_USED: Final = re.compile(r"\bnot used\b")
_ITALIC: Final = re.compile(r"(?<![*\w])\*([^*|]+)\*(?!\*)")
_BOLD: Final = re.compile(r"\*\*([^*]+)\*\*")


@dataclass(frozen=True, slots=True)
class GlossaryRules:
    """What one glossary requires of its language's translations."""

    language: str
    use: tuple[str, ...]
    never: Mapping[str, str]
    """Each banned word or phrase with the glossary's reason (and the right word)."""
    not_used: tuple[str, ...]
    """Words the glossary's tables mark *not used*."""
    register_excluded: tuple[str, ...]
    """Words the **Register** paragraph excludes (*not Anda*)."""
    permission: str | None
    """The Manage Server permission as the language's players see it in Discord."""
    pair: str | None
    """The word for a duplicate pair (its stem where the glossary names one)."""


def glossary_path(root: Path, language: str) -> Path:
    """``docs/glossary-<language>.md`` of the source checkout at ``root``."""
    return root / "docs" / f"glossary-{language}.md"


def table_rows(text: str) -> list[list[str]]:
    """The cells of every table row of a glossary, header rows and rulers left out."""
    rows: list[list[str]] = []
    header = False
    for line in text.splitlines():
        if not line.startswith("|"):
            header = False
            continue
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if re.fullmatch(r"\|[-| :]+\|", line.strip()):
            continue
        if not header:  # the first row of each table names the columns
            header = True
            continue
        rows.append(cells)
    return rows


def _not_used(rows: Iterable[list[str]]) -> list[str]:
    """The italic word just before each "not used" of a table's notes."""
    found: list[str] = []
    for row in rows:
        notes = row[-1]
        start = 0
        for match in _NOT_USED.finditer(notes):
            words = _ITALIC.findall(notes, start, match.start())
            if words:
                found.append(words[-1])
            start = match.end()
    return found


def _row_word(rows: Iterable[list[str]], english: str, *, stem: bool = False) -> str | None:
    """The word of the first row whose English starts with ``english``: its bold word, or
    with ``stem`` the stem it names (``stem *lammaan-*``: the word's inflected forms share
    only that)."""
    for row in rows:
        if row[0].lower().startswith(english.lower()) and len(row) >= 2:
            named = re.search(r"stem \*([^*]+)-\*", row[1]) if stem else None
            if named:
                return named.group(1)
            bold = _BOLD.search(row[1])
            return bold.group(1).strip() if bold else row[1].strip()
    return None


def read_rules(text: str, language: str) -> GlossaryRules:
    """The rules a glossary's text states (see the module's documentation)."""
    section = text.split("## Checked words", 1)[1].split("\n## ", 1)[0]
    use_part, never_part = section.split("**Use:**", 1)[1].split("**Never:**", 1)
    never = dict(re.findall(r"^\* `([^`]+)` — (.+)$", never_part, re.MULTILINE))
    register = re.search(r"\*\*Register\.\*\*(.+?)(?:\n\n|$)", text, re.DOTALL)
    excluded = re.findall(r"\(not \*([^*]+)\*", register.group(1)) if register else []
    rows = table_rows(text)
    return GlossaryRules(
        language=language,
        use=tuple(re.findall(r"`([^`]+)`", use_part)),
        never=never,
        not_used=tuple(dict.fromkeys(_not_used(rows))),
        register_excluded=tuple(excluded),
        permission=_row_word(rows, PERMISSION),
        pair=_row_word(rows, "pair (", stem=True),
    )


WHOLE_WORD: Final = "(whole word)"
"""A **Never** reason starting with this bans the word alone (``bot``), not every word it
begins (*boti*)."""


def found(word: str, text: str, *, whole: bool = False) -> bool:
    """Whether ``text`` has ``word`` at the start of a word (``whole``: as a whole word), in
    any case."""
    pattern = r"(?<!\w)" + re.escape(word) + (r"(?![\w-])" if whole else "")
    return re.search(pattern, text, re.IGNORECASE) is not None


def _count(word: str, text: str) -> int:
    return len(re.findall(r"(?<!\w)" + re.escape(word), text, re.IGNORECASE))


def rule_problems(rules: GlossaryRules, translations: Iterable[tuple[str, str]],
                  summaries: Mapping[str, str]) -> list[str]:
    """Every way the translations (``(English, translation)`` pairs, one per plural form)
    and the rule summaries (by file name) break the glossary's rules."""
    pairs = list(translations)
    problems = [f"glossary: *{word}* is marked 'not used' but is not under Never"
                for word in rules.not_used if word not in rules.never]
    problems += [f"glossary: the register excludes *{word}*, which is not under Never"
                 for word in rules.register_excluded if word not in rules.never]
    for english, text in pairs:
        problems += [f"{word!r} ({reason}) in the translation of {english!r}"
                     for word, reason in rules.never.items()
                     if found(word, text, whole=reason.startswith(WHOLE_WORD))]
        if rules.permission and PERMISSION in english and rules.permission not in text:
            problems.append(f"the permission is {rules.permission!r} in this language's"
                            f" Discord, not as translated for {english!r}: {text!r}")
        if rules.pair and all(p.search(english) for p in _PAIR_AND_PARTNER) and _count(
                rules.pair, text) > 1:
            problems.append(f"{rules.pair!r} says both pair and partner in the translation"
                            f" of {english!r}: {text!r}")
    for name, text in summaries.items():
        problems += [f"{word!r} ({reason}) in the summary {name}"
                     for word, reason in rules.never.items()
                     if found(word, text, whole=reason.startswith(WHOLE_WORD))]
    problems += [f"{word!r} (a word the glossary uses) appears in no translation"
                 for word in rules.use if not any(found(word, text) for _e, text in pairs)]
    return problems


def summaries_of(root: Path, language: str) -> dict[str, str]:
    """The rule summaries of a language, by file name."""
    folder = root / "bot" / "words" / "summaries" / language
    return {p.name: p.read_text(encoding="utf-8") for p in sorted(folder.glob("*.md"))}


def catalog_translations(catalog: Catalog) -> list[tuple[str, str]]:
    """``(English, translation)`` for every message of a catalog, one per plural form
    (English: the singular source), empty translations left out."""
    pairs: list[tuple[str, str]] = []
    for message in catalog:
        if not message.id:
            continue
        english = message.id if isinstance(message.id, str) else message.id[0]
        string = message.string
        forms = list(string) if isinstance(string, (list, tuple)) else [string]
        pairs += [(english, str(form)) for form in forms if form]
    return pairs


def glossary_problems(root: Path, language: str, catalog: Catalog) -> list[str]:
    """The glossary's rules applied to the catalog and the summaries of a checkout
    (nothing when the language has no glossary)."""
    path = glossary_path(root, language)
    if not path.is_file():
        return []
    rules = read_rules(path.read_text(encoding="utf-8"), language)
    return rule_problems(rules, catalog_translations(catalog), summaries_of(root, language))
