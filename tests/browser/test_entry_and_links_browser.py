"""Entering values and opening links, in a real browser: d100 modifiers move in steps of 5 (arrow
keys, a typed −25, a typed value between the fives refused at its field), the GURPS attack skill's
label says what the skill includes and is never cut, old links with every field spelled out keep
opening (then the address bar holds the short link), and a long exact fraction is shortened on
its headline card and shown whole on a click or a hover, inside the card on a phone.

Every expected number is the rules core's own (``rules_core.evaluate`` of the scenario the page
should show), every expected label the one the core declares."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from urllib.parse import urlencode

import pytest

from rules_core import evaluate, get_system
from rules_core.scenario import FieldSpec, Part, fields_of
from rules_core.systems.d100_homebrew.scenario import Attack as D100Attack
from rules_core.systems.gurps_4e.scenario import Attack as GurpsAttack
from workbook.page import layout
from workbook.page.share import decode_query

pytestmark = pytest.mark.browser

PHONE, LAPTOP = (390, 844), (1366, 768)
WAIT_MS = 20_000


def spec_of(cls: type[Part], name: str) -> FieldSpec:
    return next(spec for spec in fields_of(cls) if spec.name == name)


def numbers_of(dash, scenario) -> None:
    """Wait until the headline cards and the table hold the core's exact numbers for ``scenario``."""
    core = evaluate(scenario)
    dash.wait_for_headline(dict(core.headline))
    dash.wait_for_table(dict(core.outcome_rows()))


def readout(dash, css: str) -> Fraction:
    """A slider's value as its readout shows it (``−25`` is written with a minus sign)."""
    return Fraction(dash.page.locator(f".{css} .widget-readout").inner_text().strip().replace("−", "-"))


def address(dash) -> str:
    return dash.page.evaluate("location.search")


# -- 1. d100 modifiers in steps of 5 -----------------------------------------------------------

D100 = get_system("d100-homebrew")
TWO_ATTACKS = D100.preset("two-attacks-leftovers").scenario  # the second attack at −20
MODIFIER = "wb-attacks-1-evasion_modifier"
_HANDLE_AT = """([css, value]) => { const h = document.querySelector(`.${css} .noUi-handle`);
    return !!h && Number(h.getAttribute('aria-valuenow')) === value; }"""
_MARKED = """([css, on]) => { const el = document.querySelector(`.${css}`);
    return !!el && el.classList.contains('wb-invalid') === on; }"""
_STALE = "() => document.querySelector('.wb-results').classList.contains('wb-stale')"


def second_attack_at(modifier: int):
    attacks = TWO_ATTACKS.attacks
    return TWO_ATTACKS.replace(attacks=(attacks[0], attacks[1].replace(evasion_modifier=modifier)))


def test_d100_modifiers_move_in_steps_of_five(open_dashboard):
    spec = spec_of(D100Attack, "evasion_modifier")
    step = spec.step
    assert step == 5  # the ruling: modifiers in steps of 5, so that −25 and −5 can be entered
    start = TWO_ATTACKS.attacks[1].evasion_modifier
    dash = open_dashboard("d100-homebrew.ipynb", query="preset=two-attacks-leftovers")
    numbers_of(dash, TWO_ATTACKS)
    assert dash.slider_value(MODIFIER) == start and readout(dash, MODIFIER) == start
    # Arrow keys: exactly one step each way, and the numbers of the modifier reached.
    for key, value in (("ArrowRight", start + step), ("ArrowLeft", start)):
        dash.press_slider(MODIFIER, key)
        dash.page.wait_for_function(_HANDLE_AT, arg=[MODIFIER, value], timeout=WAIT_MS)
        numbers_of(dash, second_attack_at(value))
        assert dash.slider_value(MODIFIER) == value and readout(dash, MODIFIER) == value
    # A typed −25 (the "full −10" rule's own case) is taken as it is.
    typed = -25
    assert typed % step == 0 and spec.minimum <= typed <= spec.maximum
    accepted = second_attack_at(typed)
    dash.set_slider(MODIFIER, typed)
    dash.page.wait_for_function(_HANDLE_AT, arg=[MODIFIER, typed], timeout=WAIT_MS)
    numbers_of(dash, accepted)
    assert dash.headline() == dict(evaluate(accepted).headline)
    dash.page.wait_for_function(
        "([pair]) => location.search.slice(1).split('&').includes(pair)",
        arg=[f"attacks.1.evasion_modifier={typed}"], timeout=WAIT_MS)
    assert decode_query(D100, address(dash)).scenario == accepted
    assert dash.notices() == [] and not dash.page.evaluate(_STALE)
    # A typed −23, between the fives: refused at its field with the field's range and step; the
    # numbers, the address and the share link stay those of the last scenario taken (−25), and
    # are marked as not following the form.
    off = -23
    assert off % step != 0
    dash.set_slider(MODIFIER, off)
    dash.page.wait_for_function(_MARKED, arg=[MODIFIER, True], timeout=WAIT_MS)
    dash.page.wait_for_function(_STALE, timeout=WAIT_MS)
    notices = dash.notices()
    assert any("attacks.1.evasion_modifier" in n and str(off) in n and spec.allowed() in n
               for n in notices), notices
    assert readout(dash, MODIFIER) == off  # what was typed stays in view, beside its reason
    assert dash.slider_value(MODIFIER) % step == 0  # the handle itself never sits off a step
    assert dash.headline() == dict(evaluate(accepted).headline)
    assert dash.table() == dict(evaluate(accepted).outcome_rows())
    assert decode_query(D100, address(dash)).scenario == accepted
    assert decode_query(D100, dash.share_link().split("?", 1)[1]).scenario == accepted
    # A value on the step again clears the refusal and is shown.
    again = typed - step
    dash.set_slider(MODIFIER, again)
    dash.page.wait_for_function(_MARKED, arg=[MODIFIER, False], timeout=WAIT_MS)
    numbers_of(dash, second_attack_at(again))
    dash.page.wait_for_function(f"() => !({_STALE})()", timeout=WAIT_MS)
    assert readout(dash, MODIFIER) == again and dash.slider_value(MODIFIER) == again
    assert dash.notices() == []
    assert dash.python_errors() == [] and dash.console_errors() == []


# -- 2. the GURPS attack skill's label ---------------------------------------------------------

SKILL = "wb-attacks-0-skill"
# Whether a field's label is shown whole: its text laid out inside the label's box and inside
# every box above it that clips, and within the window.
_LABEL = """([css]) => {
    const label = document.querySelector(`.${css} .widget-label`);
    if (!label) return null;
    const box = label.getBoundingClientRect();
    const range = document.createRange();
    range.selectNodeContents(label);
    const lines = Array.from(range.getClientRects()).filter(r => r.width > 0);
    const problems = [];
    if (box.width === 0 || lines.length === 0) problems.push('not displayed');
    if (label.scrollWidth > label.clientWidth + 1) problems.push(`scrollWidth ${label.scrollWidth} > clientWidth ${label.clientWidth}`);
    if (label.scrollHeight > label.clientHeight + 1) problems.push(`scrollHeight ${label.scrollHeight} > clientHeight ${label.clientHeight}`);
    const inside = (r, b) => r.left >= b.left - 1 && r.right <= b.right + 1 && r.top >= b.top - 1 && r.bottom <= b.bottom + 1;
    for (const r of lines) {
        if (!inside(r, box)) problems.push('text outside its label');
        if (r.right > document.documentElement.clientWidth + 1) problems.push('text past the window');
    }
    for (let p = label.parentElement; p; p = p.parentElement) {
        const s = getComputedStyle(p);
        if (s.overflowX === 'visible' && s.overflowY === 'visible') continue;
        const b = p.getBoundingClientRect();
        if (lines.some(r => !inside(r, b))) problems.push(`clipped by ${p.className}`);
    }
    return {text: label.innerText, lines: new Set(lines.map(r => Math.round(r.top))).size,
            problems, textOverflow: getComputedStyle(label).textOverflow};
}"""


def test_gurps_attack_skill_label_says_what_it_includes_and_is_whole(open_dashboard):
    label = spec_of(GurpsAttack, "skill").label
    # The core's label names what the skill is taken before (what the workbook adds itself).
    assert "RoF" in label and "posture" in label
    dash = open_dashboard("gurps-4e.ipynb", width=PHONE[0], height=PHONE[1])
    # On a phone the attack's section starts folded: open it as a reader would.
    dash.page.locator(".wb-attacks-0 .wb-section-unfold").first.click()
    dash.page.wait_for_function(
        "([css]) => document.querySelector(`.${css} .widget-label`).getBoundingClientRect().width > 0",
        arg=[SKILL], timeout=WAIT_MS)
    for width, height in (PHONE, LAPTOP):
        dash.resize(width, height)
        dash.page.locator(f".{SKILL}").scroll_into_view_if_needed()
        shown = dash.page.evaluate(_LABEL, [SKILL])
        assert shown is not None, width
        assert shown["text"].replace("\xa0", " ").strip() == label, (width, shown)
        assert shown["problems"] == [], (width, shown)
        assert shown["textOverflow"] != "ellipsis" or shown["lines"] > 1, (width, shown)
    assert dash.python_errors() == [] and dash.console_errors() == []


# -- 3. old links with every field spelled out ---------------------------------------------------

def _leaves(data, prefix: str = ""):
    """``(dotted path, value)`` of every leaf of a scenario's data, values as they are."""
    if isinstance(data, dict):
        for key, value in data.items():
            yield from _leaves(value, f"{prefix}{key}.")
    elif isinstance(data, list):
        for i, value in enumerate(data):
            yield from _leaves(value, f"{prefix}{i}.")
    else:
        yield prefix[:-1], data


def spelled_out(data) -> list[tuple[str, str]]:
    """Every leaf of a scenario's data as ``(dotted path, text)``, as links were written before
    they named only the fields that differ from a preset: flags ``true``/``false``, the rest as
    text, in the order of the fields."""
    return [(path, str(value).lower() if isinstance(value, bool) else str(value))
            for path, value in _leaves(data)]


def leaf_specs(cls: type[Part], data: dict, prefix: str = "") -> dict[str, FieldSpec]:
    """Each leaf field's spec by its dotted path in ``data``."""
    out: dict[str, FieldSpec] = {}
    for spec in fields_of(cls):
        if spec.kind == "part":
            out |= leaf_specs(spec.part_cls, data[spec.name], f"{prefix}{spec.name}.")
        elif spec.kind == "parts":
            for i, item in enumerate(data[spec.name]):
                out |= leaf_specs(spec.part_cls, item, f"{prefix}{spec.name}.{i}.")
        else:
            out[f"{prefix}{spec.name}"] = spec
    return out


def _infinity_link():
    inf = get_system("infinity-n4")
    base = inf.preset("zhanshi-vs-fusilier").scenario
    first = base.attackers[0]
    return inf, "infinity-n4-dodge.ipynb", base, base.replace(
        dodger=base.dodger.replace(ph=12, arm=3),
        attackers=(first.replace(burst=4, ammo="DA"), *base.attackers[1:]), after_dodge="stay")


def _gurps_link():
    gurps = get_system("gurps-4e")
    base = gurps.preset("sword-2d1-cut-vs-dr3").scenario
    return gurps, "gurps-4e.ipynb", base, base.replace(
        dodger=base.dodger.replace(basic_speed=Decimal("6.25"), defense="plain"),
        target=base.target.replace(dr=2),
        attacks=(base.attacks[0].replace(skill=14, damage="3d-1"), *base.attacks[1:]))


def control_shows(dash, path: str, spec: FieldSpec, value) -> bool:
    """Whether the control of the field at dotted ``path`` shows ``value``."""
    css = "wb-" + path.replace(".", "-")
    if spec.kind in ("int", "float"):
        return readout(dash, css) == Fraction(str(value))
    if spec.kind in ("choice", "ruling"):
        chosen = dash.page.locator(f".{css} select option:checked").inner_text()
        return chosen.replace("\xa0", " ") == dict(spec.choices)[value]
    if spec.kind == "flag":
        return dash.page.locator(f".{css} input[type=checkbox]").is_checked() == value
    return dash.page.locator(f".{css} input").input_value() == value


@pytest.mark.parametrize("make", [_infinity_link, _gurps_link], ids=["infinity-n4", "gurps-4e"])
def test_old_long_links_open_and_become_short(open_dashboard, make):
    system, notebook, base, scenario = make()
    data = scenario.to_data()
    data.pop("system")
    pairs = spelled_out(data)
    specs = leaf_specs(system.scenario_cls, data)
    assert [key for key, _ in pairs] == list(specs)  # every field spelled out
    old = urlencode(pairs, safe=".")
    assert len(old) > 300
    leaf, was = dict(_leaves(data)), dict(_leaves(base.to_data()))
    changed = {path: spec for path, spec in specs.items() if leaf[path] != was[path]}
    assert len(changed) >= 4  # a few values away from the preset
    dash = open_dashboard(notebook, query=old)
    numbers_of(dash, scenario)
    assert dash.headline() == dict(evaluate(scenario).headline)
    assert dash.notices() == [] and dash.page.locator(".wb-invalid").count() == 0
    for path, spec in changed.items():
        assert control_shows(dash, path, spec, leaf[path]), (path, leaf[path])
    # The address bar now holds the short link, which opens the same scenario.
    dash.page.wait_for_function("() => location.href.length < 300 && location.search.length > 1",
                                timeout=WAIT_MS)
    short = address(dash)
    assert len(dash.page.evaluate("location.href")) < 300
    assert decode_query(system, short).scenario == scenario
    assert decode_query(system, dash.share_link().split("?", 1)[1]).scenario == scenario
    assert dash.python_errors() == [] and dash.console_errors() == []
    again = open_dashboard(notebook, query=short.lstrip("?"))
    numbers_of(again, scenario)
    assert again.notices() == []
    for path, spec in changed.items():
        assert control_shows(again, path, spec, leaf[path]), (path, leaf[path])
    assert again.python_errors() == [] and again.console_errors() == []


# -- 4. a long exact fraction on a headline card -------------------------------------------------

GURPS = get_system("gurps-4e")
COVER = GURPS.preset("drop-behind-cover").scenario  # three attacks through cover: long fractions

_CARDS = """() => Array.from(document.querySelectorAll('.wb-headline .wb-card')).map(card => {
    const exact = card.querySelector('[data-col=exact]');
    const summary = exact.querySelector('summary');
    return {key: card.dataset.key, tag: exact.tagName.toLowerCase(), value: exact.dataset.value,
            title: exact.getAttribute('title'), shown: (summary || exact).innerText.trim()};
})"""

_CARD_FITS = """([key]) => {
    const card = document.querySelector(`.wb-headline .wb-card[data-key="${key}"]`);
    const box = card.getBoundingClientRect();
    const out = [];  // lines of text the reader sees that lie outside the card's box
    const walker = document.createTreeWalker(card, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        if (!node.parentElement.checkVisibility()) continue;  // e.g. a closed <details>' body
        const range = document.createRange();
        range.selectNodeContents(node);
        for (const r of range.getClientRects()) {
            if (r.width > 0 && (r.left < box.left - 1 || r.right > box.right + 1 ||
                                r.top < box.top - 1 || r.bottom > box.bottom + 1)) out.push(node.textContent);
        }
    }
    return {scroll: card.scrollWidth, client: card.clientWidth, right: box.right,
            window: document.documentElement.clientWidth, page: document.scrollingElement.scrollWidth,
            outside: out};
}"""


def _is_cut_from(shown: str, full: str) -> bool:
    """``shown`` is ``full`` with each number cut to its leading digits (marked with …)."""
    parts, whole = shown.split("/"), full.split("/")
    return len(parts) == len(whole) and all(
        p == w or (p.endswith("…") and w.startswith(p[:-1]) and len(p) - 1 < len(w))
        for p, w in zip(parts, whole))


def test_a_long_fraction_is_shortened_on_its_card_and_shown_whole(open_dashboard):
    core = evaluate(COVER).headline
    full = {key: str(value) for key, value in core.items() if value is not None}
    key = max(full, key=lambda k: len(full[k]))
    assert len(full[key]) > layout._LONG  # longer than a card shows whole
    dash = open_dashboard("gurps-4e.ipynb", query="preset=drop-behind-cover",
                          width=PHONE[0], height=PHONE[1])
    dash.wait_for_headline(dict(core))
    cards = {card["key"]: card for card in dash.page.evaluate(_CARDS)}
    assert set(cards) == set(full)
    for name, card in cards.items():
        assert card["value"] == full[name] and card["title"] == full[name], card
        if len(full[name]) > layout._LONG:  # shortened, the whole one click away
            assert card["tag"] == "details" and card["shown"] != full[name], card
            assert "…" in card["shown"] and _is_cut_from(card["shown"], full[name]), card
        else:
            assert card["tag"] == "span" and card["shown"] == full[name], card
    card = f'.wb-headline .wb-card[data-key="{key}"]'
    fits = dash.page.evaluate(_CARD_FITS, [key])
    assert fits["scroll"] <= fits["client"] and fits["outside"] == [], fits
    # A hover: the pointer rests on the shortened fraction, whose tooltip is the whole fraction.
    dash.page.locator(f"{card} summary").hover()
    hovered = dash.page.evaluate(
        "([css]) => { const r = document.querySelector(css).getBoundingClientRect();"
        " const el = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);"
        " const titled = el && el.closest('[title]'); return titled ? titled.getAttribute('title') : null; }",
        [f"{card} summary"])
    assert hovered == str(core[key])
    # A click: the whole fraction, in the card, on a phone.
    assert not dash.page.locator(f"{card} .wb-card-full").is_visible()
    dash.page.locator(f"{card} summary").click()
    dash.page.wait_for_function("([css]) => document.querySelector(css).open === true",
                                arg=[f"{card} details"], timeout=WAIT_MS)
    whole = dash.page.locator(f"{card} .wb-card-full")
    assert whole.is_visible()
    assert whole.inner_text().replace("\u200b", "").replace("\n", "").strip() == str(core[key])
    assert Fraction(whole.inner_text().strip()) == core[key]
    fits = dash.page.evaluate(_CARD_FITS, [key])
    assert fits["scroll"] <= fits["client"] and fits["outside"] == [], fits
    assert fits["right"] <= fits["window"] and fits["page"] <= PHONE[0], fits
    # Another click folds it again.
    dash.page.locator(f"{card} summary").click()
    dash.page.wait_for_function("([css]) => document.querySelector(css).open === false",
                                arg=[f"{card} details"], timeout=WAIT_MS)
    assert dash.headline() == dict(core)
    assert dash.python_errors() == [] and dash.console_errors() == []
