"""The pages run without pandas and numpy, as they must in the browser (Pyodide has no wheels of
them): every dashboard, with every view and panel opened and shown a changed scenario, the
index, the four-games page, the lessons and a designer's rule's page.

Each check runs in a fresh interpreter, so that nothing the rest of the suite imported hides an
import: one with pandas and numpy refused by an import finder installed before anything else is
imported (an ``import pandas`` anywhere on a page's path fails the check), and one that reads
``sys.modules`` after a plain import of the dashboard.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]

#: Refuses pandas and numpy (and their submodules) as if they were not installed.
BLOCK = """
import sys

class Refused:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in ("pandas", "numpy"):
            raise ModuleNotFoundError(f"No module named {name!r} (refused: a page must run without it)", name=name)
        return None

assert not {"pandas", "numpy"} & set(sys.modules)
sys.meta_path.insert(0, Refused())
"""

#: Builds every page and opens all of it; checks the headline cards against the core.
PAGES = """
import re

import ipywidgets as widgets
import plotly.graph_objects as go

from rules_core import all_systems, evaluate, get_system

from workbook.pages.dashboard import View
from workbook.pages.notebook import dashboard

CARD = re.compile(r'<div class="wb-card" data-key="([^"]+)">.*?data-value="([^"]*)"')


def open_everything(root):
    '''Turn on every toggle of the page (present mode aside), again until opening one shows no
    new one (a panel's own toggles appear once it is built).'''
    seen = set()
    while True:
        stack, opened = [root], False
        while stack:
            widget = stack.pop()
            if isinstance(widget, widgets.ToggleButton) and id(widget) not in seen:
                seen.add(id(widget))
                if not widget.value and "wb-present-toggle" not in widget._dom_classes:
                    widget.value = opened = True
            stack.extend(getattr(widget, "children", None) or ())
        if not opened:
            return


def shown_html(root):
    '''Every HTML the page holds, joined.'''
    found, stack = [], [root]
    while stack:
        widget = stack.pop()
        if isinstance(widget, widgets.HTML):
            found.append(widget.value)
        stack.extend(getattr(widget, "children", None) or ())
    return "".join(found)


def check_headline(d):
    core = evaluate(d.scenario)
    shown = dict(CARD.findall(d._headline.value))
    assert shown == {k: f"{v.numerator}/{v.denominator}" for k, v in core.headline.items() if v is not None}, \\
        (d.system.id, d.lang, shown)
    assert shown, d.system.id


def exercise(d):
    '''Open every view and panel, pin A, show another scenario, roll, simulate, make the report.'''
    open_everything(d.widget)
    check_headline(d)
    d.panel("analysis").compare.pin()
    presets = d.system.presets
    d.scenario = presets[-1].scenario if presets and presets[-1].scenario != d.scenario else \\
        d.system.default_scenario()
    open_everything(d.widget)
    check_headline(d)
    assert set(d.rendered) == {v.title for v in d.views if isinstance(v, View)}, d.system.id
    assert all(shown is not None for shown in d.rendered.values())
    d.panel("roll").roll()
    d.panel("simulation").n.value = 200
    d.panel("simulation").run_button.click()
    assert d.panel("simulation").table.value and d.panel("simulation").figure is not None
    assert d.panel("analysis").sweep.figure is not None and d.panel("analysis").compare.comparison is not None
    report = d.panel("analysis").export.make_report()
    assert 'class="wb-report-outcomes"' in report and "wb-report-sweep" in report
    first = evaluate(d.scenario).outcome_rows()[0][1]
    assert f">{first.numerator}/{first.denominator}<" in report


for system_id, system in sorted(all_systems().items()):
    d = dashboard(system_id, query="")
    exercise(d)
    for lang in system.languages[1:]:
        d.set_lang(lang)
        check_headline(d)
        exercise(d)

sys.path.insert(0, TESTS)
from example_rule import SYSTEM as DESIGNED  # the design-a-rule notebook's kind of rule

d = dashboard(DESIGNED, query="")
d.open("design")
exercise(d)

from workbook.pages.catalog import index
from workbook.pages.explain import explained
from workbook.pages.four_games import FourGames
from workbook.pages.lessons import bell_and_flat, leftover_successes, one_die_three_attackers, sampling

assert "wb-index-link" in index().value
explained("d100-homebrew", query="")
four = FourGames(query="")
four.measure.value = "hits_avoided"
assert four.make_report()
for lesson in (bell_and_flat(), leftover_successes("en"), leftover_successes("ru"), one_die_three_attackers()):
    assert "<table" in shown_html(lesson)
lesson = sampling("infinity-n4")
game, preset = lesson.children[0].children
game.value = "gurps-4e"
p = evaluate(get_system("gurps-4e").preset(preset.value).scenario).headline["p_no_hit"]
assert f"<b>{p.numerator}/{p.denominator}</b>" in shown_html(lesson)
assert list(go.Figure(go.Bar(x=[1, 2], y=[0.25, 0.75])).to_plotly_json()["data"][0]["y"]) == [0.25, 0.75]
print("ok")
"""


def _run(script: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=600,
                          cwd=TESTS.parent)


def test_every_page_runs_with_pandas_and_numpy_refused():
    done = _run(BLOCK + f"TESTS = {str(TESTS)!r}\n" + PAGES)
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr[-4000:]


def test_the_refusal_is_felt():
    """The check above can fail: a page's path importing pandas is refused there."""
    done = _run(BLOCK + "import workbook.pages.dashboard\nimport pandas\n")
    assert done.returncode != 0 and "refused: a page must run without it" in done.stderr


def test_importing_the_dashboard_imports_neither():
    done = _run("import sys\nimport workbook.pages.dashboard\n"
                "print(sorted({'pandas', 'numpy'} & set(sys.modules)))")
    assert done.returncode == 0 and done.stdout.strip() == "[]", done.stderr[-4000:]
