"""The Infinity N4 dashboard's own panels, headless: the Order roll by roll, the final states,
the wounds, the heatmap and one rolled Order, against numbers the core computes on its own."""

from __future__ import annotations

import html
import re
from fractions import Fraction

import pytest

from rules_core import evaluate, find_preset, get_system
from rules_core.systems.infinity_n4.exact import dodge_grid, f2f_headline
from rules_core.systems.infinity_n4.outcomes import final_state_order
from rules_core.systems.infinity_n4.scenario import Attacker, InfinityScenario
from workbook.app import Dashboard
from workbook.infinity import HEAT_PH, HEAT_SV, VIEWS, heatmap

MINE = find_preset("infinity-n4/zhanshi-mine-and-fusilier").scenario
TITLES = [v.title for v in VIEWS]


def cells(markup: str, css: str) -> dict[str, dict[str, str]]:
    """``{row key: {column: exact or shown text}}`` of one of the panels' tables."""
    table = re.search(rf'<table class="{css}".*?</table>', markup, re.S).group(0)
    out = {}
    for key, row in re.findall(r'<tr data-key="([^"]*)">(.*?)</tr>', table, re.S):
        out[html.unescape(key)] = {col: exact or html.unescape(shown) for col, exact, shown in re.findall(
            r'<td data-col="([^"]+)"(?: data-exact="([^"]*)")?[^>]*>(.*?)</td>', row, re.S)}
    return out


def test_the_dashboard_shows_the_infinity_panels():
    dash = Dashboard("infinity-n4", query="")
    assert [v.title for v in dash.views] == TITLES
    assert set(dash.rendered) == set(TITLES)


def test_roll_by_roll_table_against_single_rolls_and_the_headline():
    dash = Dashboard("infinity-n4", scenario=MINE, query="")
    table = cells(dash.rendered["The Order, roll by roll"], "wb-infinity-attacks")
    assert list(table) == ["Attacker 1", "Mine", "Whole Order"]
    # The Fusilier alone: the one-attacker Face to Face (the seed's 47/500); the mine alone: a
    # Normal Roll at SV 4 (4 faces of 20); the whole Order: the headline (not their product).
    dodged, _, _, hits = f2f_headline(10, 1, 15, 3)
    assert Fraction(table["Attacker 1"]["dodge"]) == dodged == Fraction(47, 500)
    assert Fraction(table["Attacker 1"]["hits"]) == hits
    assert Fraction(table["Mine"]["dodge"]) == Fraction(4, 20)
    assert Fraction(table["Mine"]["hit"]) == Fraction(16, 20)
    core = evaluate(MINE).headline
    whole = table["Whole Order"]
    assert Fraction(whole["dodge"]) == core["p_dodge_succeeds"] == Fraction(299, 40000)
    assert Fraction(whole["no_hit"]) == core["p_no_hit"]
    assert Fraction(whole["hits"]) == core["expected_hits"] == Fraction(13, 5)
    assert Fraction(whole["wounds"]) == core["expected_wounds"]


def test_final_states_table_lists_every_state_and_sums_to_one():
    dash = Dashboard("infinity-n4", scenario=MINE, query="")
    table = cells(dash.rendered["What happens to the dodger"], "wb-infinity-final")
    assert list(table) == list(final_state_order(MINE))
    assert sum(Fraction(row["exact"]) for row in table.values()) == 1
    assert Fraction(table['Unharmed, dodged everything: moves up to 2"']["exact"]) == Fraction(299, 40000)
    assert Fraction(table["Null: lost its last Wound"]["exact"]) == evaluate(MINE).headline["p_null"]


def test_adding_an_attacker_and_switching_the_ruling_follow_the_core():
    dash = Dashboard("infinity-n4", scenario=MINE, query="")
    dash.form.button("attackers.add").click()
    assert len(dash.scenario.attackers) == 2
    expected = evaluate(MINE.replace(attackers=(*MINE.attackers, Attacker())))
    table = cells(dash.rendered["The Order, roll by roll"], "wb-infinity-attacks")
    assert list(table) == ["Attacker 1", "Attacker 2", "Mine", "Whole Order"]
    assert Fraction(table["Whole Order"]["dodge"]) == expected.headline["p_dodge_succeeds"]
    dash.form.control("minus_three").value = "single"
    single = evaluate(dash.scenario)
    assert dash.result.headline == single.headline
    assert Fraction(cells(dash.rendered["The Order, roll by roll"], "wb-infinity-attacks")
                    ["Mine"]["dodge"]) == Fraction(7, 20)
    # The rulings panel: the current reading against the one chosen there, and their difference.
    dash.compare_on.value = True
    dash.ruling_value.value = "stacking"
    compare = dash.tables["compare"].set_index("key")
    row = compare.loc["p_dodge_succeeds"]
    stacked = evaluate(dash.scenario.replace(minus_three="stacking"))
    assert Fraction(row["a"]) == single.headline["p_dodge_succeeds"]
    assert Fraction(row["b"]) == stacked.headline["p_dodge_succeeds"]
    assert Fraction(row["difference"]) == stacked.headline["p_dodge_succeeds"] - single.headline["p_dodge_succeeds"]


def test_heatmap_cells_slider_and_marker():
    result = evaluate(MINE)
    fig = heatmap(result)
    heat = [t for t in fig.data if t.type == "heatmap"]
    assert len(heat) == 10  # two panels for each Burst 1..5
    visible = [t for t in heat if t.visible]
    assert len(visible) == 2  # the scenario's own Burst (3)
    slider = fig.layout.sliders[0]
    assert [s.label for s in slider.steps] == ["B1", "B2", "B3", "B4", "B5"] and slider.active == 2
    dodge, no_hit = dodge_grid(MINE, HEAT_PH, HEAT_SV, burst=3)
    ph, sv = 10 - HEAT_PH[0], 15 - HEAT_SV[0]  # the Zhanshi's PH 10 against SV 15
    assert visible[0].customdata[ph][sv] == "299/40000" and visible[0].z[ph][sv] == float(dodge[ph][sv])
    assert Fraction(visible[1].customdata[ph][sv]) == no_hit[ph][sv] == Fraction(9, 800)
    for burst, step in zip(range(1, 6), slider.steps):
        shown = [t for t, on in zip(fig.data, step.args[0]["visible"]) if on and t.type == "heatmap"]
        assert len(shown) == 2 and all(f"B{burst}<" in t.hovertemplate for t in shown)
    crosses = [t for t in fig.data if t.type == "scatter"]
    assert all(list(t.x) == [15] and list(t.y) == [10] for t in crosses)


def test_heatmap_cells_follow_every_field_but_its_axes():
    """The cells are reused while only the axes move (PH, the first attacker's value and MODs)
    and recomputed when anything else changes: each time they equal the core's grid."""
    def cells(scenario):
        visible = [t for t in heatmap(evaluate(scenario)).data if t.type == "heatmap" and t.visible]
        return [[Fraction(c) for c in row] for row in visible[0].customdata]

    first = MINE.attackers[0]
    for scenario in (MINE,
                     MINE.replace(dodger=MINE.dodger.replace(ph=13)),
                     MINE.replace(attackers=(first.replace(value=9, mod=-3), *MINE.attackers[1:])),
                     MINE.replace(dodger=MINE.dodger.replace(mod=-4)),
                     MINE.replace(minus_three="single")):
        dodge, _ = dodge_grid(scenario, HEAT_PH, HEAT_SV, burst=scenario.attackers[0].burst)
        assert cells(scenario) == dodge
    assert cells(MINE.replace(dodger=MINE.dodger.replace(mod=-4))) != cells(MINE)


def test_heatmap_without_a_dodge_shows_only_no_hit():
    scenario = MINE.replace(dodger=MINE.dodger.replace(dodges=False))
    fig = heatmap(evaluate(scenario))
    left = [t for t in fig.data if t.type == "heatmap"][0]
    assert all(c == "no dodge" for row in left.customdata for c in row)


@pytest.mark.parametrize("preset", ["zhanshi-dodges-to-engage", "zhanshi-mine-and-fusilier",
                                    "zhanshi-vs-fusilier"])
def test_every_preset_renders_every_panel(preset):
    dash = Dashboard("infinity-n4", query="")
    dash.preset.value = preset
    assert dash.scenario == find_preset(f"infinity-n4/{preset}").scenario
    assert not dash.notices and set(dash.rendered) == set(TITLES)


def test_not_attacked_and_no_dodge_render():
    scenario = InfinityScenario(attackers=(Attacker(attacks=False),))
    dash = Dashboard("infinity-n4", scenario=scenario, query="")
    table = cells(dash.rendered["The Order, roll by roll"], "wb-infinity-attacks")
    assert list(table) == ["Not attacked", "Whole Order"]
    dash.form.control("dodger.dodges").value = False
    assert dash.result.headline["p_dodge_succeeds"] is None and not dash.notices
