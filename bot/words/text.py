"""The unit every :mod:`bot.words` builder returns: a title and lines of sentences.

Every sentence is one gettext template with named placeholders (``"{player} led {card}"``),
translated first and formatted after (``docs/translating.md``). :func:`english` is the
translator a function uses when its caller gives none (``t=None``): English, the source.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.i18n import SOURCE_LANGUAGE, Translator, translator


def english() -> Translator:
    """The source language's translator (English: messages are their own translation)."""
    return translator(SOURCE_LANGUAGE)


def or_english(t: Translator | None) -> Translator:
    """``t``, or English when the caller passed none."""
    return t if t is not None else english()


@dataclass(frozen=True)
class Text:
    """A titled block of lines (a deal result, a review page, a rules page)."""

    title: str
    lines: tuple[str, ...]

    @property
    def body(self) -> str:
        """The lines joined by newlines."""
        return "\n".join(self.lines)

    def render(self) -> str:
        """Title and body as plain text (the terminal, ``replay --show``)."""
        return "\n".join((self.title, *self.lines)) if self.lines else self.title


def signed(n: int, t: Translator | None = None) -> str:
    """A score change with its sign: ``+4``, ``0``, ``-1`` (digits by the language)."""
    if not n:
        return or_english(t).number(0)
    return ("+" if n > 0 else "-") + or_english(t).number(abs(n))


def paginate(title: str, lines: list[str] | tuple[str, ...], limit: int = 1800, *,
             t: Translator | None = None) -> list[Text]:
    """Split ``lines`` into pages of at most ``limit`` characters (title included), keeping
    lines whole; with several pages the titles say ``(page 2 of 3)``. Discord's embed
    description holds 4,096 characters and a message 2,000."""
    t = or_english(t)
    pages: list[list[str]] = [[]]
    size = len(title) + 24
    for line in lines:
        line = line if len(line) <= limit - 40 else line[: limit - 41] + "…"
        if pages[-1] and size + len(line) + 1 > limit:
            pages.append([])
            size = len(title) + 24
        pages[-1].append(line)
        size += len(line) + 1
    if len(pages) == 1:
        return [Text(title, tuple(pages[0]))]
    # Translators: {n} is the page's number, {total} the number of pages.
    return [Text(t.gettext("{title} (page {n} of {total})").format(
        title=title, n=t.number(i + 1), total=t.number(len(pages))), tuple(p))
            for i, p in enumerate(pages)]
