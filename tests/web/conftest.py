"""The ``web`` fixture (tests/helpers/webtable.py), and every frame a web test's server
sends held to the published protocol (``bot/web/protocol.schema.json``)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from webtable import nonconforming, web

from bot.web.viewer import Viewer

__all__ = ["web"]

@pytest.fixture(autouse=True)
def frames_conform(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Check every frame a viewer sends in the test against the published schema (the
    committed file, as the page and other clients read it); the test fails on the first
    frame that does not conform."""
    bad: list[str] = []
    send = Viewer._send_text

    async def checked(self: Viewer, text: str | None) -> None:
        if text is not None:
            found = nonconforming(text)
            if found:
                bad.append(f"{text[:200]}: {found[:3]}")
        await send(self, text)

    monkeypatch.setattr(Viewer, "_send_text", checked)
    yield bad
    assert not bad, "frames outside bot/web/protocol.schema.json:\n" + "\n".join(bad)
