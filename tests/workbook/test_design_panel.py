"""The Design panel (workbook.panels.design), headless: the rule's constants out of the main controls
and in the panel, A = the official rule against B = the house rule with the core's exact numbers,
and the share link carrying the variants."""

from __future__ import annotations

import re
from fractions import Fraction

import pytest

from rules_core import all_systems, evaluate, find_preset
from rules_core.variants import official, variant_fields
from workbook.pages.dashboard import Dashboard
from workbook.page.share import decode_query, encode_query

VARIED = [s.id for s in all_systems().values() if variant_fields(s.scenario_cls)]


def card_values(html: str) -> dict[str, dict[str, str]]:
    cards = {}
    for key, body in re.findall(r'<div class="wb-ab-card" data-key="([a-z_]+)"(.*?)</div></div>', html):
        cards[key] = dict(re.findall(r'data-side="(a|b|difference)" data-exact="([^"]*)"', body))
    return cards


def _all_classes(widget) -> set[str]:
    found = set(getattr(widget, "_dom_classes", ()))
    for child in getattr(widget, "children", ()):
        found |= _all_classes(child)
    return found


@pytest.mark.parametrize("system_id", VARIED)
def test_the_constants_leave_the_main_controls_for_the_closed_panel(system_id):
    dash = Dashboard(system_id, query="")
    names = [spec.name for spec in variant_fields(dash.system.scenario_cls)]
    main = _all_classes(dash.form.widget)
    page = _all_classes(dash.widget)
    for name in names:  # closed and never opened: not on the page at all, nor in the form
        assert f"wb-variant-{name}" not in main and f"wb-variant-{name}" not in page
    panel = _all_classes(dash.panel("design").body)
    for name in names:
        assert f"wb-variant-{name}" in panel
    holder = dash.toggles["wb-design-toggle"]
    assert not holder.value and not dash.panel("design").toggle.value
    assert _all_classes(dash.widget) >= panel  # asked for, it is built into its closed section
    # the controls are still the form's: moving one changes the scenario shown
    assert [p for p in dash.form.paths() if p.startswith("variant.")] == [f"variant.{n}" for n in names]


def test_infinity_house_rule_against_the_official_rule():
    preset = find_preset("infinity-n4/zhanshi-dodges-to-engage").scenario
    dash = Dashboard("infinity-n4", scenario=preset, query="")
    dash.panel("design").toggle.value = True
    assert "official value" in dash.panel("design").status.value
    assert dash.panel("design").compare.widget.layout.display == "none"
    dash.form.control("variant.mod_cap").value = 2
    a, b = evaluate(preset), evaluate(preset.set("variant.mod_cap", 2))
    assert dash.result.headline == b.headline
    cards = card_values(dash.panel("design").compare.cards.value)
    assert Fraction(cards["p_dodge_succeeds"]["a"]) == Fraction(47, 500) == a.headline["p_dodge_succeeds"]
    assert Fraction(cards["p_dodge_succeeds"]["b"]) == Fraction(17659, 160000)
    assert Fraction(cards["p_dodge_succeeds"]["difference"]) == Fraction(17659, 160000) - Fraction(47, 500)
    for key, value in b.headline.items():
        if value is not None:
            assert Fraction(cards[key]["b"]) == value and Fraction(cards[key]["a"]) == a.headline[key]
    assert "MOD cap (±): <b>2</b> (official 12)" in dash.panel("design").status.value
    only_a, only_b = dash.panel("design").compare.comparison.trace_differences()
    assert any(line.startswith("House rule: MOD cap (±) 2") for line in only_b)
    assert dash.panel("design").toggle.button_style == "warning"
    # back to the official rule: the form, the link and the panel follow
    dash.panel("design").reset.click()
    assert dash.panel("design").toggle.button_style == ""
    assert dash.scenario == preset and "variant" not in encode_query(dash.system, dash.scenario)
    assert dash.panel("design").compare.widget.layout.display == "none"


def test_eldfall_house_rule_against_the_official_rule():
    dash = Dashboard("eldfall", query="")
    dash.panel("design").toggle.value = True
    dash.form.control("variant.halving").value = "down"
    dash.form.control("variant.critical_face").value = 2
    b = dash.scenario
    assert (b.variant.halving, b.variant.critical_face) == ("down", 2)
    cards = card_values(dash.panel("design").compare.cards.value)
    for key, value in evaluate(official(b)).headline.items():
        if value is not None:
            assert Fraction(cards[key]["a"]) == value
            assert Fraction(cards[key]["b"]) == evaluate(b).headline[key]
    assert dash.panel("design").status.value.count("<li>") == 2


@pytest.mark.parametrize("system_id, query, path, value", [
    ("infinity-n4", "variant.mod_cap=9", "mod_cap", 9),
    ("infinity-n4", "variant.circumstance_mod=-2&minus_three=stacking", "circumstance_mod", -2),
    ("eldfall", "variant.halving=down", "halving", "down"),
    ("eldfall", "variant.critical_face=2", "critical_face", 2),
])
def test_a_link_reopens_the_house_rule_with_the_panel_open(system_id, query, path, value):
    dash = Dashboard(system_id, query=query)
    assert getattr(dash.scenario.variant, path) == value
    assert dash.panel("design").toggle.value and dash.panel("design").official is not None
    assert dash.panel("design").official.scenario == official(dash.scenario)
    link = encode_query(dash.system, dash.scenario)
    assert f"variant.{path}={value}" in link
    assert decode_query(dash.system, link).scenario == dash.scenario


def test_a_refused_constant_in_a_link_names_the_field():
    dash = Dashboard("infinity-n4", query="variant.mod_cap=99")
    assert dash.scenario.variant.mod_cap == 12
    assert dash.notices == ["The link asked for MOD cap (±) (Rule variants) 99; MOD cap (±) goes from 0 to 24. "
                            "Showing the default scenario."]


def test_the_panel_words_have_russian():
    from rules_core import get_system
    from rules_core.variants import VARIANT_FIELD
    from workbook.panels.design import NAMES, OFFICIAL_NOTE
    from workbook.page.text import translator
    text = translator(get_system("d100-homebrew"), "ru")
    for words in (*NAMES, OFFICIAL_NOTE, "Design", "Back to the official rule", "House rules in force",
                  "official", VARIANT_FIELD["label"], VARIANT_FIELD["help"]):
        assert text(words) != words, words


def test_a_requested_link_to_a_house_rule_opens_the_panel_of_a_page_built_before():
    # Voilà builds the page before the request; the query is applied then (apply_query).
    dash = Dashboard("infinity-n4", query="")
    assert not dash.panel("design").toggle.value
    dash.apply_query("variant.mod_cap=9")
    assert dash.scenario.variant.mod_cap == 9 and dash.panel("design").toggle.value
    assert dash.panel("design").official.scenario == official(dash.scenario)


# -- the house rule marked above the headline cards, not only in the panel and the trace --------

def _banner(dash) -> str:
    """The house-rule line(s) standing before the headline cards ("" when there are none)."""
    page = dash._headline.value
    return page[:page.index('<div class="wb-cards">')]


def test_a_house_rule_is_marked_above_the_headline_cards_and_goes_with_it():
    dash = Dashboard("infinity-n4", query="")
    assert _banner(dash) == "" and "wb-house-rule" not in dash._headline.value
    dash.form.control("variant.mod_cap").value = 9
    banner = _banner(dash)
    assert banner.startswith('<div class="wb-house-rule"')
    assert re.search(r"<b>House rule</b>: MOD cap \(±\) <b>9</b> \(official 12\)", banner)
    assert 'data-path="variant.mod_cap"' in banner and "Maximum Modifier ±12" in banner
    assert 'data-key="p_dodge_succeeds"' in dash._headline.value  # the cards are still there
    dash.panel("design").reset.click()
    assert _banner(dash) == ""


def test_the_house_rule_line_names_every_house_rule():
    dash = Dashboard("eldfall", query="variant.halving=down&variant.critical_face=2")
    banner = _banner(dash)
    assert re.findall(r'data-path="([a-z_.]+)"', banner) == ["variant.critical_face", "variant.halving"]
    assert "Halving rounds <b>down</b> (official up)" in banner
    assert "Critical on faces up to <b>2</b> (official 1)" in banner


def test_the_house_rule_line_is_in_russian_on_a_russian_page():
    dash = Dashboard("d100-homebrew", query="variant.leftover_cost=3&lang=ru")
    banner = _banner(dash)
    assert "<b>Вариант правила</b>: Оставшихся Успехов за попадание <b>3</b> (официально 2)" in banner
    assert "House rule" not in banner and "official" not in banner
