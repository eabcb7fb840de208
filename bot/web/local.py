"""``tricktable play GAME --web``: the terminal's match (one human against AI players)
served as a web page on this computer.

Everything but the drawing is the terminal's: :class:`bot.terminal.session.Session` opens
the store, creates or resumes the match (``--resume``/``--new`` and every other ``play``
flag mean what they mean there), follows the human's seat and writes the record at the
end. :class:`WebSession` starts the web server (:mod:`bot.web.server`) on ``--host`` and
``--port`` (``0``: a free port) once the table is open and prints the page's URL (a link
signed for the human's seat) on standard output; the page plays through the same table
service. It serves until the match is over and the page got its result, or until Ctrl+C;
either way the exit status is 0, the match stays resumable, and on an interruption the
record of the deals finished so far is written (to ``--record PATH`` when given).
"""

from __future__ import annotations

import asyncio
import json
import time
from typing import IO, Any

from bot.service import TableService
from bot.terminal.choices import Choices
from bot.terminal.config import PlayConfig
from bot.terminal.session import TERMINAL_USER, Session, TableModel
from bot.web import links
from bot.web.config import WebConfig
from bot.web.server import WebServer

LOCAL_TTL = 30 * 24 * 3600
"""A local link works for the life of the process (its secret is made per process)."""
GOODBYE_WAIT = 5.0
"""Seconds the server waits, once the match is over, for the pages to take the result."""


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

    async def _loop(self, service: TableService, table_id: int) -> int:
        self.table_id = table_id
        lang = self.t.language

        async def language(user: int) -> str:
            return lang

        config = WebConfig(secret=links.secret_from(), language=language)
        self.web_front.config = config
        self.server = WebServer(service, config, host=self.host, port=self.port)
        try:
            await self.server.start()
        except OSError as exc:
            self.front.notice(f"tricktable play: --web: {exc.strerror or exc}")
            return 2
        key = links.issue(config.secret, table_id, TERMINAL_USER, "seat", time.time(),
                          LOCAL_TTL)
        self.web_front.say(f"{self.server.base_url}/#k={key}")
        try:
            return await super()._loop(service, table_id)
        except asyncio.CancelledError:  # Ctrl+C: keep what was played, then stop
            await self.save_progress()
            raise
        finally:
            await self.server.stop()

    async def save_progress(self) -> None:
        """After an interruption: write the record of the deals finished so far."""
        service, table_id = self.service, self.table_id
        if service is None or table_id is None or not service.holds(table_id):
            return
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
    """Run ``play --web`` on ``host`` and ``port`` (checked by :mod:`bot.web.cli`; module
    docstring); returns the exit status."""
    front = WebFront(stdout)
    session = WebSession(cfg, front, host, port)
    try:
        status = asyncio.run(session.run())
    except KeyboardInterrupt:
        front.say(session.saved_text())
        return 0
    return status
