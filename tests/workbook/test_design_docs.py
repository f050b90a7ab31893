"""The README's "Designing your own rule" runs as written, and the design notebook is linked from
the index with its title."""

from __future__ import annotations

import sys
import types
from fractions import Fraction
from pathlib import Path

from rules_core import unregister
from workbook.pages.catalog import dashboards, heading

ROOT = Path(__file__).resolve().parents[2]


def test_the_readme_design_example_runs():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    block = text.split("## Designing your own rule", 1)[1].split("```python", 1)[1].split("```", 1)[0]
    module = types.ModuleType("readme_design")  # as a notebook runs it: a module of its own
    sys.modules[module.__name__] = module
    names = vars(module)
    try:
        exec(block, names)  # noqa: S102 - the project's own README
        result = names["evaluate"](names["Mine"]())
        assert (result.headline["p_dodge_succeeds"], result.headline["p_no_hit"],
                result.headline["expected_hits"]) == (Fraction(11, 20), Fraction(37, 100), Fraction(163, 100))
        assert names["dashboard"](names["MINE"]).result == result
    finally:
        unregister("my-2d10")
        del sys.modules[module.__name__]


def test_the_design_notebook_is_on_the_index():
    folder = ROOT / "notebooks"
    assert "design-a-rule.ipynb" in [e.notebook for e in dashboards(folder)]
    assert heading(folder, "design-a-rule.ipynb") == "Design your own rule"


def test_a_rule_not_registered_is_registered_by_its_dashboard():
    """dashboard(rule(...)) works without register: every panel (the sweep among them) finds the
    rule by its id."""
    from example_rule import SYSTEM
    from rules_core import get_system
    from workbook import dashboard

    try:
        d = dashboard(SYSTEM)
        assert get_system("my-2d10") is SYSTEM
        # its first preset, skill 14 against 3 hits: 21 of 100 rolls fail (3 hits each), 8 make
        # 13 (margin 1: 1 hit lands), 6 make 14 without the double 7s (margin 0: 2 land)
        assert d.result.headline["expected_hits"] == Fraction(21 * 3 + 8 * 1 + 6 * 2, 100)
    finally:
        unregister("my-2d10")


def test_the_rule_file_beside_the_design_notebook_is_the_readme_example():
    """notebooks/my_rule.py, the file the lab offers to download and publish, is the README's
    2d10 rule: the same numbers, read as ``make site RULES=`` and ``--system-module`` read it."""
    from rules_core import evaluate
    from rules_core.cli import system_modules

    with system_modules([str(ROOT / "notebooks" / "my_rule.py")]) as (mine,):
        assert mine.id == "my-2d10"
        result = evaluate(mine.default_scenario())
        assert (result.headline["p_dodge_succeeds"], result.headline["p_no_hit"],
                result.headline["expected_hits"]) == (Fraction(11, 20), Fraction(37, 100), Fraction(163, 100))
        off = evaluate(mine.default_scenario().set("dodges", False))
        assert off.headline["expected_hits"] == 3
