"""The rule on one concrete roll: :func:`play` resolves a whole scenario with the dice a
:class:`~rules_core.roller.Roller` hands out (attack rolls, Acrobatics and Dodge rolls, the
friend's Dodge, damage dice) and returns what happened as a :class:`~rules_core.play.Play`.

The planning comes first — which roll gets which modifier: the Dodge against each attack
(:func:`dodge_score`), the attacker's skill, whether cover blocks or protects, the hit each
landing blow is (:func:`attack_context`), the blast (:func:`blast_hit`). The fast path
(:mod:`.exact`) plans with the same functions and sums over the dice instead of rolling them.

Each request carries a ``classify`` hint: totals the rule treats alike (the same hits, the same
success and hits avoided, the same injury) are walked once by the enumerator.

>>> from rules_core import find_preset, play_once
>>> from rules_core.systems.gurps_4e import SYSTEM
>>> seed = find_preset("gurps-4e/sword-2d1-cut-vs-dr3").scenario
>>> play_once(SYSTEM, seed, faces=[3, 4])["injury"]    # 2 dice total 7 → 8 basic → 7 injury
7
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from math import floor
from types import MappingProxyType
from typing import NamedTuple

from ...play import Play
from ...result import TraceStep
from ...roller import Roller
from ...variants import house_rule_steps
from . import sources as cite
from .damage import Hit, injury, major_wound, parse_damage
from .dice import (WAYS, damage_request, hits_avoided, hits_scored, rof_bonus, success_request, success_roll,
                   success_weight, undefendable)
from .outcomes import (BOTH_HIT, CAUGHT, DODGER_HIT, DR_COVER, FARTHER, FRIEND_DEFENDS, FRIEND_HIT, FULL_COVER,
                       LEFT_ALONE, NEITHER, NO_HIT, OUT_OF_REACH, SMOTHERED, STAYED, STILL_IN_AREA, TOO_SLOW,
                       ladder_label)
from .scenario import ENCUMBRANCE, POSTURES, GurpsScenario

__all__ = ["Score", "AttackContext", "base_dodge", "unopposed_dodge", "defense_option", "ends_prone",
           "dodge_score", "attack_context", "sacrificial_context", "blast_hit", "blast_reaches", "play"]


# -- planning: which roll gets which modifier ---------------------------------------------------------

@dataclass(frozen=True)
class Score:
    """An effective score and the arithmetic that produced it."""

    value: int
    steps: tuple[TraceStep, ...]


def defense_option(scenario: GurpsScenario) -> str:
    """The defense used: the dodger's choice, except that diving for cover and throwing oneself
    on an explosive are dodges and drops by definition (or "none": the dodger does not react)."""
    if scenario.situation in ("smother", "dive") and scenario.dodger.defense != "none":
        return "dodge_and_drop"
    return scenario.dodger.defense


def ends_prone(scenario: GurpsScenario) -> bool:
    """Whether making a dodge and drop leaves the dodger prone (not when flying or swimming)."""
    return defense_option(scenario) == "dodge_and_drop" and not scenario.dodger.flying


def _prone_later(scenario: GurpsScenario, dropped: bool) -> bool:
    """Whether the foe's later attacks meet a prone dodger (after a drop, under the ruling carry)."""
    return dropped and ends_prone(scenario) and scenario.carry in ("both", "prone_only")


def base_dodge(scenario: GurpsScenario) -> Score:
    """Basic Speed (fractions dropped) + 3 − encumbrance; halved, rounding up, below 1/3 HP or FP
    (the + 3 is the scenario's ``variant.dodge_base``)."""
    dodger, target = scenario.dodger, scenario.target
    speed = floor(dodger.basic_speed)
    enc = ENCUMBRANCE[dodger.encumbrance]
    base = scenario.variant.dodge_base
    value = speed + base - enc
    loss = f", − {enc} ({dodger.encumbrance} encumbrance)" if enc else ""
    steps = [TraceStep("Dodge",
                       f"Basic Speed {dodger.basic_speed:g}, fractions dropped: {speed}, + {base}{loss} = {value}",
                       cite.DODGE + ("; " + cite.ENCUMBRANCE if enc else ""))]
    low = [name for name, left, full in (("HP", target.hp_left, target.hp), ("FP", target.fp_left, target.fp))
           if 3 * left < full]
    if low:
        halved = -(-value // 2)
        steps.append(TraceStep("Below 1/3 " + " and ".join(low),
                               f"Dodge halved, rounding up: {value} → {halved}", cite.LOW_HP_FP))
        value = halved
    return Score(value, tuple(steps))


def unopposed_dodge(scenario: GurpsScenario) -> Fraction:
    """The dodger's chance of making a plain Dodge roll: 3d6 against Dodge (Basic Speed, fractions
    dropped, + 3, less encumbrance, halved below 1/3 HP or FP) plus the shield's DB and other
    modifiers — no Retreat, drop or posture, and nothing from the attack (3-4 always succeed,
    17-18 always fail).

    >>> from .scenario import Dodger
    >>> unopposed_dodge(GurpsScenario(dodger=Dodger(basic_speed=6))), unopposed_dodge(GurpsScenario(dodger=Dodger(basic_speed=1)))
    (Fraction(3, 8), Fraction(1, 54))
    """
    score = base_dodge(scenario).value + scenario.dodger.shield_db + scenario.dodger.modifier
    return Fraction(success_weight(score, scenario.variant), WAYS)


def dodge_score(scenario: GurpsScenario, kind: str, dropped: bool) -> Score:
    """The Dodge score against one attack (``kind`` "ranged", "melee" or "blast") before any
    Acrobatics roll. ``dropped``: a dodge and drop was already made against this foe this turn."""
    dodger, rules = scenario.dodger, scenario.variant
    base = base_dodge(scenario)
    value, steps = base.value, list(base.steps)

    def add(amount: int, rule: str, why: str, citation: str) -> None:
        nonlocal value
        value += amount
        steps.append(TraceStep(rule, f"{amount:+d} {why} → {value}", citation))

    option = defense_option(scenario)
    if option == "retreat" and kind == "melee":
        add(rules.retreat_bonus, "Retreat", "(against melee; every defense against this foe this turn)",
            cite.RETREAT)
    elif option == "retreat":
        steps.append(TraceStep("Retreat", f"+0: a retreat helps only against melee attacks; against this "
                               f"{kind} attack it gives no bonus", cite.RETREAT))
    elif option == "dodge_and_drop":
        if not dropped:
            add(rules.drop_bonus, "Dodge and drop", "(ranged or blast; the dodger drops"
                + (")" if dodger.flying else " and ends prone)"), cite.DROP)
        elif scenario.carry in ("both", "bonus_only"):
            add(rules.drop_bonus, "Dodge and drop, carried", f"(ruling carry = {scenario.carry}: the "
                f"+{rules.drop_bonus} applies to all defenses against this foe this turn)", cite.DROP)
        else:
            steps.append(TraceStep("Dodge and drop, spent", f"+0 (ruling carry = prone_only: the "
                                   f"+{rules.drop_bonus} was for the attack that prompted the drop)",
                                   cite.RULINGS))
    if _prone_later(scenario, dropped):
        add(POSTURES["lying"].defense, "Posture", "(prone after the dodge and drop)", cite.POSTURE)
    elif POSTURES[dodger.posture].defense:
        add(POSTURES[dodger.posture].defense, "Posture", f"({dodger.posture})", cite.POSTURE)
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
        target_mod = POSTURES["lying" if prone_target else posture].ranged_at
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


#: The planning of the last scenario played, kept by identity: a sample plays one scenario many
#: times, and its plan is the same each time (hashing a scenario would cost more than it saves).
_PLANNED: list = [None, {}]


def attack_context(scenario: GurpsScenario, index: int, dropped: bool) -> AttackContext:
    """The ``index``-th attack on the dodger (situation "attacks")."""
    if _PLANNED[0] is not scenario:
        _PLANNED[0], _PLANNED[1] = scenario, {}
    known = _PLANNED[1].get((index, dropped))
    if known is None:
        known = _PLANNED[1][(index, dropped)] = _attack_context(scenario, index, dropped)
    return known


def _attack_context(scenario: GurpsScenario, index: int, dropped: bool) -> AttackContext:
    attack, cover = scenario.attacks[index], scenario.cover
    skill = _attack_skill(scenario, index, _prone_later(scenario, dropped), scenario.dodger.posture)
    dodge = dodge_score(scenario, attack.kind, dropped)
    behind = dropped and cover.kind != "none"
    steps: list[TraceStep] = []
    if behind:
        steps.append(TraceStep("Cover", "complete cover: the foe cannot attack the dodger" if cover.kind == "full"
                               else f"cover DR {cover.dr} protects against this later attack", cite.COVER))
    hit = scenario.hit(index, cover.dr if behind and cover.kind == "dr" else 0)
    return AttackContext(index, dropped, dodge, skill, behind and cover.kind == "full", hit, tuple(steps))


def sacrificial_context(scenario: GurpsScenario) -> AttackContext:
    """The attack aimed at the friend, as the sacrificial dodger meets it."""
    skill = _attack_skill(scenario, 0, False, None)
    dodge = dodge_score(scenario, scenario.attacks[0].kind, False)
    return AttackContext(0, False, dodge, skill, False, scenario.hit(0), ())


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


# -- the rule on concrete dice ---------------------------------------------------------------------------

@lru_cache(maxsize=512)
def _injuries(hit: Hit) -> Mapping[int, int]:
    """Injury by dice total for one hit (what the damage request's ``classify`` reads; read only,
    shared by every play of the hit)."""
    return MappingProxyType({total: injury(hit, total).value
                             for total in range(hit.damage.dice, 6 * hit.damage.dice + 1)})


class AttackHits(NamedTuple):
    """What an attack roll scored: hits, and whether it is a critical hit."""

    hits: int
    critical: bool


class Evasion(NamedTuple):
    """One evasion roll: made or not, its margin, and the hits it avoids."""

    success: bool
    margin: int
    avoided: int


class _Turn:
    """Bookkeeping while one play runs: the roller, the trace and the evasion rolls made."""

    def __init__(self, scenario: GurpsScenario, roller: Roller):
        self.s, self.roller = scenario, roller
        self.explain = roller.explain
        self.rules = scenario.variant
        self.trace: list[TraceStep] = list(house_rule_steps(scenario)) if self.explain else []
        self.evasions: list[bool] = []

    def note(self, rule: str, detail: str, citation: str) -> None:
        """Write a step of the trace (only when the roller asks for one)."""
        if self.explain:
            self.trace.append(TraceStep(rule, detail, citation))

    def attack_hits(self, index: int, skill: int) -> AttackHits:
        """Hits the attack scores, and whether it is a critical hit."""
        attack = self.s.attacks[index]
        if attack.hits_by == "fixed":
            self.note(f"Attack {index + 1}", f"{attack.hits} hit(s) reach the target", cite.RAPID_FIRE)
            return AttackHits(attack.hits, False)
        if skill < 3:
            self.note(f"Attack {index + 1}", f"effective skill {skill}: no attack roll", cite.MIN_SKILL)
            return AttackHits(0, False)

        def scored(total: int) -> AttackHits:
            roll = success_roll(total, skill, self.rules)
            return AttackHits(hits_scored(roll, attack.rof, attack.recoil), roll.success and roll.critical)

        total = self.roller.roll(success_request(f"attack {index + 1}", classify=scored))
        result = scored(total)
        if self.explain:
            self.note(f"Attack {index + 1}", f"{success_roll(total, skill, self.rules)} → {result.hits} hit(s)"
                      + (", a critical hit" if result.critical else ""),
                      cite.CRIT_HIT if result.critical else cite.RAPID_FIRE)
        return result

    def evade(self, score: int, defendable: int, who: str = "Dodge", *, spoils: bool = False) -> Evasion:
        """One evasion roll by the dodger (after an Acrobatics roll for an acrobatic dodge).
        ``spoils``: a margin of 3 or more matters (a sacrificial dodge and drop)."""
        dodger, ruling = self.s.dodger, self.s.crit_dodge
        if dodger.acrobatic:
            skill = dodger.acrobatics
            made = success_roll(self.roller.roll(success_request(
                "Acrobatics", classify=lambda t: success_roll(t, skill, self.rules).success)), skill, self.rules)
            score += 2 if made.success else -2
            self.note("Acrobatic dodge", f"Acrobatics {made} → Dodge {score}", cite.ACROBATIC)

        def outcome(total: int) -> Evasion:
            # What the rule reads from this roll: success, hits avoided and — for a sacrificial
            # dodge and drop only — whether the margin reaches 3 (its size beyond that never matters).
            roll = success_roll(total, score, self.rules)
            spoiled = spoils and roll.success and roll.margin >= 3
            return Evasion(roll.success, 3 if spoiled else 0, hits_avoided(roll, defendable, ruling))

        total = self.roller.roll(success_request(who, classify=outcome))
        roll = success_roll(total, score, self.rules)
        avoided = hits_avoided(roll, defendable, ruling)
        self.evasions.append(roll.success)
        if self.explain:
            self.note(who, f"{roll} → avoids {avoided} of {defendable}", cite.RAPID_DODGE)
        return Evasion(roll.success, roll.margin, avoided)

    def friend_defends(self, defendable: int) -> int:
        """The friend's own Dodge after a failed sacrificial dodge: the hits it avoids."""
        score, ruling = self.s.friend.defense, self.s.crit_dodge
        total = self.roller.roll(success_request(
            "friend's Dodge", classify=lambda t: hits_avoided(success_roll(t, score, self.rules), defendable, ruling)))
        roll = success_roll(total, score, self.rules)
        avoided = hits_avoided(roll, defendable, ruling)
        self.note("Friend's defense", f"{roll} → avoids {avoided} of {defendable}", cite.RAPID_DODGE)
        return avoided

    def damage(self, hit: Hit, count: int, who: str) -> list[int]:
        """The injury of each of ``count`` hits, each with its own damage roll."""
        values = []
        for _ in range(count):
            values.append(self.one_damage(hit, f"damage to {who}"))
        return values

    def one_damage(self, hit: Hit, purpose: str) -> int:
        """One damage roll for ``hit``: its injury (the pipeline's steps in the trace)."""
        table = _injuries(hit)
        total = self.roller.roll(damage_request(purpose, hit.damage.dice, classify=table.__getitem__))
        if not self.explain:
            return table[total]
        value, steps = injury(hit, total, explain=True)
        self.trace.extend(steps)
        return value

    def finish(self, outcome: str, hits: int, injuries: list[int], **quantities) -> Play:
        """The play: outcome, hits on the dodger, his evasion rolls, and the quantities the
        headlines read (injury, down, major wound, and what the situation adds)."""
        pool = self.s.pool()
        total = sum(injuries)
        wounded = pool.name == "HP" and any(major_wound(v, self.s.target.hp) for v in injuries)
        return Play(outcome, hits, tuple(self.evasions),
                    {"injury": total, "down": total >= pool.left, "major_wound": wounded, **quantities},
                    tuple(self.trace))


def _play_attacks(turn: _Turn) -> Play:
    s = turn.s
    option = defense_option(s)
    dropped, arrived, landed, dodged, injuries, major = False, 0, 0, 0, [], False
    for index in range(len(s.attacks)):
        ctx = attack_context(s, index, dropped)
        if ctx.blocked:
            turn.note(f"Attack {index + 1}", "blocked by complete cover", cite.COVER)
            continue
        hits, critical = turn.attack_hits(index, ctx.skill.value)
        if not hits:
            continue
        free = undefendable(hits, critical, s.crit_hit)
        avoided = 0
        if hits > free and option != "none":
            avoided = turn.evade(ctx.dodge.value, hits - free).avoided
            dropped = dropped or option == "dodge_and_drop"
        arrived += hits
        landed += hits - avoided
        dodged += avoided
        values = turn.damage(ctx.hit, hits - avoided, "the dodger")
        major = major or any(major_wound(v, s.target.hp) for v in values)
        injuries += values
    pool = s.pool()
    label = ladder_label(arrived > 0, landed > 0, sum(injuries), major and pool.name == "HP", pool.left, pool.name)
    return turn.finish(label, landed, injuries, hits_dodged=dodged, ends_prone=dropped and ends_prone(s))


def _play_sacrificial(turn: _Turn) -> Play:
    s = turn.s
    ctx = sacrificial_context(s)
    hits, critical = turn.attack_hits(0, ctx.skill.value)
    drop = defense_option(s) == "dodge_and_drop"
    friend_hits, dodger_hits, rolled = 0, 0, False
    if hits:
        free = undefendable(hits, critical, s.crit_hit)
        friend_hits = free
        if hits > free and defense_option(s) == "none":
            turn.note("No sacrificial dodge", "the dodger does not interpose; the attack goes at the friend",
                      cite.SACRIFICIAL)
            if s.friend.defends:
                friend_hits += hits - free - turn.friend_defends(hits - free)
            else:
                friend_hits += hits - free
        elif hits > free:
            rolled = True
            made = turn.evade(ctx.dodge.value, hits - free, "Sacrificial dodge", spoils=drop)
            if made.success and drop and made.margin >= 3:
                turn.note("Sacrificial dodge and drop", "success by 3 or more: neither is hit", cite.SACRIFICIAL)
            elif made.success:
                dodger_hits = hits - free
                turn.note("Sacrificial dodge", f"the dodger takes {dodger_hits} hit(s)", cite.SACRIFICIAL)
            elif s.friend.defends:
                friend_hits += hits - free - turn.friend_defends(hits - free)
            else:
                friend_hits += hits - free
    injuries = turn.damage(ctx.hit, dodger_hits, "the dodger")
    friend_injuries = turn.damage(s.friend_hit(), friend_hits, "the friend")
    if not hits:
        label = NO_HIT
    elif dodger_hits and friend_hits:
        label = BOTH_HIT
    elif dodger_hits:
        label = DODGER_HIT
    elif friend_hits:
        label = FRIEND_HIT
    else:
        label = NEITHER if turn.evasions and turn.evasions[0] else FRIEND_DEFENDS
    return turn.finish(label, dodger_hits, injuries, ends_prone=rolled and ends_prone(s),
                       friend_hit=friend_hits > 0, friend_injury=sum(friend_injuries))


def _play_smother(turn: _Turn) -> Play:
    s = turn.s
    tried = defense_option(s) != "none"
    made = tried and turn.evade(dodge_score(s, "blast", False).value, 1, "Sacrificial dodge and drop").success
    # A smothered explosive is at most a step away (the scenario's check), inside any blast's
    # reach of 2 yards per die: the dodger is caught by it whatever he does.
    if not tried:
        turn.note("Nobody on the explosive", "the dodger does not throw himself on it: the blast goes off "
                  "with everyone where they stood", cite.EXPLOSION)
        injuries = [turn.one_damage(blast_hit(s, s.blast.distance), "blast damage to the dodger")]
    elif made:
        turn.note("On the explosive", f"a contact explosion ({s.smother_damage}); the friend is spared", cite.CONTACT)
        contact = blast_hit(s, 0)
        if s.smother_damage == "maximum":
            value, steps = injury(contact, 6 * contact.damage.dice, explain=turn.explain)
            turn.trace.extend(steps)
            injuries = [value]
        else:
            injuries = [turn.one_damage(contact, "blast damage to the dodger")]
    else:
        turn.note("Too slow", "the blast goes off with everyone where they stood", cite.EXPLOSION)
        injuries = [turn.one_damage(blast_hit(s, s.blast.distance), "blast damage to the dodger")]
    # The friend's share of the blast is rolled either way: what he takes if it goes off, and
    # what he is spared if the dodger smothers it.
    exposed = 0
    if blast_reaches(s, s.friend.distance):
        exposed = turn.one_damage(blast_hit(s, s.friend.distance, friend=True), "blast damage to the friend")
        if made:
            turn.note("The friend, spared", f"with nobody on the explosive he would have taken {exposed}",
                      cite.EXPLOSION)
    friend_caught = not made and blast_reaches(s, s.friend.distance)
    return turn.finish(SMOTHERED if made else TOO_SLOW if tried else LEFT_ALONE, 1, injuries,
                       ends_prone=ends_prone(s), friend_hit=friend_caught,
                       friend_injury=exposed if friend_caught else 0, friend_injury_unprotected=exposed)


def _play_dive(turn: _Turn) -> Play:
    s = turn.s
    blast, cover = s.blast, s.cover
    tried = defense_option(s) != "none"
    made = tried and turn.evade(dodge_score(s, "blast", False).value, 1, "Diving for cover").success
    distance, cover_dr = blast.distance, 0
    if not tried:
        label = STAYED
        turn.note("No dive", "the dodger does not dive: the effect finds him where he stands", cite.DIVE)
    elif not made:
        label = CAUGHT
    elif cover.kind == "full":
        label = FULL_COVER
        turn.note("Diving for cover", "the dodger reaches complete cover in time", cite.DIVE)
    elif cover.kind == "dr":
        label, cover_dr = DR_COVER, cover.dr
    elif blast.spread == "explosion":
        label, distance = FARTHER, blast.distance + 1
    else:
        label = STILL_IN_AREA
    if label != FULL_COVER and not blast_reaches(s, distance):
        turn.note("Blast", f"{distance} yards is beyond its reach", cite.EXPLOSION)
        label = OUT_OF_REACH
    struck = label not in (FULL_COVER, OUT_OF_REACH)
    # One damage roll for the dodger serves both what the blast does to him and what it would
    # have done had he been caught where he stood.
    value = if_caught = 0
    if blast_reaches(s, blast.distance):
        caught = blast_hit(s, blast.distance)
        taken = blast_hit(s, distance, cover_dr) if struck else None
        table, taken_table = _injuries(caught), _injuries(taken) if taken else None
        total = turn.roller.roll(damage_request(
            "blast damage to the dodger", caught.damage.dice,
            classify=lambda t: (table[t], taken_table[t] if taken_table else 0)))
        if_caught = table[total]
        if taken is not None:
            value, steps = injury(taken, total, explain=turn.explain)
            turn.trace.extend(steps)
        if label not in (CAUGHT, STAYED):
            turn.note("Had he been caught", f"where he stood, the same dice would have done {if_caught}", cite.DIVE)
    return turn.finish(label, int(struck), [value] if struck else [], ends_prone=ends_prone(s),
                       injury_if_caught=if_caught)


_SITUATIONS = {"attacks": _play_attacks, "sacrificial": _play_sacrificial, "smother": _play_smother,
               "dive": _play_dive}


def play(scenario: GurpsScenario, roller: Roller) -> Play:
    """Resolve the scenario once with the dice ``roller`` hands out."""
    return _SITUATIONS[scenario.situation](_Turn(scenario, roller))
