"""Check a JSON value against a schema of :mod:`bot.contract.jsonschema` (the forms that
generator writes, nothing more): the tests use it to hold every published type to what the
code really sends.

:func:`problems` returns where and why ``value`` does not conform (empty: it conforms).
"""

from __future__ import annotations

from typing import Any

_KINDS: dict[str, tuple[type, ...]] = {
    "string": (str,), "integer": (int,), "number": (int, float), "boolean": (bool,),
    "array": (list, tuple), "object": (dict,),
}


def problems(value: object, schema: dict[str, Any], document: dict[str, Any],
             where: str = "$") -> list[str]:
    """Why ``value`` does not conform to ``schema`` (``$ref``s resolved in ``document``)."""
    if "$ref" in schema:
        name = str(schema["$ref"]).rsplit("/", 1)[-1]
        return problems(value, document["$defs"][name], document, where)
    if "const" in schema:
        return [] if _same(value, schema["const"]) else [f"{where}: not {schema['const']!r}"]
    if "enum" in schema:
        return ([] if any(_same(value, v) for v in schema["enum"])
                else [f"{where}: {value!r} not one of {schema['enum']!r}"])
    for key in ("anyOf", "oneOf"):
        if key in schema:
            tries = [problems(value, s, document, where) for s in schema[key]]
            if any(not t for t in tries):
                return []
            return [f"{where}: matches none of {key}: " + "; ".join(t[0] for t in tries)]
    kind = schema.get("type")
    if kind is None:
        return []
    if kind == "null":
        return [] if value is None else [f"{where}: {value!r} is not null"]
    if isinstance(value, bool) and kind not in ("boolean",):
        return [f"{where}: {value!r} is not {kind}"]
    if not isinstance(value, _KINDS[kind]):
        return [f"{where}: {type(value).__name__} is not {kind}"]
    if kind == "array":
        return _array(list(value), schema, document, where)  # type: ignore[call-overload]
    if kind == "object":
        assert isinstance(value, dict)
        return _object(value, schema, document, where)
    return []


def _array(value: list[Any], schema: dict[str, Any], document: dict[str, Any],
           where: str) -> list[str]:
    if "prefixItems" in schema:
        items = schema["prefixItems"]
        if len(value) != len(items):
            return [f"{where}: {len(value)} items, not {len(items)}"]
        return [p for i, (v, s) in enumerate(zip(value, items, strict=True))
                for p in problems(v, s, document, f"{where}[{i}]")]
    item = schema.get("items", {})
    return [p for i, v in enumerate(value) for p in problems(v, item, document, f"{where}[{i}]")]


def _object(value: dict[Any, Any], schema: dict[str, Any], document: dict[str, Any],
            where: str) -> list[str]:
    props: dict[str, Any] = schema.get("properties", {})
    out = [f"{where}: missing {k!r}" for k in schema.get("required", []) if k not in value]
    extra = schema.get("additionalProperties", True)
    for key, v in value.items():
        if key in props:
            out += problems(v, props[key], document, f"{where}.{key}")
        elif extra is False:
            out.append(f"{where}: unexpected {key!r}")
        elif isinstance(extra, dict):
            out += problems(v, extra, document, f"{where}.{key}")
    return out


def _same(a: object, b: object) -> bool:
    return type(a) is type(b) and a == b
