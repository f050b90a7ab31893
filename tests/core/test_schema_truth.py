"""Issue 26, item 7: the JSON Schema tells the truth. Every scenario a system's schema allows
(``python -m rules_core schema SYSTEM``, the scenario class's ``model_json_schema()``) is one
``load_scenario`` accepts: steps are ``multipleOf``, notations are patterns, and the
combinations the scenario's checks refuse are said with ``if``/``then``/``not``/``anyOf``
(:meth:`rules_core.scenario.Part.schema_rules`) — where JSON Schema cannot say a check
exactly (GURPS's size limit), the schema is stricter than it."""

from __future__ import annotations

import copy
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis_jsonschema import from_schema
from jsonschema import Draft202012Validator

from rules_core import get_system, load_scenario
from rules_core.scenario import ScenarioError

SYSTEMS = ["infinity-n4", "gurps-4e", "eldfall", "d100-homebrew"]


def _with_current_hypothesis():
    """hypothesis-jsonschema 0.23.1 (the newest) draws an object's keys with Hypothesis's old
    ``many(...).more()``; Hypothesis 6.170 made ``many`` a context manager iterated with ``for``.
    This shim gives the old calls the new object, so the generator runs unchanged."""
    import types

    from hypothesis.internal.conjecture import utils as cu
    from hypothesis_jsonschema import _from_schema

    if hasattr(cu.many, "more"):
        return

    class Many:
        def __init__(self, data, **sizes):
            self.inner = cu.many(data, **sizes)
            self.inner.__enter__()
            self.steps = iter(self.inner)

        def more(self) -> bool:
            if next(self.steps, StopIteration) is StopIteration:
                self.inner.__exit__(None, None, None)
                return False
            return True

        def reject(self, why=None) -> None:
            self.inner.reject(why)

    _from_schema.cu = types.SimpleNamespace(**{**vars(cu), "many": Many})


_with_current_hypothesis()


def _schema(system_id):
    return get_system(system_id).scenario_cls.model_json_schema()


def _without_combinations(schema):
    """``schema`` without its ``allOf`` rules (the combinations, at the top and in each block):
    hypothesis-jsonschema takes minutes to resolve GURPS's nested ``if``/``not``/``anyOf``, so
    scenarios are drawn from the fields' own schemas and the whole schema then picks the ones
    it allows (a filter by the schema itself, not by the scenario's checks)."""
    schema = copy.deepcopy(schema)  # hypothesis-jsonschema rewrites the schema it is given
    bare = {k: v for k, v in schema.items() if k != "allOf"}
    bare["$defs"] = {name: {k: v for k, v in block.items() if k != "allOf"}
                     for name, block in schema.get("$defs", {}).items()}
    return bare


@pytest.mark.parametrize("system_id", SYSTEMS)
def test_every_scenario_the_schema_allows_is_accepted(system_id):
    schema = _schema(system_id)
    allows = Draft202012Validator(schema).is_valid

    @settings(max_examples=150, deadline=None, derandomize=True,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much, HealthCheck.data_too_large])
    @given(from_schema(_without_combinations(schema)).filter(allows))
    def check(data):
        try:
            load_scenario(json.loads(json.dumps(data)))
        except ScenarioError as err:
            raise AssertionError(f"the schema allows what the scenario refuses: {err}") from None

    check()


@pytest.mark.parametrize("system_id", SYSTEMS)
def test_every_preset_fits_its_schema(system_id):
    validator = Draft202012Validator(_schema(system_id))
    for preset in get_system(system_id).presets:
        errors = list(validator.iter_errors(preset.scenario.to_data()))
        assert not errors, (preset.name, errors[0].message)


REFUSED = [
    # (system, data the scenario refuses, why): the schema refuses it too
    ("d100-homebrew", {"attacks": [{"evasion_modifier": -23}]}, "off the step of 5"),
    ("d100-homebrew", {"attacks": [{"kind": "melee", "covers_whole_base": True}]}, "a melee attack on the whole Base"),
    ("infinity-n4", {"dodger": {"immobilized": "IMM-B"}}, "IMM-B and Dodge"),
    ("gurps-4e", {"dodger": {"basic_speed": 6.3}}, "Basic Speed off its quarters"),
    ("gurps-4e", {"attacks": [{"damage": "2d8"}]}, "not six-sided"),
    ("gurps-4e", {"dodger": {"defense": "dodge_and_drop"}, "attacks": [{"kind": "melee"}]}, "drop against melee"),
    ("gurps-4e", {"situation": "sacrificial", "dodger": {"defense": "retreat"}}, "sacrificial retreat"),
    ("gurps-4e", {"situation": "sacrificial", "attacks": [{}, {}]}, "sacrificial, two attacks"),
    ("gurps-4e", {"dodger": {"defense": "none", "acrobatic": True}}, "acrobatic with no defense"),
    ("gurps-4e", {"dodger": {"defense": "dodge_and_drop", "posture": "lying"}}, "drop from lying"),
    ("gurps-4e", {"situation": "dive", "dodger": {"posture": "crawling"}}, "dive from crawling"),
    ("gurps-4e", {"dodger": {"defense": "dodge_and_drop", "flying": True}}, "flyer without terrain"),
    ("gurps-4e", {"target": {"location": "vitals"}}, "crushing... cutting at the vitals (the default cut)"),
    ("gurps-4e", {"attacks": [{"damage_type": "cut"}, {"damage_type": "fat"}]}, "fat beside HP damage"),
    ("gurps-4e", {"situation": "smother", "blast": {"distance": 2}}, "explosive just out of reach"),
    ("gurps-4e", {"situation": "smother", "dodger": {"posture": "lying"}}, "smothering from lying"),
    ("gurps-4e", {"situation": "smother", "dodger": {"flying": True}}, "smothering in flight"),
    ("gurps-4e", {"situation": "smother", "blast": {"spread": "area"}}, "smothering an area effect"),
    ("gurps-4e", {"target": {"hp": 8, "hp_left": 9}}, "HP left above HP"),
    ("gurps-4e", {"target": {"hp_left": 11}}, "HP left above the default HP"),
    ("gurps-4e", {"target": {"fp": 5}}, "the default FP left above FP"),
    ("gurps-4e", {"attacks": [{"rof": 20, "skill": 30, "recoil": 1, "damage": "4d", "damage_type": "pi+"}] * 4},
     "a turn too large to compute"),
    ("gurps-4e", {"attacks": [{"rof": 50, "hits": 50, "damage": "3d+5"}] * 4}, "small dice, too many hits"),
    # a sacrificial dodge is a turn of one attack: the turn's checks hold for it too
    ("gurps-4e", {"situation": "sacrificial", "dodger": {"defense": "dodge_and_drop", "posture": "lying"}},
     "a sacrificial drop from lying"),
    ("gurps-4e", {"situation": "sacrificial", "dodger": {"defense": "dodge_and_drop"}, "attacks": [{"kind": "melee"}]},
     "a sacrificial drop against melee"),
    ("gurps-4e", {"situation": "sacrificial", "target": {"location": "vitals"}}, "a sacrificial cut at the vitals"),
    ("gurps-4e", {"target": {"location": "vitals"}, "attacks": [{}]}, "the default cut at the vitals"),
    ("gurps-4e", {"target": {"location": "vitals"}, "attacks": [{"damage_type": "cr"}]}, "crushing at the vitals"),
    ("gurps-4e", {"attacks": [{"damage_type": "fat"}, {}]}, "fat beside the default cut"),
    ("gurps-4e", {"target": {"hp": 1, "hp_left": 2}}, "HP left above the lowest HP"),
]


@pytest.mark.parametrize("system_id, data, why", REFUSED)
def test_what_the_scenario_refuses_the_schema_refuses(system_id, data, why):
    data = {"system": system_id, **data}
    with pytest.raises(ScenarioError):
        load_scenario(data)
    assert list(Draft202012Validator(_schema(system_id)).iter_errors(data)), why


ACCEPTED = [
    # combinations near the refused ones that both take
    ("gurps-4e", {"dodger": {"defense": "retreat"}, "attacks": [{"kind": "ranged"}]}),  # no bonus, B377
    ("gurps-4e", {"situation": "dive", "dodger": {"defense": "none", "posture": "crawling"}}),
    ("gurps-4e", {"situation": "dive", "dodger": {"flying": True}}),  # diving for distance
    ("gurps-4e", {"target": {"location": "vitals"}, "attacks": [{"damage_type": "imp"}]}),
    ("gurps-4e", {"attacks": [{"damage_type": "fat"}, {"damage_type": "fat"}]}),
    ("gurps-4e", {"target": {"hp": 12, "hp_left": 11}}),
    ("gurps-4e", {"target": {"hp": 1, "hp_left": 1, "fp": 100, "fp_left": 100}}),  # the ends of the range
    ("gurps-4e", {"situation": "dive", "dodger": {"posture": "crawling", "flying": True}}),  # a flyer dives from any posture
    ("gurps-4e", {"situation": "dive", "attacks": [{}, {"kind": "melee"}], "dodger": {"defense": "dodge_and_drop"}}),
    ("d100-homebrew", {"attacks": [{"evasion_modifier": -25}]}),
    ("infinity-n4", {"dodger": {"immobilized": "IMM-B", "dodges": False}}),
]


@pytest.mark.parametrize("system_id, data", ACCEPTED)
def test_the_schema_does_not_refuse_these_neighbours(system_id, data):
    data = {"system": system_id, **data}
    load_scenario(data)
    assert not list(Draft202012Validator(_schema(system_id)).iter_errors(data))


def test_a_stepped_whole_number_says_its_step():
    attack = _schema("d100-homebrew")["$defs"]["Attack"]["properties"]["evasion_modifier"]
    assert attack["multipleOf"] == 5 and attack["minimum"] == -60


def test_a_step_counted_from_an_odd_bound_is_listed():
    from rules_core.scenario import Part, number

    class Odd(Part):
        """A field in steps of 5 from 1."""

        x: int = number(1, ge=1, le=21, step=5, label="X", help="x.")

    assert Odd.model_json_schema()["properties"]["x"]["enum"] == [1, 6, 11, 16, 21]


def _turn(*attacks):
    return {"system": "gurps-4e", "attacks": list(attacks)}


SHAPES = [
    # (a turn of attacks, whether the schema allows it): the edges of the three shapes a turn is
    # held to (GurpsScenario.schema_rules), and one step past each edge
    (_turn({"rof": 50, "hits": 50, "damage": "3d+5"}), True),  # one attack: small dice, any RoF
    (_turn({"rof": 11, "damage": "1d"}, {}), False),  # two attacks: RoF 10 at most
    (_turn(*[{"rof": 10, "hits": 10, "damage": "3d+5"}] * 4), True),
    (_turn({"rof": 4, "hits": 11, "damage": "1d"}, {}), False),  # two attacks: hits 10 at most
    (_turn(*[{"rof": 3, "hits": 3, "damage": "10d+10"}] * 4), True),
    (_turn({"rof": 4, "damage": "4d"}, {}), False),  # larger dice: RoF 3 at most
    (_turn({"rof": 3, "hits": 4, "damage": "4d"}, {}), False),  # larger dice: hits 3 at most
    (_turn({"rof": 3, "hits": 3, "damage": "11d"}, {}), False),  # 10 dice at most
]


@pytest.mark.parametrize("data, allowed", SHAPES)
def test_a_turn_is_held_to_three_shapes(data, allowed):
    """JSON Schema cannot multiply the attacks' sizes, so a turn is held to three shapes within
    the size limit (stricter than the scenario's check): each shape's edge is allowed and is a
    turn the scenario takes; a step past it is refused."""
    assert Draft202012Validator(_schema("gurps-4e")).is_valid(data) is allowed
    if allowed:
        load_scenario(data)
