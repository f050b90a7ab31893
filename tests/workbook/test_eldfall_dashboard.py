"""The Eldfall Chronicles dashboard, headless: every panel shows the core's exact numbers, its own
panels (with and without the Dodge, the second model of a Sweep, after the Dodge, one roll) agree
with the core, controls and presets follow, the rulings panel compares readings exactly."""

from __future__ import annotations

import html
from fractions import Fraction

from rules_core import enumerate_play, evaluate, get_system, play_once
from rules_core.systems.eldfall import without_reaction
from dashboard_checks import ab_cards, check_ab_against_core, check_against_core as check_common, shown_headline
from workbook.pages.dashboard import Dashboard
from workbook.panels.classroom import came_to
from workbook.page.share import encode_query

ELDFALL = get_system("eldfall")


def bars(fig, i: int) -> tuple[list[float], list[Fraction]]:
    trace = fig.data[i]
    return list(trace.y), [Fraction(c[0]) for c in trace.customdata]


def as_list(dist, most: int) -> list[Fraction]:
    return [dist[k] for k in range(most + 1)]


def check_against_core(dash: Dashboard) -> None:
    check_common(dash)  # table, headline and both charts against the core
    core = ELDFALL.evaluate(dash.scenario)
    for step in core.trace:
        assert step.rule.replace("'", "&#x27;") in dash._trace.value
    # What the Dodge is worth: the A/B panel, A = without the reaction, B = as set; its chart
    # holds hits (traces 0, 1) and wounds (traces 2, 3), without and with.
    other = evaluate(without_reaction(dash.scenario))
    worth = dash.panel("worth")
    check_ab_against_core(worth, without_reaction(dash.scenario), dash.scenario)
    chart = worth.compare.figure
    most_hits = max(max(core.hits.outcomes()), max(other.hits.outcomes()))
    most_wounds = max(max(core.distributions["wounds"].outcomes()), max(other.distributions["wounds"].outcomes()))
    for i, dist, most in ((0, other.hits, most_hits), (1, core.hits, most_hits),
                          (2, other.distributions["wounds"], most_wounds),
                          (3, core.distributions["wounds"], most_wounds)):
        y, exact = bars(chart, i)
        assert exact == as_list(dist, most) and y == [float(p) for p in exact]


def test_the_first_preset_is_shown_exactly():
    dash = Dashboard("eldfall", query="")
    assert dash.preset.value == "dodge-vs-critical"
    head = shown_headline(dash)
    # Hand check (tests/core/eldfall/test_exact.py): AG 12 dodges on 3/5; 23/50 Hits land; a Wound
    # with probability 4269/20000. Without the Dodge one Hit lands on average.
    assert (head["p_dodge_succeeds"], head["expected_hits"], head["p_at_least_one_wound"]) == (
        Fraction(3, 5), Fraction(23, 50), Fraction(4269, 20000))
    check_against_core(dash)
    worth = dash.panel("worth")
    assert worth.compare.names == ("Without it", "With the Dodge")
    # Without the Dodge both dice hit on 10/20: one Hit on average; the Dodge saves 27/50 of it.
    assert ab_cards(worth)["expected_hits"] == {"a": 1, "b": Fraction(23, 50), "difference": Fraction(-27, 50)}
    assert ab_cards(worth)["p_no_hit"]["a"] == Fraction(1, 4)
    assert "No Attack has Sweep" in dash.rendered["Second model (Sweep)"]
    after = dash.rendered["After the Dodge"]
    assert "May move up to 3″ and enter or cancel Crouched" in after.column("Outcome")


def test_every_preset_is_shown_exactly():
    dash = Dashboard("eldfall", query="")
    for preset in ELDFALL.presets:
        dash.preset.value = preset.name
        assert dash.scenario == preset.scenario
        check_against_core(dash)


def test_sweep_shows_the_second_model_beside_the_dodging_target():
    dash = Dashboard("eldfall", query="preset=sweep-one-dodges")
    core = evaluate(dash.scenario)
    fig = dash.rendered["Second model (Sweep)"]
    most = len(fig.data[1].y) - 1
    # The second model does not dodge: a Hit on 21/25, a Wound on 42/125 (hand check in the core tests).
    assert bars(fig, 1)[1] == as_list(core.distributions["second_model_hits"], most)
    assert core.distributions["second_model_hits"][1] == Fraction(21, 25)
    assert bars(fig, 0)[1] == as_list(core.hits, most)
    most_w = len(fig.data[3].y) - 1
    assert bars(fig, 3)[1] == as_list(core.distributions["second_model_wounds"], most_w)
    assert shown_headline(dash)["expected_second_model_wounds"] == Fraction(42, 125)
    # Untick Sweep: the second model's numbers become null with a note.
    dash.form.control("attackers.0.sweep").value = False
    assert shown_headline(dash)["expected_second_model_wounds"] is None
    notes = {row["key"]: row["note"] for row in dash.tables["headline"].records()}
    assert "Sweep" in notes["expected_second_model_wounds"]
    check_against_core(dash)


def test_controls_follow_the_core():
    dash = Dashboard("eldfall", query="")
    dash.form.control("attackers.0.los").value = False
    check_against_core(dash)
    assert "halved" in dash._trace.value
    dash.form.control("defender.acute_senses").value = True
    check_against_core(dash)
    dash.form.control("defender.reaction").value = "ward"
    check_against_core(dash)
    assert shown_headline(dash)["p_dodge_succeeds"] is None
    assert dash.panel("worth").compare.names == ("Without it", "With Ward")
    dash.form.control("defender.reaction").value = "none"
    check_against_core(dash)
    worth = dash.panel("worth")
    chart = worth.compare.figure
    assert bars(chart, 0) == bars(chart, 1)          # nothing to compare: the same both sides
    assert all(card["difference"] in (0, None) for card in ab_cards(worth).values())
    dash.form.control("defender.reaction").value = "dodge"
    dash.form.control("defender.barrier").value = True
    dash.form.button("attackers.add").click()
    assert len(dash.scenario.attackers) == 2
    dash.form.control("attackers.1.burn").value = 2
    dash.form.control("attackers.1.stagger").value = True
    dash.form.control("attackers.1.cover").value = "heavy"
    check_against_core(dash)
    assert shown_headline(dash)["expected_stagger"] > 0
    assert dash.preset.value == ""


def test_rulings_panel_compares_exactly():
    dash = Dashboard("eldfall", query="")
    dash.toggle("rulings").value = True
    dash.panel("rulings").field.value = "dodge_resolution"
    assert dash.panel("rulings").value.value == "compared"
    other = dash.scenario.replace(dodge_resolution="compared")
    check_ab_against_core(dash.panel("rulings"), dash.scenario, other)
    cards = ab_cards(dash.panel("rulings"))["p_dodge_succeeds"]
    assert cards["a"] == Fraction(3, 5) and cards["b"] < Fraction(3, 5)
    dash.panel("rulings").field.value = "post_dodge_move"
    assert dash.panel("rulings").value.value == "seed"
    check_ab_against_core(dash.panel("rulings"), dash.scenario, dash.scenario.replace(post_dodge_move="seed"))
    # Choosing the alternative on the form changes the result and the trace.
    dash.form.control("dodge_resolution").value = "compared"
    check_against_core(dash)
    assert "compared" in dash._trace.value


def test_a_roll_says_what_it_came_to_the_second_model_included():
    """The Roll panel (the one place for one roll, step by step) lists what the roll came to in
    each headline quantity: the Wounds and the second model's, as the rule played them."""
    s = ELDFALL.preset("sweep-one-dodges").scenario.replace(
        attackers=[ELDFALL.preset("sweep-one-dodges").scenario.attackers[0].replace(stk=1)])
    dash = Dashboard("eldfall", scenario=s, query="")
    dash.panel("roll").seed.value = 4
    dash.panel("roll").roll()
    r = play_once(ELDFALL, s, seed=4)
    assert r.bare() in enumerate_play(ELDFALL, s)
    shown = dash.panel("roll").steps.value
    assert all(html.escape(step.rule) in shown for step in r.trace)
    assert f"<li data-key='expected_wounds'>Expected wounds: <b>{r['wounds']}</b></li>" in shown
    second = dict(came_to(ELDFALL, s, r))
    assert "expected_second_model_wounds" in second  # the Sweep reaches a second model
    assert (f"<li data-key='expected_second_model_wounds'>Expected second model wounds: "
            f"<b>{r['second_model_wounds']}</b></li>") in shown
    assert second["p_dodge_succeeds"] == all(r.evasions)


def test_share_link_round_trip():
    dash = Dashboard("eldfall", query="preset=no-los")
    dash.form.control("defender.ag").value = 13
    query = encode_query(ELDFALL, dash.scenario)
    again = Dashboard("eldfall", query=query)
    assert again.scenario == dash.scenario
    check_against_core(again)


def test_the_worth_panel_is_exact_on_a_preset_without_los():
    dash = Dashboard("eldfall", query="preset=no-los")
    worth = dash.panel("worth")
    check_ab_against_core(worth, without_reaction(dash.scenario), dash.scenario)
    result, other = evaluate(dash.scenario), evaluate(without_reaction(dash.scenario))
    for key in ("p_no_hit", "expected_wounds"):
        assert ab_cards(worth)[key]["difference"] == result.headline[key] - other.headline[key]
    # the trace lines that differ: the Dodge's own steps are only in B
    only_a, only_b = worth.compare.comparison.trace_differences()
    assert any("Dodge" in line for line in only_b)
