"""The component router: one ``DynamicItem`` class per intent, registered in one place.

Every button and select the bot sends for a table is an instance of one of these classes;
its ``custom_id`` (:mod:`bot.discord_bot.ids`) carries table, version and choice, so a
click is understood after a restart. A click is parsed into a :class:`Click` and handed to
the :class:`ClickHandler` bound to the client (:func:`bind`): the router knows nothing of
presenters or panels, and a second source of clicks (e.g. clicks forwarded from another
process) can call the same handler. :data:`DYNAMIC_ITEMS` is what the bot registers.

Before its handler method, every click passes :meth:`ClickHandler.admit`: a click made in a
server on a table of another server (a forged component: Discord itself delivers a
component's clicks from its own message only) is refused privately and changes nothing.
Clicks in DMs (hand panels) have no server: the seat check (only a seated player acts, and
for their own seat) covers them.
"""

from __future__ import annotations

import re
import weakref
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol, Self

import discord

from bot.discord_bot.ids import CustomIdKind, custom_id, decode_action, encode_action
from bot.i18n import N_
from games.actions import Action

ButtonItem = discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]]
SelectItem = discord.ui.DynamicItem[discord.ui.Select[discord.ui.View]]
Style = discord.ButtonStyle


@dataclass(frozen=True, slots=True)
class Click:
    """One click on a table component, as the handler needs it."""

    table_id: int
    version: int
    user_id: int
    user_name: str
    can_manage: bool
    """The clicker has Manage Server in the channel (a host's right without being host)."""
    on_panel: bool
    """Clicked on a private panel (a DM or an ephemeral message), not the public message."""
    guild_id: int | None = None
    """The server the click came from (None: a DM)."""


def click_of(interaction: discord.Interaction[discord.Client], table_id: int,
             version: int) -> Click:
    user = interaction.user
    perms = interaction.permissions
    msg = interaction.message
    on_panel = msg is not None and (msg.flags.ephemeral or msg.guild is None)
    return Click(table_id, version, user.id, getattr(user, "display_name", None) or user.name,
                 bool(perms and perms.manage_guild), on_panel, interaction.guild_id)


ANOTHER_SERVER = N_("That table belongs to another server: nothing was changed.")
"""The private refusal of a click from another server than the table's."""


def from_another_server(click_guild: int | None, table_guild: int | None) -> bool:
    """A click made in server ``click_guild`` on a table of another server
    (``table_guild``; None when unknown, e.g. a closed table, which its own path
    refuses). A DM click (``click_guild`` None) is never from another server."""
    return click_guild is not None and table_guild is not None and click_guild != table_guild


async def admitted(interaction: discord.Interaction[discord.Client], table_id: int,
                   version: int) -> tuple[ClickHandler, Click] | None:
    """The bound handler and the click when the handler admits it (it answered the
    refusal otherwise): every table component's callback starts here."""
    handler = handler_of(interaction)
    click = click_of(interaction, table_id, version)
    return (handler, click) if await handler.admit(interaction, click) else None


class ClickHandler(Protocol):
    """What the router calls; each method answers the interaction exactly once."""

    async def admit(self, interaction: discord.Interaction[discord.Client], click: Click
                    ) -> bool:
        """False (after a private refusal) for a click from another server than the
        table's (module docstring)."""

    async def join(self, interaction: discord.Interaction[discord.Client], click: Click
                   ) -> None: ...

    async def leave(self, interaction: discord.Interaction[discord.Client], click: Click
                    ) -> None: ...

    async def start(self, interaction: discord.Interaction[discord.Client], click: Click
                    ) -> None: ...

    async def add_ai(self, interaction: discord.Interaction[discord.Client], click: Click,
                     level: str) -> None: ...

    async def act(self, interaction: discord.Interaction[discord.Client], click: Click,
                  action: Action | None, *, picked: bool = False) -> None:
        """``action`` None: the component was malformed; ``picked``: chosen in the card
        select (its variants, e.g. a signal, may still be to choose)."""

    async def bid_cards(self, interaction: discord.Interaction[discord.Client], click: Click,
                        cards: tuple[str, ...]) -> None: ...

    async def signal(self, interaction: discord.Interaction[discord.Client], click: Click,
                     signal: str | None) -> None:
        """The leader chose the signal of the next lead (None: no signal)."""

    async def my_hand(self, interaction: discord.Interaction[discord.Client], click: Click
                      ) -> None: ...

    async def back(self, interaction: discord.Interaction[discord.Client], click: Click
                   ) -> None: ...

    async def abandon(self, interaction: discord.Interaction[discord.Client], click: Click
                      ) -> None: ...


_HANDLERS: weakref.WeakKeyDictionary[discord.Client, ClickHandler] = (
    weakref.WeakKeyDictionary())


def bind(client: discord.Client, handler: ClickHandler) -> None:
    """Route the table clicks ``client`` receives to ``handler``."""
    _HANDLERS[client] = handler


def handler_of(interaction: discord.Interaction[discord.Client]) -> ClickHandler:
    handler = _HANDLERS.get(interaction.client)
    if handler is None:
        raise RuntimeError("no click handler is bound to this client")
    return handler


def _button(kind: CustomIdKind, table: int, version: int, arg: str, label: str, style: Style,
            row: int | None, emoji: str | None = None) -> discord.ui.Button[discord.ui.View]:
    return discord.ui.Button(label=label[:80] or None, style=style, row=row, emoji=emoji,
                             custom_id=custom_id(kind, table, version, arg))


def _ids(match: re.Match[str]) -> tuple[int, int]:
    return int(match["table"]), int(match["version"])


_T = r"(?P<table>\d+):(?P<version>\d+)"


class _Simple(ButtonItem, template=r"tt:\?"):
    """A button whose intent needs nothing but table and version (subclasses set
    ``KIND``/``ARG`` and ``run``)."""

    KIND: ClassVar[CustomIdKind]
    ARG: ClassVar[str] = ""

    def __init__(self, table: int, version: int = 0, *, label: str = "",
                 style: Style = Style.secondary, row: int | None = None) -> None:
        super().__init__(_button(self.KIND, table, version, self.ARG, label, style, row))
        self.table, self.version = table, version

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[discord.Client],
                             item: discord.ui.Item[Any], match: re.Match[str]) -> Self:
        return cls(*_ids(match))

    async def callback(self, interaction: discord.Interaction[discord.Client]) -> None:
        if (got := await admitted(interaction, self.table, self.version)) is not None:
            await self.run(got[0], interaction, got[1])

    async def run(self, handler: ClickHandler,
                  interaction: discord.Interaction[discord.Client], click: Click) -> None:
        raise NotImplementedError


class JoinButton(_Simple, template=CustomIdKind.LOBBY.template(rf"{_T}:join")):
    """Lobby: take a seat."""

    KIND, ARG = CustomIdKind.LOBBY, "join"

    async def run(self, handler: ClickHandler,
                  interaction: discord.Interaction[discord.Client], click: Click) -> None:
        await handler.join(interaction, click)


class LeaveButton(_Simple, template=CustomIdKind.LOBBY.template(rf"{_T}:leave")):
    """Lobby: give the seat up."""

    KIND, ARG = CustomIdKind.LOBBY, "leave"

    async def run(self, handler: ClickHandler,
                  interaction: discord.Interaction[discord.Client], click: Click) -> None:
        await handler.leave(interaction, click)


class StartButton(_Simple, template=CustomIdKind.LOBBY.template(rf"{_T}:start")):
    """Lobby: start the match (host or Manage Server)."""

    KIND, ARG = CustomIdKind.LOBBY, "start"

    async def run(self, handler: ClickHandler,
                  interaction: discord.Interaction[discord.Client], click: Click) -> None:
        await handler.start(interaction, click)


class MyHandButton(_Simple, template=CustomIdKind.MY_HAND.template(rf"{_T}:")):
    """**My hand** on the table (a private panel); Refresh / Back on a panel."""

    KIND = CustomIdKind.MY_HAND

    async def run(self, handler: ClickHandler,
                  interaction: discord.Interaction[discord.Client], click: Click) -> None:
        await handler.my_hand(interaction, click)


class BackButton(_Simple, template=CustomIdKind.BACK.template(rf"{_T}:")):
    """**I'm back**: a player whose seat an AI kept takes it again."""

    KIND = CustomIdKind.BACK

    async def run(self, handler: ClickHandler,
                  interaction: discord.Interaction[discord.Client], click: Click) -> None:
        await handler.back(interaction, click)


class AbandonButton(_Simple, template=CustomIdKind.ABANDON.template(rf"{_T}:")):
    """The confirmation of ``/table abandon``."""

    KIND = CustomIdKind.ABANDON

    async def run(self, handler: ClickHandler,
                  interaction: discord.Interaction[discord.Client], click: Click) -> None:
        await handler.abandon(interaction, click)


class AddAIButton(ButtonItem,
                  template=CustomIdKind.LOBBY.template(rf"{_T}:ai(?::(?P<level>[a-z]+))?")):
    """Lobby: seat an AI of a level in the first free seat."""

    def __init__(self, table: int, level: str, *, label: str = "",
                 style: Style = Style.secondary, row: int | None = None) -> None:
        super().__init__(_button(CustomIdKind.LOBBY, table, 0, f"ai:{level}", label, style, row))
        self.table, self.level = table, level

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[discord.Client],
                             item: discord.ui.Item[Any], match: re.Match[str]) -> Self:
        return cls(int(match["table"]), match["level"] or "rules")

    async def callback(self, interaction: discord.Interaction[discord.Client]) -> None:
        if (got := await admitted(interaction, self.table, 0)) is not None:
            await got[0].add_ai(interaction, got[1], self.level)


class ActionButton(ButtonItem, template=CustomIdKind.ACTION.template(rf"{_T}:(?P<action>.+)")):
    """One action of the seat to act (a trump call, a bid, a card's variant, …); an
    ``action`` that does not parse reaches the handler as None."""

    def __init__(self, table: int, version: int, action: Action | None, *, raw: str = "",
                 label: str = "", style: Style = Style.primary, row: int | None = None
                 ) -> None:
        arg = encode_action(action) if action is not None else raw
        super().__init__(_button(CustomIdKind.ACTION, table, version, arg, label, style, row))
        self.table, self.version, self.action = table, version, action

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[discord.Client],
                             item: discord.ui.Item[Any], match: re.Match[str]) -> Self:
        try:
            action: Action | None = decode_action(match["action"])
        except ValueError:
            action = None
        return cls(*_ids(match), action, raw=match["action"])

    async def callback(self, interaction: discord.Interaction[discord.Client]) -> None:
        if (got := await admitted(interaction, self.table, self.version)) is not None:
            await got[0].act(interaction, got[1], self.action)


class CardSelect(SelectItem,
                 template=CustomIdKind.CARD_SELECT.template(rf"{_T}:(?P<arg>[A-Za-z]*)")):
    """The card select: one option per distinct legal card (one select per suit past 25)."""

    def __init__(self, table: int, version: int, arg: str = "all", *,
                 options: list[discord.SelectOption] | None = None, placeholder: str = "",
                 row: int | None = None) -> None:
        super().__init__(discord.ui.Select(
            custom_id=custom_id(CustomIdKind.CARD_SELECT, table, version, arg),
            options=options or [],
            placeholder=placeholder[:150] or None, row=row))
        self.table, self.version = table, version

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[discord.Client],
                             item: discord.ui.Item[Any], match: re.Match[str]) -> Self:
        return cls(*_ids(match), match["arg"])

    async def callback(self, interaction: discord.Interaction[discord.Client]) -> None:
        values = _values(interaction)
        try:
            action: Action | None = decode_action(values[0]) if values else None
        except ValueError:
            action = None
        if (got := await admitted(interaction, self.table, self.version)) is not None:
            await got[0].act(interaction, got[1], action, picked=True)


class MultiBidSelect(SelectItem, template=CustomIdKind.MULTI_BID.template(rf"{_T}:bid")):
    """Truf's secret bid of one to three cards."""

    def __init__(self, table: int, version: int, *,
                 options: list[discord.SelectOption] | None = None, placeholder: str = "",
                 max_values: int = 1, row: int | None = None) -> None:
        super().__init__(discord.ui.Select(
            custom_id=custom_id(CustomIdKind.MULTI_BID, table, version, "bid"),
            options=options or [],
            placeholder=placeholder[:150] or None, min_values=1, max_values=max_values,
            row=row))
        self.table, self.version = table, version

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[discord.Client],
                             item: discord.ui.Item[Any], match: re.Match[str]) -> Self:
        return cls(*_ids(match))

    async def callback(self, interaction: discord.Interaction[discord.Client]) -> None:
        if (got := await admitted(interaction, self.table, self.version)) is not None:
            await got[0].bid_cards(interaction, got[1], tuple(_values(interaction)))


def _values(interaction: discord.Interaction[discord.Client]) -> list[str]:
    data = interaction.data
    raw = data.get("values", []) if data is not None else []
    return [str(v) for v in raw] if isinstance(raw, list) else []


DYNAMIC_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (
    JoinButton, LeaveButton, StartButton, AddAIButton, ActionButton,
    CardSelect, MultiBidSelect, MyHandButton, BackButton, AbandonButton,
)
"""Every table component class: the bot registers exactly these (``add_dynamic_items``)."""
