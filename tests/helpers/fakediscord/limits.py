"""Discord's documented limits on what a bot sends, checked the way Discord checks them:
a violation is answered with HTTP 400 and the JSON error Discord uses (``50035 Invalid Form
Body`` with an ``errors`` tree naming the field, or ``50006 Cannot send an empty message``),
so an adapter that builds a 26-option select menu or a 2001-character message fails in the
tests exactly as it would in production.

Checked: message content (2000), embeds (10 per message; title 256, description 4096,
25 fields of 256/1024, footer 2048, author 256, 6000 characters in all), classic components
(at most 5 action rows; a row holds 1-5 buttons or exactly one select; custom_id 1-100 and
unique in the message; button label 80; string select 1-25 options with label/value/
description 100, placeholder 150, 0 <= min_values <= max_values <= 25 and max_values no more
than the options), Components V2 messages (no content or embeds, at most 40 components,
the same rules for the buttons and selects they contain), modals (title 45, custom_id 100,
1-5 top-level components) and application commands (name 1-32 lowercase, description
1-100, at most 25 options and choices, required options first; localized names and
descriptions too, and no two options sharing a name in any locale).
"""

from __future__ import annotations

import re
from typing import Any

from .models import MESSAGE_FLAG_COMPONENTS_V2, walk_components

SELECT_TYPES = (3, 5, 6, 7, 8)
_COMMAND_NAME = re.compile(r"^[-_'\w]{1,32}$")


class DiscordError(Exception):
    """An error answer of the fake API: HTTP ``status`` and Discord's JSON error body."""

    def __init__(self, status: int, code: int, message: str,
                 errors: dict[str, Any] | None = None) -> None:
        super().__init__(f"{status} {code} {message}")
        self.status = status
        self.body: dict[str, Any] = {"code": code, "message": message}
        if errors:
            self.body["errors"] = errors


class FormErrors:
    """Collects ``(path, code, message)`` and renders Discord's nested ``errors`` tree."""

    def __init__(self) -> None:
        self.items: list[tuple[tuple[str, ...], str, str]] = []

    def add(self, path: tuple[str | int, ...], code: str, message: str) -> None:
        self.items.append((tuple(str(p) for p in path), code, message))

    def max_length(self, path: tuple[str | int, ...], value: Any, limit: int) -> None:
        if isinstance(value, str) and len(value) > limit:
            self.add(path, "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length.")

    def length_between(self, path: tuple[str | int, ...], value: Any, low: int, high: int) -> None:
        if not isinstance(value, str) or not low <= len(value) <= high:
            self.add(path, "BASE_TYPE_BAD_LENGTH", f"Must be between {low} and {high} in length.")

    def raise_if_any(self) -> None:
        if not self.items:
            return
        tree: dict[str, Any] = {}
        for path, code, message in self.items:
            node = tree
            for part in path:
                node = node.setdefault(part, {})
            node.setdefault("_errors", []).append({"code": code, "message": message})
        raise DiscordError(400, 50035, "Invalid Form Body", tree)


def check_message(body: dict[str, Any], *, files: int, creating: bool) -> None:
    """Raise :class:`DiscordError` when a message body (create or edit) breaks a limit."""
    errors = FormErrors()
    content = body.get("content")
    if content is not None:
        errors.max_length(("content",), content, 2000)
    embeds = body.get("embeds") or []
    _check_embeds(errors, embeds)
    flags = int(body.get("flags") or 0)
    components = body.get("components") or []
    if flags & MESSAGE_FLAG_COMPONENTS_V2:
        for key, value in (("content", content), ("embeds", embeds)):
            if value:
                errors.add((key,), "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
                           f"The '{key}' field cannot be used when using "
                           "MessageFlags.IS_COMPONENTS_V2")
        if sum(1 for _ in walk_components(components)) > 40:
            errors.add(("components",), "BASE_TYPE_MAX_LENGTH", "Must be 40 or fewer in length.")
        _check_interactive(errors, components, ("components",), set())
    else:
        _check_action_rows(errors, components)
    errors.raise_if_any()
    has_attachments = files > 0 or bool(body.get("attachments"))
    if creating and not (content or embeds or components or has_attachments
                         or body.get("sticker_ids") or body.get("poll")):
        raise DiscordError(400, 50006, "Cannot send an empty message")


def _check_embeds(errors: FormErrors, embeds: list[dict[str, Any]]) -> None:
    if len(embeds) > 10:
        errors.add(("embeds",), "BASE_TYPE_MAX_LENGTH", "Must be 10 or fewer in length.")
    total = 0
    for i, embed in enumerate(embeds):
        path = ("embeds", i)
        for key, limit in (("title", 256), ("description", 4096)):
            errors.max_length((*path, key), embed.get(key), limit)
            total += len(embed.get(key) or "")
        fields = embed.get("fields") or []
        if len(fields) > 25:
            errors.add((*path, "fields"), "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
        for j, fld in enumerate(fields):
            errors.length_between((*path, "fields", j, "name"), fld.get("name"), 1, 256)
            errors.length_between((*path, "fields", j, "value"), fld.get("value"), 1, 1024)
            total += len(fld.get("name") or "") + len(fld.get("value") or "")
        footer = (embed.get("footer") or {}).get("text")
        errors.max_length((*path, "footer", "text"), footer, 2048)
        author = (embed.get("author") or {}).get("name")
        errors.max_length((*path, "author", "name"), author, 256)
        total += len(footer or "") + len(author or "")
    if total > 6000:
        errors.add(("embeds",), "MESSAGE_EMBED_TOTAL_LENGTH",
                   "Embed size exceeds maximum size of 6000")


def _check_action_rows(errors: FormErrors, rows: list[dict[str, Any]]) -> None:
    if len(rows) > 5:
        errors.add(("components",), "BASE_TYPE_MAX_LENGTH", "Must be 5 or fewer in length.")
    seen: set[str] = set()
    for i, row in enumerate(rows):
        path = ("components", i)
        if row.get("type") != 1:
            errors.add((*path, "type"), "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                       "Top-level components must be action rows without Components V2")
            continue
        children = row.get("components") or []
        selects = [c for c in children if c.get("type") in SELECT_TYPES]
        if not children or len(children) > 5:
            errors.add((*path, "components"), "BASE_TYPE_BAD_LENGTH",
                       "Must be between 1 and 5 in length.")
        if selects and len(children) > 1:
            errors.add((*path, "components"), "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                       "The specified component exceeds the maximum width")
        _check_interactive(errors, children, (*path, "components"), seen)


def _check_interactive(errors: FormErrors, components: list[dict[str, Any]],
                       path: tuple[str | int, ...], seen: set[str]) -> None:
    """Buttons and selects at any depth below ``components``."""
    for i, component in enumerate(components):
        here = (*path, i)
        kind = component.get("type")
        if kind == 2:
            _check_button(errors, component, here, seen)
        elif kind in SELECT_TYPES:
            _check_select(errors, component, here, seen)
        if component.get("components"):
            _check_interactive(errors, component["components"], (*here, "components"), seen)
        if isinstance(component.get("accessory"), dict):
            _check_interactive(errors, [component["accessory"]], (*here, "accessory"), seen)


def _check_custom_id(errors: FormErrors, component: dict[str, Any],
                     path: tuple[str | int, ...], seen: set[str]) -> None:
    custom_id = component.get("custom_id")
    errors.length_between((*path, "custom_id"), custom_id, 1, 100)
    if isinstance(custom_id, str):
        if custom_id in seen:
            errors.add((*path, "custom_id"), "COMPONENT_CUSTOM_ID_DUPLICATED",
                       "Component custom id cannot be duplicated")
        seen.add(custom_id)


def _check_button(errors: FormErrors, button: dict[str, Any], path: tuple[str | int, ...],
                  seen: set[str]) -> None:
    errors.max_length((*path, "label"), button.get("label"), 80)
    style = button.get("style")
    if style == 5:
        if not button.get("url"):
            errors.add((*path, "url"), "BASE_TYPE_REQUIRED", "This field is required")
    elif style != 6:
        _check_custom_id(errors, button, path, seen)


def _check_select(errors: FormErrors, select: dict[str, Any], path: tuple[str | int, ...],
                  seen: set[str]) -> None:
    _check_custom_id(errors, select, path, seen)
    errors.max_length((*path, "placeholder"), select.get("placeholder"), 150)
    low, high = select.get("min_values", 1), select.get("max_values", 1)
    if not 0 <= low <= 25:
        errors.add((*path, "min_values"), "NUMBER_TYPE_MAX", "int value should be <= 25.")
    if not 1 <= high <= 25:
        errors.add((*path, "max_values"), "NUMBER_TYPE_MAX", "int value should be <= 25.")
    if low > high:
        errors.add((*path, "min_values"), "SELECT_COMPONENT_MIN_VALUES_EXCEEDS_MAX",
                   "min_values must be less than or equal to max_values")
    if select.get("type") != 3:
        return
    options = select.get("options") or []
    if not 1 <= len(options) <= 25:
        errors.add((*path, "options"), "BASE_TYPE_BAD_LENGTH",
                   "Must be between 1 and 25 in length.")
    elif high > len(options):
        errors.add((*path, "max_values"), "SELECT_COMPONENT_MAX_VALUES_EXCEEDS_OPTIONS",
                   "max_values must be less than or equal to the number of options")
    values: set[str] = set()
    for j, option in enumerate(options):
        for key in ("label", "value"):
            errors.length_between((*path, "options", j, key), option.get(key), 1, 100)
        errors.max_length((*path, "options", j, "description"), option.get("description"), 100)
        if option.get("value") in values:
            errors.add((*path, "options", j, "value"), "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED",
                       "Select component option values must be unique")
        values.add(option.get("value"))


def check_modal(modal: dict[str, Any]) -> None:
    errors = FormErrors()
    errors.length_between(("data", "title"), modal.get("title"), 1, 45)
    errors.length_between(("data", "custom_id"), modal.get("custom_id"), 1, 100)
    components = modal.get("components") or []
    if not 1 <= len(components) <= 5:
        errors.add(("data", "components"), "BASE_TYPE_BAD_LENGTH",
                   "Must be between 1 and 5 in length.")
    errors.raise_if_any()


def check_command(command: dict[str, Any], path: tuple[str | int, ...], errors: FormErrors) -> None:
    """An application command (or, recursively, its options) as sent to the sync routes."""
    name = command.get("name")
    chat_input = command.get("type", 1) == 1
    if not isinstance(name, str) or not _COMMAND_NAME.match(name) or (
            chat_input and name != name.lower()):
        errors.add((*path, "name"), "APPLICATION_COMMAND_INVALID_NAME",
                   "Command name is invalid")
    for locale, localized in (command.get("name_localizations") or {}).items():
        if not isinstance(localized, str) or not _COMMAND_NAME.match(localized) or (
                chat_input and localized != localized.lower()):
            errors.add((*path, "name_localizations", locale), "APPLICATION_COMMAND_INVALID_NAME",
                       "Command name is invalid")
    if chat_input:
        errors.length_between((*path, "description"), command.get("description"), 1, 100)
        for locale, text in (command.get("description_localizations") or {}).items():
            errors.length_between((*path, "description_localizations", locale), text, 1, 100)
    options = command.get("options") or []
    if len(options) > 25:
        errors.add((*path, "options"), "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
    optional_seen = False
    names: set[str] = set()
    for i, option in enumerate(options):
        check_command({**option, "type": 1}, (*path, "options", i), errors)
        if option.get("name") in names:
            errors.add((*path, "options", i, "name"),
                       "APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_EXISTS",
                       "Option names must be unique")
        names.add(option.get("name"))
        for locale in {lo for o in options for lo in (o.get("name_localizations") or {})}:
            shown = (option.get("name_localizations") or {}).get(locale, option.get("name"))
            if any((other.get("name_localizations") or {}).get(locale, other.get("name"))
                   == shown for other in options[:i]):
                errors.add((*path, "options", i, "name_localizations", locale),
                           "APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_EXISTS",
                           "Option names must be unique")
        if option.get("type") in (1, 2):
            continue
        if option.get("required"):
            if optional_seen:
                errors.add((*path, "options", i, "required"),
                           "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
                           "Required options must be placed before non-required options")
        else:
            optional_seen = True
        if len(option.get("choices") or []) > 25:
            errors.add((*path, "options", i, "choices"), "BASE_TYPE_MAX_LENGTH",
                       "Must be 25 or fewer in length.")
