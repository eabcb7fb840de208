"""Logging that keeps secrets.

* ``TRICKTABLE_LOG_LEVEL`` sets the level of the project's own loggers only
  (:data:`PROJECT_LOGGERS`); their DEBUG lines name tables, seats, event types and
  versions, never a seed, a hidden card, a token or an interaction token.
* Third-party loggers (:data:`LIBRARY_LOGGERS`: discord.py, the database drivers, the
  websocket and HTTP libraries) stay at WARNING: at DEBUG they log request bodies (hand
  DMs, private panels), gateway events (interaction tokens) and SQL parameters (the match
  seed). ``TRICKTABLE_LOG_LIBRARIES=DEBUG`` turns them up for a developer's machine — never
  in production.
* The bot token is redacted from every formatted line (:class:`RedactingFormatter`),
  exception messages, chained exceptions and tracebacks included; :class:`RedactToken`
  does the same as a filter for any handler.
"""

from __future__ import annotations

import logging
import sys
from typing import TextIO

from bot.settings import Settings

PROJECT_LOGGERS = ("bot", "games", "storage")
LIBRARY_LOGGERS = ("discord", "aiosqlite", "asyncpg", "websockets", "aiohttp")
REDACTED = "[redacted token]"
FORMAT = "%(asctime)s %(levelname)-7s %(name)s: %(message)s"


class RedactingFormatter(logging.Formatter):
    """A formatter whose output never holds ``token`` (the whole formatted text is
    redacted: message, arguments, exception text, chained exceptions, stack)."""

    def __init__(self, token: str | None, fmt: str = FORMAT) -> None:
        super().__init__(fmt)
        self.token = token

    def format(self, record: logging.LogRecord) -> str:
        text = super().format(record)
        return redact(text, self.token)

    def formatException(self, ei: object) -> str:
        return redact(super().formatException(ei), self.token)  # type: ignore[arg-type]


def redact(text: str, token: str | None) -> str:
    return text.replace(token, REDACTED) if token else text


class RedactToken(logging.Filter):
    """Redact the token from a record before any handler formats it: the message with
    its arguments, and the exception (chained ones and the traceback included)."""

    def __init__(self, token: str | None) -> None:
        super().__init__()
        self.token = token

    def filter(self, record: logging.LogRecord) -> bool:
        if not self.token:
            return True
        text = record.getMessage()
        if self.token in text:
            record.msg, record.args = redact(text, self.token), ()
        if record.exc_info and record.exc_info[1] is not None:
            formatted = logging.Formatter().formatException(record.exc_info)
            if self.token in formatted:
                record.exc_text = redact(formatted, self.token)
                record.exc_info = None
        if record.exc_text and self.token in record.exc_text:
            record.exc_text = redact(record.exc_text, self.token)
        if record.stack_info and self.token in record.stack_info:
            record.stack_info = redact(record.stack_info, self.token)
        return True


def configure_logging(settings: Settings, stream: TextIO | None = None) -> logging.Handler:
    """Log to ``stream`` (default stderr): the project's loggers at
    ``settings.log_level``, the libraries' at ``settings.log_libraries``, the token
    redacted from every line. Returns the handler (on the root logger)."""
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.setFormatter(RedactingFormatter(settings.token))
    handler.addFilter(RedactToken(settings.token))
    root = logging.getLogger()
    root.addHandler(handler)
    root.setLevel(logging.WARNING)
    for name in PROJECT_LOGGERS:
        logging.getLogger(name).setLevel(settings.log_level)
    for name in LIBRARY_LOGGERS:
        logging.getLogger(name).setLevel(settings.log_libraries)
    return handler
