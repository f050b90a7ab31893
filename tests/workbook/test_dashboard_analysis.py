"""The dashboard's "Compare, sweep, export" section: collapsed and idle until opened; pin as A
puts A in the link and the address bar; a link with a pin reopens both."""

from __future__ import annotations

from fractions import Fraction

from rules_core import evaluate, find_preset
from workbook.pages.dashboard import Dashboard
from workbook.panels.compare import read_pin
from workbook.page.share import encode_query


def test_closed_section_does_no_work_then_pin_and_change():
    d = Dashboard("infinity-n4", query="")
    assert d.toggle("analysis").value is False and d.panel("analysis").modes.figure is None
    d.toggle("analysis").value = True
    assert d.panel("analysis").modes.figure is not None
    a = d.scenario
    d.panel("analysis").compare.pin_button.click()
    assert "pin=" in d.urlbar.query
    d.form.set_scenario(a.set("dodger.ph", 13))
    comparison = d.panel("analysis").compare.comparison
    assert comparison.a.scenario == a and comparison.b.scenario == a.set("dodger.ph", 13)
    assert comparison.differences()[0].difference == (evaluate(a.set("dodger.ph", 13)).headline["p_dodge_succeeds"]
                                                       - evaluate(a).headline["p_dodge_succeeds"])
    assert read_pin(d.system, d.urlbar.query)[0] == a
    assert "pin=" in d._share.value
    d.panel("analysis").compare.unpin_button.click()
    assert "pin=" not in d.urlbar.query


def test_a_link_with_a_pin_reopens_a_and_b():
    system_id = "eldfall"
    a = find_preset("eldfall/dodge-vs-critical").scenario
    b = a.set("defender.ag", 15)
    first = Dashboard(system_id, query="")
    first.toggle("analysis").value = True
    first.form.set_scenario(a)
    first.panel("analysis").compare.pin_button.click()
    first.form.set_scenario(b)
    again = Dashboard(system_id, query=first.urlbar.query)
    assert again.scenario == b and again.toggle("analysis").value is True
    assert again.panel("analysis").compare.pinned.scenario == a
    cards = again.panel("analysis").compare.cards.value
    assert f'data-exact="{evaluate(a).headline["p_no_hit"]}"' in cards
    refused = Dashboard(system_id, query=encode_query(first.system, b) + "&pin=defender.ag%3D99")
    assert refused.panel("analysis").compare.pinned is None and any("99" in n for n in refused.notices)


def test_a_language_switch_keeps_the_pin():
    d = Dashboard("d100-homebrew", query="")
    d.toggle("analysis").value = True
    d.panel("analysis").compare.pin_button.click()
    pinned = d.panel("analysis").compare.pinned
    d.set_lang("ru")
    assert d.panel("analysis").compare.pinned == pinned and Fraction(1, 4) == pinned.headline["p_no_hit"]


def test_the_report_button_holds_what_the_page_shows_its_rulings_comparison_included():
    from workbook.pages.dashboard import Dashboard
    dash = Dashboard("infinity-n4", query="")
    dash.toggles["wb-analysis-toggle"].value = True
    closed = dash.panel("analysis").export.make_report()
    assert "wb-report-rulings" not in closed  # the rulings panel is closed: not on the page
    dash.toggles["wb-rulings-toggle"].value = True
    report = dash.panel("analysis").export.make_report()
    assert "wb-report-rulings" in report
    comparison = dash.panel("rulings").compare.comparison
    assert str(comparison.b.headline["p_dodge_succeeds"]) in report  # B's exact number, as shown
