"""Rule options in words: each option in force, its value, and the rule file's text.

:func:`value_text` writes an option value as a player reads it (``on``/``off``, ``none``,
lists as words; never a Python or JSON literal). :func:`options_text` lists a game's
options with the values in force, marks the ones changed from the rule file's default,
and quotes the rule file about each (:func:`bot.words.rulebook.option_rule_text`).

Option names and meanings: English from the engine (``describe()``), other languages from
the game's translated summary (:func:`bot.words.summary.option_words`). The rule files
exist in English only (they are the referee's authority), so only English quotes them; in
another language the option's translated meaning stands alone. Choice values (``counterclockwise``,
``eldest``) are shown as the ``options`` JSON spells them: they are what a player types.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.i18n import SOURCE_LANGUAGE, Translator
from bot.words.cards import suit_text
from bot.words.rulebook import option_rule_text
from bot.words.summary import option_words
from bot.words.text import Text, or_english
from games.cards import SUITS
from games.registry import GAMES


def value_text(value: Any, t: Translator | None = None) -> str:
    """``True`` → ``on``, ``False`` → ``off``, ``None`` → ``none``, a list → ``a, b``."""
    t = or_english(t)
    if value is True:
        return t.gettext("on")
    if value is False:
        return t.gettext("off")
    if value is None:
        return t.gettext("none")
    if isinstance(value, str) and len(value) == 1 and value in SUITS:
        return suit_text(value, t)
    if isinstance(value, (list, tuple)):
        return ", ".join(value_text(v, t) for v in value) if value else t.gettext("none")
    if isinstance(value, int):
        return t.number(value)
    return str(value)


def option_name(name: str, game: str | None = None, t: Translator | None = None) -> str:
    """An option's name in words: ``draw_breaks_streak`` → ``Draw breaks streak`` (in
    another language, the name its summary gives)."""
    words = option_words(game, or_english(t).language).get(name) if game else None
    return words[0] if words else name.replace("_", " ").capitalize()


def option_label(name: str, game: str | None = None, t: Translator | None = None) -> str:
    """An option's name in words, with its key for ``options`` JSON:
    ``draw_breaks_streak`` → ``Draw breaks streak (`draw_breaks_streak`)``."""
    t = or_english(t)
    # Translators: {words} is a rule option's name in words ("Draw breaks streak"); {key} its
    # name in JSON, kept as it is.
    return t.gettext("{words} (`{key}`)").format(words=option_name(name, game, t), key=name)


def option_doc(game: str, row: Mapping[str, Any], t: Translator | None = None) -> str:
    """What the option means, in the reader's language (the engine's English otherwise)."""
    words = option_words(game, or_english(t).language).get(str(row["name"]))
    return words[1] if words else str(row["doc"])


def option_line(game: str, row: Mapping[str, Any], value: Any, *, quote: bool = True,
                t: Translator | None = None) -> str:
    """One option: its name, value in force (default or changed), meaning and rule text."""
    t = or_english(t)
    name, doc = option_label(row["name"], game, t), option_doc(game, row, t)
    if value == row["default"]:
        # Translators: {name} is a rule option's name, {value} its value, {doc} a sentence on
        # what it means.
        head = t.gettext("{name}: {value} (the default). {doc}").format(
            name=name, value=value_text(value, t), doc=doc)
    else:
        # Translators: {name} is a rule option's name, {value} and {default} values, {doc} a
        # sentence on what it means.
        head = t.gettext("{name}: {value} (changed; the default is {default}). {doc}").format(
            name=name, value=value_text(value, t), default=value_text(row["default"], t),
            doc=doc)
    rule = (option_rule_text(game, row["name"])
            if quote and t.language == SOURCE_LANGUAGE else None)
    if not rule:
        return head
    # Translators: {head} is the option's line; {rule} a quote from the English rule file.
    return t.gettext("{head} Rule file: “{rule}”").format(head=head, rule=rule)


def options_text(game: str, options: Mapping[str, Any] | None = None, *,
                 quote: bool = True, t: Translator | None = None) -> Text:
    """The game's options with the values in force (``options``: those that differ from
    the defaults, as a table or record holds them), each with the rule file's text
    (English only: see the module)."""
    t = or_english(t)
    info = GAMES[game]
    given = dict(options or {})
    lines = []
    for row in info.options_type.describe():
        value = given.get(row["name"], row["default"])
        if isinstance(value, tuple):
            value = list(value)
        lines.append(option_line(game, row, value, quote=quote, t=t))
    return Text(t.gettext("{game}: rule options").format(game=info.title), tuple(lines))
