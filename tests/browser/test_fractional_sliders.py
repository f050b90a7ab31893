"""Every slider with a fractional step, on every dashboard, in a real browser: arrow keys move
it by whole steps, the share link then carries the exact value in its short decimal form, and
opening that link in a new page shows the same scenario with the same numbers (no notice, no
fall-back to the default)."""

from __future__ import annotations

from fractions import Fraction
from urllib.parse import parse_qsl, urlsplit

import pytest

from core.test_fractional_steps import FIELDS, short, value_at
from rules_core import evaluate, get_system, load_scenario
from workbook.pages.catalog import dashboards
from workbook.page.controls import css_class
from workbook.page.share import decode_query

pytestmark = pytest.mark.browser

CASES = [(entry.notebook, system_id, path, spec)
         for entry in dashboards() if entry.system is not None
         for system_id, path, spec in FIELDS if system_id == entry.system.id]

def test_there_are_fractional_sliders_to_press():
    assert ("gurps-4e.ipynb", "gurps-4e", ("dodger", "basic_speed")) in [c[:3] for c in CASES]


def query_of(link: str) -> str:
    return urlsplit(link).query


def wait_for_numbers(dash, scenario) -> None:
    core = evaluate(scenario)
    dash.wait_for_table(dict(core.outcome_rows()))
    dash.wait_for_headline(dict(core.headline))


def readout(dash, css: str) -> Fraction:
    """The slider's readout (the widget's value, with the field's decimals). The handle's
    ``aria-valuenow`` is rounded to one decimal and its ``aria-valuetext`` carries the slider
    library's own floating point (6.000000000000001 before any key), so neither is the value."""
    return Fraction(dash.page.locator(f".{css} .widget-readout").inner_text().strip())


def moved(start, path, value: Fraction):
    """``start`` with the field at ``path`` set to ``value`` (sent as a slider sends it, a float)."""
    data = start.to_data()
    node = data
    for name in path[:-1]:
        node = node[name]
    node[path[-1]] = float(value)
    scenario = load_scenario(data)
    assert Fraction(value_at(scenario, path)) == value
    return scenario


@pytest.mark.parametrize("notebook, system_id, path, spec", CASES,
                         ids=[f"{n}:{'.'.join(map(str, p))}" for n, _, p, _ in CASES])
def test_arrow_keys_then_the_share_link_open_the_same_scenario(open_dashboard, timings, notebook,
                                                               system_id, path, spec):
    system, css, dotted = get_system(system_id), css_class(path), ".".join(map(str, path))
    dash = open_dashboard(notebook)
    start = decode_query(system, query_of(dash.share_link())).scenario  # what the page shows
    value, step = Fraction(value_at(start, path)), Fraction(spec.step)
    up = value + 3 * step <= Fraction(spec.maximum)
    forward, back = ("ArrowRight", "ArrowLeft") if up else ("ArrowLeft", "ArrowRight")
    sign = 1 if up else -1
    # One step at a time, then back one: after each key the slider, the link and the numbers
    # hold the exact step (one press from 6.00 once gave 6.250000000000001 and a link that failed).
    for key, steps in [(forward, 1), (forward, 2), (forward, 3), (back, 2)]:
        target = value + sign * steps * step
        dash.press_slider(css, key)
        pair = f"{dotted}={short(target)}"
        dash.share_link(pair)
        expected = moved(start, path, target)
        wait_for_numbers(dash, expected)
        assert readout(dash, css) == target
        if steps == 1:
            first_link = dash.share_link()
    link = dash.share_link()
    assert dict(parse_qsl(query_of(link)))[dotted] == short(target)
    assert decode_query(system, query_of(link)).scenario == expected

    # The link after one press, opened in a new page: the same scenario, the same numbers.
    target = value + sign * step
    expected = moved(start, path, target)
    again = open_dashboard(notebook, query=query_of(first_link))
    timings.record(system_id, f"{dotted} shared by link → the same numbers", again.load_seconds)
    wait_for_numbers(again, expected)
    assert readout(again, css) == target
    assert again.notices() == [] and again.python_errors() == []
    assert decode_query(system, query_of(again.share_link(f"{dotted}={short(target)}"))).scenario == expected
    assert dash.console_errors() == [] and again.console_errors() == []
