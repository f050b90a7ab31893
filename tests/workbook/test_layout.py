"""The page's look, without a browser: headline cards from the core's exact numbers, a refused
typed value marked at its field with the numbers marked stale, present mode and the chart style."""

from __future__ import annotations

import re
from fractions import Fraction

import plotly.graph_objects as go

from rules_core import evaluate, get_system
from workbook.app import Dashboard
from workbook.layout import OKABE_ITO, PRESENT_FONT_SIZE, headline_cards, short_fraction, style_figure
from workbook.views import headline_table, outcome_chart

INF = get_system("infinity-n4")


def cards(value: str) -> dict[str, str]:
    return dict(re.findall(r'data-key="([^"]+)".*?data-col="exact" data-value="([^"]*)"', value))


def test_every_headline_is_a_card_with_its_exact_value():
    mine = INF.preset("zhanshi-mine-and-fusilier").scenario
    dash = Dashboard("infinity-n4", scenario=mine)
    core = evaluate(mine)
    shown = cards(dash._headline.value)
    assert {k: Fraction(v) for k, v in shown.items()} == core.headline
    assert shown["p_dodge_succeeds"] == "299/40000"
    # The percentage big, "1 in N" beside it.
    assert '<span class="wb-card-big">0.747%</span> <span class="wb-card-one-in">1 in 134</span>' \
        in dash._headline.value


def test_a_long_fraction_is_shortened_on_the_card_and_whole_on_a_click():
    assert short_fraction("900024327/1250000000") == "90002…/12500…"
    html = headline_cards(headline_table(evaluate(INF.default_scenario())))
    assert ('<details class="wb-card-exact" data-col="exact" data-value="900024327/1250000000" '
            'title="900024327/1250000000"><summary>90002…/12500…</summary>') in html


def test_a_quantity_without_a_value_is_a_small_line_with_the_reason():
    gurps = get_system("gurps-4e")
    html = headline_cards(headline_table(evaluate(gurps.presets[0].scenario)))
    absent = re.search(r'<span class="wb-card-absent" data-key="p_dodge_succeeds">(.*?)</span></span>'
                       r'|<span class="wb-card-absent" data-key="p_dodge_succeeds">.*?</b>: ([^;<]*)', html)
    assert absent and 'class="wb-card" data-key="p_dodge_succeeds"' not in html


def test_a_refused_typed_value_is_marked_at_its_field_and_the_numbers_are_stale():
    dash = Dashboard("gurps-4e")
    before = dash._headline.value
    dash.form.control("attacks.0.damage").value = "4d8"
    assert "wb-stale" in dash._results._dom_classes
    assert "wb-invalid" in dash.form.control("attacks.0.damage")._dom_classes
    reason = dash._marks.reasons["attacks.0.damage"][1].value
    assert "six-sided" in reason and "Not updated" in dash._stale.value
    assert dash._headline.value == before  # the last valid numbers, dimmed
    dash.form.control("attacks.0.damage").value = "4d-1"
    assert "wb-stale" not in dash._results._dom_classes and dash._marks.reasons == {}
    assert "wb-invalid" not in dash.form.control("attacks.0.damage")._dom_classes
    assert dash._stale.value == ""


def test_present_mode_from_the_link_and_the_switch():
    dash = Dashboard("infinity-n4", query="dodger.ph=12&present=1")
    assert dash.present and "wb-present" in dash.widget._dom_classes
    assert dash.scenario.dodger.ph == 12 and dash.notices == []
    assert dash.urlbar.query == "dodger.ph=12&present=1"
    dash.present_toggle.value = False
    assert "wb-present" not in dash.widget._dom_classes and dash.urlbar.query == "dodger.ph=12"


def test_chart_style_palette_and_present_type_sizes():
    fig = style_figure(outcome_chart(evaluate(INF.default_scenario())), present=True)
    assert fig.layout.font.size >= 18 and fig.layout.title.font.size >= 18
    assert all(t.textfont.size >= 18 for t in fig.data)
    assert list(fig.layout.colorway) == list(OKABE_ITO.values())
    assert fig.data[0].marker.color == OKABE_ITO["blue"]
    plain = style_figure(go.Figure(go.Bar(x=[1], y=[1])))
    assert plain.layout.font.size < PRESENT_FONT_SIZE


def test_every_dashboard_opens_on_a_scenario_where_every_card_has_a_value_or_a_reason():
    for system_id in ("infinity-n4", "eldfall", "d100-homebrew"):
        dash = Dashboard(system_id)
        assert Fraction(cards(dash._headline.value)["p_dodge_succeeds"]) == \
            dash.result.headline["p_dodge_succeeds"]


def test_long_outcome_names_are_wrapped_for_display_only():
    result = evaluate(INF.default_scenario())
    fig = outcome_chart(result)
    shown = style_figure(fig)
    assert "No hit lands, no successful dodge" in fig.data[0].x  # the figure itself is unchanged
    assert "No hit lands,<br>no successful<br>dodge" in shown.data[0].x
    assert [x.replace("<br>", " ") for x in shown.data[0].x] == list(fig.data[0].x)
