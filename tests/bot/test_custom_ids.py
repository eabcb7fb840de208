"""The ``custom_id`` kinds (:class:`bot.discord_bot.ids.CustomIdKind`): unique prefixes, every
persistent component's template starts with one, and the module's table documents each."""

from __future__ import annotations

import importlib
import pkgutil
import re
from typing import Any

import discord

import bot.discord_bot
from bot.discord_bot import ids
from bot.discord_bot.ids import CustomIdKind, custom_id
from bot.discord_bot.router import AddAIButton, CardSelect, JoinButton
from bot.discord_bot.tables.card_select import SignalSelect
from bot.discord_bot.tables.options_panel import ValueSelect


def _dynamic_items() -> list[type[Any]]:
    """Every ``DynamicItem`` class defined in the Discord adapter, its modules all imported."""
    for module in pkgutil.walk_packages(bot.discord_bot.__path__, "bot.discord_bot."):
        importlib.import_module(module.name)
    found: list[type[Any]] = []
    todo: list[type[Any]] = list(discord.ui.DynamicItem.__subclasses__())
    while todo:
        cls = todo.pop()
        todo.extend(cls.__subclasses__())
        if cls.__module__.startswith("bot.discord_bot."):
            found.append(cls)
    return found


def _kind_of(template: str) -> CustomIdKind | None:
    return next((k for k in CustomIdKind if template.startswith(re.escape(k.value) + ":")),
                None)


def test_no_prefix_names_two_kinds() -> None:
    prefixes = [k.value + ":" for k in CustomIdKind]
    assert len(set(prefixes)) == len(prefixes)
    clashes = [(a, b) for a in prefixes for b in prefixes if a != b and b.startswith(a)]
    assert clashes == []


def test_every_dynamic_item_template_starts_with_a_kind() -> None:
    items = _dynamic_items()
    public = [c for c in items if not c.__name__.startswith("_")]
    templates = {c.__qualname__: c.__discord_ui_compiled_template__.pattern for c in public}
    assert {name: t for name, t in templates.items() if _kind_of(t) is None} == {}
    # every kind is parsed by some component (no kind left documented but unused)
    assert {_kind_of(t) for t in templates.values()} == set(CustomIdKind)
    # private bases are never registered: their template must not match a real id
    for base in (c for c in items if c.__name__.startswith("_")):
        assert base.__discord_ui_compiled_template__.fullmatch(
            custom_id(CustomIdKind.LOBBY, 1, 2, "join")) is None


def test_the_ids_built_are_the_ids_parsed() -> None:
    cases: list[tuple[type[Any], str]] = [
        (JoinButton, custom_id(CustomIdKind.LOBBY, 7, 3, "join")),
        (AddAIButton, custom_id(CustomIdKind.LOBBY, 7, 0, "ai:rules")),
        (CardSelect, custom_id(CustomIdKind.CARD_SELECT, 7, 3, "all")),
        (SignalSelect, custom_id(CustomIdKind.SIGNAL, 7, 3, "lead")),
        (ValueSelect, custom_id(CustomIdKind.OPTIONS, 7, 0, "set:trump"))]
    for item, cid in cases:
        assert item.__discord_ui_compiled_template__.fullmatch(cid), (item, cid)
    assert custom_id(CustomIdKind.LOBBY, 7, 3, "join") == "tt:l:7:3:join"


def test_the_module_docstring_documents_every_kind() -> None:
    doc = ids.__doc__ or ""
    missing = [k for k in CustomIdKind
               if f"``{k.value}``" not in doc or f"``{k.name}``" not in doc]
    assert missing == []
