"""The seed's two worked examples (Infinity N4 wiki, Dodge, Examples), exactly, with the hand
arithmetic in the comments; and the minus-three ruling that separates them."""

from __future__ import annotations

from fractions import Fraction

import pytest

from rules_core import ScenarioError, evaluate, find_preset, get_system, load_scenario, play_once
from rules_core.systems.infinity_n4.exact import dodge_headline
from rules_core.systems.infinity_n4.outcomes import DODGED, NO_HIT, NULL_STATE
from rules_core.systems.infinity_n4.play import plan_order
from rules_core.systems.infinity_n4.scenario import Attacker, Dodger, InfinityScenario, Template

SYSTEM = get_system("infinity-n4")

ENGAGE = "infinity-n4/zhanshi-dodges-to-engage"
MINE = "infinity-n4/zhanshi-mine-and-fusilier"


def fusilier_cannot_stop(d: int) -> int:
    """Rolls of three Fusilier dice (SV 15) that a non-critical dodge face d (SV 10) beats: each
    die fails (16..20, 5 faces) or shows less than d (d − 1 faces); 15 is a Critical."""
    return (5 + d - 1) ** 3


def test_presets_come_first_and_keep_the_foundation_one():
    from rules_core import get_system
    names = [p.name for p in get_system("infinity-n4").presets]
    assert names[:2] == ["zhanshi-dodges-to-engage", "zhanshi-mine-and-fusilier"]
    assert "zhanshi-vs-fusilier" in names


def test_first_example_zhanshi_dodges_and_engages():
    result = evaluate(find_preset(ENGAGE).scenario)
    # Faces 1..9 beat three SV 15 dice in sum_{d=1..9} (d+4)^3 rolls; face 10 is a Critical
    # that only a Fusilier Critical (face 15) cancels: 19^3. Over 20^4:
    # (5^3 + ... + 13^3) + 19^3 = (8281 − 100) + 6859 = 15040 → 15040 / 160000 = 47/500.
    by_hand = Fraction(sum(fusilier_cannot_stop(d) for d in range(1, 10)) + 19 ** 3, 20 ** 4)
    assert by_hand == Fraction(47, 500)
    assert result.headline["p_dodge_succeeds"] == by_hand
    final = result.distributions["final state"]
    assert final["Unharmed, dodged everything: moves into contact, Engaged"] == by_hand
    # The 2" move into contact is this preset's choice; the move itself is the same event.
    assert evaluate(find_preset("infinity-n4/zhanshi-vs-fusilier").scenario).headline[
        "p_dodge_succeeds"] == by_hand


def test_second_example_stacking_mine_avoided_only_on_1_to_4():
    scenario = find_preset(MINE).scenario
    assert scenario.minus_three == "stacking"
    plan = plan_order(scenario)
    fusilier, mine = plan.rolls
    assert (fusilier.sv_dodge, fusilier.sv_attack, mine.sv_dodge) == (10, 15, 10 - 6)
    # The one die against the mine alone: faces 1..4 succeed (4 is a Critical), 5..20 fail.
    fusilier_misses = [16, 17, 18]
    for face in range(1, 21):
        after_a_hit = [20, 9] if face > 4 else []  # the mine's Saving Roll, then the Guts die
        outcome = play_once(SYSTEM, scenario, faces=[face, *fusilier_misses, *after_a_hit])
        assert outcome.evasions[1] == (face <= 4), face
    result = evaluate(scenario)
    assert result.distributions["Mine"][DODGED] == Fraction(4, 20)


def test_second_example_the_seeds_roll_of_8():
    # "The Zhanshi avoids the Fusilier's shots by winning with his 8, but the Mine hits; he does
    # not move." Fusilier faces 6, 3, 17; the mine's AP Saving Roll 15 (no wound: ARM 1 halved
    # rounds up to 1, so 13 − 1 = 12), Guts die 9 (WIP 13: passed).
    outcome = play_once(SYSTEM, find_preset(MINE).scenario, faces=[8, 6, 3, 17, 15, 9])
    assert outcome.evasions == (True, False)        # the Fusilier dodged, the mine not
    assert outcome["Attacker 1"] == DODGED and outcome["Attacker 1: hits"] == 0
    assert outcome["Mine"] == "Template hits" and outcome["Mine: hits"] == 1
    assert outcome["Mine: wounds"] == 0
    assert outcome.dodged is False and outcome.outcome == "1 hit lands" and outcome.hits == 1
    assert outcome["final state"] == "Hit, passes the Guts Roll: stands its ground"
    assert not any(step.rule == "Movement" for step in outcome.trace)
    # Every die came through the roller, with its purpose, in the order the rule asked for it.
    assert [str(r) for r in outcome.rolled] == [
        "dodge die: 8", "Attacker 1: 6", "Attacker 1: 3", "Attacker 1: 17",
        "Saving Roll (Mine): 15", "Guts die: 9"]


def test_second_example_exact_fractions_under_stacking():
    result = evaluate(find_preset(MINE).scenario)
    # The die must beat the three Fusilier dice AND pass the mine's SV 4: faces 1..4 only,
    # none of them Critical against SV 10: sum_{d=1..4} (d+4)^3 = 125 + 216 + 343 + 512 = 1196.
    p_dodge = Fraction(sum(fusilier_cannot_stop(d) for d in range(1, 5)), 20 ** 4)
    assert p_dodge == Fraction(1196, 160000) == Fraction(299, 40000)
    assert result.headline["p_dodge_succeeds"] == p_dodge
    assert result.distributions["final state"]['Unharmed, dodged everything: moves up to 2"'] == p_dodge
    # Multiplying the two marginal chances would be wrong: the die is shared.
    assert Fraction(47, 500) * Fraction(4, 20) == Fraction(47, 2500) != p_dodge
    # No hit: faces 1..4 pass the mine, and each Fusilier die fails or does not beat d
    # (d faces up to and including d, a tie cancels): sum_{d=1..4} (d+5)^3 = 1800 → 9/800.
    p_no_hit = Fraction(sum((d + 5) ** 3 for d in range(1, 5)), 20 ** 4)
    assert p_no_hit == Fraction(9, 800) == result.headline["p_no_hit"]
    assert result.outcomes[NO_HIT] == p_no_hit - p_dodge
    # Hits add up linearly: E[Fusilier hits] = 9/5 (foundation) plus the mine's 16/20.
    assert result.headline["expected_hits"] == Fraction(9, 5) + Fraction(16, 20) == Fraction(13, 5)


def test_second_example_single_reading():
    scenario = find_preset(MINE).scenario.replace(minus_three="single")
    assert plan_order(scenario).rolls[1].sv_dodge == 7
    result = evaluate(scenario)
    # Faces 1..7 pass the mine (SV 7) and beat the Fusilier: sum_{d=1..7} (d+4)^3 =
    # (1^3 + ... + 11^3) − (1^3 + ... + 4^3) = 4356 − 100 = 4256 → 4256/160000 = 133/5000.
    assert result.headline["p_dodge_succeeds"] == Fraction(4256, 160000) == Fraction(133, 5000)
    stacked = evaluate(find_preset(MINE).scenario)
    # The ruling's difference: faces 5, 6, 7 → (9^3 + 10^3 + 11^3) / 20^4 = 3060/160000.
    assert result.headline["p_dodge_succeeds"] - stacked.headline["p_dodge_succeeds"] == \
        Fraction(9 ** 3 + 10 ** 3 + 11 ** 3, 20 ** 4)


@pytest.mark.parametrize("reading", ["single", "stacking"])
def test_minus_three_counts_circumstances(reading):
    # An Impact Template from an Active trooper inside ZoC, outside LoF: two circumstances;
    # a mine without LoF: two more. Single: one −3 each roll; stacking: −3 per circumstance.
    scenario = InfinityScenario(
        dodger=Dodger(ph=14), minus_three=reading,
        attackers=(Attacker(zoc_no_lof=True, template_no_lof=True), Attacker(zoc_no_lof=True)),
        template=Template(kind="deployable", lof=False))
    first, second, mine = plan_order(scenario).rolls
    assert first.sv_dodge == 14 + (-3 if reading == "single" else -6)
    assert second.sv_dodge == 14 - 3
    assert mine.sv_dodge == 14 + (-3 if reading == "single" else -6)
    text = "\n".join(map(str, evaluate(scenario).trace))
    assert f"Ruling minus-three: {reading}" in text


def test_no_circumstance_no_minus_three_and_the_cap_still_applies():
    scenario = InfinityScenario(dodger=Dodger(ph=10, mod=-10), minus_three="stacking",
                                attackers=(Attacker(),), template=Template(kind="deployable", lof=False))
    attacker, mine = plan_order(scenario).rolls
    assert attacker.sv_dodge == 0          # −10
    assert mine.sv_dodge == 10 - 12        # −10 −6 = −16, capped to −12
    assert evaluate(scenario).headline["p_dodge_succeeds"] == 0


def test_foundation_scenario_json_still_loads_and_gives_the_same_numbers():
    # A scenario written for the one-attacker foundation: only dodger and attackers.
    old = {"system": "infinity-n4", "dodger": {"ph": 10, "mod": 0},
           "attackers": [{"attribute": "BS", "value": 12, "mod": 3, "burst": 3}]}
    result = evaluate(load_scenario(old))
    assert (result.headline["p_dodge_succeeds"], result.headline["p_no_hit"],
            result.headline["expected_hits"]) == dodge_headline(10, 15, 3) == \
        (Fraction(47, 500), Fraction(401, 3200), Fraction(9, 5))
    assert result.outcomes[DODGED] == Fraction(47, 500)


def test_more_than_three_attackers_is_refused():
    with pytest.raises(ScenarioError, match=r"field 'attackers': .*a list of 1 to 3 entries"):
        load_scenario({"system": "infinity-n4", "attackers": [{}, {}, {}, {}]})


def test_null_needs_the_last_wound():
    # W 1 and a DAM 20 hit against ARM 0: every Saving Roll is a wound; Null iff hit.
    scenario = InfinityScenario(dodger=Dodger(ph=10, arm=0),
                                attackers=(Attacker(value=12, mod=3, burst=3, damage=20),))
    result = evaluate(scenario)
    assert result.headline["p_null"] == 1 - result.headline["p_no_hit"]
    assert result.distributions["final state"][NULL_STATE] == 1 - Fraction(401, 3200)
