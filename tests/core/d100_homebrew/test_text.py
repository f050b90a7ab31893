"""d100 homebrew in English and Russian: no text the system shows is missing in either language.

Fixed texts (labels, help, choices, citations, presets, headline names) are checked from the
declarations; texts with numbers (outcome labels, notes, trace lines) from every preset and from
random scenarios, both through the translator and by rendering each template directly in
Russian with the same values.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings

from rules_core import FacesRoller, all_systems, evaluate
from rules_core.scenario import fields_of
from rules_core.systems.d100_homebrew import SYSTEM, D100Scenario
from rules_core.systems.d100_homebrew import text as text_module
from rules_core.systems.d100_homebrew.text import PHRASES, TEMPLATES, plural_ru, render, translate

from .small import scenarios

PACKAGE = Path(text_module.__file__).parent
CYRILLIC = re.compile(r"[А-Яа-яЁё]")
LATIN_WORD = re.compile(r"[0-9A-Za-z_]*[A-Za-z][0-9A-Za-z_]*")
#: Latin words a Russian text may keep: the seed itself writes skills, SPD and template names in
#: Latin; book titles and the rulings file name stay as published.
LATIN_IN_RUSSIAN = {"Dodge", "Parry", "A", "WS", "SPD", "Blast", "Spray", "d100", "floor", "Only", "War",
                    "Black", "Crusade", "Dark", "Heresy", "2nd", "ed", "docs", "rulings", "homebrew", "md",
                    "Workbook", "expected_hits", "P", "I"}  # I: a chapter number


def assert_russian(english: str) -> None:
    russian = translate(english, "ru")
    assert russian != english, f"not translated: {english!r}"
    assert CYRILLIC.search(russian), f"no Russian in {russian!r} (from {english!r})"
    stray = set(LATIN_WORD.findall(russian)) - LATIN_IN_RUSSIAN
    assert not stray, f"English left in {russian!r}: {sorted(stray)} (from {english!r})"


def said_templates() -> list[str]:
    """Every template the package passes to ``say`` (they must all be literal strings)."""
    found = []
    for path in sorted(PACKAGE.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "say":
                assert isinstance(node.args[0], ast.Constant), f"{path.name}: say() needs a literal template"
                found.append(node.args[0].value)
    return found


# -- the tables themselves ------------------------------------------------------------------------

def test_every_template_said_has_a_russian_twin_and_none_is_unused():
    said = set(said_templates())
    assert said - set(TEMPLATES) == set(), "templates without Russian"
    assert set(TEMPLATES) - said == set(), "Russian templates nothing says"


TOKEN = re.compile(r"\{(\w+)((?:\|[^{}|]*)*)\}")


@pytest.mark.parametrize("english", list(TEMPLATES))
def test_templates_agree_on_placeholders_and_word_forms(english):
    russian = TEMPLATES[english]
    en = {(m.group(1), bool(m.group(2))) for m in TOKEN.finditer(english)}
    ru = {(m.group(1), bool(m.group(2))) for m in TOKEN.finditer(russian)}
    assert {n for n, _ in en} == {n for n, _ in ru}, english
    for m in TOKEN.finditer(english):
        assert m.group(2) == "" or len(m.group(2).split("|")) == 3, f"English forms: one|many in {english!r}"
    for m in TOKEN.finditer(russian):
        assert m.group(2) == "" or len(m.group(2).split("|")) == 4, f"Russian forms: one|few|many in {russian!r}"
    assert "; " not in english, "'; ' separates the parts of a composite text"
    if en:
        assert_russian(render(english, {name: 3 for name, _ in en}))


def test_russian_word_forms():
    forms = ("попадание", "попадания", "попаданий")
    assert [plural_ru(n, *forms) for n in (1, 2, 4, 5, 11, 12, 14, 21, 22, 25, 101, 111, 0)] == [
        "попадание", "попадания", "попадания", "попаданий", "попаданий", "попаданий", "попаданий",
        "попадание", "попадания", "попаданий", "попадание", "попаданий", "попаданий"]
    # past 100 the last two digits decide: 112 and 214 take the many form, 102 and 123 the few
    assert [plural_ru(n, *forms) for n in (112, 214, 102, 123)] == [
        "попаданий", "попаданий", "попадания", "попадания"]


def test_english_is_unchanged_and_unknown_text_passes_through():
    assert translate("3 hits of attack 2 evaded", "en") == "3 hits of attack 2 evaded"
    assert SYSTEM.text("Dodge", "en") == "Dodge" and SYSTEM.text("Dodge", "ru") == "Уклонение"
    assert translate("Share this scenario", "ru") == "Share this scenario"
    assert translate("", "ru") == ""


def test_numbers_are_kept_and_text_values_translated():
    assert translate("1 hit of attack 2 evaded", "ru") == "1 попадание атаки 2 избегнуто"
    assert translate("5 hits of attack 12 evaded", "ru") == "5 попаданий атаки 12 избегнуто"
    assert (translate("Melee, 2 hits, modifier to Evasion −20", "ru")
            == "Ближний бой, 2 попадания, модификатор к Избеганию −20")


# -- every fixed text -----------------------------------------------------------------------------

def fixed_texts() -> list[str]:
    found: list[str] = [SYSTEM.name, SYSTEM.summary]
    pending = [SYSTEM.scenario_cls]
    while pending:
        cls = pending.pop()
        for spec in fields_of(cls):
            found += [spec.label, spec.help, spec.citation, *(label for _, label in spec.choices)]
            found += [spec.group] if spec.group else []
            if spec.part_cls is not None:
                pending.append(spec.part_cls)
    for source in SYSTEM.sources:
        found += [source.title, source.where]
    for preset in SYSTEM.presets:
        found += [preset.title, preset.description, preset.citation]
    for key, definition in SYSTEM.headlines.items():
        found += [key, definition.text]
    found += ["p_dodge_succeeds", "p_no_hit", "expected_hits"]
    return [t for t in dict.fromkeys(found) if t]


@pytest.mark.parametrize("english", fixed_texts())
def test_every_fixed_text_is_in_russian(english):
    assert_russian(english)


def test_russian_terms_come_from_the_seed():
    """The seed's own words (docs/rulings/d100-homebrew.md, Terms)."""
    words = {"Уклонение": "Dodge", "Парирование": "Parry", "Отскок": "Leap", "Избегание": "Evasion",
             "Реакции": "Reactions", "Задержанное полудействие": "Delayed half-action",
             "Непотраченные ОД": "Unspent AP"}
    for russian, english in words.items():
        assert translate(english, "ru") == russian


# -- every text with numbers in it ------------------------------------------------------------------

def result_texts(scenario: D100Scenario) -> list[str]:
    result = evaluate(scenario)
    found = list(result.outcome_order) + list(result.notes.values())
    for step in result.trace:
        found += [step.rule, step.detail, step.citation]
    played = SYSTEM.play(scenario, FacesRoller([7, 63, 1, 99, 45, 30]))  # one face per roll at most
    for step in played.trace:
        found += [step.rule, step.detail, step.citation]
    return list(dict.fromkeys(found))


@pytest.mark.parametrize("name", [p.name for p in SYSTEM.presets])
def test_every_result_text_of_every_preset_is_in_russian(name):
    for english in result_texts(SYSTEM.preset(name).scenario):
        assert_russian(english)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scenario=scenarios())
def test_every_result_text_of_random_scenarios_is_in_russian(scenario):
    for english in result_texts(scenario):
        assert_russian(english)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scenario=scenarios())
def test_translating_a_text_equals_rendering_its_russian_template(scenario):
    """Record every English template rendered (with its values) and render the Russian template
    with the same numbers and translated words: the translator must give exactly that."""
    recorded: list[tuple[str, dict]] = []
    original = text_module.render

    def recording(template, values):
        if template in TEMPLATES:
            recorded.append((template, dict(values)))
        return original(template, values)

    text_module.render = recording
    try:
        result_texts(scenario)
    finally:
        text_module.render = original
    assert recorded
    for template, values in recorded:
        english = original(template, values)
        words = {k: (v if isinstance(v, int) else translate(str(v), "ru")) for k, v in values.items()}
        assert translate(english, "ru") == original(TEMPLATES[template], words), english


def test_the_registered_system_translates_through_its_hook():
    system = all_systems()["d100-homebrew"]
    assert system.languages == ("en", "ru")
    assert system.text("Leap into Cover", "ru") == "Отскок в Укрытие"


def test_a_text_in_both_tables_has_one_translation():
    shared = set(PHRASES) & set(TEMPLATES)
    assert {t: PHRASES[t] for t in shared} == {t: TEMPLATES[t] for t in shared}


def test_word_forms_read_a_typographic_minus_and_refuse_a_wrong_count_of_forms():
    render = text_module.render
    assert render("{n} {n|point|points}", {"n": "−1"}) == "−1 point"  # a minus sign as the trace writes it
    assert render("{n} {n|point|points}", {"n": "−2"}) == "−2 points"
    assert render("{n|очко|очка|очков}", {"n": "−5"}) == "очков"
    with pytest.raises(ValueError, match=r"word forms of 'n' in '\{n\|a\|b\|c\|d\}': give 2 \(English\) or 3 \(Russian\)"):
        render("{n|a|b|c|d}", {"n": 1})
    with pytest.raises(KeyError, match="no Russian template for 'Not a template'"):
        text_module.say("Not a template")
