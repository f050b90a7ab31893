"""The dashboards' chart widget (workbook.page.chart): one plot updated in place, plotly.js from the
page's own server or, where that server is not there, from the kernel."""

from __future__ import annotations

import json
from fractions import Fraction

import plotly.graph_objects as go

from rules_core import get_system
from workbook.pages.dashboard import Dashboard
from workbook.page.chart import PLOTLY_JS, Chart, chart, plotly_url
from workbook.page.layout import style_figure
from workbook.page.views import outcome_chart


def _figure(y):
    return go.Figure(go.Bar(x=["a", "b"], y=y), layout={"height": 320})


def test_a_chart_holds_the_figure_and_sends_a_change_only():
    shown = chart("wb-test-chart", _figure([0.25, 0.75]))
    assert "wb-test-chart" in shown._dom_classes
    assert json.loads(shown.figure)["data"][0]["y"] == [0.25, 0.75]
    sent = []
    shown.observe(lambda change: sent.append(change.new), names="figure")
    shown.show(_figure([0.25, 0.75]))  # the same figure again: nothing to send
    assert sent == []
    shown.show(_figure([0.5, 0.5]))
    assert len(sent) == 1 and json.loads(sent[0])["data"][0]["y"] == [0.5, 0.5]
    shown.show(None)
    assert shown.figure == ""


def test_the_modebar_has_no_plotly_logo_and_follows_the_width():
    assert Chart().config == {"displaylogo": False, "responsive": True}


def test_plotly_js_comes_from_the_pages_own_server(monkeypatch):
    monkeypatch.setenv("VOILA_BASE_URL", "/class/")
    url = plotly_url()
    assert url.startswith("/class/workbook/static/plotly.min.js?v=")
    monkeypatch.delenv("VOILA_BASE_URL")
    assert plotly_url().startswith("/workbook/static/plotly.min.js?v=")


def test_without_that_server_the_kernel_sends_plotly_js_once_asked():
    shown = Chart()
    sent = []
    shown.send = lambda content, buffers=None: sent.append((content, buffers))
    shown._asked(shown, {"type": "something else"}, [])
    assert sent == []
    shown._asked(shown, {"type": "plotly"}, [])
    ((content, (body,)),) = sent
    assert content == {"type": "plotly"}
    assert body == PLOTLY_JS.read_bytes() and b"window.Plotly" in body


def test_the_dashboards_outcome_chart_is_the_cores_numbers_in_the_workbooks_style():
    system = get_system("d100-homebrew")
    dash = Dashboard(system, query="")
    (widget,) = dash._outcome_chart.children
    sent = json.loads(widget.figure)
    core = system.evaluate(dash.scenario)
    assert [Fraction(c[0]) for c in sent["data"][0]["customdata"]] == [p for _, p in core.outcome_rows()]
    styled = json.loads(style_figure(outcome_chart(core, dash.lang, system=system)).to_json())
    assert sent["layout"]["height"] == styled["layout"]["height"] and sent["layout"]["font"] == styled["layout"]["font"]
    first = widget.figure
    dash.set_present(True)
    (same,) = dash._outcome_chart.children
    assert same is widget  # the same plot, updated in place
    assert json.loads(widget.figure)["layout"]["height"] > sent["layout"]["height"]
    assert widget.figure != first
