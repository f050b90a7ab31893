"""GURPS 4e fuzzing: random valid scenarios evaluate to exact distributions summing to 1 with
consistent headlines; random in-range data is either valid or refused naming its fields; and a
single field pushed out of its range is refused naming exactly that field."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules_core import ScenarioError, evaluate, load_scenario
from rules_core.scenario import fields_of
from rules_core.systems.gurps import SYSTEM, GurpsScenario
from rules_core.systems.gurps.dice import DamageDice

TYPES = ["pi-", "pi", "pi+", "pi++", "cut", "imp", "cr", "burn", "cor", "tox"]
DIVISORS = ["1", "2", "3", "5", "10", "100", "0.5", "0.2", "0.1"]
SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])

dice = st.builds(lambda n, a, m: str(DamageDice(n, a, m)), st.integers(1, 3), st.integers(-3, 4),
                 st.sampled_from([1, 1, 1, 2]))


def attack(kind):
    return st.fixed_dictionaries({
        "kind": kind, "hits_by": st.sampled_from(["roll", "fixed"]), "skill": st.integers(3, 30),
        "rof": st.integers(1, 6), "recoil": st.integers(1, 4), "hits": st.integers(1, 4), "damage": dice,
        "damage_type": st.sampled_from(TYPES), "divisor": st.sampled_from(DIVISORS)})


@st.composite
def valid_scenarios(draw):
    situation = draw(st.sampled_from(["attacks", "sacrificial", "smother", "dive"]))
    defense = draw(st.sampled_from(["none", "plain", "retreat", "dodge_and_drop"] if situation == "attacks"
                                   else ["plain", "dodge_and_drop"]))
    kind = {"retreat": "melee", "dodge_and_drop": "ranged"}.get(defense) or draw(st.sampled_from(["ranged", "melee"]))
    attacks = draw(st.lists(attack(st.just(kind)), min_size=1, max_size=3 if situation == "attacks" else 1))
    hp = draw(st.integers(1, 30))
    fp = draw(st.integers(1, 30))
    dropping = situation in ("smother", "dive") or defense == "dodge_and_drop"
    flying = draw(st.booleans())
    return {
        "system": "gurps-4e", "situation": situation,
        "dodger": {"basic_speed": draw(st.integers(4, 80)) / 4,
                   "encumbrance": draw(st.sampled_from(["none", "light", "medium", "heavy", "extra-heavy"])),
                   "posture": draw(st.sampled_from(["standing", "crouching", "kneeling", "sitting"] +
                                                   ([] if dropping else ["crawling", "lying"]))),
                   "defense": defense, "acrobatic": defense != "none" and draw(st.booleans()),
                   "acrobatics": draw(st.integers(3, 30)), "shield_db": draw(st.integers(0, 4)),
                   "modifier": draw(st.integers(-10, 10)), "flying": flying, "below_terrain": flying},
        "target": {"dr": draw(st.integers(0, 12)), "flexible": draw(st.booleans()),
                   "location": draw(st.sampled_from(["torso", "limb"])), "hp": hp,
                   "hp_left": draw(st.integers(1, hp)), "fp": fp, "fp_left": draw(st.integers(1, fp))},
        "attacks": attacks,
        "cover": {"kind": draw(st.sampled_from(["none", "dr", "full"])), "dr": draw(st.integers(0, 10))},
        "blast": {"damage": draw(dice), "damage_type": draw(st.sampled_from(["cr", "burn", "cut"])),
                  "spread": "explosion" if situation == "smother" else draw(st.sampled_from(["explosion", "area"])),
                  "distance": draw(st.integers(0, 1 if situation == "smother" else 8))},
        "friend": {"defends": draw(st.booleans()), "defense": draw(st.integers(0, 16)),
                   "dr": draw(st.integers(0, 6)), "flexible": draw(st.booleans()), "hp": draw(st.integers(1, 20)),
                   "distance": draw(st.integers(1, 8))},
        **{spec.name: draw(st.sampled_from([v for v, _ in spec.choices])) for spec in SYSTEM.rulings()},
    }


def check_result(scenario: GurpsScenario) -> None:
    r = evaluate(scenario)
    assert sum(p for _, p in r.outcome_rows()) == 1
    assert r.hits[0] == r.headline["p_no_hit"] and r.hits.mean() == r.headline["expected_hits"]
    injury = r.distributions["injury"]
    assert min(injury.outcomes()) >= 0 and injury.mean() == r.headline["expected_injury"]
    for key, value in r.headline.items():
        assert value is not None or r.notes[key]
        if key.startswith("p_") and value is not None:
            assert 0 <= value <= 1, key
    if scenario.situation == "attacks":
        most = sum(a.rof if a.hits_by == "roll" else a.hits for a in scenario.attacks)
        assert max(r.hits.outcomes()) <= most
        assert r.distributions["hits_dodged"].mean() + r.hits.mean() <= most


@SETTINGS
@given(valid_scenarios())
def test_valid_scenarios_evaluate_exactly(data):
    check_result(load_scenario(data))


@SETTINGS
@given(st.data())
def test_in_range_data_is_valid_or_refused_naming_fields(data):
    # Every field within its own range, but combined at random (a retreat against a ranged attack,
    # a dodge and drop while lying down ...): either it evaluates or each problem names a field.
    raw = data.draw(valid_scenarios())
    raw["dodger"]["defense"] = data.draw(st.sampled_from(["none", "plain", "retreat", "dodge_and_drop"]))
    raw["dodger"]["posture"] = data.draw(st.sampled_from(["standing", "lying", "crawling"]))
    raw["dodger"]["below_terrain"] = data.draw(st.booleans())
    raw["target"]["location"] = data.draw(st.sampled_from(["torso", "vitals", "limb"]))
    raw["blast"]["distance"] = data.draw(st.integers(0, 8))
    raw["attacks"] = data.draw(st.lists(attack(st.sampled_from(["ranged", "melee"])), min_size=1, max_size=2))
    try:
        scenario = load_scenario(raw)
    except ScenarioError as err:
        assert err.problems
        for problem in err.problems:
            head = problem.field.split(".")[0]
            assert head in raw and problem.allowed, str(err)
        return
    check_result(scenario)


def numeric_paths(cls, prefix=()):
    """(path, FieldSpec) of every number field, through parts (first item of a list)."""
    for spec in fields_of(cls):
        if spec.kind in ("int", "float"):
            yield prefix + (spec.name,), spec
        elif spec.kind == "part":
            yield from numeric_paths(spec.part_cls, prefix + (spec.name,))
        elif spec.kind == "parts":
            yield from numeric_paths(spec.part_cls, prefix + (spec.name, 0))


NUMBERS = list(numeric_paths(GurpsScenario))


@settings(max_examples=80, deadline=None)
@given(st.sampled_from(NUMBERS), st.sampled_from(["below", "above", "text", "bool"]))
def test_one_field_out_of_range_is_named(path_spec, how):
    path, spec = path_spec
    data = GurpsScenario().to_data()
    value = {"below": spec.minimum - 1, "above": spec.maximum + 1, "text": "seven", "bool": [True]}[how]
    node = data
    for step in path[:-1]:
        node = node[step]
    node[path[-1]] = value
    try:
        load_scenario(data)
    except ScenarioError as err:
        assert ".".join(map(str, path)) in [p.field for p in err.problems], str(err)
    else:
        raise AssertionError(f"{path} = {value!r} was accepted")


def test_a_fraction_is_never_a_float():
    r = evaluate(GurpsScenario())
    assert all(isinstance(v, Fraction) for v in r.headline.values() if v is not None)
