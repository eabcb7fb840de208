"""Every game the engine knows, by its record name (``"arbaa_turub"``, ``"turup"``, …).

Each game module exposes one :class:`GameInfo` named ``INFO``; this module collects them.
Front ends, records, AI players and benchmarks find games only through :data:`GAMES`.

Game names (``docs/rules/README.md``): the ids are ``arbaa_turub``, ``turup``, ``tarabish``,
``truf`` and ``albastini``; wherever a person names a game (command line, records, Discord)
it is accepted in any case and with a hyphen for the underscore (``Arbaa-Turub``).
:func:`game_id` is the one place that rule lives.
"""

from __future__ import annotations

from games.base import GameInfo
from games.errors import GameError, quote


def _load() -> dict[str, GameInfo]:
    from games import albastini, arbaa_turub, tarabish, truf, turup

    infos = [arbaa_turub.INFO, turup.INFO, tarabish.INFO, albastini.INFO, truf.INFO]
    return {info.name: info for info in infos}


GAMES: dict[str, GameInfo] = _load()


class UnknownGame(GameError):
    """A game name that names no game; the message quotes (a clipped piece of) it and lists
    the games."""


def game_id(text: object) -> str:
    """The game id that ``text`` names (any case, ``-`` for ``_``, surrounding blanks
    ignored); raise :class:`UnknownGame` with a short message otherwise."""
    if isinstance(text, str) and len(text) <= 40:
        key = text.strip().lower().replace("-", "_")
        if key in GAMES:
            return key
    raise UnknownGame(f"unknown game {quote(text)}; the games are {', '.join(GAMES)}")
