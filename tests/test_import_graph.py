"""No import circle in ``bot`` (``bot/service``, ``bot/web``, ``bot/discord_bot``,
``bot/words`` …), ``storage`` and ``games`` (``TYPE_CHECKING`` and function-level imports
included): each module can be read after the ones it imports. A package's
``from pkg import submodule`` is an import of the submodule, not of ``pkg/__init__``.

And the front ends stand side by side (``docs/architecture.md``, "The layers"): the
:data:`FRONT_ENDS` never import one another; nothing below them (the service, words,
duplicate nights, leagues …) imports a front end or a composition root
(:data:`ROOTS`, which put the front ends together); and of the front ends only the
Discord adapter, which hosts duplicate nights' commands, imports ``bot.duplicate``."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

FRONT_ENDS = ("bot.discord_bot", "bot.web", "bot.terminal")
"""The packages that draw for players: Discord, the web table, the terminal."""
ROOTS = ("bot.app", "bot.cli", "bot.play", "bot.web_duplicate", "bot.web_events")
"""The composition roots: the bot's process (``bot/app.py``, with the glue that shows
duplicate reveals and event pages on the web, ``bot/web_duplicate.py`` and
``bot/web_events.py``), the command line and the local
play mode (``tricktable play [--web]``). They may import anything; nothing imports them
but another root."""
DUPLICATE_FRONT_ENDS = ("bot.discord_bot",)
"""The front ends that may import ``bot.duplicate`` (its commands are Discord's)."""


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


def package_of(module: str, packages: tuple[str, ...]) -> str | None:
    """The one of ``packages`` that ``module`` is or is inside, if any."""
    for p in packages:
        if module == p or module.startswith(p + "."):
            return p
    return None


def forbidden_arrows(graph: dict[str, set[str]]) -> list[tuple[str, str]]:
    """Every import that breaks the module docstring's rules for front ends and roots."""
    bad: list[tuple[str, str]] = []
    for module, imported in sorted(graph.items()):
        front, root = package_of(module, FRONT_ENDS), package_of(module, ROOTS)
        for target in sorted(imported):
            to_front = package_of(target, FRONT_ENDS)
            if to_front is not None and to_front != front and root is None:
                bad.append((module, target))  # front end → front end, or below → front end
            elif package_of(target, ROOTS) is not None and root is None:
                bad.append((module, target))  # anything but a root → a root
            elif (package_of(target, ("bot.duplicate",)) is not None and front is not None
                  and front not in DUPLICATE_FRONT_ENDS):
                bad.append((module, target))  # web or terminal → duplicate nights
    return bad


def test_the_front_ends_stand_side_by_side() -> None:
    """``bot.web`` ↛ ``bot.terminal``, ``bot.web`` ↛ ``bot.duplicate``, Discord ↛ web, and
    every other arrow between front ends; the service and its neighbours ↛ any front
    end."""
    assert forbidden_arrows(import_graph()) == []


def test_the_arrow_rules_catch_each_kind() -> None:
    graph = {
        "bot.web.frames": {"bot.terminal.session", "bot.words.choices"},
        "bot.web.viewer": {"bot.duplicate.context"},
        "bot.discord_bot.tables.web_table": {"bot.web.links", "bot.discord_bot.ids"},
        "bot.terminal.app": {"bot.duplicate.text"},
        "bot.discord_bot.club.posts": {"bot.duplicate.service"},
        "bot.service.tables": {"bot.discord_bot.ids"},
        "bot.words.cards": {"bot.app"},
        "bot.play.web": {"bot.terminal.session", "bot.web.server"},
        "bot.app": {"bot.web.run", "bot.web_duplicate", "bot.discord_bot.router"},
        "bot.web_duplicate": {"bot.duplicate.reveals", "bot.web.protocol"},
    }
    assert forbidden_arrows(graph) == [
        ("bot.discord_bot.tables.web_table", "bot.web.links"),
        ("bot.service.tables", "bot.discord_bot.ids"),
        ("bot.terminal.app", "bot.duplicate.text"),
        ("bot.web.frames", "bot.terminal.session"),
        ("bot.web.viewer", "bot.duplicate.context"),
        ("bot.words.cards", "bot.app"),
    ]
