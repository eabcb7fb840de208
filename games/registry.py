"""Every game the engine knows, by its record name (``"arbaa_turub"``, ``"turup"``, …).

Each game module exposes one :class:`GameInfo` named ``INFO``; this module collects them.
Front ends, records, AI players and benchmarks find games only through :data:`GAMES`.
"""

from __future__ import annotations

from games.base import GameInfo


def _load() -> dict[str, GameInfo]:
    from games import albastini, arbaa_turub, tarabish, truf, turup

    infos = [arbaa_turub.INFO, turup.INFO, tarabish.INFO, albastini.INFO, truf.INFO]
    return {info.name: info for info in infos}


GAMES: dict[str, GameInfo] = _load()
