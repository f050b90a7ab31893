"""The shape of the core, checked from its source: no import cycles anywhere in ``rules_core``,
every system package of the same files, dependencies pointing one way, no UI library."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from rules_core import all_systems

ROOT = Path(__file__).resolve().parents[2] / "rules_core"
SHAPE = ("__init__.py", "scenario.py", "dice.py", "play.py", "exact.py", "outcomes.py", "presets.py")
#: Within a system package, a module may import only those before it here (outcomes beside play).
LAYERS = {"scenario": 0, "dice": 1, "outcomes": 2, "play": 3, "exact": 4}


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def runtime_imports(path: Path) -> set[str]:
    """Modules of rules_core that ``path`` imports when it runs (``if TYPE_CHECKING:`` left out)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = module_name(path) if path.name == "__init__.py" else module_name(path).rpartition(".")[0]
    skipped = {id(n) for node in ast.walk(tree) if isinstance(node, ast.If)
               and "TYPE_CHECKING" in ast.unparse(node.test) for n in ast.walk(node)}
    found = set()
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            for alias in node.names:
                candidate = f"{target}.{alias.name}"
                found.add(candidate if _exists(candidate) else target)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return {m for m in found if m == "rules_core" or m.startswith("rules_core.")}


def _exists(module: str) -> bool:
    path = ROOT.parent.joinpath(*module.split("."))
    return path.with_suffix(".py").exists() or (path / "__init__.py").exists()


def graph() -> dict[str, set[str]]:
    return {module_name(p): runtime_imports(p) for p in ROOT.rglob("*.py")}


def find_cycle(edges: dict[str, set[str]]) -> list[str] | None:
    """One import cycle in ``edges`` (a package importing its own modules is not one), or None."""
    state: dict[str, int] = {}

    def visit(m: str, path: list[str]) -> list[str] | None:
        state[m] = 1
        for n in sorted(edges.get(m, ())):
            if n == m or n not in edges or n.startswith(m + "."):
                continue
            if state.get(n) == 1:
                return path + [n]
            if n not in state and (found := visit(n, path + [n])):
                return found
        state[m] = 2
        return None

    for m in sorted(edges):
        if m not in state and (found := visit(m, [m])):
            return found
    return None


def test_no_import_cycle_anywhere_in_the_core():
    cycle = find_cycle(graph())
    assert cycle is None, "import cycle: " + " → ".join(cycle or [])


def test_the_cycle_check_sees_a_cycle_and_allows_a_package_its_modules():
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"p": {"p.x"}, "p.x": {"y"}, "y": set()}) is None
    assert find_cycle({"a": {"b"}, "b": set()}) is None


@pytest.mark.parametrize("system_id", sorted(all_systems()))
def test_every_system_package_has_the_one_shape(system_id):
    package = ROOT / "systems" / system_id.replace("-", "_")
    assert package.is_dir(), f"{system_id} should live in {package.relative_to(ROOT.parent)}"
    present = {p.name for p in package.glob("*.py")}
    assert set(SHAPE) <= present, f"missing: {sorted(set(SHAPE) - present)}"
    doc = ast.get_docstring(ast.parse((package / "__init__.py").read_text(encoding="utf-8"))) or ""
    for name in present - {"__init__.py"}:
        stem = name.removesuffix(".py")
        assert name in doc or f":mod:`.{stem}`" in doc, f"{system_id}'s __init__ docstring should list {name}"
    for path in package.glob("*.py"):
        layer = LAYERS.get(path.stem)
        if layer is None:
            continue
        for imported in runtime_imports(path):
            other = imported.rsplit(".", 1)[-1]
            if imported.startswith(module_name(package) + ".") and other in LAYERS:
                assert LAYERS[other] < layer or (other, path.stem) == ("outcomes", "outcomes"), \
                    f"{path.name} imports {other}.py, which sits above it"


def test_registry_names_do_not_shadow_the_systems_package():
    import importlib

    module = importlib.import_module("rules_core.systems")
    assert module.__name__ == "rules_core.systems" and hasattr(module, "__path__")


#: What the rest of the project imports from ``rules_core.scenario`` (the package's modules each
#: do one job; these names stay where they were).
SCENARIO_NAMES = ("Part", "Scenario", "FieldSpec", "ScenarioError", "FieldConflict", "Combination",
                  "FrozenFieldError", "FieldHelp", "Problem", "number", "flag", "choice", "ruling", "text",
                  "part", "parts", "fields_of", "spec_at", "parse", "when", "shown", "one_line", "SNAP",
                  "SHOWN", "COMBINATION")


def test_the_scenario_package_keeps_its_names_and_each_module_is_small():
    import rules_core.scenario as scenario

    missing = [name for name in SCENARIO_NAMES if not hasattr(scenario, name)]
    assert missing == []
    assert set(SCENARIO_NAMES) <= set(scenario.__all__)
    sizes = {p.name: len(p.read_text(encoding="utf-8").splitlines()) for p in (ROOT / "scenario").glob("*.py")}
    assert {"fields.py", "specs.py", "validation.py", "editing.py", "display.py", "base.py"} <= set(sizes)
    assert max(sizes.values()) <= 600, sizes


def test_only_a_command_line_imports_the_core_command_line():
    """The workbook reads JSON with ``rules_core.jsonio``; ``rules_core.cli`` is for command lines
    (``python -m workbook``'s own)."""
    workbook = ROOT.parent / "workbook"
    importers = set()
    for path in workbook.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module == "rules_core.cli":
                importers.add(path.relative_to(workbook).as_posix())
    assert importers <= {"__main__.py"}, importers
