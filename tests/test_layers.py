"""The layers, checked from the source: who may import whom, and no import cycle between modules."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("domain", "projections", "service", "workers")


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports() -> dict[str, set[str]]:
    """Return each of our modules with the modules of ours it imports (`from pkg import mod` names `pkg.mod`)."""
    paths = {_module_name(path): path for package in PACKAGES for path in (ROOT / package).rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for module, path in paths.items():
        targets: set[str] = set()
        tree = ast.parse(path.read_text(encoding="utf-8"))
        # Imports for the type checker only never run, so they cannot make a cycle.
        typing_only = {
            id(inner)
            for node in ast.walk(tree)
            if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING"
            for inner in ast.walk(node)
        }
        for node in ast.walk(tree):
            if id(node) in typing_only:
                continue
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                for alias in node.names:
                    sub = f"{node.module}.{alias.name}"
                    targets.add(sub if sub in paths else node.module)
            elif isinstance(node, ast.Import):
                targets.update(alias.name for alias in node.names)
        graph[module] = {t for t in targets if t.split(".")[0] in PACKAGES}
    return graph


def test_domain_imports_nothing_outside_itself():
    outside = {
        (m, t) for m, ts in _imports().items() if m.startswith("domain") for t in ts if t.split(".")[0] != "domain"
    }
    assert outside == set()


def test_projections_import_only_the_domain():
    allowed = {"domain", "projections"}
    bad = {(m, t) for m, ts in _imports().items() if m.startswith("projections") for t in ts}
    assert {(m, t) for m, t in bad if t.split(".")[0] not in allowed} == set()


def test_the_service_reaches_workers_only_through_the_bootstrap():
    bad = {
        (m, t)
        for m, ts in _imports().items()
        if m.startswith("service") and m != "service.bootstrap"
        for t in ts
        if t.startswith("workers")
    }
    assert bad == set()


def test_no_module_import_cycle():
    graph = _imports()
    edges = graph
    state: dict[str, str] = {}
    cycle: list[str] = []

    def visit(node: str, path: list[str]) -> bool:
        state[node] = "open"
        for target in edges.get(node, ()):
            if target == node or target not in graph:
                continue
            if state.get(target) == "open":
                cycle.extend(path[path.index(target) :] + [target])
                return True
            if target not in state and visit(target, [*path, target]):
                return True
        state[node] = "done"
        return False

    for module in sorted(graph):
        if module not in state and visit(module, [module]):
            break
    assert cycle == []


# The packages from the top down: each may import only those after it (bench and tests sit above all).
LAYERS = ("service", "workers", "projections", "domain")


def test_each_package_imports_only_the_layers_below_it():
    upward = {
        (m, t)
        for m, ts in _imports().items()
        for t in ts
        if LAYERS.index(t.split(".")[0]) < LAYERS.index(m.split(".")[0])
    }
    assert upward == set()
