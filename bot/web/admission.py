"""Who a socket is for: the strategy a :class:`~bot.web.viewer.Viewer` is given to check
its first frame.

Three kinds, one per door (``docs/web.md``):

* :class:`LinkAdmission` (``/ws``): a ``join`` frame with a signed link's key
  (:mod:`bot.web.links`);
* :class:`bot.web.relay.RelayAdmission` (``/ws/relay``): a ``relay`` frame with a pass
  another process signed for a socket it received (never relayed further);
* :class:`bot.web.activity.ActivityAdmission` (``/ws/activity``): an ``activity`` frame
  with Discord's access token and instance, checked with Discord.

Each returns the :class:`~bot.web.links.Pass` the socket is admitted with or raises
:class:`~bot.web.viewer.Refuse` (a fatal error frame); the viewer does the rest alike.
"""

from __future__ import annotations

from typing import Any, Protocol

from aiohttp import web

from bot.i18n import Translator, translator
from bot.service import TableService
from bot.web import links
from bot.web.config import BAD_LINK, EXPIRED, Refuse, WebConfig
from bot.web.inbound import text_field


class Admitting(Protocol):
    """What an admission reads of the socket it admits (a
    :class:`~bot.web.viewer.Viewer`), and ``t``, which it sets to the user's language."""

    service: TableService
    config: WebConfig
    ws: web.WebSocketResponse
    t: Translator

    async def end(self, reason: str) -> None:
        """Close the socket for good with ``reason`` (a message id, ``N_``)."""
        ...


class Admission(Protocol):
    """How one socket is admitted (module docstring)."""

    first: str
    """The first frame's ``type``."""
    relays: bool
    """Whether a socket for a table another process holds is carried to its owner."""

    async def admit(self, frame: dict[str, Any], viewer: Admitting) -> links.Pass:
        """The pass of the first frame (its ``type`` already checked), or :class:`Refuse`.
        Sets ``viewer.t`` to the user's language once the user is known."""
        ...

    def nothing_after_end(self, t: Translator) -> Refuse | None:
        """The refusal when the admitted table is one that ended and showed this user
        nothing (None: the viewer goes on to the table)."""
        ...

    async def close(self) -> None:
        """The socket ended: stop what the admission started."""
        ...


class KeyAdmission:
    """A first frame holding a key signed with ``secret`` in ``field``."""

    relays = True

    def __init__(self, secret: bytes, first: str, field: str) -> None:
        self.secret = secret
        self.first = first
        self.field = field

    async def admit(self, frame: dict[str, Any], viewer: Admitting) -> links.Pass:
        key = text_field(frame, self.field, links.MAX_KEY)
        try:
            p = links.verify(self.secret, key, viewer.config.clock())
        except links.BadLink as exc:
            message = EXPIRED if exc.code == "expired" else BAD_LINK
            raise Refuse(exc.code, viewer.t.gettext(message)) from None
        viewer.t = translator(await viewer.config.language(p.user))
        return p

    def nothing_after_end(self, t: Translator) -> Refuse | None:
        return None

    async def close(self) -> None:
        return None


class LinkAdmission(KeyAdmission):
    """``/ws``: a ``join`` frame with a link's key (module docstring)."""

    def __init__(self, secret: bytes) -> None:
        super().__init__(secret, "join", "key")
