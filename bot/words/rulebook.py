"""The rule files as package data, and the rule text of each option.

The rule files live once, in ``docs/rules/``; ``bot/words/rules`` is a link to that folder,
so an installed wheel (setuptools copies the files the link points to) and the Docker image
carry them, and nothing can drift. :func:`rule_file` reads one through
:mod:`importlib.resources`, as installed.

:func:`option_rule_text` quotes a rule file's own words about an option: the paragraph or
bullet that names it in the body (the section under a heading that names it), else its row
of the file's "Choices made" table (point, default and alternatives). Turup inherits its
signal options from Arba'a Turub (turup.md section 6), so they are looked up there too.
"""

from __future__ import annotations

import re
from functools import cache
from importlib import resources

from games.registry import GAMES

INHERITED = {"turup": "arbaa_turub"}
"""Where a rule file defers to another (Turup's signals: arbaa-turub.md section 9)."""

QUOTE_LIMIT = 600
"""The longest quote, in characters (a paragraph is cut at a sentence end before it)."""


@cache
def rule_file(game: str) -> str:
    """The full rule file of ``game`` (Markdown), from the package data."""
    name = GAMES[game].rules_file
    return resources.files("bot.words").joinpath("rules", name).read_text(encoding="utf-8")


def _blocks(text: str) -> list[str]:
    """The file as blocks: each bullet (with its continuation lines), each paragraph,
    each table row, each heading; code fences are skipped."""
    blocks: list[str] = []
    current: list[str] = []
    fence = False

    def flush() -> None:
        if current:
            blocks.append(" ".join(x.strip() for x in current))
            current.clear()

    for line in text.splitlines():
        if line.startswith("```"):
            flush()
            fence = not fence
            continue
        if fence:
            continue
        stripped = line.strip()
        if not stripped:
            flush()
        elif stripped.startswith(("#", "|")):
            flush()
            blocks.append(stripped)
        elif re.match(r"^(\* |\d+\. )", stripped):
            flush()
            current.append(stripped)
        else:
            current.append(stripped)
    flush()
    return blocks


def _names(block: str, option: str) -> bool:
    return re.search(r"`" + re.escape(option) + r"(`|:)", block) is not None


def _shorten(text: str) -> str:
    if len(text) <= QUOTE_LIMIT:
        return text
    cut = text.rfind(". ", 0, QUOTE_LIMIT)
    return text[: cut + 1] if cut > 0 else text[:QUOTE_LIMIT].rstrip() + "…"


def _section_after(blocks: list[str], index: int) -> str:
    out: list[str] = []
    for block in blocks[index + 1:]:
        if block.startswith("#"):
            break
        out.append(re.sub(r"^(\* |\d+\. )", "", block))
    return " ".join(out)


def _table_row(block: str) -> str:
    cells = [c.strip() for c in block.strip("|").split("|")]
    if len(cells) < 3:
        return " ".join(cells)
    return "{point}: {default} (default); otherwise {alternatives}.".format(
        point=cells[0], default=cells[1], alternatives=cells[2])


def _sentences(block: str, option: str) -> str:
    """The sentences of a body block that name ``option`` (the whole block if the option
    is named across a sentence break)."""
    text = re.sub(r"^(\* |\d+\. )", "", block)
    parts = re.split(r"(?<!e\.g\.)(?<!i\.e\.)(?<=[.;])\s+(?=[A-Z`*(])", text)
    picked = [p for p in parts if _names(p, option)]
    return " ".join(picked) if picked else text


def option_rule_text(game: str, option: str) -> str | None:
    """The rule file's words about ``option`` (see the module), or ``None`` if it has none.

    Preference: the section under a heading naming the option; else the body sentences
    naming it (a block that says "option `name`" first; a block ending in a colon brings
    the list after it); else its "Choices made" table row."""
    for source in (game, INHERITED.get(game)):
        if source is None:
            continue
        blocks = _blocks(rule_file(source))
        body = [i for i, b in enumerate(blocks) if _names(b, option) and not b.startswith("|")]
        for i in body:
            if blocks[i].startswith("#"):
                return _shorten("{heading}: {section}".format(
                    heading=blocks[i].lstrip("#").strip(), section=_section_after(blocks, i)))
        body.sort(key=lambda i: "option `" + option not in blocks[i].lower())
        if body:
            i = body[0]
            if blocks[i].endswith(":"):
                head = re.sub(r"^(\* |\d+\. )", "", blocks[i])
                return _shorten(" ".join([head, *_list_after(blocks, i)]))
            return _shorten(_sentences(blocks[i], option))
        rows = [b for b in blocks if b.startswith("|") and _names(b, option)]
        if rows:
            return _shorten(_table_row(rows[0]))
    return None


def _list_after(blocks: list[str], index: int) -> list[str]:
    out: list[str] = []
    for block in blocks[index + 1:]:
        if not block.startswith("* "):
            break
        out.append(block)
    return out
