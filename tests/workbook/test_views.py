"""Tables, charts and trace as pure functions of a result: exact numbers, every outcome."""

from __future__ import annotations

import math
import sys
import types
from fractions import Fraction

import pytest

from rules_core import Dist, get_system
from rules_core.result import Result, TraceStep
from workbook.page import views
from workbook.page.table import Table
from workbook.pages import dashboard as app
from workbook.page.views import (View, at_least_chart, compare_chart, compare_table, distribution_chart,
                            distribution_views, exact_text, headline_grid, headline_html, headline_table,
                            outcome_chart, outcome_grid, outcome_table, percent_text, table_html, trace_html)
from workbook_fake import FAKE, FakeScenario, Shooter

INF = get_system("infinity-n4")


def fake_result(**changes) -> Result:
    return FAKE.evaluate(FakeScenario(**changes))


def test_outcome_table_has_every_outcome_with_exact_percent_and_one_in():
    # Two shooters (skill 4 with 2 dice, skill 3 with 1 die), agility 3: dodge 1/2.
    result = fake_result(shooters=(Shooter(skill=4, dice=2), Shooter(skill=3, dice=1)))
    frame = outcome_table(result, system=FAKE)
    assert list(frame["key"]) == ["No hit", "1 hits", "2 hits", "3 hits"]
    # Hand arithmetic: P(k hits rolled) from (1/3 + 2/3 x)^2 (1/2 + 1/2 x):
    # 0: 1/18, 1: 5/18, 2: 4/9, 3: 2/9; a dodge (1/2) cancels every hit.
    expected = {"No hit": Fraction(1, 18) + Fraction(17, 36), "1 hits": Fraction(5, 36),
                "2 hits": Fraction(2, 9), "3 hits": Fraction(1, 9)}
    assert {r.key: Fraction(r.exact) for r in frame.itertuples()} == expected
    row = frame.set_index("key").loc["3 hits"]
    assert (row.exact, row.percent_text, row.one_in) == ("1/9", "11.11%", "1 in 9")
    assert row.percent == pytest.approx(100 / 9) and row.probability == 1 / 9


def test_headline_table_marks_probabilities_and_expectations():
    result = fake_result()
    frame = headline_table(result, system=FAKE).set_index("key")
    assert list(frame.index) == ["p_dodge_succeeds", "p_no_hit", "expected_hits", "p_two_or_more"]
    assert frame.loc["p_dodge_succeeds", "name"] == "P(dodge succeeds)"
    assert frame.loc["p_two_or_more", "name"] == "P(two or more)"
    # One shooter, skill 3, 1 die: a hit with 1/2, dodged with 1/2: E[hits] = 1/4.
    assert frame.loc["expected_hits", "exact"] == "1/4"
    assert frame.loc["expected_hits", "shown"] == "0.25"
    assert frame.loc["expected_hits", "one_in"] is None
    assert frame.loc["p_no_hit", "shown"] == "75.00%" and frame.loc["p_no_hit", "one_in"] == "1 in 1.33"
    html = headline_html(result, system=FAKE)
    assert 'data-key="p_no_hit"' in html and ">3/4<" in html


def test_a_null_headline_shows_its_note():
    base = fake_result()
    result = Result(system="fake-dice", scenario=base.scenario, outcomes=base.outcomes,
                    outcome_order=base.outcome_order, hits=base.hits,
                    headline={**base.headline, "p_dodge_succeeds": None},
                    notes={"p_dodge_succeeds": "No roll is made <here>."}, trace=base.trace)
    frame = headline_table(result, system=FAKE).set_index("key")
    assert frame.loc["p_dodge_succeeds", "exact"] is None
    assert frame.loc["p_dodge_succeeds", "shown"] == "—"
    assert "No roll is made &lt;here&gt;." in headline_html(result, system=FAKE)


def test_a_notebooks_frame_is_the_pages_table_with_pandas_dtypes():
    """The page's tables hold None for "no value"; a notebook's frame has NaN in its float
    columns there and keeps None in the others, and its names in ``attrs``."""
    result = fake_result()
    absent = Result(system="fake-dice", scenario=result.scenario, outcomes=result.outcomes,
                    outcome_order=result.outcome_order, hits=result.hits,
                    headline={**result.headline, "p_dodge_succeeds": None},
                    notes={"p_dodge_succeeds": "No roll."}, trace=result.trace)
    grid, frame = headline_grid(absent, system=FAKE), headline_table(absent, system=FAKE)
    assert list(frame.columns) == list(grid.columns)
    assert dict(frame.dtypes.astype(str)) == {c: "float64" if c in ("value", "percent") else "object"
                                              for c in grid.columns}
    row, shown = frame.iloc[0], grid.records()[0]
    assert row["key"] == shown["key"] == "p_dodge_succeeds" and shown["value"] is None
    assert row["exact"] is None and math.isnan(row["value"])
    assert frame.iloc[1].to_dict() == grid.records()[1]
    outcomes = outcome_table(result, system=FAKE)
    assert outcomes.to_dict("records") == outcome_grid(result, system=FAKE).records()
    assert str(outcomes.dtypes["percent"]) == "float64" and str(outcomes.dtypes["exact"]) == "object"
    assert compare_table(result, result, names=("x", "y")).attrs["names"] == ("x", "y")



def test_a_notebook_without_pandas_gets_the_same_comparison_and_shows_it():
    """compare_grid is compare_table's rows without pandas; a Table shows as an escaped HTML
    table in a notebook, and select picks columns or names the one it lacks."""
    result = fake_result()
    other = Result(system="fake-dice", scenario=result.scenario, outcomes=result.outcomes,
                   outcome_order=result.outcome_order, hits=result.hits,
                   headline={**result.headline, "p_dodge_succeeds": Fraction(1, 3)}, trace=result.trace)
    grid = views.compare_grid(result, other, system=FAKE)
    assert compare_table(result, other, system=FAKE).to_dict("records") == grid.records()
    row = grid.select("key", "b", "difference").records()[0]
    assert row == {"key": "p_dodge_succeeds", "b": "1/3",
                   "difference": views.exact_text(Fraction(1, 3) - result.headline["p_dodge_succeeds"])}
    with pytest.raises(KeyError, match="no column 'names'; the columns are kind, key"):
        grid.select("name", "names")
    shown = Table.of([{"rule": "<b>house</b>", "p": "1/3"}])._repr_html_()
    assert "&lt;b&gt;house&lt;/b&gt;" in shown and "<b>" not in shown
    assert shown.startswith("<table") and '<th data-col="p"' in shown and ">1/3</td>" in shown

def test_charts_carry_the_exact_numbers():
    result = INF.evaluate(INF.presets[0].scenario)
    fig = outcome_chart(result)
    assert list(fig.data[0].x) == list(result.outcome_order)
    assert list(fig.data[0].y) == [float(p) for _, p in result.outcome_rows()]
    assert [c[0] for c in fig.data[0].customdata] == [exact_text(p) for _, p in result.outcome_rows()]
    most = max(result.hits.outcomes())
    fig = at_least_chart(result)
    assert list(fig.data[0].x) == list(range(1, most + 1))
    # P(at least k) summed from the hits distribution's own probabilities.
    assert list(fig.data[0].y) == [float(sum(p for h, p in result.hits.items() if h >= k))
                                   for k in range(1, most + 1)]


def test_at_least_chart_says_when_no_hit_can_land():
    result = fake_result(shooters=(Shooter(),))
    no_hits = Result(system="fake-dice", scenario=result.scenario, outcomes=Dist.certain("No hit"),
                     outcome_order=("No hit",), hits=Dist.certain(0), headline=result.headline,
                     trace=())
    fig = at_least_chart(no_hits)
    assert list(fig.data[0].y) == [] and "No hit can land" in fig.layout.annotations[0].text


def test_distribution_chart_and_views():
    dist = Dist({0: 1, 1: 2, 3: 1})
    fig = distribution_chart(dist, "wounds")
    assert list(fig.data[0].x) == [0, 1, 3] and list(fig.data[0].y) == [0.25, 0.5, 0.25]
    (view,) = distribution_views("hits rolled")
    assert view.title == "Hits rolled" and view.css == "wb-view-hits-rolled"
    result = fake_result()
    assert list(view.render(result, "en").data[0].y) == [float(p) for _, p in
                                                          result.distributions["hits rolled"].items()]
    (missing,) = distribution_views("injury")
    assert "Not computed" in missing.render(result, "en")


def test_trace_is_escaped_and_cited():
    base = fake_result()
    result = Result(system="fake-dice", scenario=base.scenario, outcomes=base.outcomes,
                    outcome_order=base.outcome_order, hits=base.hits, headline=base.headline,
                    trace=(TraceStep("<b>Rule</b>", "a & b", "Book p.<1>"),))
    html = trace_html(result)
    assert "&lt;b&gt;Rule&lt;/b&gt;" in html and "a &amp; b" in html and "Book p.&lt;1&gt;" in html
    assert html.count('class="wb-trace-step"') == 1


def test_compare_table_and_chart_show_both_and_the_difference():
    a = fake_result(defender={"agility": 2, "stance": "standing", "luck": 0.5})
    b = fake_result(defender={"agility": 2, "stance": "standing", "luck": 0.5}, reading="lenient")
    frame = compare_table(a, b, names=("strict", "lenient")).set_index("key")
    # Dodge 2/6 vs 3/6 against one skill-3 shot (hit 1/2): P(no hit) 2/3 vs 3/4.
    assert frame.loc["p_no_hit", ["a", "b", "difference"]].tolist() == ["2/3", "3/4", "1/12"]
    assert frame.loc["No hit", "kind"] == "outcome" and frame.loc["p_no_hit", "kind"] == "headline"
    fig = compare_chart(a, b, names=("strict", "lenient"))
    assert [t.name for t in fig.data] == ["strict", "lenient", "Difference (lenient − strict)"]
    assert list(fig.data[2].y) == [float(Fraction(1, 12)), float(Fraction(-1, 12))]
    assert fig.data[2].text[1] == "-8.33 pp"


def test_percent_text_keeps_small_numbers_readable():
    assert percent_text(Fraction(19, 160000)) == "0.0119%"
    assert percent_text(Fraction(0)) == "0%" and percent_text(Fraction(1, 3)) == "33.33%"


def test_table_html_is_machine_readable_and_escaped():
    html = table_html(outcome_grid(fake_result()), {"outcome": "Outcome", "exact": "Exact"}, "wb-x", text=str.upper)
    assert '<th data-col="exact"' in html and ">EXACT<" in html
    assert '<tr data-key="No hit"><td data-col="outcome"' in html


def test_views_declared_by_a_system_module_are_found(monkeypatch):
    module = types.ModuleType("workbook.systems.fake_panels")
    module.SYSTEM_ID = "fake-dice"
    module.VIEWS = distribution_views("hits rolled")
    monkeypatch.setitem(sys.modules, "workbook.systems.fake_panels", module)
    monkeypatch.setattr(views, "_panel_modules", lambda: ["fake_panels"])
    views.system_views.cache_clear()
    try:
        assert views.system_views("fake-dice") == module.VIEWS
        assert views.system_views("other") == ()
        dash = app.Dashboard(FAKE, query="")
        assert list(dash.rendered) == ["Hits rolled"]
        assert app.Dashboard(FAKE, query="", views=[]).rendered == {}
    finally:
        views.system_views.cache_clear()


def test_view_css_slug():
    assert View("Wounds per hit (N4)", str).css == "wb-view-wounds-per-hit-n4"
    assert View("!!!", str).css == "wb-view-panel"


def test_one_in_wording_follows_the_language():
    from workbook.page.text import one_in_text
    from workbook.page.views import outcome_table

    assert one_in_text(Fraction(9, 20), "ru") == "1 из 2,22"  # a decimal comma (issue 26)
    assert one_in_text(Fraction(1), "ru") == "всегда" and one_in_text(Fraction(0), "ru") == "никогда"
    assert one_in_text(Fraction(47, 500)) == "1 in 10.6"
    from rules_core import evaluate, find_preset

    result = evaluate(find_preset("d100-homebrew/burst-3-vs-dodge-45").scenario)
    ru = outcome_table(result, "ru")
    assert all(not text.startswith("1 in") for text in ru["one_in"])
