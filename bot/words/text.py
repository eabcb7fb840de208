"""The unit every :mod:`bot.words` builder returns: a title and lines of sentences.

Every sentence is one template with named placeholders (``"{player} led {card}"``), so it
can be wrapped in gettext unchanged; :func:`plural` picks the singular or plural template
by count, as ``ngettext`` will.
"""

from __future__ import annotations

from dataclasses import dataclass


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


def plural(n: int, one: str, many: str, **values: object) -> str:
    """``one`` or ``many`` by ``n`` (both templates may use ``{n}`` and ``values``)."""
    return (one if n == 1 else many).format(n=n, **values)


def signed(n: int) -> str:
    """A score change with its sign: ``+4``, ``0``, ``-1``."""
    return f"{n:+d}" if n else "0"


def paginate(title: str, lines: list[str] | tuple[str, ...], limit: int = 1800) -> list[Text]:
    """Split ``lines`` into pages of at most ``limit`` characters (title included), keeping
    lines whole; with several pages the titles say ``(page 2 of 3)``. Discord's embed
    description holds 4,096 characters and a message 2,000."""
    pages: list[list[str]] = [[]]
    size = len(title) + 16
    for line in lines:
        line = line if len(line) <= limit - 40 else line[: limit - 41] + "…"
        if pages[-1] and size + len(line) + 1 > limit:
            pages.append([])
            size = len(title) + 16
        pages[-1].append(line)
        size += len(line) + 1
    if len(pages) == 1:
        return [Text(title, tuple(pages[0]))]
    return [Text("{title} (page {n} of {total})".format(title=title, n=i + 1,
                                                         total=len(pages)), tuple(p))
            for i, p in enumerate(pages)]
