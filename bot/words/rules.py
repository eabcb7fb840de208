"""Rule summaries for players: ``/rules`` in Discord and ``?`` in the terminal.

Each game has a short summary written for players in every language
(:mod:`bot.words.summary`: ``summaries/<language>/<game>.md``, package data: how a deal
goes, what is legal, how it scores), one page per ``##`` section, followed by the game's
options with their defaults and meaning. Pages fit a Discord embed (4,096 characters); the
full rule files (English) stay available through :func:`bot.words.rulebook.rule_file`.
"""

from __future__ import annotations

import json
import re

from bot.i18n import Translator, translator
from bot.words.options import option_doc, option_label, option_name, value_text
from bot.words.summary import page_sections, summary_file, tagline
from bot.words.text import Text, or_english, paginate
from games.registry import GAMES

EMBED_LIMIT = 4096
"""The most characters of a Discord embed description."""

PAGE_LIMIT = 3800
"""Characters per rules page (under :data:`EMBED_LIMIT`, leaving room for the title)."""

__all__ = ["EMBED_LIMIT", "PAGE_LIMIT", "game_line", "games_list", "options_lines",
           "rules_pages", "rules_text", "summary_file", "summary_pages"]


def game_line(game: str, t: Translator | None = None) -> str:
    """The game in one line, in the reader's language (the engine's ``summary_line`` in
    English)."""
    t = or_english(t)
    return tagline(game, t.language) or GAMES[game].summary_line


def options_lines(game: str, t: Translator | None = None) -> list[str]:
    """Every option of ``game``: its name, default and meaning (no rule quotes)."""
    t = or_english(t)
    # Translators: {name} is a rule option's name, {default} its default value, {doc} a sentence
    # on what it means.
    return [t.gettext("{name} (default {default}): {doc}").format(
        name=option_label(row["name"], game, t), default=value_text(row["default"], t),
        doc=option_doc(game, row, t)) for row in GAMES[game].options_type.describe()]


def summary_pages(game: str, t: Translator | None = None) -> list[Text]:
    """The summary's sections as pages (no options), in ``t``'s language."""
    t = or_english(t)
    title = GAMES[game].title
    pages: list[Text] = []
    for heading, lines in page_sections(game, t.language):
        # Translators: {part} is the heading of a section of the game's rules summary.
        pages += paginate(t.gettext("{game}: {part}").format(game=title, part=heading),
                          lines, PAGE_LIMIT, t=t)
    return pages


def rules_pages(game: str, language: str | None = None, *, t: Translator | None = None
                ) -> list[Text]:
    """The summary of ``game`` as pages: one per section, then the options, in
    ``language`` (a supported code) or ``t``'s language (English by default)."""
    t = translator(language) if language is not None else or_english(t)
    info = GAMES[game]
    pages = summary_pages(game, t)
    pages += paginate(t.gettext("{game}: options").format(game=info.title),
                      options_lines(game, t), PAGE_LIMIT, t=t)
    return pages


def games_list(t: Translator | None = None) -> list[str]:
    """``tricktable rules``: one line per game (its name to type, title, player counts and
    what it is like)."""
    t = or_english(t)
    # Translators: {title} is a game's name, {counts} its player counts ("2, 3, 4"), {summary}
    # the game in one line.
    return ["{name:12} {line}".format(name=info.name, line=t.gettext(
        "{title} ({counts} players): {summary}").format(
        title=info.title, counts=", ".join(t.number(n) for n in info.player_counts),
        summary=game_line(info.name, t))) for info in GAMES.values()]


def allowed_text(allowed: str, t: Translator | None = None) -> str:
    """An option's allowed values (the engine's ``describe()`` wording) in the reader's
    language: ranges and lists in words; JSON values (``true | false``, choices) as
    typed."""
    t = or_english(t)
    found = re.fullmatch(r"(null or )?whole number (\S+)\.\.(\S+)", allowed)
    if found:
        text = (t.gettext("null or whole number {low}..{high}") if found[1] else
                t.gettext("whole number {low}..{high}"))
        return text.format(low=found[2], high=found[3])
    found = re.fullmatch(r"list of at most (\d+) lowercase words of up to (\d+) letters",
                         allowed)
    if found:
        return t.gettext("list of at most {words} lowercase words of up to {letters} "
                         "letters").format(words=found[1], letters=found[2])
    if allowed == "list of whole numbers":
        return t.gettext("list of whole numbers")
    return allowed


def rules_text(game: str, t: Translator | None = None) -> str:
    """``tricktable rules GAME``: the players' summary, then every option as the
    ``--options`` JSON writes it (key, default, allowed values) with its name and meaning."""
    t = or_english(t)
    info = GAMES[game]
    blocks = ["{title} — {line}".format(title=info.title, line=game_line(game, t))]
    blocks += [page.render() for page in summary_pages(game, t)]
    lines = [t.gettext("Options (--options JSON, defaults shown):")]
    for row in info.options_type.describe():
        lines.append("  {key} = {default}  [{allowed}]".format(
            key=row["name"], default=json.dumps(row["default"]),
            allowed=allowed_text(row["allowed"], t)))
        # Translators: {name} is a rule option's name in words, {doc} a sentence on what it
        # means.
        lines.append("      " + t.gettext("{name}: {doc}").format(
            name=option_name(row["name"], game, t), doc=option_doc(game, row, t)))
    blocks.append("\n".join(lines))
    return "\n\n".join(blocks)
