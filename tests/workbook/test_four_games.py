"""The four-games page: every system's worth, exact, side by side; one curve per system; a
pasted link is used or refused without changing anything, and the controls show what is used;
the address follows the choices and reopens them; present mode; the CSV and the HTML report
carry the core's exact values; the index links the page."""

from __future__ import annotations

import base64
import csv
import html
import json
import re
from fractions import Fraction

import pytest

from rules_core import all_systems, evaluate, find_preset
from rules_core.compare import without_reaction
from workbook.pages.catalog import dashboards, index
from workbook.pages.four_games import ROWS, FourGames, default_preset, table_csv
from workbook.page.share import encode_query


def cell(page: FourGames, row: str, system_id: str) -> str:
    match = re.search(rf'<tr data-key="{row}".*?<td data-system="{system_id}" data-exact="([^"]*)"',
                      page.table.value)
    assert match, (row, system_id)
    return match.group(1)


def test_every_declaring_system_is_side_by_side_with_exact_worth():
    page = FourGames()
    assert {s.id for s in page.systems} == {"infinity-n4", "eldfall", "gurps-4e", "d100-homebrew"}
    for system in page.systems:
        scenario = page.scenarios[system.id]
        with_, without = evaluate(scenario), evaluate(without_reaction(scenario))
        assert with_.headline["p_dodge_succeeds"] is not None  # the default preset reacts
        assert Fraction(cell(page, "p_no_hit_with", system.id)) == with_.headline["p_no_hit"]
        assert Fraction(cell(page, "p_no_hit_without", system.id)) == without.headline["p_no_hit"]
        assert Fraction(cell(page, "p_no_hit_gained", system.id)) == \
            with_.headline["p_no_hit"] - without.headline["p_no_hit"]
        assert Fraction(cell(page, "hits_avoided", system.id)) == \
            without.headline["expected_hits"] - with_.headline["expected_hits"]
        damage = system.evasion.damage
        if damage:
            assert Fraction(cell(page, "damage_avoided", system.id)) == \
                without.headline[damage] - with_.headline[damage]
        else:
            assert cell(page, "damage_avoided", system.id) == ""
    # the seed's Infinity numbers, by hand: no hit 1/64 without the dodge (three dice each missing 5/20)
    page.sources["infinity-n4"].value = "zhanshi-vs-fusilier"
    assert cell(page, "p_no_hit_without", "infinity-n4") == "1/64"
    assert cell(page, "p_no_hit_gained", "infinity-n4") == f"{Fraction(401, 3200) - Fraction(1, 64)}"


def test_one_curve_per_system_with_its_own_scenario_marked():
    page = FourGames()
    curves = [t for t in page.figure.data if t.mode == "lines+markers"]
    assert [t.name for t in curves] == [s.name for s in page.systems]
    for trace, system in zip(curves, page.systems):
        scenario = page.scenarios[system.id]
        own = scenario.get(system.evasion.attribute)
        at = [row[0] for row in trace.customdata].index(str(own))
        assert Fraction(trace.customdata[at][1]) == system.evasion.unopposed(scenario)
        gained = evaluate(scenario).headline["p_no_hit"] - evaluate(without_reaction(scenario)).headline["p_no_hit"]
        assert Fraction(trace.customdata[at][2]) == gained
        assert trace.y[at] == float(gained) * 100
        assert list(trace.x) == sorted(trace.x)  # skill never lowers the unopposed chance
    page.measure.value = "hits_avoided"
    assert page.figure.layout.yaxis.title.text == "Expected hits avoided"


def test_a_pasted_link_is_used_and_a_bad_one_changes_nothing():
    page = FourGames()
    system = all_systems()["eldfall"]
    mine = find_preset("eldfall/dodge-vs-critical").scenario.set("defender.ag", 15)
    page.sources["eldfall"].value = ""
    page.links["eldfall"].value = f"http://127.0.0.1:8866/voila/render/eldfall.ipynb?{encode_query(system, mine)}"
    assert page.scenarios["eldfall"] == mine and not page.notices
    page.links["eldfall"].value = "?defender.ag=99"
    assert page.scenarios["eldfall"] == mine
    assert "the link was not used" in page.notice.value and "99" in page.notice.value
    notice = html.unescape(page.notice.value)
    assert "Keeping the scenario in use." in notice and "default scenario" not in notice  # as it is
    page.sources["eldfall"].value = default_preset(system)
    assert page.scenarios["eldfall"] == system.preset(default_preset(system)).scenario and not page.notices


def test_a_dive_into_a_trench_is_shown_with_what_the_dive_is_worth():
    """Without the dive, the blast finds the dodger where he stands (docs/rulings/gurps-4e.md):
    the dive made (Dodge 9 + 3, 3d6 ≤ 12: 20/27) is P(no hit) gained."""
    page = FourGames()
    page.sources["gurps-4e"].value = "dive-into-a-trench"
    assert page.scenarios["gurps-4e"] == find_preset("gurps-4e/dive-into-a-trench").scenario and not page.notices
    assert page.worths["gurps-4e"].gained["p_no_hit"] == Fraction(20, 27)
    assert "gurps-4e=dive-into-a-trench" in page.urlbar.query


def test_a_scenario_without_a_reaction_to_take_away_is_refused_with_a_notice(monkeypatch):
    from rules_core import ScenarioError
    from rules_core.scenario import Problem

    computed = FourGames._compute

    def refusing(scenario):  # what the page meets when the core cannot take a reaction away
        if getattr(scenario, "situation", "") == "dive":
            raise ScenarioError("gurps-4e scenario", [Problem("(the reaction)", "dive", "a reaction to take away")])
        return computed(scenario)

    monkeypatch.setattr(FourGames, "_compute", staticmethod(refusing))
    page = FourGames()
    before, shown = page.scenarios["gurps-4e"], page.sources["gurps-4e"].value
    page.sources["gurps-4e"].value = "dive-into-a-trench"
    assert page.scenarios["gurps-4e"] == before
    assert "no reaction to take away" in page.notice.value
    # the dropdown shows the preset really used, not the refused one, and the link says so too
    assert page.sources["gurps-4e"].value == shown == default_preset(all_systems()["gurps-4e"])
    assert "dive-into-a-trench" not in page.urlbar.query
    # from a pasted link, a refused preset goes back to the link (and its field shows it)
    eldfall = all_systems()["eldfall"]
    mine = find_preset("eldfall/dodge-vs-critical").scenario.set("defender.ag", 15)
    page.sources["eldfall"].value = ""
    page.links["eldfall"].value = "?" + encode_query(eldfall, mine)
    page.links["eldfall"].value = "?defender.ag=99"  # refused: the field shows the link in use again
    assert page.scenarios["eldfall"] == mine and page.sources["eldfall"].value == ""
    assert page.links["eldfall"].value == "?" + encode_query(eldfall, mine)
    assert page.links["eldfall"].layout.display == "flex"


def test_a_refused_link_after_a_preset_puts_the_preset_back_in_the_dropdown():
    page = FourGames()
    page.sources["eldfall"].value = "no-los"
    page.sources["eldfall"].value = ""  # the link field opens; nothing changes yet
    assert page.choices["eldfall"] == "no-los" and page.links["eldfall"].layout.display == "flex"
    page.links["eldfall"].value = "?defender.ag=99"
    assert page.sources["eldfall"].value == "no-los" and page.links["eldfall"].layout.display == "none"
    assert page.scenarios["eldfall"] == all_systems()["eldfall"].preset("no-los").scenario
    assert "the link was not used" in page.notice.value


def test_the_address_follows_the_choices_and_reopens_them():
    page = FourGames(query="")
    assert page.urlbar.query == ""  # every game at its default: the shortest link
    assert page.urlbar.title == "One dodge, four games — Dodge Workbook"
    eldfall = all_systems()["eldfall"]
    mine = find_preset("eldfall/dodge-vs-critical").scenario.set("defender.ag", 15)
    page.sources["infinity-n4"].value = "zhanshi-vs-fusilier"
    page.sources["eldfall"].value = ""
    page.links["eldfall"].value = f"http://127.0.0.1:8866/voila/render/eldfall.ipynb?{encode_query(eldfall, mine)}&present=1"
    page.measure.value = "hits_avoided"
    page.present_toggle.value = True
    query = page.urlbar.query
    assert "infinity-n4=zhanshi-vs-fusilier" in query and "eldfall.defender.ag=15" in query
    assert "present=1" in query and "measure=hits_avoided" in query
    assert "gurps-4e" not in query and "d100-homebrew" not in query
    again = FourGames(query=query)
    assert again.scenarios == page.scenarios and again.choices == page.choices == {
        **{s.id: default_preset(s) for s in page.systems}, "infinity-n4": "zhanshi-vs-fusilier", "eldfall": ""}
    assert {k: w.value for k, w in again.sources.items()} == {k: w.value for k, w in page.sources.items()}
    assert again.links["eldfall"].value == "?" + encode_query(eldfall, mine)
    assert again.links["eldfall"].layout.display == "flex"
    assert again.present and again.present_toggle.value and "wb-present" in again.widget._dom_classes
    assert again.measure.value == "hits_avoided" and again.urlbar.query == query and not again.notices


@pytest.mark.parametrize("query, says", [
    ("infinity-n4=no-such-preset", "Infinity N4 has no preset 'no-such-preset'"),
    ("chess=e4", "'chess' is not a game of this page"),
    ("measure=fun", "measure='fun' is not one of"),
    ("eldfall.defender.ag=99", "the link was not used"),
])
def test_a_link_the_page_cannot_use_keeps_the_defaults_and_says_why(query, says):
    page = FourGames(query=query)
    assert says in html.unescape(page.notice.value)
    assert page.scenarios == {s.id: s.preset(default_preset(s)).scenario for s in page.systems}
    assert {k: w.value for k, w in page.sources.items()} == {s.id: default_preset(s) for s in page.systems}


def test_present_mode_enlarges_the_chart_and_goes_into_the_link():
    page = FourGames(query="")
    size = json.loads(page.chart.figure)["layout"]["font"]["size"]
    page.present_toggle.value = True
    assert "wb-present" in page.widget._dom_classes and page.present
    assert json.loads(page.chart.figure)["layout"]["font"]["size"] >= 18 > size
    assert page.urlbar.query == "present=1"
    page.set_present(False)
    assert "wb-present" not in page.widget._dom_classes and not page.present_toggle.value
    assert page.urlbar.query == ""


def _without(scenario, system):
    """The scenario with the defender not reacting, from the system's declared changes (a ``*``
    is every item of the list)."""
    changes = {}
    for path, value in system.evasion.no_reaction.items():
        head, star, tail = path.partition(".*.")
        for i in range(len(scenario.get(head))) if star else [None]:
            changes[path if i is None else f"{head}.{i}.{tail}"] = value
    return scenario.replace(**changes)


def _expected(page: FourGames) -> dict[tuple[str, str], Fraction | None]:
    """Every cell of the side-by-side table from the core: each game's scenario evaluated as set
    and without the reaction."""
    out = {}
    for system in page.systems:
        scenario = page.scenarios[system.id]
        w, wo = evaluate(scenario).headline, evaluate(_without(scenario, system)).headline
        assert wo["p_dodge_succeeds"] is None  # no roll to evade without the reaction
        damage = system.evasion.damage
        values = {"p_no_hit_with": w["p_no_hit"], "p_no_hit_without": wo["p_no_hit"],
                  "p_no_hit_gained": w["p_no_hit"] - wo["p_no_hit"],
                  "hits_with": w["expected_hits"], "hits_without": wo["expected_hits"],
                  "hits_avoided": wo["expected_hits"] - w["expected_hits"],
                  "damage_with": w[damage] if damage else None, "damage_without": wo[damage] if damage else None,
                  "damage_avoided": wo[damage] - w[damage] if damage else None,
                  "p_dodge_succeeds": w["p_dodge_succeeds"]}
        out.update({(key, system.id): value for key, value in values.items()})
    return out


def test_the_csv_download_is_the_table_with_every_number_exact():
    page = FourGames(query="infinity-n4=zhanshi-vs-fusilier")
    payload = re.search(r'download="one-dodge-four-games.csv" href="data:text/csv;charset=utf-8;base64,([^"]+)"',
                        page.csv_link.value).group(1)
    text = base64.b64decode(payload).decode()
    assert text == table_csv(page.worths, page.systems)
    rows = list(csv.DictReader(text.splitlines()))
    assert list(rows[0]) == ["row", "name", "system", "headline", "exact", "float"]
    expected = _expected(page)
    assert {(r["row"], r["system"]) for r in rows} == set(expected) and len(rows) == len(ROWS) * 4
    for r in rows:
        value = expected[(r["row"], r["system"])]
        assert (Fraction(r["exact"]) if r["exact"] else None) == value, r
        assert (float(r["float"]) if r["float"] else None) == (None if value is None else float(value))
    # the seed's Infinity numbers, by hand: no hit 1/64 without the dodge
    at = {(r["row"], r["system"]): r for r in rows}
    assert at[("p_no_hit_without", "infinity-n4")]["exact"] == "1/64"
    assert at[("damage_with", "d100-homebrew")]["exact"] == ""  # hits only: no damage model


def test_the_report_holds_the_table_the_chart_and_the_links_offline():
    page = FourGames(query="eldfall=no-los")
    assert page.report is None and page.report_link.value == ""
    page.report_button.click()
    report = page.report
    assert 'download="one-dodge-four-games.html"' in page.report_link.value
    table = report[report.index('class="wb-report-four-table"'):]
    expected = _expected(page)
    for (key, system_id), value in expected.items():
        found = re.search(rf'<tr data-key="{key}".*?<td data-system="{system_id}" data-exact="([^"]*)"', table)
        assert (Fraction(found.group(1)) if found.group(1) else None) == value, (key, system_id)
    assert 'class="wb-report-four-chart"' in report and "Plotly.newPlot" in report
    for system in page.systems:
        assert encode_query(system, page.scenarios[system.id]) in report  # the link of each game's scenario
    # the report names each game's choice: Eldfall's preset by its title, beside its link
    assert '<b>Eldfall Chronicles</b>: Dodge without LoS (<a href="eldfall.ipynb?preset=no-los">' in report
    assert not re.search(r'<(script|img|link|iframe)[^>]+(src|href)="(https?:)?//', report)
    page.sources["eldfall"].value = default_preset(all_systems()["eldfall"])
    assert page.report is None and page.report_link.value == ""  # the report showed the previous choices


def test_the_index_links_the_page():
    entry = next(e for e in dashboards() if e.notebook == "compare-systems.ipynb")
    assert entry.system is None and entry.title == "One dodge, four games"
    assert 'href="compare-systems.ipynb"' in index().value


def _count_worths(monkeypatch):
    """Count each scenario's worth computed from now on (rules_core.compare.worth, as the curve
    and the kept worths call it), the kept ones forgotten first."""
    from collections import Counter

    import importlib

    import workbook.pages.catalog as catalog

    compare = importlib.import_module("rules_core.compare")  # the module: rules_core.compare is the function

    counted: Counter = Counter()
    real = compare.worth

    def counting(scenario):
        counted[scenario] += 1
        return real(scenario)

    monkeypatch.setattr(compare, "worth", counting)
    monkeypatch.setattr(catalog, "worth", counting)
    catalog.scenario_worth.cache_clear()
    catalog._default_preset.cache_clear()
    return counted


def test_each_games_worth_is_computed_once_at_start_up(monkeypatch):
    counted = _count_worths(monkeypatch)
    page = FourGames(query="")
    assert page.choices == {"infinity-n4": "zhanshi-dodges-to-engage", "eldfall": "dodge-vs-critical",
                            "gurps-4e": "rapid-fire-dodge-and-drop", "d100-homebrew": "burst-3-vs-dodge-45"}
    # choosing the default preset, the table and the curve's own point share one computation
    assert {system_id: counted[s] for system_id, s in page.scenarios.items()} == {
        "infinity-n4": 1, "eldfall": 1, "gurps-4e": 1, "d100-homebrew": 1}
    assert max(counted.values()) == 1  # nor any point of the curves twice
    for system in page.systems:  # the curve's point at the scenario's own value is the table's worth
        own = page.scenarios[system.id].get(system.evasion.attribute)
        assert next(p.worth for p in page.curves[system.id] if p.value == own) is page.worths[system.id]


def test_a_second_page_computes_no_worth_of_its_scenarios_again(monkeypatch):
    counted = _count_worths(monkeypatch)
    first = FourGames(query="")
    shown = {s: counted[s] for s in first.scenarios.values()}
    FourGames(query="")
    assert {s: counted[s] for s in first.scenarios.values()} == shown == {s: 1 for s in first.scenarios.values()}


def test_a_rule_with_no_presets_stands_beside_the_four_games_on_its_default_scenario():
    """A designer's rule made with no presets (the README's way) has its default scenario as
    its one preset, which the page shows: the page is built, exact, with five games."""
    import dataclasses

    from example_rule import SYSTEM, play
    from rules_core import register, rule, unregister

    bare = rule(SYSTEM.id, SYSTEM.name, SYSTEM.scenario_cls, play, outcomes=("dodged", "some hit", "all hit"),
                evasion=dataclasses.replace(SYSTEM.evasion))
    assert [(p.name, p.scenario) for p in bare.presets] == [("default", SYSTEM.scenario_cls())]
    register(bare)
    try:
        page = FourGames(query="")
        assert page.title == "One dodge, five games"
        scenario = page.scenarios[bare.id]
        assert scenario == SYSTEM.scenario_cls()
        gained = evaluate(scenario).headline["p_no_hit"] - evaluate(without_reaction(scenario)).headline["p_no_hit"]
        assert page.worths[bare.id].gained["p_no_hit"] == gained > 0
    finally:
        unregister(bare.id)
