"""A designer's rule published on the static site (``make site RULES=tests/example_rule.py``),
in Chromium with no network but 127.0.0.1: its page on the front page beside the four games,
its file served as written, its dashboard exact from a share link, following a control and
rolling as the core plays, and its column on the page of games.

What each page should show is computed here by the core from the same rule file."""

from __future__ import annotations

import urllib.request
from fractions import Fraction
from pathlib import Path

import pytest

from browser.conftest import _DRAWN_PLOT
from rules_core import evaluate, play_once
from rules_core.compare import without_reaction
from workbook.page.share import encode_query

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]


def _offline(dash) -> None:
    assert dash.hosts == {"127.0.0.1"}, dash.aborted
    assert dash.python_errors() == []


def test_the_front_page_lists_the_rule_and_serves_its_file_as_written(rule_site):
    with urllib.request.urlopen(rule_site) as served:
        front = served.read().decode()
    assert 'href="voici/render/my-2d10.html"' in front and "My 2d10 dodge" in front
    with urllib.request.urlopen(rule_site + "rules/example_rule.py") as served:
        assert served.read() == (ROOT / "tests" / "example_rule.py").read_bytes()


def test_the_rules_page_is_exact_from_a_share_link_and_follows_its_controls(open_rule_site, designed_rule):
    system = designed_rule
    shared = system.preset("clumsy").scenario.set("hits", 4)
    query = encode_query(system, shared)  # the rule's page's own link of that scenario
    assert evaluate(shared).headline != evaluate(system.default_scenario()).headline
    dash = open_rule_site("my-2d10.ipynb", query)
    # The page is built before its Python can see the address: the link's scenario is applied
    # once the browser reports the query (workbook/page/urlbar.py), as on the games' pages.
    dash.wait_for_headline(dict(evaluate(shared).headline))
    dash.wait_for_table(dict(evaluate(shared).outcome_rows()))
    assert dash.headline()["p_no_hit"] == evaluate(shared).headline["p_no_hit"] != 0
    dash.set_slider("wb-skill", 12)
    moved = shared.set("skill", 12)
    dash.wait_for_headline(dict(evaluate(moved).headline))
    dash.page.wait_for_function("(q) => location.search === '?' + q", arg=encode_query(system, moved),
                                timeout=20_000)
    dash.click("wb-roll-toggle")
    dash.click("wb-roll-button")
    dash.page.wait_for_function("() => (document.querySelector('.wb-roll-steps') || {}).innerText?.includes('seed 1')",
                                timeout=60_000, polling=200)
    assert dash.page.locator(".wb-roll-outcome").inner_text().strip() == play_once(system, moved, seed=1).outcome
    _offline(dash)


def test_the_rule_has_its_column_on_the_page_of_games(open_rule_site, designed_rule):
    ready = ("() => Boolean((" + _DRAWN_PLOT + ")('.wb-four-chart') && "
             "document.querySelector('.wb-four-table td[data-system=\"my-2d10\"]'))")
    dash = open_rule_site("compare-systems.ipynb", ready=ready)
    assert dash.page.locator("h1").first.inner_text().strip().startswith("One dodge, five games")
    cell = dash.page.locator('.wb-four-table tr[data-key="p_no_hit_gained"] td[data-system="my-2d10"]')
    scenario = designed_rule.presets[0].scenario  # the first preset where the defender reacts
    gained = evaluate(scenario).headline["p_no_hit"] - evaluate(without_reaction(scenario)).headline["p_no_hit"]
    assert Fraction(cell.get_attribute("data-exact")) == gained != 0
    _offline(dash)
