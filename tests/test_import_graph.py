"""No import circle in ``bot`` (``bot/service``, ``bot/web``, ``bot/discord_bot``,
``bot/words`` …), ``storage`` and ``games`` (``TYPE_CHECKING`` and function-level imports
included): each module can be read after the ones it imports. A package's
``from pkg import submodule`` is an import of the submodule, not of ``pkg/__init__``."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports_of(path: Path, modules: set[str]) -> set[str]:
    """The project modules ``path`` imports anywhere in its text; ``from pkg import name``
    counts as an import of ``pkg.name`` when that is a module, else of ``pkg``."""
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names if a.name in modules)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            subs = {f"{node.module}.{a.name}" for a in node.names} & modules
            out.update(subs)
            if node.module in modules and len(subs) < len(node.names):
                out.add(node.module)
    return out


def import_graph() -> dict[str, set[str]]:
    paths = sorted(p for d in ("bot", "storage", "games") for p in (ROOT / d).rglob("*.py"))
    modules = {module_name(p) for p in paths}
    return {module_name(p): imports_of(p, modules) - {module_name(p)} for p in paths}


def groups(graph: dict[str, set[str]]) -> list[set[str]]:
    """The strongly connected groups of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[set[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in graph.get(node, ()):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group: set[str] = set()
            while True:
                top = stack.pop()
                group.add(top)
                if top == node:
                    break
            if len(group) > 1:
                found.append(group)

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_no_import_circle() -> None:
    """Any circle in ``bot``, ``storage`` or ``games`` fails (the table service's parts
    too: they receive a context and their peers, never the service)."""
    assert [sorted(g) for g in groups(import_graph())] == []


def test_a_package_importing_its_submodule_is_no_circle(tmp_path: Path) -> None:
    init = tmp_path / "pkg.py"
    init.write_text("from storage import codec, Store\nimport games.cards\n", encoding="utf-8")
    assert imports_of(init, {"storage", "storage.codec", "games.cards", "games"}) == {
        "storage", "storage.codec", "games.cards"}
    init.write_text("from storage import codec\n", encoding="utf-8")
    assert imports_of(init, {"storage", "storage.codec"}) == {"storage.codec"}


def test_the_circle_finder_finds_a_circle() -> None:
    assert groups({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [{"a", "b", "c"}]
