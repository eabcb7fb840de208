"""Typed, validated rule options.

Each game declares a frozen dataclass subclassing :class:`GameOptions`; every field carries
its default (the rule file's) and, in ``metadata``, the wording shown to players
(``doc``) and the allowed values (``choices``, or ``min``/``max`` for whole numbers).
:meth:`GameOptions.from_json` is the single validator: an unknown name or a bad value is an
:class:`~games.errors.OptionError` naming the option and what is allowed.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any, ClassVar, Self, get_type_hints

from games.errors import N_, OptionError, english, quote

MAX_WORDS, MAX_WORD = 10, 20
"""A list-of-words option (agreed signal tokens) holds at most this many words of at most
this many letters: they are shown on buttons and in every view."""


def option(
    default: Any,
    doc: str,
    *,
    choices: tuple[Any, ...] | None = None,
    min: int | None = None,
    max: int | None = None,
) -> Any:
    """Declare one option field (``doc`` is the rule file's wording of the option)."""
    meta = {"doc": doc, "choices": choices, "min": min, "max": max}
    if isinstance(default, (list, dict)):
        raise TypeError("use tuples for list options")
    return dataclasses.field(default=default, metadata=meta)


@dataclasses.dataclass(frozen=True)
class GameOptions:
    """Base of every game's options."""

    _default_options: ClassVar[object] = None
    """The game's default options, once built (each game class keeps its own)."""

    @classmethod
    def from_json(cls, raw: Mapping[str, Any] | None) -> Self:
        """Validate ``raw`` (a JSON object) and build the options; defaults fill the rest."""
        if raw is None:  # the defaults: built once per game (options are frozen)
            default = cls.__dict__.get("_default_options")
            if not isinstance(default, cls):
                default = cls()
                cls._default_options = default
            return default
        if not isinstance(raw, Mapping):
            raise OptionError("options must be a JSON object of name: value")
        fields = {f.name: f for f in dataclasses.fields(cls)}
        hints = get_type_hints(cls)
        values: dict[str, Any] = {}
        for key, value in raw.items():
            if key not in fields:
                if not fields:
                    raise OptionError("unknown option {text}; this game's options are: none",
                                      text=quote(key))
                raise OptionError("unknown option {text}; this game's options are: {names}",
                                  text=quote(key), names=sorted(fields))
            values[key] = _check(key, value, hints[key], fields[key].metadata)
        return cls(**values)

    def to_json(self, *, all_fields: bool = False) -> dict[str, Any]:
        """The options as JSON; by default only those that differ from the defaults."""
        out: dict[str, Any] = {}
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if all_fields or value != f.default:
                out[f.name] = list(value) if isinstance(value, tuple) else value
        return out

    @classmethod
    def describe(cls) -> list[dict[str, Any]]:
        """Every option with its default, allowed values and wording (for help texts)."""
        hints = get_type_hints(cls)
        rows = []
        for f in dataclasses.fields(cls):
            default = f.default
            rows.append(
                {
                    "name": f.name,
                    "default": list(default) if isinstance(default, tuple) else default,
                    "allowed": _allowed(hints[f.name], f.metadata),
                    "doc": f.metadata.get("doc", ""),
                }
            )
        return rows


def _allowed(hint: Any, meta: Mapping[str, Any]) -> str:
    return english(*_allowed_part(hint, meta))


def _allowed_part(hint: Any, meta: Mapping[str, Any]) -> tuple[str, dict[str, Any]]:
    """What an option allows, as a template and its fields (English: :func:`_allowed`)."""
    if meta.get("choices"):
        return "{text}", {"text": " | ".join(repr(c) if isinstance(c, str) else str(c)
                                             for c in meta["choices"])}
    if hint is bool:
        return "{text}", {"text": "true | false"}
    if hint is int or hint == (int | None):
        lo, hi = meta.get("min"), meta.get("max")
        rng = {"low": lo if lo is not None else "…", "high": hi if hi is not None else "…"}
        if hint is int:
            return N_("whole number {low}..{high}"), rng
        return N_("null or whole number {low}..{high}"), rng
    if hint == tuple[str, ...]:
        return (N_("list of at most {words} lowercase words of up to {letters} letters"),
                {"words": MAX_WORDS, "letters": MAX_WORD})
    if hint == tuple[int, ...]:
        return N_("list of whole numbers"), {}
    return "{text}", {"text": str(hint)}


def _check(key: str, value: Any, hint: Any, meta: Mapping[str, Any]) -> Any:
    bad = OptionError("option {text}: {value} is not allowed; allowed: {parts}",
                      text=repr(key), value=quote(value),
                      parts=[_allowed_part(hint, meta)])
    choices = meta.get("choices")
    if choices and hint not in (tuple[int, ...],):
        if value not in choices or isinstance(value, bool) != isinstance(choices[0], bool):
            raise bad
        return value
    if hint is bool:
        if not isinstance(value, bool):
            raise bad
        return value
    if hint is int or hint == (int | None):
        if value is None and hint is not int:
            return None
        if not isinstance(value, int) or isinstance(value, bool):
            raise bad
        lo, hi = meta.get("min"), meta.get("max")
        if (lo is not None and value < lo) or (hi is not None and value > hi):
            raise bad
        return value
    if hint == tuple[str, ...]:
        if not isinstance(value, list) or len(value) > MAX_WORDS or not all(
            isinstance(v, str) and 0 < len(v) <= MAX_WORD and v == v.lower()
            and v.isidentifier() for v in value
        ):
            raise bad
        return tuple(value)
    if hint == tuple[int, ...]:
        if not isinstance(value, list) or not value or not all(
            isinstance(v, int) and not isinstance(v, bool) for v in value
        ):
            raise bad
        lo, hi = meta.get("min"), meta.get("max")
        if any((lo is not None and v < lo) or (hi is not None and v > hi) for v in value):
            raise bad
        return tuple(value)
    if hint is str:
        if not isinstance(value, str):
            raise bad
        return value
    raise TypeError(f"unsupported option type {hint!r} for {key}")

