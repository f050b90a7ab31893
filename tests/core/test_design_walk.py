"""The walk a designer's rule is evaluated by (rules_core.walk) gives exactly what the plain
walk gives (rules_core.enumerate_play with every hint ignored: every face of every die followed),
on every example rule the project ships and on rules drawn by hypothesis; and ``face_kind``, the
hint that walks a pool by kinds of faces, is proven on its own against a count of every roll."""

from __future__ import annotations

import json
from bisect import bisect_right
from fractions import Fraction
from itertools import product
from pathlib import Path
from typing import Literal

import pytest
from hypothesis import HealthCheck, assume, given, settings, strategies as st

from example_rule import SYSTEM as EXAMPLE
from rules_core import Dice, Play, Scenario, TooManyPlays, enumerate_play, number, rule, unregister
from rules_core.design import LIMIT
from rules_core.play import headlines_of
from rules_core.walk import walk
from strategies import data_strategy

ROOT = Path(__file__).resolve().parents[2]


def the_walks_agree(system, scenario) -> None:
    """The fast walk's plays, and every part of ``evaluate``, equal the plain walk's."""
    plain = enumerate_play(system, scenario, classify=False)
    assert walk(system.id, system.play.play, system.play.outcomes, scenario, LIMIT) == plain
    result = system.evaluate(scenario)
    assert result.outcomes == plain.map(lambda p: p.outcome)
    assert result.hits == plain.map(lambda p: p.hits)
    assert dict(result.headline) == headlines_of(system, scenario, plain)
    for name, dist in result.distributions.items():
        assert dist == plain.map(lambda p, name=name: dict(p.quantities).get(name)), name


# -- the example rules the project ships ----------------------------------------------------------

def _notebook_rule():
    """Duck and Weave, the rule notebooks/design-a-rule.ipynb builds: its cells up to the rule,
    run as the notebook runs them (then taken out of the registry)."""
    cells = [c for c in json.loads((ROOT / "notebooks" / "design-a-rule.ipynb").read_text())["cells"]
             if c["cell_type"] == "code"]
    names: dict = {}
    for cell in cells:
        exec("".join(cell["source"]), names)
        if "DUCK" in names:
            unregister(names["DUCK"].id)
            return names["DUCK"]
    raise AssertionError("the notebook defines no DUCK")


def _shipped():
    from benchmarks import bench_design
    return {"my-2d10": EXAMPLE, "duck-and-weave": _notebook_rule(), "4d20 pool, classify": bench_design.POOL,
            "4d20 pool, face_kind": bench_design.POOL_BY_KIND, "my-2d10, exact": bench_design.TWO_D10_EXACT}


SHIPPED = _shipped()
#: Scenarios small enough for the plain walk (every face of every die) to be quick.
BOUNDS = {"agility": (1, 4), "dice": (1, 3)}


@pytest.mark.parametrize("name", SHIPPED)
def test_every_shipped_rule_on_its_defaults_and_presets(name):
    system = SHIPPED[name]
    for scenario in [system.scenario_cls(), *(p.scenario for p in system.presets)]:
        the_walks_agree(system, scenario)


@pytest.mark.parametrize("name", SHIPPED)
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_every_shipped_rule_on_drawn_scenarios(name, data):
    system = SHIPPED[name]
    raw = data.draw(data_strategy(system.scenario_cls, BOUNDS))
    the_walks_agree(system, system.scenario_cls.model_validate(raw))


# -- rules drawn by hypothesis ---------------------------------------------------------------------

class Drawn(Scenario):
    system: Literal["drawn-rule"] = "drawn-rule"
    hits: int = number(3, ge=1, le=6, label="Hits", help="Hits coming in.")


@st.composite
def requests(draw):
    """One request of a drawn rule: its dice, how the rule reads them (each face by its kind,
    the kinds cut at ``cuts``, worth ``worth`` each), and which hints it declares (always true)."""
    sides = draw(st.integers(2, 7))
    total = draw(st.booleans())
    cuts = sorted(draw(st.sets(st.integers(2, sides), max_size=3)))
    return {"sides": sides, "count": draw(st.integers(1, 3)), "total": total, "ordered": draw(st.booleans()),
            "cuts": cuts, "worth": draw(st.lists(st.integers(-1, 2), min_size=len(cuts) + 1, max_size=len(cuts) + 1)),
            "classify": draw(st.booleans()), "face_kind": not total and draw(st.booleans()),
            "by_place": draw(st.booleans()), "more_when": draw(st.integers(-2, 4))}


def drawn_rule(spec: list[dict]):
    """A rule rolling the drawn requests in turn (a later one only while the value so far is at
    most its ``more_when``, and as many dice as that value allows), read through kinds of faces."""
    def play(s, roller):
        value = 0
        for i, r in enumerate(spec):
            if i and value > r["more_when"]:
                break
            count = r["count"] if not i else 1 + abs(value) % r["count"]

            def kind(face, r=r):
                return bisect_right(r["cuts"], face)

            def read(answer, r=r):
                if r["total"]:
                    return r["worth"][kind(answer % (r["sides"] + 1))]
                faces = answer if isinstance(answer, tuple) else (answer,)
                return sum(r["worth"][kind(f)] * (place + 1 if r["by_place"] and r["ordered"] else 1)
                           for place, f in enumerate(faces))
            hints = {"classify": read} if r["classify"] else {}
            if r["face_kind"]:
                hints["face_kind"] = kind
            value += read(roller.roll(Dice(f"roll {i + 1}", r["sides"], count, total=r["total"],
                                           ordered=r["ordered"], **hints)))
        left = max(0, s.hits - max(0, value))
        return Play("dodged" if left == 0 else "hit", left, evasions=(value > 0,), quantities={"value": value})
    return rule("drawn-rule", "Drawn", Drawn, play, outcomes=("dodged", "hit"))


def plain_size(spec: list[dict]) -> int:
    """The most plays the plain walk of a drawn rule can take (every face of every die)."""
    size = 1
    for r in spec:
        size *= r["sides"] ** r["count"]
    return size


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(spec=st.lists(requests(), min_size=1, max_size=3), hits=st.integers(1, 6))
def test_drawn_rules(spec, hits):
    assume(plain_size(spec) <= 5_000)
    the_walks_agree(drawn_rule(spec), Drawn(hits=hits))


# -- face_kind on its own --------------------------------------------------------------------------

def _pool_rule(count: int, sides: int, kind, **more):
    def play(s, roller):
        pool = roller.roll(Dice("Pool", sides=sides, count=count, ordered=False, face_kind=kind, **more))
        read = tuple(kind(f) for f in pool)
        return Play("ok", 0, evasions=(True,), quantities={"kinds": tuple(sorted(read))})
    return rule("drawn-rule", "Pool", Drawn, play, outcomes=("ok",))


def test_a_pool_walked_by_kinds_weighs_each_multiset_of_kinds_by_every_roll_giving_it():
    """3d6 read as low (1-2), middle (3-5) or six: the chance of each multiset of kinds counted
    over all 216 ordered rolls, sharing nothing with the walk but the faces."""
    def kind(face):
        return "low" if face <= 2 else "six" if face == 6 else "middle"
    counted: dict = {}
    for roll in product(range(1, 7), repeat=3):
        key = tuple(sorted(kind(f) for f in roll))
        counted[key] = counted.get(key, 0) + 1
    result = _pool_rule(3, 6, kind).evaluate(Drawn())
    assert {k: result.distributions["kinds"][k] for k in counted} == {k: Fraction(n, 216) for k, n in counted.items()}
    assert len(result.distributions["kinds"]) == 10  # 3 kinds, 3 dice: 10 multisets


def test_a_large_pool_by_kinds_is_walked_where_its_faces_are_too_many():
    """30d20 has 47 trillion pools; read as over, under or on 12 it has 496 multisets of kinds."""
    def kind(face):
        return (face > 12) - (face < 12)
    result = _pool_rule(30, 20, kind).evaluate(Drawn())
    none_over = result.distributions["kinds"].probability(lambda kinds: 1 not in kinds)
    assert none_over == Fraction(12, 20) ** 30
    with pytest.raises(TooManyPlays, match="face_kind"):
        _pool_rule(30, 20, lambda face: face).evaluate(Drawn())


def test_face_kind_is_refused_on_a_total():
    with pytest.raises(ValueError, match="reads only the total of these dice; group totals with classify"):
        Dice("Damage", sides=6, count=3, total=True, face_kind=lambda f: f > 3)
