"""Rule options in words: each option in force, its value, and the rule file's text.

:func:`value_text` writes an option value as a player reads it (``on``/``off``, ``none``,
lists as words; never a Python or JSON literal). :func:`options_text` lists a game's
options with the values in force, marks the ones changed from the rule file's default,
and quotes the rule file about each (:func:`bot.words.rulebook.option_rule_text`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.words.cards import suit_text
from bot.words.rulebook import option_rule_text
from bot.words.text import Text
from games.cards import SUITS
from games.registry import GAMES


def value_text(value: Any) -> str:
    """``True`` → ``on``, ``False`` → ``off``, ``None`` → ``none``, a list → ``a, b``."""
    if value is True:
        return "on"
    if value is False:
        return "off"
    if value is None:
        return "none"
    if isinstance(value, str) and len(value) == 1 and value in SUITS:
        return suit_text(value)
    if isinstance(value, (list, tuple)):
        return ", ".join(value_text(v) for v in value) if value else "none"
    return str(value)


def option_label(name: str) -> str:
    """An option's name in words, with its key for ``options`` JSON:
    ``draw_breaks_streak`` → ``Draw breaks streak (`draw_breaks_streak`)``."""
    return "{words} (`{key}`)".format(words=name.replace("_", " ").capitalize(), key=name)


def option_line(game: str, row: Mapping[str, Any], value: Any, *, quote: bool = True
                ) -> str:
    """One option: its name, value in force (default or changed), meaning and rule text."""
    if value == row["default"]:
        head = "{name}: {value} (the default). {doc}".format(
            name=option_label(row["name"]), value=value_text(value), doc=row["doc"])
    else:
        head = "{name}: {value} (changed; the default is {default}). {doc}".format(
            name=option_label(row["name"]), value=value_text(value),
            default=value_text(row["default"]), doc=row["doc"])
    rule = option_rule_text(game, row["name"]) if quote else None
    if rule:
        return "{head} Rule file: “{rule}”".format(head=head, rule=rule)
    return head


def options_text(game: str, options: Mapping[str, Any] | None = None, *,
                 quote: bool = True) -> Text:
    """The game's options with the values in force (``options``: those that differ from
    the defaults, as a table or record holds them), each with the rule file's text."""
    info = GAMES[game]
    given = dict(options or {})
    lines = []
    for row in info.options_type.describe():
        value = given.get(row["name"], row["default"])
        if isinstance(value, tuple):
            value = list(value)
        lines.append(option_line(game, row, value, quote=quote))
    return Text("{game}: rule options".format(game=info.title), tuple(lines))
