"""TypedDicts → a JSON Schema (draft 2020-12), general enough for any typed contract.

:func:`schema_of` takes named root types (a TypedDict, or a union of TypedDicts given a
name with :class:`Named`) and returns one schema document: every TypedDict reached is a
``$defs`` entry referenced by ``$ref``; a named union is a ``$defs`` entry with ``oneOf``.
The mapping:

* ``str``/``int``/``float``/``bool``/``None`` → ``string``/``integer``/``number``/
  ``boolean``/``null``; ``Any`` and ``object`` → ``{}`` (anything);
* ``Literal["a", 1]`` → ``const`` (one value) or ``enum``;
* ``list[X]`` (and ``Sequence[X]``) → ``array`` of X; ``tuple[X, Y]`` → ``prefixItems``
  (fixed length); ``tuple[X, ...]`` → array of X; ``dict[str, X]`` → ``object`` with
  ``additionalProperties`` X;
* ``X | Y`` → ``anyOf`` (``X | None`` included);
* a class given in ``wire`` → the TypedDict of its JSON form (``Action`` → its record form);
* a TypedDict → ``object`` with its ``properties``, ``required`` (its required keys:
  ``total=False`` and ``NotRequired`` make a key optional) and no other property; its
  docstring becomes the ``description``.

Anything else raises :class:`TypeError` naming the type, so a contract never silently
loses a field's type.
"""

from __future__ import annotations

import collections.abc
import types
import typing
from dataclasses import dataclass
from typing import Any, Literal, Union, get_args, get_origin, is_typeddict

JsonSchema = dict[str, Any]

DRAFT = "https://json-schema.org/draft/2020-12/schema"


@dataclass(frozen=True)
class Named:
    """A union (or any type) published under a name of its own in ``$defs``."""

    name: str
    type: Any
    description: str = ""


def schema_of(roots: list[Any], *, id: str, title: str, version: int,
              wire: dict[type, Any] | None = None) -> JsonSchema:
    """The schema document of ``roots`` (TypedDicts or :class:`Named` types), its
    ``$id``, ``title`` and contract ``version`` (``"version"`` key and ``$id`` suffix).
    ``wire`` maps an in-process class to the TypedDict of its JSON form (the type a value
    of it takes where it leaves the process)."""
    builder = _Builder(wire or {})
    for root in roots:
        if isinstance(root, Named):
            builder.named(root)
        else:
            builder.ref(root)
    return {
        "$schema": DRAFT,
        "$id": f"{id}/v{version}",
        "title": title,
        "version": version,
        "$defs": {name: builder.defs[name] for name in sorted(builder.defs)},
    }


class _Builder:
    def __init__(self, wire: dict[type, Any]) -> None:
        self.wire = wire
        self.defs: dict[str, JsonSchema] = {}
        self.owners: dict[str, Any] = {}

    def named(self, named: Named) -> JsonSchema:
        args = get_args(named.type) if _is_union(named.type) else (named.type,)
        body: JsonSchema = {"oneOf": [self.of(a) for a in args]}
        if named.description:
            body["description"] = named.description
        self._define(named.name, named, body)
        return {"$ref": f"#/$defs/{named.name}"}

    def ref(self, td: Any) -> JsonSchema:
        name = td.__name__
        if self.owners.get(name) is not td:
            self._define(name, td, {})  # reserve the name first: recursive types
            self.defs[name] = self._object(td)
        return {"$ref": f"#/$defs/{name}"}

    def _define(self, name: str, owner: Any, body: JsonSchema) -> None:
        if name in self.owners and self.owners[name] is not owner:
            raise TypeError(f"two contract types are named {name}")
        self.owners[name] = owner
        self.defs[name] = body

    def _object(self, td: Any) -> JsonSchema:
        hints = typing.get_type_hints(td, include_extras=True)
        required = [k for k, v in hints.items() if _required(k, v, td)]
        out: JsonSchema = {"type": "object"}
        doc = (td.__doc__ or "").strip()
        if doc:
            out["description"] = " ".join(doc.split())
        out["properties"] = {k: self.of(v) for k, v in hints.items()}
        out["required"] = required
        out["additionalProperties"] = False
        return out

    def of(self, tp: Any) -> JsonSchema:
        if tp is Any or tp is object:
            return {}
        if tp is None or tp is type(None):
            return {"type": "null"}
        if tp is bool:
            return {"type": "boolean"}
        if tp is int:
            return {"type": "integer"}
        if tp is float:
            return {"type": "number"}
        if tp is str:
            return {"type": "string"}
        if is_typeddict(tp):
            return self.ref(tp)
        if isinstance(tp, type) and tp in self.wire:
            return self.ref(self.wire[tp])
        origin = get_origin(tp)
        args = get_args(tp)
        if origin in (typing.Required, typing.NotRequired):
            return self.of(args[0])
        if origin is Literal:
            values = list(args)
            return {"const": values[0]} if len(values) == 1 else {"enum": values}
        if _is_union(tp):
            return {"anyOf": [self.of(a) for a in args]}
        if origin in (list, collections.abc.Sequence):
            return {"type": "array", "items": self.of(args[0])}
        if origin is tuple:
            if len(args) == 2 and args[1] is Ellipsis:
                return {"type": "array", "items": self.of(args[0])}
            return {"type": "array", "prefixItems": [self.of(a) for a in args],
                    "minItems": len(args), "maxItems": len(args)}
        if origin in (dict, collections.abc.Mapping) and args and args[0] is str:
            return {"type": "object", "additionalProperties": self.of(args[1])}
        raise TypeError(f"no JSON Schema for the type {tp!r}")


def _required(key: str, tp: Any, td: Any) -> bool:
    """Whether ``key`` is required: ``Required``/``NotRequired`` decide, else the totality
    of the class that declares it (``td`` or a TypedDict it extends; read from the hints
    themselves: under ``from __future__ import annotations`` Python cannot see the
    qualifiers when it makes the class)."""
    origin = get_origin(tp)
    if origin is typing.NotRequired:
        return False
    if origin is typing.Required:
        return True
    return key in td.__required_keys__  # right for an unqualified key


def _is_union(tp: Any) -> bool:
    return get_origin(tp) in (Union, types.UnionType)
