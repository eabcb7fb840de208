"""Fixtures for end-to-end tests of the Discord adapter against the fake Discord
(``tests/bot/fakediscord``; guide: docs/testing-discord.md).

* ``fake_discord`` — a :class:`fakediscord.Harness`: a fake Discord API and gateway on
  127.0.0.1 (random port) with a guild "Test Club" and a channel ``#cards``, discord.py
  pointed at it for the duration of the test. Start bots with
  ``await fake_discord.start_bot(bot)``; make people with ``fake_discord.user("alice")``.
  At teardown the bots are closed, discord.py's URLs restored, and the test fails if the
  bot called a route the fake does not know or logged an error no test took
  (``fake_discord.strict = False`` turns that off).
* ``fake_discord_options`` — keyword arguments for :class:`fakediscord.FakeDiscord`
  (``shard_count``, ``privileged_intents``, ``echo_messages``, ``token``, ``bot_name``);
  override it with ``@pytest.mark.parametrize("fake_discord_options", [{...}])``.

Everything is function-scoped: each test gets its own server, world and event loop.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest
from fakediscord import FakeDiscord, Harness, pointed_at


@pytest.fixture
def fake_discord_options() -> dict[str, Any]:
    return {}


@pytest.fixture
async def fake_discord(fake_discord_options: dict[str, Any]) -> AsyncIterator[Harness]:
    server = FakeDiscord(**fake_discord_options)
    await server.start()
    try:
        with pointed_at(server):
            harness = Harness(server)
            try:
                yield harness
            finally:
                await harness.close()
    finally:
        await server.close()
