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


def test_unsafe_web_settings_are_refused_before_login() -> None:
    """Issue 44, item 4 (W-P7, N4): a short or repetitive secret, an http:// URL with the
    Activity on, a wildcard address without a proxy note: one line each naming the
    variable, the secret's value never in it."""
    port = {"TRICKTABLE_WEB_PORT": "8080"}
    activity = {"DISCORD_CLIENT_SECRET": "s3cret"}
    refused = {
        "TRICKTABLE_WEB_SECRET must be at least 32": {**port, "TRICKTABLE_WEB_SECRET":
                                                      "Sh0rtS3cr"},
        "TRICKTABLE_WEB_SECRET must hold at least 8 different": {
            **port, "TRICKTABLE_WEB_SECRET": "a" * 40},
        "TRICKTABLE_WEB_URL must be an https:// address when the Discord Activity": {
            **port, **activity, "TRICKTABLE_WEB_URL": "http://tables.example.org"},
        "TRICKTABLE_WEB_HOST=0.0.0.0 listens on every interface": {
            **port, "TRICKTABLE_WEB_HOST": "0.0.0.0"},
        "TRICKTABLE_WEB_HOST=:: listens": {**port, "TRICKTABLE_WEB_HOST": "::"},
        "TRICKTABLE_WEB_PROXY must be": {**port, "TRICKTABLE_WEB_PROXY": "yes"},
    }
    for message, env in refused.items():
        with pytest.raises(ValueError, match=message.replace("(", r"\(")) as caught:
            WebSettings.from_env(env)
        text = str(caught.value)
        assert "\n" not in text and "Sh0rtS3cr" not in text and "aaaa" not in text
    # the same, said: behind a proxy, or reached directly; https with the Activity; a
    # loopback http URL for trying the Activity on one machine
    assert WebSettings.from_env({**port, "TRICKTABLE_WEB_HOST": "0.0.0.0",
                                 "TRICKTABLE_WEB_PROXY": "forwarded"}) == \
        WebSettings(8080, "0.0.0.0", proxy="forwarded")
    assert WebSettings.from_env({**port, "TRICKTABLE_WEB_HOST": "0.0.0.0",
                                 "TRICKTABLE_WEB_PROXY": "none"}) == \
        WebSettings(8080, "0.0.0.0", proxy="none")
    assert WebSettings.from_env({**port, **activity, "TRICKTABLE_WEB_URL": "https://t.example",
                                 "TRICKTABLE_WEB_SECRET": "kQ4-vZ9_pL2mX7rT" * 2}) is not None
    assert WebSettings.from_env({**port, **activity,
                                 "TRICKTABLE_WEB_URL": "http://127.0.0.1:8080"}) is not None
    assert WebSettings.from_env({**port, "TRICKTABLE_WEB_HOST": "192.0.2.7"}) == \
        WebSettings(8080, "192.0.2.7", proxy="none")


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


async def test_run_refuses_a_short_secret_in_one_line(tmp_path: Path) -> None:
    """W-P7: found before Discord is asked anything (the token is junk, so a login would
    fail otherwise), one line, exit 2, the value not echoed."""
    import asyncio
    import os
    import sys

    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot.cli", "run", stderr=asyncio.subprocess.PIPE,
        env={**os.environ, "DISCORD_TOKEN": "x", "TRICKTABLE_WEB_PORT": "0",
             "TRICKTABLE_WEB_SECRET": "Sh0rtS3cr",
             "DATABASE_URL": f"sqlite:///{tmp_path / 'r.db'}"})
    _, err = await asyncio.wait_for(proc.communicate(), 60)
    lines = [line for line in err.decode().splitlines()
             if line.strip() and "starting (database" not in line]
    assert proc.returncode == 2, err.decode()
    assert len(lines) == 1 and "TRICKTABLE_WEB_SECRET must be at least 32" in lines[0]
    assert "Sh0rtS3cr" not in err.decode() and "Traceback" not in err.decode()
