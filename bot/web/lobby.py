"""A viewer's lobby on the web: what they may do before the match starts, with Discord's
rights (``docs/web.md``, "With the bot"; :mod:`bot.web.viewer`, "The lobby").

**Join** (not seated, a seat free), **Add AI: rules** (a seat free), **Start** (every seat
taken, and the user opened the table or has Manage Server in its channel: asked of the
bot's :class:`LobbyRights` once per socket). Each action is checked again
when it is done, like a Discord click, through the table service.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from bot.i18n import N_, Translator
from bot.service import Rejected, TableService
from bot.service.errors import ServiceError
from bot.service.tables import TableInfo
from bot.web.protocol import LobbyAction, LobbyDo

JOIN = N_("Join")
ADD_AI = N_("Add AI: rules")
START = N_("Start")


class LobbyRights(Protocol):
    """Discord's lobby rights for a web viewer (the bot binds one; none: no lobby actions
    on the web)."""

    async def start_refusal(self, table: int, user: int) -> str | None:
        """Why ``user`` may not start ``table`` (a message id, ``N_``), or None: they opened
        it or have Manage Server in its channel."""
        ...

    async def name_of(self, table: int, user: int) -> str:
        """The name ``user`` gets at the table when they join (their name in its server)."""
        ...


@dataclass(frozen=True)
class Seated:
    """The lobby action seated the viewer at ``seat``."""

    seat: int


@dataclass(frozen=True)
class Refused:
    """The lobby action was refused: ``text`` in the viewer's words."""

    text: str


class Lobby:
    """One viewer's lobby at ``table`` as ``user`` (module docstring)."""

    def __init__(self, service: TableService, rights: LobbyRights, table: int,
                 user: int) -> None:
        self.service = service
        self.rights = rights
        self.table = table
        self.user = user
        self._may_start: bool | None = None

    async def offered(self, info: TableInfo, seat: int | None, t: Translator
                      ) -> list[LobbyAction]:
        """The buttons the viewer may press now, labelled in ``t``'s words."""
        if info.status != "lobby":
            return []
        free = sum(s is None for s in info.seats)
        offered: list[tuple[LobbyDo, str]] = []
        if free and seat is None:
            offered.append(("join", JOIN))
        if free:
            offered.append(("add_ai", ADD_AI))
        if not free and await self._can_start():
            offered.append(("start", START))
        return [{"do": do, "label": t.gettext(label)} for do, label in offered]

    async def _can_start(self) -> bool:
        if self._may_start is None:
            self._may_start = await self.rights.start_refusal(self.table, self.user) is None
        return self._may_start

    async def do(self, do: LobbyDo, t: Translator) -> Seated | Refused | None:
        """Do ``do`` through the table service, checked again (None: done)."""
        try:
            if do == "join":
                name = await self.rights.name_of(self.table, self.user)
                return Seated(await self.service.join(self.table, self.user, name))
            if do == "add_ai":
                await self.service.add_ai(self.table, "rules")
                return None
            refusal = await self.rights.start_refusal(self.table, self.user)
            if refusal is not None:
                return Refused(t.gettext(refusal))
            await self.service.start_match(self.table)
        except (Rejected, ServiceError) as exc:
            return Refused(exc.said.text(t))
        return None
