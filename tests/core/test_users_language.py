"""Issue 26, in code: a frozen field's assignment points to ``.set()`` (item 5), and every
field's help, range, step and citation can be read from the scenario (item 3)."""

from __future__ import annotations

import html
import pydoc
from decimal import Decimal

import pytest

from rules_core import find_preset, get_system
from rules_core.scenario import FieldHelp, FrozenFieldError, ScenarioError, fields_of

INFINITY = find_preset("infinity-n4/zhanshi-vs-fusilier").scenario
GURPS = get_system("gurps-4e").presets[0].scenario
D100 = get_system("d100-homebrew").presets[0].scenario


# -- item 5: assignment to a frozen field -----------------------------------------------------

@pytest.mark.parametrize("assign, shows", [
    (lambda: setattr(INFINITY.dodger, "ph", 12),
     ['scenario.set("dodger.ph", 12)', 'scenario.replace(**{"dodger.ph": 12})']),
    (lambda: setattr(INFINITY.attackers[0], "burst", 4),
     ['scenario.set("attackers.0.burst", 4) (0: the item\'s index)']),
    (lambda: setattr(INFINITY, "minus_three", "stacking"),
     ["scenario.set(\"minus_three\", 'stacking')", "scenario.replace(minus_three='stacking')"]),
    (lambda: setattr(GURPS.dodger, "basic_speed", 7),
     ['scenario.set("dodger.basic_speed", 7)']),
    (lambda: setattr(D100.attacks[0], "evasion_modifier", -5),
     ['scenario.set("attacks.0.evasion_modifier", -5)']),
    (lambda: delattr(INFINITY.dodger, "ph"), ["cannot be deleted", 'scenario.set("dodger.ph", ...)']),
    (lambda: setattr(INFINITY, "phh", 1), ["has no field 'phh'", "dodger, attackers"]),
])
def test_assigning_a_field_points_to_set(assign, shows):
    with pytest.raises(FrozenFieldError) as caught:
        assign()
    message = str(caught.value)
    assert "immutable" in message
    for words in shows:
        assert words in message
    assert "errors.pydantic.dev" not in message and "Instance is frozen" not in message
    assert isinstance(caught.value, AttributeError)  # what Python says of a read-only attribute


def test_the_edit_the_message_shows_works():
    with pytest.raises(FrozenFieldError) as caught:
        INFINITY.dodger.ph = 12
    shown = str(caught.value).split("instead: scenario = ")[1].split(", or")[0]
    assert eval(shown, {"scenario": INFINITY}).dodger.ph == 12  # noqa: S307 - our own message
    assert INFINITY.dodger.ph == 10  # the preset itself is unchanged


def test_a_block_in_no_scenario_speaks_of_itself():
    from rules_core.scenario import Part, number

    class Lone(Part):
        """A block no scenario holds."""

        x: int = number(1, ge=0, le=3, label="X", help="x.")

    with pytest.raises(FrozenFieldError, match=r'part = part\.set\("x", 2\)'):
        Lone().x = 2


# -- item 3: help in code ---------------------------------------------------------------------

def test_describe_says_why_partial_cover_leaves_the_dodge_alone():
    described = INFINITY.set("attackers.0.partial_cover", True).describe("attackers.0.partial_cover")
    assert isinstance(described, FieldHelp)
    assert described.value is True and described.default is False
    assert described.label == "Dodger in Partial Cover"
    assert described.allowed == "true or false"
    assert "belongs in the attacker's MODs" in described.help
    assert "Partial Cover" in described.citation and "Infinity N4" in described.citation
    text = str(described)
    assert text.splitlines()[0] == "attackers.0.partial_cover: Dodger in Partial Cover"
    assert "value: True (default False)" in text
    assert "help: +3 to the dodger's Saving Rolls" in text and "source: Infinity N4" in text
    assert repr(described) == text


def test_describe_a_number_gives_range_step_and_value():
    speed = GURPS.set("dodger.basic_speed", 6.25).describe("dodger.basic_speed")
    assert speed.value == Decimal("6.25") and speed.step == Decimal("0.25")
    assert speed.allowed == "a number from 1 to 20 in steps of 0.25"
    assert "B17" in speed.citation
    modifier = D100.describe("attacks.0.evasion_modifier")
    assert modifier.step == 5 and "in steps of 5" in modifier.allowed and "in steps of 5" in str(modifier)


def test_describe_a_choice_names_its_labels():
    defense = GURPS.describe("dodger.defense")
    assert ("retreat", "Dodge with a retreat (+3)") in defense.choices
    assert "'retreat' = Dodge with a retreat (+3)" in str(defense)


def test_describe_refuses_a_path_that_names_nothing():
    with pytest.raises(ScenarioError, match="attackers.7"):
        INFINITY.describe("attackers.7.burst")
    with pytest.raises(ScenarioError, match="no such field"):
        INFINITY.describe("dodger.phh")


def _every_leaf_spec(cls, done=()):
    for spec in fields_of(cls):
        if spec.part_cls is not None:
            yield from _every_leaf_spec(spec.part_cls, (*done, spec.name))
        else:
            yield done, spec


@pytest.mark.parametrize("system_id", ["infinity-n4", "gurps-4e", "eldfall", "d100-homebrew"])
def test_describe_help_and_docstring_carry_every_fields_help_and_citation(system_id):
    system = get_system(system_id)
    scenario = system.presets[0].scenario
    page = scenario._repr_html_()
    assert "<th style='padding:1px 8px;text-align:left;vertical-align:top'>help</th>" in page
    doc = pydoc.render_doc(type(scenario), renderer=pydoc.plaintext)
    for path in scenario.paths():
        described = scenario.describe(path)
        assert described.help and described.help in str(described)
        if described.citation:
            assert described.citation in str(described)
        # the rich display's row and help()'s text for this field carry its help and source
        assert html.escape(described.help) in page, path
        assert html.escape(described.citation) in page, path
    flat = " ".join(doc.split())
    for done, spec in _every_leaf_spec(type(scenario)):
        assert " ".join(spec.help.split()) in flat, (done, spec.name)
        assert " ".join(spec.citation.split()) in flat, (done, spec.name)


def test_completion_offers_describe():
    assert "describe" in dir(INFINITY)
