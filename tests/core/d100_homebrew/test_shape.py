"""d100 homebrew: the package has the one shape every system has, and its modules depend one way
(scenario ← dice ← play ← exact; outcomes beside play; text and presets at the edges)."""

from __future__ import annotations

import ast
from pathlib import Path

import rules_core.systems.d100_homebrew as package

FILES = {"__init__", "scenario", "dice", "play", "exact", "outcomes", "presets", "text"}
#: Which sibling modules each module may import.
ALLOWED = {
    "text": set(),
    "scenario": set(),
    "dice": {"scenario"},
    "outcomes": {"scenario", "text"},
    "play": {"scenario", "dice", "outcomes", "text"},
    "exact": {"scenario", "dice", "outcomes", "play", "text"},
    "presets": {"scenario"},
    "__init__": FILES - {"__init__"},
}


def siblings_imported(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            found.add(node.module.split(".")[0] if node.module else "")
    return found


def test_the_package_has_exactly_the_shaped_files():
    assert {p.stem for p in Path(package.__file__).parent.glob("*.py")} == FILES


def test_modules_depend_one_way():
    root = Path(package.__file__).parent
    for name, allowed in ALLOWED.items():
        assert siblings_imported(root / f"{name}.py") <= allowed, name


def test_the_package_docstring_lists_its_files():
    for name in FILES - {"__init__"}:
        assert f":mod:`.{name}`" in package.__doc__, name
