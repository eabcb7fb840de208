"""The web page has no words of its own: everything it shows comes from the server, in the
viewer's language, apart from a few symbols (the suits, ``×`` before a count, ``⟳`` while
it reconnects, ``⏱`` before the seconds left, ``?`` when it cannot start, ``▶`` before the
seat to act, ``·`` and ``:`` between the server's words). Those symbols are checked here in
the page's sources, and in every language the words the page puts beside them: labels
without their own colon, numbers the page writes itself (``⏱ 12``, ``×2``) as the language
writes them, no English label left.
"""

from __future__ import annotations

import re
from pathlib import Path
from types import SimpleNamespace

import pytest

from bot.i18n import SOURCE_LANGUAGE, SUPPORTED, translator
from bot.i18n.leftovers import english_leftovers
from bot.web.frames import Words

WEB = Path(__file__).resolve().parents[2] / "web"
SYMBOLS = set("♠♥♦♣×⟳⏱?·:,▶")
"""The characters the page writes on its own."""
_SHOWN = re.compile(r"textContent\s*=|document\.title\s*=|\brefused\s*=|"
                    r"setAttribute\(\s*\"aria-label\"\s*,|\bsay\(|\bmake\(\s*\"[a-z0-9]+\"\s*,")
"""Where the page writes text; the expression written follows."""
_LITERAL = re.compile(r"\"((?:[^\"\\]|\\.)*)\"|'((?:[^'\\]|\\.)*)'|`((?:[^`\\]|\\.)*)`")


def _expression(source: str, start: int) -> str:
    """The expression from ``start`` to the first ``;``, ``,`` or unmatched ``)`` outside
    brackets and string literals."""
    depth, index = 0, start
    while index < len(source):
        char = source[index]
        if char in "\"'`":
            literal = _LITERAL.match(source, index)
            index = literal.end() if literal else index + 1
            continue
        if char in "([{":
            depth += 1
        elif char in ")]}":
            if depth == 0:
                break
            depth -= 1
        elif char in ";," and depth == 0:
            break
        index += 1
    return source[start:index]


def _static_parts(expression: str) -> list[str]:
    """The literal text of the string and template literals in an expression (without the
    ``${…}`` parts of a template)."""
    parts = []
    for double, single, template in _LITERAL.findall(expression):
        text = double or single or re.sub(r"\$\{[^}]*\}", "", template)
        parts.append(text)
    return parts


def _written_by_the_page() -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for path in sorted((WEB / "src").glob("*.ts")):
        source = re.sub(r"/\*.*?\*/|//[^\n]*", "", path.read_text(encoding="utf-8"),
                        flags=re.DOTALL)
        for match in _SHOWN.finditer(source):
            expression = _expression(source, match.end())
            found.setdefault(path.name, []).extend(_static_parts(expression))
    return found


def test_the_page_writes_only_symbols_of_its_own() -> None:
    written = _written_by_the_page()
    assert written, "the scan finds the page's text assignments"
    shown = {c for parts in written.values() for part in parts for c in part if not c.isspace()}
    assert shown <= SYMBOLS, sorted(shown - SYMBOLS)
    assert {"⟳", "⏱", "×", "?"} <= shown, "the scan sees the symbols the review listed"
    html = (WEB / "index.html").read_text(encoding="utf-8")
    body = re.sub(r"<script.*?</script>", "", html.split("<body>", 1)[1], flags=re.DOTALL)
    texts = [t.strip() for t in re.findall(r">([^<]*)<", body) if t.strip()]
    assert texts == ["tricktable"], texts  # the title until the server's hello replaces it


def test_the_scan_would_see_a_word_written_by_the_page() -> None:
    """A word brought back into the page (``textContent = "Reconnecting"``) is caught."""
    line = '$("link").textContent = `Reconnecting ${n}`;'
    match = _SHOWN.search(line)
    assert match is not None
    assert _static_parts(_expression(line, match.end())) == ["Reconnecting "]


@pytest.mark.parametrize("language", [c for c in SUPPORTED if c != SOURCE_LANGUAGE])
def test_the_words_beside_the_symbols_suit_every_language(language: str) -> None:
    t = translator(language)
    info = SimpleNamespace(id=1, game="truf", seats=(None,) * 4, options={})
    words = Words.of(info, 0, t)  # type: ignore[arg-type]
    hello = words.hello(info)  # type: ignore[arg-type]
    assert hello["language"] == language
    labels = hello["labels"]
    for name, label in labels.items():
        assert label == label.strip() and label, (name, label)
        assert english_leftovers(label, language) == [], (name, label)
    # the page writes "{trump}: ♥ hati": the label brings no colon of its own
    assert not labels["trump"].endswith((":", "："))
    # the page writes the seconds left and a card's count itself, in plain digits
    assert all(t.number(n) == str(n) for n in range(0, 1000))
