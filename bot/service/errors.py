"""Why the table service refuses a request. Every message is meant for the player.

A refusal carries its sentence as a :class:`~bot.i18n.said.Said` (an English template
marked for translation and its fields): ``LobbyError(N_("seat {seat} is taken"), seat=3)``.
Front ends word it for their reader with ``exc.said.text(t)``; ``str(exc)`` is English.
Text that is not a template of ours is kept as given. The engine's own refusal is a
:class:`RuleRefusal`: the engine's template and fields as data (seats, card codes…), which a
front end words with the table's seating (:func:`bot.words.refusals.refusal_text`: names,
``K♣``, the reader's language); its ``said`` is the engine's English sentence.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from bot.i18n import N_
from bot.i18n.said import Said, SaidError, engine_said

if TYPE_CHECKING:
    from bot.i18n import Translator
    from games.errors import IllegalAction


class ServiceError(SaidError):
    """Base class: the request was refused and nothing changed."""


class NoSuchTable(ServiceError):
    """There is no (open) table with that id or at that location."""


class LobbyError(ServiceError):
    """A lobby request that the lobby's state does not allow (seat taken, table full…)."""

    @staticmethod
    def engine(exc: Exception) -> LobbyError:
        """The engine's refusal of a table's settings (an ``OptionError``, a bad first
        dealer) in the reader's language where the engine gave a template
        (:func:`engine_said`)."""
        said = engine_said(exc)
        return LobbyError(said.message, **said.fields)


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


class RuleRefusal(Rejected):
    """The rules refuse the action (the engine's :class:`~games.errors.IllegalAction`).

    ``template`` and ``params`` are the engine's (data only: seat numbers, card codes, suit
    indices…); a front end words them with the table's seating
    (:func:`bot.words.refusals.refusal_text`). ``str(exc)`` and ``said`` are the engine's
    English reason, for logs and any reader without a seating at hand."""

    def __init__(self, template: str, params: Mapping[str, Any], reason: str) -> None:
        super().__init__(reason)
        self.template = template
        self.params: dict[str, Any] = dict(params)

    @staticmethod
    def of(exc: IllegalAction) -> RuleRefusal:
        return RuleRefusal(exc.template, exc.params, exc.reason)

    def to_json(self) -> dict[str, Any]:
        """Template and fields as JSON (forwarded to another bot process)."""
        return {"template": self.template, "params": self.params}

    @staticmethod
    def from_json(data: Mapping[str, Any], reason: str) -> RuleRefusal | None:
        """The refusal :meth:`to_json` wrote, or None when ``data`` is not one."""
        template, params = data.get("template"), data.get("params")
        if not isinstance(template, str) or not isinstance(params, dict):
            return None
        return RuleRefusal(template, params, reason)


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
