"""Russian numbers (issue 26, item 6), headless: the formatters of ``workbook.page.text``, the
charts of ``workbook.page.layout.localised_figure``, and a Russian d100 dashboard with every
panel open — its cards, tables, tallies, A/B panel, sweep, report and charts write a decimal comma,
group thousands with a no-break space and put a no-break space before ``%``; the English page and
the CSV exports are unchanged."""

from __future__ import annotations

import html
import json
import re
from fractions import Fraction

import ipywidgets as widgets
import pytest

from rules_core import evaluate, find_preset
from rules_core.result import one_in, percent
from workbook.page.chart import Chart
from workbook.page.layout import localised_figure, percent_ticks
from workbook.page.text import (NBSP, integer_text, lang_of, localised, localised_numbers, number_text,
                                one_in_text, percent_text, plotly_separators, points_text, translator)
from workbook.pages.dashboard import Dashboard
from workbook.page.views import at_least_chart, compare_chart, headline_table, outcome_chart, outcome_table

BURST = "d100-homebrew/burst-3-vs-dodge-45"
#: A number written the English way: a dot between digits, or a percent sign with no space before it.
ENGLISH_DECIMAL = re.compile(r"\d\.\d")
BARE_PERCENT = re.compile(r"(?<!\u00a0)%")
#: What is not a shown number: a link (its query is data), a placeholder of a hover template.
_NOT_NUMBERS = re.compile(r"https?://\S+|\?\S*=\S*|%\{[^}]*\}")


# -- the formatters -----------------------------------------------------------------------------

@pytest.mark.parametrize("p", [Fraction(47, 500), Fraction(1, 8000), Fraction(9, 20), Fraction(1, 3),
                               Fraction(1), Fraction(0), Fraction(1, 123_456)])
def test_english_one_in_is_the_cores(p):
    """English "1 in N" is byte for byte the core's own wording; the core's percent is untouched."""
    assert one_in_text(p) == one_in_text(p, "en") == one_in(p)
    assert percent(p) == f"{float(p):.1%}"


def test_english_percent_is_as_before():
    assert [percent_text(p) for p in (Fraction(47, 500), Fraction(1, 8000), Fraction(1), Fraction(1, 3))] == \
        ["9.40%", "0.0125%", "100%", "33.33%"]


@pytest.mark.parametrize("p, english, russian", [
    (Fraction(9, 20), "45.00%", "45,00\u00a0%"),
    (Fraction(1, 8000), "0.0125%", "0,0125\u00a0%"),
    (Fraction(1), "100%", "100\u00a0%"),
    (Fraction(0), "0%", "0\u00a0%"),
])
def test_percent_in_both_languages(p, english, russian):
    assert percent_text(p) == english and percent_text(p, "ru") == russian


@pytest.mark.parametrize("p, english, russian", [
    (Fraction(47, 500), "1 in 10.6", "1 из 10,6"),      # the issue's own example
    (Fraction(9, 20), "1 in 2.22", "1 из 2,22"),
    (Fraction(1, 12_345), "1 in 12,345", "1 из 12\u00a0345"),
    (Fraction(1), "always", "всегда"),
    (Fraction(0), "never", "никогда"),
])
def test_one_in_in_both_languages(p, english, russian):
    assert one_in_text(p, "en") == english and one_in_text(p, "ru") == russian


def test_numbers_counts_and_points():
    ru = translator(None, "ru")
    assert lang_of(ru) == "ru" and lang_of(str) == "en"
    assert number_text(Fraction(39, 20), ".4g", "ru") == "1,95" and number_text(Fraction(39, 20)) == "1.95"
    assert integer_text(100_000, "ru") == "100\u00a0000" and integer_text(100_000) == "100,000"
    assert points_text(Fraction(-3, 250)) == "-1.20 pp"
    from workbook.page.text import WORKBOOK_TEXT
    words = lambda s: WORKBOOK_TEXT["ru"].get(s, s)  # noqa: E731
    assert points_text(Fraction(3, 250), "ru", words) == "+1,20 п. п."
    assert localised("-0.5", "ru") == "-0,5" and localised("1,234.5", "de") == "1,234.5"  # no style: as in English
    assert localised_numbers("rolled 23 against 45: 39/20 ≈ 1.95, 12,800 rolls, 45%", "ru") == \
        "rolled 23 against 45: 39/20 ≈ 1,95, 12\u00a0800 rolls, 45\u00a0%"
    assert localised_numbers("faces 12, 8, 16; B377; ¶1", "ru") == "faces 12, 8, 16; B377; ¶1"
    assert plotly_separators("en") == ".," and plotly_separators("ru") == ",\u00a0"


@pytest.mark.parametrize("low, high", [(0, 0.45), (0, 1), (-0.2, 0.05), (0, 0.004), (0, 0.0003), (0, 0)])
def test_percent_ticks_say_their_values(low, high):
    """Each tick's Russian text, read back as a number, is its value in percent; the ticks cover
    the data and are evenly spaced."""
    values, words = percent_ticks(low, high, "ru")
    assert values[0] <= low and values[-1] >= high and len(values) <= 12
    steps = {round(b - a, 12) for a, b in zip(values, values[1:])}
    assert len(steps) == 1
    for value, word in zip(values, words):
        assert word.endswith("\u00a0%") and "." not in word
        read = float(word[:-2].replace("\u2212", "-").replace(",", "."))
        assert read == pytest.approx(value * 100, abs=1e-9)


# -- charts ------------------------------------------------------------------------------------

def _result():
    return evaluate(find_preset(BURST).scenario)


def test_english_charts_are_as_before():
    """An English chart keeps plotly's own number format: no separators, ticks by tickformat."""
    result = _result()
    for fig in (outcome_chart(result), at_least_chart(result), compare_chart(result, result)):
        layout = fig.to_plotly_json()["layout"]
        assert "separators" not in layout and layout["yaxis"]["tickformat"] == ".0%"
        assert "ticktext" not in layout["yaxis"]
    fig = outcome_chart(result)
    assert localised_figure(fig, "en") is fig and fig.to_plotly_json() == outcome_chart(result).to_plotly_json()


def test_russian_charts_write_russian_numbers():
    result = _result()
    fig = outcome_chart(result, "ru")
    layout = fig.to_plotly_json()["layout"]
    assert layout["separators"] == ",\u00a0"
    axis = layout["yaxis"]
    assert "tickformat" not in axis and axis["tickmode"] == "array"
    assert max(axis["tickvals"]) >= max(fig.data[0].y) and min(axis["tickvals"]) <= 0
    assert all(t.endswith("\u00a0%") and "." not in t for t in axis["ticktext"])
    # the bars' labels and hover: percent and "1 in N" in Russian, the exact n/d as it is
    bar = fig.data[0]
    probs = [p for _, p in result.outcome_rows()]
    assert list(bar.text) == [percent_text(p, "ru") for p in probs]
    assert [row[0] for row in bar.customdata] == [f"{p.numerator}/{p.denominator}" for p in probs]
    assert [row[2] for row in bar.customdata] == [one_in_text(p, "ru") for p in probs]
    assert list(bar.y) == [float(p) for p in probs]  # the data stays probabilities


def test_a_russian_difference_chart_has_negative_ticks_with_a_minus_sign():
    burst = find_preset(BURST).scenario
    a, b = evaluate(burst), evaluate(burst.set("defender.agility", 65))
    axis = compare_chart(a, b, "ru").to_plotly_json()["layout"]["yaxis"]
    assert min(axis["tickvals"]) < 0 and any(t.startswith("\u2212") for t in axis["ticktext"])
    diffs = compare_chart(a, b, "ru").data[2].text
    assert all(re.fullmatch(r"[+-]\d+,\d\d п\. п\.", t) for t in diffs)


# -- the Russian dashboard ----------------------------------------------------------------------

def _prose(markup: str) -> str:
    markup = re.sub(r"<(style|script)\b.*?</\1>", " ", markup, flags=re.S)
    titles = " ".join(re.findall(r'\btitle="([^"]*)"', markup))
    markup = re.sub(r"<[^>]+>", " ", markup)
    return html.unescape(f"{markup} {titles}")


def _figure_numbers(figure: dict) -> list[str]:
    """Every number a chart writes: the ticks it is given, the bars' labels and hover data."""
    found = []
    for name, axis in figure.get("layout", {}).items():
        if name.startswith(("xaxis", "yaxis")) and isinstance(axis, dict):
            found += [str(t) for t in axis.get("ticktext") or ()]
    for trace in figure.get("data", ()):
        for key in ("text", "customdata", "hovertext"):
            value = trace.get(key)
            if value is not None:
                found.append(json.dumps(value, ensure_ascii=False))
    return found


def _shown(widget, seen=None):
    """``(where, text)`` for every text the widget tree shows, and every chart's numbers."""
    seen = set() if seen is None else seen
    if id(widget) in seen:
        return
    seen.add(id(widget))
    if isinstance(widget, (widgets.HTML, widgets.HTMLMath, widgets.Label)):
        yield type(widget).__name__ + str(list(widget._dom_classes)), _prose(widget.value)
    if isinstance(widget, Chart) and widget.figure:
        figure = json.loads(widget.figure)
        yield f"chart{list(widget._dom_classes)} separators", figure["layout"].get("separators", "")
        for said in _figure_numbers(figure):
            yield f"chart{list(widget._dom_classes)}", said
    for child in getattr(widget, "children", ()) or ():
        yield from _shown(child, seen)


def english_numbers(widget) -> list[str]:
    """Each place the widget tree writes a number the English way, with what it says."""
    bad = []
    for where, said in _shown(widget):
        if where.endswith("separators"):
            if said != ",\u00a0":
                bad.append(f"{where}: {said!r}")
            continue
        said = _NOT_NUMBERS.sub(" ", said)
        for pattern in (ENGLISH_DECIMAL, BARE_PERCENT):
            for m in pattern.finditer(said):
                bad.append(f"{where}: …{said[max(0, m.start() - 40):m.end() + 20]!r}…")
    return bad


def _every_panel_opened(dash: Dashboard) -> None:
    for toggle in (*dash.toggles.values(), *dash.view_toggles.values()):
        toggle.value = True
    analysis = dash.panel("analysis")
    analysis.sweep.set_open(True)
    analysis.compare.pin_button.click()
    dash.form.set_scenario(dash.scenario.set("defender.agility", 50))  # B differs from A
    dash.panel("roll").roll()
    dash.panel("simulation").n.value = 1500
    dash.panel("simulation").start()
    assert analysis.compare.comparison is not None and analysis.sweep.figure is not None
    assert dash.panel("simulation").figure is not None and dash.panel("roll").tally_box.value


def test_the_russian_page_writes_every_number_the_russian_way():
    dash = Dashboard("d100-homebrew", query="lang=ru")
    _every_panel_opened(dash)
    found = english_numbers(dash.widget)
    sweep = dash.panel("analysis").sweep
    sweep.second.value = "attacks.0.hits"  # a heatmap
    found += english_numbers(sweep.widget)
    sweep.second.value = ""
    for mode in ("at_least", "at_most"):
        dash.panel("analysis").modes.switch.value = mode
        found += english_numbers(dash.panel("analysis").modes.widget)
    report = dash.panel("analysis").export.make_report()
    found += english_numbers(dash.panel("analysis").export.widget)
    # the report's cards and tables (not its charts' script, not the scenario's JSON)
    read = re.sub(r'<pre class="wb-report-scenario">.*?</pre>', " ", report, flags=re.S)
    read = re.sub(r'<div class="wb-report-\w+-chart.*?</div>', " ", read, flags=re.S)
    found += [f"report: {w}" for w in english_numbers(widgets.HTML(read))]
    assert found == [], "numbers written the English way on the Russian page:\n" + "\n".join(found)


def test_the_russian_cards_and_tables_say_the_exact_numbers():
    """Each number the Russian page shows, read back, is the core's exact value rounded: the cards'
    percent and "1 in N", the outcome table and the tally's shares."""
    dash = Dashboard("d100-homebrew", query="lang=ru")
    result = dash.result
    frame = headline_table(result, "ru")
    cards = dash._headline.value
    for row in frame.to_dict("records"):
        if row["percent_text"] is None:
            continue
        value = result.headline[row["key"]]
        big = re.search(rf'data-key="{row["key"]}".*?wb-card-big">([^<]*)<', cards, flags=re.S).group(1)
        assert big.endswith("\u00a0%")
        assert float(big[:-2].replace(",", ".")) == pytest.approx(float(value) * 100, abs=0.005)
        one = re.search(rf'data-key="{row["key"]}".*?wb-card-one-in">([^<]*)<', cards, flags=re.S).group(1)
        if value not in (0, 1):
            assert one.startswith("1 из ")
            assert float(one[5:].replace("\u00a0", "").replace(",", ".")) == pytest.approx(float(1 / value), rel=5e-3)
    expected = next(r for r in frame.to_dict("records") if r["key"] == "expected_hits")
    assert expected["shown"] == "1,95"  # 39/20 hits expected (docs/rulings/d100-homebrew.md)
    table = outcome_table(result, "ru")
    for row in table.to_dict("records"):
        assert float(row["percent_text"][:-2].replace(",", ".")) == pytest.approx(row["percent"], abs=0.005)


def test_the_tally_groups_thousands_the_russian_way():
    dash = Dashboard("d100-homebrew", query="lang=ru")
    dash.open("simulation")
    dash.panel("simulation").n.value = 12_000
    dash.panel("simulation").start()
    counts = re.findall(r"data-col='count'>([^<]*)<", dash.panel("simulation").table.value)
    assert any("\u00a0" in c for c in counts) and not any("," in c for c in counts)
    assert sum(int(c.replace("\u00a0", "")) for c in counts) == 12_000
    assert "12\u00a0000 бросков" in dash.panel("simulation").status.value


def test_the_english_page_is_unchanged():
    """The English page writes numbers as it always did: a dot, no space before %, comma thousands."""
    dash = Dashboard("d100-homebrew", query="")
    assert "45.00%" in dash._headline.value and "1 in 2.22" in dash._headline.value
    charts = [json.loads(w.figure) for where, w in _charts(dash.widget)]
    assert charts and all("separators" not in c["layout"] for c in charts)
    dash.open("simulation")
    dash.panel("simulation").n.value = 12_000
    dash.panel("simulation").start()
    assert "12,000 rolls" in dash.panel("simulation").status.value


def _charts(widget, seen=None):
    seen = set() if seen is None else seen
    if id(widget) in seen:
        return
    seen.add(id(widget))
    if isinstance(widget, Chart) and widget.figure:
        yield widget._dom_classes, widget
    for child in getattr(widget, "children", ()) or ():
        yield from _charts(child, seen)


def test_csv_exports_stay_machine_readable_in_russian():
    """A CSV is for programs: the same bytes from the Russian page as from the English one (the
    exact n/d, a float with a dot, the untranslated outcome key)."""
    from rules_core.compare import Comparison
    from workbook.panels.export import comparison_csv, outcomes_csv

    en, ru = Dashboard("d100-homebrew", query=""), Dashboard("d100-homebrew", query="lang=ru")
    assert outcomes_csv(ru.result) == outcomes_csv(en.result)
    assert "1/4,0.25" in outcomes_csv(ru.result)
    burst = find_preset(BURST).scenario
    comparison = Comparison(evaluate(burst), evaluate(burst.set("defender.agility", 65)))
    assert re.search(r",-?\d+\.\d+", comparison_csv(comparison))  # floats with a dot
