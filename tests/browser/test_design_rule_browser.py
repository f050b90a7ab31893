"""The design notebook served by Voilà: a designer's own rule, defined in the notebook, becomes a
dashboard that renders the core's exact numbers, follows its sliders, and whose share link
opens the same scenario."""

from __future__ import annotations

import sys
import types
from fractions import Fraction

import nbformat
import pytest

from rules_core import evaluate, unregister

from .conftest import NOTEBOOKS, ROOT

pytestmark = pytest.mark.browser

NOTEBOOK = "design-a-rule.ipynb"
SCREENSHOT = ROOT / "docs" / "img" / "design-a-rule.png"
#: The dashboard is the notebook's last output, far below the first screen, where its charts are
#: not drawn until they come near: ready once its table is filled, then scrolled to.
READY = "() => Boolean(document.querySelector('.wb-dashboard .wb-table td[data-col=exact]'))"


@pytest.fixture(scope="module")
def duck():
    """The notebook's rule, defined here by running the notebook's own cells up to its
    registration (the kernel behind the page runs the same cells)."""
    module = types.ModuleType("design_a_rule")
    sys.modules[module.__name__] = module
    cells = [c.source for c in nbformat.read(NOTEBOOKS / NOTEBOOK, as_version=4).cells if c.cell_type == "code"]
    upto = next(i for i, source in enumerate(cells) if "register(rule(" in source)
    for source in cells[:upto + 1]:
        exec(source, vars(module))  # noqa: S102 - the project's own notebook
    yield module
    unregister(module.DUCK.id)
    del sys.modules[module.__name__]


def test_the_rule_defined_in_the_notebook_is_a_whole_dashboard(open_dashboard, duck, timings):
    dash = open_dashboard(NOTEBOOK, ready=READY)
    dash.page.evaluate("document.querySelector('.wb-dashboard').scrollIntoView()")
    timings.record("design-a-rule", "page request → chart and table rendered (cold kernel)", dash.load_seconds)
    first = duck.DUCK.default_scenario()  # its first preset: Agility 5
    assert first.agility == 5
    dash.wait_for_headline(evaluate(first).headline)
    dash.wait_for_table(dict(evaluate(first).outcome_rows()))
    # 5d6 at 4+ against 3 hits: no hit unless fewer than 3 successes count (6s count twice)
    assert dash.headline()["p_no_hit"] == Fraction(97, 144)
    # the slider moves the rule's own field; the numbers follow, exactly
    dash.set_slider("wb-agility", 2)
    two = first.set("agility", 2)
    dash.wait_for_headline(evaluate(two).headline)
    dash.wait_for_chart([float(p) for _, p in evaluate(two).outcome_rows()])
    assert dash.headline()["p_dodge_succeeds"] == 1 - Fraction(3, 6) ** 2
    assert "Duck and Weave, p.1" in dash.page.locator(".wb-trace").inner_text()
    # the share link carries the scenario: opened, it shows the same numbers
    link = dash.share_link("agility=2")
    assert f"voila/render/{NOTEBOOK}" in link and "agility=2" in link
    shared = open_dashboard(NOTEBOOK, query=link.split("?", 1)[1], ready=READY)
    shared.wait_for_headline(evaluate(two).headline)
    for page in (dash, shared):
        assert page.python_errors() == [] and page.console_errors() == [] and page.notices() == []
    assert dash.screenshot(SCREENSHOT).stat().st_size > 20_000
