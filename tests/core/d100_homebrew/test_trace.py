"""d100 homebrew, the trace's wording on typed d100 faces and in the result: each line says what
the rules text says happened (Evasion, Parry, Leap [Отскок], Disengage [Вольт], the Size gate)
and cites the paragraph it comes from."""

from __future__ import annotations

from rules_core import evaluate, play_once
from rules_core.systems.d100_homebrew import SYSTEM, Attack, D100Scenario, Defender


def scenario(*attacks: Attack, sizes_larger: int = 0, **defender) -> D100Scenario:
    return D100Scenario(defender=Defender(**defender), attacks=attacks, sizes_larger=sizes_larger)


def lines(sc: D100Scenario, *faces: int) -> list[tuple[str, str, str]]:
    """The trace of the play on these faces, as (rule, detail, citation)."""
    return [(s.rule, s.detail, s.citation) for s in play_once(SYSTEM, sc, faces=list(faces)).trace]


def test_a_spent_leap_budget_leaves_an_attack_on_the_whole_base_unevaded():
    # Leap ¶2: Leaps in a Round together may not exceed SPD metres. SPD 3, two Blasts each needing
    # a 3 m Leap: after the first Leap nothing is left for the second.
    blast = Attack(hits=1, covers_whole_base=True, leap="out_of_reach", leap_distance=3)
    trace = lines(scenario(blast, blast, agility=45, spd=3, reactions=2), 10)
    assert ("No Evasion roll against attack 2",
            "the Round's Leap budget is spent (3 of 3 m), and only a Leap can dodge an attack covering the whole Base",
            "d100 homebrew, Evasion › Leap [Отскок], ¶2") in trace


def test_a_blocked_attack_gives_its_own_reason():
    # Parry ¶2: Parry works only against melee attacks, including shots fired in melee.
    shot = Attack(kind="shooting", hits=1, evasion="parry")
    trace = lines(scenario(shot, Attack(hits=1), agility=45, weapon_skill=50, reactions=2), 10)
    assert trace[0] == ("No Evasion roll against attack 1",
                        "Parry works only against melee attacks and shots fired in melee",
                        "d100 homebrew, Evasion › Parry [Парирование], ¶1–2")


def test_a_parry_roll_cites_the_parry_rule():
    trace = lines(scenario(Attack(kind="melee", hits=2, evasion="parry"), weapon_skill=50), 10)
    assert trace[0] == ("Parry against attack 1", "rolled 10 against 50: 5 Successes",
                        "d100 homebrew, Evasion › Parry [Парирование], ¶1–2")


def test_a_leap_into_cover_and_a_leap_out_of_reach_say_what_becomes_of_the_hits():
    # Leap ¶1: into Cover, the hits land with the Cover's AP; out of reach, they are negated.
    sc = scenario(Attack(hits=2, leap="cover"), Attack(hits=3, leap="out_of_reach"), agility=45, reactions=2,
                  unspent_ap=1)
    leaps = [detail for rule, detail, _ in lines(sc, 10, 20) if rule == "Leap [Отскок]"]
    assert leaps == ["a Leap of 2 m into Cover: 2 hits of attack 1 land against the Cover's AP",
                     "a Leap of 2 m out of the reach of attack 2: 3 hits negated"]


def test_a_leap_out_of_melee_while_the_free_attackers_evade_is_no_disengage():
    # Leap ¶1: a Leap out of melee counts as a Disengage [Вольт], unless every enemy able to make
    # Free Attacks is also trying to Evade this attack.
    sc = scenario(Attack(kind="shot_in_melee", hits=1, leap="cover", free_attackers_evade=True), agility=45,
                  engaged_in_melee=True)
    melee = [detail for _, detail, _ in lines(sc, 10) if "out of melee" in detail]
    assert melee == ["the Leap out of melee is no Disengage: every enemy able to make Free Attacks also "
                     "evades this attack"]


def test_the_size_gate_is_said_passed_only_for_a_parry_it_lets_through():
    # Parry ¶3: an attacker 1 Size larger needs the Parry advanced to +10; 4 or more, impossible.
    def attack_lines(**args) -> list[str]:
        r = evaluate(scenario(Attack(kind="melee", hits=1, evasion="parry"), Attack(kind="melee", hits=1),
                              weapon_skill=40, agility=40, reactions=2, **args))
        return [s.detail for s in r.trace if s.rule in ("Attack 1", "Attack 2")]

    parry, dodge = attack_lines(sizes_larger=1, parry_advance=10)
    assert parry.endswith("; Size gate passed: +10 advance against an attacker 1 Size larger (+10 needed)")
    assert "Size" not in dodge  # Size gates a Parry only
    parry, dodge = attack_lines(sizes_larger=4, parry_advance=30)
    assert parry.endswith("; no Evasion roll: Parry impossible: the attacker is 4 Sizes larger (4 or more)")
    assert "Size gate" not in dodge
