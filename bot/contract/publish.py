"""Every published contract, and writing or checking its files (``python -m bot.contract``).

A :class:`Publication` names a function building its schema (:mod:`bot.contract.jsonschema`)
and where its schema and TypeScript live in a source checkout (TypeScript only for a
contract that TypeScript reads: the page's protocol; the table service's contract is read
by Python and its tests, so it has a schema only). ``write`` writes them; ``check`` lists
the files that differ from what the code generates (CI fails on any).
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot.contract.typescript import typescript_of

ROOT = Path(__file__).resolve().parents[2]
"""The source checkout (the folder holding ``bot/`` and ``web/``)."""


@dataclass(frozen=True)
class Publication:
    """One contract: ``builder`` is ``"module:function"`` returning the schema;
    ``typescript_path`` ``None`` when no TypeScript reads it."""

    builder: str
    schema_path: str
    typescript_path: str | None

    def schema(self) -> dict[str, Any]:
        module, name = self.builder.split(":")
        build: Callable[[], dict[str, Any]] = getattr(importlib.import_module(module), name)
        return build()

    def files(self) -> dict[str, str]:
        """Path (relative to the checkout) → the text the code generates."""
        schema = self.schema()
        out = {self.schema_path: json.dumps(schema, indent=2, ensure_ascii=False) + "\n"}
        if self.typescript_path is not None:
            out[self.typescript_path] = typescript_of(schema, self.schema_path)
        return out


PUBLICATIONS: tuple[Publication, ...] = (
    Publication("bot.web.protocol:schema", "bot/web/protocol.schema.json",
                "web/src/protocol.ts"),
    Publication("bot.contract.table:schema", "bot/contract/table.schema.json", None),
)


def stale(root: Path = ROOT) -> list[str]:
    """The published files that are missing or differ from the generated text."""
    out = []
    for pub in PUBLICATIONS:
        for path, text in pub.files().items():
            target = root / path
            if not target.exists() or target.read_text(encoding="utf-8") != text:
                out.append(path)
    return out


def write(root: Path = ROOT) -> list[str]:
    """Write every published file; returns the paths that changed."""
    changed = stale(root)
    for pub in PUBLICATIONS:
        for path, text in pub.files().items():
            if path in changed:
                (root / path).parent.mkdir(parents=True, exist_ok=True)
                (root / path).write_text(text, encoding="utf-8")
    return changed
