"""The engine's modules import one another without a circle (``TYPE_CHECKING`` and
function-level imports included): ``games`` is layered, so each module can be read after
the ones it imports."""

from __future__ import annotations

import ast
from pathlib import Path

GAMES_DIR = Path(__file__).resolve().parents[2] / "games"


def module_name(path: Path) -> str:
    parts = path.relative_to(GAMES_DIR.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports_of(path: Path, modules: set[str]) -> set[str]:
    """The ``games`` modules ``path`` imports anywhere in its text (a package import of a
    name that is a module counts as that module)."""
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names if a.name in modules)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if node.module in modules:
                out.add(node.module)
            out.update(f"{node.module}.{a.name}" for a in node.names
                       if f"{node.module}.{a.name}" in modules)
    return out


def import_graph() -> dict[str, set[str]]:
    paths = sorted(GAMES_DIR.rglob("*.py"))
    modules = {module_name(p) for p in paths}
    return {module_name(p): imports_of(p, modules) - {module_name(p)} for p in paths}


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """One circle through each strongly connected group of more than one module."""
    found: list[list[str]] = []
    done: set[str] = set()

    def walk(node: str, path: list[str]) -> None:
        for nxt in sorted(graph[node]):
            if nxt in path:
                found.append([*path[path.index(nxt):], nxt])
            elif nxt not in done:
                walk(nxt, [*path, nxt])
        done.add(node)

    for start in sorted(graph):
        if start not in done:
            walk(start, [start])
    return found


def test_the_engine_has_no_import_circle() -> None:
    assert circles(import_graph()) == []


def test_the_circle_finder_finds_a_circle() -> None:
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == [["a", "b", "c", "a"]]
