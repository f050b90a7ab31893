"""A Result in a notebook: pandas frames with exact and float columns, float views of the
headline, a short repr and a compact HTML display."""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys
from fractions import Fraction

import plotly.express as px
import pytest

from rules_core import TraceStep, all_systems, evaluate, find_preset
from workbook import explore

SEED = evaluate(find_preset("infinity-n4/zhanshi-vs-fusilier").scenario)
RESULTS = [evaluate(p.scenario) for s in all_systems().values() for p in s.presets[:2]]


@pytest.mark.parametrize("result", RESULTS, ids=lambda r: r.system)
def test_to_frame_has_every_outcome_exact_and_as_floats(result):
    frame = explore.to_frame(result)
    assert list(frame["outcome"]) == list(result.outcome_order)
    assert list(frame["exact"]) == [result.outcomes[label] for label in result.outcome_order]
    assert all(isinstance(p, Fraction) for p in frame["exact"])
    assert str(frame["probability"].dtype) == "float64" and str(frame["percent"].dtype) == "float64"
    for row in frame.itertuples():
        assert row.probability == float(row.exact) and row.percent == pytest.approx(float(row.exact) * 100)


def test_to_frame_of_the_seed():
    frame = explore.to_frame(SEED).set_index("outcome")
    assert frame.loc["Dodge succeeds", "exact"] == Fraction(47, 500)
    assert frame.loc["Dodge succeeds", "percent"] == pytest.approx(9.4)
    assert frame.loc["Dodge succeeds", "one_in"] == "1 in 10.6"


def test_the_frames_plot_with_plotly_express():
    # The float columns serialise; a column of Fractions would not ("not JSON serializable").
    fig = px.bar(explore.to_frame(SEED), x="outcome", y="probability")
    assert json.loads(fig.to_json())["data"][0]["y"]
    fig = px.bar(explore.headline_frame(SEED), x="key", y="value")
    assert json.loads(fig.to_json())["data"][0]["x"]


@pytest.mark.parametrize("result", RESULTS, ids=lambda r: r.system)
def test_headline_frame_and_floats(result):
    frame = explore.headline_frame(result).set_index("key")
    floats = result.headline_floats()
    assert list(frame.index) == list(result.headline) == list(floats)
    for key, value in result.headline.items():
        assert frame.loc[key, "exact"] == value
        if value is None:
            assert floats[key] is None and frame.loc[key, "note"] == result.notes[key]
        else:
            assert floats[key] == float(value) == frame.loc[key, "value"]
            if key.startswith("p_"):
                assert frame.loc[key, "percent"] == pytest.approx(float(value) * 100)


def test_a_null_headline_is_nan_with_its_note():
    gurps = evaluate(all_systems()["gurps-4e"].default_scenario())
    assert gurps.headline["p_dodge_succeeds"] is None
    row = explore.headline_frame(gurps).set_index("key").loc["p_dodge_succeeds"]
    assert row["value"] != row["value"]  # NaN
    assert row["note"] == gurps.notes["p_dodge_succeeds"]


def test_repr_is_short_and_exact():
    text = repr(SEED)
    assert text.startswith("<Result infinity-n4: p_dodge_succeeds=47/500, p_no_hit=401/3200,")
    assert len(text) < 300 and "\n" not in text


def test_html_display_has_cards_the_outcome_table_and_the_trace_folded():
    page = SEED._repr_html_()
    assert page.count("class='rc-card'") == len(SEED.headline)
    assert "9.40%" in page and "47/500 · 1 in 10.6" in page
    assert page.count("<tr>") == len(SEED.outcome_order) + 1 + len(SEED.scenario.paths()) + 1
    assert ("<details class='rc-details'><summary>Trace of the rules applied (11 steps)</summary>"
            "<ol style='font-size:90%'>") in page
    assert page.count("<li>") == len(SEED.trace)
    assert "<script" not in page


def test_html_escapes_what_it_shows():
    odd = dataclasses.replace(SEED, trace=(TraceStep("a<b", "x & <i>y</i>", "p. 1"),))
    page = odd._repr_html_()
    assert "<li>a&lt;b: x &amp; &lt;i&gt;y&lt;/i&gt; [p. 1]</li>" in page
    assert "<i>" not in page


def test_the_core_in_code_imports_no_pandas():
    code = ("import sys, rules_core\n"
            "r = rules_core.evaluate(rules_core.find_preset('infinity-n4/zhanshi-vs-fusilier').scenario)\n"
            "r._repr_html_(); repr(r); r.headline_floats(); rules_core.sweep(r.scenario, 'dodger.ph', [9])\n"
            "print('pandas' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False"]


# -- a house rule is marked in the result itself, not only inside the folded trace --------------

HOUSE = evaluate(SEED.scenario.set("variant.mod_cap", 2))
MOD_CAP_SOURCE = "Infinity N4 Core Rules, Modifiers (MODs): Maximum Modifier ±12"


def test_repr_names_the_house_rule_and_the_official_value():
    assert repr(HOUSE).startswith("<Result infinity-n4 [house rule: MOD cap (±) 2 (official 12)]: "
                                  "p_dodge_succeeds=")
    two = evaluate(SEED.scenario.replace(**{"variant.mod_cap": 2, "variant.dodge_move": 3}))
    assert repr(two).startswith("<Result infinity-n4 [house rules: MOD cap (±) 2 (official 12); "
                                "Dodge move (inches) 3 (official 2)]: ")
    assert "house rule" not in repr(SEED)


def test_html_shows_the_house_rule_above_the_cards_outside_the_fold():
    page = HOUSE._repr_html_()
    line = page.index("<div class='rc-house-rule'")
    assert line < page.index("<div class='rc-cards'") < page.index("<details")
    mark = page[line:page.index("<div class='rc-cards'")]
    assert "House rule: <b>MOD cap (±) 2 (official 12)</b>" in mark
    assert MOD_CAP_SOURCE in mark
    assert "rc-house-rule" not in SEED._repr_html_()


def test_data_lists_each_house_rule_with_its_official_value_and_source():
    [rule] = HOUSE.to_data()["house_rules"]
    assert {k: rule[k] for k in ("path", "label", "value", "official")} == {
        "path": "variant.mod_cap", "label": "MOD cap (±)", "value": 2, "official": 12}
    assert rule["citation"].startswith(MOD_CAP_SOURCE)
    assert SEED.to_data()["house_rules"] == []


def test_the_command_line_json_carries_the_house_rules():
    scenario = json.dumps(HOUSE.scenario.to_data())
    out = subprocess.run([sys.executable, "-m", "rules_core", "evaluate", "-"], input=scenario,
                         capture_output=True, text=True, check=True)
    data = json.loads(out.stdout)
    assert [(r["path"], r["value"], r["official"]) for r in data["house_rules"]] == [("variant.mod_cap", 2, 12)]
    assert data["headline"]["p_dodge_succeeds"]["exact"] != "47/500"  # the cap binds the +3 MOD
