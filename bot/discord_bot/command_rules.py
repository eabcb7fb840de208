"""Discord's rules for slash commands, applied to the payloads a sync sends — the English
names and texts and every localization — so a translation Discord would refuse (or show as
two identical subcommands) is found before ``/admin sync`` or ``tricktable sync``.

The rules (Discord's application command documentation):

* a name (command, group, subcommand, option) matches ``^[-_\\p{L}\\p{N}]{1,32}$`` and is
  lower case, in English and in every localization;
* siblings — the top-level commands, the subcommands of a group, the options of a command —
  never share a name in any language: in a locale a sibling shows its localization, else its
  English name;
* a description has 1 to 100 characters, in English and in every localization;
* at most 25 options and 25 choices; a choice's name has 1 to 100 characters (localized
  too), a string value at most 100, and the choices of an option have distinct names in
  every language.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, Final

NAME: Final = re.compile(r"[-_\w]{1,32}")
"""``^[-_\\p{L}\\p{N}]{1,32}$``: Python's ``\\w`` is a Unicode letter, digit or ``_``."""
DESCRIPTION_LIMIT: Final = 100
CHOICE_LIMIT: Final = 100
MAX_OPTIONS: Final = 25
MAX_CHOICES: Final = 25
_GROUPS: Final = (1, 2)
"""Option types that are subcommands and subcommand groups."""

Payload = Mapping[str, Any]


def _locales(items: Sequence[Payload], key: str) -> set[str]:
    return {locale for item in items for locale in (item.get(key) or {})}


def _shown(item: Payload, locale: str | None, key: str = "name") -> str:
    """What a client of ``locale`` (None: the default) shows of ``item[key]``."""
    if locale is not None:
        localized = (item.get(f"{key}_localizations") or {}).get(locale)
        if localized:
            return str(localized)
    return str(item.get(key, ""))


def _name_problems(item: Payload, where: str) -> Iterator[str]:
    names = [(None, item.get("name"))]
    names += sorted((item.get("name_localizations") or {}).items())
    for locale, name in names:
        label = f"{where} ({locale})" if locale else where
        if not isinstance(name, str) or not NAME.fullmatch(name) or name != name.lower():
            yield f"{label}: name {name!r} is not 1-32 lower-case letters, digits, - or _"


def _text_problems(item: Payload, key: str, limit: int, where: str) -> Iterator[str]:
    texts = [(None, item.get(key))]
    texts += sorted((item.get(f"{key}_localizations") or {}).items())
    for locale, text in texts:
        label = f"{where} ({locale})" if locale else where
        if not isinstance(text, str) or not 1 <= len(text) <= limit:
            size = len(text) if isinstance(text, str) else 0
            yield f"{label}: {key} has {size} characters, Discord takes 1 to {limit}"


def _clashes(siblings: Sequence[Payload], where: str, what: str) -> Iterator[str]:
    """Siblings that share a name in some language."""
    for locale in [None, *sorted(_locales(siblings, "name_localizations"))]:
        seen: dict[str, str] = {}
        for item in siblings:
            shown = _shown(item, locale)
            if shown in seen:
                label = f" ({locale})" if locale else ""
                yield (f"{where}{label}: {what} {seen[shown]!r} and {item.get('name')!r} are"
                       f" both {shown!r}")
            else:
                seen[shown] = str(item.get("name"))


def _choice_problems(option: Payload, where: str) -> Iterator[str]:
    choices: list[Payload] = list(option.get("choices") or [])
    if len(choices) > MAX_CHOICES:
        yield f"{where}: {len(choices)} choices, Discord takes {MAX_CHOICES}"
    for choice in choices:
        label = f"{where} choice {choice.get('name')!r}"
        yield from _text_problems(choice, "name", CHOICE_LIMIT, label)
        value = choice.get("value")
        if isinstance(value, str) and len(value) > CHOICE_LIMIT:
            yield f"{label}: value has {len(value)} characters, Discord takes {CHOICE_LIMIT}"
    yield from _clashes(choices, where, "choices")


def _command_problems(item: Payload, where: str) -> Iterator[str]:
    yield from _name_problems(item, where)
    yield from _text_problems(item, "description", DESCRIPTION_LIMIT, where)
    options: list[Payload] = list(item.get("options") or [])
    if len(options) > MAX_OPTIONS:
        yield f"{where}: {len(options)} options, Discord takes {MAX_OPTIONS}"
    yield from _clashes(options, where, "options")
    for option in options:
        inner = f"{where} {option.get('name')}"
        if option.get("type") in _GROUPS:
            yield from _command_problems(option, inner)
        else:
            yield from _name_problems(option, inner)
            yield from _text_problems(option, "description", DESCRIPTION_LIMIT, inner)
            yield from _choice_problems(option, inner)


def command_problems(payloads: Sequence[Payload]) -> list[str]:
    """Everything Discord would refuse (or show twice) in a sync's slash command payloads
    (``Command.get_translated_payload``: chat-input commands; other kinds are skipped)."""
    commands = [p for p in payloads if p.get("type", 1) == 1]
    found = list(_clashes(commands, "the commands", "commands"))
    for command in commands:
        found += _command_problems(command, f"/{command.get('name')}")
    return found
