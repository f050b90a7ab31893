"""What keeps a dashboard fast, checked by what it does (never by timing it): each scenario is
evaluated once per change, collapsed panels are not rendered until opened, control changes from
the browser are coalesced, and a preheated page applies its URL query after being built."""

from __future__ import annotations

import asyncio
import py_compile
import sys
from collections import Counter
from dataclasses import replace
from fractions import Fraction

import pytest

from workbook.page import batch
from rules_core import get_system
from workbook.page import share, views
from workbook.pages.dashboard import Dashboard, View
from workbook.page.views import distribution_chart
from workbook_fake import FAKE
from dashboard_checks import shown_in


@pytest.fixture
def counted(monkeypatch):
    """``wrap(system)`` counts every scenario given to that (registered, frozen) system's
    ``evaluate`` until the test ends; the result cache starts empty."""
    seen: Counter = Counter()
    monkeypatch.setattr(views, "_RESULTS", type(views._RESULTS)())
    restore = []

    def wrap(system):
        original = system.evaluate

        def evaluate(scenario):
            seen[scenario] += 1
            return original(scenario)

        object.__setattr__(system, "evaluate", evaluate)  # System is frozen; put back below
        restore.append((system, original))
        return system

    yield seen, wrap
    for system, original in restore:
        object.__setattr__(system, "evaluate", original)


def _hits_view(open_: bool, renders: list) -> View:
    def render(result, lang):
        renders.append(result.scenario)
        return distribution_chart(result.distributions["hits rolled"], "Hits rolled", lang, system=FAKE)
    return View("Hits rolled", render, open=open_)


@pytest.mark.parametrize("system_id", ["gurps-4e", "eldfall"])
def test_a_change_evaluates_each_scenario_once(counted, system_id):
    seen, wrap = counted
    system = get_system(system_id)
    wrap(system)
    dash = Dashboard(system, query="")
    assert seen and max(seen.values()) == 1, seen  # building the page: each scenario once
    first = set(seen)
    seen.clear()
    preset = next(p for p in system.presets if p.scenario != dash.scenario)
    dash.form.set_scenario(preset.scenario)
    assert dash.result.scenario == preset.scenario
    assert seen[preset.scenario] == 1
    assert max(seen.values()) == 1, seen  # what-if / without results too: once each
    seen.clear()
    dash.form.set_scenario(next(iter(first)) if dash.system.id != "gurps-4e" else system.default_scenario())
    assert all(n == 1 for n in seen.values())  # scenarios shown before come from the cache


def test_compare_a_ruling_reuses_the_shown_result(counted):
    seen, wrap = counted
    wrap(FAKE)
    dash = Dashboard(FAKE, query="")
    dash.toggle("rulings").value = True
    dash.form.control("defender.agility").value = 4
    assert max(seen.values()) == 1, seen


def test_a_collapsed_view_is_rendered_only_while_open():
    renders: list = []
    dash = Dashboard(FAKE, query="", views=[_hits_view(False, renders)])
    assert renders == [] and "Hits rolled" not in dash.rendered
    dash.form.control("defender.agility").value = 4
    assert renders == []  # closed: changes cost it nothing
    toggle = dash.view_toggles["Hits rolled"]
    assert "wb-view-hits-rolled-toggle" in toggle._dom_classes
    toggle.value = True
    assert renders == [dash.scenario]
    box = dash._view_boxes["Hits rolled"]
    y = shown_in(box)["data"][0]["y"]
    assert y == [float(p) for _, p in dash.result.distributions["hits rolled"].items()]
    dash.form.control("defender.agility").value = 5
    assert renders[-1] == dash.scenario and len(renders) == 2
    toggle.value = False
    dash.form.control("defender.agility").value = 2
    assert len(renders) == 2 and box.layout.display == "none"


def test_an_open_view_is_not_sent_again_when_its_output_is_unchanged():
    renders: list = []
    dash = Dashboard(FAKE, query="", views=[_hits_view(True, renders)])
    box = dash._view_boxes["Hits rolled"]
    sent: list = []
    (chart,) = box.children
    chart.observe(lambda change: sent.append(change), names="figure")
    dash.form.control("defender.agility").value = 4  # the dodge changes, the hits rolled do not
    assert len(renders) == 2 and sent == []


def test_browser_changes_arriving_together_are_shown_once(monkeypatch):
    dash = Dashboard(FAKE, query="")
    shown: list = []
    real_show = dash._show
    monkeypatch.setattr(dash, "_show", lambda s: (shown.append(s), real_show(s)))
    monkeypatch.setattr(batch, "_handling_browser_message", lambda: True)

    async def drag() -> None:
        for agility in (1, 2, 3, 4, 5):
            dash.form.control("defender.agility").value = agility
        assert shown == []  # nothing drawn while changes are still being read
        await asyncio.sleep(0)

    asyncio.run(drag())
    assert len(shown) == 1 and shown[0].defender.agility == 5
    assert dash.result.scenario.defender.agility == 5


def test_without_a_kernel_changes_are_shown_at_once():
    dash = Dashboard(FAKE, query="")
    dash.form.control("defender.agility").value = 5
    assert dash.result.scenario.defender.agility == 5


def test_a_preheated_page_is_built_before_its_query_is_read(monkeypatch):
    monkeypatch.setenv("VOILA_PREHEAT", "True")
    built_when_asked: list = []

    def read_query():
        built_when_asked.append(dash_holder and dash_holder[0] or None)
        return "defender.agility=5&lang=xx"

    dash_holder: list = []
    original_build = Dashboard._build

    def build(self, scenario):
        original_build(self, scenario)
        dash_holder[:] = [self]

    monkeypatch.setattr(Dashboard, "_build", build)
    monkeypatch.setattr(share, "wait_for_request", lambda: {"QUERY_STRING": read_query()})
    dash = Dashboard(FAKE)
    assert built_when_asked and built_when_asked[0] is dash  # the page existed when the query was read
    assert dash.lang == "xx" and dash.scenario.defender.agility == 5
    assert dash.result.scenario == dash.scenario
    plain = Dashboard(FAKE, query="defender.agility=5&lang=xx")
    assert dash.tables["headline"] == plain.tables["headline"]
    assert dash.form.control("defender.agility").description == "‹Agility›"


def test_a_preheated_page_asked_for_with_a_plain_link_only_takes_its_address(monkeypatch):
    """The usual request (no query): the numbers are the page's as built, not computed again; the
    share link and the address bar take the page's real address, as a page built for the request
    would have them."""
    monkeypatch.setenv("VOILA_PREHEAT", "True")
    for name in ("VOILA_REQUEST_URL", "SERVER_NAME", "SERVER_PORT", "SCRIPT_NAME", "PATH_INFO"):
        monkeypatch.delenv(name, raising=False)

    def request():
        monkeypatch.setenv("VOILA_REQUEST_URL", "http://class.example:8866/voila/render/fake.ipynb")
        return {"QUERY_STRING": ""}

    monkeypatch.setattr(share, "wait_for_request", request)
    computed = []
    original = Dashboard._show
    monkeypatch.setattr(Dashboard, "_show", lambda self, scenario: (computed.append(scenario), original(self, scenario)))
    dash = Dashboard(FAKE)
    assert len(computed) == 1  # built once; the request added no evaluation
    plain = Dashboard(FAKE, query="")
    assert dash._share.value == plain._share.value and "http://class.example:8866/" in dash._share.value
    assert dash.urlbar.query == plain.urlbar.query and dash.notices == plain.notices == []
    assert dash.tables["headline"] == plain.tables["headline"]


def test_a_preheated_page_shows_a_refused_query_as_a_notice(monkeypatch):
    monkeypatch.setenv("VOILA_PREHEAT", "True")
    monkeypatch.setattr(share, "wait_for_request", lambda: {"QUERY_STRING": "defender.agility=99"})
    dash = Dashboard(FAKE)
    assert dash.scenario == FAKE.default_scenario()
    assert dash.notices and dash.notices == Dashboard(FAKE, query="defender.agility=99").notices
    assert Fraction(dash.tables["outcomes"].column("exact")[0]) == dash.result.outcomes[dash.result.outcome_order[0]]


def test_views_are_found_without_importing_other_systems_panels():
    assert views._declared_system_id("gurps") == "gurps-4e"
    assert views._declared_system_id("views") is None
    assert [v.title for v in views.system_views("gurps-4e")][:1] == ["Dodge roll (3d6)"]


@pytest.mark.parametrize("source", [True, False], ids=["source", "bytecode only"])
def test_a_declared_id_is_read_without_running_the_module(tmp_path, monkeypatch, source):
    """As on the static site, where the workbook ships as bytecode without its sources."""
    package = tmp_path / "declaring"
    package.mkdir()
    (package / "__init__.py").write_text("")
    code = 'SYSTEM_ID = "my-game"\nOTHER: str = "x"\nNUMBER = 3\nraise RuntimeError("the module ran")\n'
    (package / "game.py").write_text(code)
    if not source:
        py_compile.compile(str(package / "game.py"), cfile=str(package / "game.pyc"), doraise=True)
        (package / "game.py").unlink()
    monkeypatch.syspath_prepend(str(tmp_path))
    assert views._declared_constant("declaring.game", "SYSTEM_ID") == "my-game"
    assert views._declared_constant("declaring.game", "OTHER") == "x"
    assert views._declared_constant("declaring.game", "NUMBER") is None  # not a string
    assert views._declared_constant("declaring.game", "MISSING") is None
    assert views._declared_constant("declaring.absent", "SYSTEM_ID") is None
    assert "declaring.game" not in sys.modules


def test_view_open_defaults_to_true():
    view = View("x", lambda r, lang: "")
    assert view.open is True and replace(view, open=False).open is False


def test_a_preheated_kernel_reads_the_request_from_voilas_query_socket(monkeypatch):
    """The kernel asks Voilà's ``/voila/query/<kernel id>`` socket (as ``voila.utils`` would) and
    takes the request's details into its environment, for the query and the share link."""
    import json
    import threading

    from websockets.sync.server import serve

    asked: list = []

    def answer(socket):
        asked.append(socket.request.path)
        socket.send(json.dumps({"QUERY_STRING": "defender.agility=5", "SERVER_NAME": "127.0.0.1",
                                "SERVER_PORT": "9999", "SCRIPT_NAME": "/voila/render/fake.ipynb"}))

    with serve(answer, "127.0.0.1", 0) as server:
        port = server.socket.getsockname()[1]
        threading.Thread(target=server.serve_forever, daemon=True).start()
        for name, value in {"VOILA_PREHEAT": "True", "VOILA_APP_PORT": str(port), "VOILA_KERNEL_ID": "k-1",
                            "VOILA_SERVER_URL": "/"}.items():
            monkeypatch.setenv(name, value)
        for name in ("QUERY_STRING", "SERVER_NAME", "SERVER_PORT", "SCRIPT_NAME"):
            monkeypatch.setenv(name, "")  # so that the request's values are undone afterwards
        dash = Dashboard(FAKE)
        server.shutdown()
    assert asked == ["/voila/query/k-1"]
    assert dash.scenario.defender.agility == 5
    assert "http://127.0.0.1:9999/voila/render/fake.ipynb?" in dash._share.value


def _tree(widget, seen: set[int]) -> int:
    """How many distinct widgets (models the browser builds) ``widget`` holds, itself included."""
    from ipywidgets import Widget
    if id(widget) in seen or not isinstance(widget, Widget):
        return 0
    seen.add(id(widget))
    count = 1
    for name in widget.keys:
        value = getattr(widget, name, None)
        for item in (value if isinstance(value, (list, tuple)) else [value]):
            count += _tree(item, seen)
    return count


@pytest.mark.parametrize("system_id", ["infinity-n4", "gurps-4e", "eldfall", "d100-homebrew"])
def test_a_page_opens_with_its_collapsed_panels_unbuilt_and_few_widgets(system_id):
    """Every widget is a model the browser builds before the page shows: the collapsed panels
    are built when first opened, and the form's fields share their layouts and styles."""
    dash = Dashboard(system_id, query="")
    shown = {name for name, kind in dash.host.kinds.items() if not kind.collapsible}  # Eldfall's worth
    assert set(dash.built) == shown  # nothing opened, nothing asked for
    opened = _tree(dash.widget, set())
    # Measured 197–268 (234–330 while each field sat in a box of its own); before the collapsed
    # panels waited to be opened, the same pages built 670–905.
    assert opened <= 300, opened
    form = _tree(dash.form.widget, set())
    fields = len(dash.form.paths())
    # about two per field (its input and that input's layout or style); four while each field sat
    # in a box of its own, eight before the fields shared their layouts and styles
    assert form <= 2 * fields + 20, (form, fields)
    dash.toggles["wb-analysis-toggle"].value = True
    dash.toggles["wb-roll-toggle"].value = True
    assert set(dash.built) == {"analysis", "roll", *shown} and _tree(dash.widget, set()) > opened + 50


def test_opening_a_panel_shows_the_current_result():
    dash = Dashboard("infinity-n4", query="")
    dash.form.control("dodger.ph").value = 13
    dash.toggles["wb-rulings-toggle"].value = True
    assert dash.panel("rulings").result.scenario == dash.scenario
    assert dash.panel("rulings").compare.comparison is not None  # open: computed at once
    assert dash.panel("roll").result.scenario == dash.scenario  # asked for in code: built and fed


def test_opening_compare_sweep_export_shows_the_result_in_its_panels_once(monkeypatch):
    from workbook.panels.modes import ModePanel
    shown = []
    original = ModePanel.update
    monkeypatch.setattr(ModePanel, "update", lambda self, result: (shown.append(result), original(self, result)))
    dash = Dashboard("d100-homebrew", query="")
    dash.toggles["wb-analysis-toggle"].value = True
    assert shown == [dash.result]
    dash.language.value = "en" if dash.lang == "ru" else "ru"  # rebuilt, opened again: once more
    assert len(shown) == 2 and dash.toggles["wb-analysis-toggle"].value


def test_a_language_switch_builds_only_the_panels_again():
    """The form and the page's own widgets are relabelled in place; a system's panel (its own
    controls, built with the page's words) is built again in the new language, in the old one's
    place, and shown the result."""
    import ipywidgets as widgets

    from workbook.page.panel import PagePanel

    class Worded(PagePanel):
        name, title, collapsible = "words", "Words", False

        @classmethod
        def for_page(cls, page):
            panel = cls()
            panel.widget, panel.shown = widgets.HTML(page.text("Agility")), []
            return panel

        def update(self, result):
            self.shown.append(result.scenario)

    dash = Dashboard(FAKE, query="", views=[Worded])
    old, slider = dash.panel("words"), dash.form.control("defender.agility")
    dash.set_lang("xx")
    new = dash.panel("words")
    assert new is not old and new.widget.value == "‹Agility›" and old.widget.comm is None
    assert new.shown[-1] == dash.scenario and "wb-view-words" in new.widget._dom_classes

    def tree(w):
        yield w
        for child in getattr(w, "children", ()):
            yield from tree(child)
    assert any(w is new.widget for w in tree(dash.widget))
    assert not any(w is old.widget for w in tree(dash.widget))
    assert dash.form.control("defender.agility") is slider and slider.description == "‹Agility›"
