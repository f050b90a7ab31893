"""The static site's first dashboard in Chromium with no network but 127.0.0.1: the Python
runtime, the project and pydantic run in the page and show the core's exact numbers."""

from __future__ import annotations

from fractions import Fraction

from rules_core import evaluate, get_system

NOTEBOOK = "infinity-n4-dodge.ipynb"
SEED = get_system("infinity-n4").presets[0].scenario  # the seed's Zhanshi against the Fusilier


def with_ph(ph: int):
    return SEED.replace(dodger=SEED.dodger.replace(ph=ph))


def test_the_first_dashboard_renders_the_cores_exact_numbers_offline(open_static):
    dash = open_static(NOTEBOOK)
    result = evaluate(SEED)
    assert dash.headline() == dict(result.headline)
    assert dash.headline()["p_dodge_succeeds"] == Fraction(47, 500)  # the seed's number
    assert dash.table() == dict(result.outcome_rows())
    assert dash.chart_y() == [float(p) for p in dict(result.outcome_rows()).values()]
    assert dash.python_errors() == []
    assert dash.hosts - {"127.0.0.1"} <= {"cdn.jsdelivr.net"}  # Voilà's template links a web font
    print(f"static site: first dashboard drawn in {dash.load_seconds:.1f} s")


def test_a_control_moves_the_headline_to_the_cores_numbers(open_static):
    dash = open_static(NOTEBOOK)
    dash.press_slider("wb-dodger-ph", "ArrowRight")  # PH 10 → 11
    result = evaluate(with_ph(11))
    dash.wait_for_headline(dict(result.headline))
    dash.wait_for_table(dict(result.outcome_rows()))
    assert dash.slider_value("wb-dodger-ph") == 11
    assert dash.python_errors() == []
