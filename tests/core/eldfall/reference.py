"""An independent reference for Eldfall Chronicles, written from the rules text (Rulebook v1.6
and the readings in docs/rulings/eldfall.md), sharing no code with ``rules_core``: it reads a
scenario's plain data (``scenario.to_data()``) and walks the faces 1..20 of every die itself.

What it restates, each in its own words below:

- which number each roll is made against: the Attack attribute plus its modifiers plus cover
  (Light −2, Heavy −4); AG plus its modifiers, halved rounding up without LoS unless the model
  has Acute Senses; one die when the attacker reacts;
- what a face does: a 1 is a Critical, above 20 a 20 is one too, at 0 or less every face fails;
- the rule's constants as the scenario's ``variant`` sets them (house rules): the highest face
  that is a Critical when it succeeds (the rulebook's 1), and which way halving rounds (the
  rulebook's up: AG without LoS and the half-SPD move);
- which Hits a reaction cancels (a Dodge or Ward: every non-Critical Hit of that Attack; under
  ``compared`` the Dodge must also be at least the best non-Critical attack die, a Critical AG
  roll beating every die), which one Protective Barrier takes (the first Hit still landing, a
  Critical first), what each landing Hit does (a damage roll under PW − ARM, under PW for a
  Critical; Burn after a Wound; Stagger and Knockdown unless two Sizes larger), what a Sweep
  does to the second model, and how far the defender may move afterwards.

It is slow and plain on purpose: dictionaries of exact probabilities, one die at a time.
"""

from __future__ import annotations

from fractions import Fraction
from math import ceil, floor
from typing import Any, NamedTuple

SIDES = range(1, 21)
ONE_FACE = Fraction(1, 20)
COVER = {"none": 0, "light": -2, "heavy": -4}


class Defender(NamedTuple):
    """What the Attacks did to the defender, summed over the Attacks."""

    hits: int
    wounds: int
    ap_lost: int
    knocked_down: bool
    every_dodge: bool     # every AG roll made succeeded (True when none was made)
    some_dodge: bool      # at least one AG roll succeeded


class Reference(NamedTuple):
    """The reference's answer: the defender's joint distribution, the second model's (hits,
    wounds) distribution (None without Sweep), the post-dodge move in inches (None: no move)."""

    defender: dict[Defender, Fraction]
    second_model: dict[tuple[int, int], Fraction] | None
    move: dict[int | None, Fraction]


def _add(table: dict, key: Any, p: Fraction) -> None:
    if p:
        table[key] = table.get(key, 0) + p


def face_result(face: int, target: int, critical: int = 1) -> str:
    """'crit', 'hit' or 'miss' for one d20 rolled under ``target``, a success on a face of
    ``critical`` or less being a Critical (the rulebook: a 1)."""
    if target <= 0:
        return "miss"
    if face == 20 and target > 20:
        return "crit"
    if face > target:
        return "miss"
    return "crit" if face <= critical else "hit"


def half(value: int, data: dict) -> int:
    """Half of ``value``, rounded as the scenario's rule constants say (the rulebook: up)."""
    return (ceil if data["variant"]["halving"] == "up" else floor)(Fraction(value, 2))


def chance_at_most(threshold: int) -> Fraction:
    """One damage roll wounding: the share of the 20 faces at or under ``threshold``."""
    return Fraction(sum(1 for f in SIDES if f <= threshold), 20)


def wounds_from(rolls: list[Fraction], burn: int, burn_chance: Fraction) -> dict[int, Fraction]:
    """Wounds from damage rolls that wound with the given chances, then Burn's extra rolls once
    at least one of them wounded."""
    base = {0: Fraction(1)}
    for p in rolls:
        step: dict[int, Fraction] = {}
        for w, q in base.items():
            _add(step, w + 1, q * p)
            _add(step, w, q * (1 - p))
        base = step
    out: dict[int, Fraction] = {}
    for w, q in base.items():
        if w == 0:
            _add(out, 0, q)
            continue
        extra = {0: Fraction(1)}
        for _ in range(burn):
            step = {}
            for b, r in extra.items():
                _add(step, b + 1, r * burn_chance)
                _add(step, b, r * (1 - burn_chance))
            extra = step
        for b, r in extra.items():
            _add(out, w + b, q * r)
    return out


def attack_dice(attacker: dict, critical: int) -> dict[tuple[int, int, int], Fraction]:
    """The Attack dice: (Critical Hits, Hits, best face among the Hits) with their chances."""
    target = attacker["value"] + attacker["mod"] + COVER[attacker["cover"]]
    count = 1 if attacker["reacting"] else attacker["stk"]
    pool = {(0, 0, 0): Fraction(1)}
    for _ in range(count):
        step: dict[tuple[int, int, int], Fraction] = {}
        for (crits, hits, best), p in pool.items():
            for face in SIDES:
                result = face_result(face, target, critical)
                if result == "crit":
                    _add(step, (crits + 1, hits, best), p * ONE_FACE)
                elif result == "hit":
                    _add(step, (crits, hits + 1, max(best, face)), p * ONE_FACE)
                else:
                    _add(step, (crits, hits, best), p * ONE_FACE)
        pool = step
    return pool


def agility_for(data: dict, attacker: dict) -> int:
    """The AG the Dodge against this attacker is rolled under."""
    defender = data["defender"]
    total = defender["ag"] + defender["ag_mod"]
    if not attacker["los"] and not defender["acute_senses"]:
        total = half(total, data)
    return total


def one_attack(data: dict, attacker: dict) -> dict[tuple, Fraction]:
    """One Attack against the defender's reaction, before Protective Barrier:
    (dodged or None, Critical Hits, Hits still landing, the Attack roll succeeded)."""
    defender = data["defender"]
    reaction = defender["reaction"]
    out: dict[tuple, Fraction] = {}
    critical = data["variant"]["critical_face"]
    for (crits, hits, best), p in attack_dice(attacker, critical).items():
        succeeded = crits + hits > 0
        if reaction == "none":
            _add(out, (None, crits, hits, succeeded), p)
        elif reaction == "ward":
            _add(out, (None, crits, 0, succeeded), p)
        else:
            ag = agility_for(data, attacker)
            for face in SIDES:
                result = face_result(face, ag, critical)
                if data["dodge_resolution"] == "compared" and result == "hit":
                    dodged = face >= best
                else:
                    dodged = result != "miss"
                _add(out, (dodged, crits, 0 if dodged else hits, succeeded), p * ONE_FACE)
    return out


def reference(data: dict) -> Reference:
    """The exact distributions of the scenario given as plain data."""
    defender = data["defender"]
    start = Defender(0, 0, 0, False, True, False)
    states: dict[tuple[bool, Defender], Fraction] = {(defender["barrier"], start): Fraction(1)}
    second: dict[tuple[int, int], Fraction] = {(0, 0): Fraction(1)}
    for attacker in data["attackers"]:
        rolled = one_attack(data, attacker)
        effects = defender["size"] - attacker["size"] < 2
        step: dict[tuple[bool, Defender], Fraction] = {}
        for (barrier, so_far), p in states.items():
            for (dodged, crits, hits, _), q in rolled.items():
                up = barrier
                if up and crits + hits:
                    up = False
                    if crits:
                        crits -= 1
                    else:
                        hits -= 1
                landed = crits + hits
                rolls = [chance_at_most(attacker["pw"])] * crits + \
                        [chance_at_most(attacker["pw"] - defender["arm"])] * hits
                for wounds, r in wounds_from(rolls, attacker["burn"], chance_at_most(attacker["pw"])).items():
                    now = Defender(
                        so_far.hits + landed, so_far.wounds + wounds,
                        so_far.ap_lost + (landed if attacker["stagger"] and effects else 0),
                        so_far.knocked_down or bool(landed and attacker["knockdown"] and effects),
                        so_far.every_dodge and dodged is not False,
                        so_far.some_dodge or dodged is True)
                    _add(step, (up, now), p * q * r)
        states = step
        if attacker["sweep"]:
            swept: dict[tuple[int, int], Fraction] = {}
            for (_, crits, _, succeeded), q in rolled.items():
                if not succeeded:
                    for key, p in second.items():
                        _add(swept, key, p * q)
                    continue
                critical = data["sweep_hit"] == "critical" and crits > 0
                arm = 0 if critical else data["second_model"]["arm"]
                for wounds, r in wounds_from([chance_at_most(attacker["pw"] - arm)], attacker["burn"],
                                             chance_at_most(attacker["pw"])).items():
                    for (h, w), p in second.items():
                        _add(swept, (h + 1, w + wounds), p * q * r)
            second = swept
    joint: dict[Defender, Fraction] = {}
    for (_, outcome), p in states.items():
        _add(joint, outcome, p)
    move: dict[int | None, Fraction] = {}
    for outcome, p in joint.items():
        if defender["reaction"] != "dodge":
            _add(move, None, p)
        elif data["post_dodge_move"] == "rulebook":
            _add(move, half(defender["spd"], data), p)
        else:
            _add(move, defender["spd"] if outcome.some_dodge else None, p)
    swept_any = any(a["sweep"] for a in data["attackers"])
    return Reference(joint, second if swept_any else None, move)
