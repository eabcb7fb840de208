"""Who is who at a table, in words: seat → display name, sides → their players' names.

Every function of :mod:`bot.words` that names players takes a :class:`Seating`. Names are
used verbatim: a front end that renders markup (Discord) passes names already escaped;
the terminal passes them as they are.

A record carries no names: :meth:`Seating.anonymous` names seats ``Seat 0``, ``Seat 1``, …
after the record's own seat numbers, so a reader can match the account against the file
(a referee's choice; nothing else in :mod:`bot.words` writes a bare seat number).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.words.cards import symbols_in
from games.registry import GAMES


def join_names(names: Sequence[str]) -> str:
    """``["Ann"]`` → ``Ann``; ``["Ann", "Bo"]`` → ``Ann and Bo``; three → ``Ann, Bo and Cy``."""
    if not names:
        return ""
    if len(names) == 1:
        return names[0]
    return "{first} and {last}".format(first=", ".join(names[:-1]), last=names[-1])


@dataclass(frozen=True)
class Seating:
    """A table's players: ``names[seat]`` and the game's sides (lists of seats, in the rule
    file's index order: team A first)."""

    game: str
    names: tuple[str, ...]
    sides: tuple[tuple[int, ...], ...]
    options: Mapping[str, Any]

    @staticmethod
    def of(game: str, names: Sequence[str], options: Mapping[str, Any] | None = None
           ) -> Seating:
        """The seating of ``game`` with these names (one per seat) and rule options
        (the sides depend on the player count and, for Albastini, the ``teams`` option)."""
        info = GAMES[game]
        opts = info.options_type.from_json(dict(options or {}))
        sides = tuple(tuple(t) for t in info.teams(len(names), opts))
        return Seating(game, tuple(names), sides, dict(options or {}))

    @staticmethod
    def anonymous(game: str, players: int, options: Mapping[str, Any] | None = None
                  ) -> Seating:
        """A seating without names (records): ``Seat 0`` … ``Seat N-1``."""
        return Seating.of(game, ["Seat {n}".format(n=s) for s in range(players)], options)

    @property
    def players(self) -> int:
        return len(self.names)

    @property
    def partnerships(self) -> bool:
        """Whether sides have more than one player."""
        return any(len(side) > 1 for side in self.sides)

    def name(self, seat: int | None) -> str:
        """The seat's name (``nobody`` for no seat)."""
        if seat is None or not 0 <= seat < len(self.names):
            return "nobody"
        return self.names[seat]

    def side_of(self, seat: int) -> int:
        for i, side in enumerate(self.sides):
            if seat in side:
                return i
        raise ValueError(f"seat {seat} is on no side")

    def side_name(self, side: int) -> str:
        """A side by its players' names: ``Ann and Cy`` (individuals: the name)."""
        return join_names([self.name(s) for s in self.sides[side]])

    def per_side(self, values: Sequence[Any]) -> str:
        """Values by side in words: ``Ann and Cy 14, Bo and Di 22``."""
        return ", ".join("{side} {value}".format(side=self.side_name(i), value=v)
                         for i, v in enumerate(values))

    def per_seat(self, values: Sequence[Any]) -> str:
        """Values by seat in words: ``Ann 3, Bo 5, Cy 3, Di 2``."""
        return ", ".join("{player} {value}".format(player=self.name(s), value=v)
                         for s, v in enumerate(values))

    def reason(self, text: str) -> str:
        """An engine's refusal or message in players' words: card codes as symbols, ``seat
        N`` as the player's name (``you must follow spades: you hold 10♠``)."""
        named = re.sub(r"\bseats? (\d+)\b",
                       lambda m: self.name(int(m.group(1))), text)
        return symbols_in(named)
