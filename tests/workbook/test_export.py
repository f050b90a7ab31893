"""Exports: every number in a CSV is the core's exact value; a scenario file round-trips and a
bad one changes nothing; the HTML report carries the headline, charts, trace and link."""

from __future__ import annotations

import csv
import datetime
import json
import re
from fractions import Fraction

import pytest

from rules_core import all_systems, evaluate, find_preset, sweep
from rules_core.compare import compare
from workbook.export import (ExportPanel, LoadError, comparison_csv, outcomes_csv, read_scenario_file,
                             report_html, scenario_json, sweep_csv)

FIRST = [f"{s.id}/{s.presets[0].name}" for s in all_systems().values()]


def rows(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(text.splitlines()))


@pytest.mark.parametrize("ref", FIRST)
def test_outcomes_csv_is_exact(ref):
    result = evaluate(find_preset(ref).scenario)
    table = rows(outcomes_csv(result))
    assert [r["outcome"] for r in table] == list(result.outcome_order)
    for r in table:
        assert Fraction(r["exact"]) == result.outcomes[r["outcome"]]
        assert float(r["float"]) == float(result.outcomes[r["outcome"]])


def test_sweep_csv_point_at_own_value_equals_evaluate():
    scenario = find_preset("eldfall/dodge-vs-critical").scenario
    own = scenario.defender.ag
    table = rows(sweep_csv(sweep(scenario, "defender.ag", [own - 1, own, own + 1])))
    at_own = {r["headline"]: r for r in table if r["defender.ag"] == str(own)}
    for key, value in evaluate(scenario).headline.items():
        assert (Fraction(at_own[key]["exact"]) if at_own[key]["exact"] else None) == value
    assert {r["defender.ag"] for r in table} == {str(own - 1), str(own), str(own + 1)}


def test_comparison_csv_differences_and_points():
    a = find_preset("infinity-n4/zhanshi-vs-fusilier").scenario
    b = a.set("attackers.0.burst", 1)
    ra, rb = evaluate(a), evaluate(b)
    table = rows(comparison_csv(compare(a, b)))
    heads = {r["key"]: r for r in table if r["kind"] == "headline"}
    for key in ra.headline:
        diff = rb.headline[key] - ra.headline[key]
        assert Fraction(heads[key]["difference_exact"]) == diff
        assert Fraction(heads[key]["a_exact"]) == ra.headline[key]
        if key.startswith("p_"):
            assert float(heads[key]["difference_points"]) == pytest.approx(float(diff) * 100)
        else:
            assert heads[key]["difference_points"] == ""
    outcomes = {r["key"]: r for r in table if r["kind"] == "outcome"}
    assert set(outcomes) == set(ra.outcome_order) | set(rb.outcome_order)


@pytest.mark.parametrize("ref", FIRST)
def test_scenario_json_round_trips(ref):
    scenario = find_preset(ref).scenario.set(all_systems()[ref.split("/")[0]].evasion.attribute,
                                             find_preset(ref).scenario.get(
                                                 all_systems()[ref.split("/")[0]].evasion.attribute) + 1)
    system = all_systems()[scenario.system]
    assert read_scenario_file(system, scenario_json(scenario).encode()) == scenario


@pytest.mark.parametrize("content, says", [
    (b"{not json", "not valid JSON"),
    (b"\xff\xfe", "not UTF-8"),
    (b"[1, 2]", "a JSON object"),
    (b'{"system": "eldfall"}', "scenario of 'eldfall'"),
    (b'{"dodger": {"ph": 99}}', "dodger.ph"),
    (b'{"dodger": {"ph": NaN}}', "NaN"),
    (b'{"dodger": {"ph": "12"}}', "dodger.ph"),
    (b'{"wat": 1}', "wat"),
    (b"[" * 50 + b"]" * 50, "nested too deeply"),
    (b" " * 300_000, "at most"),
])
def test_a_bad_file_is_refused_in_one_line(content, says):
    with pytest.raises(LoadError) as err:
        read_scenario_file("infinity-n4", content, "mine.json")
    assert says in str(err.value) and "\n" not in str(err.value)


def test_panel_loads_a_good_file_and_a_bad_one_changes_nothing():
    system = all_systems()["infinity-n4"]
    loaded = []
    panel = ExportPanel(system, on_load=loaded.append)
    result = evaluate(system.default_scenario())
    panel.update(result, "http://example.test/page?preset=x")
    assert panel.load(b'{"dodger": {"ph": 99}}', "bad.json") is None
    assert loaded == [] and "dodger.ph" in panel.notice.value and "99" in panel.notice.value
    good = system.default_scenario().set("dodger.ph", 14)
    assert panel.load(good.to_json().encode(), "good.json") == good
    assert loaded == [good]
    # the upload widget feeds the same path
    panel.upload.value = ({"name": "again.json", "type": "application/json", "size": 10,
                           "content": memoryview(b'{"dodger": {"ph": 0.5}}'),
                           "last_modified": datetime.datetime(2026, 1, 1)},)
    assert loaded == [good] and "dodger.ph" in panel.notice.value and panel.upload.value == ()


def test_panel_download_links_carry_the_exact_csv_and_the_scenario():
    import base64

    system = all_systems()["d100-homebrew"]
    result = evaluate(system.default_scenario())
    panel = ExportPanel(system)
    panel.update(result)
    links = dict(re.findall(r'download="([^"]+)" href="data:[^;]+;charset=utf-8;base64,([^"]+)"', panel.links.value))
    assert base64.b64decode(links["d100-homebrew-outcomes.csv"]).decode() == outcomes_csv(result)
    assert json.loads(base64.b64decode(links["d100-homebrew-scenario.json"])) == result.scenario.to_data()
    assert panel.report is None and panel.report_link.value == ""
    report = panel.make_report()
    assert "d100-homebrew-report.html" in panel.report_link.value and report == panel.report


def test_report_has_the_headline_charts_trace_link_and_no_remote_resource():
    result = evaluate(find_preset("infinity-n4/zhanshi-vs-fusilier").scenario)
    link = "http://127.0.0.1:8866/voila/render/infinity-n4-dodge.ipynb?preset=zhanshi-vs-fusilier"
    page = report_html(result, share_link=link)
    cards = dict(re.findall(r'data-key="([a-z_]+)">.*?data-exact="([^"]*)"', page))
    assert Fraction(cards["p_dodge_succeeds"]) == Fraction(47, 500)
    assert {k: Fraction(v) for k, v in cards.items()} == dict(result.headline)
    assert page.count('class="wb-report-chart"') == 2 and "Plotly.newPlot" in page
    for step in result.trace:
        if step.citation:
            assert step.citation.replace("&", "&amp;").replace('"', "&quot;")[:30] in page
    assert f'href="{link}"' in page
    # nothing is fetched: no remote script, stylesheet, image or font
    assert not re.search(r'<(script|img|link|iframe)[^>]+(src|href)="(https?:)?//', page)
    assert "@import" not in page and "url(http" not in page


def test_report_with_a_comparison_and_a_sweep():
    a = find_preset("eldfall/dodge-vs-critical").scenario
    b = a.set("defender.ag", 14)
    page = report_html(evaluate(b), comparison=compare(a, b), sweep=sweep(b, "defender.ag", [12, 13, 14]))
    assert "wb-report-compare-chart" in page and "wb-report-sweep" in page
    diff = evaluate(b).headline["p_no_hit"] - evaluate(a).headline["p_no_hit"]
    assert f"{diff.numerator}/{diff.denominator}" in page
