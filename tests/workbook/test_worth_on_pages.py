"""The four-games page and its catalog cope with a scenario that has no reaction to be worth
anything (issue 26, item 2): the default preset of each game reacts, and choosing one that does
not keeps the scenario in use with the core's one-line reason instead of a row of zeros."""

from __future__ import annotations

import html
from fractions import Fraction

from rules_core import ScenarioError, all_systems, find_preset
from rules_core.compare import makes_no_reaction, worth
from workbook.pages.catalog import default_preset, systems_with_evasion
from workbook.pages.four_games import FourGames


def test_each_games_default_preset_is_one_where_the_defender_reacts():
    chosen = {s.id: default_preset(s) for s in systems_with_evasion()}
    assert chosen == {"d100-homebrew": "burst-3-vs-dodge-45", "eldfall": "dodge-vs-critical",
                      "gurps-4e": "rapid-fire-dodge-and-drop", "infinity-n4": "zhanshi-dodges-to-engage"}
    for system_id, name in chosen.items():
        scenario = all_systems()[system_id].preset(name).scenario
        assert not makes_no_reaction(scenario)
        assert worth(scenario).gained["p_no_hit"] > 0


def test_choosing_a_preset_with_no_defense_keeps_the_scenario_and_says_why():
    page = FourGames()
    before, shown = page.scenarios["gurps-4e"], page.sources["gurps-4e"].value
    assert page.worths["gurps-4e"].gained["p_no_hit"] == Fraction(347, 729)
    page.sources["gurps-4e"].value = "sword-2d1-cut-vs-dr3"
    assert page.scenarios["gurps-4e"] == before and page.sources["gurps-4e"].value == shown
    notice = html.unescape(page.notice.value)
    assert "this scenario has no reaction to take away" in notice
    assert "field 'dodger.defense': got 'none'" in notice
    assert "e.g. 'gurps-4e/rapid-fire-dodge-and-drop'" in notice
    # the table still shows the worth of the scenario in use, not zeros
    assert page.worths["gurps-4e"].gained["p_no_hit"] == Fraction(347, 729)


def test_the_refusal_the_page_shows_is_the_cores():
    try:
        worth(find_preset("eldfall/protective-barrier").scenario)
    except ScenarioError as err:
        page = FourGames()
        page.sources["eldfall"].value = "protective-barrier"
        assert str(err) in html.unescape(page.notice.value)
    else:
        raise AssertionError("worth of a scenario with no reaction was not refused")
