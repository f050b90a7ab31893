"""What a designer working in code met and did not expect: the names the README gives are
importable from ``rules_core`` itself, a zero reads ``0`` where a person reads it, and a trace
step in Russian writes its numbers the Russian way. (The command line's line of a rule file:
tests/core/test_cli_designed_rule.py.)"""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import rules_core
from rules_core import evaluate, find_preset, get_system

README = Path(__file__).resolve().parents[2] / "README.md"


def test_compare_worth_and_simulate_are_imported_from_the_package():
    from rules_core import compare, simulate, worth

    assert compare is importlib.import_module("rules_core.compare").compare
    assert worth is importlib.import_module("rules_core.compare").worth
    assert simulate is importlib.import_module("rules_core.simulate").simulate
    from rules_core.compare import worth_curve  # the modules are still there by name
    from rules_core.simulate import simulate_steps
    assert callable(worth_curve) and callable(simulate_steps)


def test_every_function_the_readme_names_beside_evaluate_is_in_the_package():
    text = README.read_text(encoding="utf-8")
    sentence = re.search(r"`evaluate`, `sweep`[^.]*? and every panel then take it", text, re.S)
    assert sentence is not None, "the README's sentence naming what a designed rule works with"
    names = re.findall(r"`([a-z_]+)`", sentence.group(0))
    assert {"evaluate", "compare", "worth", "simulate"} <= set(names)
    assert [name for name in names if name not in rules_core.__all__] == []


def test_a_zero_is_0_in_a_results_repr_and_cards_and_n_over_d_in_its_data():
    # GURPS's sword example with no defence: no chance that no hit lands, exactly one hit
    result = evaluate(find_preset("gurps-4e/sword-2d1-cut-vs-dr3").scenario)
    assert ", p_no_hit=0, expected_hits=1, expected_injury=29/4," in repr(result)
    page = result._repr_html_()
    assert "0/1" not in page and "1/1" not in page
    assert "0 · never" in page  # the P(no hit lands) card, under its percentage
    data = result.to_data()["headline"]
    assert (data["p_no_hit"]["exact"], data["expected_hits"]["exact"]) == ("0/1", "1/1")


def test_a_step_in_russian_writes_its_numbers_the_russian_way():
    d100 = get_system("d100-homebrew")
    trace = evaluate(find_preset("d100-homebrew/burst-3-vs-dodge-45").scenario).trace
    (step,) = [s for s in trace if s.rule == "Attack 1: what became of its 3 hits (expected)"]
    assert "evaded by its own roll: 21/20 ≈ 1.05;" in step.detail
    said = d100.text(step, "ru")
    assert "избегнуто своим броском: 21/20 ≈ 1,05;" in said and "прошло: 39/20 ≈ 1,95;" in said
    assert "1.05" not in said and "1.95" not in said
    assert d100.text(step, "en") == str(step)  # English as the core wrote it
