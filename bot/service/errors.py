"""Why the table service refuses a request. Every message is meant for the player.

A refusal carries its sentence as a :class:`~bot.i18n.said.Said` (an English template
marked for translation and its fields): ``LobbyError(N_("seat {seat} is taken"), seat=3)``.
Front ends word it for their reader with ``exc.said.text(t)``; ``str(exc)`` is English.
Text that is not a template of ours (an engine's reason passed on) is kept as given.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from bot.i18n import N_
from bot.i18n.said import Said, SaidError

if TYPE_CHECKING:
    from bot.i18n import Translator


class ServiceError(SaidError):
    """Base class: the request was refused and nothing changed."""


class NoSuchTable(ServiceError):
    """There is no (open) table with that id or at that location."""


class LobbyError(ServiceError):
    """A lobby request that the lobby's state does not allow (seat taken, table full…)."""


class TableChanged(LobbyError):
    """The table's stored row was changed by another writer (another bot process) since
    this process read it: nothing was written, the table was reloaded from the store, and
    the request may be tried again on the fresh state."""

    MESSAGE = N_("this table was changed in the meantime; it is up to date now, please try "
                 "again")

    def __init__(self) -> None:
        super().__init__(self.MESSAGE)


class Rejected(ServiceError):
    """An action the rules or the table's state do not allow now."""


class StaleAction(Rejected):
    """The action was chosen at a state that has passed (a double click, an old button)."""

    MESSAGE = N_("that choice is no longer current")

    def __init__(self) -> None:
        super().__init__(self.MESSAGE)


class SaveFailed(ServiceError):
    """The store could not save the action; the table was reloaded and nothing changed."""


CLOSED: str = N_("the table was closed")
"""The default reason of an ``abandoned`` event."""
CLOSED_BY: str = N_("closed by {player}")
"""A table closed by a player (the event's ``by`` holds their name)."""
LOBBY_EXPIRED: str = N_("the lobby expired after 30 idle minutes")
REPLACED: str = N_("replaced by a new terminal match")


def abandon_reason(data: Mapping[str, object], t: Translator) -> str:
    """The reason of an ``abandoned`` event in ``t``'s language: a reason the service
    marked for translation is translated (``{player}`` filled from ``by``); any other text
    is shown as it is."""
    reason = str(data.get("reason") or CLOSED)
    by = data.get("by")
    if by is not None:
        return Said.of(reason, player=str(by)).text(t)
    return t.gettext(reason)

NO_SEAT: str = N_("you have no seat at this table")
TABLE_GONE: str = N_("that table is closed")
CLOSED_ELSEWHERE: str = N_("the table was closed by another bot process")
