"""The static site's lab (``site/lab/``, issue 36) in Chromium with no network but 127.0.0.1:
the design notebook opened there runs every cell in the reader's browser, with the numbers the
core gives here; the README's 2d10 rule typed into a new cell shows its exact numbers in its
dashboard; the lab asks no host but the site's own.

What each cell should show is computed in this process: the notebook's own code run here
(:func:`designed`), the rule file it loads read by ``rules_core.cli.system_modules``, the
README's block run as a module (as tests/workbook/test_design_docs.py runs it)."""

from __future__ import annotations

import json
import sys
import types

import pytest

from browser.conftest import _DASHBOARD_READY, DashboardPage, ROOT
from rules_core import evaluate, unregister
from rules_core.cli import system_modules
from rules_core.result import fraction_text

pytestmark = pytest.mark.browser

#: The lab starts the site's Python, then runs the whole notebook in the page: ~15 s here.
RENDER_TIMEOUT_MS = 240_000
NOTEBOOK = "design-a-rule.ipynb"
#: The design notebook's cells that show a result, by a line of their code.
DUCK_RESULT, FILE_RESULT = "evaluate(DuckScenario())", 'load_system_module("my_rule.py")'

# The outcome table ([outcome, exact] per row) of the result shown by the code cell whose code
# holds ``marker`` (rules_core.Result._repr_html_), or null until it is shown.
_RESULT_OUTCOMES = """(marker) => {
    const cell = Array.from(document.querySelectorAll('.jp-CodeCell'))
        .find((c) => (c.querySelector('.jp-InputArea .cm-content') || {}).textContent?.includes(marker));
    const table = cell && Array.from(cell.querySelectorAll('.jp-OutputArea .rc-result table'))
        .find((t) => t.querySelector('th')?.textContent === 'outcome');
    return table ? Array.from(table.querySelectorAll('tbody tr'),
                              (tr) => Array.from(tr.querySelectorAll('td'), (td) => td.textContent).slice(0, 2))
                 : null;
}"""
# The notebook is the lab's current tab and its kernel is idle: "Run All Cells" acts on the current
# notebook, and until then the menu's command runs nothing (seen under load: every prompt left [ ]).
_READY_TO_RUN = """(notebook) => {
    const tab = document.querySelector('#jp-main-dock-panel .lm-TabBar-tab.lm-mod-current .lm-TabBar-tabLabel');
    const status = document.querySelector('#jp-main-statusbar');
    return tab?.textContent === notebook && /Idle/.test(status?.textContent || '');
}"""
# Every code cell has run (a number in its prompt, none waiting or running).
_ALL_RUN = """() => {
    const prompts = Array.from(document.querySelectorAll('.jp-CodeCell .jp-InputPrompt'), (p) => p.textContent);
    return prompts.length > 0 && prompts.every((p) => /\\[\\d+\\]/.test(p));
}"""


def code_cells(notebook: str) -> list[str]:
    cells = json.loads((ROOT / "notebooks" / notebook).read_text(encoding="utf-8"))["cells"]
    return ["".join(c["source"]) for c in cells if c["cell_type"] == "code"]


def readme_design_block() -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    return text.split("## Designing your own rule", 1)[1].split("```python", 1)[1].split("```", 1)[0].strip()


def run_as_module(code: str, name: str) -> dict:
    """``code`` run as a notebook runs it (a module of its own); its names."""
    module = types.ModuleType(name)
    sys.modules[name] = module
    try:
        exec(code, vars(module))  # noqa: S102 - the project's own notebook and README
    finally:
        del sys.modules[name]
    return vars(module)


def designed() -> tuple[dict, dict]:
    """The design notebook's rule, run here: the exact outcomes of its ``evaluate(DuckScenario())``
    and the headline of its dashboard (every cell but the rule file's, which is read apart)."""
    cells = code_cells(NOTEBOOK)
    *body, last = [c for c in cells if FILE_RESULT not in c]
    try:
        names = run_as_module("\n".join(body), "design_a_rule")
        outcomes = dict(evaluate(names["DuckScenario"]()).outcome_rows())
        shown = eval(last, names)  # noqa: S307 - the notebook's last cell: dashboard(DUCK)
        return outcomes, dict(evaluate(shown.scenario).headline)
    finally:
        unregister("duck-and-weave")


def exact_rows(rows: dict) -> list[list[str]]:
    return [[label, fraction_text(p)] for label, p in rows.items()]


@pytest.fixture
def open_lab(browser, static_site):
    contexts = []

    def open_(notebook: str) -> DashboardPage:
        """The site's front page, its link to the lab followed, ``notebook`` opened from the
        lab's file browser (as a reader finds it)."""
        context = browser.new_context(viewport={"width": 1400, "height": 1000})
        contexts.append(context)
        page = context.new_page()
        lab = DashboardPage(page, static_site)
        lab.keep_to(context, static_site)  # the kernel's worker too: the runtime loads in it
        page.on("console", lambda m: lab.console.append((m.type, m.text)))
        page.on("pageerror", lambda e: lab.console.append(("error", f"page error: {e}")))
        page.goto(static_site, timeout=RENDER_TIMEOUT_MS)
        page.locator('a[href="lab/"]').click()
        page.locator(".jp-DirListing-item", has_text=notebook).dblclick(timeout=RENDER_TIMEOUT_MS)
        page.wait_for_selector(".jp-Notebook .jp-CodeCell", timeout=RENDER_TIMEOUT_MS)
        page.wait_for_function(_READY_TO_RUN, arg=notebook, timeout=RENDER_TIMEOUT_MS, polling=200)
        return lab

    yield open_
    for context in contexts:
        context.close()


def test_the_design_notebook_runs_in_the_lab_with_the_cores_numbers(open_lab):
    duck_outcomes, duck_dashboard = designed()
    with system_modules([str(ROOT / "notebooks" / "my_rule.py")]) as (mine,):
        file_outcomes = dict(evaluate(mine.default_scenario()).outcome_rows())
    readme = run_as_module(readme_design_block(), "readme_design")
    try:
        readme_headline = dict(readme["dashboard"](readme["MINE"]).result.headline)
    finally:
        unregister("my-2d10")

    lab = open_lab(NOTEBOOK)
    page = lab.page
    page.get_by_role("menuitem", name="Run", exact=True).click()
    page.get_by_text("Run All Cells", exact=True).click()
    page.wait_for_function(_ALL_RUN, timeout=RENDER_TIMEOUT_MS, polling=500)
    lab.wait_drawn(".wb-outcome-chart", timeout=RENDER_TIMEOUT_MS)  # scrolled to: a chart draws near the view
    page.wait_for_function(_DASHBOARD_READY, timeout=RENDER_TIMEOUT_MS, polling=500)
    assert lab.python_errors() == []
    # piplite set up lazily, as on the pages: no %pip here, so neither it nor micropip was fetched
    assert [url for url in lab.requested if url.endswith(("deferred/micropip.zip", "deferred/piplite.zip"))] == []
    assert page.evaluate(_RESULT_OUTCOMES, DUCK_RESULT) == exact_rows(duck_outcomes)
    assert page.evaluate(_RESULT_OUTCOMES, FILE_RESULT) == exact_rows(file_outcomes)  # the rule file, from the lab's files
    assert lab.headline() == duck_dashboard  # dashboard(DUCK), the notebook's last cell

    # The README's example typed into a new cell at the end: its dashboard, with its numbers.
    page.keyboard.press("Escape")
    page.keyboard.press("b")  # a new cell below the last, in command mode
    page.keyboard.press("Enter")
    page.keyboard.insert_text(readme_design_block())  # as pasted: no indentation added
    page.keyboard.press("Shift+Enter")
    readme_cards = """(expected) => {
        const boards = document.querySelectorAll('.wb-dashboard');
        if (boards.length < 2) return false;
        const cards = boards[boards.length - 1].querySelectorAll('.wb-headline [data-key]');
        const got = Object.fromEntries(Array.from(cards, (row) => {
            const cell = row.querySelector('[data-col=exact]');
            return [row.dataset.key, cell ? (cell.dataset.value ?? cell.textContent).trim() : null];
        }));
        const keys = Object.keys(expected);
        return Object.keys(got).length === keys.length && keys.every((key) => got[key] === expected[key]);
    }"""
    expected = {key: fraction_text(value) for key, value in readme_headline.items()}
    assert expected == {"p_dodge_succeeds": "11/20", "p_no_hit": "37/100", "expected_hits": "163/100"}
    page.wait_for_function(readme_cards, arg=expected, timeout=RENDER_TIMEOUT_MS, polling=500)
    assert lab.python_errors() == []
    assert lab.hosts == {"127.0.0.1"} and lab.aborted == []
