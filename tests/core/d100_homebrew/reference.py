"""An independent reference for the d100 homebrew's Evasion, written from the rules text (the
house rules' «Избегание» and the readings in docs/rulings/d100-homebrew.md), sharing no code with
``rules_core`` beyond reading the scenario's fields and the faces 1..100 of a d100.

It plays the Turn as a player would: attack after attack in the order made, one Evasion roll per
attack at most, each Success evading one hit, leftovers paying later attacks' hits at 2 each plus
1 per full −10 of extra penalty, a Leap instead of evading after a passed Dodge against a shot.
Every number of Successes a roll can score is followed, weighted by how many faces give it, so
the answer is exact.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from typing import NamedTuple

D100 = range(1, 101)


class Fate(NamedTuple):
    """What became of one attack's hits."""

    rolled: bool
    by_roll: int
    by_leftovers: int
    by_leap: int
    landed: int
    in_cover: int


class Turn(NamedTuple):
    """What the whole Turn came to."""

    hits: int            # landing on the defender, in the open or against Cover
    in_cover: int
    stray: int
    disengage: bool
    rolls: tuple[int, ...]   # Successes of each Evasion roll made (0: failed)
    fates: tuple[Fate, ...]


# -- one d100 test ---------------------------------------------------------------------------------

def passes(face: int, target: int, sc) -> bool:
    """Roll-under; 01 always passes and 100 always fails under the default rulings."""
    if face == 1 and sc.roll_01 == "passes":
        return True
    if face == 100 and sc.roll_100 == "fails":
        return False
    return face <= target


def successes(face: int, target: int, sc) -> int:
    """0 on a failure; on a pass 1, plus one per full 10 the face is under the target (Only War),
    or plus the target's tens digit less the face's (Dark Heresy 2nd ed.). A house rule
    (``sc.variant.points_per_success``) puts another number of points for the 10: the "digits"
    are then that many points wide."""
    if not passes(face, target, sc):
        return 0
    width = sc.variant.points_per_success
    if sc.successes == "tens_digits":
        extra = target // width - face // width
    else:
        extra = 0
        while face <= target - width * (extra + 1):
            extra += 1
    return 1 + max(0, extra)


def successes_of(target: int, sc) -> Counter:
    """How many of the 100 faces score each number of Successes."""
    return Counter(successes(face, target, sc) for face in D100)


# -- the Turn ---------------------------------------------------------------------------------------

def target(sc, attack) -> int:
    """Dodge(A) or Parry(WS): characteristic + advance + modifier + the attack's modifier."""
    d = sc.defender
    if attack.evasion == "dodge":
        return d.agility + d.dodge_advance + d.dodge_modifier + attack.evasion_modifier
    return d.weapon_skill + d.parry_advance + d.parry_modifier + attack.evasion_modifier


def is_shot(attack) -> bool:
    """A shooting attack or a shot fired in melee."""
    return attack.kind in ("shooting", "shot_in_melee")


def can_parry(sc, attack) -> bool:
    """Only melee blows and shots fired in melee, never a whole-Base area, and a larger attacker
    needs +10 advance per Size (4 Sizes or more: never)."""
    if attack.kind == "shooting" or attack.covers_whole_base:
        return False
    return sc.sizes_larger < 4 and sc.defender.parry_advance >= 10 * sc.sizes_larger


def can_leap(sc, attack) -> bool:
    """A planned Leap after a Dodge against a shot, no longer than SPD."""
    return (attack.leap != "none" and attack.evasion == "dodge" and is_shot(attack)
            and attack.leap_distance <= sc.defender.spd)


def leftover_price(sc, first, later) -> int:
    """2 Successes per hit, +1 for each full −10 by which the later attack's penalty to Evasion
    exceeds the first one's (penalties as positive amounts of minus); a house rule
    (``sc.variant``) may change the 2 and the 10."""
    extra_penalty = (-later.evasion_modifier) - (-first.evasion_modifier)
    price = sc.variant.leftover_cost
    while extra_penalty >= sc.variant.penalty_step:
        price += 1
        extra_penalty -= sc.variant.penalty_step
    return price


def turn_outcomes(sc) -> dict[Turn, Fraction]:
    """The exact distribution of what the Turn comes to, over every face of every roll made."""
    attacks = sc.attacks
    d = sc.defender
    leap_budget = d.spd * (1 + d.unspent_ap + (1 if d.delayed_half_action else 0))
    found: Counter = Counter()

    def go(i, left, reactions, leap_used, engaged, landed, in_cover, stray, disengage, rolls, fates, weight):
        if i == len(attacks):
            key = Turn(landed + in_cover, in_cover, stray, disengage, tuple(rolls), tuple(Fate(*f) for f in fates))
            found[key] += weight
            return
        a = attacks[i]
        hits = left[i]
        legal = a.evasion == "dodge" or (a.evasion == "parry" and can_parry(sc, a))
        leap_ok = can_leap(sc, a)
        fits = leap_used + a.leap_distance <= leap_budget
        if a.covers_whole_base and not (leap_ok and fits):
            legal = False  # only a Leap dodges it
        if hits == 0 or not legal or reactions == 0:
            f = [list(x) for x in fates]
            f[i][4] += hits
            go(i + 1, left, reactions, leap_used, engaged, landed + hits, in_cover, stray, disengage, rolls, f,
               weight)
            return
        for s, faces in successes_of(target(sc, a), sc).items():
            f = [list(x) for x in fates]
            f[i][0] = True
            now = list(left)
            now[i] = 0
            used, eng, lan, cov, st, dis = leap_used, engaged, landed, in_cover, stray, disengage
            if s == 0:
                f[i][4] += hits
                lan += hits
            elif leap_ok and fits and (a.covers_whole_base or sc.leap_policy == "as_planned" or s < hits):
                used += a.leap_distance
                if a.leap == "cover":
                    f[i][5] += hits
                    cov += hits
                else:
                    f[i][3] += hits
                    if a.next_target:
                        st += hits
                if eng:
                    eng = False
                    dis = dis or not a.free_attackers_evade
            else:
                evaded = min(s, hits)
                f[i][1] += evaded
                f[i][4] += hits - evaded
                lan += hits - evaded
                if a.evasion == "dodge" and is_shot(a) and a.next_target:
                    st += evaded
                spare = s - evaded
                later = [j for j in range(i + 1, len(attacks)) if not attacks[j].covers_whole_base
                         and (a.evasion == "dodge" or attacks[j].kind != "shooting")]
                if sc.spending == "cheapest_first":
                    later.sort(key=lambda j: leftover_price(sc, a, attacks[j]))
                for j in later:
                    price = leftover_price(sc, a, attacks[j])
                    paid = min(now[j], spare // price)
                    now[j] -= paid
                    spare -= paid * price
                    f[j][2] += paid
                    if a.evasion == "dodge" and is_shot(attacks[j]) and attacks[j].next_target:
                        st += paid
            go(i + 1, tuple(now), reactions - 1, used, eng, lan, cov, st, dis, rolls + [s], f,
               weight * Fraction(faces, len(D100)))

    go(0, tuple(a.hits for a in attacks), d.reactions, 0, d.engaged_in_melee, 0, 0, 0, False, [],
       [[False, 0, 0, 0, 0, 0] for _ in attacks], Fraction(1))
    return dict(found)


def expectation(outcomes: dict[Turn, Fraction], value) -> Fraction:
    """The mean of ``value(turn)``."""
    return sum((p * value(t) for t, p in outcomes.items()), Fraction(0))


def probability(outcomes: dict[Turn, Fraction], event) -> Fraction:
    """The chance of ``event(turn)``."""
    return sum((p for t, p in outcomes.items() if event(t)), Fraction(0))


def headlines(sc) -> dict[str, Fraction | None]:
    """Every headline quantity of the rules notes, from the reference's distribution."""
    out = turn_outcomes(sc)
    p_rolled = probability(out, lambda t: bool(t.rolls))
    any_next_target = any(is_shot(a) and a.next_target for a in sc.attacks)
    return {
        "p_dodge_succeeds": (probability(out, lambda t: bool(t.rolls) and all(t.rolls)) / p_rolled
                             if p_rolled else None),
        "p_no_hit": probability(out, lambda t: t.hits == 0),
        "expected_hits": expectation(out, lambda t: t.hits),
        "expected_successes": expectation(out, lambda t: sum(t.rolls)),
        "expected_hits_in_cover": expectation(out, lambda t: t.in_cover),
        "p_stray_shot": probability(out, lambda t: t.stray > 0) if any_next_target else None,
        "p_disengage": probability(out, lambda t: t.disengage) if sc.defender.engaged_in_melee else None,
    }
