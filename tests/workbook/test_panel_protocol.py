"""The panel protocol (workbook.page.panel): the dashboard knows no panel by name, a panel
touches of its page only what :class:`PageContext` names, and a panel registered from outside
gets a place on every page built after it (or takes the place of a built-in one of its name),
with no change to the page."""

from __future__ import annotations

import ast
from pathlib import Path

import ipywidgets as widgets
import pytest

from rules_core import find_preset
from workbook.pages.dashboard import Dashboard
from workbook.page.panel import PAGE_CONTEXT, PagePanel
from workbook.panels.compare import ReadingPanel
from workbook.panels.registry import PANELS, page_panels, register

WORKBOOK = Path(__file__).resolve().parents[2] / "workbook"
#: The code that assembles a page and hosts its panels.
PAGE_CODE = [WORKBOOK / "pages" / "dashboard.py", WORKBOOK / "page" / "host.py", WORKBOOK / "page" / "state.py"]
#: The code of every panel: those of the page and those the systems list among their views.
PANEL_CODE = sorted([*(WORKBOOK / "panels").glob("*.py"), *(WORKBOOK / "systems").glob("*.py")])


def _code_names(source: str) -> set[str]:
    """Every identifier, attribute and string constant of a module's code (docstrings left out)."""
    tree = ast.parse(source)
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


def _panels_named(sources: list[str]) -> dict[str, set[str]]:
    """Each panel class whose name, class name, CSS class or link key the ``sources`` say."""
    said = set().union(*(_code_names(source) for source in sources))
    found = {}
    for kind in page_panels():
        words = {kind.name, kind.__name__, kind.css, *kind.css.split("-"), *kind.link_keys} - {"wb"}
        if words & said:
            found[kind.__name__] = words & said
    return found


def _page_touched(source: str) -> set[str]:
    """Every attribute read of a panel's page: ``page.x`` and ``<anything>.page.x``."""
    touched = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Load):
            owner = node.value
            if (isinstance(owner, ast.Name) and owner.id == "page") or \
                    (isinstance(owner, ast.Attribute) and owner.attr == "page"):
                touched.add(node.attr)
    return touched


def test_the_dashboard_names_no_panel():
    """No panel's name, class, CSS class or link key is in the code of the page."""
    assert _panels_named([path.read_text() for path in PAGE_CODE]) == {}


def test_the_check_of_names_can_fail():
    """The same reading finds a panel the page's real code would name (a test that cannot fail
    is none): one line added to the dashboard's code is caught."""
    dashboard = PAGE_CODE[0].read_text()
    assert "for_page" in PAGE_CODE[1].read_text() and "PanelHost" in dashboard  # the real code is read
    named = _panels_named([dashboard + '\n\ndef _open_rulings(page):\n    page.panel("rulings")\n'])
    assert named == {"ReadingPanel": {"rulings"}}


@pytest.mark.parametrize("path", PANEL_CODE, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_a_panel_touches_of_its_page_only_the_page_context(path):
    touched = _page_touched(path.read_text())
    assert touched <= PAGE_CONTEXT, f"{path.name} touches {sorted(touched - PAGE_CONTEXT)} of its page"


def test_the_check_of_the_page_context_can_fail():
    """Reading a panel's code finds what it touches (a page's widget is not for a panel), and
    the panels do touch their page: the check reads something."""
    assert _page_touched("def f(self):\n    return self.page.widget, page.state") == {"widget", "state"}
    assert {"state", "evaluate", "open"} <= set().union(*(_page_touched(p.read_text()) for p in PANEL_CODE))


def test_the_dashboard_has_no_attribute_magic():
    assert "__getattr__" not in vars(Dashboard)


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

    def update(self, result):
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
    dash.toggle("notes").value = True
    assert notes.made == 1 and dash.panel("notes").opened == [True] and dash.panel("notes").fed == [dash.scenario]
    moved = dash.scenario.set("defender.ag", dash.scenario.defender.ag + 1)
    dash.form.set_scenario(moved)
    assert dash.panel("notes").fed[-1] == moved
    dash.set_present(True)
    assert dash.panel("notes").present is True
    box = next(w for w in dash.widget.children if "wb-notes" in getattr(w, "_dom_classes", ()))
    assert box.children[1].children == (dash.panel("notes").widget,)


def test_a_panel_reads_its_link_keys_and_adds_to_the_address(notes):
    dash = Dashboard("d100-homebrew", query="note=yes&lang=en")
    assert dash.panel("notes").asked == {"note": "yes"} and dash.toggle("notes").value is True
    assert dash.urlbar.query.endswith("note=1")
    dash.set_lang("ru")  # said again in Russian: built again, given back what it carried
    assert notes.made == 2 and dash.panel("notes").given_back == 1  # it had been fed once
    assert dash.panel("notes").opened[-1] is True and dash.panel("notes").fed  # open again, and shown the result


def test_a_page_without_a_panel_has_none(notes):
    assert Dashboard("infinity-n4", query="").panel("design") is not None
    page = Dashboard(find_preset("eldfall/no-los").scenario.system, query="")
    assert page.panel("notes") is not None
    with pytest.raises(KeyError):
        page.panel("no-such-panel")


class OtherReadings(ReadingPanel):
    """The rulings panel, replaced by a designer's own of the same name."""

    title = "Compare a reading"


@pytest.fixture
def other_readings():
    kept = list(PANELS)
    register(OtherReadings)
    yield OtherReadings
    PANELS[:] = kept


def test_a_registered_panel_replaces_the_built_in_one_of_its_name(other_readings):
    names = [kind.name for kind in page_panels()]
    assert names.count("rulings") == 1 and names.index("rulings") == 1  # in the built-in's place
    assert ReadingPanel not in page_panels()
    dash = Dashboard("eldfall", query="")
    dash.toggle("rulings").value = True
    assert type(dash.panel("rulings")) is OtherReadings
    assert dash.toggle("rulings").description == "Compare a reading"
    assert dash.panel("rulings").compare.comparison is not None  # built, opened and shown the result


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
    assert later.panel("analysis").compare.pinned is None


def test_each_open_panel_writes_its_section_of_the_report():
    """The report holds the sections of the panels open on the page, and only theirs: Design on
    a house rule (its house rules against the official rule), the rulings while open."""
    from workbook.panels.export import dashboard_report

    dash = Dashboard("infinity-n4", query="variant.mod_cap=9")
    assert dash.toggle("design").value is True  # a link to a house rule opens Design
    page = dashboard_report(dash)
    assert 'class="wb-report-design"' in page and "House rules in force" in page
    assert 'class="wb-report-rulings"' not in page
    dash.toggle("rulings").value = True
    dash.toggle("design").value = False
    page = dashboard_report(dash)
    assert 'class="wb-report-rulings"' in page and 'class="wb-report-design"' not in page
