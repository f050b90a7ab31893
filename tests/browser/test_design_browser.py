"""The Design panel in a real browser (Infinity N4): the rule's constants are not among the main
controls; opening the panel and moving the MOD cap shows B (the house rule) against A (the
official rule), every number the core's exact value; a link reopens a house rule with the panel
open."""

from __future__ import annotations

from fractions import Fraction

from rules_core import evaluate, find_preset, get_system
from workbook.page.share import encode_query

_CARD = """(key) => Object.fromEntries(Array.from(document.querySelectorAll(
    `.wb-design .wb-ab-card[data-key="${key}"] [data-side]`)).map(e => [e.dataset.side, e.dataset.exact]))"""

ENGAGE = find_preset("infinity-n4/zhanshi-dodges-to-engage").scenario
MINE = find_preset("infinity-n4/zhanshi-mine-and-fusilier").scenario


def _card(page, key: str) -> dict[str, Fraction]:
    return {side: Fraction(value) for side, value in page.page.evaluate(_CARD, key).items()}


def test_design_panel_compares_a_house_rule_with_the_official_rule(open_dashboard):
    page = open_dashboard("infinity-n4-dodge.ipynb")
    p = page.page
    assert page.headline()["p_dodge_succeeds"] == Fraction(47, 500)
    assert p.locator(".wb-controls .wb-variant-mod_cap").count() == 0
    assert not p.locator(".wb-design-body").is_visible()
    p.click(".wb-design-toggle")
    p.wait_for_function("() => document.querySelector('.wb-design-status')?.innerText.includes('official')",
                        timeout=20_000)
    page.set_slider("wb-variant-mod_cap", 2)
    house = ENGAGE.set("variant.mod_cap", 2)
    ra, rb = evaluate(ENGAGE), evaluate(house)
    # by hand (tests/core/infinity_n4/test_house_rules.py): 17659/160000 against 47/500
    assert rb.headline["p_dodge_succeeds"] == Fraction(17659, 160000)
    page.wait_for_headline(dict(rb.headline))
    p.wait_for_function(f"() => ({_CARD})('p_dodge_succeeds').b === '17659/160000'", timeout=20_000)
    for key in ("p_dodge_succeeds", "p_no_hit", "expected_hits"):
        assert _card(page, key) == {"a": ra.headline[key], "b": rb.headline[key],
                                    "difference": rb.headline[key] - ra.headline[key]}
    assert "MOD cap (±): 2 (official 12)" in p.locator(".wb-design-status").inner_text()
    page.share_link("variant.mod_cap=2")  # waits until the link holds the variant
    p.wait_for_function("() => window.location.search.includes('variant.mod_cap=2')", timeout=20_000)
    assert page.python_errors() == [] and page.console_errors() == []


def test_a_link_reopens_a_house_rule_with_the_panel_open(open_dashboard):
    house = MINE.set("variant.circumstance_mod", -2)
    page = open_dashboard("infinity-n4-dodge.ipynb", query=encode_query(get_system("infinity-n4"), house))
    p = page.page
    assert page.headline()["p_dodge_succeeds"] == Fraction(117, 6400)
    p.wait_for_function(f"() => ({_CARD})('p_dodge_succeeds').b === '117/6400'", timeout=20_000)
    assert _card(page, "p_dodge_succeeds") == {"a": Fraction(299, 40000), "b": Fraction(117, 6400),
                                               "difference": Fraction(117, 6400) - Fraction(299, 40000)}
    assert p.locator(".wb-design-body").is_visible()
    assert page.python_errors() == []
