"""The lessons show the core's exact numbers, checked against counts made here by hand."""

from __future__ import annotations

from itertools import product

from workbook.pages.lessons import bell_and_flat, leftover_successes, one_die_three_attackers, sampling


def test_one_die_against_three_attackers():
    table = one_die_three_attackers().children[0].value
    assert "<tr data-key='1'><td>1</td><td data-col='exact'>47/500</td>" in table   # the seed example
    assert "<td data-col='naive'>103823/125000000</td>" in table                    # (47/500)³


def test_a_bell_against_a_flat_line():
    table = bell_and_flat().children[1].value
    ten = sum(1 for t in product(range(1, 7), repeat=3) if sum(t) <= 10)          # 108 of 216
    assert f"<tr data-key='10'><td>10</td><td data-col='gurps'>{ten // 108}/{216 // 108}</td>" in table
    assert "<td data-col='eldfall'>1/2</td>" in table.split("<tr data-key='10'>")[1].split("</tr>")[0]
    # 17 and 18 always fail, 3 and 4 always succeed: a score of 20 still fails on 17 and 18 (4 ways in 216).
    assert "<tr data-key='20'><td>20</td><td data-col='gurps'>53/54</td>" in table


def test_leftover_successes_speaks_russian_on_request():
    lesson = leftover_successes("ru")
    assert "Успехи" in lesson.children[0].value and "Атака" in lesson.children[2].value


def test_sampling_follows_the_chosen_scenario():
    from rules_core import evaluate, find_preset
    from workbook.page.views import exact_text

    lesson = sampling("infinity-n4", "zhanshi-mine-and-fusilier")
    exact = evaluate(find_preset("infinity-n4/zhanshi-mine-and-fusilier").scenario).headline["p_no_hit"]
    assert f"<b>{exact_text(exact)}</b>" in lesson.children[1].value
    system, preset = lesson.children[0].children
    system.value = "gurps-4e"
    first = find_preset(f"gurps-4e/{preset.value}")
    assert preset.value == [name for _, name in preset.options][0]
    assert f"<b>{exact_text(evaluate(first.scenario).headline['p_no_hit'])}</b>" in lesson.children[1].value
