"""GURPS traces read line by line. On typed faces, a dive for cover (B377): the dodge and drop
roll, reaching complete cover, a step that leaves the blast's reach (B414: out to 2 yards per
die), the injury steps exactly when the dodger is struck, and what being caught would have done —
said only when he was not caught. In the result, every preset and the other readings of the
rulings: the Dodge arithmetic, the attack, the rulings in the player's words, each with a citation."""

from __future__ import annotations

import pytest

from rules_core import evaluate, find_preset, play_once
from rules_core.systems.gurps_4e import SYSTEM, Blast, Cover, GurpsScenario
from rules_core.systems.gurps_4e import sources as cite
from rules_core.systems.gurps_4e.damage import Hit, injury, parse_damage

DODGE_CRIT = [1, 1, 1]   # 3 on 3d6: a critical success
DODGE_FAILS = [6, 6, 6]  # 18: a critical failure


def lines(scenario: GurpsScenario, faces: list[int]) -> list[tuple[str, str, str]]:
    return [(s.rule, s.detail, s.citation) for s in play_once(SYSTEM, scenario, faces=faces).trace]


def test_a_dive_into_a_trench_step_by_step():
    # Dodge 12 (Basic Speed 6 + 3, dodge and drop + 3); the 6d blast, all 6s, would have done
    # 36 ÷ (3 × 2 yards) = 6 where he stood.
    trench = find_preset("gurps-4e/dive-into-a-trench").scenario
    played = play_once(SYSTEM, trench, faces=DODGE_CRIT + [6] * 6)
    assert [r.dice.purpose for r in played.rolled] == ["Diving for cover", "blast damage to the dodger"]
    assert [(s.rule, s.detail, s.citation) for s in played.trace] == [
        ("Diving for cover", "roll 3 vs 12: critical success, margin +9 → avoids 1 of 1", cite.RAPID_DODGE),
        ("Diving for cover", "the dodger reaches complete cover in time", cite.DIVE),
        ("Had he been caught", "where he stood, the same dice would have done 6", cite.DIVE)]


def test_a_step_out_of_the_blasts_reach_takes_no_injury_steps():
    # 2d reaches 4 yards; the dodger at 4 yards steps to 5, beyond it. Where he stood, 12 ÷ 12 = 1.
    far = GurpsScenario(situation="dive", blast=Blast(damage="2d", distance=4))
    assert lines(far, DODGE_CRIT + [6, 6]) == [
        ("Diving for cover", "roll 3 vs 12: critical success, margin +9 → avoids 1 of 1", cite.RAPID_DODGE),
        ("Blast", "5 yards is beyond its reach", cite.EXPLOSION),
        ("Had he been caught", "where he stood, the same dice would have done 1", cite.DIVE)]


def test_reaching_cover_with_dr_shows_the_injury_it_lets_through():
    # 2d at 1 yard, all 6s: 12 ÷ 3 = 4, cover DR 1 stops 1, 3 crushing to the torso: injury 3.
    behind = GurpsScenario(situation="dive", blast=Blast(damage="2d", distance=1), cover=Cover(kind="dr", dr=1))
    played = play_once(SYSTEM, behind, faces=DODGE_CRIT + [6, 6])
    assert played["injury"] == 3 and played["injury_if_caught"] == 4
    assert [s.rule for s in played.trace] == ["Diving for cover", "Basic damage", "Explosion at a distance",
                                              "Cover", "DR", "Wounding modifier", "Had he been caught"]
    assert played.trace[3].detail == "cover DR 1 stops 1; 3 reaches the target"


def test_caught_before_the_step_says_nothing_of_being_caught():
    caught = GurpsScenario(situation="dive", blast=Blast(damage="2d", distance=1))
    rules = [rule for rule, _, _ in lines(caught, DODGE_FAILS + [6, 6])]
    assert rules == ["Diving for cover", "Basic damage", "Explosion at a distance", "DR", "Wounding modifier"]


# -- the result's trace: every preset, and the other readings of the rulings -------------------------
# Each line read against the Basic Set: Dodge = Basic Speed, fractions dropped, + 3 (B374), less
# encumbrance (B17), halved below 1/3 HP (B419); dodge and drop + 3 (B377), prone − 3 to defend and
# − 2 to be hit at range, kneeling − 2 and − 2 (B551); a shield's DB (B374); RoF 10 gives + 2 (B373).

P = {p.name: p.scenario for p in SYSTEM.presets}
VARIANTS = {
    # Dodge 6 + 3 − 2 (medium) = 7, halved at 3 HP of 10 to 4; kneeling − 2, DB + 2, − 1 other.
    "drop behind cover, carry prone_only, kneeling, medium load, low HP": P["drop-behind-cover"].replace(
        carry="prone_only", crit_hit="first", crit_dodge="all",
        **{"dodger.posture": "kneeling", "dodger.encumbrance": "medium", "target.hp_left": 3, "dodger.shield_db": 2,
           "dodger.modifier": -1}),
    # A flyer drops below a hillcrest: the + 3, never prone.
    "drop behind cover, carry bonus_only, flying": P["drop-behind-cover"].replace(
        carry="bonus_only", **{"dodger.flying": True, "dodger.below_terrain": True}),
    "grenade, maximum damage": P["throw-yourself-on-a-grenade"].replace(smother_damage="maximum"),
}

TRACES = {
    "sword-2d1-cut-vs-dr3": [
        ('Situation',
         '1 attack(s) from one foe this turn, in order; defense: none'),
        ("Ruling: Dodge and drop against the foe's later attacks",
         'both — Both: the +3 applies to every defense against that foe this turn (B377), and prone '
         'gives −3 to those defenses and −2 to his ranged attacks (B551)'),
        ('Ruling: Critical success on a Dodge against rapid fire',
         'margin — By margin: like any success, one hit plus one per point of margin (B375 as written)'),
        ('Ruling: Critical hit with rapid fire',
         'all — All its hits: no defense against any of them'),
        ('Dodge',
         'Basic Speed 6, fractions dropped: 6, + 3 = 9'),
        ('Attack 1: Hits',
         '1 hit(s) reach the dodger (no attack roll)'),
        ('Attack 1: No defense',
         'the dodger makes no active defense'),
        ('Attack 1: Injury per hit',
         '(2d+1 cut − DR 3) × 1.5 (cut, torso), round down, at least 1 if anything penetrates'),
        ('Critical success and failure',
         '3-4 always succeed (critical), 5 at 15+, 6 at 16+; 17-18 always fail; 18 fails critically, '
         '17 at 15 or less, and any roll 10+ over the score'),
    ],
    "rapid-fire-dodge-and-drop": [
        ('Situation',
         '1 attack(s) from one foe this turn, in order; defense: dodge_and_drop'),
        ("Ruling: Dodge and drop against the foe's later attacks",
         'both — Both: the +3 applies to every defense against that foe this turn (B377), and prone '
         'gives −3 to those defenses and −2 to his ranged attacks (B551)'),
        ('Ruling: Critical success on a Dodge against rapid fire',
         'margin — By margin: like any success, one hit plus one per point of margin (B375 as written)'),
        ('Ruling: Critical hit with rapid fire',
         'all — All its hits: no defense against any of them'),
        ('Dodge',
         'Basic Speed 6, fractions dropped: 6, + 3 = 9'),
        ('Attack 1: Attack roll',
         'ranged, effective skill 12'),
        ('Attack 1: Rapid-fire bonus',
         'RoF 10: +2 → 14'),
        ('Attack 1: Rapid fire',
         'hits = 1 + ⌊margin / Recoil 2⌋, at most RoF 10'),
        ('Attack 1: Dodge and drop',
         '+3 (ranged or blast; the dodger drops and ends prone) → 12'),
        ('Attack 1: Effective Dodge',
         '12 against this ranged attack'),
        ('Attack 1: Injury per hit',
         '(3d+2 pi+ − DR 6) × 1.5 (pi+, torso), round down, at least 1 if anything penetrates'),
        ('Dodging rapid fire',
         'a successful Dodge avoids one hit plus one per point of margin, at most the hits that '
         'arrived'),
        ('Critical success and failure',
         '3-4 always succeed (critical), 5 at 15+, 6 at 16+; 17-18 always fail; 18 fails critically, '
         '17 at 15 or less, and any roll 10+ over the score'),
    ],
    "drop-behind-cover": [
        ('Situation',
         '3 attack(s) from one foe this turn, in order; defense: dodge_and_drop'),
        ("Ruling: Dodge and drop against the foe's later attacks",
         'both — Both: the +3 applies to every defense against that foe this turn (B377), and prone '
         'gives −3 to those defenses and −2 to his ranged attacks (B551)'),
        ('Ruling: Critical success on a Dodge against rapid fire',
         'margin — By margin: like any success, one hit plus one per point of margin (B375 as written)'),
        ('Ruling: Critical hit with rapid fire',
         'all — All its hits: no defense against any of them'),
        ('Dodge',
         'Basic Speed 6, fractions dropped: 6, + 3 = 9'),
        ('Attack 1: Attack roll',
         'ranged, effective skill 13'),
        ('Attack 1: Dodge and drop',
         '+3 (ranged or blast; the dodger drops and ends prone) → 12'),
        ('Attack 1: Effective Dodge',
         '12 against this ranged attack'),
        ('Attack 1: Injury per hit',
         '(5d pi − DR 2) × 1 (pi, torso), round down, at least 1 if anything penetrates'),
        ('Attack 2: Attack roll',
         'ranged, effective skill 13'),
        ('Attack 2: Dodge and drop',
         '+3 (ranged or blast; the dodger drops and ends prone) → 12'),
        ('Attack 2: Effective Dodge',
         '12 against this ranged attack'),
        ('Attack 2: Injury per hit',
         '(5d pi − DR 2) × 1 (pi, torso), round down, at least 1 if anything penetrates'),
        ('Attack 2 after the dodge and drop: Attack roll',
         'ranged, effective skill 13'),
        ("Attack 2 after the dodge and drop: Target's posture",
         '-2 (prone after the dodge and drop) → 11'),
        ('Attack 2 after the dodge and drop: Dodge and drop, carried',
         '+3 (ruling carry = both: the +3 applies to all defenses against this foe this turn) → 12'),
        ('Attack 2 after the dodge and drop: Posture',
         '-3 (prone after the dodge and drop) → 9'),
        ('Attack 2 after the dodge and drop: Effective Dodge',
         '9 against this ranged attack'),
        ('Attack 2 after the dodge and drop: Cover',
         'cover DR 8 protects against this later attack'),
        ('Attack 2 after the dodge and drop: Injury per hit',
         '(5d pi − cover DR 8 − DR 2) × 1 (pi, torso), round down, at least 1 if anything penetrates'),
        ('Attack 3: Attack roll',
         'ranged, effective skill 13'),
        ('Attack 3: Dodge and drop',
         '+3 (ranged or blast; the dodger drops and ends prone) → 12'),
        ('Attack 3: Effective Dodge',
         '12 against this ranged attack'),
        ('Attack 3: Injury per hit',
         '(5d pi − DR 2) × 1 (pi, torso), round down, at least 1 if anything penetrates'),
        ('Attack 3 after the dodge and drop: Attack roll',
         'ranged, effective skill 13'),
        ("Attack 3 after the dodge and drop: Target's posture",
         '-2 (prone after the dodge and drop) → 11'),
        ('Attack 3 after the dodge and drop: Dodge and drop, carried',
         '+3 (ruling carry = both: the +3 applies to all defenses against this foe this turn) → 12'),
        ('Attack 3 after the dodge and drop: Posture',
         '-3 (prone after the dodge and drop) → 9'),
        ('Attack 3 after the dodge and drop: Effective Dodge',
         '9 against this ranged attack'),
        ('Attack 3 after the dodge and drop: Cover',
         'cover DR 8 protects against this later attack'),
        ('Attack 3 after the dodge and drop: Injury per hit',
         '(5d pi − cover DR 8 − DR 2) × 1 (pi, torso), round down, at least 1 if anything penetrates'),
        ('Critical success and failure',
         '3-4 always succeed (critical), 5 at 15+, 6 at 16+; 17-18 always fail; 18 fails critically, '
         '17 at 15 or less, and any roll 10+ over the score'),
    ],
    "acrobatic-retreat": [
        ('Situation',
         '1 attack(s) from one foe this turn, in order; defense: retreat'),
        ("Ruling: Dodge and drop against the foe's later attacks",
         'both — Both: the +3 applies to every defense against that foe this turn (B377), and prone '
         'gives −3 to those defenses and −2 to his ranged attacks (B551)'),
        ('Ruling: Critical success on a Dodge against rapid fire',
         'margin — By margin: like any success, one hit plus one per point of margin (B375 as written)'),
        ('Ruling: Critical hit with rapid fire',
         'all — All its hits: no defense against any of them'),
        ('Dodge',
         'Basic Speed 6, fractions dropped: 6, + 3 = 9'),
        ('Attack 1: Attack roll',
         'melee, effective skill 14'),
        ('Attack 1: Retreat',
         '+3 (against melee; every defense against this foe this turn) → 12'),
        ('Attack 1: Effective Dodge',
         '12 against this melee attack'),
        ('Attack 1: Acrobatic dodge',
         'Acrobatics 13 rolled first: +2 to this Dodge on a success, −2 on a failure'),
        ('Attack 1: Injury per hit',
         '(1d+3 imp − DR 2) × 2 (imp, torso), round down, at least 1 if anything penetrates; blunt '
         'trauma 1 per full 10 stopped when nothing penetrates'),
        ('Critical success and failure',
         '3-4 always succeed (critical), 5 at 15+, 6 at 16+; 17-18 always fail; 18 fails critically, '
         '17 at 15 or less, and any roll 10+ over the score'),
    ],
    "sacrificial-dodge-and-drop": [
        ('Situation',
         'the attack is aimed at a friend a step away; the dodger tries a sacrificial dodge and drop'),
        ('Ruling: Critical success on a Dodge against rapid fire',
         'margin — By margin: like any success, one hit plus one per point of margin (B375 as written)'),
        ('Ruling: Critical hit with rapid fire',
         'all — All its hits: no defense against any of them'),
        ('Dodge',
         'Basic Speed 6, fractions dropped: 6, + 3 = 9'),
        ('Attack: Attack roll',
         'ranged, effective skill 13'),
        ('Attack: Rapid fire',
         'hits = 1 + ⌊margin / Recoil 2⌋, at most RoF 3'),
        ('Sacrificial dodge: Dodge and drop',
         '+3 (ranged or blast; the dodger drops and ends prone) → 12'),
        ('Sacrificial dodge: Effective Dodge',
         '12 against this ranged attack'),
        ('Sacrificial dodge',
         'success: the dodger takes the hit(s); success by 3 or more: neither is hit; both end prone'),
        ('If it fails',
         'the friend defends with Dodge 8'),
        ('Critical hit',
         'no defense at all, not even a sacrificial one, against its hits: they strike the friend'),
        ('Injury per hit on the dodger',
         '(2d+2 pi − DR 4) × 1 (pi, torso), round down, at least 1 if anything penetrates; blunt '
         'trauma 1 per full 10 stopped when nothing penetrates'),
        ('Injury per hit on the friend',
         '(2d+2 pi − DR 0) × 1 (pi, torso), round down, at least 1 if anything penetrates'),
    ],
    "throw-yourself-on-a-grenade": [
        ('Situation',
         'the dodger throws himself on an explosive a step away, to spare a friend 2 yard(s) from it'),
        ('Ruling: Throwing yourself on an explosive',
         "contact — Contact explosion: the listed damage, rolled, not divided (B377 says 'treat the "
         "blast as a contact explosion')"),
        ('Dodge',
         'Basic Speed 6, fractions dropped: 6, + 3 = 9'),
        ('The dive: Dodge and drop',
         '+3 (ranged or blast; the dodger drops and ends prone) → 12'),
        ('The dive: Effective Dodge',
         '12 against the blast'),
        ('Blast',
         '4d cr, ÷ (3 × yards) at a distance, nothing beyond 8 yards'),
        ('Large-area injury',
         'a blast uses torso wounding and the DR given for the target'),
        ('Success',
         'a contact explosion on the dodger: the listed damage, rolled, not divided; the friend is '
         'spared'),
        ('Failure',
         'the blast goes off with the dodger 1 and the friend 2 yard(s) away'),
        ('Injury on the dodger (contact)',
         '(4d cr − DR 4) × 1 (cr, torso), round down, at least 1 if anything penetrates'),
    ],
    "dive-into-a-trench": [
        ('Situation',
         'diving for cover 2 yard(s) from the blast, complete cover a step away'),
        ('Dodge',
         'Basic Speed 6, fractions dropped: 6, + 3 = 9'),
        ('The dive: Dodge and drop',
         '+3 (ranged or blast; the dodger drops and ends prone) → 12'),
        ('The dive: Effective Dodge',
         '12 against the blast'),
        ('Blast',
         '6d cr, ÷ (3 × yards) at a distance, nothing beyond 12 yards'),
        ('Large-area injury',
         'a blast uses torso wounding and the DR given for the target'),
        ('Success',
         'the dodger reaches complete cover before the blast'),
        ('Failure',
         'the dodger suffers the effect before making the step'),
    ],
    "dive-without-cover": [
        ('Situation',
         'diving for cover 2 yard(s) from the blast, no cover'),
        ('Dodge',
         'Basic Speed 6, fractions dropped: 6, + 3 = 9'),
        ('The dive: Dodge and drop',
         '+3 (ranged or blast; the dodger drops and ends prone) → 12'),
        ('The dive: Effective Dodge',
         '12 against the blast'),
        ('Blast',
         '6d cr, ÷ (3 × yards) at a distance, nothing beyond 12 yards'),
        ('Large-area injury',
         'a blast uses torso wounding and the DR given for the target'),
        ('Success',
         'no cover: the dodger ends a yard farther from the blast'),
        ('Failure',
         'the dodger suffers the effect before making the step'),
    ],
    "drop behind cover, carry prone_only, kneeling, medium load, low HP": [
        ('Situation',
         '3 attack(s) from one foe this turn, in order; defense: dodge_and_drop'),
        ("Ruling: Dodge and drop against the foe's later attacks",
         'prone_only — Prone only: the +3 was for the attack that prompted the drop; later attacks '
         'face a prone target (−3 Dodge, −2 to hit)'),
        ('Ruling: Critical success on a Dodge against rapid fire',
         'all — Every hit: a critical success avoids the whole burst'),
        ('Ruling: Critical hit with rapid fire',
         'first — The first hit only: the others may be dodged as usual'),
        ('Dodge',
         'Basic Speed 6, fractions dropped: 6, + 3, − 2 (medium encumbrance) = 7'),
        ('Below 1/3 HP',
         'Dodge halved, rounding up: 7 → 4'),
        ('Attack 1: Attack roll',
         'ranged, effective skill 13'),
        ("Attack 1: Target's posture",
         '-2 (kneeling) → 11'),
        ('Attack 1: Dodge and drop',
         '+3 (ranged or blast; the dodger drops and ends prone) → 7'),
        ('Attack 1: Posture',
         '-2 (kneeling) → 5'),
        ('Attack 1: Shield',
         '+2 (Defense Bonus) → 7'),
        ('Attack 1: Other modifiers',
         '-1 (situational) → 6'),
        ('Attack 1: Effective Dodge',
         '6 against this ranged attack'),
        ('Attack 1: Injury per hit',
         '(5d pi − DR 2) × 1 (pi, torso), round down, at least 1 if anything penetrates'),
        ('Attack 2: Attack roll',
         'ranged, effective skill 13'),
        ("Attack 2: Target's posture",
         '-2 (kneeling) → 11'),
        ('Attack 2: Dodge and drop',
         '+3 (ranged or blast; the dodger drops and ends prone) → 7'),
        ('Attack 2: Posture',
         '-2 (kneeling) → 5'),
        ('Attack 2: Shield',
         '+2 (Defense Bonus) → 7'),
        ('Attack 2: Other modifiers',
         '-1 (situational) → 6'),
        ('Attack 2: Effective Dodge',
         '6 against this ranged attack'),
        ('Attack 2: Injury per hit',
         '(5d pi − DR 2) × 1 (pi, torso), round down, at least 1 if anything penetrates'),
        ('Attack 2 after the dodge and drop: Attack roll',
         'ranged, effective skill 13'),
        ("Attack 2 after the dodge and drop: Target's posture",
         '-2 (prone after the dodge and drop) → 11'),
        ('Attack 2 after the dodge and drop: Dodge and drop, spent',
         '+0 (ruling carry = prone_only: the +3 was for the attack that prompted the drop)'),
        ('Attack 2 after the dodge and drop: Posture',
         '-3 (prone after the dodge and drop) → 1'),
        ('Attack 2 after the dodge and drop: Shield',
         '+2 (Defense Bonus) → 3'),
        ('Attack 2 after the dodge and drop: Other modifiers',
         '-1 (situational) → 2'),
        ('Attack 2 after the dodge and drop: Effective Dodge',
         '2 against this ranged attack'),
        ('Attack 2 after the dodge and drop: Cover',
         'cover DR 8 protects against this later attack'),
        ('Attack 2 after the dodge and drop: Injury per hit',
         '(5d pi − cover DR 8 − DR 2) × 1 (pi, torso), round down, at least 1 if anything penetrates'),
        ('Attack 3: Attack roll',
         'ranged, effective skill 13'),
        ("Attack 3: Target's posture",
         '-2 (kneeling) → 11'),
        ('Attack 3: Dodge and drop',
         '+3 (ranged or blast; the dodger drops and ends prone) → 7'),
        ('Attack 3: Posture',
         '-2 (kneeling) → 5'),
        ('Attack 3: Shield',
         '+2 (Defense Bonus) → 7'),
        ('Attack 3: Other modifiers',
         '-1 (situational) → 6'),
        ('Attack 3: Effective Dodge',
         '6 against this ranged attack'),
        ('Attack 3: Injury per hit',
         '(5d pi − DR 2) × 1 (pi, torso), round down, at least 1 if anything penetrates'),
        ('Attack 3 after the dodge and drop: Attack roll',
         'ranged, effective skill 13'),
        ("Attack 3 after the dodge and drop: Target's posture",
         '-2 (prone after the dodge and drop) → 11'),
        ('Attack 3 after the dodge and drop: Dodge and drop, spent',
         '+0 (ruling carry = prone_only: the +3 was for the attack that prompted the drop)'),
        ('Attack 3 after the dodge and drop: Posture',
         '-3 (prone after the dodge and drop) → 1'),
        ('Attack 3 after the dodge and drop: Shield',
         '+2 (Defense Bonus) → 3'),
        ('Attack 3 after the dodge and drop: Other modifiers',
         '-1 (situational) → 2'),
        ('Attack 3 after the dodge and drop: Effective Dodge',
         '2 against this ranged attack'),
        ('Attack 3 after the dodge and drop: Cover',
         'cover DR 8 protects against this later attack'),
        ('Attack 3 after the dodge and drop: Injury per hit',
         '(5d pi − cover DR 8 − DR 2) × 1 (pi, torso), round down, at least 1 if anything penetrates'),
        ('Critical success and failure',
         '3-4 always succeed (critical), 5 at 15+, 6 at 16+; 17-18 always fail; 18 fails critically, '
         '17 at 15 or less, and any roll 10+ over the score'),
    ],
    "drop behind cover, carry bonus_only, flying": [
        ('Situation',
         '3 attack(s) from one foe this turn, in order; defense: dodge_and_drop'),
        ("Ruling: Dodge and drop against the foe's later attacks",
         "bonus_only — +3 only: the +3 carries; being prone counts only from the foe's next turn"),
        ('Ruling: Critical success on a Dodge against rapid fire',
         'margin — By margin: like any success, one hit plus one per point of margin (B375 as written)'),
        ('Ruling: Critical hit with rapid fire',
         'all — All its hits: no defense against any of them'),
        ('Dodge',
         'Basic Speed 6, fractions dropped: 6, + 3 = 9'),
        ('Attack 1: Attack roll',
         'ranged, effective skill 13'),
        ('Attack 1: Dodge and drop',
         '+3 (ranged or blast; the dodger drops) → 12'),
        ('Attack 1: Effective Dodge',
         '12 against this ranged attack'),
        ('Attack 1: Injury per hit',
         '(5d pi − DR 2) × 1 (pi, torso), round down, at least 1 if anything penetrates'),
        ('Attack 2: Attack roll',
         'ranged, effective skill 13'),
        ('Attack 2: Dodge and drop',
         '+3 (ranged or blast; the dodger drops) → 12'),
        ('Attack 2: Effective Dodge',
         '12 against this ranged attack'),
        ('Attack 2: Injury per hit',
         '(5d pi − DR 2) × 1 (pi, torso), round down, at least 1 if anything penetrates'),
        ('Attack 2 after the dodge and drop: Attack roll',
         'ranged, effective skill 13'),
        ('Attack 2 after the dodge and drop: Dodge and drop, carried',
         '+3 (ruling carry = bonus_only: the +3 applies to all defenses against this foe this turn) → '
         '12'),
        ('Attack 2 after the dodge and drop: Effective Dodge',
         '12 against this ranged attack'),
        ('Attack 2 after the dodge and drop: Cover',
         'cover DR 8 protects against this later attack'),
        ('Attack 2 after the dodge and drop: Injury per hit',
         '(5d pi − cover DR 8 − DR 2) × 1 (pi, torso), round down, at least 1 if anything penetrates'),
        ('Attack 3: Attack roll',
         'ranged, effective skill 13'),
        ('Attack 3: Dodge and drop',
         '+3 (ranged or blast; the dodger drops) → 12'),
        ('Attack 3: Effective Dodge',
         '12 against this ranged attack'),
        ('Attack 3: Injury per hit',
         '(5d pi − DR 2) × 1 (pi, torso), round down, at least 1 if anything penetrates'),
        ('Attack 3 after the dodge and drop: Attack roll',
         'ranged, effective skill 13'),
        ('Attack 3 after the dodge and drop: Dodge and drop, carried',
         '+3 (ruling carry = bonus_only: the +3 applies to all defenses against this foe this turn) → '
         '12'),
        ('Attack 3 after the dodge and drop: Effective Dodge',
         '12 against this ranged attack'),
        ('Attack 3 after the dodge and drop: Cover',
         'cover DR 8 protects against this later attack'),
        ('Attack 3 after the dodge and drop: Injury per hit',
         '(5d pi − cover DR 8 − DR 2) × 1 (pi, torso), round down, at least 1 if anything penetrates'),
        ('Critical success and failure',
         '3-4 always succeed (critical), 5 at 15+, 6 at 16+; 17-18 always fail; 18 fails critically, '
         '17 at 15 or less, and any roll 10+ over the score'),
    ],
    "grenade, maximum damage": [
        ('Situation',
         'the dodger throws himself on an explosive a step away, to spare a friend 2 yard(s) from it'),
        ('Ruling: Throwing yourself on an explosive',
         'maximum — Fully contained: the maximum possible damage (B415 on explosions covered on all '
         'sides)'),
        ('Dodge',
         'Basic Speed 6, fractions dropped: 6, + 3 = 9'),
        ('The dive: Dodge and drop',
         '+3 (ranged or blast; the dodger drops and ends prone) → 12'),
        ('The dive: Effective Dodge',
         '12 against the blast'),
        ('Blast',
         '4d cr, ÷ (3 × yards) at a distance, nothing beyond 8 yards'),
        ('Large-area injury',
         'a blast uses torso wounding and the DR given for the target'),
        ('Success',
         'a contact explosion on the dodger: the maximum possible damage; the friend is spared'),
        ('Failure',
         'the blast goes off with the dodger 1 and the friend 2 yard(s) away'),
        ('Injury on the dodger (contact)',
         '(4d cr − DR 4) × 1 (cr, torso), round down, at least 1 if anything penetrates'),
    ],
}


@pytest.mark.parametrize("name", list(TRACES))
def test_the_result_trace_line_by_line(name):
    scenario = VARIANTS[name] if name in VARIANTS else P[name]
    trace = evaluate(scenario).trace
    assert [(s.rule, s.detail) for s in trace] == TRACES[name]
    assert all(s.citation for s in trace)


# -- one turn step by step, on typed faces -----------------------------------------------------------

def turn(preset: str, faces: list[int]) -> list[tuple[str, str]]:
    trace = play_once(SYSTEM, P[preset], faces=faces).trace
    assert all(s.citation for s in trace)
    return [(s.rule, s.detail) for s in trace]


def test_the_sword_blow_and_a_dodged_burst():
    # 2d+1 cut on 3 + 4: 8 basic, − DR 3 = 5, × 1.5 = 7.
    assert turn("sword-2d1-cut-vs-dr3", [3, 4]) == [
        ("Attack 1", "1 hit(s) reach the target"),
        ("Basic damage", "dice 7, 2d+1 → 8"), ("DR", "8 − DR 3 → 5 penetrating"),
        ("Wounding modifier", "5 × 1.5 (cut, torso) → 7 (round down, at least 1)")]
    # Skill 12 + 2 (RoF 10) = 14; 8 succeeds by 6: 1 + ⌊6 / Recoil 2⌋ = 4 hits. Dodge 12: 8 succeeds
    # by 4: one hit plus 4, at most the 4 that arrived.
    assert turn("rapid-fire-dodge-and-drop", [2, 5, 1, 3, 1, 4]) == [
        ("Attack 1", "roll 8 vs 14: success, margin +6 → 4 hit(s)"),
        ("Dodge", "roll 8 vs 12: success, margin +4 → avoids 4 of 4")]


def test_an_acrobatic_retreat_that_still_fails():
    # Acrobatics 10 vs 13 succeeds: Dodge 12 + 2 = 14; the Dodge roll 15 fails by 1; 1d+3 imp on a
    # 1: 4 − DR 2 = 2, × 2 = 4.
    assert turn("acrobatic-retreat", [2, 5, 5, 2, 3, 5, 4, 6, 5, 1]) == [
        ("Attack 1", "roll 12 vs 14: success, margin +2 → 1 hit(s)"),
        ("Acrobatic dodge", "Acrobatics roll 10 vs 13: success, margin +3 → Dodge 14"),
        ("Dodge", "roll 15 vs 14: failure, margin -1 → avoids 0 of 1"),
        ("Basic damage", "dice 1, 1d+3 → 4"), ("DR", "4 − DR 2 → 2 penetrating"),
        ("Wounding modifier", "2 × 2 (imp, torso) → 4 (round down, at least 1)")]
    # Acrobatics 17 fails (critically: skill 15 or less, B348): Dodge 12 − 2 = 10, and 9 still makes it.
    assert turn("acrobatic-retreat", [2, 5, 5, 6, 6, 5, 4, 4, 1])[1:] == [
        ("Acrobatic dodge", "Acrobatics roll 17 vs 13: critical failure, margin -4 → Dodge 10"),
        ("Dodge", "roll 9 vs 10: success, margin +1 → avoids 1 of 1")]


def test_behind_cover_after_the_drop():
    # Attack 1 dodged (Dodge 12); the foe's later shots meet a prone target (skill 13 − 2 = 11, Dodge
    # 9 + 3 − 3 = 9) behind cover DR 8: attack 3's 5d of 19 loses 8 to the cover and 2 to DR.
    assert turn("drop-behind-cover", [2, 5, 5, 2, 3, 5, 4, 6, 5, 1, 5, 1, 4, 3, 5, 2, 2, 6, 4, 5]) == [
        ("Attack 1", "roll 12 vs 13: success, margin +1 → 1 hit(s)"),
        ("Dodge", "roll 10 vs 12: success, margin +2 → avoids 1 of 1"),
        ("Attack 2", "roll 15 vs 11: failure, margin -4 → 0 hit(s)"),
        ("Attack 3", "roll 7 vs 11: success, margin +4 → 1 hit(s)"),
        ("Dodge", "roll 12 vs 9: failure, margin -3 → avoids 0 of 1"),
        ("Basic damage", "dice 19, 5d → 19"), ("Cover", "cover DR 8 stops 8; 11 reaches the target"),
        ("DR", "11 − DR 2 → 9 penetrating"), ("Wounding modifier", "9 × 1 (pi, torso) → 9 (round down, at least 1)")]


def test_a_sacrificial_dodge_and_drop_three_ways():
    # 3 hits (6 vs 13 by 7, Recoil 2, at most RoF 3). Made by 9: neither is hit.
    assert turn("sacrificial-dodge-and-drop", [2, 2, 2, 1, 1, 1]) == [
        ("Attack 1", "roll 6 vs 13: success, margin +7 → 3 hit(s)"),
        ("Sacrificial dodge", "roll 3 vs 12: critical success, margin +9 → avoids 3 of 3"),
        ("Sacrificial dodge and drop", "success by 3 or more: neither is hit")]
    # Made by exactly 3 (9 vs 12): still neither.
    assert turn("sacrificial-dodge-and-drop", [2, 2, 2, 3, 3, 3])[2:] == [
        ("Sacrificial dodge and drop", "success by 3 or more: neither is hit")]
    # Made by 1: the dodger takes the hits; 2d+2 pi against flexible DR 4: 4 stops entirely (blunt
    # trauma 1 per full 10 stopped: none), 6 → 2, 14 → 10.
    taken = turn("sacrificial-dodge-and-drop", [2, 2, 2, 4, 4, 3, 1, 1, 2, 2, 6, 6])
    assert taken[2:] == [
        ("Sacrificial dodge", "the dodger takes 3 hit(s)"),
        ("Basic damage", "dice 2, 2d+2 → 4"), ("DR", "4 − DR 4 → 0 penetrating"),
        ("Blunt trauma", "flexible armor stopped 4: 1 per full 10 → 0"),
        ("Basic damage", "dice 4, 2d+2 → 6"), ("DR", "6 − DR 4 → 2 penetrating"),
        ("Wounding modifier", "2 × 1 (pi, torso) → 2 (round down, at least 1)"),
        ("Basic damage", "dice 12, 2d+2 → 14"), ("DR", "14 − DR 4 → 10 penetrating"),
        ("Wounding modifier", "10 × 1 (pi, torso) → 10 (round down, at least 1)")]
    # Failed critically: the friend defends with Dodge 8, fails, and takes all three (10 each).
    failed = turn("sacrificial-dodge-and-drop", [2, 2, 2, 6, 6, 6, 5, 5, 5, 4, 4, 4, 4, 4, 4])
    assert failed[1:4] == [
        ("Sacrificial dodge", "roll 18 vs 12: critical failure, margin -6 → avoids 0 of 3"),
        ("Friend's defense", "roll 15 vs 8: failure, margin -7 → avoids 0 of 3"),
        ("Basic damage", "dice 8, 2d+2 → 10")]


def test_on_the_grenade_made_and_too_slow():
    # Made: a contact explosion, 4d of 8 − DR 4 = 4; the friend's 24 at 2 yards would have been 24 ÷ 6 = 4.
    assert turn("throw-yourself-on-a-grenade", [1, 1, 1, 2, 2, 2, 2, 6, 6, 6, 6]) == [
        ("Sacrificial dodge and drop", "roll 3 vs 12: critical success, margin +9 → avoids 1 of 1"),
        ("On the explosive", "a contact explosion (contact); the friend is spared"),
        ("Basic damage", "dice 8, 4d → 8"), ("DR", "8 − DR 4 → 4 penetrating"),
        ("Wounding modifier", "4 × 1 (cr, torso) → 4 (round down, at least 1)"),
        ("Basic damage", "dice 24, 4d → 24"), ("Explosion at a distance", "24 ÷ 6 → 4"),
        ("DR", "4 − DR 0 → 4 penetrating"), ("Wounding modifier", "4 × 1 (cr, torso) → 4 (round down, at least 1)"),
        ("The friend, spared", "with nobody on the explosive he would have taken 4")]
    # Too slow: at 1 yard 20 ÷ 3 = 6 − DR 4 = 2; the friend at 2 yards 12 ÷ 6 = 2.
    assert turn("throw-yourself-on-a-grenade", [6, 6, 6, 5, 5, 5, 5, 3, 3, 3, 3]) == [
        ("Sacrificial dodge and drop", "roll 18 vs 12: critical failure, margin -6 → avoids 0 of 1"),
        ("Too slow", "the blast goes off with everyone where they stood"),
        ("Basic damage", "dice 20, 4d → 20"), ("Explosion at a distance", "20 ÷ 3 → 6"),
        ("DR", "6 − DR 4 → 2 penetrating"), ("Wounding modifier", "2 × 1 (cr, torso) → 2 (round down, at least 1)"),
        ("Basic damage", "dice 12, 4d → 12"), ("Explosion at a distance", "12 ÷ 6 → 2"),
        ("DR", "2 − DR 0 → 2 penetrating"), ("Wounding modifier", "2 × 1 (cr, torso) → 2 (round down, at least 1)")]


# -- one hit's injury, step by step (B378-379, B398-400) -------------------------------------------------

def injury_steps(hit: Hit, roll: int) -> list[tuple[str, str, str]]:
    return [(s.rule, s.detail, s.citation) for s in injury(hit, roll, explain=True).steps]


def test_minimum_damage_and_a_small_piercing_wound():
    # 1d−3 on a 2 is −1: raised to the minimum 1 for piercing; × 0.5 still leaves 1.
    assert injury_steps(Hit(parse_damage("1d-3"), "pi-"), 2) == [
        ("Basic damage", "dice 2, 1d-3 → -1, raised to the minimum 1", cite.DAMAGE),
        ("DR", "1 − DR 0 → 1 penetrating", cite.DAMAGE),
        ("Wounding modifier", "1 × 0.5 (pi-, torso) → 1 (round down, at least 1)", cite.WOUNDING)]


def test_an_armor_divisor_through_cover_into_a_limb():
    # 3d imp (2) on 18: cover DR 4 and DR 6 count half (2 and 3); 13 × 1 to a limb, capped at
    # HP 10 / 2 + 1 = 6, what cripples it.
    hit = Hit(parse_damage("3d"), "imp", "2", dr=6, location="limb", hp=10, cover_dr=4)
    assert injury_steps(hit, 18) == [
        ("Basic damage", "dice 18, 3d → 18", cite.DAMAGE),
        ("Cover", "cover DR 2 stops 2; 16 reaches the target", cite.COVER),
        ("DR", "16 − DR 3 (DR 6, armor divisor (2)) → 13 penetrating", cite.DIVISOR),
        ("Wounding modifier", "13 × 1 (imp, limb) → 13 (round down, at least 1)", cite.WOUNDING),
        ("Crippled limb", "13 → 6: injury beyond crippling an arm or leg (over HP/2 = 10/2) is lost", cite.LOCATION)]
    # 11 leaves exactly 6 = the cap: nothing is lost, no crippling step.
    assert [rule for rule, _, _ in injury_steps(hit, 11)] == ["Basic damage", "Cover", "DR", "Wounding modifier"]
    assert hit.describe() == ("(3d imp − cover DR 2 − DR 3 [DR 6, armor divisor (2)]) × 1 (imp, arm or leg), "
                              "round down, at least 1 if anything penetrates; at most 6 (crippling an arm or leg, "
                              "excess lost)")


def test_blunt_trauma_through_flexible_armor_and_a_blast_at_a_distance():
    # 2d cr of 12 against flexible DR 20: nothing penetrates; 1 per full 5 crushing stopped: 2.
    vest = Hit(parse_damage("2d"), "cr", dr=20, flexible=True)
    assert injury_steps(vest, 12)[1:] == [
        ("DR", "12 − DR 20 → 0 penetrating", cite.DAMAGE),
        ("Blunt trauma", "flexible armor stopped 12: 1 per full 5 → 2", cite.BLUNT)]
    assert vest.describe() == ("(2d cr − DR 20) × 1 (cr, torso), round down, at least 1 if anything penetrates; "
                               "blunt trauma 1 per full 5 stopped when nothing penetrates")
    far = Hit(parse_damage("6d"), "cr", spread=6)
    assert far.describe() == ("(6d cr ÷ 6 (blast distance), round down − DR 0) × 1 (cr, torso), round down, at "
                              "least 1 if anything penetrates")


def test_blunt_trauma_only_from_damage_that_reached_the_armor():
    # 1d−2 cr of 1 is −1, raised to the crushing minimum 0: nothing reached the vest, no trauma step.
    vest = Hit(parse_damage("1d-2"), "cr", dr=20, flexible=True)
    assert [rule for rule, _, _ in injury_steps(vest, 1)] == ["Basic damage", "DR"]
    # 1 stopped is a blunt trauma step too, of 0 (1 per full 5).
    assert injury_steps(vest, 3)[-1] == ("Blunt trauma", "flexible armor stopped 1: 1 per full 5 → 0", cite.BLUNT)


def test_a_fractional_armor_divisor_without_cover_adds_no_cover():
    # Against (0.5), DR 0 counts as 1 and doubles: no cover DR is counted when there is no cover.
    hit = Hit(parse_damage("1d"), "cut", "0.5")
    assert injury(hit, 6).value == 6     # 6 − DR 2 = 4, × 1.5
    assert [rule for rule, _, _ in injury_steps(hit, 6)] == ["Basic damage", "DR", "Wounding modifier"]


def test_the_limb_cap_fatigue_to_a_limb_and_the_location_named():
    # HP 10: an arm or leg takes at most 6; 7 is capped, and fatigue (FP, not HP) is never capped.
    # describe() names the location without its note ("Vitals (impaling or piercing only)").
    assert injury(Hit(parse_damage("2d"), "cr", location="limb", hp=10), 7).value == 6
    fatigue = Hit(parse_damage("3d"), "fat", location="limb", hp=10)
    assert injury(fatigue, 12).value == 12
    assert fatigue.describe() == ("(3d fat − DR 0) × 1 (fat, arm or leg), round down, at least 1 if anything "
                                  "penetrates")
    assert Hit(parse_damage("1d"), "pi", location="vitals").describe().startswith("(1d pi − DR 0) × 3 (pi, vitals),")
