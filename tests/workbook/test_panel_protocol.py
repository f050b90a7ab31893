"""The panel protocol (workbook.page.panel): the dashboard knows no panel by name, and a panel
registered from outside gets a place on every page built after it, with no change to the page."""

from __future__ import annotations

import ast
from pathlib import Path

import ipywidgets as widgets
import pytest

from rules_core import find_preset
from workbook.pages.dashboard import Dashboard
from workbook.page.panel import PagePanel
from workbook.panels.registry import PANELS, page_panels, register

APP = Path(__file__).resolve().parents[2] / "workbook" / "app.py"


def _code_names(path: Path) -> set[str]:
    """Every identifier, attribute and string constant of a module's code (docstrings left out)."""
    tree = ast.parse(path.read_text())
    docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                  if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
                  and node.body and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant)}
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            names.add(node.id)
        elif isinstance(node, ast.Attribute):
            names.add(node.attr)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
            names.update(node.value.replace("-", " ").replace("_", " ").split())
    return names


def test_the_dashboard_names_no_panel():
    """No panel's name, class, CSS class or link key is in the dashboard's code."""
    said = _code_names(APP)
    for kind in page_panels():
        words = {kind.name, kind.__name__, kind.css, *kind.css.split("-"), *kind.link_keys} - {"wb"}
        assert not (words & said), (kind.__name__, words & said)


class Notes(PagePanel):
    """A panel of a designer's: counts what the page gives it."""

    name, title, css = "notes", "Notes", "wb-notes"
    link_keys = ("note",)
    made = 0

    @classmethod
    def for_page(cls, page):
        cls.made += 1
        panel = cls()
        panel.page, panel.fed, panel.opened, panel.asked = page, [], [], {}
        panel.widget = widgets.HTML("notes")
        return panel

    def feed(self, result):
        self.fed.append(result.scenario)

    def set_open(self, on):
        self.opened.append(on)

    def from_link(self, values):
        self.asked = values
        self.page.open(self.name)
        return ""

    def link_query(self):
        return "note=1" if self.asked else ""

    def carry(self):
        return len(self.fed)

    def take(self, carried):
        self.given_back = carried


@pytest.fixture
def notes():
    Notes.made = 0
    register(Notes, before="roll")
    yield Notes
    PANELS[:] = [p for p in PANELS if p is not Notes]


def test_a_registered_panel_gets_its_place_without_a_change_to_the_page(notes):
    names = [kind.name for kind in page_panels()]
    assert names.index("notes") == names.index("roll") - 1
    dash = Dashboard("eldfall", query="")
    assert "wb-notes-toggle" in dash.toggles and notes.made == 0  # collapsed: not built
    dash.notes_on.value = True
    assert notes.made == 1 and dash.notes.opened == [True] and dash.notes.fed == [dash.scenario]
    moved = dash.scenario.set("defender.ag", dash.scenario.defender.ag + 1)
    dash.form.set_scenario(moved)
    assert dash.notes.fed[-1] == moved
    dash.set_present(True)
    assert dash.notes.present is True
    box = next(w for w in dash.widget.children if "wb-notes" in getattr(w, "_dom_classes", ()))
    assert box.children[1].children == (dash.notes.widget,)


def test_a_panel_reads_its_link_keys_and_adds_to_the_address(notes):
    dash = Dashboard("d100-homebrew", query="note=yes&lang=en")
    assert dash.notes.asked == {"note": "yes"} and dash.notes_on.value is True
    assert dash.urlbar.query.endswith("note=1")
    dash.set_lang("ru")  # said again in Russian: built again, given back what it carried
    assert notes.made == 2 and dash.notes.given_back == 1  # it had been fed once
    assert dash.notes.opened[-1] is True and dash.notes.fed  # open again, and shown the result


def test_a_page_without_a_panel_says_none(notes):
    assert Dashboard("infinity-n4", query="").design is not None
    page = Dashboard(find_preset("eldfall/no-los").scenario.system, query="")
    assert page.notes is not None
    with pytest.raises(AttributeError):
        page.no_such_panel


def test_register_refuses_what_is_not_a_panel():
    with pytest.raises(TypeError):
        register(object)
    with pytest.raises(TypeError):
        register(type("Nameless", (PagePanel,), {}))


def test_a_refused_pin_is_said_whether_the_link_came_at_build_or_later():
    """A preheated page reads its link after it is built (apply_query): the pin's refusal is said
    there too, as on a page built with the link."""
    said = "The pinned scenario A was refused"
    built_with = Dashboard("infinity-n4", query="pin=dodger.ph%3D99999")
    later = Dashboard("infinity-n4", query="")
    later.apply_query("pin=dodger.ph%3D99999")
    assert any(n.startswith(said) for n in built_with.notices)
    assert any(n.startswith(said) for n in later.notices)
    assert later.analysis.compare.pinned is None


def test_each_open_panel_writes_its_section_of_the_report():
    """The report holds the sections of the panels open on the page, and only theirs: Design on
    a house rule (its house rules against the official rule), the rulings while open."""
    from workbook.panels.export import dashboard_report

    dash = Dashboard("infinity-n4", query="variant.mod_cap=9")
    assert dash.design_on.value is True  # a link to a house rule opens Design
    page = dashboard_report(dash)
    assert 'class="wb-report-design"' in page and "House rules in force" in page
    assert 'class="wb-report-rulings"' not in page
    dash.rulings_on.value = True
    dash.design_on.value = False
    page = dashboard_report(dash)
    assert 'class="wb-report-rulings"' in page and 'class="wb-report-design"' not in page
