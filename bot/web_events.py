"""A duplicate event's page on the web: ``GET /duplicate?k=<key>``, rendered on the server.

This module is glue at the composition root, like :mod:`bot.web_duplicate` (:mod:`bot.app`
wires it): it joins duplicate nights (:mod:`bot.duplicate`) to the web table's server,
which imports neither and only adds its route (``routes`` of
:func:`bot.web.run.start`). The key's secret and clock are the web table's
(``WebConfig``).

The key is signed like a table link (:mod:`bot.web.links`: HMAC-SHA256 under the web
secret, checked in constant time, expiring) but in its own domain (``dup`` in the signed
payload), so no table key opens an event page and no event key a table. It names the
event, the reader (a member's id, or ``0`` for the public link of the results thread), the
language of the page and its expiry.

What a page shows follows the Discord rules exactly (``docs/duplicate.md``, *Secrecy*):

* **After the close** — every key: the ranking, every board's traveller, its hands as
  dealt (the hand diagram: hands sorted by suit at their compass positions), the AI's
  result from each direction played, and every entrant's score card.
* **Before the close** — a member's key: only the boards the member's entrant has
  finished (each board's traveller so far, its hands and the AI's result in the
  entrant's seat, as the reveal DM); the public key: that the results come at the close.

Every text comes from :mod:`bot.duplicate.text` in the page's language and is escaped;
the page has no script and its style is a file of its own (the server's
Content-Security-Policy allows nothing inline). The key travels in the query string: the
server keeps no access log and every answer says ``Referrer-Policy: no-referrer``.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import html
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from aiohttp import web

from bot.duplicate.context import directions_of
from bot.duplicate.hands import BoardHand, board_hands, direction_text
from bot.duplicate.results import EventResults
from bot.duplicate.reveals import Reveal
from bot.duplicate.scoring import BoardResult, Traveller
from bot.duplicate.text import (
    ai_line,
    ai_text,
    card_lines,
    header_line,
    ranking_lines,
    rules_line,
    traveller_lines,
)
from bot.i18n import SUPPORTED, Translator, translator
from bot.web.server import WebServer
from bot.web.sockets import CONFIG
from bot.words.cards import hand_lines
from storage.base import Store
from storage.duplicate import DuplicateBoard, DuplicateEvent

PUBLIC = 0
"""The reader of the results thread's link: anyone, after the close only."""
EVENT_TTL = 90 * 24 * 3600
"""Seconds the results thread's link works."""
MEMBER_TTL = 12 * 3600
"""Seconds a member's link (under a board's reveal) works."""
MAX_KEY = 256
PATH = "/duplicate"
STYLE = "/duplicate/style.css"

CSS = """
body{font-family:system-ui,sans-serif;background:#1e2029;color:#e8e8ee;margin:0 auto;
max-width:980px;padding:12px;line-height:1.4}
h1{font-size:1.5em;margin:.2em 0}h2{font-size:1.2em;margin:1.2em 0 .3em}
h3{font-size:1em;margin:.8em 0 .2em}ul,ol{margin:.2em 0;padding-left:1.4em}
.muted{color:#a9abb8}.board{border-top:1px solid #3a3d4c;margin-top:1em}
.diagram{display:grid;grid-template-columns:repeat(3,minmax(0,1fr));gap:8px;margin:.5em 0}
.diagram.seats{grid-template-columns:repeat(2,minmax(0,1fr))}
.hand{background:#2a2d3a;border-radius:6px;padding:6px 8px}.hand b{display:block}
.n{grid-column:2;grid-row:1}.w{grid-column:1;grid-row:2}.e{grid-column:3;grid-row:2}
.s{grid-column:2;grid-row:3}.c{grid-column:2;grid-row:2;align-self:center;
text-align:center;color:#a9abb8}.red{color:#ff7b7b}
"""

COMPASS_CLASS = {4: ("n", "e", "s", "w")}
"""The diagram cell of each seat at four (seat 0 is North)."""


class BadKey(Exception):
    """The key is not one this server signed for an event page, or it expired."""


@dataclass(frozen=True, slots=True)
class EventPass:
    """What a verified key admits: ``user`` (``0``: the public) to ``event`` in
    ``language`` until ``expires`` (seconds since the epoch)."""

    event: int
    user: int
    language: str
    expires: int


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _mac(secret: bytes, payload: str) -> str:
    digest = hmac.new(secret, f"dup:{payload}".encode("ascii"), hashlib.sha256).digest()
    return _b64(digest)


def sign(secret: bytes, p: EventPass) -> str:
    """The key of ``p``."""
    payload = _b64(f"dup.{p.event}.{p.user}.{p.language}.{p.expires}".encode("ascii"))
    return f"{payload}.{_mac(secret, payload)}"


def verify(secret: bytes, key: object, now: float) -> EventPass:
    """The pass of an event key this server signed that has not expired; else
    :class:`BadKey`."""
    if not isinstance(key, str) or len(key) > MAX_KEY or key.count(".") != 1:
        raise BadKey("forged")
    payload, mac = key.split(".")
    if not hmac.compare_digest(_mac(secret, payload), mac):
        raise BadKey("forged")
    try:
        raw = base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)).decode("ascii")
        kind, event, user, language, expires = raw.split(".")
        p = EventPass(int(event), int(user), language, int(expires))
    except ValueError:
        raise BadKey("forged") from None
    if kind != "dup" or p.language not in SUPPORTED:
        raise BadKey("forged")
    if p.expires <= now:
        raise BadKey("expired")
    return p


class EventSource(Protocol):
    """What the page needs of :class:`~bot.duplicate.service.DuplicateService`."""

    store: Store

    async def results(self, event: DuplicateEvent,
                      boards: Sequence[int] | None = None) -> EventResults: ...

    async def reveal(self, event_id: int, guild_id: int, user_id: int,
                     board: int) -> Reveal: ...

    async def ai_result(self, event: DuplicateEvent, board: DuplicateBoard,
                        direction: int) -> tuple[dict[str, object], BoardResult]: ...


def _e(text: object) -> str:
    return html.escape(str(text), quote=True)


def _cards_html(cards: Sequence[str]) -> str:
    rows = []
    for line in hand_lines(list(cards)):
        red = "♥" in line or "♦" in line
        rows.append(f'<span class="red">{_e(line)}</span>' if red else _e(line))
    return "<br>".join(rows)


def diagram_html(hands: Sequence[BoardHand], players: int, title: str) -> str:
    """The hands as dealt: at four seats at their compass places round ``title``, else
    two a row."""
    classes = COMPASS_CLASS.get(players)
    cells = []
    for hand in hands:
        where = f" {classes[hand.seat]}" if classes else ""
        cells.append(f'<div class="hand{where}"><b>{_e(hand.label)}</b>'
                     f"{_cards_html(hand.cards)}</div>")
    if classes:
        cells.append(f'<div class="c">{_e(title)}</div>')
    return f'<div class="diagram{"" if classes else " seats"}">{"".join(cells)}</div>'


def _lines(lines: Sequence[str], tag: str = "ul") -> str:
    return f"<{tag}>{''.join(f'<li>{_e(x.strip())}</li>' for x in lines)}</{tag}>"


def event_key(secret: bytes, now: float, event: int, user: int, language: str,
              ttl: int) -> str:
    """A key to ``event``'s page for ``user`` (:data:`PUBLIC`: anyone) in ``language``,
    working ``ttl`` seconds from ``now``."""
    return sign(secret, EventPass(event, user, language, int(now) + ttl))


class EventPages:
    """The ``/duplicate`` route of a duplicate service's events (module docstring)."""

    def __init__(self, duplicate: EventSource) -> None:
        self.duplicate = duplicate
        self._closed_pages: dict[tuple[int, str], str] = {}
        """A closed event's page body by event and language: a closed event never
        changes, so it is scored and worded once, not at every request."""

    def install(self, app: web.Application) -> None:
        app.router.add_get(PATH, self.page)
        app.router.add_get(STYLE, self.style)

    @staticmethod
    def link(server: WebServer, event: int, user: int, language: str) -> str:
        """The page's address on ``server``: a member's for :data:`MEMBER_TTL`, the public
        one for :data:`EVENT_TTL`."""
        ttl = EVENT_TTL if user == PUBLIC else MEMBER_TTL
        key = event_key(server.config.secret, server.config.clock(), event, user, language,
                        ttl)
        return f"{server.base_url}{PATH}?k={key}"

    async def style(self, request: web.Request) -> web.Response:
        return web.Response(text=CSS, content_type="text/css")

    async def page(self, request: web.Request) -> web.Response:
        config = request.app[CONFIG]
        try:
            p = verify(config.secret, request.query.get("k"), config.clock())
        except BadKey as exc:
            t = translator("en")
            text = (t.gettext("This link has expired: ask for a new one.")
                    if str(exc) == "expired" else
                    t.gettext("This link does not open an event page here."))
            return self._html(t, t.gettext("Duplicate event"), f"<p>{_e(text)}</p>",
                              status=403)
        t = translator(p.language)
        event = await self.duplicate.store.get_duplicate_event(p.event)
        if event is None:
            return self._html(t, t.gettext("Duplicate event"), "<p>{}</p>".format(
                _e(t.gettext("This link does not open an event page here."))), status=404)
        if event.status == "closed":
            body = self._closed_pages.get((event.id, t.language))
            if body is None:
                body = self._closed_pages[(event.id, t.language)] = await self._closed(
                    event, t)
        else:
            body = await self._open(event, p.user, t)
        return self._html(t, event.name, body)

    def _html(self, t: Translator, title: str, body: str, status: int = 200
              ) -> web.Response:
        text = (f'<!doctype html><html lang="{_e(t.language)}"><head><meta charset="utf-8">'
                '<meta name="viewport" content="width=device-width, initial-scale=1">'
                f'<title>{_e(title)}</title><link rel="icon" href="data:,">'
                f'<link rel="stylesheet" href="{STYLE}"></head>'
                f"<body>{body}</body></html>")
        return web.Response(text=text, content_type="text/html", charset="utf-8",
                            status=status)

    def _head(self, event: DuplicateEvent, results: EventResults, t: Translator) -> str:
        return (f"<h1>{_e(event.name)}</h1>"
                f'<p class="muted">{_e(header_line(event.game, results.score, t))}<br>'
                f"{_e(rules_line(event.game, event.options, t))}</p>")

    async def _board(self, event: DuplicateEvent, board: DuplicateBoard,
                     travel: Traveller, method: str, hands: Sequence[Sequence[str]] | None,
                     ai: Sequence[str], t: Translator) -> str:
        lines = traveller_lines(travel, method, t)
        parts = [f'<section class="board"><h2>{_e(lines[0])}</h2>']
        group: list[str] = []
        for line in lines[1:]:
            if not line.startswith("  "):
                if group:
                    parts.append(_lines(group))
                    group = []
                parts.append(f"<h3>{_e(line)}</h3>")
            else:
                group.append(line)
        if group:
            parts.append(_lines(group))
        if hands:
            drawn = board_hands(directions_of(event), hands, board.dealer, t, event.game)
            heading = t.gettext("The hands as dealt:")
            parts.append(f"<h3>{_e(heading)}</h3>")
            parts.append(diagram_html(drawn, len(hands), lines[0]))
        if ai:
            parts.append(_lines(ai))
        parts.append("</section>")
        return "".join(parts)

    async def _closed(self, event: DuplicateEvent, t: Translator) -> str:
        """Everything: the event is closed (module docstring)."""
        results = await self.duplicate.results(event)
        score = results.score
        boards = {b.number: b for b in await self.duplicate.store.list_duplicate_boards(
            event.id)}
        # Translators: A heading of a duplicate event's page.
        ranking = t.gettext("Ranking")
        parts = [self._head(event, results, t), f"<h2>{_e(ranking)}</h2>",
                 _lines(ranking_lines(score, t), "ol")]
        for travel in score.travellers:
            board = boards[travel.board]
            ai = []
            for direction in sorted(travel.by_direction()):
                _, result = await self.duplicate.ai_result(event, board, direction)
                # Translators: The AI's result on a board from one direction, on the event's
                # page: {direction} "Direction 1", {result} "net +20".
                ai.append(t.gettext("AI from {direction}: {result}").format(
                    direction=direction_text(direction, t),
                    result=ai_text(result, score.method, t)))
            parts.append(await self._board(event, board, travel, score.method,
                                           results.hands.get(travel.board), ai, t))
        # Translators: A heading of a duplicate event's page: every entrant's score card.
        cards = t.gettext("Score cards")
        parts.append(f"<h2>{_e(cards)}</h2>")
        for row in score.ranking:
            ai_by_board = {}
            for card in row.boards:
                if card.scored is not None:
                    _, result = await self.duplicate.ai_result(
                        event, boards[card.board], card.scored.result.direction)
                    ai_by_board[card.board] = ai_text(result, score.method, t)
            parts.append(f"<h3>{_e(row.entrant)}</h3>")
            parts.append(_lines(card_lines(row, score, ai_by_board, t)))
        return "".join(parts)

    async def _open(self, event: DuplicateEvent, user: int, t: Translator) -> str:
        """Before the close: a member's finished boards only (module docstring)."""
        store = self.duplicate.store
        entrant = None if user == PUBLIC else await store.duplicate_entrant_of(event.id,
                                                                              user)
        head = f"<h1>{_e(event.name)}</h1>"
        if entrant is None:
            return head + "<p>{}</p>".format(_e(t.gettext(
                "The results are shown here once the event is closed.")))
        plays = [p for p in await store.list_duplicate_plays(event.id)
                 if p.entrant_id == entrant.id and p.status == "finished"]
        boards = {b.number: b for b in await store.list_duplicate_boards(event.id)}
        parts = [head, "<p>{}</p>".format(_e(t.gettext(
            "The boards you have finished so far; everything else is shown here once the "
            "event is closed.")))]
        for play in sorted(plays, key=lambda p: p.board):
            reveal = await self.duplicate.reveal(event.id, event.guild_id, user, play.board)
            travel = reveal.score.travellers[play.board - 1]
            own = next((r.result for r in travel.rows if r.result.entrant == entrant.name),
                       None)
            parts.append(await self._board(
                event, boards[play.board], travel, reveal.score.method, reveal.hands,
                [ai_line(reveal.ai_result, own, reveal.score.method, t)], t))
        return "".join(parts)
