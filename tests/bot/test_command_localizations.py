"""The whole slash command tree, built as ``tricktable sync`` builds it and translated into
every language of the catalogs, keeps Discord's rules (``bot.discord_bot.command_rules``):
names Discord accepts, no two siblings with one name in any language, descriptions and
choices within 100 characters, choices distinct. Discord localizes commands only for its own
app languages (of ours, Indonesian); the Somali and Swahili command texts are held to the
same rules by giving them in Indonesian's place.

The errors the translation review found (``/duplicate list`` and ``/duplicate enter`` both
``daftar``) and the others Discord refuses are brought back into the real tree's payloads
to show the check finds them.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any

import discord
import pytest
from discord import app_commands

from bot.app import create_bot
from bot.discord_bot.command_rules import command_problems
from bot.discord_bot.languages import CommandTexts
from bot.i18n import SOURCE_LANGUAGE, SUPPORTED
from bot.settings import Settings

LANGUAGES = [c for c in SUPPORTED if c != SOURCE_LANGUAGE]
ID = discord.Locale.indonesian.value


class _Locale:
    """A stand-in for a Discord locale whose value is one of our language codes."""

    def __init__(self, value: str) -> None:
        self.value = value


class SpeakingAsIndonesian(CommandTexts):
    """The adapter's command translator, answering Indonesian clients in ``language``."""

    def __init__(self, language: str) -> None:
        self.language = language

    async def translate(self, string: app_commands.locale_str, locale: discord.Locale,
                        context: app_commands.TranslationContextTypes) -> str | None:
        if locale is not discord.Locale.indonesian:
            return None
        return await super().translate(string, _Locale(self.language),  # type: ignore[arg-type]
                                       context)


@pytest.fixture(scope="module")
def payloads(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[dict[str, Any]]]:
    """Every top-level command's sync payload, per language (given as the Indonesian
    localization)."""
    import asyncio

    folder = tmp_path_factory.mktemp("commands")

    async def build() -> dict[str, list[dict[str, Any]]]:
        settings = Settings(token="unused", database_url=f"sqlite:///{folder / 'sync.db'}")
        bot = create_bot(settings, sync_only=True)
        async with bot:
            await bot.setup_hook()
            commands = bot.tree.get_commands()
            assert {c.name for c in commands} >= {"table", "duplicate", "league", "rules"}
            return {language: [await c.get_translated_payload(bot.tree,
                                                              SpeakingAsIndonesian(language))
                               for c in commands]
                    for language in LANGUAGES}

    return asyncio.run(build())


def _walk(items: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    for item in items:
        yield item
        yield from _walk(item.get("options") or [])


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_localization_of_the_command_tree_keeps_discords_rules(
        payloads: dict[str, list[dict[str, Any]]], language: str) -> None:
    tree = payloads[language]
    localized = [item for item in _walk(tree) if (item.get("name_localizations") or {}).get(ID)]
    assert localized, "the catalog translates the command names"
    assert command_problems(tree) == []


def test_the_real_translator_localizes_for_indonesian_clients_only() -> None:
    """What the adapter syncs: the Indonesian localization, no Somali or Swahili locale."""
    texts = CommandTexts()
    string = app_commands.locale_str("enter")
    context = app_commands.TranslationContext(
        app_commands.TranslationContextLocation.command_name, None)
    import asyncio

    assert asyncio.run(texts.translate(string, discord.Locale.indonesian, context)) == "gabung"
    assert asyncio.run(texts.translate(string, discord.Locale.american_english, context)) is None


def _find(tree: list[dict[str, Any]], *path: str) -> dict[str, Any]:
    items = tree
    found: dict[str, Any] = {}
    for name in path:
        found = next(item for item in items if item["name"] == name)
        items = found.get("options") or []
    return found


def _localize(item: dict[str, Any], key: str, text: str) -> None:
    item.setdefault(f"{key}_localizations", {})[ID] = text


def _broken(tree: list[dict[str, Any]], how: str) -> list[dict[str, Any]]:
    tree = copy.deepcopy(tree)
    if how == "siblings":  # id-2: /duplicate list and /duplicate enter both daftar
        _localize(_find(tree, "duplicate", "list"), "name", "daftar")
        _localize(_find(tree, "duplicate", "enter"), "name", "daftar")
    elif how == "upper case":
        _localize(_find(tree, "table"), "name", "Meja")
    elif how == "space":
        _localize(_find(tree, "table", "new"), "name", "meja baru")
    elif how == "long name":
        _localize(_find(tree, "rules"), "name", "a" * 33)
    elif how == "long description":
        _localize(_find(tree, "table", "new"), "description", "x" * 101)
    elif how == "long choice":
        game = _find(tree, "table", "new", "game")
        _localize(game["choices"][0], "name", "y" * 101)
    elif how == "same choices":
        game = _find(tree, "table", "new", "game")
        _localize(game["choices"][0], "name", "Sama")
        _localize(game["choices"][1], "name", "Sama")
    elif how == "option clash":
        options = _find(tree, "table", "new")["options"]
        _localize(options[0], "name", "opsi")
        _localize(options[1], "name", "opsi")
    elif how == "top-level clash":
        _localize(_find(tree, "rules"), "name", "meja")
        _localize(_find(tree, "table"), "name", "meja")
    return tree


BROKEN = {
    "siblings": "/duplicate (id): options 'list' and 'enter' are both 'daftar'",
    "upper case": "/table (id): name 'Meja' is not 1-32 lower-case",
    "space": "/table new (id): name 'meja baru' is not",
    "long name": "/rules (id): name 'aaaa",
    "long description": "/table new (id): description has 101 characters",
    "long choice": "Turub\" (id): name has 101 characters",
    "same choices": "/table new game (id): choices",
    "option clash": "/table new (id): options 'game' and 'options' are both 'opsi'",
    "top-level clash": "the commands (id): commands",
}


@pytest.mark.parametrize("how", list(BROKEN))
def test_a_localization_discord_would_refuse_is_found(
        payloads: dict[str, list[dict[str, Any]]], how: str) -> None:
    found = command_problems(_broken(payloads["id"], how))
    assert any(problem.startswith(BROKEN[how]) or BROKEN[how] in problem
               for problem in found), found


def test_the_check_reads_the_english_names_too() -> None:
    tree = [{"name": "table", "description": "", "type": 1, "options": [
        {"name": "New", "description": "d", "type": 1, "options": []}]}]
    found = command_problems(tree)
    assert "/table: description has 0 characters, Discord takes 1 to 100" in found
    assert any(p.startswith("/table New: name 'New'") for p in found)

