"""The published contract: the committed JSON Schema and TypeScript types are what the code
generates, and the generator maps every supported Python type."""

from __future__ import annotations

from typing import Any, Literal, NotRequired, TypedDict

import pytest

from bot.contract.jsonschema import Named, schema_of
from bot.contract.publish import PUBLICATIONS, ROOT, stale
from bot.contract.typescript import typescript_of


def test_committed_schema_and_types_are_current() -> None:
    assert stale() == [], "run `python -m bot.contract` and commit the files"


def test_a_changed_file_is_found_stale(tmp_path: Any) -> None:
    for pub in PUBLICATIONS:
        for path, text in pub.files().items():
            (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
            (tmp_path / path).write_text(text + " ", encoding="utf-8")
    assert sorted(stale(tmp_path)) == sorted(p for pub in PUBLICATIONS for p in pub.files())
    assert (ROOT / "bot" / "web" / "protocol.schema.json").exists()


class Inner(TypedDict):
    """An inner object."""

    n: int


class Outer(TypedDict, total=False):
    kind: Literal["outer"]
    mode: Literal["a", "b"]
    inner: Inner
    many: list[Inner | None]
    pair: tuple[str, float]
    table: dict[str, bool]
    anything: Any


class Strict(TypedDict):
    required: str
    optional: NotRequired[int | None]


def test_every_supported_type_maps_to_schema_and_typescript() -> None:
    schema = schema_of([Named("Either", Outer | Strict), Inner], id="x", title="t", version=3)
    defs = schema["$defs"]
    assert schema["version"] == 3 and schema["$id"] == "x/v3"
    assert defs["Either"]["oneOf"] == [{"$ref": "#/$defs/Outer"}, {"$ref": "#/$defs/Strict"}]
    outer = defs["Outer"]
    assert outer["required"] == [] and outer["additionalProperties"] is False
    props = outer["properties"]
    assert props["kind"] == {"const": "outer"} and props["mode"] == {"enum": ["a", "b"]}
    assert props["many"]["items"] == {"anyOf": [{"$ref": "#/$defs/Inner"}, {"type": "null"}]}
    assert props["pair"]["prefixItems"] == [{"type": "string"}, {"type": "number"}]
    assert props["table"]["additionalProperties"] == {"type": "boolean"}
    assert props["anything"] == {}
    assert defs["Strict"]["required"] == ["required"]
    assert defs["Inner"]["description"] == "An inner object."
    ts = typescript_of(schema, "x.json")
    assert "export type Either = Outer | Strict;" in ts
    assert "  many?: (Inner | null)[];" in ts
    assert "  pair?: [string, number];" in ts
    assert "  optional?: number | null;" in ts and "  required: string;" in ts
    assert "  table?: { [key: string]: boolean };" in ts


def test_an_unsupported_type_is_refused() -> None:
    class Bad(TypedDict):
        when: set[int]

    with pytest.raises(TypeError, match="set"):
        schema_of([Bad], id="x", title="t", version=1)
