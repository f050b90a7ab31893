"""The assembled dashboard, headless: move the widgets, check every panel against the core."""

from __future__ import annotations

import html
import itertools
from fractions import Fraction

import plotly.graph_objects as go
import pytest

from rules_core import find_preset, get_system
from rules_core.systems.infinity_n4.dice import resolve_face_to_face
from rules_core.systems.infinity_n4.exact import dodge_headline
from workbook.pages.dashboard import Dashboard, View
from workbook.pages.notebook import dashboard
from workbook.page.views import distribution_chart
from dashboard_checks import ab_cards, by_key, check_ab_against_core, check_against_core, shown_headline, shown_in
from workbook_fake import FAKE, FakeScenario, Shooter

INF = get_system("infinity-n4")


def headline_oracle(sv_d: int, sv_a: int, burst: int) -> dict[str, Fraction]:
    """The three common headline numbers of one dodge die against one Burst, by enumerating
    every face of every die through the rule on concrete faces."""
    dodged = no_hit = hits = 0
    for faces in itertools.product(range(1, 21), repeat=1 + burst):
        mine, theirs = resolve_face_to_face(faces[:1], sv_d, faces[1:], sv_a)
        dodged += bool(mine)
        no_hit += not theirs
        hits += len(theirs)
    total = 20 ** (1 + burst)
    return {"p_dodge_succeeds": Fraction(dodged, total), "p_no_hit": Fraction(no_hit, total),
            "expected_hits": Fraction(hits, total)}


def check_common_headline(dash: Dashboard, burst: int) -> None:
    """The common headline numbers against the fast path and, for small Bursts, enumeration
    (the seed's Fusilier: BS 12 + 3 = SV 15; the dodger's PH with no MODs)."""
    sv_d, sv_a = dash.scenario.dodger.ph, 15
    fast = dict(zip(("p_dodge_succeeds", "p_no_hit", "expected_hits"), dodge_headline(sv_d, sv_a, burst)))
    head = shown_headline(dash)
    assert {k: head[k] for k in fast} == fast
    if burst <= 2:
        assert fast == headline_oracle(sv_d, sv_a, burst)


def test_the_seed_example_is_shown_first():
    dash = Dashboard("infinity-n4", query="")
    assert dash.preset.value == INF.presets[0].name
    # Seed: the Zhanshi (PH 10) wins the Face to Face against SV 15, Burst 3, with 47/500.
    assert shown_headline(dash)["p_dodge_succeeds"] == Fraction(47, 500)
    check_against_core(dash)
    check_common_headline(dash, burst=3)
    assert "wb-dashboard" in dash.widget._dom_classes


def test_moving_ph_and_burst_updates_chart_and_table_to_the_core_numbers():
    dash = Dashboard("infinity-n4", query="")
    dash.form.control("dodger.ph").value = 13
    check_against_core(dash)
    check_common_headline(dash, burst=3)
    assert dash.preset.value == ""  # no longer the preset
    dash.form.control("attackers.0.burst").value = 2
    check_against_core(dash)
    check_common_headline(dash, burst=2)
    dash.form.control("attackers.0.burst").value = 5
    check_against_core(dash)
    check_common_headline(dash, burst=5)


def test_extreme_success_values():
    dash = Dashboard("infinity-n4", query="")
    dash.form.control("dodger.ph").value = 0  # SV 0: no roll, automatic failure
    check_against_core(dash)
    assert shown_headline(dash)["p_dodge_succeeds"] == 0  # a roll that fails automatically is made and failed
    assert "fails automatically" in by_key(dash.tables["headline"])["p_dodge_succeeds"]["note"]
    dash.form.control("dodger.ph").value = 26  # SV 26: +6 to the face
    dash.form.control("attackers.0.burst").value = 1
    check_against_core(dash)
    check_common_headline(dash, burst=1)


def test_choosing_a_preset_shows_it():
    dash = Dashboard("infinity-n4", query="")
    dash.form.control("dodger.ph").value = 14
    first = INF.presets[0]
    dash.preset.value = first.name
    assert dash.scenario == first.scenario
    assert dash.form.control("dodger.ph").value == first.scenario.dodger.ph
    assert first.description[:30] in dash.toolbar.preset_info.value.replace("&#x27;", "'")
    check_against_core(dash)


def test_the_share_link_names_the_current_scenario_and_opens_it():
    dash = Dashboard("infinity-n4", query="")
    assert f'href="?preset={INF.presets[0].name}"' in dash._share.value
    dash.form.control("attackers.0.burst").value = 4
    href = dash._share.value.split('href="')[1].split('"')[0].replace("&amp;", "&")
    assert "attackers.0.burst=4" in href
    again = Dashboard("infinity-n4", query=href)
    assert again.scenario == dash.scenario and again.notices == []


def test_the_share_link_is_a_full_url_inside_voila(monkeypatch):
    monkeypatch.setenv("SERVER_NAME", "127.0.0.1")
    monkeypatch.setenv("SERVER_PORT", "8866")
    monkeypatch.setenv("SCRIPT_NAME", "/voila/render/infinity-n4-dodge.ipynb")
    monkeypatch.setenv("QUERY_STRING", "dodger.ph=11")
    dash = Dashboard("infinity-n4")  # reads the query from the environment
    assert dash.scenario.dodger.ph == 11
    # Only what differs from the default scenario.
    assert ('href="http://127.0.0.1:8866/voila/render/infinity-n4-dodge.ipynb?dodger.ph=11"'
            in dash._share.value)
    assert dash.urlbar.query == "dodger.ph=11"


@pytest.mark.parametrize("query", ["dodger.ph=31", "dodger.ph=ten", "nonsense", "%ff%fe=%00",
                                   "attackers.7.burst=2", "preset=nope", "system=gurps-4e"])
def test_a_refused_link_shows_the_default_with_a_notice(query):
    dash = Dashboard("infinity-n4", query=query)
    assert dash.scenario == INF.default_scenario()
    assert dash.notices and "Showing the default scenario." in dash._notice.value
    assert "wb-notice" in dash._notice._dom_classes
    # The notice stays while the user works: it explains why the page opened as it did.
    dash.form.control("dodger.ph").value = 12
    assert dash.notices


@pytest.mark.parametrize("query, words", [
    ("dodger.ph=99999", "The link asked for PH (Dodger) 99999; PH goes from 0 to 30. Showing the default scenario."),
    ("preset=nope", "The link asked for the example “nope”, which this page does not have."),
    ("attackers.0.burst=9", "The link asked for Burst (Attacker 1) 9; Burst goes from 1 to 5."),
    ("dodger.phh=3", "The link names “dodger.phh”, which this page does not have."),
    ("attackers.7.burst=2", "The link asked for Attackers 8; there are at most 3."),
    ("system=gurps-4e", "This link is for another page (“gurps-4e”)."),
])
def test_a_refused_link_says_why_in_a_players_words_at_the_top(query, words):
    dash = Dashboard("infinity-n4", query=query)
    assert words in dash.notices[0]
    main = next(c for c in dash.widget.children if dash._results in getattr(c, "children", ()))
    assert dash.widget.children.index(dash._notice) < dash.widget.children.index(main)


def test_dashboard_returns_an_object_holding_the_page_widget():
    page = dashboard("infinity-n4", query="")
    assert "wb-dashboard" in page.widget._dom_classes


# -- generic parts, with the fake system -----------------------------------------------------

def test_rulings_panel_compares_the_two_readings():
    dash = Dashboard(FAKE, query="")
    assert dash.panel("rulings").compare.comparison is None  # closed: nothing computed
    panel = next(c for c in dash.widget.children if "wb-rulings" in c._dom_classes)
    assert panel.children[1].layout.display == "none"
    dash.toggle("rulings").value = True
    assert panel.children[1].layout.display is None  # shown
    assert dash.panel("rulings").field.value == "reading"
    assert [v for _, v in dash.panel("rulings").value.options] == ["lenient"]  # every reading but the current one
    dash.preset.value = ""
    dash.form.set_scenario(FakeScenario(defender={"agility": 2, "stance": "standing", "luck": 0.5},
                                        shooters=(Shooter(skill=4, dice=2),)))
    strict, lenient = dash.scenario, dash.scenario.replace(reading="lenient")
    # Hand check: lenient gives +1 to agility 2 against an unaimed shot: dodge 3/6 vs 2/6.
    cards = ab_cards(dash.panel("rulings"))
    assert cards["p_dodge_succeeds"] == {"a": Fraction(1, 3), "b": Fraction(1, 2), "difference": Fraction(1, 6)}
    check_ab_against_core(dash.panel("rulings"), strict, lenient)
    assert "+16.67 pp" in dash.panel("rulings").compare.cards.value  # the difference in percentage points
    fig = dash.panel("rulings").compare.figure
    assert [t.name for t in fig.data][:2] == ["Current reading", "Alternative reading"]
    a, b = FAKE.evaluate(strict), FAKE.evaluate(lenient)
    assert list(fig.data[2].y) == [float(b.outcomes[k] - a.outcomes[k]) for k in a.outcome_order]
    # Each reading by its label, as the reader knows it, in full, not by its id.
    labels = dict(FAKE.rulings()[0].choices)
    help_html = dash.panel("rulings").help.value
    assert f"<b>Current reading:</b> {html.escape(labels['strict'])}" in help_html
    assert f"<b>Alternative reading:</b> {html.escape(labels['lenient'])}" in help_html
    assert "Fake Rules p.1" in help_html  # the ruling's citation
    # The trace lines that differ: only the reading differs here.
    only_a, only_b = dash.panel("rulings").compare.comparison.trace_differences()
    assert only_a and only_b and all(line in html.unescape(dash.panel("rulings").compare.trace.value)
                                     for line in only_a + only_b)
    # The panel follows the form: when the form takes the alternative reading, the panel
    # compares it with the other one.
    dash.form.control("reading").value = "lenient"
    assert [v for _, v in dash.panel("rulings").value.options] == ["strict"]
    assert ab_cards(dash.panel("rulings"))["p_dodge_succeeds"]["a"] == Fraction(1, 2)
    check_ab_against_core(dash.panel("rulings"), lenient, strict)
    # Closed again: changes evaluate nothing more for it.
    dash.toggle("rulings").value = False
    shown = dash.panel("rulings").compare.comparison
    dash.form.control("defender.agility").value = 4
    assert dash.panel("rulings").compare.comparison is shown


def test_language_switch_translates_every_text():
    dash = Dashboard(FAKE, query="", views=[View("Hits rolled", lambda r, lang: distribution_chart(
        r.distributions["hits rolled"], "Hits rolled", lang, system=FAKE))])
    dash.form.control("shooters.0.dice").value = 2
    before = dash.scenario
    dash.language.value = "xx"
    assert dash.lang == "xx" and dash.scenario == before  # the scenario is kept
    assert dash.form.control("defender.agility").description == "‹Agility›"
    assert set(dash.tables["outcomes"].column("outcome")) == {f"‹{k}›" for k in dash.result.outcome_order}
    assert dash.tables["headline"].column("name")[:3] == ["‹P(dodge succeeds)›", "‹P(no hit lands)›",
                                                        "‹Expected hits landing›"]
    assert "‹Shots›" in dash._trace.value and "‹Fake Rules p.1›" in dash._trace.value
    assert dash.figures["outcome"].data[0].x[0] == "‹No hit›"
    assert dash.rendered["Hits rolled"].layout.title.text == "‹Hits rolled›"
    assert "lang=xx" in dash._share.value
    assert dash.preset.options[1][0] == "‹Two shooters›"
    assert dash.panel("rulings").value.options[0][0] == "‹+1 against unaimed shots (Fake FAQ)›"
    assert dash.toggle("rulings").description == "‹Compare a ruling›"
    dash.toggle("rulings").value = True
    assert dash.panel("rulings").compare.names == ("‹Current reading›", "‹Alternative reading›")
    assert "‹No bonus (Fake Rules p.1)›" in dash.panel("rulings").help.value
    # Numbers are unchanged by the language.
    assert [Fraction(x) for x in dash.tables["outcomes"].column("exact")] == \
        [dash.result.outcomes[k] for k in dash.result.outcome_order]
    # A link may ask for the language.
    assert Dashboard(FAKE, query="lang=xx").form.control("defender.agility").description == "‹Agility›"


def test_extra_views_render_figures_frames_and_html():
    views = [View("Hits rolled", lambda r, lang: distribution_chart(r.distributions["hits rolled"],
                                                                    "Hits rolled", lang)),
             View("As a table", lambda r, lang: __import__("pandas").DataFrame(
                 {"key": ["x"], "value": [str(r.hits.denominator)]})),
             View("Note <b>", lambda r, lang: "<i>plain html</i>")]
    dash = Dashboard(FAKE, query="", views=views)
    assert isinstance(dash.rendered["Hits rolled"], go.Figure)
    boxes = dash._view_boxes
    assert "wb-view-hits-rolled" in boxes["Hits rolled"]._dom_classes
    assert "wb-view-note-b" in boxes["Note <b>"]._dom_classes
    hits = dash.result.distributions["hits rolled"]
    y = shown_in(boxes["Hits rolled"])["data"][0]["y"]
    assert y == [float(p) for _, p in hits.items()]
    assert 'data-col="value"' in shown_in(boxes["As a table"])
    assert shown_in(boxes["Note <b>"]) == "<i>plain html</i>"


def test_a_refused_combination_keeps_the_last_numbers():
    dash = Dashboard(FAKE, query="")
    dash.preset.value = ""
    dash.form.set_scenario(FakeScenario(shooters=(Shooter(dice=3), Shooter(dice=1))))
    before = dash.result
    dash.form.control("shooters.1.dice").value = 3
    assert dash.result is before
    assert "at most 5 dice" in dash.form.notice.value


def test_a_language_the_system_lacks_is_refused():
    with pytest.raises(ValueError, match="not one of"):
        Dashboard(FAKE, query="", lang="fr")


def test_a_link_written_before_reopens_the_same_page():
    """A link with a scenario, a reading and a pinned A (the form links had before the rulings
    panel became the A/B panel) opens the same scenario and pins the same A; the rulings panel
    adds nothing to links (a reading is a field of the scenario) and compares it once opened."""
    mine = find_preset("infinity-n4/zhanshi-mine-and-fusilier").scenario.replace(minus_three="single")
    seed = find_preset("infinity-n4/zhanshi-vs-fusilier").scenario
    query = "preset=zhanshi-mine-and-fusilier&minus_three=single&pin=preset%3Dzhanshi-vs-fusilier"
    dash = Dashboard("infinity-n4", query=query)
    assert dash.scenario == mine and dash.notices == []
    assert dash.panel("analysis").compare.pinned.scenario == seed and dash.toggle("analysis").value is True
    check_ab_against_core(dash.panel("analysis").compare, seed, mine)
    dash.toggle("rulings").value = True
    check_ab_against_core(dash.panel("rulings"), mine, mine.replace(minus_three="stacking"))
    assert ab_cards(dash.panel("rulings"))["p_dodge_succeeds"]["b"] == Fraction(299, 40000)  # the seed's −6 reading
    href = dash._share.value.split('href="')[1].split('"')[0].replace("&amp;", "&")
    assert "pin=" in href and "rulings" not in href
    again = Dashboard("infinity-n4", query=href.split("?", 1)[1])
    assert again.scenario == mine and again.panel("analysis").compare.pinned.scenario == seed
