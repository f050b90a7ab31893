"""The d100 homebrew dashboard, headless, in English and Russian: every panel shows the core's
exact numbers, the language switch translates every text and keeps every number, and the
system's own panels agree with the exact analysis."""

from __future__ import annotations

import re
from fractions import Fraction

import pytest

from rules_core import get_system
from rules_core.systems.d100_homebrew.exact import analyse
from dashboard_checks import (ab_cards, by_key, check_ab_against_core, check_against_core as check_common, shown_headline,
                              shown_table)
from workbook.pages.dashboard import Dashboard
from workbook.systems.d100 import FATES, attack_rows

D100 = get_system("d100-homebrew")
CYRILLIC = re.compile(r"[А-Яа-яЁё]")


def check_against_core(dash: Dashboard) -> None:
    check_common(dash)  # table, headline and both charts against the core
    core = D100.evaluate(dash.scenario)
    for step in core.trace:
        assert dash.text(step.citation).replace("'", "&#x27;") in dash._trace.value
    # the system's own panels: each attack's hits by fate, exactly as the analysis has them
    tallies = analyse(dash.scenario).tallies
    chart = dash.rendered["Where each attack's hits go"]
    for bar, fate in zip(chart.data, FATES):
        assert list(bar.y) == [float(getattr(t, fate)) for t in tallies]
        assert [Fraction(c) for c in bar.customdata] == [getattr(t, fate) for t in tallies]
    for row, attack in zip(attack_rows(dash.result), dash.scenario.attacks):
        assert sum(row[fate] for fate in FATES) == attack.hits  # every hit accounted for once


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_first_preset_is_shown_exactly(lang):
    dash = Dashboard("d100-homebrew", query="", lang=lang)
    assert dash.preset.value == "burst-3-vs-dodge-45"
    # Hand check (docs/rulings/d100-homebrew.md; tests/core/d100_homebrew/test_exact.py): Dodge 45
    # against 3 hits: no hit on faces 01–25, 1/4; 39/20 hits expected; the roll passes 9/20.
    head = shown_headline(dash)
    assert (head["p_no_hit"], head["expected_hits"], head["p_dodge_succeeds"]) == (
        Fraction(1, 4), Fraction(39, 20), Fraction(9, 20))
    check_against_core(dash)


def test_moving_controls_and_adding_an_attack_follow_the_core():
    dash = Dashboard("d100-homebrew", query="")
    dash.form.control("defender.agility").value = 65
    check_against_core(dash)
    assert dash.preset.value == ""
    dash.form.control("defender.reactions").value = 2
    dash.form.button("attacks.add").click()
    assert len(dash.scenario.attacks) == 2
    dash.form.control("attacks.1.evasion_modifier").value = -20
    check_against_core(dash)
    assert len(dash.rendered["Hits of each attack"]) == 2
    dash.form.control("attacks.1.kind").value = "melee"
    dash.form.control("attacks.1.evasion").value = "parry"
    dash.form.control("sizes_larger").value = 4
    check_against_core(dash)
    # The Dodge against attack 1 still rolls; no Parry against a creature 4 Sizes larger.
    assert shown_headline(dash)["p_dodge_succeeds"] is not None
    assert "Parry impossible: the attacker is 4 Sizes larger (4 or more)" in dash._trace.value
    assert dash.rendered["Hits of each attack"].column("Roll made") == ["1", "0"]


def test_the_presets_of_the_issue():
    dash = Dashboard("d100-homebrew", query="")
    dash.preset.value = "two-attacks-leftovers"
    # Hand check in tests/core/d100_homebrew/test_exact.py: 47/400 and 261/80.
    assert shown_headline(dash)["p_no_hit"] == Fraction(47, 400)
    assert shown_headline(dash)["expected_hits"] == Fraction(261, 80)
    check_against_core(dash)
    dash.preset.value = "parry-2-sizes-larger-blocked"
    assert shown_headline(dash)["p_dodge_succeeds"] is None
    note = by_key(dash.tables["headline"])["p_dodge_succeeds"]["note"]
    assert "+20" in note and "+10" in note
    dash.preset.value = "parry-2-sizes-larger-allowed"
    assert shown_headline(dash)["p_dodge_succeeds"] == Fraction(3, 5)
    dash.preset.value = "leap-out-of-blast"
    assert shown_headline(dash)["p_no_hit"] == Fraction(9, 20)
    check_against_core(dash)


def test_the_language_switch_translates_every_text_and_keeps_every_number():
    dash = Dashboard("d100-homebrew", query="")
    dash.preset.value = "leap-out-of-melee-into-cover"
    before, numbers = dash.scenario, shown_table(dash)
    dash.language.value = "ru"
    assert dash.lang == "ru" and dash.scenario == before and shown_table(dash) == numbers
    check_against_core(dash)
    form = dash.form
    for path in form.paths():
        control = form.control(path)
        assert CYRILLIC.search(control.description), path
        assert CYRILLIC.search(control.tooltip), path  # help text and citation
        for label, _ in getattr(control, "options", ()):
            assert CYRILLIC.search(label), (path, label)
    assert form.control("defender.agility").description == "Ловкость (A)"
    assert form.control("attacks.0.leap").label == "Отскок в Укрытие"
    assert dash.preset.options[1][0] == "Очередь из 3 попаданий против Уклонения 45"
    outcomes = dash.tables["outcomes"].column("outcome")
    assert "избегнуто 0, попало 2; с АР Укрытия 2; Вольт" in outcomes
    assert all(CYRILLIC.search(name) for name in dash.tables["headline"].column("name"))
    assert "Отскок" in dash._trace.value and "Вольт" in dash._trace.value
    assert "Домашние правила d100" in dash._trace.value
    table = dash.rendered["Hits of each attack"]
    assert table.columns[:3] == ("Атака", "Попадания", "Бросок сделан")
    assert dash.rendered["Where each attack's hits go"].layout.title.text == "Что стало с попаданиями каждой атаки"
    assert "lang=ru" in dash._share.value
    # and back: the same widgets, relabelled in place (the browser builds nothing again)
    slider = form.control("defender.agility")
    dash.language.value = "en"
    assert dash.form is form and form.control("defender.agility") is slider
    assert slider.description == "Agility (A)"
    assert shown_table(dash) == numbers


def test_a_shared_link_opens_in_russian():
    dash = Dashboard("d100-homebrew", query="preset=two-attacks-leftovers&lang=ru")
    assert dash.lang == "ru" and dash.scenario == D100.preset("two-attacks-leftovers").scenario
    assert dash.form.control("defender.reactions").description == "Реакции"


def test_a_shared_link_carries_a_house_rule_and_the_trace_says_it_in_russian():
    dash = Dashboard("d100-homebrew", query="preset=burst-3-vs-dodge-45&variant.points_per_success=5&lang=ru")
    assert dash.scenario == D100.preset("burst-3-vs-dodge-45").scenario.set("variant.points_per_success", 5)
    # 3 or more Successes on 01–35 at a further Success per 5 points (hand-worked in
    # tests/core/d100_homebrew/test_house_rules.py)
    assert dash.result.headline["p_no_hit"] == Fraction(7, 20)
    first = dash.result.trace[0]
    assert D100.text(first.rule, "ru") == "Вариант правила"
    assert D100.text(first.detail, "ru") == "Пунктов на каждый следующий Успех: 5 (по правилам 10)"


def test_the_rulings_panel_compares_tens_digits():
    dash = Dashboard("d100-homebrew", query="", lang="ru")
    dash.toggle("rulings").value = True
    dash.panel("rulings").field.value = "successes"
    assert dash.panel("rulings").value.value == "tens_digits"
    # DH2 tens digits at 45 against 3 hits: no hit on 01–29 (29/100) instead of 01–25.
    assert ab_cards(dash.panel("rulings"))["p_no_hit"] == {"a": Fraction(1, 4), "b": Fraction(29, 100),
                                                  "difference": Fraction(1, 25)}
    check_ab_against_core(dash.panel("rulings"), dash.scenario, dash.scenario.replace(successes="tens_digits"))
    assert all(CYRILLIC.search(label) for label, _ in dash.panel("rulings").value.options)
    assert all(CYRILLIC.search(name) for name in dash.panel("rulings").compare.names)
    assert CYRILLIC.search(dash.panel("rulings").help.value.split("</b>")[1])  # each reading in Russian


def test_one_roll_step_by_step_uses_the_rule_and_ends_in_a_listed_outcome():
    """The Roll panel (the one place for one roll, step by step) on the d100 page, in English
    and in Russian: the rule's play on the seed's faces, and what it came to."""
    from rules_core import play_once

    dash = Dashboard("d100-homebrew", query="preset=two-attacks-leftovers")
    dash.panel("roll").seed.value = 3
    dash.panel("roll").roll()
    played = play_once(D100, dash.scenario, seed=3)
    faces = [rolled.answer for rolled in played.rolled]
    # Two rolls, always: leftovers (at most 4, at 4 per hit) never cover all 3 hits of attack 2.
    assert len(faces) == 2 and all(1 <= f <= 100 for f in faces)
    assert play_once(D100, dash.scenario, faces=faces) == played
    assert dash.result.outcomes[played.outcome] > 0
    shown = dash.panel("roll").steps.value
    assert f"<b class='wb-roll-outcome'>{played.outcome}</b>" in shown
    assert f"<li data-key='expected_successes'>Expected successes: <b>{played['successes']}</b></li>" in shown
    dash.language.value = "ru"
    dash.panel("roll").seed.value = 3
    dash.panel("roll").roll()
    shown = dash.panel("roll").steps.value
    assert "Исход: <b class='wb-roll-outcome'>" + D100.text(played.outcome, "ru") in shown
    assert "Уклонение против атаки 1" in shown and "Чем кончился этот бросок" in shown


def test_a_language_switch_closes_the_page_it_replaces():
    from ipywidgets.widgets.widget import _instances
    dash = Dashboard("d100-homebrew", query="")
    dash.toggles["wb-analysis-toggle"].value = True  # its panels drawn too
    dash.language.value = "en"
    opened = len(_instances)
    dash.language.value = "ru"
    dash.language.value = "en"
    assert len(_instances) == opened  # every widget of the old page closed, none left over
    assert dash.toggles["wb-analysis-toggle"].value  # what was open stays open


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_system_panels_are_titled_in_the_dashboards_language(lang):
    dash = Dashboard("d100-homebrew", query="", lang=lang)
    titles = [dash.text(view.title) for view in dash.views]
    assert len(titles) == 2  # one roll, step by step: the Roll panel (workbook.panels.classroom)
    if lang == "ru":
        assert all(CYRILLIC.search(t) for t in titles)
        assert all(CYRILLIC.search(bar.name) for bar in dash.rendered["Where each attack's hits go"].data)


def test_modifiers_move_in_fives_on_the_dashboard_and_in_links():
    """The rulings document's −25 and −5 (docs/rulings/d100-homebrew.md, leftover Successes):
    a −5 Dodge modifier and a −25 second attack, worked by hand in
    tests/core/d100_homebrew/test_exact.py: target 65, no hit on faces 01–25 (1/4), 11/10 hits."""
    dash = Dashboard("d100-homebrew", query="")
    for path in ("defender.dodge_modifier", "defender.parry_modifier", "attacks.0.evasion_modifier"):
        assert dash.form.control(path).step == 5
    assert dash.form.control("defender.dodge_advance").step == 10  # advances stay +0/+10/+20/+30
    dash.form.control("defender.agility").value = 70
    dash.form.control("defender.dodge_modifier").value = -5
    dash.form.button("attacks.add").click()
    dash.form.control("attacks.0.hits").value = 1
    dash.form.control("attacks.1.hits").value = 1
    dash.form.control("attacks.1.evasion").value = "none"
    dash.form.control("attacks.1.evasion_modifier").value = -25
    assert (dash.scenario.defender.dodge_modifier, dash.scenario.attacks[1].evasion_modifier) == (-5, -25)
    head = shown_headline(dash)
    assert (head["p_no_hit"], head["expected_hits"], head["p_dodge_succeeds"]) == (
        Fraction(1, 4), Fraction(11, 10), Fraction(13, 20))
    check_against_core(dash)
    # the page's own link carries both and opens the same numbers
    query = dash.urlbar.query
    assert "defender.dodge_modifier=-5" in query and "attacks.1.evasion_modifier=-25" in query
    again = Dashboard("d100-homebrew", query=query)
    assert again.notices == [] and again.scenario == dash.scenario
    assert shown_headline(again)["p_no_hit"] == Fraction(1, 4)


@pytest.mark.parametrize("query, words", [
    ("attacks.0.evasion_modifier=-23", "The link asked for Modifier to Evasion (Attack 1) -23; Modifier to "
                                       "Evasion goes from -60 to 30 in steps of 5."),
    ("lang=ru&defender.dodge_modifier=-7", "Модификатор Уклонения (Защищающийся) -7; Модификатор Уклонения"),
])
def test_a_modifier_between_the_fives_is_refused_in_a_players_words(query, words):
    dash = Dashboard("d100-homebrew", query=query)
    assert words in dash.notices[0]
    assert dash.scenario == D100.default_scenario()


@pytest.mark.parametrize("how", ["switch", "link"])
def test_the_explanations_around_the_page_follow_its_language(how):
    """The notebook's prose (workbook.pages.explain) is the page's language: after the switch, and
    when a link requested of a page built before (a preheated kernel) names the language."""
    from workbook.pages.explain import explained, read_explanation

    page = explained("d100-homebrew", query="")
    intro = page.children[0]
    said = lambda: intro.outputs[0]["data"]["text/markdown"]  # noqa: E731
    assert said() == read_explanation("d100-homebrew", "en").intro
    if how == "switch":
        page.dashboard.language.value = "ru"
    else:
        page.dashboard.apply_query("lang=ru")
    assert page.dashboard.lang == "ru" and said() == read_explanation("d100-homebrew", "ru").intro
    assert page.children[2].outputs[0]["data"]["text/markdown"] == read_explanation("d100-homebrew", "ru").body
