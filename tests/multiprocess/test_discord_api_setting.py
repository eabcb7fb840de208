"""``TRICKTABLE_DISCORD_API``: the base URL of Discord's API (a proxy, or a test server),
read and checked like every setting; the multi-process tests use it for real."""

from __future__ import annotations

import pytest

from bot.settings import Settings, SettingsError


def test_the_discord_api_defaults_to_discords_own() -> None:
    assert Settings.from_env({}).discord_api is None
    assert Settings.from_env({"TRICKTABLE_DISCORD_API": "  "}).discord_api is None


def test_the_discord_api_url_is_read_without_a_trailing_slash() -> None:
    env = {"TRICKTABLE_DISCORD_API": " https://proxy.example:8443/api/v10/ "}
    assert Settings.from_env(env).discord_api == "https://proxy.example:8443/api/v10"


@pytest.mark.parametrize("value", ["discord.com/api", "ftp://proxy/api", "http://"])
def test_a_discord_api_that_is_no_http_url_is_refused(value: str) -> None:
    with pytest.raises(SettingsError, match="TRICKTABLE_DISCORD_API must be an http"):
        Settings.from_env({"TRICKTABLE_DISCORD_API": value})


def test_tricktable_run_refuses_a_bad_discord_api(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from bot.cli import main

    monkeypatch.setenv("DISCORD_TOKEN", "not-a-real-token")
    monkeypatch.setenv("TRICKTABLE_DISCORD_API", "discord.com/api")
    assert main(["run"]) == 2
    err = capsys.readouterr().err
    assert "TRICKTABLE_DISCORD_API must be an http" in err
    assert "not-a-real-token" not in err
