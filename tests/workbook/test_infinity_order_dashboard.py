"""The Infinity N4 dashboard's own panels, headless: the Order roll by roll, the final states,
the wounds, the heatmap and one rolled Order, against numbers the core computes on its own."""

from __future__ import annotations

import html
import re
from fractions import Fraction

import plotly.graph_objects as go
import pytest

from rules_core import evaluate, find_preset
from rules_core.systems.infinity_n4.dice import success_value
from rules_core.systems.infinity_n4.exact import dodge_grid, f2f_headline
from rules_core.systems.infinity_n4.outcomes import final_state_order
from rules_core.systems.infinity_n4.scenario import Attacker, InfinityScenario
from dashboard_checks import ab_cards, check_ab_against_core
from workbook.pages.dashboard import Dashboard
from workbook.systems.infinity import VIEWS
from workbook.panels.sweep import SweepPanel

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
    assert set(dash.rendered) == set(TITLES) - {"Heatmap"} and dash.built == {}  # the heatmap: when opened


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
    dash.toggle("rulings").value = True
    assert [v for _, v in dash.panel("rulings").value.options] == ["stacking"]
    card = ab_cards(dash.panel("rulings"))["p_dodge_succeeds"]
    stacked = evaluate(dash.scenario.replace(minus_three="stacking"))
    assert card == {"a": single.headline["p_dodge_succeeds"], "b": stacked.headline["p_dodge_succeeds"],
                    "difference": stacked.headline["p_dodge_succeeds"] - single.headline["p_dodge_succeeds"]}
    check_ab_against_core(dash.panel("rulings"), dash.scenario, dash.scenario.replace(minus_three="stacking"))


def heat(panel) -> tuple[go.Heatmap, go.Scatter]:
    """The heatmap panel's heatmap and its cross (the scenario shown)."""
    hm, cross = panel.figure.data
    assert hm.type == "heatmap" and cross.type == "scatter"
    return hm, cross


def core_grid(scenario: InfinityScenario, phs, values) -> list[list[Fraction | None]]:
    """P(dodge succeeds) over ``phs`` × the first attacker's ``values`` by the core's own grid
    (:func:`dodge_grid`, which sets the attacker's Success Value directly): the attacker's SV
    at each value is that value plus its MOD."""
    first = scenario.attackers[0]
    svs = [success_value(v, [first.mod]).sv for v in values]
    if not scenario.dodger.dodges:
        return [[None] * len(svs) for _ in phs]
    dodge, _ = dodge_grid(scenario, phs, svs, burst=first.burst)
    return dodge


def shown_grid(panel) -> list[list[Fraction | None]]:
    hm, _ = heat(panel)
    return [[None if c[0] == "—" else Fraction(c[0]) for c in row] for row in hm.customdata]


def open_heatmap(scenario: InfinityScenario) -> Dashboard:
    dash = Dashboard("infinity-n4", scenario=scenario, query="")
    assert "heatmap" not in dash.built  # collapsed: not even built
    dash.toggle("heatmap").value = True
    return dash


def test_heatmap_is_the_sweep_panel_preset_to_ph_by_the_first_attackers_value():
    dash = open_heatmap(MINE)
    panel = dash.panel("heatmap")
    assert isinstance(panel, SweepPanel) and "wb-view-heatmap" in panel.widget._dom_classes
    assert (panel.field.value, panel.second.value, panel.quantity.value) == (
        "dodger.ph", "attackers.0.value", "p_dodge_succeeds")
    hm, cross = heat(panel)
    phs, values = list(hm.y), list(hm.x)
    assert phs == list(range(0, 30)) and values == list(range(0, 30))  # 30 × 30 around PH 10, BS 12
    assert shown_grid(panel) == core_grid(MINE, phs, values)
    # The seed's mine example: PH 10 against BS 12 + 3 = SV 15, the mine stacking: 299/40000.
    assert hm.customdata[10][12][0] == "299/40000" and hm.z[10][12] == float(Fraction(299, 40000))
    assert (list(cross.x), list(cross.y)) == ([12], [10])
    # Any other quantity or field can be chosen in the panel: P(no hit) from the same sweep.
    panel.quantity.value = "p_no_hit"
    hm, _ = heat(panel)
    no_hit = evaluate(MINE).headline["p_no_hit"]
    assert Fraction(hm.customdata[10][12][0]) == no_hit == Fraction(9, 800)


def test_heatmap_follows_every_field_and_reuses_cells_while_only_its_axes_move():
    dash = open_heatmap(MINE)
    panel = dash.panel("heatmap")
    points = panel.sweep.points
    dash.form.control("dodger.ph").value = 13  # an axis, within the window: only the cross moves
    assert panel.sweep.points is points and list(heat(panel)[1].y) == [13]
    first = MINE.attackers[0]
    for change, value in (("attackers.0.burst", 1), ("attackers.0.mod", -3), ("dodger.mod", -4),
                          ("minus_three", "single")):
        dash.form.control(change).value = value
        hm, _ = heat(panel)
        assert shown_grid(panel) == core_grid(dash.scenario, list(hm.y), list(hm.x)), change
    assert dash.scenario.attackers[0].burst == 1 != first.burst  # the Burst is the form's


def test_heatmap_without_a_dodge_leaves_the_dodge_blank():
    dash = open_heatmap(MINE.replace(dodger=MINE.dodger.replace(dodges=False)))
    hm, _ = heat(dash.panel("heatmap"))
    assert all(c[0] == "—" for row in hm.customdata for c in row)
    assert all(z is None for row in hm.z for z in row)


@pytest.mark.parametrize("preset", ["zhanshi-dodges-to-engage", "zhanshi-mine-and-fusilier",
                                    "zhanshi-vs-fusilier"])
def test_every_preset_renders_every_panel(preset):
    dash = Dashboard("infinity-n4", query="")
    dash.preset.value = preset
    assert dash.scenario == find_preset(f"infinity-n4/{preset}").scenario
    assert not dash.notices and set(dash.rendered) == set(TITLES) - {"Heatmap"}
    dash.toggle("heatmap").value = True
    hm, _ = heat(dash.panel("heatmap"))
    assert shown_grid(dash.panel("heatmap")) == core_grid(dash.scenario, list(hm.y), list(hm.x))


def test_not_attacked_and_no_dodge_render():
    scenario = InfinityScenario(attackers=(Attacker(attacks=False),))
    dash = Dashboard("infinity-n4", scenario=scenario, query="")
    table = cells(dash.rendered["The Order, roll by roll"], "wb-infinity-attacks")
    assert list(table) == ["Not attacked", "Whole Order"]
    dash.form.control("dodger.dodges").value = False
    assert dash.result.headline["p_dodge_succeeds"] is None and not dash.notices
