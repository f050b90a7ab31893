"""The workbook's folders are its parts, and their imports go one way:

    page  ←  panels  ←  systems  ←  pages  ←  the top level (explore, __main__, app, views)

A module imports from its own folder or from a folder to its left, never to its right (read
from every ``import`` of every module, those inside functions included); and no module imports,
through others, itself (an import circle), those only for a type checker aside."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "workbook"
LAYERS = ["page", "panels", "systems", "pages"]
TOP = len(LAYERS)  # the package's own modules


def _layer(module: str) -> int:
    """The layer of a dotted module of the workbook (``workbook.panels.sweep`` → 1)."""
    parts = module.split(".")
    return LAYERS.index(parts[1]) if len(parts) > 2 and parts[1] in LAYERS else TOP


def _module(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _type_checking_imports(tree: ast.AST) -> set[int]:
    """The imports under ``if TYPE_CHECKING:``, which never run (annotations only)."""
    return {id(node) for block in ast.walk(tree)
            if isinstance(block, ast.If) and isinstance(block.test, ast.Name) and block.test.id == "TYPE_CHECKING"
            for stmt in block.body for node in ast.walk(stmt)}


def _imports(path: Path, *, running: bool = False) -> list[str]:
    """Every workbook module ``path`` imports, made absolute (``running``: those only for a
    type checker left out)."""
    here = _module(path)
    package = here if path.name == "__init__.py" else here.rsplit(".", 1)[0]
    found = []
    tree = ast.parse(path.read_text())
    skipped = _type_checking_imports(tree) if running else set()
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Import):
            found += [a.name for a in node.names if a.name.split(".")[0] == "workbook"]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if target.split(".")[0] != "workbook":
                continue
            found.append(target)
            if node.module is None or target in {"workbook", "workbook.page", "workbook.panels",
                                                 "workbook.systems", "workbook.pages"}:
                found += [f"{target}.{a.name}" for a in node.names]  # "from . import x"
    return found


MODULES = sorted(PACKAGE.rglob("*.py"))


def test_every_folder_of_the_workbook_is_a_part():
    assert {p.name for p in PACKAGE.iterdir() if p.is_dir() and p.name != "__pycache__"} == set(LAYERS)


@pytest.mark.parametrize("path", MODULES, ids=lambda p: _module(p))
def test_imports_go_one_way(path):
    here = _layer(_module(path))
    wrong = [target for target in _imports(path) if _layer(target) > here]
    assert not wrong, f"{_module(path)} (layer {here}) imports from a layer to its right: {wrong}"


def test_the_direction_is_checked_at_all():
    """The reading of imports finds the page's dependencies (a test that cannot fail is none)."""
    dashboard = _imports(PACKAGE / "pages" / "dashboard.py")
    assert "workbook.panels.registry" in dashboard and "workbook.page.views" in dashboard
    assert _layer("workbook.panels.registry") > _layer("workbook.page.views")


def _circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Each set of modules that import one another round a circle (Tarjan's strongly connected
    components of more than one module, or one importing itself)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        for target in sorted(graph.get(module, ())):
            if target not in index:
                visit(target)
                low[module] = min(low[module], low[target])
            elif target in stack:
                low[module] = min(low[module], index[target])
        if low[module] == index[module]:
            component = []
            while True:
                top = stack.pop()
                component.append(top)
                if top == module:
                    break
            if len(component) > 1 or module in graph.get(module, ()):
                found.append(sorted(component))

    for module in sorted(graph):
        if module not in index:
            visit(module)
    return found


def _import_graph() -> dict[str, set[str]]:
    """Each workbook module and the workbook modules it imports when it runs."""
    modules = {_module(path) for path in MODULES}

    def module_of(target: str) -> str:  # "workbook.page.views.View" → "workbook.page.views"
        while target not in modules and "." in target:
            target = target.rsplit(".", 1)[0]
        return target

    return {_module(path): ({module_of(t) for t in _imports(path, running=True)} & modules) - {_module(path)}
            for path in MODULES}


def test_no_import_circle():
    assert _circles(_import_graph()) == []


def test_a_circle_would_be_found():
    """The reading finds the imports a circle is made of (a test that cannot fail is none)."""
    graph = _import_graph()
    assert "workbook.panels.report" in graph["workbook.panels.compare"]
    assert "workbook.page.controls" not in graph["workbook.page.panel"]  # for a type checker only
    graph["workbook.panels.report"] = graph["workbook.panels.report"] | {"workbook.panels.compare"}
    assert _circles(graph) == [["workbook.panels.compare", "workbook.panels.report"]]
