"""Exports: every number in a CSV is the core's exact value; a scenario file round-trips and a
bad one changes nothing; the HTML report carries the headline, charts, trace and link."""

from __future__ import annotations

import csv
import datetime
import html
import json
import re
from fractions import Fraction

import pytest

from rules_core import all_systems, evaluate, find_preset, sweep
from rules_core.compare import compare
from workbook.panels.export import (ExportPanel, LoadError, comparison_csv, outcomes_csv, read_scenario_file,
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
    assert loaded == [] and "Not loaded: PH (Dodger) 99: PH goes from 0 to 30<" in panel.notice.value
    good = system.default_scenario().set("dodger.ph", 14)
    assert panel.load(good.to_json().encode(), "good.json") == good
    assert loaded == [good]
    # the upload widget feeds the same path
    panel.upload.value = ({"name": "again.json", "type": "application/json", "size": 10,
                           "content": memoryview(b'{"dodger": {"ph": 0.5}}'),
                           "last_modified": datetime.datetime(2026, 1, 1)},)
    assert loaded == [good] and "PH (Dodger) 0.5: PH goes from 0 to 30" in panel.notice.value
    assert panel.upload.value == ()


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


# -- the report holds what the page shows: the system's own views, the rulings comparison --------

def _section(page: str, title: str) -> str:
    """The report's section of the view ``title`` (its HTML)."""
    found = re.search(rf'<section class="wb-report-view [^"]*" data-view="{re.escape(html.escape(title, quote=True))}">'
                      r"(.*?)</section>", page, re.S)
    assert found, title
    return found.group(1)


def _cells(markup: str, css: str) -> dict[str, dict[str, str]]:
    """``{row key: {column: exact or shown}}`` of the table classed ``css`` in ``markup``."""
    table = re.search(rf'<table class="{css}".*?</table>', markup, re.S).group(0)
    return {html.unescape(key): {col: exact or html.unescape(shown) for col, exact, shown in re.findall(
        r'<td data-col="([^"]+)"(?: data-exact="([^"]*)")?[^>]*>(.*?)</td>', row, re.S)}
        for key, row in re.findall(r'<tr data-key="([^"]*)">(.*?)</tr>', table, re.S)}


def test_an_infinity_report_holds_its_views_with_their_exact_numbers():
    mine = find_preset("infinity-n4/zhanshi-mine-and-fusilier").scenario
    result = evaluate(mine)
    page = report_html(result)
    assert re.findall(r'data-view="([^"]+)"', page) == [
        "The Order, roll by roll", "What happens to the dodger", "Wounds"]  # the heatmap is opened on the page
    for title in ("The Order, roll by roll", "What happens to the dodger", "Wounds"):
        assert f"<h2>{title}</h2>" in page
    order = _cells(_section(page, "The Order, roll by roll"), "wb-infinity-attacks")
    # the seed's Fusilier alone: 47/500; the mine alone: a Normal PH Roll at SV 4, 4 faces of 20;
    # the whole Order: the core's headline (299/40000, not the product of the rows)
    assert Fraction(order["Attacker 1"]["dodge"]) == Fraction(47, 500)
    assert Fraction(order["Mine"]["dodge"]) == Fraction(4, 20)
    assert Fraction(order["Whole Order"]["dodge"]) == result.headline["p_dodge_succeeds"] == Fraction(299, 40000)
    assert Fraction(order["Whole Order"]["wounds"]) == result.headline["expected_wounds"]
    states = _cells(_section(page, "What happens to the dodger"), "wb-infinity-final")
    shown = {k: Fraction(v["exact"]) for k, v in states.items()}
    assert {k: p for k, p in shown.items() if p} == dict(result.distributions["final state"].items())
    wounds = json.loads(re.search(r'Plotly\.newPlot\(\s*"[^"]+",\s*(\[.*?\]),\s*\{', _section(page, "Wounds"),
                                  re.S).group(1))
    drawn = {str(x): Fraction(data[0]) for x, data in zip(wounds[0]["x"], wounds[0]["customdata"])}
    assert drawn == {str(k): p for k, p in result.distributions["wounds"].items()}


#: The views each dashboard shows without a click, in the page's order (Infinity's heatmap waits
#: for its button, and a report leaves it out).
SHOWN_VIEWS = {
    "d100-homebrew": ["Where each attack's hits go", "Hits of each attack"],
    "eldfall": ["What the Dodge is worth", "Second model (Sweep)", "After the Dodge"],
    "gurps-4e": ["Dodge roll (3d6)", "Hits landing and dodged", "Injury", "Sacrificial dodge",
                 "Sacrificial dodge: numbers", "Diving for cover", "Diving for cover: what cover is worth"],
    "infinity-n4": ["The Order, roll by roll", "What happens to the dodger", "Wounds"],
}


@pytest.mark.parametrize("system_id", sorted(all_systems()))
def test_the_command_line_report_holds_the_systems_views(system_id):
    from io import StringIO

    from workbook.__main__ import main

    system = all_systems()[system_id]
    out, err = StringIO(), StringIO()
    assert main(["report", "--preset", f"{system_id}/{system.presets[0].name}"], stdout=out, stderr=err) == 0, \
        err.getvalue()
    titles = re.findall(r'<section class="wb-report-view [^"]*" data-view="([^"]+)"', out.getvalue())
    assert [html.unescape(t) for t in titles] == SHOWN_VIEWS[system_id]


def test_the_eldfall_report_holds_the_worth_panel_exactly():
    from rules_core.compare import without_reaction

    scenario = find_preset("eldfall/dodge-vs-critical").scenario
    page = report_html(evaluate(scenario))
    worth = _section(page, "What the Dodge is worth")
    cards = dict(re.findall(r'<div class="wb-ab-card" data-key="([a-z_]+)".*?data-side="difference" '
                            r'data-exact="([^"]*)"', worth, re.S))
    gained = evaluate(scenario).headline["p_no_hit"] - evaluate(without_reaction(scenario)).headline["p_no_hit"]
    assert Fraction(cards["p_no_hit"]) == gained
    assert "Without it" in worth and "With the Dodge" in worth


def test_a_dashboard_report_is_what_the_page_shows():
    from workbook.pages.dashboard import Dashboard
    from workbook.panels.export import dashboard_report

    dash = Dashboard("eldfall", query="")
    closed = dashboard_report(dash)
    assert "wb-report-rulings" not in closed and 'data-view="What the Dodge is worth"' in closed
    dash.toggle("rulings").value = True
    dash.panel("rulings").field.value = "dodge_resolution"
    page = dashboard_report(dash)
    rulings = re.search(r'<section class="wb-report-rulings">(.*?)</section>', page, re.S).group(1)
    other = dash.scenario.replace(dodge_resolution="compared")
    cards = dict(re.findall(r'<div class="wb-ab-card" data-key="([a-z_]+)".*?data-side="difference" '
                            r'data-exact="([^"]*)"', rulings, re.S))
    assert Fraction(cards["p_dodge_succeeds"]) == (evaluate(other).headline["p_dodge_succeeds"]
                                                   - evaluate(dash.scenario).headline["p_dodge_succeeds"])
    assert "Current reading" in rulings and "Alternative reading" in rulings
    # the views are the page's own outputs, used as shown
    assert dash.rendered["After the Dodge"] is not None
    assert 'data-view="After the Dodge"' in page and 'data-view="Second model (Sweep)"' in page
    # the page's own "Make an HTML report" makes the same report
    export = dash.panel("analysis").export
    dash.toggle("analysis").value = True
    assert export.page is dash
    made = export.make_report()
    assert "wb-report-rulings" in made and 'data-view="What the Dodge is worth"' in made
    export.page = None  # a panel on its own reports the system's views only
    assert "wb-report-rulings" not in export.make_report()
    assert 'data-view="What the Dodge is worth"' in export.report


@pytest.mark.parametrize("content, says", [
    (b'{"dodger": {"ph": 99}}', "PH (Dodger) 99: PH goes from 0 to 30"),
    (b'{"dodger": {"ph": "12"}}', "PH (Dodger) “12”: PH goes from 0 to 30 (a number, written without quotes)"),
    (b'{"dodger": {"ph": true}}', "PH (Dodger) true: PH goes from 0 to 30"),
    (b'{"dodger": {"ph": 1' + b"0" * 5000 + b"}}", "PH (Dodger) a whole number of 5,001 digits: PH goes from 0 to 30"),
    (b'{"dodger": {"phh": 12}}', "“dodger.phh”: no such field"),
    (b'{"attackers": 3}', "Attackers: cannot be read in this form"),
    (b'{"minus_three": "both"}', "Several −3 PH circumstances both: Several −3 PH circumstances is one of: One −3 at most"),
    (b"{not json", "mine.json is not valid JSON (Expecting property name enclosed in double quotes) at line 1 column 2"),
    (b'{"system": "eldfall"}', "mine.json is a scenario of 'eldfall'; this page shows Infinity N4"),
])
def test_a_refused_file_is_said_as_the_page_names_its_fields(content, says):
    """The panel says a refused file in the page's words: each refused field by its label and
    place, as a refused link is said, what the field takes, and what the file wrote."""
    system = all_systems()["infinity-n4"]
    panel = ExportPanel(system)
    assert panel.load(content, "mine.json") is None
    assert says in html.unescape(panel.notice.value), panel.notice.value


def test_a_refusal_names_at_most_three_fields():
    panel = ExportPanel(all_systems()["infinity-n4"])
    panel.load(b'{"dodger": {"ph": 99, "arm": 99, "bts": 99, "wip": 99}}', "mine.json")
    said = html.unescape(panel.notice.value)
    assert said.count(" 99: ") == 3 and said.endswith("; …</div>"), said


def test_a_cross_field_refusal_in_a_file_says_what_the_field_must_be():
    panel = ExportPanel(all_systems()["gurps-4e"])
    panel.load(b'{"situation": "sacrificial", "dodger": {"defense": "retreat"}}', "mine.json")
    assert ("Situation Sacrificial dodge for a friend, Defense (Dodger) Dodge with a retreat (+3): a sacrificial "
            "dodge is made without a retreat (B375): the defense is a retreat — choose Dodge (sacrificial dodge), "
            "Dodge and drop (sacrificial dodge and drop), or No defense (the friend defends alone)"
            in html.unescape(panel.notice.value)), panel.notice.value


@pytest.mark.parametrize("content, says", [
    (b'{"dodger": {"ph": 10, "ph": 12}}', "mine.json: the key 'ph' appears twice in 'dodger'; give each key once"),
    (b'{"system": "infinity-n4", "system": "eldfall"}',
     "mine.json: the key 'system' appears twice at the top level; give each key once"),
    (b'{"x": "abc', "mine.json is not valid JSON (Unterminated string starting) at line 1 column 7"),
    (b'{"x": "a\tb"}', "mine.json is not valid JSON (Invalid control character) at line 1 column 9"),
])
def test_a_key_given_twice_and_json_faults_are_said_exactly(content, says):
    with pytest.raises(LoadError) as err:
        read_scenario_file("infinity-n4", content, "mine.json")
    assert str(err.value) == says


def test_a_key_given_twice_is_said_in_russian():
    from workbook.page.text import translator

    system = all_systems()["d100-homebrew"]
    panel = ExportPanel(system, translator(system, "ru"), "ru")
    assert panel.load(b'{"attacks": [{"evasion": "none"}, {"damage": 3, "damage": 4}]}', "mine.json") is None
    assert "mine.json: ключ 'damage' встречается в 'attacks.1' дважды; каждый ключ пишется один раз" in \
        html.unescape(panel.notice.value), panel.notice.value


@pytest.mark.parametrize("link", ["javascript:alert(1)//", "JavaScript:alert(1)", " javascript:alert(1)",
                                  "data:text/html,<script>alert(1)</script>", "vbscript:x", "//evil.example/x",
                                  "http:///no-host", "https://example.org/a\nb"])
def test_the_report_writer_refuses_a_link_that_is_not_http_or_https(link):
    result = evaluate(find_preset("infinity-n4/zhanshi-vs-fusilier").scenario)
    with pytest.raises(ValueError) as err:
        report_html(result, share_link=link)
    assert str(err.value).startswith("share_link: got ") and str(err.value).endswith(
        "; allowed: an http:// or https:// address, or a query starting with ?")


@pytest.mark.parametrize("link", ["?preset=zhanshi-vs-fusilier", "https://example.org/page?preset=x",
                                  'http://example.org/"><script>alert(1)</script>'])
def test_the_report_writer_writes_a_web_link_or_a_query_escaped(link):
    result = evaluate(find_preset("infinity-n4/zhanshi-vs-fusilier").scenario)
    page = report_html(result, share_link=link)
    escaped = html.escape(link, quote=True)
    assert f'<a href="{escaped}">{escaped}</a>' in page and "<script>alert" not in page


def test_a_report_card_shows_a_zero_as_0_and_keeps_n_over_d_as_its_data():
    # GURPS's sword example: the defender makes no defence, so P(no hit) is exactly 0 and
    # exactly 1 hit lands
    page = report_html(evaluate(find_preset("gurps-4e/sword-2d1-cut-vs-dr3").scenario))
    cards = {key: (data, shown) for key, data, shown in re.findall(
        r'data-key="([a-z_]+)">.*?<div class="exact" data-exact="([^"]*)">([^<]*)</div>', page, re.S)}
    assert cards["p_no_hit"] == ("0/1", "0")
    assert cards["expected_hits"] == ("1/1", "1")
    assert cards["expected_injury"] == ("29/4", "29/4")
