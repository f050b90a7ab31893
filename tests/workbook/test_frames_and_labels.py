"""Frames for every named distribution, and labels — not raw keys — on every card and table, in
both languages, from one source (issue 26, item 4); the README's sweep example keeps
expectations off the probability axis."""

from __future__ import annotations

import html.parser
from fractions import Fraction
from itertools import product
from pathlib import Path

import plotly.express as px
import pytest

import rules_core
from rules_core import evaluate, find_preset, get_system
from rules_core.result import UnknownDistribution, headline_label
from workbook import explore
from workbook.explore import distribution_frames, headline_frame, sweep, sweep_chart, to_frame
from workbook.page import text as page_text
from workbook.page.layout import headline_cards
from workbook.page.views import compare_table, headline_grid, headline_table

ROOT = Path(__file__).resolve().parents[2]
SWORD = find_preset("gurps-4e/sword-2d1-cut-vs-dr3").scenario  # 2d+1 cutting against DR 3, no defense
BURST = find_preset("d100-homebrew/burst-3-vs-dodge-45").scenario
SEED = find_preset("infinity-n4/zhanshi-vs-fusilier").scenario


# -- frames of named distributions ---------------------------------------------------------------

def _sword_injury_by_hand() -> dict[int, Fraction]:
    """B379–380: 2d+1 cutting, DR 3 subtracted, the rest ×1.5 rounded down (at least 1 when
    anything penetrates); the sword lands every time (no defense)."""
    ways: dict[int, int] = {}
    for a, b in product(range(1, 7), repeat=2):
        through = a + b + 1 - 3
        injury = 0 if through <= 0 else max(1, through * 3 // 2)
        ways[injury] = ways.get(injury, 0) + 1
    return {k: Fraction(n, 36) for k, n in sorted(ways.items())}


def test_the_gurps_injury_distribution_as_a_frame_with_exact_and_float_columns():
    frame = to_frame(evaluate(SWORD), "injury")
    assert list(frame.columns) == ["injury", "exact", "exact_text", "probability", "percent", "one_in"]
    assert frame.attrs["distribution"] == "injury"
    expected = _sword_injury_by_hand()
    assert frame["injury"].tolist() == list(expected)
    assert frame["exact"].tolist() == list(expected.values())
    assert str(frame["injury"].dtype) == "int64" and str(frame["probability"].dtype) == "float64"
    first = frame.iloc[0]
    assert (first["injury"], first["exact"], first["exact_text"]) == (0, Fraction(1, 36), "1/36")
    assert first["probability"] == pytest.approx(1 / 36) and first["percent"] == pytest.approx(100 / 36)
    assert first["one_in"] == "1 in 36"
    assert frame.loc[frame["injury"] == 15, "exact"].item() == Fraction(1, 36)  # double six: 10 through


def test_hits_as_a_frame_pinned_from_the_successes_table():
    """d100 burst of 3 against Dodge 45: 01–25 scores 3+ Successes (no hit lands), 26–35 two
    (1 hit), 36–45 one (2 hits), 46–100 fails (3 hits)."""
    frame = to_frame(evaluate(BURST), "hits")
    assert frame["hits"].tolist() == [0, 1, 2, 3]
    assert frame["exact"].tolist() == [Fraction(1, 4), Fraction(1, 10), Fraction(1, 10), Fraction(11, 20)]
    assert frame["one_in"].tolist() == ["1 in 4", "1 in 10", "1 in 10", "1 in 1.82"]


def test_labels_and_flags_keep_their_values():
    infinity = to_frame(evaluate(SEED), "final state")
    assert infinity.columns[0] == "final state" and str(infinity["final state"].dtype) == "object"
    # dodging every shot of the burst is the seed's P(dodge succeeds), 47/500
    dodged = infinity[infinity["final state"] == 'Unharmed, dodged everything: moves up to 2"']
    assert dodged["exact"].item() == Fraction(47, 500) and dodged["exact_text"].item() == "47/500"
    prone = to_frame(evaluate(SWORD), "ends_prone")
    assert prone["ends_prone"].tolist() == [False] and prone["ends_prone"].iloc[0] is False
    assert prone["exact"].tolist() == [Fraction(1)]


def test_the_outcome_frame_is_unchanged_by_default():
    result = evaluate(SEED)
    frame = to_frame(result)
    assert frame.columns[0] == "outcome" and frame.attrs["distribution"] == "outcome"
    assert frame["outcome"].tolist() == list(result.outcome_order)
    assert to_frame(result, "outcomes")["exact"].tolist() == frame["exact"].tolist()
    assert frame.loc[frame["outcome"] == "Dodge succeeds", "exact"].item() == Fraction(47, 500)


def test_an_unknown_distribution_names_the_near_ones_and_every_one():
    with pytest.raises(KeyError) as caught:
        to_frame(evaluate(SWORD), "injuri")
    assert isinstance(caught.value, UnknownDistribution)
    assert str(caught.value) == (
        "this gurps-4e result has no distribution 'injuri'; did you mean 'injury'? its distributions: "
        "'injury', 'hits_dodged', 'ends_prone' (and 'hits', the hits landing; 'outcomes' or None, the outcomes)")
    with pytest.raises(KeyError, match=r"no distribution 'zzz'; its distributions: 'hits_in_cover' \(and"):
        to_frame(evaluate(BURST), "zzz")


def test_every_named_distribution_of_every_preset_has_a_frame():
    for system in rules_core.all_systems().values():
        for preset in system.presets:
            result = evaluate(preset.scenario)
            frames = distribution_frames(result)
            assert list(frames)[:2] == ["outcomes", "hits"]
            assert set(frames) == {"outcomes", "hits", *result.distributions}
            for name, dist in result.distributions.items():
                frame = frames[name]
                assert frame[name].tolist() == list(dist.outcomes())
                assert [Fraction(t) for t in frame["exact_text"]] == [dist[v] for v in dist.outcomes()]


# -- labels: one source, on every card and table -------------------------------------------------

class _Visible(html.parser.HTMLParser):
    """The text a reader sees (attributes, such as a card's hover hint, left out)."""

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []

    def handle_data(self, data: str) -> None:
        self.parts.append(data)


def _visible(markup: str) -> str:
    parser = _Visible()
    parser.feed(markup)
    return " ".join(parser.parts)


def test_the_workbook_reads_its_labels_from_the_core():
    assert page_text.headline_label is headline_label
    assert headline_label("p_dodge_succeeds") == "P(dodge succeeds)"
    assert headline_label("expected_hits") == "Expected hits landing"
    assert headline_label("hits_avoided") == "Hits avoided"


@pytest.mark.parametrize("ref", ["infinity-n4/zhanshi-vs-fusilier", "gurps-4e/sword-2d1-cut-vs-dr3",
                                 "eldfall/dodge-vs-critical", "d100-homebrew/burst-3-vs-dodge-45"])
def test_result_cards_show_the_labels_tables_show(ref):
    result = evaluate(find_preset(ref).scenario)
    shown = _visible(result._repr_html_())
    for key in result.headline:
        assert key not in shown, key  # no raw key where a reader looks
    names = headline_table(result)["name"].tolist()
    assert names == [headline_label(k) for k in result.headline]
    assert names == compare_table(result, result).query("kind == 'headline'")["name"].tolist()
    assert names == headline_frame(result)["name"].tolist()
    for name in names:
        assert name in shown
    # the key is still there for code, on hover
    assert "title='headline[&#x27;p_no_hit&#x27;]'" in result._repr_html_()


def test_infinity_labels_written_out():
    result = evaluate(SEED)
    assert headline_frame(result)["name"].tolist() == [
        "P(dodge succeeds)", "P(no hit lands)", "Expected hits landing", "Expected wounds", "P(null)",
        "P(guts fails)"]
    shown = _visible(result._repr_html_())
    assert "P(dodge succeeds) 9.40%" in " ".join(shown.split())


def test_a_designers_rule_has_labels_on_its_cards(designed_rule):
    result = evaluate({"system": "my-2d10"})
    shown = _visible(result._repr_html_())
    # its own headlines by their descriptions (tests/example_rule.py)
    assert "Every hit cancelled by the dodge" in shown and "Expected hits cancelled" in shown
    assert "p_all_cancelled" not in shown and "expected_cancelled" not in shown


def test_russian_cards_and_tables_carry_the_same_translated_labels():
    d100 = get_system("d100-homebrew")
    result = evaluate(BURST)
    table = headline_table(result, "ru")
    names = table["name"].tolist()
    assert names[:3] == ["P(каждый бросок Избегания успешен)", "P(ни одного попадания)",
                         "Ожидаемое число попаданий"]
    assert names == [d100.text(headline_label(k), "ru") for k in result.headline]
    assert names == compare_table(result, result, "ru").query("kind == 'headline'")["name"].tolist()
    cards = _visible(headline_cards(headline_grid(result, "ru")))
    for key in result.headline:
        assert key not in cards
    assert "P(каждый бросок Избегания успешен)" in cards


# -- sweeps: an expectation never on the probability axis ----------------------------------------

def test_a_sweep_frame_says_each_rows_kind():
    frame = sweep(SEED, "dodger.ph", [10, 11])
    kinds = dict(zip(frame["headline"], frame["kind"]))
    assert kinds == {"p_dodge_succeeds": "probability", "p_no_hit": "probability",
                     "expected_hits": "expectation", "expected_wounds": "expectation",
                     "p_null": "probability", "p_guts_fails": "probability"}


def test_sweep_chart_puts_expectations_on_their_own_axis():
    frame = sweep(SEED, "dodger.ph", [9, 10, 11])
    both = sweep_chart(frame, ["p_no_hit", "expected_hits"])
    by_name = {t.name: t for t in both.data}
    assert by_name["P(no hit lands)"].yaxis in (None, "y")
    assert by_name["Expected hits landing"].yaxis == "y2"
    assert both.layout.yaxis.tickformat == ".0%"
    assert both.layout.yaxis2.title.text == "Expected hits landing" and both.layout.yaxis2.tickformat is None
    only = sweep_chart(frame, ["expected_hits", "expected_wounds"])
    assert only.layout.yaxis.title.text == "Expected value" and only.layout.yaxis.tickformat is None
    hover = only.data[0].customdata[1]  # an expectation on hover reads as a number, not a percent
    assert "%" not in hover[1]
    default = sweep_chart(frame)  # the probabilities only, as before
    assert all(t.name.startswith("P(") for t in default.data) and default.layout.yaxis.tickformat == ".0%"


def test_the_readme_sweep_example_draws_only_probabilities_on_its_probability_chart():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    block = text.split("## Exploring in code", 1)[1].split("```python", 1)[1].split("```", 1)[0]
    line = next(row for row in block.splitlines() if row.startswith("px.line("))
    code = line.split("  #", 1)[0]
    frame = explore.sweep(SEED, "dodger.ph", range(6, 17))
    fig = eval(code, {"px": px, "frame": frame})  # noqa: S307 - the project's own README
    assert fig.data and all(t.name.startswith("P(") for t in fig.data)
    assert max(max(t.y) for t in fig.data) <= 1
    assert "Expected hits landing" not in {t.name for t in fig.data}
