"""Eldfall Chronicles: the die rules. A d20 rolled under a modified attribute (a 1 is a Critical,
above 20 a 20 is too, at 0 or less an automatic failure), the damage roll, and which attribute
each roll is made against (cover, STK 1 when reacting, AG halved without LoS). The critical face
and halving's rounding are parameters, their defaults the official values (a scenario's
``variant`` holds the values in force).

>>> attribute_roll(1, 10), attribute_roll(10, 10), attribute_roll(11, 10)
('critical', 'success', 'failure')
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from typing import Literal

from ...d20 import FACES, check_face, faces_at_most
from .scenario import Attacker, Defender, EldfallScenario

__all__ = ["FACES", "Kind", "COVER_MODS", "CRITICAL_FACE", "HALVING", "halved", "modified_attribute",
           "attribute_roll", "wounds_on", "effects_apply", "attack_value", "attack_dice",
           "dodge_value", "face_kinds", "wound_faces", "unopposed_dodge"]

#: What one attribute roll comes to.
Kind = Literal["critical", "success", "failure"]

#: Cover of the defender: a modifier to the Attack roll.
COVER_MODS = {"none": 0, "light": -2, "heavy": -4}

#: The official rule: a face of 1 (and no other low face) is a Critical.
CRITICAL_FACE = 1
#: The official rule: halving rounds up.
HALVING = "up"


def halved(value: int, rounding: str = HALVING) -> int:
    """Half of ``value``, rounding ``up`` (the official rule) or ``down``.

    >>> halved(11), halved(11, "down"), halved(-3), halved(-3, "down")
    (6, 5, -1, -2)
    """
    return -(-value // 2) if rounding == "up" else value // 2


def modified_attribute(value: int, modifiers: int = 0, *, halve: bool = False,
                       rounding: str = HALVING) -> int:
    """The attribute after modifiers; halving comes after the other modifiers, rounding up
    (or ``rounding``).

    >>> modified_attribute(11, 0, halve=True), modified_attribute(12, -2, halve=True)
    (6, 5)
    >>> modified_attribute(11, 0, halve=True, rounding="down")
    5
    """
    total = value + modifiers
    return halved(total, rounding) if halve else total


def attribute_roll(face: int, value: int, critical: int = CRITICAL_FACE) -> Kind:
    """One d20 against a modified attribute (roll-under).

    A success iff face <= value; a successful face from 1 to ``critical`` (officially a 1 only) is
    a Critical; with the attribute above 20 a face of 20 is a Critical too; an attribute of 0 or
    less fails automatically (even on a 1).

    >>> attribute_roll(20, 21), attribute_roll(20, 20), attribute_roll(1, 0)
    ('critical', 'success', 'failure')
    >>> attribute_roll(2, 10), attribute_roll(2, 10, critical=2), attribute_roll(2, 1, critical=2)
    ('success', 'critical', 'failure')
    """
    check_face(face)
    if value <= 0:
        return "failure"
    if face == FACES and value > FACES:
        return "critical"
    if face > value:
        return "failure"
    return "critical" if face <= critical else "success"


def wounds_on(face: int, threshold: int) -> bool:
    """One damage roll: a Wound iff face <= threshold (PW − ARM, or PW for a Critical Hit or
    Burn). A threshold of 0 or less never wounds; damage rolls have no Criticals.

    >>> wounds_on(8, 8), wounds_on(9, 8), wounds_on(1, 0)
    (True, False, False)
    """
    return check_face(face) <= threshold


def effects_apply(attacker_size: int, target_size: int) -> bool:
    """Stagger and Knockdown do not affect a model two or more Sizes larger than the attacker."""
    return target_size - attacker_size < 2


def attack_value(attacker: Attacker) -> int:
    """The Attack roll's modified attribute: value + modifiers + cover."""
    return modified_attribute(attacker.value, attacker.mod + COVER_MODS[attacker.cover])


def attack_dice(attacker: Attacker) -> int:
    """STK, or 1 when the attacker reacts."""
    return 1 if attacker.reacting else attacker.stk


def dodge_value(defender: Defender, attacker: Attacker, rounding: str = HALVING) -> int:
    """The defender's AG for the Dodge against this attacker (halved without LoS, rounding up
    or ``rounding``, unless it has Acute Senses)."""
    halve = not attacker.los and not defender.acute_senses
    return modified_attribute(defender.ag, defender.ag_mod, halve=halve, rounding=rounding)


@cache
def face_kinds(value: int, critical: int = CRITICAL_FACE) -> tuple[Kind, ...]:
    """What each face 1..20 does against ``value`` (index 0 is face 1), a successful face up to
    ``critical`` being a Critical."""
    return tuple(attribute_roll(f, value, critical) for f in range(1, FACES + 1))


def wound_faces(threshold: int) -> int:
    """How many of the 20 faces of a damage roll wound at this threshold.

    >>> wound_faces(8), wound_faces(-2), wound_faces(25)
    (8, 0, 20)
    """
    return faces_at_most(threshold)


def unopposed_dodge(scenario: EldfallScenario) -> Fraction:
    """The defender's chance of passing a Dodge with nothing against it: one d20 under AG with
    its modifiers (a Critical counts as passed, whatever the critical face; AG 0 or less always
    fails).

    >>> unopposed_dodge(EldfallScenario()), unopposed_dodge(EldfallScenario().set("defender.ag", 0))
    (Fraction(1, 2), Fraction(0, 1))
    """
    value = modified_attribute(scenario.defender.ag, scenario.defender.ag_mod)
    return Fraction(sum(kind != "failure" for kind in face_kinds(value)), FACES)
