"""A designer's own rule on the workbook's pages (issue "design your own rule", items 2 and 3):
the rule of ``tests/example_rule.py`` (id ``my-2d10``), registered by the ``designed_rule``
fixture, gets the same dashboard as the four games from its declarations alone — cards, table,
charts, trace, Design, Roll, Simulate, Compare/Sweep/Export, the share link — and a place beside
the four games on the page of games, with its worth and worth curve.

The expected numbers come from the rule restated here from its text (:func:`reference`: 2d10 at
or under the skill, one hit cancelled per point of margin and one for the roll itself, doubles
cancel every hit), sharing nothing with the rule's code but the die faces, and from fractions
written out by hand for the default scenario."""

from __future__ import annotations

import base64
import html
import json
import re
from collections import Counter
from fractions import Fraction
from pathlib import Path
from urllib.parse import quote

import pytest

from dashboard_checks import ab_cards, by_key, check_ab_against_core, check_against_core, shown_headline, shown_table
from rules_core import evaluate, play_once
from rules_core.simulate import simulate
from workbook import dashboard
from workbook.pages.catalog import dashboards, default_preset, games_title, scenario_worth, systems_with_evasion
from workbook.pages.dashboard import Dashboard
from workbook.pages.four_games import FourGames
from workbook.page.share import decode_query, encode_query
from workbook.panels.export import read_scenario_file

FACES = range(1, 11)


def reference(skill: int, hits: int, dodges: bool = True, doubles_cancel_all: bool = True) -> dict:
    """The rule from its text, over the 100 ways two d10 fall: the outcome probabilities and the
    five headline numbers (None where no dodge is rolled)."""
    if not dodges:
        return {"outcomes": {"dodged": 0, "some hit": 0, "all hit": 1},
                "p_dodge_succeeds": None, "p_no_hit": 0, "expected_hits": hits, "p_all_cancelled": 0,
                "expected_cancelled": 0}
    outcomes, landed, cancelled, passed = Counter(), Fraction(0), Fraction(0), 0
    for a in FACES:
        for b in FACES:
            if a + b > skill:
                outcomes["all hit"] += 1
                landed += hits
                continue
            passed += 1
            gone = hits if (a == b and doubles_cancel_all) else min(hits, skill - (a + b) + 1)
            outcomes["dodged" if gone == hits else "some hit"] += 1
            landed, cancelled = landed + hits - gone, cancelled + gone
    p = {k: Fraction(outcomes[k], 100) for k in ("dodged", "some hit", "all hit")}
    return {"outcomes": p, "p_dodge_succeeds": Fraction(passed, 100), "p_no_hit": p["dodged"],
            "expected_hits": landed / 100, "p_all_cancelled": p["dodged"], "expected_cancelled": cancelled / 100}


def expected_headline(**scenario) -> dict:
    ref = reference(**scenario)
    return {k: ref[k] for k in ("p_dodge_succeeds", "p_no_hit", "expected_hits", "p_all_cancelled",
                                "expected_cancelled")}


def cards(dash: Dashboard) -> dict[str, tuple[str, Fraction]]:
    """The headline cards as the browser gets them: ``{key: (the name shown, exact value)}``."""
    found = re.findall(r'<div class="wb-card" data-key="([^"]+)"><div class="wb-card-name"[^>]*>([^<]*)</div>'
                       r'.*?data-value="([^"]*)"', dash._headline.value)
    return {key: (html.unescape(name), Fraction(exact)) for key, name, exact in found}


def table_rows(dash: Dashboard) -> dict[str, Fraction]:
    """The outcome table's HTML rows: ``{outcome: exact}``."""
    rows = re.findall(r'<tr[^>]*data-key="([^"]+)"[^>]*>.*?data-col="exact"[^>]*>([^<]+)<', dash._table.value)
    return {html.unescape(key): Fraction(exact) for key, exact in rows}


def widgets_in(widget) -> list:
    """The widget and every widget under it."""
    found = [widget]
    for child in getattr(widget, "children", ()):
        found += widgets_in(child)
    return found


def visible(markup: str) -> str:
    """The words a reader sees of an HTML value (tags and attributes left out)."""
    return html.unescape(re.sub(r"<[^>]+>", " ", markup))


DESIGN_DOC = (Path(__file__).resolve().parents[2] / "docs" / "design.md").read_text()

# the designer's own headlines are named by their descriptions (tests/example_rule.py)
NAMES = {"p_dodge_succeeds": "P(dodge succeeds)", "p_no_hit": "P(no hit lands)",
         "expected_hits": "Expected hits landing", "p_all_cancelled": "Every hit cancelled by the dodge",
         "expected_cancelled": "Expected hits cancelled"}


# -- the dashboard ------------------------------------------------------------------------------

def test_the_default_scenario_shows_the_hand_worked_numbers(designed_rule):
    from example_rule import TwoD10

    dash = dashboard(TwoD10())  # skill 11, 3 hits, the official rule
    # by hand: 55 of the 100 rolls are at or under 11; no hit lands on the 36 rolls of 9 or less
    # (margin 2 or more cancels all 3) and on 5+5 (doubles); 3 hits land on the 45 rolls over 11
    # and 1 or 2 on the 18 others (10 and 11 but 5+5): (45·3 + 9·1 + 9·2)/100 = 163/100
    assert cards(dash) == {"p_dodge_succeeds": (NAMES["p_dodge_succeeds"], Fraction(11, 20)),
                           "p_no_hit": (NAMES["p_no_hit"], Fraction(37, 100)),
                           "expected_hits": (NAMES["expected_hits"], Fraction(163, 100)),
                           "p_all_cancelled": (NAMES["p_all_cancelled"], Fraction(37, 100)),
                           "expected_cancelled": (NAMES["expected_cancelled"], Fraction(137, 100))}
    assert table_rows(dash) == {"dodged": Fraction(37, 100), "some hit": Fraction(9, 50),
                                "all hit": Fraction(9, 20)}
    assert list(shown_table(dash)) == ["dodged", "some hit", "all hit"]  # the declared order
    assert shown_headline(dash) == dict(evaluate(TwoD10()).headline)
    check_against_core(dash)
    assert dash.views == ()  # per-system views are the four games'; none applies here


def test_dashboard_of_a_rule_starts_where_docs_design_says(designed_rule):
    """docs/design.md: ``dashboard(system)`` opens on the rule's first preset, as a game's page
    opens on its first worked example; a rule without presets, on its fields' defaults."""
    from dataclasses import replace

    from example_rule import TwoD10

    first = dashboard(designed_rule)
    assert first.scenario == TwoD10(skill=14) and first.toolbar.preset.value == "skilled"
    assert cards(first)["p_dodge_succeeds"][1] == Fraction(79, 100)  # 2d10 ≤ 14: 79 of the 100 rolls
    plain = dashboard(replace(designed_rule, presets=()))
    assert plain.scenario == TwoD10() and cards(plain)["p_dodge_succeeds"][1] == Fraction(11, 20)
    assert "first preset" in DESIGN_DOC and "no presets" in DESIGN_DOC


def test_the_designers_headlines_are_shown_by_their_labels_not_their_keys(designed_rule):
    dash = Dashboard("my-2d10", query="")
    assert dash.tables["headline"].column("name") == list(NAMES.values())
    for markup in (dash._headline.value, dash._table.value):
        assert "p_all_cancelled" not in visible(markup) and "expected_cancelled" not in visible(markup)
    dash.open("analysis")
    dash.panel("analysis").compare.pin()
    dash.form.control("skill").value = 9
    shown = visible(dash.panel("analysis").compare.table.value) + visible(dash.panel("analysis").compare.cards.value)
    assert NAMES["p_all_cancelled"] in shown and NAMES["expected_cancelled"] in shown and "p_all_cancelled" not in shown
    assert (NAMES["p_all_cancelled"], "p_all_cancelled") in dash.panel("analysis").sweep.quantity.options
    dash.open("simulation")
    assert (NAMES["expected_cancelled"], "expected_cancelled") in dash.panel("simulation").quantity.options


@pytest.mark.parametrize("moves", [
    {"skill": 14},
    {"skill": 7, "hits": 5},
    {"skill": 20, "hits": 6},
    {"skill": 2, "hits": 1},
    {"skill": 12, "hits": 4, "dodges": False},
])
def test_moving_the_controls_follows_the_rule(designed_rule, moves):
    dash = Dashboard("my-2d10", query="")
    for path, value in moves.items():
        dash.form.control(path).value = value
    s = dash.scenario
    assert (s.skill, s.hits, s.dodges) == (moves.get("skill", 14), moves.get("hits", 3), moves.get("dodges", True))
    expected = expected_headline(skill=s.skill, hits=s.hits, dodges=s.dodges)
    assert {k: v for k, (_, v) in cards(dash).items()} == {k: v for k, v in expected.items() if v is not None}
    assert shown_headline(dash) == expected
    assert table_rows(dash) == reference(s.skill, s.hits, s.dodges)["outcomes"]
    core = evaluate(s)
    assert dict(core.headline) == expected and dict(core.outcome_rows()) == table_rows(dash)
    check_against_core(dash)
    if not s.dodges:  # no dodge: the card says why, in the core's words
        note = by_key(dash.tables["headline"])["p_dodge_succeeds"]["note"]
        assert note == core.notes["p_dodge_succeeds"] and note.rstrip(".") in html.unescape(dash._headline.value)


def test_the_trace_states_the_designers_citation_and_each_house_rule(designed_rule):
    dash = Dashboard("my-2d10", query="")
    assert "My 2d10 rules, p.1" in dash._trace.value
    assert "every way the dice can fall" in dash._trace.value
    dash.form.control("variant.doubles_cancel_all").value = False
    assert "House rule" in dash._trace.value and "Doubles cancel every hit" in visible(dash._trace.value)


def test_design_compares_the_house_rule_with_the_official_one(designed_rule):
    dash = Dashboard("my-2d10", query="")
    assert "design" in dash.host.kinds and "rulings" not in dash.host.kinds  # no rulings declared
    assert dash.toggle("design").value is False
    dash.open("design")
    control = dash.form.control("variant.doubles_cancel_all")
    assert control in widgets_in(dash.panel("design").widget) and control not in widgets_in(dash.form.widget)
    control.value = False
    official, house = dash.scenario.set("variant.doubles_cancel_all", True), dash.scenario
    # skill 14, 3 hits: doubles up to 6+6 have a margin of 2 or more and cancel all 3 anyway;
    # only 7+7 (margin 0) changes, cancelling 1 hit instead of 3: P(no hit) 65/100 → 64/100
    assert shown_headline(dash) == expected_headline(skill=14, hits=3, doubles_cancel_all=False)
    cards_ab = ab_cards(dash.panel("design"))
    assert cards_ab["p_no_hit"] == {"a": Fraction(13, 20), "b": Fraction(64, 100), "difference": Fraction(-1, 100)}
    check_ab_against_core(dash.panel("design"), official, house)
    assert "Doubles cancel every hit" in visible(dash.panel("design").status.value)
    assert "variant.doubles_cancel_all=false" in dash.urlbar.query


def test_compare_sweep_and_export(designed_rule):
    from example_rule import TwoD10

    dash = Dashboard("my-2d10", query="")
    dash.open("analysis")
    analysis = dash.panel("analysis")
    a = dash.scenario
    analysis.compare.pin()
    dash.form.control("skill").value = 11
    check_ab_against_core(analysis.compare, a, dash.scenario)
    assert ab_cards(analysis.compare)["expected_hits"] == {
        "a": Fraction(83, 100), "b": Fraction(163, 100), "difference": Fraction(80, 100)}
    assert "pin=" in dash.urlbar.query
    # the sweep runs along the rule's number fields, the skill first (its evasion attribute)
    assert [v for _, v in analysis.sweep.field.options] == ["skill", "hits"]
    analysis.sweep.open.value = True
    points = {p.value: dict(p.headline) for p in analysis.sweep.sweep.points}
    assert set(points) == set(range(2, 21))
    for skill in (2, 11, 17, 20):
        assert points[skill] == expected_headline(skill=skill, hits=3)
    names = [t.name for t in analysis.sweep.figure.data]
    assert NAMES["p_all_cancelled"] in names and "p_all_cancelled" not in names
    # export: the outcomes as CSV, the scenario as JSON (read back as the same scenario)
    files = dict(re.findall(r'download="([^"]+)" href="data:[^;]+;charset=utf-8;base64,([^"]+)"',
                            analysis.export.links.value))
    outcomes = base64.b64decode(files["my-2d10-outcomes.csv"]).decode()
    assert "dodged,37/100" in outcomes and "all hit,9/20" in outcomes
    saved = base64.b64decode(files["my-2d10-scenario.json"]).decode()
    assert json.loads(saved)["skill"] == 11
    assert read_scenario_file("my-2d10", saved) == TwoD10(skill=11)
    report = analysis.export.make_report()
    assert NAMES["p_all_cancelled"] in report and "My 2d10 dodge" in report


def test_roll_and_simulate_use_the_designers_play(designed_rule):
    dash = Dashboard("my-2d10", query="")
    dash.open("roll")
    dash.panel("roll").seed.value = 5
    dash.panel("roll").roll()
    played = play_once(designed_rule, dash.scenario, seed=5)
    (a, b), = [r.faces for r in played.rolled]
    if a + b > 14:
        gone = 0
    elif a == b:
        gone = 3
    else:
        gone = min(3, 14 - (a + b) + 1)
    assert played.hits == 3 - gone  # the play the page shows is the rule's, read from its dice
    shown = dash.panel("roll").steps.value
    assert f"<b>{a}, {b}</b>" in shown and f"<b class='wb-roll-outcome'>{played.outcome}</b>" in shown
    assert NAMES["p_all_cancelled"] in shown and "My 2d10 rules, p.1" in shown
    assert "roll=5" in dash.urlbar.query
    dash.open("simulation")
    sim = dash.panel("simulation")
    sim.n.value, sim.seed.value = 2000, 3
    sim.quantity.value = "p_all_cancelled"
    sim.start()
    counts = simulate(designed_rule, dash.scenario, 2000, seed=3).outcomes()
    rows = dict(re.findall(r"<tr data-key='([^']+)'>.*?data-col='count'>([\d,]+)<", sim.table.value))
    assert rows == {label: f"{counts[label]:,}" for label in ("dodged", "some hit", "all hit")}
    assert sum(counts.values()) == 2000
    exact = [t for t in sim.figure.data if t.name == "Exact"][0]
    assert exact.y[0] == pytest.approx(13 / 20)  # P(all cancelled) at skill 14, 3 hits


# -- the share link -----------------------------------------------------------------------------

def test_a_link_opens_the_same_scenario_and_panels(designed_rule):
    from example_rule import TwoD10

    mine = TwoD10(skill=9, hits=5).set("variant.doubles_cancel_all", False)
    dash = Dashboard("my-2d10", query="")
    dash.scenario  # noqa: B018 - the page is built
    dash.form.set_scenario(mine)
    query = dash.urlbar.query
    assert query == "skill=9&hits=5&variant.doubles_cancel_all=false"
    assert f"?{query}" in html.unescape(dash._share.value)
    assert decode_query(designed_rule, query).scenario == mine
    again = Dashboard("my-2d10", query=query)
    assert again.scenario == mine and again.is_open("design")  # a house rule opens Design
    assert shown_headline(again) == expected_headline(skill=9, hits=5, doubles_cancel_all=False)
    # with a pinned A, a roll's seed and present mode
    pinned = f"pin={quote(encode_query(designed_rule, TwoD10()), safe='')}"
    full = Dashboard("my-2d10", query=f"{query}&{pinned}&roll=4&present=1")
    assert full.scenario == mine and full.present and full.panel("roll").last_seed == 4
    assert full.panel("analysis").compare.pinned.scenario == TwoD10()
    assert full.urlbar.query == f"{query}&{pinned}&roll=4&present=1"
    # a preset by its name; a value out of range refused in the reader's words
    assert Dashboard("my-2d10", query="preset=clumsy").scenario == designed_rule.preset("clumsy").scenario
    refused = Dashboard("my-2d10", query="skill=99")
    assert refused.notices == ["The link asked for Dodge skill 99; Dodge skill goes from 2 to 20. "
                               "Showing the default scenario."]


def test_dashboard_of_a_scenario_built_in_code(designed_rule):
    from example_rule import TwoD10

    seen = []
    d = dashboard(TwoD10(skill=16, hits=2))
    d.on_change(seen.append)
    assert d.system is designed_rule and d.form.control("skill").value == 16
    d.scenario = d.scenario.set("hits", 6)
    assert d.form.control("hits").value == 6
    assert [r.scenario for r in seen] == [TwoD10(skill=16, hits=6)]
    assert dict(seen[0].headline) == expected_headline(skill=16, hits=6)


# -- beside the four games ----------------------------------------------------------------------

def test_the_page_of_games_shows_the_rule_beside_the_four(designed_rule):
    assert [s.id for s in systems_with_evasion()][-1] == "my-2d10"
    assert default_preset(designed_rule) == "skilled"
    page = FourGames(query="")
    assert [s.id for s in page.systems] == ["d100-homebrew", "eldfall", "gurps-4e", "infinity-n4", "my-2d10"]
    assert page.title == "One dodge, five games" and page.urlbar.title == "One dodge, five games — Dodge Workbook"
    assert "four" not in page.title

    def cell(row: str) -> Fraction:
        found = re.search(rf'<tr data-key="{row}".*?<td data-system="my-2d10" data-exact="([^"]*)"', page.table.value)
        return Fraction(found.group(1))

    # skill 14 with its dodge against the same 3 hits with none: every hit lands
    with_ = reference(14, 3)
    assert cell("p_no_hit_with") == with_["p_no_hit"] == Fraction(13, 20)
    assert cell("p_no_hit_without") == 0
    assert cell("p_no_hit_gained") == Fraction(13, 20)
    assert cell("hits_with") == with_["expected_hits"] == Fraction(83, 100)
    assert cell("hits_without") == 3 and cell("hits_avoided") == 3 - Fraction(83, 100)
    assert cell("p_dodge_succeeds") == Fraction(79, 100)
    assert 'data-system="my-2d10" data-exact=""' in page.table.value  # no damage model: hits only
    assert scenario_worth(page.scenarios["my-2d10"]).gained["p_no_hit"] == Fraction(13, 20)
    assert "My 2d10 dodge" in page.assumptions.value and "2d10 at or under the skill" in page.assumptions.value
    assert 'download="one-dodge-five-games.csv"' in page.csv_link.value
    assert "<h1>One dodge, five games</h1>" in page.make_report()


def test_the_rules_worth_curve(designed_rule):
    page = FourGames(query="")
    curve = page.curves["my-2d10"]
    assert [p.value for p in curve] == list(range(2, 21))
    for point in curve:
        ref = reference(point.value, 3)
        # one unopposed roll: 2d10 at or under the skill, counted by hand
        assert point.unopposed == Fraction(sum(1 for a in FACES for b in FACES if a + b <= point.value), 100)
        assert point.worth.gained["p_no_hit"] == ref["p_no_hit"]
        assert point.worth.gained["hits_avoided"] == 3 - ref["expected_hits"]
    line = next(t for t in page.figure.data if t.name == "My 2d10 dodge")
    assert list(line.y) == [float(reference(v, 3)["p_no_hit"]) * 100 for v in range(2, 21)]
    mark = next(t for t in page.figure.data if t.name == "My 2d10 dodge: this scenario")
    assert (mark.x[0], mark.y[0]) == (0.79, 65.0)


def test_the_page_of_games_link_carries_the_rules_choice(designed_rule):
    page = FourGames(query="")
    page.sources["my-2d10"].value = "clumsy"
    assert page.urlbar.query == "my-2d10=clumsy"
    assert FourGames(query=page.urlbar.query).scenarios["my-2d10"] == designed_rule.preset("clumsy").scenario
    page.sources["my-2d10"].value = ""
    page.links["my-2d10"].value = "?skill=9&hits=2"
    assert page.urlbar.query == "my-2d10.skill=9&my-2d10.hits=2"
    again = FourGames(query=page.urlbar.query)
    assert (again.scenarios["my-2d10"].skill, again.scenarios["my-2d10"].hits) == (9, 2)
    assert Fraction(re.search(r'<tr data-key="p_no_hit_gained".*?<td data-system="my-2d10" data-exact="([^"]*)"',
                              again.table.value).group(1)) == reference(9, 2)["p_no_hit"]
    # a preset where the defender does not dodge is refused with the core's reason
    page.links["my-2d10"].value = "?dodges=false"
    assert "no reaction to take away" in html.unescape(page.notice.value)
    assert page.scenarios["my-2d10"].skill == 9


def test_the_index_counts_the_games(designed_rule):
    entry = next(e for e in dashboards() if e.notebook == "compare-systems.ipynb")
    assert entry.title == games_title(5) == "One dodge, five games"


def test_a_rule_registered_again_is_not_served_the_old_rules_numbers(designed_rule):
    """A designer tries ``play`` again under the same id and scenario class: the page, its sweep
    and the page of games show the new rule's numbers, not what they kept of the old one."""
    from example_rule import TwoD10
    from rules_core import Dice, Play, register, rule, unregister

    old = Dashboard("my-2d10", scenario=TwoD10())
    old.open("analysis")
    old.panel("analysis").sweep.open.value = True
    assert {p.value: p.headline["p_no_hit"] for p in old.panel("analysis").sweep.sweep.points}[11] == Fraction(37, 100)
    assert FourGames(query="").worths["my-2d10"].gained["p_no_hit"] == Fraction(13, 20)

    def every_hit_lands(s, roller):
        if not s.dodges:
            return Play("all hit", s.hits)
        roller.roll(Dice("Dodge", sides=10, count=2))
        return Play("all hit", s.hits, evasions=(False,), quantities={"cancelled": 0})

    unregister("my-2d10")
    register(rule("my-2d10", "My 2d10 dodge", TwoD10, every_hit_lands, outcomes=("dodged", "some hit", "all hit"),
                  headlines=dict(designed_rule.headlines), evasion=designed_rule.evasion,
                  presets=designed_rule.presets))
    new = Dashboard("my-2d10", scenario=TwoD10())
    assert shown_headline(new)["p_no_hit"] == 0 and shown_headline(new)["expected_hits"] == 3
    new.open("analysis")
    new.panel("analysis").sweep.open.value = True
    assert {p.headline["p_no_hit"] for p in new.panel("analysis").sweep.sweep.points} == {0}
    assert FourGames(query="").worths["my-2d10"].gained["p_no_hit"] == 0


def test_each_card_says_what_the_designer_wrote_it_measures(designed_rule):
    dash = Dashboard("my-2d10", query="")
    tips = dict(re.findall(r'<div class="wb-card" data-key="([^"]+)"><div class="wb-card-name" title="([^"]*)">',
                           dash._headline.value))
    assert html.unescape(tips["p_all_cancelled"]) == "Every hit cancelled by the dodge."
    assert html.unescape(tips["expected_cancelled"]) == "Expected hits cancelled."
    assert html.unescape(tips["p_no_hit"]) == "No hit lands on the defender."
