"""``tricktable play GAME --web``: the terminal's match (one human against AI players)
served as a web page on this computer.

Everything but the drawing is the terminal's: :class:`bot.terminal.session.Session` opens
the store, creates or resumes the match (``--resume``/``--new`` and every other ``play``
flag mean what they mean there), follows the human's seat and writes the record at the
end. :class:`WebSession` starts the web server (:mod:`bot.web.server`) on ``--host`` and
``--port`` (``0``: a free port) once the table is open and prints, on standard output, a
sentence saying how to play and stop, then the page's URL (a link signed for the human's
seat) on a line of its own; the page plays through the same table service. A new match
waits for the page: it starts when the human's page joins, and its first dealer is chosen
so that the human decides first (not seat 0 dealing, which left the newcomer nothing to
decide in the first deal). At the match's end the page offers **Play again**: a new match
of the same game and players on the same page (a new table and key). The server serves
until the match is over and the page closed (or took its result without playing again),
or until Ctrl+C; either way the exit status is 0, the match stays resumable (the hint says
``--web``), and on an interruption the record of the deals finished so far is written (to
``--record PATH`` when given).
"""

from __future__ import annotations

import asyncio
import json
import time
from typing import IO, Any

from bot.i18n import N_
from bot.service import LobbyError, TableService
from bot.terminal.config import PlayConfig
from bot.terminal.session import TERMINAL_USER, Session, TableModel
from bot.web import links
from bot.web.config import WebConfig
from bot.web.server import WebServer
from bot.words.choices import Choices
from games.registry import GAMES
from storage import TerminalLocation

LOCAL_TTL = 30 * 24 * 3600
"""A local link works for the life of the process (its secret is made per process)."""
GOODBYE_WAIT = 5.0
"""Seconds the server waits, once the match is over, for the pages to take the result."""
OPEN_PAGE = N_("Play in your browser: open the address below. Press Ctrl+C to stop; "
               "`{command}` continues the match.")


class WebFront:
    """The session's front end when the page does the drawing: it prints notices and the
    result, and leaves every decision to the page."""

    def __init__(self, stdout: IO[str]) -> None:
        self.stdout = stdout
        self.config: WebConfig | None = None

    def say(self, text: str) -> None:
        self.stdout.write(text + "\n")
        self.stdout.flush()

    def changed(self, model: TableModel) -> None:
        pass

    def notice(self, text: str) -> None:
        self.say(text)

    async def your_turn(self, model: TableModel, choices: Choices) -> bool:
        return True  # the page chooses

    async def deal_over(self, model: TableModel, lines: list[str]) -> None:
        pass

    async def match_over(self, model: TableModel, lines: list[str]) -> None:
        """Wait until the pages took the result (each closes its socket after it), then
        print the result."""
        end = time.monotonic() + GOODBYE_WAIT
        while self.config is not None and self.config.sockets and time.monotonic() < end:
            await asyncio.sleep(0.05)
        for line in lines:
            self.say(line)


class WebSession(Session):
    """A terminal session whose table is served as a web page (module docstring)."""

    def __init__(self, cfg: PlayConfig, front: WebFront, host: str, port: int) -> None:
        super().__init__(cfg, front)
        self.web_front = front
        self.host = host
        self.port = port
        self.server: WebServer | None = None
        self.table_id: int | None = None
        self.config: WebConfig | None = None
        self._waiting = False
        """Whether the match of the table waits for the page to start."""
        self._next: asyncio.Queue[int] = asyncio.Queue()
        """New tables started by **Play again**."""

    def resume_command(self) -> str:
        return f"tricktable play {self.cfg.game} --web --resume"

    def _first_dealer(self, players: int, seat: int) -> int:
        """The first dealer that makes the human the first to decide (the game's own order:
        its first deal is tried with each dealer), else the seat before the human's."""
        info = GAMES[self.cfg.game]
        for dealer in range(players):
            if dealer == seat:
                continue
            match = info.match_type(self.cfg.options or {}, players, dealer, seed="probe")
            if seat in match.start_deal().to_act:
                return dealer
        return (seat - 1) % players

    async def _start(self, service: TableService, table_id: int) -> None:
        self._waiting = True  # started when the page joins (:meth:`_loop`)

    async def _page_joined(self, config: WebConfig, table_id: int) -> None:
        """Wait until the human's page has a socket at ``table_id``."""
        joined = asyncio.Event()

        def changed(table: int) -> None:
            if table == table_id and TERMINAL_USER in config.presence.users(table):
                joined.set()

        config.presence.on_change = changed
        changed(table_id)
        await joined.wait()

    async def again(self, table: int, user: int) -> str | None:
        """**Play again**: a new match like the one just over, started at once (the page
        is there), followed by :meth:`_loop`; the key of the human's seat at it."""
        service, config = self.service, self.config
        if service is None or config is None or user != TERMINAL_USER:
            return None
        try:
            new = await self._create(service, TerminalLocation(f"play:{self.cfg.game}"))
            await service.start_match(new)
        except LobbyError:
            return None
        self._waiting = False
        self._next.put_nowait(new)
        return links.issue(config.secret, new, TERMINAL_USER, "seat", time.time(), LOCAL_TTL)

    async def _loop(self, service: TableService, table_id: int) -> int:
        self.table_id = table_id
        lang = self.t.language

        async def language(user: int) -> str:
            return lang

        config = WebConfig(secret=links.secret_from(), language=language, again=self.again)
        self.web_front.config = self.config = config
        self.server = WebServer(service, config, host=self.host, port=self.port)
        try:
            await self.server.start()
        except OSError as exc:
            self.front.notice(f"tricktable play: --web: {exc.strerror or exc}")
            return 2
        key = links.issue(config.secret, table_id, TERMINAL_USER, "seat", time.time(),
                          LOCAL_TTL)
        self.web_front.say(self.t.gettext(OPEN_PAGE).format(command=self.resume_command()))
        self.web_front.say(f"{self.server.base_url}/#k={key}")
        try:
            if self._waiting:
                await self._page_joined(config, table_id)
                self._waiting = False
                await service.start_match(table_id)
            while True:
                status = await super()._loop(service, table_id)
                model = self.model
                if model is None or not model.over:
                    return status
                new = await self._played_again(config)
                if new is None or not self._adopt(service, new):
                    return status
                table_id = self.table_id = new
        except asyncio.CancelledError:  # Ctrl+C: keep what was played, then stop
            await self.save_progress()
            raise
        finally:
            await self.server.stop()

    async def _played_again(self, config: WebConfig) -> int | None:
        """After a match's end: the new table when the page asks to play again, None once
        no page is open any more."""
        while True:
            if not self._next.empty():
                return self._next.get_nowait()
            if not config.sockets:
                return None
            try:
                return await asyncio.wait_for(self._next.get(), 0.1)
            except TimeoutError:
                continue

    async def save_progress(self) -> None:
        """After an interruption: write the record of the deals finished so far."""
        service, table_id = self.service, self.table_id
        if (service is None or table_id is None or not service.holds(table_id)
                or service.info(table_id).status != "playing"):
            return  # nothing played yet (the match waited for the page)
        record: dict[str, Any] = await service.record(table_id)
        finished = service.info(table_id).deal
        record = {**record, "deals": list(record.get("deals", []))[:finished]}
        if not record["deals"]:
            return
        path = self.cfg.record_path(table_id)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(json.dumps(record, indent=1, ensure_ascii=False) + "\n",
                            encoding="utf-8")
        except OSError as exc:
            self.web_front.say(self.t.gettext(
                "The record could not be written to {path}: {error}.").format(
                    path=path, error=exc.strerror))
            return
        self.web_front.say(self.t.gettext("Record saved: {path}").format(
            path=path.resolve()))


def serve(cfg: PlayConfig, host: str, port: int, stdout: IO[str]) -> int:
    """Run ``play --web`` on ``host`` and ``port`` (checked by :mod:`bot.play.cli`; module
    docstring); returns the exit status."""
    front = WebFront(stdout)
    session = WebSession(cfg, front, host, port)
    try:
        status = asyncio.run(session.run())
    except KeyboardInterrupt:
        front.say(session.saved_text())
        return 0
    return status
