"""The page's look, without a browser: headline cards from the core's exact numbers, a refused
typed value marked at its field with the numbers marked stale, present mode and the chart style."""

from __future__ import annotations

import re
from fractions import Fraction

import plotly.graph_objects as go
import pytest

from rules_core import evaluate, get_system
from workbook.pages.dashboard import Dashboard
from workbook.page.layout import (OKABE_ITO, PRESENT_FONT_SIZE, headline_cards, short_fraction, style_figure,
                             styled_figure)
from workbook.page.views import headline_grid, outcome_chart

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
    html = headline_cards(headline_grid(evaluate(INF.default_scenario())))
    assert ('<details class="wb-card-exact" data-col="exact" data-value="900024327/1250000000" '
            'title="900024327/1250000000"><summary>90002…/12500…</summary>') in html


def test_a_quantity_without_a_value_is_a_small_line_with_the_reason():
    gurps = get_system("gurps-4e")
    html = headline_cards(headline_grid(evaluate(gurps.presets[0].scenario)))
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


def test_restyling_merges_into_what_the_figure_set_and_leaves_the_figure_alone():
    """The style is merged key by key as plotly's update_layout merges it: what a chart set itself
    (a title's colour, a taller height, a wider top margin, an annotation's larger font) stays."""
    fig = go.Figure(go.Scatter(x=[1, 2], y=[3, 4], text=["a", "b"]),
                    layout=dict(title=dict(text="Hits", font=dict(color="#123456")), height=500,
                                margin=dict(t=200, l=7), font=dict(family="serif"),
                                annotations=[dict(text="big", font=dict(size=30)), dict(text="small")]))
    before = fig.to_plotly_json()
    styled = styled_figure(fig, present=True)
    layout = styled["layout"]
    assert layout["title"] == {"text": "Hits", "font": {"color": "#123456", "size": 25}, "x": 0.01, "xanchor": "left"}
    assert layout["font"] == {"family": "serif", "size": PRESENT_FONT_SIZE}
    assert layout["height"] == 750 and layout["margin"] == {"t": 200, "l": 7}
    assert [a["font"]["size"] for a in layout["annotations"]] == [30, PRESENT_FONT_SIZE]
    assert styled["data"][0]["textfont"] == {"size": PRESENT_FONT_SIZE}
    assert fig.to_plotly_json() == before  # a copy was restyled


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


# -- a quantity without a value: one readable sentence ------------------------------------------

@pytest.mark.parametrize("system_id", ["infinity-n4", "gurps-4e", "eldfall", "d100-homebrew"])
def test_the_line_of_quantities_without_a_value_reads_as_one_sentence(system_id):
    """Under the cards, each quantity the scenario has no value for and why, joined by "; " and
    ended by one full stop (no ".;" where a reason's own stop met the join), every reason in a
    reader's words: no choice's internal id quoted ("the situation 'attacks'")."""
    system = get_system(system_id)
    ids = _choice_ids(system.scenario_cls)
    for scenario in (system.default_scenario(), *(p.scenario for p in system.presets)):
        html = headline_cards(headline_grid(evaluate(scenario)))
        line = re.search(r'<div class="wb-card-absents"><small>(.*?)</small></div>', html)
        if line is None:
            continue
        words = re.sub(r"<[^>]+>", "", line.group(1))
        assert ".;" not in words and not words.endswith("..") and words.endswith("."), words
        assert not [i for i in re.findall(r"'([A-Za-z0-9_]+)'", words) if i in ids], words


def test_the_gurps_opening_page_says_who_a_friend_is_for_without_an_internal_id():
    dash = Dashboard("gurps-4e", query="")
    assert dash.scenario.situation == "attacks"
    line = re.sub(r"<[^>]+>", "", dash._headline.value.split('class="wb-card-absents"')[1])
    assert "'attacks'" not in line and "situation '" not in line
    assert "P(friend hit): Only a sacrificial dodge for a friend or throwing yourself on an explosive " \
           "puts a friend in danger;" in line


def _choice_ids(cls) -> set[str]:
    from rules_core.scenario import fields_of

    found, stack = set(), [cls]
    while stack:
        for spec in fields_of(stack.pop()):
            found |= {str(v) for v, _ in spec.choices or ()}
            if spec.part_cls is not None:
                stack.append(spec.part_cls)
    return found


# -- every chart in the palette ------------------------------------------------------------------

def _charts(widget, seen=None):
    """The figures (plotly JSON) of every chart in a widget tree."""
    import json

    from workbook.page.chart import Chart

    seen = set() if seen is None else seen
    if id(widget) in seen:
        return
    seen.add(id(widget))
    if isinstance(widget, Chart) and widget.figure:
        yield json.loads(widget.figure)
    for child in getattr(widget, "children", ()) or ():
        yield from _charts(child, seen)


def _rgb(colour: str) -> tuple[int, int, int] | str:
    """A colour as (r, g, b) for ``#rrggbb`` and ``rgb(a)(...)``; a name as it is."""
    colour = colour.strip().lower()
    if re.fullmatch(r"#[0-9a-f]{6}", colour):
        return tuple(int(colour[i:i + 2], 16) for i in (1, 3, 5))
    found = re.fullmatch(r"rgba?\((\d+),\s*(\d+),\s*(\d+)(?:,\s*[0-9.]+)?\)", colour)
    return tuple(int(v) for v in found.groups()) if found else colour


def _off_palette(figure: dict) -> list[str]:
    """Every series colour of a figure (markers, lines, fills, marked lines, annotations' text)
    not in the Okabe–Ito palette, and every heatmap not in Viridis; a white edge around a marker
    (a halo, the page's own colour) is allowed."""
    import plotly.colors

    palette = {_rgb(c) for c in OKABE_ITO.values()}
    viridis = [_rgb(c) for c in plotly.colors.sequential.Viridis]
    bad = []

    def check(where: str, value, halo: bool = False) -> None:
        for colour in value if isinstance(value, (list, tuple)) else [value]:
            if colour is None or (halo and _rgb(colour) in ("white", (255, 255, 255))):
                continue
            if _rgb(colour) not in palette:
                bad.append(f"{where}: {colour}")

    title = ((figure.get("layout", {}).get("title") or {}).get("text")) or ""
    for trace in figure.get("data", ()):
        where = f"{title!r} {trace.get('type')} {trace.get('name')!r}"
        marker = trace.get("marker") or {}
        check(f"{where} marker", marker.get("color"))
        check(f"{where} marker edge", (marker.get("line") or {}).get("color"), halo=True)
        check(f"{where} line", (trace.get("line") or {}).get("color"))
        check(f"{where} fill", trace.get("fillcolor"))
        if trace.get("type") == "heatmap":
            scale = [_rgb(c) for _, c in trace.get("colorscale") or ()]
            if scale != viridis:
                bad.append(f"{where}: colour scale {trace.get('colorscale')!r} is not Viridis")
    layout = figure.get("layout", {})
    for shape in layout.get("shapes", ()):
        check(f"{title!r} marked line", (shape.get("line") or {}).get("color"))
    for note in layout.get("annotations", ()):
        check(f"{title!r} annotation {note.get('text')!r}", (note.get("font") or {}).get("color"))
    return bad


@pytest.mark.parametrize("system_id", ["infinity-n4", "gurps-4e", "eldfall", "d100-homebrew"])
def test_every_chart_a_dashboard_draws_is_in_the_okabe_ito_palette(system_id):
    """Every figure the dashboard draws, with every panel open: the outcome and at-least charts,
    the hits chart in each mode, A against B, the sweep as lines and as a heatmap, the Design
    panel on a house rule, the rulings comparison, the simulation and the system's own views —
    each series in the Okabe–Ito palette (README: "Every chart uses the Okabe–Ito palette"),
    each heatmap in Viridis."""
    from rules_core.sweeps import allowed_values
    from workbook.panels.modes import MODES
    from workbook.panels.sweep import number_paths

    dash = Dashboard(system_id, query="")
    for toggle in (*dash.toggles.values(), *dash.view_toggles.values()):
        toggle.value = True
    analysis = dash.panel("analysis")
    analysis.sweep.set_open(True)
    analysis.compare.pin_button.click()
    paths = number_paths(dash.scenario)
    for path in (paths[0], next(p for p in paths if p.startswith("variant."))):  # B, and a house rule
        dash.form.set_scenario(dash.scenario.set(path, next(
            v for v in allowed_values(dash.scenario, path) if v != dash.scenario.get(path))))
    dash.panel("simulation").n.value = 500
    dash.panel("simulation").start()
    figures = list(_charts(dash.widget))
    for mode in MODES:
        analysis.modes.switch.value = mode
        figures += _charts(analysis.modes.widget)
    analysis.sweep.second.value = paths[1]  # a heatmap
    figures += _charts(analysis.sweep.widget)
    kinds = {t.get("type") for f in figures for t in f.get("data", ())}
    assert {"bar", "scatter", "heatmap"} <= kinds
    assert analysis.compare.comparison is not None and dash.panel("design").compare.comparison is not None
    assert len(figures) >= 10
    assert [bad for f in figures for bad in _off_palette(f)] == []


def test_a_long_legend_name_is_wrapped_for_a_phone_and_kept_whole():
    """The rulings panel's legend ("Difference (Alternative reading − Current reading)") on two
    lines, no line longer than a phone's chart holds; the figure itself keeps the name."""
    from workbook.page.views import compare_chart

    result = evaluate(INF.default_scenario())
    fig = compare_chart(result, result, names=("Current reading", "Alternative reading"))
    long = "Difference (Alternative reading − Current reading)"
    assert fig.data[2].name == long
    shown = style_figure(fig)
    assert [t.name for t in shown.data][:2] == ["Current reading", "Alternative reading"]
    assert "<br>" in shown.data[2].name and shown.data[2].name.replace("<br>", " ") == long
    assert max(len(line) for line in shown.data[2].name.split("<br>")) <= 34
    assert style_figure(fig, present=True).data[2].name == long  # a projector's chart has room


@pytest.mark.parametrize("system_id", ["infinity-n4", "gurps-4e", "eldfall", "d100-homebrew"])
def test_the_rulings_panel_offers_each_reading_in_its_full_words(system_id):
    """A reading runs to a sentence (up to 145 characters): it is offered as a radio button whose
    words wrap, never as a dropdown option the page cuts; each is the ruling's declared label."""
    import ipywidgets as widgets

    from workbook.page.layout import page_css

    dash = Dashboard(system_id, query="")
    dash.toggle("rulings").value = True
    assert isinstance(dash.panel("rulings").value, widgets.RadioButtons)
    for spec in dash.system.rulings():
        dash.panel("rulings").field.value = spec.name
        current = getattr(dash.scenario, spec.name)
        assert [label for label, _ in dash.panel("rulings").value.options] == \
            [label for value, label in spec.choices if value != current]
    rules = re.findall(r"([^{}]*\.wb-rulings[^{}]*)\{([^}]*)\}", page_css())
    assert rules and not [r for r, body in rules if "ellipsis" in body or "nowrap" in body]


def test_side_by_side_charts_wrap_their_x_axis_titles_into_half_the_width():
    """Two subplots side by side each have half a phone's chart for the title under its x axis
    (Eldfall's worth chart: "Wounds on the defender" ran past a 390 px screen)."""
    fig = go.Figure(layout=dict(xaxis=dict(domain=[0, 0.47], title=dict(text="Hits landing on the defender")),
                                xaxis2=dict(domain=[0.53, 1], title=dict(text="Wounds on the defender")),
                                yaxis=dict(title=dict(text="Probability of so many hits"))))
    styled = style_figure(fig)
    for name in ("xaxis", "xaxis2"):
        lines = styled.layout[name].title.text.split("<br>")
        assert len(lines) == 2 and max(map(len, lines)) <= 15, lines
    assert "<br>" not in styled.layout.yaxis.title.text  # a y axis is not halved
    alone = style_figure(go.Figure(layout=dict(xaxis=dict(title=dict(text="Wounds on the defender")))))
    assert alone.layout.xaxis.title.text == "Wounds on the defender"  # one plot: the whole width
