"""The ``web`` fixture (tests/helpers/webtable.py)."""

from webtable import web

__all__ = ["web"]
