"""The modifiers and small rules both the concrete-roll rule and the exact algorithm apply:
the Dodge score, the attacker's skill, rapid-fire hits, hits avoided by a Dodge, the hit each
landing blow is, and the blast each explosion is.

>>> rof_bonus(10), rof_bonus(4), rof_bonus(50)
(2, 0, 6)
"""

from __future__ import annotations

from dataclasses import dataclass
from math import floor

from ...result import TraceStep
from . import sources as cite
from .damage import Hit
from .dice import parse_damage
from .rolls import SuccessRoll
from .scenario import ENCUMBRANCE, POSTURES, GurpsScenario

__all__ = ["Score", "AttackContext", "base_dodge", "defense_option", "ends_prone", "dodge_score",
           "rof_bonus", "attack_context", "sacrificial_context", "hits_scored", "undefendable",
           "hits_avoided", "blast_hit", "blast_reaches", "fatigue", "points_left", "major_wound",
           "friend_hit"]

#: Rapid-fire bonus to skill (B373): RoF at least this → bonus.
RAPID_FIRE_BONUS = ((50, 6), (25, 5), (17, 4), (13, 3), (9, 2), (5, 1))


@dataclass(frozen=True)
class Score:
    """An effective score and the arithmetic that produced it."""

    value: int
    steps: tuple[TraceStep, ...]


def rof_bonus(rof: int) -> int:
    """The skill bonus for rapid fire (B373)."""
    return next((bonus for least, bonus in RAPID_FIRE_BONUS if rof >= least), 0)


def defense_option(scenario: GurpsScenario) -> str:
    """The defense used: the dodger's choice, except that diving for cover and throwing oneself
    on an explosive are dodges and drops by definition."""
    return "dodge_and_drop" if scenario.situation in ("smother", "dive") else scenario.dodger.defense


def ends_prone(scenario: GurpsScenario) -> bool:
    """Whether making a dodge and drop leaves the dodger prone (not when flying or swimming)."""
    return defense_option(scenario) == "dodge_and_drop" and not scenario.dodger.flying


def base_dodge(scenario: GurpsScenario) -> Score:
    """Basic Speed (fractions dropped) + 3 − encumbrance; halved, rounding up, below 1/3 HP or FP."""
    dodger, target = scenario.dodger, scenario.target
    speed = floor(dodger.basic_speed)
    enc = ENCUMBRANCE[dodger.encumbrance]
    value = speed + 3 - enc
    loss = f", − {enc} ({dodger.encumbrance} encumbrance)" if enc else ""
    steps = [TraceStep("Dodge", f"Basic Speed {dodger.basic_speed:g}, fractions dropped: {speed}, + 3{loss} = {value}",
                       cite.DODGE + ("; " + cite.ENCUMBRANCE if enc else ""))]
    low = [name for name, left, full in (("HP", target.hp_left, target.hp), ("FP", target.fp_left, target.fp))
           if 3 * left < full]
    if low:
        halved = -(-value // 2)
        steps.append(TraceStep("Below 1/3 " + " and ".join(low),
                               f"Dodge halved, rounding up: {value} → {halved}", cite.LOW_HP_FP))
        value = halved
    return Score(value, tuple(steps))


def dodge_score(scenario: GurpsScenario, kind: str, dropped: bool) -> Score:
    """The Dodge score against one attack (``kind`` "ranged", "melee" or "blast") before any
    Acrobatics roll. ``dropped``: a dodge and drop was already made against this foe this turn."""
    dodger = scenario.dodger
    base = base_dodge(scenario)
    value, steps = base.value, list(base.steps)

    def add(amount: int, rule: str, why: str, citation: str) -> None:
        nonlocal value
        value += amount
        steps.append(TraceStep(rule, f"{amount:+d} {why} → {value}", citation))

    option = defense_option(scenario)
    prone_now = dropped and ends_prone(scenario) and scenario.carry in ("both", "prone_only")
    if option == "retreat":
        add(3, "Retreat", "(against melee; every defense against this foe this turn)", cite.RETREAT)
    elif option == "dodge_and_drop":
        if not dropped:
            add(3, "Dodge and drop", "(ranged or blast; the dodger drops"
                + (")" if dodger.flying else " and ends prone)"), cite.DROP)
        elif scenario.carry in ("both", "bonus_only"):
            add(3, "Dodge and drop, carried", f"(ruling carry = {scenario.carry}: the +3 applies to "
                "all defenses against this foe this turn)", cite.DROP)
        else:
            steps.append(TraceStep("Dodge and drop, spent", "+0 (ruling carry = prone_only: the +3 was "
                                   "for the attack that prompted the drop)", cite.RULINGS))
    if prone_now:
        add(POSTURES["lying"][0], "Posture", "(prone after the dodge and drop)", cite.POSTURE)
    elif POSTURES[dodger.posture][0]:
        add(POSTURES[dodger.posture][0], "Posture", f"({dodger.posture})", cite.POSTURE)
    if dodger.shield_db:
        add(dodger.shield_db, "Shield", "(Defense Bonus)", cite.SHIELD)
    if dodger.modifier:
        add(dodger.modifier, "Other modifiers", "(situational)", cite.DODGE)
    steps.append(TraceStep("Effective Dodge", f"{value} against this {kind} attack"
                           if kind != "blast" else f"{value} against the blast", cite.DODGE))
    return Score(value, tuple(steps))


def _attack_skill(scenario: GurpsScenario, index: int, prone_target: bool, posture: str | None) -> Score:
    attack = scenario.attacks[index]
    value = attack.skill
    steps = [TraceStep("Attack roll", f"{attack.kind}, effective skill {value}", cite.SUCCESS)]
    bonus = rof_bonus(attack.rof)
    if bonus:
        value += bonus
        steps.append(TraceStep("Rapid-fire bonus", f"RoF {attack.rof}: +{bonus} → {value}", cite.RAPID_FIRE))
    if attack.kind == "ranged" and posture is not None:
        target_mod = POSTURES["lying" if prone_target else posture][1]
        if target_mod:
            value += target_mod
            why = "prone after the dodge and drop" if prone_target else posture
            steps.append(TraceStep("Target's posture", f"{target_mod:+d} ({why}) → {value}", cite.POSTURE))
    if value < 3:
        steps.append(TraceStep("No attack roll", f"effective skill {value} is below 3: the attack cannot be made",
                               cite.MIN_SKILL))
    elif attack.rof > 1:
        steps.append(TraceStep("Rapid fire", f"hits = 1 + ⌊margin / Recoil {attack.recoil}⌋, at most RoF "
                               f"{attack.rof}", cite.RAPID_FIRE))
    return Score(value, tuple(steps))


@dataclass(frozen=True)
class AttackContext:
    """One attack as it meets the dodger: after ``dropped`` (an earlier dodge and drop against
    this foe this turn), the dodger's Dodge, the attacker's skill, whether complete cover blocks
    it, and the hit each landing blow is."""

    index: int
    dropped: bool
    dodge: Score
    skill: Score
    blocked: bool
    hit: Hit
    steps: tuple[TraceStep, ...]


def attack_context(scenario: GurpsScenario, index: int, dropped: bool) -> AttackContext:
    """The ``index``-th attack on the dodger (situation "attacks")."""
    attack, target, cover = scenario.attacks[index], scenario.target, scenario.cover
    prone_target = dropped and ends_prone(scenario) and scenario.carry in ("both", "prone_only")
    skill = _attack_skill(scenario, index, prone_target, scenario.dodger.posture)
    dodge = dodge_score(scenario, attack.kind, dropped)
    behind = dropped and cover.kind != "none"
    steps: list[TraceStep] = []
    if behind:
        steps.append(TraceStep("Cover", "complete cover: the foe cannot attack the dodger" if cover.kind == "full"
                               else f"cover DR {cover.dr} protects against this later attack", cite.COVER))
    hit = Hit(parse_damage(attack.damage), attack.damage_type, attack.divisor, target.dr, target.flexible,
              target.location, target.hp, cover.dr if behind and cover.kind == "dr" else 0)
    return AttackContext(index, dropped, dodge, skill, behind and cover.kind == "full", hit, tuple(steps))


def sacrificial_context(scenario: GurpsScenario) -> AttackContext:
    """The attack aimed at the friend, as the sacrificial dodger meets it."""
    attack, target = scenario.attacks[0], scenario.target
    skill = _attack_skill(scenario, 0, False, None)
    dodge = dodge_score(scenario, attack.kind, False)
    hit = Hit(parse_damage(attack.damage), attack.damage_type, attack.divisor, target.dr, target.flexible,
              target.location, target.hp)
    return AttackContext(0, False, dodge, skill, False, hit, ())


def friend_hit(scenario: GurpsScenario) -> Hit:
    """A hit of the attack on the friend (torso)."""
    attack, friend = scenario.attacks[0], scenario.friend
    return Hit(parse_damage(attack.damage), attack.damage_type, attack.divisor, friend.dr, friend.flexible,
               "torso", friend.hp)


def hits_scored(attack_roll: SuccessRoll, rof: int, recoil: int) -> int:
    """Hits from an attack roll: none on a failure; one plus one per full Recoil of margin, at
    most RoF (B373). A 3 or 4 made against a lower skill scores one hit."""
    if not attack_roll.success:
        return 0
    return min(rof, 1 + max(0, attack_roll.margin) // recoil)


def undefendable(hits: int, critical_hit: bool, crit_hit_ruling: str) -> int:
    """How many of the hits allow no defense: a critical hit's (all, or the first only)."""
    if not critical_hit:
        return 0
    return hits if crit_hit_ruling == "all" else min(1, hits)


def hits_avoided(dodge_roll: SuccessRoll, defendable: int, crit_dodge_ruling: str) -> int:
    """Hits a Dodge roll avoids: none on a failure; one plus one per point of margin, at most
    the hits it faces (B375); every hit on a critical success under the ruling "all"."""
    if not dodge_roll.success:
        return 0
    if dodge_roll.critical and crit_dodge_ruling == "all":
        return defendable
    return min(defendable, 1 + max(0, dodge_roll.margin))


def blast_reaches(scenario: GurpsScenario, distance: int) -> bool:
    """Whether the blast affects someone ``distance`` yards away: an explosion out to 2 yards per
    die of damage (B414); an area effect everywhere in its area."""
    if scenario.blast.spread == "area":
        return True
    return distance <= 2 * parse_damage(scenario.blast.damage).dice


def blast_hit(scenario: GurpsScenario, distance: int, cover_dr: int = 0, *, friend: bool = False) -> Hit:
    """The blast as a hit on the dodger (or the friend) ``distance`` yards away (0: contact, full
    damage). Large-area injury: torso wounding, the DR given for the target (B400)."""
    blast = scenario.blast
    spread = 1 if blast.spread == "area" or distance == 0 else 3 * distance
    who = scenario.friend if friend else scenario.target
    return Hit(parse_damage(blast.damage), blast.damage_type, "1", who.dr, who.flexible, "torso",
               who.hp, cover_dr, spread)


def fatigue(scenario: GurpsScenario) -> bool:
    """Whether the damage in this situation is fatigue (it comes off FP, not HP)."""
    if scenario.situation in ("smother", "dive"):
        return scenario.blast.damage_type == "fat"
    return scenario.attacks[0].damage_type == "fat"


def points_left(scenario: GurpsScenario) -> tuple[str, int]:
    """("HP", HP left) — or ("FP", FP left) against fatigue damage."""
    if fatigue(scenario):
        return "FP", scenario.target.fp_left
    return "HP", scenario.target.hp_left


def major_wound(injury: int, hp: int) -> bool:
    """One blow's injury over HP/2 (B420)."""
    return 2 * injury > hp
