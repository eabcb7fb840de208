"""Who reads which language: Discord servers, players, the CLI (bot.i18n.languages)."""

from __future__ import annotations

import pytest

from bot.i18n import (
    SUPPORTED,
    UnknownLanguage,
    cli_language,
    match_language,
    private_language,
    public_language,
    system_language,
)


@pytest.mark.parametrize(
    ("tag", "expected"),
    [
        ("en-US", "en"),
        ("en-GB", "en"),
        ("id", "id"),
        ("ID", "id"),
        ("in", "id"),  # the legacy ISO 639 code of Indonesian
        ("so_SO.UTF-8", "so"),
        ("sw_KE@euro", "sw"),
        ("sw-TZ", "sw"),
        (" so ", "so"),
        ("fr", None),
        ("pt-BR", None),
        ("C", None),
        ("C.UTF-8", None),
        ("POSIX", None),
        ("", None),
        (None, None),
    ],
)
def test_match_language(tag: str | None, expected: str | None) -> None:
    assert match_language(tag) == expected


def test_public_language_prefers_the_server_setting() -> None:
    assert public_language("so", "id") == "so"
    assert public_language(None, "id") == "id"  # the server's Discord preferred locale
    assert public_language(None, "en-US") == "en"
    assert public_language(None, "fr") == "en"
    assert public_language(None, None) == "en"
    assert public_language("xx", "sw") == "sw"  # a stored code no longer supported


def test_private_language_order() -> None:
    # The player's own choice wins over everything.
    assert private_language("sw", "id", "so") == "sw"
    # Else a supported non-English client language.
    assert private_language(None, "id", "so") == "id"
    # An English (Discord's default) or unsupported client defers to the server.
    assert private_language(None, "en-US", "so") == "so"
    assert private_language(None, "fr", "sw") == "sw"
    # No interaction (a DM at a deal's start): choice, else the server.
    assert private_language(None, None, "id") == "id"
    assert private_language("en", None, "so") == "en"


@pytest.mark.parametrize(
    ("environ", "expected"),
    [
        ({}, "en"),
        ({"LANG": "so_SO.UTF-8"}, "so"),
        ({"LANG": "fr_FR.UTF-8"}, "en"),
        ({"LANG": "C.UTF-8"}, "en"),
        ({"LANG": "en_US.UTF-8", "LC_MESSAGES": "sw_TZ.UTF-8"}, "sw"),
        ({"LC_MESSAGES": "sw_TZ", "LC_ALL": "id_ID.UTF-8"}, "id"),
        ({"LANG": "en_US.UTF-8", "LANGUAGE": "fr:id:en"}, "id"),
        ({"LANG": "sw_KE.UTF-8", "LANGUAGE": "fr:de"}, "sw"),
        # GNU gettext ignores LANGUAGE under the C locale.
        ({"LANG": "C", "LANGUAGE": "so"}, "en"),
        ({"LC_ALL": "", "LANG": "id_ID"}, "id"),
    ],
)
def test_system_language(environ: dict[str, str], expected: str) -> None:
    assert system_language(environ) == expected


def test_cli_language_order_and_refusals() -> None:
    env = {"TRICKTABLE_LANG": "sw", "LANG": "so_SO.UTF-8"}
    assert cli_language("id", env) == "id"
    assert cli_language(None, env) == "sw"
    assert cli_language(None, {"LANG": "so_SO.UTF-8"}) == "so"
    assert cli_language(None, {"TRICKTABLE_LANG": " ", "LANG": "so_SO"}) == "so"
    assert cli_language(None, {}) == "en"
    with pytest.raises(UnknownLanguage) as refused:
        cli_language("klingon", env)
    assert refused.value.given == "klingon"
    assert all(code in str(refused.value) for code in SUPPORTED)
    with pytest.raises(UnknownLanguage):
        cli_language(None, {"TRICKTABLE_LANG": "fr"})


def test_discord_client_locales() -> None:
    """Of Discord's client locales, English ones and Indonesian are ours (no Somali or
    Swahili client exists), read from ``str(discord.Locale)`` as the adapter passes them."""
    import discord

    matched = {str(loc): match_language(str(loc)) for loc in discord.Locale}
    assert {tag: lang for tag, lang in matched.items() if lang} == {
        "en-US": "en", "en-GB": "en", "id": "id"
    }
