"""The view keys every game shares, built in one place.

Every game's ``view(seat)`` starts from :func:`common_view` (a :class:`CommonView`) and adds
its own keys beside it, so front ends and AI players can treat games alike. The keys
(``docs/records.md`` and :mod:`games.base`): ``game``, ``seat`` (the viewer, or null),
``players``, ``teams`` (lists of seats), ``dealer``, ``phase`` (a game-specific word;
``"over"`` at the end), ``to_act``, ``trump`` (suit letter or null), ``hand`` (the viewer's
cards, sorted for display), ``hand_sizes`` (cards held by every seat), ``trick``
(``{"leader": s, "cards": [[seat, card], ...]}``, a hidden card written
:data:`games.base.HIDDEN`), ``tricks`` (completed tricks, public) and ``facts``
(``[[label, text], ...]``: the public state in words).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from games.base import TrickDeal
from games.cards import SUITS
from games.view_types import CommonView

__all__ = ["CommonView", "common_view"]


def common_view(
    deal: TrickDeal,
    seat: int | None,
    *,
    teams: Sequence[Sequence[int]],
    trump: int,
    hand: list[str],
    hand_sizes: list[int],
    facts: list[list[str]],
    shown: Callable[[int, int], str] | None = None,
) -> CommonView:
    """The shared keys of ``deal``'s view for ``seat``; ``trump`` is a suit int (``-1``:
    none), ``shown(seat, card)`` writes a card of the trick in progress as the viewer may
    see it (default face up)."""
    return {
        "game": deal.game,
        "seat": seat,
        "players": deal.players,
        "teams": [list(t) for t in teams],
        "dealer": deal.dealer,
        "phase": str(deal.phase),
        "to_act": list(deal.to_act),
        "trump": SUITS[trump] if trump >= 0 else None,
        "hand": hand,
        "hand_sizes": hand_sizes,
        "trick": deal.current_trick_json(shown),
        "tricks": deal.tricks_json(),
        "facts": facts,
    }
