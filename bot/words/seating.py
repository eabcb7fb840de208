"""Who is who at a table, in words, and in which language.

Every function of :mod:`bot.words` that names players takes a :class:`Seating`: seat →
display name, the game's sides, and the reader's :class:`~bot.i18n.Translator` (English
unless the front end passes one: ``Seating.of(game, names, options, t=translator("so"))``
or ``seating.speaking(t)``). Names are used verbatim: a front end that renders markup
(Discord) passes names already escaped; the terminal passes them as they are.

**The reader.** A seating made for one player's eyes (:meth:`Seating.reading`: the web
page of a seat) names that seat ``you`` (:meth:`Seating.name`), and a sentence whose
subject is a player takes its second-person template for the reader
(:meth:`Seating.says`: ``You played K♦.`` beside ``Bilal played K♦.``), as the table's
facts do (:func:`bot.words.table_state.who`). Without a reader (Discord's public message,
a record) every seat is its name.

A record carries no names: :meth:`Seating.anonymous` names seats ``Seat 0``, ``Seat 1``, …
after the record's own seat numbers, so a reader can match the account against the file
(a referee's choice; nothing else in :mod:`bot.words` writes a bare seat number).
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.i18n import SOURCE_LANGUAGE, Translator
from bot.words.text import english, or_english
from games.registry import GAMES


def join_names(names: Sequence[str], t: Translator | None = None) -> str:
    """``["Ann"]`` → ``Ann``; ``["Ann", "Bo"]`` → ``Ann and Bo``; three → ``Ann, Bo and Cy``
    (English as the project has always written it, without a serial comma; the other
    languages by CLDR: ``Ann, Bo dan Cy``)."""
    t = or_english(t)
    if len(names) < 3 or t.language != SOURCE_LANGUAGE:
        return t.join(names) if names else ""
    return "{first} and {last}".format(first=", ".join(names[:-1]), last=names[-1])


def seat_label(seat: int, t: Translator | None = None) -> str:
    """A seat without a name: ``Seat 2`` (records; a member whose name has nothing visible
    left once cleaned, :func:`bot.discord_bot.drawing.texts.plain_name`)."""
    return or_english(t).gettext("Seat {n}").format(n=seat)


@dataclass(frozen=True)
class Seating:
    """A table's players: ``names[seat]``, the game's sides (lists of seats, in the rule
    file's index order: team A first) and the language the words are written in."""

    game: str
    names: tuple[str, ...]
    sides: tuple[tuple[int, ...], ...]
    options: Mapping[str, Any]
    translator: Translator = field(default_factory=english, compare=False)
    reader: int | None = None
    """The seat reading the words (named ``you``), or None: words for everyone."""

    @staticmethod
    def of(game: str, names: Sequence[str], options: Mapping[str, Any] | None = None, *,
           t: Translator | None = None) -> Seating:
        """The seating of ``game`` with these names (one per seat) and rule options
        (the sides depend on the player count and, for Albastini, the ``teams`` option),
        speaking ``t``'s language (English by default)."""
        info = GAMES[game]
        opts = info.options_type.from_json(dict(options or {}))
        sides = tuple(tuple(s) for s in info.teams(len(names), opts))
        return Seating(game, tuple(names), sides, dict(options or {}), or_english(t))

    @staticmethod
    def anonymous(game: str, players: int, options: Mapping[str, Any] | None = None, *,
                  t: Translator | None = None) -> Seating:
        """A seating without names (records): ``Seat 0`` … ``Seat N-1``."""
        t = or_english(t)
        return Seating.of(game, [seat_label(s, t) for s in range(players)], options, t=t)

    def speaking(self, t: Translator) -> Seating:
        """The same seating, its words in ``t``'s language."""
        return dataclasses.replace(self, translator=t)

    def reading(self, seat: int | None) -> Seating:
        """The same seating, its words for ``seat``'s eyes (module docstring; None: for
        everyone)."""
        return dataclasses.replace(self, reader=seat)

    def says(self, seat: int | None, named: str, you: str, **values: Any) -> str:
        """A sentence whose subject is ``seat``'s player: ``you`` (a translated template)
        for the reader, else ``named`` with the name as ``{player}``; other placeholders
        from ``values``."""
        if self.reader is not None and seat == self.reader:
            return self.t.gettext(you).format(**values)
        return self.t.gettext(named).format(player=self.name(seat), **values)

    @property
    def t(self) -> Translator:
        """The translator of the reader's language (short for :attr:`translator`)."""
        return self.translator

    @property
    def players(self) -> int:
        return len(self.names)

    @functools.cached_property
    def partnerships(self) -> bool:
        """Whether sides have more than one player."""
        return any(len(side) > 1 for side in self.sides)

    def name(self, seat: int | None) -> str:
        """The seat's name (``nobody`` for no seat; ``you`` for the reader)."""
        if seat is None or not 0 <= seat < len(self.names):
            return self.t.gettext("nobody")
        if seat == self.reader:
            return self.t.gettext("you")
        return self.names[seat]

    def side_of(self, seat: int) -> int:
        for i, side in enumerate(self.sides):
            if seat in side:
                return i
        raise ValueError(f"seat {seat} is on no side")

    def side_name(self, side: int) -> str:
        """A side by its players' names: ``Ann and Cy`` (individuals: the name)."""
        return join_names([self.name(s) for s in self.sides[side]], self.t)

    def value(self, value: Any) -> str:
        """A count or score as the language writes numbers; anything else as given."""
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return self.t.number(value)
        return str(value)

    def per_side(self, values: Sequence[Any]) -> str:
        """Values by side in words: ``Ann and Cy 14, Bo and Di 22``."""
        # Translators: One side and its number in a list ("Ann and Cy 14"): {side} a team by its
        # players' names or a player's name, {value} a number.
        return ", ".join(self.t.gettext("{side} {value}").format(
            side=self.side_name(i), value=self.value(v)) for i, v in enumerate(values))

    def per_seat(self, values: Sequence[Any]) -> str:
        """Values by seat in words: ``Ann 3, Bo 5, Cy 3, Di 2``."""
        # Translators: One player and their number in a list ("Ann 3").
        return ", ".join(self.t.gettext("{player} {value}").format(
            player=self.name(s), value=self.value(v)) for s, v in enumerate(values))
