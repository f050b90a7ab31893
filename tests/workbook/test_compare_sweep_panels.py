"""The A/B panel, the sweep panel and the hits chart modes, headless, against the core."""

from __future__ import annotations

import copy
import html
import re
from decimal import Decimal
from fractions import Fraction

import pytest

from rules_core import all_systems, evaluate, find_preset, load_scenario
from rules_core.sweeps import allowed_values
from workbook.panels.compare import ComparePanel, pin_query, read_pin
from workbook.panels.modes import ModePanel, hits_rows
from workbook.page.share import encode_query
from workbook.panels.sweep import (GRID_SIDE, SweepPanel, clear_sweep_cache, number_paths, sweep_around,
                                  sweep_figure, window)


def card_values(html: str) -> dict[str, dict[str, str]]:
    cards = {}
    for key, body in re.findall(r'<div class="wb-ab-card" data-key="([a-z_]+)"(.*?)</div></div>', html):
        cards[key] = dict(re.findall(r'data-side="(a|b|difference)" data-exact="([^"]*)"', body))
    return cards


# -- A against B ------------------------------------------------------------------------------

def test_pin_then_change_shows_both_and_the_differences():
    system = all_systems()["infinity-n4"]
    a = find_preset("infinity-n4/zhanshi-vs-fusilier").scenario
    b = a.set("dodger.ph", 13)
    panel = ComparePanel(system)
    panel.update(evaluate(a))
    assert panel.comparison is None and panel.cards.value == ""
    panel.pin()
    panel.update(evaluate(b))
    ra, rb = evaluate(a), evaluate(b)
    cards = card_values(panel.cards.value)
    for key in ra.headline:
        assert Fraction(cards[key]["a"]) == ra.headline[key]
        assert Fraction(cards[key]["b"]) == rb.headline[key]
        assert Fraction(cards[key]["difference"]) == rb.headline[key] - ra.headline[key]
    points = float(rb.headline["p_dodge_succeeds"] - ra.headline["p_dodge_succeeds"]) * 100
    assert f"{points:+.2f} pp" in panel.cards.value
    # both distributions on one chart: A's and B's bars and the difference
    a_bars, b_bars = panel.figure.data[0], panel.figure.data[1]
    assert [float(ra.outcomes[o]) for o in ra.outcome_order] == list(a_bars.y)[:len(ra.outcome_order)]
    assert [float(rb.outcomes[o]) for o in rb.outcome_order] == list(b_bars.y)[:len(rb.outcome_order)]
    # the trace lines that differ name the two PH values
    assert "PH 10" in panel.trace.value or "10" in panel.trace.value
    assert 'data-side="a"' in panel.trace.value and "13" in panel.trace.value
    panel.unpin()
    assert panel.pinned is None and panel.cards.value == "" and panel.unpin_button.disabled


def test_show_pair_compares_two_readings_the_rulings_case():
    system = all_systems()["infinity-n4"]
    single = find_preset("infinity-n4/zhanshi-mine-and-fusilier").scenario.set("minus_three", "single")
    stacking = single.set("minus_three", "stacking")
    panel = ComparePanel(system)
    panel.show_pair(evaluate(single), evaluate(stacking), ("single", "stacking"))
    cards = card_values(panel.cards.value)
    assert Fraction(cards["p_dodge_succeeds"]["b"]) == Fraction(299, 40000)
    assert "single" in panel.table.value and "stacking" in panel.table.value


def test_the_share_link_carries_the_pin_and_reopens_it():
    system = all_systems()["eldfall"]
    a = find_preset("eldfall/dodge-vs-critical").scenario.set("defender.ag", 14)
    b = a.set("defender.ag", 8)
    query = encode_query(system, b) + "&" + pin_query(system, a)
    pinned, notice = read_pin(system, query)
    assert pinned == a and notice == ""
    assert read_pin(system, encode_query(system, b)) == (None, "")
    bad, notice = read_pin(system, "pin=defender.ag%3D99")
    assert bad is None and "99" in notice
    panel = ComparePanel(system)
    panel.update(evaluate(a))
    panel.pin()
    assert read_pin(system, panel.pin_query())[0] == a


# -- sweeps -----------------------------------------------------------------------------------

def test_window_is_centred_and_clamped():
    assert window(list(range(101)), 45, 41) == tuple(range(25, 66))
    assert window(list(range(101)), 99, 41) == tuple(range(60, 101))
    assert window([Decimal("1"), Decimal("1.25"), Decimal("1.5")], Decimal("1.25"), 1) == (Decimal("1.25"),)


def test_number_paths_are_the_number_fields_only():
    paths = number_paths(find_preset("infinity-n4/zhanshi-vs-fusilier").scenario)
    assert "dodger.ph" in paths and "attackers.0.burst" in paths
    assert "minus_three" not in paths and "dodger.dodges" not in paths


@pytest.mark.parametrize("system_id", sorted(all_systems()))
def test_sweep_point_at_the_scenarios_own_value_equals_evaluate(system_id):
    system = all_systems()[system_id]
    scenario = system.presets[0].scenario
    result = evaluate(scenario)
    panel = SweepPanel(system, open=True)
    panel.update(result)
    path = panel.field.value
    assert path == system.evasion.attribute
    own = scenario.get(path)
    point = next(p for p in panel.sweep.points if p.value == own)
    assert dict(point.headline) == dict(result.headline)
    # the chart's hover carries the exact value and the own value is marked
    assert panel.figure.layout.shapes[0].x0 == float(own)
    no_hit = next(t for t in panel.figure.data if t.name == "P(no hit lands)")
    at = list(no_hit.x).index(float(own))
    assert Fraction(no_hit.customdata[at][0]) == result.headline["p_no_hit"]
    assert no_hit.y[at] == float(result.headline["p_no_hit"])


def test_sweep_heatmap_and_closed_panel_computes_nothing():
    system = all_systems()["infinity-n4"]
    result = evaluate(find_preset("infinity-n4/zhanshi-vs-fusilier").scenario)
    panel = SweepPanel(system)
    panel.update(result)
    assert panel.sweep is None  # closed: nothing evaluated
    panel.open.value = True
    assert panel.sweep is not None and len(panel.sweep.fields) == 1
    panel.second.value = "attackers.0.value"
    swept = panel.sweep
    assert swept.fields == ("dodger.ph", "attackers.0.value") and len(swept.points) == 30 * 30
    heat, mark = panel.figure.data
    assert heat.type == "heatmap" and (mark.x[0], mark.y[0]) == (12, 10)
    row, col = list(heat.y).index(10), list(heat.x).index(12)
    assert Fraction(heat.customdata[row][col][0]) == result.headline["p_no_hit"]
    panel.quantity.value = "p_dodge_succeeds"
    row, col = list(panel.figure.data[0].y).index(10), list(panel.figure.data[0].x).index(12)
    assert Fraction(panel.figure.data[0].customdata[row][col][0]) == Fraction(47, 500)


def test_sweep_follows_an_added_attacker():
    system = all_systems()["infinity-n4"]
    scenario = find_preset("infinity-n4/zhanshi-vs-fusilier").scenario
    panel = SweepPanel(system, open=True)
    panel.update(evaluate(scenario))
    bigger = scenario.add_item("attackers")
    panel.update(evaluate(bigger))
    assert "attackers.1.burst" in [v for _, v in panel.field.options]
    assert panel.field.value == "dodger.ph"


def by_hand(scenario, changes):
    """``scenario`` with ``{dotted path: value}`` set on its plain data by hand."""
    data = copy.deepcopy(scenario.to_data())
    for path, value in changes.items():
        *blocks, name = [int(s) if s.isdigit() else s for s in path.split(".")]
        target = data
        for block in blocks:
            target = target[block]
        target[name] = float(value) if isinstance(value, Decimal) else value
    return load_scenario(data)


#: Each system's heatmap as the benchmarks time it: the evasion attribute against a number of
#: the first attack; Infinity's is its page's, over a whole Order (three attackers of Burst 3
#: with DA ammunition and a mine without LoF, against a W 2 trooper).
HEATMAPS = {
    "infinity-n4": (load_scenario({
        "system": "infinity-n4", "dodger": {"ph": 12, "arm": 2, "wounds": 2, "wip": 13},
        "attackers": [{"value": v, "mod": 3, "burst": 3, "ammo": "DA"} for v in (11, 12, 13)],
        "template": {"kind": "deployable", "lof": False, "ammo": "DA"}, "minus_three": "stacking"}),
        "attackers.0.value"),
    "eldfall": (all_systems()["eldfall"].presets[0].scenario, "attackers.0.value"),
    "gurps-4e": (all_systems()["gurps-4e"].presets[0].scenario, "attacks.0.skill"),
    "d100-homebrew": (all_systems()["d100-homebrew"].presets[0].scenario, "attacks.0.evasion_modifier"),
}


@pytest.mark.parametrize("system_id", sorted(HEATMAPS))
def test_every_heatmap_cell_is_evaluate_at_that_point(system_id):
    scenario, other = HEATMAPS[system_id]
    path = all_systems()[system_id].evasion.attribute
    clear_sweep_cache()
    swept = sweep_around(scenario, path, other)
    sides = [len(window(allowed_values(scenario, p), scenario.get(p), GRID_SIDE)) for p in (path, other)]
    assert len(swept.points) == sides[0] * sides[1] and sides[0] == GRID_SIDE
    figure = sweep_figure(swept)  # P(no hit) by default, each cell's exact value in its hover
    heat = figure.data[0]
    for point in swept.points:
        try:
            want = evaluate(by_hand(scenario, dict(zip(swept.fields, point.values))))
        except ValueError as err:
            assert point.refused == str(err)
            continue
        assert point.refused == "" and list(point.headline) == list(want.headline)
        assert dict(point.headline) == dict(want.headline), point.values
        row, col = list(heat.y).index(float(point.values[0])), list(heat.x).index(float(point.values[1]))
        assert Fraction(heat.customdata[row][col][0]) == want.headline["p_no_hit"]


# -- chart modes ------------------------------------------------------------------------------

def test_hits_modes_by_hand():
    """d100 burst of 3 against Agility 45: 0 hits 1/4, 1 hit 1/10, 2 hits 1/10, 3 hits 11/20."""
    result = evaluate(find_preset("d100-homebrew/burst-3-vs-dodge-45").scenario)
    assert [p for _, p in hits_rows(result, "distribution")] == [Fraction(1, 4), Fraction(1, 10), Fraction(1, 10),
                                                                Fraction(11, 20)]
    assert [p for _, p in hits_rows(result, "at_least")] == [1, Fraction(3, 4), Fraction(13, 20), Fraction(11, 20)]
    assert [p for _, p in hits_rows(result, "at_most")] == [Fraction(1, 4), Fraction(7, 20), Fraction(9, 20), 1]
    with pytest.raises(ValueError, match="at_most"):
        hits_rows(result, "sideways")


def test_mode_panel_switches_the_chart():
    result = evaluate(find_preset("eldfall/dodge-vs-critical").scenario)
    panel = ModePanel()
    panel.update(result)
    assert list(panel.figure.data[0].y) == [float(p) for _, p in hits_rows(result, "distribution")]
    panel.switch.value = "at_most"
    assert list(panel.figure.data[0].y) == [float(p) for _, p in hits_rows(result, "at_most")]
    assert panel.figure.layout.title.text == "P(at most k hits land)"
    assert [c[0] for c in panel.figure.data[0].customdata] == \
        [f"{p.numerator}/{p.denominator}" for _, p in hits_rows(result, "at_most")]


def test_reading_panel_is_the_ab_panel_with_another_reading():
    from workbook.panels.compare import ReadingPanel

    system = all_systems()["infinity-n4"]
    scenario = find_preset("infinity-n4/zhanshi-mine-and-fusilier").scenario.set("minus_three", "single")
    panel = ReadingPanel(system)
    panel.update(evaluate(scenario))
    assert panel.compare.comparison is None  # closed: no second evaluation
    panel.set_open(True)
    assert [v for _, v in panel.value.options] == ["stacking"]
    cards = card_values(panel.compare.cards.value)
    assert Fraction(cards["p_dodge_succeeds"]["a"]) == evaluate(scenario).headline["p_dodge_succeeds"]
    assert Fraction(cards["p_dodge_succeeds"]["b"]) == Fraction(299, 40000)
    assert panel.compare.names == ("Current reading", "Alternative reading")
    labels = dict(system.rulings()[0].choices)
    assert labels["stacking"] in html.unescape(panel.help.value)  # the reading's label, in full
    # the page switches to the other reading: the panel offers the first one back
    panel.update(evaluate(scenario.set("minus_three", "stacking")))
    assert [v for _, v in panel.value.options] == ["single"]
    assert Fraction(card_values(panel.compare.cards.value)["p_dodge_succeeds"]["a"]) == Fraction(299, 40000)


def test_a_derived_panel_takes_any_b_from_the_scenario_shown():
    """The machinery a "house rule against the official rule" panel reuses: derive a pair from
    the scenario shown; a side equal to it reuses the page's result; a refused pair clears."""
    from workbook.panels.compare import DerivedPanel, Pair

    system = all_systems()["infinity-n4"]
    seed = find_preset("infinity-n4/zhanshi-vs-fusilier").scenario
    evaluated = []

    def counted(s):
        evaluated.append(s)
        return evaluate(s)

    def stronger(s):
        if s.dodger.ph >= 30:
            raise ValueError("dodger.ph: no stronger PH than 30")
        return Pair(s, s.set("dodger.ph", s.dodger.ph + 1), ("As set", "One more PH"), ("", "PH + 1"))

    panel = DerivedPanel(system, derive=stronger, evaluate=counted, open=True, css="wb-stronger")
    panel.update(evaluate(seed))
    assert evaluated == [seed.set("dodger.ph", 11)]  # A is the page's own result
    cards = card_values(panel.compare.cards.value)
    # PH 10 → 11 against SV 15, Burst 3: 47/500 → 2223/20000 (rules_core.compare's doctest)
    assert (Fraction(cards["p_dodge_succeeds"]["a"]), Fraction(cards["p_dodge_succeeds"]["b"])) == (
        Fraction(47, 500), Fraction(2223, 20000))
    assert "<b>One more PH:</b> PH + 1" in panel.help.value and "wb-stronger-panel" in panel.widget._dom_classes
    panel.update(evaluate(seed.set("dodger.ph", 30)))
    assert panel.compare.comparison is None and panel.compare.cards.value == ""
    assert "no stronger PH than 30" in panel.help.value