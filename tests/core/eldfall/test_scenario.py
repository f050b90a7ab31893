"""Eldfall Chronicles' declared fields (``scenario.py``): bad input names its field, what was
given and what is allowed."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from rules_core import ScenarioError, get_system, load_scenario
from strategies import data_strategy

ELDFALL = get_system("eldfall")


@pytest.mark.parametrize("data, message", [
    ({"attackers": [{"stk": 7}]}, "field 'attackers.0.stk': got 7; allowed: a whole number from 1 to 6"),
    ({"attackers": [{"cover": "partial"}]}, "field 'attackers.0.cover': got 'partial'; allowed: one of 'none', 'light', 'heavy'"),
    ({"defender": {"reaction": "parry"}}, "field 'defender.reaction': got 'parry'; allowed: one of 'dodge', 'ward', 'none'"),
    ({"defender": {"ag": -1}}, "field 'defender.ag': got -1; allowed: a whole number from 0 to 30"),
    ({"attackers": []}, "field 'attackers': got []; allowed: a list of 1 to 4"),
    ({"attackers": [{}] * 5}, "field 'attackers'"),
    ({"dodge_resolution": "opposed"}, "field 'dodge_resolution': got 'opposed'; allowed: one of 'independent', 'compared'"),
    ({"second_model": {"ag": 3}}, "field 'second_model.ag': got 3; allowed: no such field; known fields: arm, size"),
    ({"attackers": [{"burn": "two"}]}, "field 'attackers.0.burn'"),
    ({"attackers": [{"los": "maybe"}]}, "field 'attackers.0.los'"),
])
def test_bad_input_names_the_field(data, message):
    with pytest.raises(ScenarioError) as err:
        load_scenario({"system": "eldfall", **data})
    assert message in str(err.value)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data_strategy(ELDFALL.scenario_cls, {"attackers": (1, 2)}), st.sampled_from([
    ("attackers", 0, "stk", 0), ("attackers", 0, "value", 31), ("attackers", 0, "burn", 5),
    ("attackers", 0, "cover", "total"), ("attackers", 0, "sweep", "maybe"), ("defender", "arm", -1),
    ("defender", "reaction", "parry"), ("second_model", "arm", 21), ("post_dodge_move", "anywhere"),
    ("defender", "spd", 2.5)]))
def test_invalid_values_name_their_field(data, bad):
    data = {"system": "eldfall", **data}
    *path, value = bad
    node = data
    for step in path[:-1]:
        node = node[step]
    node[path[-1]] = value
    name = ".".join(str(p) for p in path)
    with pytest.raises(ScenarioError) as err:
        load_scenario(data)
    assert name in [p.field for p in err.value.problems], str(err.value)
