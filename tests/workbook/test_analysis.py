"""The bundle of compare, sweep, mode and export panels a dashboard adds, fed result by result."""

from __future__ import annotations

import base64
import re

from rules_core import all_systems, evaluate, find_preset
from rules_core.compare import compare
from workbook.panels.analysis import AnalysisPanels
from workbook.panels.compare import read_pin
from workbook.panels.export import comparison_csv, sweep_csv
from workbook.page.share import encode_query


def downloads(panels: AnalysisPanels) -> dict[str, str]:
    found = re.findall(r'download="([^"]+)" href="data:[^;]+;charset=utf-8;base64,([^"]+)"', panels.export.links.value)
    return {name: base64.b64decode(data).decode() for name, data in found}


def test_pin_sweep_and_export_follow_the_page():
    system = all_systems()["eldfall"]
    loaded = []
    panels = AnalysisPanels(system, on_load=loaded.append)
    a = find_preset("eldfall/dodge-vs-critical").scenario
    b = a.set("defender.ag", 15)
    link = "http://127.0.0.1:8866/voila/render/eldfall.ipynb?" + encode_query(system, a)
    panels.update(evaluate(a), link)
    assert set(downloads(panels)) == {"eldfall-outcomes.csv", "eldfall-scenario.json"}
    assert panels.modes.figure is not None and panels.share_query() == ""
    panels.compare.pin_button.click()
    panels.update(evaluate(b), link)
    files = downloads(panels)
    assert files["eldfall-a-against-b.csv"] == comparison_csv(compare(a, b))
    assert read_pin(system, panels.share_query())[0] == a
    assert panels.export.share_link.startswith(link + "&pin=")
    panels.sweep.open.value = True
    assert downloads(panels)["eldfall-sweep.csv"] == sweep_csv(panels.sweep.sweep)
    report = panels.export.make_report()
    assert "wb-report-compare-chart" in report and "wb-report-sweep" in report
    diff = evaluate(b).headline["p_no_hit"] - evaluate(a).headline["p_no_hit"]
    assert f"{diff.numerator}/{diff.denominator}" in report
    panels.compare.unpin_button.click()
    assert "eldfall-a-against-b.csv" not in downloads(panels) and panels.share_query() == ""
    # a scenario file goes to the page
    panels.export.load(b.to_json().encode(), "b.json")
    assert loaded == [b]


def test_a_link_with_a_pin_reopens_both():
    system = all_systems()["infinity-n4"]
    a = find_preset("infinity-n4/zhanshi-vs-fusilier").scenario
    b = a.set("dodger.ph", 12)
    panels = AnalysisPanels(system)
    panels.compare.pin(evaluate(a))
    query = encode_query(system, b) + "&" + panels.share_query()
    again = AnalysisPanels(system)
    assert again.restore(query) == ""
    again.update(evaluate(b))
    assert again.compare.pinned.scenario == a
    cards = again.compare.cards.value
    assert 'data-exact="47/500"' in cards
    assert "refused" in again.restore("pin=dodger.ph%3D99")
