"""The four-games page: every system's worth, exact, side by side; one curve per system; a
pasted link is used or refused without changing anything; the index links the page."""

from __future__ import annotations

import re
from fractions import Fraction

from rules_core import all_systems, evaluate, find_preset
from rules_core.compare import without_reaction
from workbook.catalog import dashboards, index
from workbook.four_games import FourGames, default_preset
from workbook.share import encode_query


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
    page.sources["eldfall"].value = default_preset(system)
    assert page.scenarios["eldfall"] == system.preset(default_preset(system)).scenario and not page.notices


def test_a_scenario_without_a_reaction_to_take_away_is_refused_with_a_notice():
    page = FourGames()
    before = page.scenarios["gurps-4e"]
    page.sources["gurps-4e"].value = "dive-into-a-trench"
    assert page.scenarios["gurps-4e"] == before
    assert "no reaction to take away" in page.notice.value


def test_the_index_links_the_page():
    entry = next(e for e in dashboards() if e.notebook == "compare-systems.ipynb")
    assert entry.system is None and entry.title == "One dodge, four games"
    assert 'href="compare-systems.ipynb"' in index().value
