"""How a feature above the table service shows a finished duplicate board on the web table:
the :class:`Reveals` a process puts in ``WebConfig.reveals`` (:mod:`bot.web.viewer`).

The web table knows nothing of duplicate nights (it imports no :mod:`bot.duplicate`): the
composition root (:mod:`bot.app`) gives it :class:`bot.web_duplicate.WebReveals`, and
``docs/duplicate.md`` ("On the web table") states the rule. A seat's socket asks
:meth:`Reveals.frame` when its table closes at a board's end and when its link opens a
table no longer held; the Activity asks :meth:`Reveals.finished_table` when it finds no
open table in its channel. A board's deal review travels in its reveal only
(:meth:`Reveals.is_board`).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from typing import Any, Protocol

from bot.i18n import Translator
from bot.web.protocol import RevealFrame
from storage.models import ChannelLocation


class Reveals(Protocol):
    """A duplicate service's board reveals as the web table reads them."""

    @property
    def ended(self) -> str:
        """Why a board's table was closed (a message id, ``N_``: the reason its
        ``abandoned`` event gives)."""
        ...

    def is_board(self, meta: Mapping[str, Any] | None) -> bool:
        """Whether the table whose ``meta`` this is plays a duplicate board (its deal's
        review then goes in the reveal only)."""
        ...

    async def frame(self, table: int, user: int, t: Translator) -> RevealFrame | None:
        """The reveal of the board played at ``table`` for ``user`` in ``t``'s words; None
        when ``user`` may see nothing of it (yet)."""
        ...

    async def finished_table(self, where: ChannelLocation, user: int,
                             since: dt.datetime) -> int | None:
        """The table at ``where`` of the board an entrant ``user`` belongs to finished
        last, at or after ``since`` (None: none)."""
        ...
