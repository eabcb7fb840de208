"""**Open table**: the table as a Discord Activity, or in the browser where Discord will not
(``docs/activity.md``).

The process that serves the web table binds it to the client
(:func:`bot.discord_bot.tables.web_lobby.bind_web`, with the web server's link maker:
``server.link(table, user, role)``, :mod:`bot.web.server`); only then do the table message
(lobby and play) carry an **Open table** button (:class:`OpenTableButton`, ``custom_id``
``tt:w:<table>:0:``) and does ``/table open`` open anything. Both answer with the
interaction response *launch Activity* (type 12): Discord opens the application's Activity
in the channel, where the page finds the channel's table. Where Discord refuses — the
application has no Activities, or the player's client platform is not enabled (``50231``),
or any other refusal — the player gets, privately, the **Open in browser** link of the web
table (their seat's when they sit at the table, else the public view) with one sentence
saying why.

The binding also redraws a table's message when the users with the table open on the web
change (:mod:`bot.web.presence`; :func:`web_users` is what the message names), and
gives the web viewers Discord's lobby rights (:mod:`bot.discord_bot.tables.web_lobby`).

The same binding gives the private hand panel (**My hand** and the hand DM) its **Open in
browser** link (:func:`seat_link_button`: signed for the seat's player and the table,
expiring, made anew whenever the panel is drawn) and ``/table watch`` its private
**Watch** link (:meth:`TableOpener.watch`: the public view), for a member who can see the
table's channel (:meth:`TableOpener.may_watch`, the rule of
:mod:`bot.discord_bot.tables.web_access`). Every such button is made by
:func:`link_button`, which leaves out a URL longer than Discord allows.
"""

from __future__ import annotations

import logging
import re
import weakref
from collections.abc import Callable
from typing import Any, Literal, Protocol, Self

import discord

from bot.discord_bot.drawing.texts import clip
from bot.discord_bot.ids import CustomIdKind, custom_id
from bot.discord_bot.languages import Languages
from bot.discord_bot.router import ButtonItem, admitted
from bot.i18n import N_, Translator
from bot.service import NoSuchTable, TableService

log = logging.getLogger(__name__)

Interaction = discord.Interaction[discord.Client]

ACTIVITIES_OFF = 50231
"""Discord's refusal of a launch: the application has no Activities, or not on the
player's client platform."""

OPEN_TABLE = N_("Open table")
OPEN_IN_BROWSER = N_("Open in browser")
NOT_SET_UP = N_("Discord cannot open the table here as an Activity (it is not set up for "
                "this bot or for your Discord app): open it in your browser instead.")
REFUSED = N_("Discord did not open the table as an Activity: open it in your browser "
             "instead.")
NO_WEB = N_("This bot does not serve the table on the web.")
WATCH = N_("Watch")
NO_VIEW = N_("You cannot see this channel, so you cannot watch its table.")

MAX_URL = 512
"""Discord's longest URL of a link button."""


def link_button(url: str, label: str, row: int | None = None
                ) -> discord.ui.Button[discord.ui.View] | None:
    """A link button to ``url`` labelled ``label`` (already worded); None when ``url`` is
    longer than Discord accepts (:data:`MAX_URL`: a very long ``TRICKTABLE_WEB_URL``)."""
    if len(url) > MAX_URL:
        log.warning("a web table link is %d characters, over Discord's %d: not shown "
                    "(shorten TRICKTABLE_WEB_URL)", len(url), MAX_URL)
        return None
    return discord.ui.Button(style=discord.ButtonStyle.link, label=clip(label, 80), url=url,
                             row=row)


Role = Literal["seat", "watch"]
"""What a web link opens: the seat of its user, or the public view."""


class Presence(Protocol):
    """Who has a socket on which table (:class:`bot.web.presence.Presence`)."""

    on_change: Callable[[int], None] | None
    """Called with a table whose set of web users changed."""

    def users(self, table: int) -> tuple[int, ...]: ...


class LobbyRights(Protocol):
    """Discord's lobby rights for a web viewer (``bot.web.viewer.LobbyRights``; given by
    :class:`bot.discord_bot.tables.web_lobby.DiscordLobbyRights`)."""

    async def start_refusal(self, table: int, user: int) -> str | None: ...

    async def name_of(self, table: int, user: int) -> str: ...


class ChannelCheck(Protocol):
    """Whether a user may still read a table's channel (``bot.web.access.ChannelAccess``;
    given by :class:`bot.discord_bot.tables.web_access.DiscordChannelAccess`)."""

    async def may_view(self, table: int, user: int, *, fresh: bool = False) -> bool: ...


class WebAccess(Protocol):
    """The web table's open sockets by table and user, and their revocation
    (``bot.web.access.Access``)."""

    async def admits(self, table: int, user: int) -> bool:
        """Whether a socket of ``user`` may join ``table`` now."""
        ...

    def held(self) -> list[tuple[int, int]]:
        """Every (table, user) with an open socket."""
        ...

    async def revoke(self, table: int, user: int) -> int:
        """Close ``user``'s sockets at ``table``, saying they lost the channel."""
        ...

    async def recheck(self, tables: Callable[[int], bool] | None = None, *,
                      fresh: bool = False) -> int:
        """Ask again for the open sockets of the tables selected; close the lost ones."""
        ...


class Links(Protocol):
    """What the Discord adapter needs of the web table (:class:`bot.web.server.WebServer`,
    given by the composition root, :mod:`bot.app`): the adapter imports no web code."""

    def link(self, table: int, user: int, role: Role = "seat") -> str: ...

    @property
    def link_ttl(self) -> int:
        """Seconds a link works from when it is made."""
        ...

    @property
    def presence(self) -> Presence:
        """Who has a socket on which table (the table message names them)."""
        ...

    def use_lobby(self, rights: LobbyRights) -> None:
        """Offer the lobby's actions on the web, with ``rights``."""
        ...

    @property
    def access(self) -> WebAccess:
        """Who may still read a table's channel; the open sockets by table and user."""
        ...

    def use_access(self, check: ChannelCheck) -> None:
        """Admit and keep a socket only while ``check`` says its user may read the
        table's channel."""
        ...


class OpenerHub(Protocol):
    """What an opener reads of the table hub (:class:`bot.discord_bot.table_hub.TableHub`)."""

    @property
    def languages(self) -> Languages: ...

    @property
    def service(self) -> TableService: ...


class TableOpener:
    """Open a table for a player: the Activity, else the browser link (module
    docstring)."""

    def __init__(self, hub: OpenerHub, links: Links) -> None:
        self.hub = hub
        self.links = links

    async def open(self, interaction: Interaction, table_id: int) -> None:
        """Answer ``interaction`` (not yet answered) by launching the Activity, else with
        the private browser link."""
        try:
            await interaction.response.launch_activity()
            return
        except discord.HTTPException as exc:
            why = NOT_SET_UP if exc.code == ACTIVITIES_OFF else REFUSED
            log.info("table %s: Discord refused to launch the Activity (%s %s)", table_id,
                     exc.status, exc.code)
        t = await self.hub.languages.reader(interaction)
        view = self._link_view(self.links.link(
            table_id, interaction.user.id, self._role(table_id, interaction.user.id)),
            t.gettext(OPEN_IN_BROWSER))
        await interaction.response.send_message(t.gettext(why), view=view, ephemeral=True)

    async def may_watch(self, table_id: int, user_id: int) -> bool:
        """Whether ``user_id`` may read the table's channel (``/table watch`` checks it
        itself: a link is only for who can see the table on Discord)."""
        return await self.links.access.admits(table_id, user_id)

    def watch(self, table_id: int, user_id: int, t: Translator) -> tuple[str, discord.ui.View]:
        """The private answer of ``/table watch``: a sentence and the **Watch** link
        (the public view, signed for ``user_id``)."""
        hours = self.links.link_ttl // 3600
        text = t.ngettext(
            "Your link to watch this table in a browser: the public view, no one's hand. "
            "It is yours alone and works for {count} hour.",
            "Your link to watch this table in a browser: the public view, no one's hand. "
            "It is yours alone and works for {count} hours.", hours)
        return (text.format(count=t.number(hours)),
                self._link_view(self.links.link(table_id, user_id, "watch"),
                                t.gettext(WATCH)))

    @staticmethod
    def _link_view(url: str, label: str) -> discord.ui.View:
        view = discord.ui.View(timeout=None)
        if (button := link_button(url, label)) is not None:
            view.add_item(button)
        return view

    def _role(self, table_id: int, user_id: int) -> Role:
        try:
            seated = self.hub.service.seat_of(table_id, user_id) is not None
        except NoSuchTable:
            seated = False
        return "seat" if seated else "watch"

    def button(self, table_id: int, t: Translator, row: int | None = None
               ) -> OpenTableButton:
        return OpenTableButton(table_id, label=clip(t.gettext(OPEN_TABLE), 80), row=row)


_OPENERS: weakref.WeakKeyDictionary[discord.Client, TableOpener] = (
    weakref.WeakKeyDictionary())


def open_tables(client: discord.Client, hub: OpenerHub, links: Links) -> TableOpener:
    """Make ``client``'s :class:`TableOpener` (what :func:`opener_of` returns) and answer
    its **Open table** buttons; :func:`bot.discord_bot.tables.web_lobby.bind_web` calls it."""
    opener = _OPENERS[client] = TableOpener(hub, links)
    client.add_dynamic_items(OpenTableButton)
    return opener


def opener_of(client: discord.Client) -> TableOpener | None:
    """The bound opener; None when this process serves no web table."""
    return _OPENERS.get(client)


def web_users(client: discord.Client, table_id: int) -> tuple[int, ...]:
    """The users with the table open on the web (a page or the Activity) in this process,
    in the order they came; none when ``client`` serves no web table."""
    opener = opener_of(client)
    return () if opener is None else opener.links.presence.users(table_id)


def seat_link_button(client: discord.Client | None, table_id: int, user_id: int,
                     t: Translator) -> discord.ui.Button[discord.ui.View] | None:
    """The private panel's **Open in browser** button: the seat link of ``user_id`` at
    ``table_id``, valid ``links.link_ttl`` seconds from now (a panel drawn
    again carries a new one, so the live panel's link works while an old DM's expires);
    None when ``client`` serves no web table."""
    opener = None if client is None else opener_of(client)
    if opener is None:
        return None
    return link_button(opener.links.link(table_id, user_id, "seat"),
                       t.gettext(OPEN_IN_BROWSER))


class OpenTableButton(ButtonItem, template=CustomIdKind.OPEN_TABLE.template(
                          r"(?P<table>\d+):(?P<version>\d+):")):
    """**Open table** on the table message."""

    def __init__(self, table: int, *, label: str = "", row: int | None = None) -> None:
        super().__init__(discord.ui.Button(label=label or None,
                                           style=discord.ButtonStyle.secondary, row=row,
                                           custom_id=custom_id(CustomIdKind.OPEN_TABLE, table, 0)))
        self.table = table

    @classmethod
    async def from_custom_id(cls, interaction: Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str]) -> Self:
        return cls(int(match["table"]))

    async def callback(self, interaction: Interaction) -> None:
        """Registered by :func:`open_tables` only, so an opener is bound (a process started
        without the web table ignores the button, as it does not show it)."""
        opener = opener_of(interaction.client)
        if opener is not None and await admitted(interaction, self.table, 0) is not None:
            await opener.open(interaction, self.table)
