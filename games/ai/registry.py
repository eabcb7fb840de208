"""Which :class:`~games.ai.adapter.GameAI` serves which game."""

from __future__ import annotations

from functools import cache

from games.ai.adapter import GameAI


class NoAI(LookupError):
    """The game has no AI adapter (yet)."""


@cache
def adapter_for(game: str) -> GameAI:
    """The AI adapter of ``game`` (record name); raises :class:`NoAI` for unknown games."""
    if game in ("arbaa_turub", "turup"):
        from games.ai.plain import PlainAI

        return PlainAI(game)
    if game == "tarabish":
        from games.ai.tarabish import TarabishAI

        return TarabishAI()
    if game == "truf":
        from games.ai.truf import TrufAI

        return TrufAI()
    if game == "albastini":
        from games.ai.albastini import AlbastiniAI

        return AlbastiniAI()
    raise NoAI(f"no AI for game {game!r}")


def has_ai(game: str) -> bool:
    try:
        adapter_for(game)
    except NoAI:
        return False
    return True
