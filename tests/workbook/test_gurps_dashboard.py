"""The GURPS 4e dashboard, headless: the page shows the core's exact numbers; moving Basic Speed,
encumbrance, posture, the defense, the attack and the target changes them as the core says; the
GURPS panels (the 3d6 bell with its success line, hits, injury, sacrificial dodge, diving for
cover) agree with the core; a wrong dice notation is refused in place; the rulings panel
compares two readings exactly."""

from __future__ import annotations

from fractions import Fraction

import pytest

from dashboard_checks import ab_cards, by_key, check_ab_against_core, check_against_core as page_against_core
from rules_core import evaluate, find_preset, get_system
from rules_core.systems.gurps_4e import Attack, Dodger, GurpsScenario
from rules_core.systems.gurps_4e.dice import ROLL_3D6
from workbook.pages.dashboard import Dashboard
from workbook.systems.gurps import as_situation, cover_numbers, dodge_scores, sacrificial_numbers

GURPS = get_system("gurps-4e")


def exact_bars(trace) -> dict:
    return {x: Fraction(c[0]) for x, c in zip(trace.x, trace.customdata)}


def check_against_core(dash: Dashboard, scenario: GurpsScenario) -> None:
    """Every number on the page is the core's for ``scenario`` (built by the test, not read back)."""
    assert dash.scenario == scenario
    core = evaluate(scenario)
    page_against_core(dash)
    injury = dash.rendered["Injury"]
    assert exact_bars(injury.data[0]) == {v: core.distributions["injury"][v] for v in injury.data[0].x}
    assert sum(exact_bars(injury.data[0]).values()) == 1


@pytest.fixture
def dash() -> Dashboard:
    return Dashboard("gurps-4e", query="")


def test_opens_on_the_seed_example(dash):
    seed = find_preset("gurps-4e/sword-2d1-cut-vs-dr3").scenario
    check_against_core(dash, seed)
    assert dash.preset.value == "sword-2d1-cut-vs-dr3"
    # The seed's injury distribution, by hand: ⌊1.5 × (2d − 2)⌋ with 2d's ways 1..6..1 over 36.
    by_hand = {0: 1, 1: 2, 3: 3, 4: 4, 6: 5, 7: 6, 9: 5, 10: 4, 12: 3, 13: 2, 15: 1}
    assert {v: p for v, p in exact_bars(dash.rendered["Injury"].data[0]).items() if p} == \
           {v: Fraction(w, 36) for v, w in by_hand.items()}
    assert "No active defense" in dash.rendered["Dodge roll (3d6)"]


def test_the_players_controls_move_the_numbers(dash):
    dash.preset.value = "rapid-fire-dodge-and-drop"
    base = find_preset("gurps-4e/rapid-fire-dodge-and-drop").scenario
    check_against_core(dash, base)
    dash.form.control("dodger.basic_speed").value = 7.5
    dash.form.control("dodger.encumbrance").value = "light"
    dash.form.control("dodger.posture").value = "kneeling"
    dodger = base.dodger.replace(basic_speed=7.5, encumbrance="light", posture="kneeling")
    check_against_core(dash, base.replace(dodger=dodger))
    dash.form.control("dodger.acrobatic").value = True
    dash.form.control("attacks.0.rof").value = 6
    dash.form.control("attacks.0.damage").value = "4d-1"
    dash.form.control("attacks.0.divisor").value = "2"
    dash.form.control("target.dr").value = 9
    dash.form.control("target.flexible").value = True
    scenario = base.replace(dodger=dodger.replace(acrobatic=True), target=base.target.replace(dr=9, flexible=True),
                            attacks=(base.attacks[0].replace(rof=6, damage="4d-1", divisor="2"),))
    check_against_core(dash, scenario)
    assert dash.preset.value == ""


def test_the_bell_shows_the_3d6_and_the_success_line(dash):
    dash.preset.value = "drop-behind-cover"
    fig = dash.rendered["Dodge roll (3d6)"]
    bars = {}
    for trace in fig.data:
        bars.update(exact_bars(trace))
    assert bars == {t: ROLL_3D6[t] for t in range(3, 19)}
    # Dodge 9 + 3 against the first shot; 9 + 3 − 3 against the later ones (ruling carry = both).
    assert dodge_scores(dash.scenario) == [("attack 1", 12), ("later attacks, after the drop", 9)]
    lines = sorted(shape.x0 for shape in fig.layout.shapes)
    assert lines == [9.5, 12.5]
    success = {t for trace in fig.data if trace.name in ("Success", "Critical success") for t in trace.x}
    assert success == set(range(3, 13))
    assert "74.07%" in fig.layout.title.text  # 160 of 216


def test_the_bell_follows_a_house_rule_on_the_success_roll(dash):
    dash.preset.value = "drop-behind-cover"
    dash.form.control("variant.always_fails_from").value = 12   # Dodge 12, but 12 and up always fail
    assert dash.scenario.variant.always_fails_from == 12
    fig = dash.rendered["Dodge roll (3d6)"]
    success = {t for trace in fig.data if trace.name in ("Success", "Critical success") for t in trace.x}
    assert success == set(range(3, 12))
    assert "62.50%" in fig.layout.title.text  # 135 of 216
    assert dash.result.trace[0].rule == "House rule"


def test_a_shared_link_carries_a_house_rule():
    dash = Dashboard("gurps-4e", query="preset=drop-behind-cover&variant.drop_bonus=1")
    assert dash.scenario == find_preset("gurps-4e/drop-behind-cover").scenario.set("variant.drop_bonus", 1)
    assert dodge_scores(dash.scenario)[0] == ("attack 1", 10)   # Dodge 9 + 1 instead of + 3


def test_hits_landing_and_dodged(dash):
    dash.preset.value = "rapid-fire-dodge-and-drop"
    core = evaluate(find_preset("gurps-4e/rapid-fire-dodge-and-drop").scenario)
    landing, dodged = dash.rendered["Hits landing and dodged"].data
    assert exact_bars(landing) == {k: core.hits[k] for k in landing.x}
    assert exact_bars(dodged) == {k: core.distributions["hits_dodged"][k] for k in dodged.x}


def test_a_view_that_is_a_chart_or_a_note_builds_each_once(dash):
    """"Hits landing and dodged" is a chart under rapid fire and a note otherwise: going back
    and forth shows each in turn and makes no widget after the first time."""
    from ipywidgets import HTML
    from ipywidgets.widgets.widget import _instances
    from workbook.page.chart import Chart
    box = dash._view_boxes["Hits landing and dodged"]
    kinds = []
    for name in ("rapid-fire-dodge-and-drop", "sacrificial-dodge-and-drop") * 2:
        dash.preset.value = name
        kinds.append(Chart if isinstance(box.children[0], Chart) else type(box.children[0]))
        if len(kinds) == 2:
            made = len(_instances)
    assert kinds == [Chart, HTML, Chart, HTML] and len(box.children) == 1
    assert len(_instances) == made
    shown_as_chart = box.made[Chart]
    dash.preset.value = "rapid-fire-dodge-and-drop"
    assert box.children == (shown_as_chart,)
    assert "data" in shown_as_chart.figure and shown_as_chart.comm is not None
    box.close()  # the note it does not show is closed with it
    assert box.made == {} and shown_as_chart.comm is None


def test_a_wrong_dice_notation_is_refused_in_place(dash):
    dash.preset.value = "rapid-fire-dodge-and-drop"
    before = dash.result
    dash.form.control("attacks.0.damage").value = "3d8+2"
    assert "six-sided" in dash.form.error and "attacks.0.damage" in dash.form.error
    assert dash.result is before
    dash.form.control("attacks.0.damage").value = " 3D + 2 "
    assert dash.form.error is None and dash.scenario.attacks[0].damage == "3d+2"


def test_a_refused_combination_names_its_field(dash):
    dash.form.control("dodger.defense").value = "dodge_and_drop"  # the seed's sword is a melee attack
    assert "attacks.0.kind" in dash.form.error and "ranged" in dash.form.error


def test_sacrificial_section(dash):
    # From the rapid-fire preset, the panel is a what-if: the same dodger, the burst aimed at a friend.
    dash.preset.value = "rapid-fire-dodge-and-drop"
    base = find_preset("gurps-4e/rapid-fire-dodge-and-drop").scenario
    protect = evaluate(base.replace(situation="sacrificial"))
    smother = evaluate(base.replace(situation="smother"))
    numbers = sacrificial_numbers(dash.result)
    table = by_key(numbers)
    assert 'data-key="p_friend_hit"' in dash.rendered["Sacrificial dodge: numbers"]
    protect_col, smother_col = numbers.columns[2], numbers.columns[3]  # after the key and the quantity
    assert "what-if" in protect_col and "what-if" in smother_col
    for key in ("p_dodge_succeeds", "p_friend_hit", "expected_injury"):
        assert table[key][protect_col].split()[0] == f"{protect.headline[key].numerator}/{protect.headline[key].denominator}"
        assert table[key][smother_col].split()[0] == f"{smother.headline[key].numerator}/{smother.headline[key].denominator}"
    who = dash.rendered["Sacrificial dodge"].data[0]
    assert [Fraction(c[0]) for c in who.customdata] == [p for _, p in protect.outcome_rows()]
    # Choosing the situation makes it the main result, and the panel shows it as it is.
    dash.form.control("situation").value = "sacrificial"
    check_against_core(dash, base.replace(situation="sacrificial"))
    protect_col, smother_col = sacrificial_numbers(dash.result).columns[2:]
    assert "what-if" not in protect_col and "what-if" in smother_col


def test_dive_section(dash):
    dash.preset.value = "dive-into-a-trench"
    trench = find_preset("gurps-4e/dive-into-a-trench").scenario
    check_against_core(dash, trench)
    numbers = cover_numbers(dash.result)
    for column, kind in zip(numbers.columns[2:], ("none", "dr", "full"), strict=True):
        core = evaluate(trench.replace(cover=trench.cover.replace(kind=kind)))
        p = core.headline["p_no_hit"]
        assert by_key(numbers)["p_no_hit"][column].split()[0] == f"{p.numerator}/{p.denominator}"
    diving, caught = dash.rendered["Diving for cover"].data
    core = evaluate(trench)
    assert exact_bars(caught) == {v: core.distributions["injury_if_caught"][v] for v in caught.x}
    assert exact_bars(diving) == {v: core.distributions["injury"][v] for v in diving.x}


def test_what_if_explains_when_it_cannot_be():
    lying = GurpsScenario(dodger=Dodger(posture="lying"), attacks=(Attack(),))
    scenario, why = as_situation(lying, "dive")
    assert scenario is None and "dodger.posture" in why
    dash = Dashboard("gurps-4e", scenario=lying, query="")
    assert "Not possible" in dash.rendered["Diving for cover"]


def test_rulings_panel_compares_two_readings(dash):
    dash.preset.value = "drop-behind-cover"
    dash.toggle("rulings").value = True
    dash.panel("rulings").field.value = "carry"
    dash.panel("rulings").value.value = "prone_only"
    scenario = find_preset("gurps-4e/drop-behind-cover").scenario
    a, b = evaluate(scenario), evaluate(scenario.replace(carry="prone_only"))
    check_ab_against_core(dash.panel("rulings"), scenario, scenario.replace(carry="prone_only"))
    cards = ab_cards(dash.panel("rulings"))
    for key in ("p_dodge_succeeds", "expected_injury", "p_down"):
        assert cards[key] == {"a": a.headline[key], "b": b.headline[key],
                              "difference": b.headline[key] - a.headline[key]}
    assert a.headline["p_down"] != b.headline["p_down"]


def test_every_preset_renders_every_panel(dash):
    for preset in GURPS.presets:
        dash.preset.value = preset.name
        check_against_core(dash, preset.scenario)
        assert not dash.notices
        assert set(dash.rendered) == {v.title for v in dash.views}


@pytest.mark.parametrize("value", ["6.3", "99"])
def test_a_basic_speed_off_its_quarters_in_a_link_is_explained(value):
    dash = Dashboard("gurps-4e", query=f"dodger.basic_speed={value}")
    assert (f"The link asked for Basic Speed (Dodger) {value}; Basic Speed goes from 1 to 20 in steps of 0.25. "
            "Showing the default scenario.") in dash.notices[0]
