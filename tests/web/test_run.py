"""``tricktable run`` with ``TRICKTABLE_WEB_PORT``: the variables and the link key kept in
the database (links survive a restart); the bot serving the page from its ``setup_hook`` is
tested with the bot (``tests/bot/test_bot_composition.py``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.web import links
from bot.web.run import WebSettings, web_secret
from storage import open_store


def test_the_variables() -> None:
    assert WebSettings.from_env({}) is None
    assert WebSettings.from_env({"TRICKTABLE_WEB_PORT": "8080"}) == WebSettings(8080)
    assert WebSettings.from_env({"TRICKTABLE_WEB_PORT": "0", "TRICKTABLE_WEB_HOST": "::1",
                                 "TRICKTABLE_WEB_URL": "https://t.example/"}) == \
        WebSettings(0, "::1", "https://t.example/")
    for bad in ({"TRICKTABLE_WEB_PORT": "http"}, {"TRICKTABLE_WEB_PORT": "99999"},
                {"TRICKTABLE_WEB_PORT": "1", "TRICKTABLE_WEB_URL": "javascript:x"}):
        with pytest.raises(ValueError, match="TRICKTABLE_WEB_"):
            WebSettings.from_env(bad)


async def test_the_link_key_is_made_once_and_kept(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'k.db'}"
    async with await open_store(url) as store:
        first = await web_secret(store, {})
    async with await open_store(url) as store:
        assert await web_secret(store, {}) == first
        assert await web_secret(store, {links.SECRET_ENV: "e" * 32}) == b"e" * 32
    assert len(first) >= 32


async def test_run_refuses_a_bad_web_port(tmp_path: Path) -> None:
    import asyncio
    import os
    import sys

    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot.cli", "run", stderr=asyncio.subprocess.PIPE,
        env={**os.environ, "DISCORD_TOKEN": "x", "TRICKTABLE_WEB_PORT": "web",
             "DATABASE_URL": f"sqlite:///{tmp_path / 'r.db'}"})
    _, err = await asyncio.wait_for(proc.communicate(), 60)
    assert proc.returncode == 2 and b"TRICKTABLE_WEB_PORT must be a port" in err
