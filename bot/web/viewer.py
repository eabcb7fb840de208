"""One viewer's WebSocket: an admitted socket relaying its seat's subscription as frames
and taking the viewer's requests to the table service.

The promises (``docs/web.md``):

* **Who.** The first frame is checked by the socket's :class:`~bot.web.admission.Admission`
  (a link's key, a relay pass, the Activity's token and instance): it names the user, the
  table and the role. A ``seat`` pass admits the user's seat *now* (``service.seat_of``),
  so a player who left or was removed is refused, and a socket whose user loses the seat
  (a lobby change) is closed. A ``watch`` pass admits the public view. An admitted socket
  counts against the caps of :mod:`bot.web.registry` (per user, per link), and
  :meth:`Viewer.end` closes it from outside with a reason (revocation).
* **What.** The socket relays ``service.subscribe(table, seat)`` (spectators: ``None``):
  the service filters every event by what the seat may see, and :mod:`bot.web.frames`
  words only what the event holds.
* **Actions** go through :meth:`TableService.act` with the viewer's user id, like a
  Discord click: the same checks, the same refusals (a :class:`RefusedFrame` in the
  viewer's words), stored before they are announced.
* **The lobby.** With ``config.lobby`` (the bot's Discord rights, bound by
  :func:`bot.discord_bot.tables.web_lobby.bind_web`), every viewer's lobby frame offers what they
  may do — **Join** (not seated, a seat free), **Add AI: rules** (a seat free), **Start**
  (every seat taken, and they opened the table or have Manage Server in its channel) —
  and a ``lobby_act`` frame does it through the table service, checked again like a
  Discord click. A viewer who joins becomes that seat's viewer (a new ``hello``, the
  seat's subscription).
* **A duplicate board's reveal.** With ``config.reveals``, a seat's socket whose table
  closes (the board's end) gets the board's :class:`RevealFrame` before the closed frame
  when its user belongs to an entrant that finished the board; a seat's link to a table no
  longer held gets it too (a reload after the end), then the closed frame. Spectators and
  everyone else get nothing of it (:mod:`bot.web.reveals`).
* **Presence.** An admitted socket counts in ``config.presence`` (:mod:`bot.web.presence`)
  while it is open, so the table message can say who is on the web.
* **Revocation.** A socket whose user can no longer read the table's channel is refused
  when it joins, and ``config.access`` closes the admitted sockets (``config.sockets``) of
  a user the bot learns lost the channel (:mod:`bot.web.access`).
* **Hostile input.** Frames are read once (:mod:`bot.web.inbound`) into typed requests; a
  frame larger than ``max_frame`` bytes, not JSON (nested too deep included), of another
  version or type, or with fields of the wrong kind gets an :class:`ErrorFrame` and
  changes nothing; frames past the budget (``burst`` at once, refilled at ``rate`` per
  second) are dropped, the first of a run answered ``rate``. Every one of these is a
  strike; past ``strikes`` the socket gets a fatal error frame and is closed.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import time
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from aiohttp import WSMsgType, web

from bot.i18n import N_, Translator
from bot.service import NoSuchTable, Rejected, RuleRefusal, StaleAction, TableService
from bot.service.errors import ServiceError, abandon_reason
from bot.service.events import RESYNC, Subscription, TableEvent, data_of, game_data
from bot.service.tables import TableInfo
from bot.web import links
from bot.web.access import NO_ACCESS
from bot.web.config import BAD_LINK, NO_SEAT, Refuse, WebConfig
from bot.web.fanout import encode
from bot.web.frames import Words, names_only
from bot.web.inbound import Act, Again, LobbyAct, Why, decode, parse
from bot.web.lobby import Lobby, Refused, Seated
from bot.web.protocol import (
    VERSION,
    ClosedFrame,
    DealResultFrame,
    ErrorFrame,
    LobbyFrame,
    ServerFrame,
)
from bot.words.cards import card_text
from bot.words.history import scored_deals
from bot.words.table_state import reason_text
from games.actions import action_from_json

if TYPE_CHECKING:
    from bot.web.admission import Admission

log = logging.getLogger(__name__)

UNREADABLE = N_("That message could not be read; nothing changed.")
TOO_MANY = N_("Too many messages: wait a moment; nothing changed.")
STRUCK_OUT = N_("This page sent too many messages the table could not take: reload it.")

UNRECORDED = frozenset({"away", "returned", "timeout", "reminder"})
"""Events no record holds (the history frame never tells them): always sent."""


class Viewer:
    """One socket (module docstring), admitted by ``admission``; :meth:`run` returns when
    the socket is done. ``t`` words what is said before the user is known (the
    ``Accept-Language`` of the socket's request)."""

    def __init__(self, service: TableService, config: WebConfig, ws: web.WebSocketResponse,
                 admission: Admission, t: Translator) -> None:
        self.service = service
        self.config = config
        self.ws = ws
        self.admission = admission
        self.t = t
        self.words: Words | None = None
        self.pass_: links.Pass | None = None
        self.seat: int | None = None
        self.tokens = float(config.burst)
        self.refilled = time.monotonic()
        self.errors = 0
        self.limited = False
        """Whether the last frame was over the budget (a run of them is answered once)."""
        self.done = False
        self._sub: Subscription | None = None
        self._pump_task: asyncio.Task[None] | None = None
        self._lobby_desk: Lobby | None = None
        self._held = False
        """Whether the socket stays open after the match's end (**Play again** offered)."""
        self._told = -1
        """The table version the last history frame told the log up to."""

    # -- life --------------------------------------------------------------------------
    async def run(self) -> None:
        try:
            await self._run()
        finally:
            await self.admission.close()

    async def _run(self) -> None:
        try:
            p = await self._admit()
            if await self._revealed_after_end(p):
                return
            refusal = self.admission.nothing_after_end(self.t)
            if refusal is not None:
                raise refusal
            relay = self.config.relay if self.admission.relays else None
            if relay is not None and not await relay.serves(self.service, p.table):
                await relay.carry(self.ws, self.t, p)  # another process owns the table
                return
            self._enter(p)
            if not await self.config.access.admits(p.table, p.user):
                raise Refuse("access", self.t.gettext(NO_ACCESS))
        except Refuse as exc:
            await self._send(self._error(exc.code, exc.text, fatal=True))
            return
        self.pass_ = p
        info = self.service.info(p.table)
        await self._open(info)
        guard = None if relay is None else relay.guard(self.ws, info.location)
        self.config.presence.enter(p.table, p.user)
        self.config.access.watch()
        try:
            await self._read()
        except ConnectionResetError:  # the page went away while we answered it
            pass
        finally:
            now = self.pass_ or p  # another table after **Play again**
            self.config.presence.leave(now.table, now.user)
            await self._unsubscribe()
            if guard is not None:
                guard.cancel()
                await asyncio.gather(guard, return_exceptions=True)

    def _words(self, info: TableInfo, seat: int | None) -> Words:
        return Words.of(info, seat, self.t, self.config.avatars.get)

    async def _open(self, info: TableInfo, key: str | None = None) -> None:
        """Show the table to the page: the hello (with ``key`` when the page should keep a
        new one), the subscription, the deal so far and the spectators' count."""
        self.words = self._words(info, self.seat)
        hello = self.words.hello(info)
        if key is not None:
            hello["key"] = key
        await self._send(hello)
        self._subscribe()
        await self._send_history()
        await self._send(self.words.spectators(self.config.sockets.spectators(info.id)))

    async def _send_history(self) -> None:
        """The deal in play's log and the score sheet (a match in play only)."""
        p, words = self.pass_, self.words
        assert p is not None and words is not None
        if self.service.info(p.table).status != "playing":
            return
        record = await self._record(p.table)
        if record is not None:
            # The record may hold an action whose events are still to be published (it is
            # stored first): the log already tells them, so their lines are not sent again.
            self._told = sum(len(d.get("actions") or []) for d in record.get("deals") or [])
            await self._send(words.history(record))

    # -- spectators ---------------------------------------------------------------------
    def tell_spectators(self, count: int) -> None:
        """Send the page the table's spectators' count, in the background (a socket that
        went away meanwhile: nothing to do)."""
        if self.words is not None and not self.ws.closed:
            task = asyncio.ensure_future(self._send(self.words.spectators(count)))
            task.add_done_callback(_quiet)

    async def end(self, reason: str) -> None:
        """Close the socket for good from outside (a revoked link, the Activity ended): a
        ``closed`` frame saying ``reason`` (a message id, ``N_``) in the viewer's words."""
        if self.done:
            return
        self.done = True
        await self._send({"v": VERSION, "type": "closed", "text": self.t.gettext(reason)})
        await self.ws.close()

    def _subscribe(self) -> None:
        """Relay the subscription of the viewer's seat (spectators: the public one)."""
        p = self.pass_
        assert p is not None
        self._sub = self.service.subscribe(p.table, self.seat)
        self._pump_task = asyncio.create_task(self._pump(self._sub),
                                              name=f"web-{p.table}-{self.seat}")

    async def _unsubscribe(self) -> None:
        task, sub = self._pump_task, self._sub
        self._pump_task = self._sub = None
        if task is not None:  # first, so the subscription's end does not end the socket
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)
        if sub is not None:
            sub.close()

    async def _admit(self) -> links.Pass:
        """Who the socket is for: its first frame, checked by the admission, then counted
        against the caps of the user and the link."""
        try:
            msg = await self.ws.receive(timeout=self.config.join_timeout)
        except TimeoutError:
            raise Refuse("join", self.t.gettext(BAD_LINK)) from None
        frame = decode(msg, self.config.max_frame)
        if frame is None or frame.get("type") != self.admission.first:
            raise Refuse("join", self.t.gettext(BAD_LINK))
        p = await self.admission.admit(frame, self)
        full = self.config.sockets.admitted(self.ws, self, p.table, p.user, p.role)
        if full is not None:
            raise Refuse("busy", self.t.gettext(full))
        return p

    def _enter(self, p: links.Pass) -> None:
        """Admit ``p`` at this process's table: a ``seat`` pass gets the user's seat as
        it is now (a player who left or was removed is refused)."""
        if not self.service.holds(p.table):
            raise Refuse("table", self.t.gettext(BAD_LINK))
        if p.role == "seat":
            self.seat = self.service.seat_of(p.table, p.user)
            if self.seat is None:
                raise Refuse("seat", self.t.gettext(NO_SEAT))

    # -- server → page -----------------------------------------------------------------
    async def _pump(self, sub: Subscription) -> None:
        """Relay the subscription until it ends (the table closed) or the socket does;
        then close the socket, unless **Play again** was offered (the page may ask)."""
        try:
            async for event in sub:
                if not await self._relay(event):
                    break
        except (ConnectionResetError, RuntimeError):  # the page went away
            pass
        if self._held:
            return
        self.done = True
        await self.ws.close()

    async def _relay(self, event: TableEvent) -> bool:
        """Send what ``event`` means to the page; ``False`` when the socket should end."""
        words, p = self.words, self.pass_
        assert words is not None and p is not None
        kind = event.type
        if kind == RESYNC:  # events were dropped: the table now, and its log again
            try:
                event = self.service.state(p.table, self.seat)
            except NoSuchTable:
                return False
            kind = event.type
            await self._send_history()
        lang = self.t.language
        if kind == "state":
            seat = self.seat
            await self._send_text(self.config.frames.frame(
                event, ("table", lang, seat),
                lambda: words.table(data_of(event, "state"), event.version)))
        elif kind == "lobby":
            if p.role == "seat" and self.service.seat_of(p.table, p.user) != self.seat:
                await self._send({"v": VERSION, "type": "closed",
                                  "text": self.t.gettext(NO_SEAT)})
                return False
            await self._send(await self._lobby_frame())
        elif kind == "started":
            info = self.service.info(p.table)
            self.words = self._words(info, self.seat)
        elif kind == "deal_scored":
            async def result() -> DealResultFrame:
                # A duplicate board's review (every hand as dealt) goes in its reveal only.
                reveals = self.config.reveals
                board = reveals is not None and reveals.is_board(self.service.meta(p.table))
                record = await self._record(p.table)
                scored = None if record is None else self.config.frames.memo(
                    event, ("scored",), lambda: scored_deals(record))
                return words.deal_result(data_of(event, "deal_scored"), record,
                                         review=not board, scored=scored)

            await self._send_text(await self.config.frames.frame_async(
                event, ("deal_result", lang, self.seat), result))
        elif kind == "match_over":
            again = self.config.again is not None and p.role == "seat"
            await self._send_text(self.config.frames.frame(
                event, ("match_over", lang, self.seat, again),
                lambda: words.match_over(data_of(event, "match_over")["summary"] or {},
                                         again=again)))
            self._held = again
            return False
        elif kind == "abandoned":
            await self._reveal(p)
            await self._send(self._closed(data_of(event, "abandoned")))
            return False
        elif event.version > self._told or kind in UNRECORDED:
            data = game_data(event)
            shared = names_only(kind, data, self.seat)  # one wording for all it names not
            await self._send_text(self.config.frames.frame(
                event, ("line", lang, None if shared else self.seat),
                lambda: words.line(kind, data, personal=not shared)))
        return True

    def _closed(self, abandoned: Mapping[str, object]) -> ClosedFrame:
        """The frame saying the table was closed, with the reason of its ``abandoned``
        event."""
        return {"v": VERSION, "type": "closed", "text": self.t.gettext(
            "The table was closed: {reason}.").format(
                reason=abandon_reason(abandoned, self.t))}

    async def _reveal(self, p: links.Pass) -> bool:
        """Send the duplicate board's reveal at ``p``'s table if ``p`` is a seat's pass
        whose user may see it now (module docstring); whether one was sent."""
        reveals = self.config.reveals
        if reveals is None or p.role != "seat":
            return False
        try:
            frame = await reveals.frame(p.table, p.user, self.t)
        except Exception:  # the reveal is a courtesy: the table's own frames go on
            log.exception("table %s: the duplicate board's reveal failed", p.table)
            return False
        if frame is None:
            return False
        await self._send(frame)
        return True

    async def _revealed_after_end(self, p: links.Pass) -> bool:
        """A seat's link to a table this process no longer holds: the board's reveal and a
        closed frame when its user may see it (a reload after a duplicate board's end)."""
        if self.config.reveals is None or self.service.holds(p.table):
            return False
        reveals = self.config.reveals
        if not await self._reveal(p):
            return False
        await self._send(self._closed({"reason": reveals.ended}))
        return True

    async def _record(self, table: int) -> Mapping[str, Any] | None:
        try:
            return await self.service.record(table)
        except ServiceError:
            return None

    async def _send(self, frame: ServerFrame) -> None:
        await self._send_text(encode(frame))

    async def _send_text(self, text: str | None) -> None:
        """Send an encoded frame (``None``: nothing to send)."""
        if text is not None and not self.ws.closed:
            await self.ws.send_str(text)

    # -- page → server -----------------------------------------------------------------
    async def _read(self) -> None:
        while not self.done:
            msg = await self.ws.receive()
            if msg.type in (WSMsgType.CLOSE, WSMsgType.CLOSING, WSMsgType.CLOSED,
                            WSMsgType.ERROR):
                return
            if not self._spend():
                self.errors += 1  # a run of frames past the budget is answered once
                if not self.limited:
                    self.limited = True
                    await self._send(self._error("rate", self.t.gettext(TOO_MANY)))
            else:
                self.limited = False
                frame = decode(msg, self.config.max_frame)
                request = None if frame is None else parse(frame)
                if isinstance(request, Act):
                    await self._act(request)
                elif isinstance(request, LobbyAct):
                    await self._lobby_act(request)
                elif isinstance(request, Why):
                    await self._why(request)
                elif isinstance(request, Again):
                    await self._again()
                else:
                    await self._strike("malformed", UNREADABLE)
            if self.errors > self.config.strikes:
                self.done = True
                await self._send(self._error("strikes", self.t.gettext(STRUCK_OUT),
                                             fatal=True))
                await self.ws.close()
                return

    def _spend(self) -> bool:
        """Take one frame from the socket's budget (a token bucket)."""
        now = time.monotonic()
        self.tokens = min(float(self.config.burst),
                          self.tokens + (now - self.refilled) * self.config.rate)
        self.refilled = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True

    async def _strike(self, code: str, text: str) -> None:
        self.errors += 1
        await self._send(self._error(code, self.t.gettext(text)))

    def _error(self, code: str, text: str, *, fatal: bool = False) -> ErrorFrame:
        frame: ErrorFrame = {"v": VERSION, "type": "error", "code": code, "text": text}
        if fatal:
            frame["fatal"] = True
        return frame

    async def _act(self, request: Act) -> None:
        p, words = self.pass_, self.words
        assert p is not None and words is not None
        if p.role != "seat":
            await self._strike("malformed", UNREADABLE)
            return
        try:
            await self.service.act(p.table, p.user, request.action, request.version)
        except StaleAction as exc:
            await self._refused(exc.said.text(self.t))
        except RuleRefusal as exc:
            await self._refused(reason_text(exc, words.seating))
        except (Rejected, ServiceError) as exc:
            await self._refused(exc.said.text(self.t))

    async def _why(self, request: Why) -> None:
        """Why a card of the hand may not be played now (or that it may): the rules'
        reason in the viewer's words, tried on a copy of the deal (nothing changes)."""
        p, words, card = self.pass_, self.words, request.card
        assert p is not None and words is not None
        if p.role != "seat" or self.seat is None:
            await self._strike("malformed", UNREADABLE)
            return
        try:
            view = self.service.view(p.table, self.seat)
        except ServiceError:
            await self._strike("malformed", UNREADABLE)
            return
        if card not in (view.get("hand") or []):
            await self._strike("malformed", UNREADABLE)
            return
        legal = self.service.legal(p.table, self.seat)
        kind = "bid" if any(a.type == "bid" for a in legal) else "play"
        _, action = action_from_json({"type": kind, "card": card, "seat": self.seat},
                                     "action")
        refusal = self.service.refusal(p.table, self.seat, action)
        shown = card_text(card)
        if refusal is None:
            text = self.t.gettext("You may play {card} now.").format(card=shown)
        else:
            text = reason_text(refusal, words.seating)
        await self._send({"v": VERSION, "type": "reason", "card": card,
                          "text": sentence(text)})

    async def _again(self) -> None:
        """**Play again** (offered at the match's end in local play): a new match on this
        page, under the new table's key."""
        p, again = self.pass_, self.config.again
        if p is None or again is None or not self._held:
            await self._strike("malformed", UNREADABLE)
            return
        key = await again(p.table, p.user)
        if key is None:
            await self._refused(self.t.gettext("A new match could not start."))
            return
        new = links.verify(self.config.secret, key, self.config.clock())
        self._held = False
        await self._unsubscribe()
        self.config.presence.leave(p.table, p.user)
        self._enter(new)
        self.pass_ = new
        self.config.sockets.moved(self.ws, (new.table, new.user, new.role))
        self.config.presence.enter(new.table, new.user)
        self.config.access.watch()
        await self._open(self.service.info(new.table), key)

    # -- the lobby (bot/web/lobby.py) ---------------------------------------------------
    async def _lobby_frame(self) -> LobbyFrame:
        """The lobby as this viewer sees it, with what they may do now (module docstring)."""
        p = self.pass_
        assert p is not None
        info = self.service.info(p.table)
        self.words = self._words(info, self.seat)
        frame = self.words.lobby(info)
        lobby = self._lobby()
        if lobby is not None and info.status == "lobby":
            frame["actions"] = await lobby.offered(info, self.seat, self.t)
        return frame

    def _lobby(self) -> Lobby | None:
        """The viewer's lobby (None: the web table is not bound to Discord's rights)."""
        p, rights = self.pass_, self.config.lobby
        if rights is None or p is None:
            return None
        if self._lobby_desk is None:
            self._lobby_desk = Lobby(self.service, rights, p.table, p.user)
        return self._lobby_desk

    async def _lobby_act(self, request: LobbyAct) -> None:
        """A lobby action of the page, with Discord's rights (module docstring)."""
        lobby = self._lobby()
        if lobby is None:  # none was offered
            await self._strike("malformed", UNREADABLE)
            return
        outcome = await lobby.do(request.do, self.t)
        if isinstance(outcome, Seated):
            await self._take(outcome.seat)
        elif isinstance(outcome, Refused):
            await self._refused(outcome.text)

    async def _take(self, seat: int) -> None:
        """The viewer sits at ``seat`` now: their seat's hello and subscription."""
        p = self.pass_
        assert p is not None
        await self._unsubscribe()
        self.pass_ = dataclasses.replace(p, role="seat")
        self.seat = seat
        self.config.sockets.moved(self.ws, (p.table, p.user, "seat"))
        info = self.service.info(p.table)
        self.words = self._words(info, seat)
        await self._send(self.words.hello(info))
        await self._send(await self._lobby_frame())
        self._subscribe()

    async def _refused(self, text: str) -> None:
        await self._send({"v": VERSION, "type": "refused", "text": sentence(text)})


def _quiet(task: asyncio.Future[None]) -> None:
    """A spectators' count sent to a socket that went away: nothing to do."""
    if not task.cancelled():
        task.exception()


def sentence(text: str) -> str:
    """``text`` as a sentence: its first letter upper, a full stop unless it has one."""
    text = text[:1].upper() + text[1:]
    if not text.endswith((".", "!", "?", "…")):
        text += "."
    return text
