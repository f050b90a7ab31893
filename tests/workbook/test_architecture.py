"""The workbook's folders are its parts, and their imports go one way:

    page  ←  panels  ←  systems  ←  pages  ←  the top level (explore, __main__, app, views)

A module imports from its own folder or from a folder to its left, never to its right (read
from every ``import`` of every module, those inside functions included)."""

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


def _imports(path: Path) -> list[str]:
    """Every workbook module ``path`` imports, made absolute."""
    here = _module(path)
    package = here if path.name == "__init__.py" else here.rsplit(".", 1)[0]
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
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
