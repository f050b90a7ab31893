"""Working in code: sweeps as tidy frames and charts, and the dashboard object that code and
sliders share (headless widgets)."""

from __future__ import annotations

import json
import re
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import nbformat
import plotly.express as px
import pytest

from rules_core import ScenarioError, all_systems, evaluate, find_preset, get_system
from workbook.pages.notebook import NotebookDashboard, dashboard
from workbook import explore
from workbook.explore import sweep, sweep_chart, sweep_grid
from workbook.page.views import at_least_chart, headline_table, outcome_chart, outcome_table, trace_html

SEED = find_preset("infinity-n4/zhanshi-vs-fusilier").scenario
GURPS = get_system("gurps-4e").default_scenario()


# -- sweeps as frames ------------------------------------------------------------------------

def test_sweep_frame_is_tidy_one_row_per_point_and_headline():
    frame = sweep(SEED, "dodger.ph", [9, 10, 11])
    keys = list(evaluate(SEED).headline)
    assert len(frame) == 3 * len(keys)
    assert list(frame.columns[:2]) == ["dodger.ph", "headline"]
    assert str(frame["dodger.ph"].dtype) == "int64" and str(frame["value"].dtype) == "float64"
    for row in frame.itertuples():
        exact = evaluate(SEED.set("dodger.ph", row[1])).headline[row.headline]
        assert row.exact == exact
        assert row.exact_text == (None if exact is None else f"{exact.numerator}/{exact.denominator}")
        assert row.value == float(exact)
    seed_row = frame[(frame["dodger.ph"] == 10) & (frame.headline == "p_dodge_succeeds")]
    assert seed_row["exact"].item() == Fraction(47, 500)


def test_sweep_frame_plots_with_plotly_express():
    frame = sweep(SEED, "dodger.ph", range(5, 16))
    fig = px.line(frame, x="dodger.ph", y="value", color="name")
    json.loads(fig.to_json())  # serialisable: no Fraction in what is plotted
    assert len(fig.data) == len(evaluate(SEED).headline)
    assert fig.data[0].name == "P(dodge succeeds)" and list(fig.data[0].x[:2]) == [5, 6]
    assert fig.data[0].y[1] == float(evaluate(SEED.set("dodger.ph", 6)).headline["p_dodge_succeeds"])


def test_exact_fields_sweep_as_numbers():
    frame = sweep(GURPS, "dodger.basic_speed", [Decimal("5"), 5.25, 6.250000000000001])
    assert str(frame["dodger.basic_speed"].dtype) == "float64"
    assert sorted(set(frame["dodger.basic_speed"])) == [5.0, 5.25, 6.25]


def test_choices_stay_as_they_are_and_refused_points_say_why():
    frame = sweep(SEED, "minus_three")
    assert set(frame["minus_three"]) == {"single", "stacking"}
    refused = sweep(GURPS, "target.hp_left", [10, 11])
    last = refused[refused["target.hp_left"] == 11]
    assert len(last) == 1 and "at most the full HP" in last["refused"].item()
    assert last["headline"].item() is None and last["value"].isna().item()


def test_grid_frame_has_both_fields():
    frame = sweep_grid(SEED, "dodger.ph", [9, 12], "attackers.0.burst", [1, 3])
    dodge = frame[frame.headline == "p_dodge_succeeds"]
    assert list(zip(dodge["dodger.ph"], dodge["attackers.0.burst"])) == [(9, 1), (9, 3), (12, 1), (12, 3)]
    expected = evaluate(SEED.replace(**{"dodger.ph": 12, "attackers.0.burst": 1})).headline["p_dodge_succeeds"]
    assert dodge["exact"].tolist()[2] == expected


def test_sweep_chart_draws_each_probability_with_the_exact_value_on_hover():
    frame = sweep(SEED, "dodger.ph", [9, 10, 11])
    fig = sweep_chart(frame, mark=10)
    probabilities = [k for k in evaluate(SEED).headline if k.startswith("p_")]
    assert len(fig.data) == len(probabilities)
    first = next(t for t in fig.data if t.name == "P(dodge succeeds)")
    assert list(first.x) == [9, 10, 11]
    assert first.customdata[1][0] == "47/500" and first.customdata[1][1] == "9.40%"
    assert fig.layout.shapes[0].x0 == 10
    assert len(sweep_chart(frame, ["expected_hits"]).data) == 1


# -- the dashboard object --------------------------------------------------------------------

def test_dashboard_displays_as_the_page_widget():
    d = dashboard("infinity-n4", query="")
    bundle = d._repr_mimebundle_()
    assert bundle["application/vnd.jupyter.widget-view+json"]["model_id"] == d.widget.model_id
    assert "wb-dashboard" in d.widget._dom_classes


def test_dashboard_takes_a_scenario_built_in_code():
    mine = SEED.set("dodger.ph", 12)
    for d in (dashboard(mine, query=""), dashboard("infinity-n4", scenario=mine, query="")):
        assert isinstance(d, NotebookDashboard)
        assert d.scenario == mine and d.result == evaluate(mine)
        assert d.form.control("dodger.ph").value == 12
    with pytest.raises(TypeError, match="give the scenario once"):
        dashboard(mine, scenario=mine)


def test_sliders_and_code_share_one_state_and_observers_hear_both():
    d = dashboard(SEED, query="")
    heard = []
    d.on_change(heard.append)
    d.form.control("dodger.ph").value = 12          # a slider moved
    assert [r.scenario.dodger.ph for r in heard] == [12]
    assert heard[-1] is d.result and d.result == evaluate(SEED.set("dodger.ph", 12))
    d.scenario = d.scenario.set("attackers.0.burst", 1)   # code
    assert d.form.control("attackers.0.burst").value == 1
    assert heard[-1].scenario.attackers[0].burst == 1 and len(heard) == 2
    assert d.tables["outcomes"].column("exact") == [
        f"{p.numerator}/{p.denominator}" for _, p in evaluate(d.scenario).outcome_rows()]
    d.on_change(heard.append, remove=True)
    d.form.control("dodger.ph").value = 11
    assert len(heard) == 2


def test_a_bad_scenario_from_code_is_refused_and_changes_nothing():
    d = dashboard(SEED, query="")
    with pytest.raises(ScenarioError, match="dodger.ph"):
        d.scenario = {**SEED.to_data(), "dodger": {**SEED.dodger.to_data(), "ph": 99}}
    assert d.scenario == SEED


def test_observers_survive_a_change_of_language():
    d = dashboard("d100-homebrew", query="")
    heard = []
    d.on_change(heard.append)
    d.set_lang("ru")
    d.scenario = d.scenario.set("defender.agility", 60)
    assert heard and heard[-1].scenario.defender.agility == 60


# -- the documentation -----------------------------------------------------------------------

ROOT = Path(__file__).resolve().parents[2]


def test_the_readme_example_runs():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    block = text.split("## Exploring in code", 1)[1].split("```python", 1)[1].split("```", 1)[0]
    names: dict = {}
    exec(block, names)  # noqa: S102 - the project's own README
    assert names["d"].result == evaluate(names["stronger"])
    assert names["frame"]["dodger.ph"].min() == 6


def test_the_explore_notebook_walks_through_every_step_and_is_linked_from_the_index():
    notebook = nbformat.read(ROOT / "notebooks" / "explore-in-code.ipynb", as_version=4)
    code = "\n".join(c.source for c in notebook.cells if c.cell_type == "code")
    for step in ("evaluate(", "explore.to_frame(", ".replace(**{", ".add_item(", "explore.sweep(", "px.line(",
                 "compare_table(", "dashboard("):
        assert step in code, step
    # a house rule against the official one: a rule constant changed, listed, and compared
    assert re.search(r"\.set\(\s*[\"']variant\.", code), "a house rule set through variant."
    for step in ("house_rules(", "compare_table(evaluate(official("):
        assert step in code, step
    index = nbformat.read(ROOT / "notebooks" / "index.ipynb", as_version=4)
    assert any("(explore-in-code.ipynb)" in c.source for c in index.cells if c.cell_type == "markdown")


# -- the charts and tables of workbook.page.views take any Result ------------------------------------

@pytest.mark.parametrize("system_id", sorted(all_systems()))
def test_views_work_on_any_result_and_agree_with_its_frame(system_id):
    result = evaluate(all_systems()[system_id].default_scenario())
    frame = explore.to_frame(result)
    chart = outcome_chart(result)  # no system given: found from the result
    assert list(chart.data[0].y) == list(frame["probability"])
    assert list(outcome_table(result)["exact"]) == [f"{p.numerator}/{p.denominator}" for p in frame["exact"]]
    headline = headline_table(result).set_index("key")
    for key, value in result.headline_floats().items():
        assert (headline.loc[key, "value"] != headline.loc[key, "value"]) if value is None \
            else headline.loc[key, "value"] == value
    assert at_least_chart(result).data and trace_html(result).count("<li") == len(result.trace)
