"""Eldfall Chronicles: Attacks, Dodge, Ward, Protective Barrier, damage, Burn and Sweep.

The rules are written once, on concrete dice faces: :func:`attribute_roll` (one d20 against a
modified attribute), :func:`wounds_on` (one damage roll) and :func:`resolve` (a whole scenario:
every Attack, the defender's reaction, Protective Barrier, damage, Burn, Stagger, Knockdown and
Sweep, returning the outcome and the trace of the rules applied). :func:`enumerate_rolls`
applies :func:`resolve` to every possible roll (the truth for small cases); :func:`evaluate` is the
fast exact algorithm the workbook uses, proved equal to the enumeration in the tests.

The fast path works per Attack: the Attack's dice and the defender's AG die give the Hits that
land (Critical and non-Critical), Protective Barrier is carried from Attack to Attack as a
two-state flag, and damage is a pair of binomials per Attack. Nothing is ever multiplied across
Attacks that depends on a shared die: each Attack has its own AG roll.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache
from itertools import combinations_with_replacement
from math import comb, factorial
from typing import Literal

from ..dist import Dist
from ..enumerate import enumerate_rule
from ..registry import Preset, Source, System
from ..result import Result, TraceStep
from ..scenario import Part, Scenario, choice, flag, number, part, parts, ruling

FACES = 20

CITE_ROLLS = "Eldfall Chronicles Rulebook v1.6, p.15 (Dice Rolls: attribute rolls, Criticals)"
CITE_ATTACK = "Eldfall Chronicles Rulebook v1.6, p.54 (Attack; Melee Attack: STK 1 when reacting)"
CITE_COVER = "Eldfall Chronicles Rulebook v1.6, Cover (Light −2, Heavy −4)"
CITE_DODGE = "Eldfall Chronicles Rulebook v1.6, p.57 (Dodge)"
CITE_DODGE_LOS = "Eldfall Chronicles Rulebook v1.6, p.57 (Dodge without LoS; Acute Senses I)"
CITE_CONFRONTATION = "Eldfall Chronicles Rulebook v1.6, p.23 (Confrontation rolls)"
CITE_DAMAGE = "Eldfall Chronicles Rulebook v1.6, Damage rolls (PW − ARM; a Critical Hit ignores ARM)"
CITE_BURN = "Eldfall Chronicles Rulebook v1.6, p.70 (Burn (X))"
CITE_STAGGER = "Eldfall Chronicles Rulebook v1.6, Traits: Stagger and Knockdown"
CITE_SWEEP = "Eldfall Chronicles Rulebook v1.6, p.73 (Sweep I/II)"
CITE_WARD = "Eldfall Chronicles, spell Ward (a magical Dodge); seed page Dodge, Interactions"
CITE_BARRIER = "Eldfall Chronicles, spell Protective Barrier; seed page Dodge, Interactions"
CITE_MOVE_RULEBOOK = "Eldfall Chronicles Rulebook v1.6, Dodge: half SPD rounded up, even after a failed roll"
CITE_MOVE_SEED = "Eldfall Chronicles Dodge page (seed), Resolution and Discord answer, Feb 2026"
CITE_DEFAULTS = "Dodge Workbook rulings for Eldfall (docs/rulings/eldfall.md)"

COVER_MODS = {"none": 0, "light": -2, "heavy": -4}

Kind = Literal["critical", "success", "failure"]


# -- the rule, on concrete dice faces ------------------------------------------------------------

def modified_attribute(value: int, modifiers: int = 0, *, halve: bool = False) -> int:
    """The attribute after modifiers; halving comes after the other modifiers, rounding up.

    >>> modified_attribute(11, 0, halve=True), modified_attribute(12, -2, halve=True)
    (6, 5)
    """
    total = value + modifiers
    return -(-total // 2) if halve else total


def attribute_roll(face: int, value: int) -> Kind:
    """One d20 against a modified attribute (roll-under).

    A success iff face <= value; a face of 1 is a Critical; with the attribute above 20 a face of
    20 is a Critical too; an attribute of 0 or less fails automatically (even on a 1).

    >>> [attribute_roll(f, 10) for f in (1, 10, 11)]
    ['critical', 'success', 'failure']
    >>> attribute_roll(20, 21), attribute_roll(20, 20), attribute_roll(1, 0)
    ('critical', 'success', 'failure')
    """
    if not 1 <= face <= FACES:
        raise ValueError(f"a d20 face is 1..20, got {face}")
    if value <= 0:
        return "failure"
    if face == 1 or (face == FACES and value > FACES):
        return "critical"
    return "success" if face <= value else "failure"


def wounds_on(face: int, threshold: int) -> bool:
    """One damage roll: a Wound iff face <= threshold (PW − ARM, or PW for a Critical Hit or
    Burn). A threshold of 0 or less never wounds; damage rolls have no Criticals.

    >>> wounds_on(8, 8), wounds_on(9, 8), wounds_on(1, 0)
    (True, False, False)
    """
    if not 1 <= face <= FACES:
        raise ValueError(f"a d20 face is 1..20, got {face}")
    return face <= threshold


def effects_apply(attacker_size: int, target_size: int) -> bool:
    """Stagger and Knockdown do not affect a model two or more Sizes larger than the attacker."""
    return target_size - attacker_size < 2


# -- the scenario ---------------------------------------------------------------------------------

class Attacker(Part):
    """One attacking model and its Attack."""

    attribute: Literal["OFF", "DEF", "ACC", "INT"] = choice(
        "OFF", label="Attack attribute", citation=CITE_ATTACK,
        help="The attribute the Attack is rolled against (OFF active melee, DEF reactive melee, "
             "ACC ranged, INT spells).",
        labels={"OFF": "OFF (melee, active)", "DEF": "DEF (melee, reacting)",
                "ACC": "ACC (ranged)", "INT": "INT (spell)"})
    value: int = number(12, ge=0, le=30, label="Attribute value", citation=CITE_ROLLS,
                        help="The attacker's value of that attribute.")
    mod: int = number(0, ge=-10, le=10, label="Other modifiers", citation=CITE_ROLLS,
                      help="Sum of the other modifiers to the Attack roll (cover is set apart).")
    cover: Literal["none", "light", "heavy"] = choice(
        "none", label="Defender's cover", citation=CITE_COVER,
        help="Cover of the defender against this Attack: Light −2, Heavy −4 to the Attack roll.",
        labels={"none": "No cover", "light": "Light cover (−2)", "heavy": "Heavy cover (−4)"})
    stk: int = number(2, ge=1, le=6, label="STK", citation=CITE_ATTACK,
                      help="Strike: the number of Attack dice in the Active Role.")
    reacting: bool = flag(False, label="Reacting (STK 1)", citation=CITE_ATTACK,
                          help="The attacker attacks as a Reaction: its Strike becomes 1.")
    pw: int = number(12, ge=0, le=30, label="PW", citation=CITE_DAMAGE,
                     help="Power of the Attack: a damage roll wounds on PW − ARM or less.")
    burn: int = number(0, ge=0, le=4, label="Burn (X)", citation=CITE_BURN,
                       help="After at least one Wound, X extra damage rolls at the same PW and ARM 0.")
    stagger: bool = flag(False, label="Stagger", citation=CITE_STAGGER,
                         help="Each Hit that lands costs the target 1 AP.")
    knockdown: bool = flag(False, label="Knockdown", citation=CITE_STAGGER,
                           help="A model that suffers a Hit becomes Crouched.")
    sweep: bool = flag(False, label="Sweep", citation=CITE_SWEEP,
                       help="On a successful Attack roll every other model in reach (the second "
                            "model) suffers a Hit.")
    size: int = number(2, ge=1, le=5, label="Size", citation=CITE_STAGGER,
                       help="The attacker's Size (Stagger and Knockdown spare models two or more "
                            "Sizes larger).")
    los: bool = flag(True, label="Defender has LoS to it", citation=CITE_DODGE_LOS,
                     help="Whether the defender sees this attacker; without LoS its AG is halved "
                          "for this Dodge unless it has Acute Senses.")


class Defender(Part):
    """The model that is attacked and reacts."""

    ag: int = number(10, ge=0, le=30, label="AG", citation=CITE_DODGE,
                     help="The defender's Agility attribute (the Dodge roll).")
    ag_mod: int = number(0, ge=-10, le=10, label="AG modifiers", citation=CITE_ROLLS,
                         help="Sum of other modifiers to the Dodge roll, before any halving.")
    arm: int = number(2, ge=0, le=20, label="ARM", citation=CITE_DAMAGE,
                      help="Armour: subtracted from PW for non-Critical Hits.")
    size: int = number(2, ge=1, le=5, label="Size", citation=CITE_STAGGER,
                       help="The defender's Size.")
    spd: int = number(5, ge=0, le=12, label="SPD", unit="″", citation=CITE_DODGE,
                      help="Speed, for the movement that follows a Dodge.")
    acute_senses: bool = flag(False, label="Acute Senses", citation=CITE_DODGE_LOS,
                              help="Acute Senses I or better: AG is not halved without LoS.")
    reaction: Literal["dodge", "ward", "none"] = choice(
        "dodge", label="Reaction", citation=CITE_DODGE,
        help="Dodge (one AG roll per enemy Attack), Ward (a magical Dodge already cast: no roll) "
             "or no reaction.",
        labels={"dodge": "Dodge", "ward": "Ward (spell)", "none": "No reaction"})
    barrier: bool = flag(False, label="Protective Barrier", citation=CITE_BARRIER,
                         help="Negates the first Hit that would land (a Critical first), then is gone.")


class SecondModel(Part):
    """Another model in the reach of a Sweep; it does not dodge."""

    arm: int = number(2, ge=0, le=20, label="ARM", citation=CITE_DAMAGE,
                      help="The second model's Armour.")
    size: int = number(2, ge=1, le=5, label="Size", citation=CITE_STAGGER,
                       help="The second model's Size.")


class EldfallScenario(Scenario):
    """A model reacting to one or more enemy Attacks in Eldfall Chronicles."""

    system: Literal["eldfall"] = "eldfall"
    attackers: tuple[Attacker, ...] = parts(
        lambda: (Attacker(),), min_items=1, max_items=4, label="Attackers", item_label="Attacker", citation=CITE_DODGE,
        help="Each attacking model's Attack, in the order they resolve; the defender makes one "
             "AG roll per Attack.")
    defender: Defender = part(Defender, label="Defender", citation=CITE_DODGE,
                              help="The model that is attacked and reacts.")
    second_model: SecondModel = part(
        SecondModel, label="Second model (Sweep)", citation=CITE_SWEEP,
        help="A model beside the defender, in the reach of any Sweep; it does not dodge.")
    dodge_resolution: Literal["independent", "compared"] = ruling(
        "independent", label="Dodge resolution", citation=CITE_DODGE,
        help="Whether a Dodge is a plain AG roll, or must also beat the Attack roll.",
        options={"independent": "A plain AG roll per enemy Attack (Rulebook v1.6, p.57)",
                 "compared": "The AG roll must also be at least the attacker's best non-Critical "
                             "successful die (the seed's 'compare against the attacker's Attack "
                             "roll')"})
    post_dodge_move: Literal["rulebook", "seed"] = ruling(
        "rulebook", label="Post-dodge movement", citation=CITE_MOVE_RULEBOOK,
        help="How far the model may move after it dodges.",
        options={"rulebook": "Up to half SPD rounded up, even after a failed roll; may enter or "
                             "cancel Crouched (Rulebook v1.6, Dodge)",
                 "seed": "Optional, up to full SPD, after a successful Dodge (the seed page)"})
    sweep_hit: Literal["plain", "critical"] = ruling(
        "plain", label="Sweep Hit on other models", citation=CITE_SWEEP,
        help="Whether the Hit a Sweep deals to other models can be a Critical Hit.",
        options={"plain": "Always a plain Hit: the rule speaks of 'a Hit' (Rulebook v1.6, p.73)",
                 "critical": "A Critical Hit when the Attack roll had a Critical"})


# -- the rule applied to one concrete roll --------------------------------------------------------

#: ``dice(label, n)`` gives the faces of the next ``n`` dice the rules call for (one group: the
#: Attack dice, the AG die, the damage rolls of the Critical Hits, of the other Hits, the Burn rolls).
Dice = Callable[[str, int], Sequence[int]]


def fixed_dice(faces: Iterable[int]) -> Dice:
    """Dice that give these faces in order (for a roll typed in, or a worked example)."""
    supply = iter(faces)

    def dice(label: str, n: int) -> tuple[int, ...]:
        got = tuple(next(supply, None) for _ in range(n))
        if None in got:
            raise ValueError(f"not enough faces given: {label} needs {n} more")
        return got

    return dice


def random_dice(rng: random.Random) -> Dice:
    """Dice rolled with the caller's random generator."""
    return lambda _label, n: tuple(rng.randint(1, FACES) for _ in range(n))


@dataclass(frozen=True)
class Resolution:
    """What one concrete roll of a scenario did.

    ``dodges`` holds one entry per AG roll made (True when that Dodge succeeded);
    ``hits``/``wounds`` are on the defender; ``ap_lost`` counts Stagger; ``second_hits`` and
    ``second_wounds`` are the second model's (None when no Attack has Sweep).
    """

    dodges: tuple[bool, ...]
    hits: int
    wounds: int
    ap_lost: int
    knocked_down: bool
    second_hits: int | None
    second_wounds: int | None
    trace: tuple[TraceStep, ...] = field(default=(), compare=False)

    def summary(self) -> tuple:
        """Every field except the trace, as a hashable tuple."""
        return (self.dodges, self.hits, self.wounds, self.ap_lost, self.knocked_down,
                self.second_hits, self.second_wounds)


def attack_value(attacker: Attacker) -> int:
    """The Attack roll's modified attribute: value + modifiers + cover."""
    return modified_attribute(attacker.value, attacker.mod + COVER_MODS[attacker.cover])


def attack_dice(attacker: Attacker) -> int:
    """STK, or 1 when the attacker reacts."""
    return 1 if attacker.reacting else attacker.stk


def dodge_value(defender: Defender, attacker: Attacker) -> int:
    """The defender's AG for the Dodge against this attacker (halved without LoS, round up,
    unless it has Acute Senses)."""
    halve = not attacker.los and not defender.acute_senses
    return modified_attribute(defender.ag, defender.ag_mod, halve=halve)


def _damage(dice: Dice, label: str, crits: int, plain: int, attacker: Attacker, arm: int,
            explain: bool, trace: list[TraceStep]) -> int:
    """Damage rolls for landing Hits (Criticals first), then Burn; the Wounds they cause."""
    shown: list[str] = []
    crit_faces = dice(f"{label}: damage rolls for Critical Hits", crits) if crits else ()
    plain_faces = dice(f"{label}: damage rolls for Hits", plain) if plain else ()
    wounds = sum(wounds_on(f, attacker.pw) for f in crit_faces)
    wounds += sum(wounds_on(f, attacker.pw - arm) for f in plain_faces)
    burned = 0
    burn_faces: Sequence[int] = ()
    if wounds and attacker.burn:
        burn_faces = dice(f"{label}: Burn rolls", attacker.burn)
        burned = sum(wounds_on(f, attacker.pw) for f in burn_faces)
    if explain and (crits or plain):
        if crit_faces:
            shown.append(f"{list(crit_faces)} for Critical Hits (Wound on {attacker.pw} or less)")
        if plain_faces:
            shown.append(f"{list(plain_faces)} for Hits (Wound on {attacker.pw - arm} or less)")
        if burn_faces:
            shown.append(f"{list(burn_faces)} for Burn (Wound on {attacker.pw} or less)")
        trace.append(TraceStep(f"{label}: damage", "rolled " + "; ".join(shown) +
                               f" → {wounds + burned} Wound(s)" +
                               (f", {burned} of them from Burn" if burned else ""),
                               CITE_BURN if burn_faces else CITE_DAMAGE))
    return wounds + burned


def resolve(scenario: EldfallScenario, dice: Dice, *, explain: bool = True) -> Resolution:
    """Apply the rules to one concrete roll. The rules call for dice in this order, for each
    Attack: the Attack dice, the defender's AG die (when it dodges), the defender's damage rolls
    for Critical Hits, for the other Hits, its Burn rolls, then the second model's damage and Burn
    rolls (Sweep). Within a group the order of the faces does not matter.

    >>> from rules_core.systems.eldfall import EldfallScenario, Attacker, fixed_dice, resolve
    >>> s = EldfallScenario(attackers=(Attacker(value=10, stk=2, pw=12),))
    >>> # A Critical Hit (1) and a Hit (5); AG roll 7 dodges the Hit; the Critical's damage roll 3
    >>> r = resolve(s, fixed_dice([1, 5, 7, 3]))
    >>> r.dodges, r.hits, r.wounds
    ((True,), 1, 1)
    """
    d = scenario.defender
    trace: list[TraceStep] = []
    dodges: list[bool] = []
    hits = wounds = ap_lost = 0
    knocked_down = False
    any_sweep = any(a.sweep for a in scenario.attackers)
    second_hits = 0 if any_sweep else None
    second_wounds = 0 if any_sweep else None
    barrier_up = d.barrier
    for i, a in enumerate(scenario.attackers, 1):
        label = f"Attack {i}"
        value = attack_value(a)
        faces = dice(f"{label}: attack dice", attack_dice(a))
        kinds = [attribute_roll(f, value) for f in faces]
        crits, plain = kinds.count("critical"), kinds.count("success")
        if explain:
            trace.append(TraceStep(f"{label}: Attack roll", f"{list(faces)} against {a.attribute} "
                                   f"{value} → {crits} Critical Hit(s), {plain} Hit(s)", CITE_ATTACK))
        landing_plain = plain
        if d.reaction == "dodge":
            ag = dodge_value(d, a)
            (face,) = dice(f"{label}: defender's AG roll", 1)
            kind = attribute_roll(face, ag)
            best = max((f for f, k in zip(faces, kinds) if k == "success"), default=0)
            if kind == "failure":
                ok = False
            elif scenario.dodge_resolution == "independent" or kind == "critical":
                ok = True
            else:
                ok = face >= best
            dodges.append(ok)
            if ok:
                landing_plain = 0
            if explain:
                why = f"AG roll {face} against {ag}: {kind}"
                if scenario.dodge_resolution == "compared" and kind == "success" and best:
                    why += f"; compared with the best non-Critical attack die {best}"
                trace.append(TraceStep(f"{label}: Dodge", why + (
                    " → the Dodge succeeds: non-Critical Hits and their effects are ignored"
                    if ok else " → the Dodge fails"), CITE_DODGE))
        elif d.reaction == "ward":
            landing_plain = 0
            if explain and plain:
                trace.append(TraceStep(f"{label}: Ward", f"{plain} non-Critical Hit(s) ignored", CITE_WARD))
        landing_crits = crits
        if barrier_up and landing_crits + landing_plain:
            barrier_up = False
            critical = landing_crits > 0
            if critical:
                landing_crits -= 1
            else:
                landing_plain -= 1
            if explain:
                trace.append(TraceStep(f"{label}: Protective Barrier", "negates one "
                                       f"{'Critical ' if critical else ''}Hit and is removed",
                                       CITE_BARRIER))
        landed = landing_crits + landing_plain
        hits += landed
        wounds += _damage(dice, label, landing_crits, landing_plain, a, d.arm, explain, trace)
        if landed and effects_apply(a.size, d.size):
            if a.stagger:
                ap_lost += landed
            if a.knockdown:
                knocked_down = True
        if a.sweep and crits + plain:
            critical = scenario.sweep_hit == "critical" and crits > 0
            second_hits += 1
            if explain:
                trace.append(TraceStep(f"{label}: Sweep", "the Attack roll succeeded: the second "
                                       f"model suffers a {'Critical ' if critical else ''}Hit",
                                       CITE_SWEEP))
            second_wounds += _damage(dice, f"{label}: Sweep on the second model", int(critical),
                                     int(not critical), a, scenario.second_model.arm, explain, trace)
    return Resolution(tuple(dodges), hits, wounds, ap_lost, knocked_down, second_hits,
                      second_wounds, tuple(trace))


@cache
def _multisets(n: int) -> tuple[tuple[tuple[int, ...], int], ...]:
    """Every multiset of ``n`` d20 faces with the number of ordered rolls it stands for."""
    out = []
    for faces in combinations_with_replacement(range(1, FACES + 1), n):
        out.append((faces, _multinomial(n, Counter(faces).values())))
    return tuple(out)


def enumerate_rolls(scenario: EldfallScenario) -> Dist:
    """Exhaustive enumeration: :func:`resolve` applied to every possible roll, each group of dice
    the rules call for taking every multiset of faces (weighted by the ordered rolls it stands
    for). Returns the distribution of :meth:`Resolution.summary`. Exponential in the number of
    dice: for small cases and tests."""
    return enumerate_rule(lambda ask: resolve(scenario, lambda _label, n: ask(n), explain=False),
                          lambda n: [(faces, ways, n) for faces, ways in _multisets(n)],
                          Resolution.summary, sides=FACES)


def roll_once(scenario: EldfallScenario, rng: random.Random) -> Resolution:
    """One random roll of the scenario, step by step, with its trace (``rng`` is the caller's)."""
    return resolve(scenario, random_dice(rng))


# -- fast exact path ------------------------------------------------------------------------------

@cache
def _face_kinds(value: int) -> tuple[Kind, ...]:
    """What each face 1..20 does against ``value`` (index 0 is face 1)."""
    return tuple(attribute_roll(f, value) for f in range(1, FACES + 1))


@cache
def _wound_faces(threshold: int) -> int:
    """How many of the 20 faces of a damage roll wound at this threshold."""
    return sum(wounds_on(f, threshold) for f in range(1, FACES + 1))


def _multinomial(n: int, counts: Sequence[int]) -> int:
    out = factorial(n)
    for c in counts:
        out //= factorial(c)
    return out


@cache
def _landing(value: int, dice: int, reaction: str, ag: int, resolution: str
             ) -> tuple[tuple[tuple[bool | None, int, int, int], int], ...]:
    """One Attack against the defender's reaction, before Protective Barrier.

    Atoms ``((ok, crits, plain_landing, sweep), weight)`` over 20**(dice + AG die): ``ok`` is the
    Dodge's success (None without a Dodge), ``sweep`` is 0 when the Attack roll failed, 1 when it
    succeeded without a Critical, 2 with one.
    """
    kinds = _face_kinds(value)
    wc, ws = kinds.count("critical"), kinds.count("success")
    wf = FACES - wc - ws
    out: dict[tuple[bool | None, int, int, int], int] = {}

    def add(key: tuple[bool | None, int, int, int], weight: int) -> None:
        if weight:
            out[key] = out.get(key, 0) + weight

    def sweep_of(c: int, p: int) -> int:
        return 2 if c else 1 if p else 0

    if reaction != "dodge" or resolution == "independent":
        ag_kinds = _face_kinds(ag) if reaction == "dodge" else ()
        ag_ok = sum(k != "failure" for k in ag_kinds)
        for c in range(dice + 1):
            for p in range(dice - c + 1):
                w = _multinomial(dice, (c, p, dice - c - p)) * wc ** c * ws ** p * wf ** (dice - c - p)
                if reaction == "dodge":
                    add((True, c, 0, sweep_of(c, p)), w * ag_ok)
                    add((False, c, p, sweep_of(c, p)), w * (FACES - ag_ok))
                else:
                    add((None, c, 0 if reaction == "ward" else p, sweep_of(c, p)), w)
        return tuple(out.items())
    # compared: condition on the AG face g; a non-Critical attack die beats the Dodge iff its
    # face is above g (a tie goes to the dodger, a Critical AG roll beats every attack die).
    success_faces = [f for f in range(1, FACES + 1) if kinds[f - 1] == "success"]
    for g, ag_kind in enumerate(_face_kinds(ag), 1):
        if ag_kind != "success":
            for c in range(dice + 1):
                for p in range(dice - c + 1):
                    w = _multinomial(dice, (c, p, dice - c - p)) * wc ** c * ws ** p * wf ** (dice - c - p)
                    ok = ag_kind == "critical"
                    add((ok, c, 0 if ok else p, sweep_of(c, p)), w)
            continue
        low = sum(1 for f in success_faces if f <= g)
        high = ws - low
        for c in range(dice + 1):
            for lo in range(dice - c + 1):
                for hi in range(dice - c - lo + 1):
                    rest = dice - c - lo - hi
                    w = _multinomial(dice, (c, lo, hi, rest)) * wc ** c * low ** lo * high ** hi * wf ** rest
                    ok = hi == 0
                    add((ok, c, 0 if ok else lo + hi, sweep_of(c, lo + hi)), w)
    return tuple(out.items())


@cache
def _binomial(n: int, hit: int) -> tuple[int, ...]:
    """Weights (over 20**n) of k successes among n d20 rolls that succeed on ``hit`` faces."""
    return tuple(comb(n, k) * hit ** k * (FACES - hit) ** (n - k) for k in range(n + 1))


@cache
def _wounds(crits: int, plain: int, pw: int, arm: int, burn: int, pad: int) -> tuple[int, ...]:
    """Weights (over 20**(pad + burn)) of the Wounds ``crits`` Critical Hits and ``plain`` Hits
    cause, Burn included; ``pad`` >= crits + plain is the most damage rolls the Attack can need."""
    by_crit = _binomial(crits, _wound_faces(pw))
    by_plain = _binomial(plain, _wound_faces(pw - arm))
    base = [0] * (crits + plain + 1)
    for i, wi in enumerate(by_crit):
        for j, wj in enumerate(by_plain):
            base[i + j] += wi * wj
    scale = FACES ** (pad - crits - plain)
    out = [0] * (crits + plain + burn + 1)
    out[0] = base[0] * scale * FACES ** burn
    by_burn = _binomial(burn, _wound_faces(pw))
    for w in range(1, crits + plain + 1):
        for b, wb in enumerate(by_burn):
            out[w + b] += base[w] * scale * wb
    return tuple(out)


@dataclass(frozen=True)
class _AttackKernel:
    """One Attack's effect on the defender, for the Barrier up (``up``) or already gone (``down``):
    ``((used, hits, wounds, ap_lost, knocked_down), weight)`` with weights over a common
    denominator (20 to the number of dice the Attack can call for)."""

    up: tuple[tuple[tuple[bool, int, int, int, bool], int], ...]
    down: tuple[tuple[tuple[bool, int, int, int, bool], int], ...]
    p_ok: Fraction | None
    second: tuple[tuple[tuple[int, int], int], ...]  # ((hits, wounds), weight) on the second model


def _kernel(scenario: EldfallScenario, a: Attacker) -> _AttackKernel:
    d = scenario.defender
    dice = attack_dice(a)
    ag = dodge_value(d, a) if d.reaction == "dodge" else 0
    atoms = _landing(attack_value(a), dice, d.reaction, ag, scenario.dodge_resolution)
    ag_dice = 1 if d.reaction == "dodge" else 0
    stagger = a.stagger and effects_apply(a.size, d.size)
    knock = a.knockdown and effects_apply(a.size, d.size)
    sides: dict[bool, dict[tuple[bool, int, int, int, bool], int]] = {True: {}, False: {}}
    ok_weight = 0
    for (ok, c, p, _sweep), w in atoms:
        ok_weight += w if ok else 0
        for barrier in ((True, False) if d.barrier else (False,)):
            cc, pp, used = c, p, False
            if barrier and c + p:
                used = True
                if cc:
                    cc -= 1
                else:
                    pp -= 1
            landed = cc + pp
            for wounds, ww in enumerate(_wounds(cc, pp, a.pw, d.arm, a.burn, dice)):
                if ww:
                    key = (used, landed, wounds, landed if stagger else 0, bool(knock and landed))
                    side = sides[barrier]
                    side[key] = side.get(key, 0) + w * ww
    second: dict[tuple[int, int], int] = {}
    if a.sweep:
        for (_ok, _c, _p, sweep), w in atoms:
            if sweep == 0:
                second[(0, 0)] = second.get((0, 0), 0) + w * FACES ** (1 + a.burn)
                continue
            critical = sweep == 2 and scenario.sweep_hit == "critical"
            for wounds, ww in enumerate(_wounds(int(critical), int(not critical), a.pw,
                                                scenario.second_model.arm, a.burn, 1)):
                if ww:
                    second[(1, wounds)] = second.get((1, wounds), 0) + w * ww
    p_ok = Fraction(ok_weight, FACES ** (ag_dice + dice)) if d.reaction == "dodge" else None
    return _AttackKernel(tuple(sides[True].items()), tuple(sides[False].items()), p_ok,
                         tuple(second.items()))


def _fold(kernels: Sequence[_AttackKernel], barrier: bool, index: int, join: Callable) -> Dist:
    """Distribution of one quantity summed (``join``) over every Attack in order, carrying the
    Protective Barrier from Attack to Attack."""
    states: dict[tuple[bool, object], int] = {(barrier, join(None, None)): 1}
    for k in kernels:
        marginals: dict[bool, dict[tuple[bool, object], int]] = {}
        for side, atoms in ((True, k.up), (False, k.down)):
            m: dict[tuple[bool, object], int] = {}
            for key, w in atoms:
                mk = (key[0], key[index])
                m[mk] = m.get(mk, 0) + w
            marginals[side] = m
        new: dict[tuple[bool, object], int] = {}
        for (up, value), sw in states.items():
            for (used, dv), kw in marginals[up].items():
                nk = (up and not used, join(value, dv))
                new[nk] = new.get(nk, 0) + sw * kw
        states = new
    out: dict[object, int] = {}
    for (_up, value), w in states.items():
        out[value] = out.get(value, 0) + w
    return Dist(out)


def _add(a: int | None, b: int | None) -> int:
    return (a or 0) + (b or 0)


def _either(a: bool | None, b: bool | None) -> bool:
    return bool(a) or bool(b)


def _convolve(kernels: Iterable[_AttackKernel]) -> Dist:
    states = {(0, 0): 1}
    for k in kernels:
        new: dict[tuple[int, int], int] = {}
        for (h, w), sw in states.items():
            for (dh, dw), kw in k.second:
                key = (h + dh, w + dw)
                new[key] = new.get(key, 0) + sw * kw
        states = new
    return Dist(states)


# -- outcome labels and the result ---------------------------------------------------------------

NO_HIT = "No Hit lands"
HIT_NO_WOUND = "Hit(s) land, no Wound"


def wound_label(wounds: int) -> str:
    """Outcome label for ``wounds`` >= 1 Wounds on the defender."""
    return f"{wounds} Wound" + ("s" if wounds > 1 else "")


def outcome_label(hits: int, wounds: int) -> str:
    """The defender's outcome: no Hit, Hits without a Wound, or the number of Wounds."""
    if wounds:
        return wound_label(wounds)
    return HIT_NO_WOUND if hits else NO_HIT


def most_wounds(scenario: EldfallScenario) -> int:
    """The most Wounds the defender can suffer: one per Attack die plus Burn, per Attack."""
    return sum(attack_dice(a) + a.burn for a in scenario.attackers)


def without_reaction(scenario: EldfallScenario) -> EldfallScenario:
    """The same scenario with the defender not reacting (no Dodge, no Ward; Barrier kept):
    what the reaction is worth is the difference between the two results."""
    return scenario.replace(defender=scenario.defender.replace(reaction="none"))


def _pct(p: Fraction) -> str:
    return f"{p.numerator}/{p.denominator} ({float(p):.1%})"


def _scenario_trace(scenario: EldfallScenario, kernels: Sequence[_AttackKernel]) -> list[TraceStep]:
    d = scenario.defender
    trace = [TraceStep("Attribute rolls", "d20 roll-under the modified attribute; a 1 is a Critical, "
                       "above 20 a 20 is too; at 0 or less an automatic failure; halving after the "
                       "other modifiers, rounding up", CITE_ROLLS)]
    for i, (a, k) in enumerate(zip(scenario.attackers, kernels), 1):
        value = attack_value(a)
        kinds = _face_kinds(value)
        cover = f", cover {COVER_MODS[a.cover]:+d}" if a.cover != "none" else ""
        trace.append(TraceStep(
            f"Attack {i}", f"{attack_dice(a)} {'die' if attack_dice(a) == 1 else 'dice'}"
            f"{' (reacting: STK 1)' if a.reacting else ''} against {a.attribute} {a.value}, "
            f"modifiers {a.mod:+d}{cover} → {value}: per die a Critical Hit "
            f"{_pct(Fraction(kinds.count('critical'), FACES))}, a Hit "
            f"{_pct(Fraction(kinds.count('success'), FACES))}"
            + (" (automatic failure)" if value <= 0 else ""),
            CITE_COVER if a.cover != "none" else CITE_ATTACK))
        if d.reaction == "dodge":
            ag = dodge_value(d, a)
            if not a.los:
                how = ("not halved: Acute Senses" if d.acute_senses else
                       f"halved (rounding up) without LoS: {modified_attribute(d.ag, d.ag_mod)} → {ag}")
                trace.append(TraceStep(f"Dodge against Attack {i}: no LoS", how, CITE_DODGE_LOS))
            trace.append(TraceStep(
                f"Dodge against Attack {i}", f"one AG roll against {ag}; it succeeds with "
                f"probability {_pct(k.p_ok)}"
                + (" (automatic failure)" if ag <= 0 else "")
                + "; a success ignores the Attack's non-Critical Hits and their effects, "
                  "Critical Hits resolve normally", CITE_DODGE))
        thr = a.pw - d.arm
        trace.append(TraceStep(
            f"Damage from Attack {i}", f"one d20 per Hit that lands: a Wound on {max(0, min(FACES, thr))} "
            f"face(s) (PW {a.pw} − ARM {d.arm}); a Critical Hit ignores ARM: "
            f"{max(0, min(FACES, a.pw))} face(s)" + (" — PW − ARM is 0 or less: a Hit never wounds"
                                                     if thr <= 0 else ""), CITE_DAMAGE))
        if a.burn:
            trace.append(TraceStep(f"Burn ({a.burn}) on Attack {i}", "after at least one Wound from "
                                   f"this Attack's landing Hits, {a.burn} more damage roll(s) at PW "
                                   f"{a.pw}, ARM 0; Burn does not trigger itself again", CITE_BURN))
        for name, on in (("Stagger", a.stagger), ("Knockdown", a.knockdown)):
            if on:
                spared = not effects_apply(a.size, d.size)
                trace.append(TraceStep(f"{name} on Attack {i}", (
                    f"no effect: the defender (Size {d.size}) is two or more Sizes larger than the "
                    f"attacker (Size {a.size})") if spared else (
                    "−1 AP per landing Hit" if name == "Stagger" else
                    "a landing Hit makes the defender Crouched"), CITE_STAGGER))
        if a.sweep:
            trace.append(TraceStep(f"Sweep on Attack {i}", "on a successful Attack roll the second "
                                   "model suffers a Hit "
                                   + ("(a Critical Hit when the roll had a Critical)"
                                      if scenario.sweep_hit == "critical" else "(a plain Hit)")
                                   + f" and rolls its own damage (ARM {scenario.second_model.arm}); "
                                   "it does not dodge, and the defender's Dodge does not protect it",
                                   CITE_SWEEP))
    if d.reaction == "dodge":
        trace.append(TraceStep("Ruling: Dodge resolution", {
            "independent": "independent — a plain AG roll per enemy Attack",
            "compared": "compared — the AG roll must also be at least the attacker's best "
                        "non-Critical successful die; Critical attack dice take no part, a tie "
                        "goes to the dodger, a Critical AG roll beats every die"}[scenario.dodge_resolution],
            CITE_DODGE if scenario.dodge_resolution == "independent" else CITE_CONFRONTATION))
        if len(scenario.attackers) > 1:
            trace.append(TraceStep("Several attacking models", "one AG roll per enemy Attack, each "
                                   "with its own LoS", CITE_DODGE))
        move = ("rulebook — may move up to half SPD rounded up, even after a failed roll, and enter "
                "or cancel Crouched" if scenario.post_dodge_move == "rulebook" else
                "seed — may move up to full SPD, optionally, after a successful Dodge (one move "
                "for the Resolution Step if any AG roll succeeded)")
        trace.append(TraceStep("Ruling: post-dodge movement", move,
                               CITE_MOVE_RULEBOOK if scenario.post_dodge_move == "rulebook" else CITE_MOVE_SEED))
    elif d.reaction == "ward":
        trace.append(TraceStep("Ward", "already cast, no roll: every Attack's non-Critical Hits and "
                               "their effects (Burn, Stagger, Knockdown) are ignored; Critical Hits "
                               "resolve normally", CITE_WARD))
    else:
        trace.append(TraceStep("No reaction", "every Hit resolves normally", CITE_ATTACK))
    if d.barrier:
        trace.append(TraceStep("Protective Barrier", "negates the first Hit still landing after the "
                               "reaction, in Attack order, a Critical Hit first within an Attack; a "
                               "dodged Hit does not use it up", CITE_BARRIER))
    return trace


def _movement(scenario: EldfallScenario, p_any_ok: Fraction) -> Dist:
    d = scenario.defender
    if d.reaction != "dodge":
        return Dist.certain("No post-dodge move")
    if scenario.post_dodge_move == "rulebook":
        return Dist.certain(f"May move up to {modified_attribute(d.spd, halve=True)}″ and enter or "
                            "cancel Crouched")
    moves = f"May move up to {d.spd}″"
    return Dist.from_fractions({moves: p_any_ok, "No post-dodge move": 1 - p_any_ok}) \
        if 0 < p_any_ok < 1 else Dist.certain(moves if p_any_ok else "No post-dodge move")


def evaluate(scenario: EldfallScenario) -> Result:
    """Exact result of every Attack against the defender's reaction (and the second model)."""
    d = scenario.defender
    kernels = [_kernel(scenario, a) for a in scenario.attackers]
    hits = _fold(kernels, d.barrier, 1, _add)
    wounds = _fold(kernels, d.barrier, 2, _add)
    ap_lost = _fold(kernels, d.barrier, 3, _add)
    knocked = _fold(kernels, d.barrier, 4, _either)
    most = most_wounds(scenario)
    order = (NO_HIT, HIT_NO_WOUND) + tuple(wound_label(w) for w in range(1, most + 1))
    rows = {NO_HIT: hits[0], HIT_NO_WOUND: wounds[0] - hits[0]}
    rows.update((wound_label(w), wounds[w]) for w in range(1, most + 1))
    outcomes = Dist.from_fractions({k: v for k, v in rows.items() if v})

    notes: dict[str, str] = {}
    p_dodge: Fraction | None = None
    p_any_ok = Fraction(0)
    if d.reaction == "dodge":
        p_dodge = Fraction(1)
        p_none_ok = Fraction(1)
        for k in kernels:
            p_dodge *= k.p_ok
            p_none_ok *= 1 - k.p_ok
        p_any_ok = 1 - p_none_ok
        if any(dodge_value(d, a) <= 0 for a in scenario.attackers):
            notes["p_dodge_succeeds"] = ("The defender's AG for at least one Dodge is 0 or less: "
                                         "that roll fails automatically.")
    else:
        notes["p_dodge_succeeds"] = ("No evasion roll is made: " +
                                     ("Ward is already cast and needs no roll." if d.reaction == "ward"
                                      else "the defender does not react."))
    headline: dict[str, Fraction | None] = {
        "p_dodge_succeeds": p_dodge,
        "p_no_hit": hits[0],
        "expected_hits": hits.mean(),
        "expected_wounds": wounds.mean(),
        "p_at_least_one_wound": 1 - wounds[0],
        "expected_stagger": ap_lost.mean(),
        "p_knocked_down": knocked[True],
    }
    distributions = {"wounds": wounds, "ap_lost": ap_lost, "knocked_down": knocked,
                     "post_dodge_move": _movement(scenario, p_any_ok)}
    sweepers = [k for k, a in zip(kernels, scenario.attackers) if a.sweep]
    if sweepers:
        second = _convolve(sweepers)
        second_hits, second_wounds = second.map(lambda o: o[0]), second.map(lambda o: o[1])
        distributions["second_model_hits"] = second_hits
        distributions["second_model_wounds"] = second_wounds
        headline["expected_second_model_wounds"] = second_wounds.mean()
        headline["p_second_model_wounded"] = 1 - second_wounds[0]
    else:
        for key in ("expected_second_model_wounds", "p_second_model_wounded"):
            headline[key] = None
            notes[key] = "No Attack has Sweep: the second model is not hit."
    trace = _scenario_trace(scenario, kernels)
    return Result(system=SYSTEM_ID, scenario=scenario, outcomes=outcomes, outcome_order=order,
                  hits=hits, headline=headline, notes=notes, trace=tuple(trace),
                  distributions=distributions)


# -- the system: sources, headline definitions, presets --------------------------------------------

SYSTEM_ID = "eldfall"

HEADLINES = {
    "expected_wounds": "Expected number of Wounds the defender suffers, Burn included.",
    "p_at_least_one_wound": "Probability that the defender suffers at least one Wound.",
    "expected_stagger": "Expected AP the defender loses to Stagger (one per landing Stagger Hit).",
    "p_knocked_down": "Probability that at least one landing Knockdown Hit makes the defender Crouched.",
    "expected_second_model_wounds": "Expected Wounds on the second model in a Sweep's reach "
                                    "(null without Sweep).",
    "p_second_model_wounded": "Probability that the second model in a Sweep's reach "
                                         "suffers at least one Wound (null without Sweep).",
}


def _preset(name: str, title: str, description: str, citation: str, **data) -> Preset:
    return Preset(name, title, description, EldfallScenario(**data), citation)


PRESETS = (
    _preset("dodge-vs-critical", "A Dodge against a Critical Hit",
            "OFF 10, STK 2, PW 12 against AG 12, ARM 2. A successful Dodge ignores the plain Hits; a "
            "face of 1 on an attack die is a Critical Hit, which lands anyway and ignores ARM.",
            CITE_DODGE + ", Key Rules: a Critical Hit cannot be negated by Dodge",
            attackers=(Attacker(attribute="OFF", value=10, stk=2, pw=12),),
            defender=Defender(ag=12, arm=2)),
    _preset("sweep-one-dodges", "Sweep: one model dodges, one does not",
            "OFF 12, STK 2, PW 10 with Sweep. The target (AG 10, ARM 2) dodges; the second model "
            "beside it (ARM 2) does not. The Dodge protects only the dodging model: the second model "
            "suffers a Hit whenever the Attack roll succeeds.",
            CITE_DODGE + ", Interactions; " + CITE_SWEEP,
            attackers=(Attacker(attribute="OFF", value=12, stk=2, pw=10, sweep=True),),
            defender=Defender(ag=10, arm=2), second_model=SecondModel(arm=2)),
    _preset("no-los", "Dodge without LoS",
            "ACC 12, STK 2, PW 12 against AG 11, ARM 3, out of the defender's LoS: AG is halved, "
            "rounding up, to 6.",
            CITE_DODGE_LOS,
            attackers=(Attacker(attribute="ACC", value=12, stk=2, pw=12, los=False),),
            defender=Defender(ag=11, arm=3)),
    _preset("no-los-acute-senses", "Dodge without LoS, with Acute Senses",
            "The same Attack against the same model with Acute Senses: AG stays 11.",
            CITE_DODGE_LOS,
            attackers=(Attacker(attribute="ACC", value=12, stk=2, pw=12, los=False),),
            defender=Defender(ag=11, arm=3, acute_senses=True)),
    _preset("ward-vs-burn", "Ward against a burning Attack",
            "ACC 12, STK 2, PW 12, Burn (1) against a model under Ward (ARM 2): only Critical Hits "
            "land, and their Wounds still set off Burn.",
            CITE_WARD + "; " + CITE_BURN,
            attackers=(Attacker(attribute="ACC", value=12, stk=2, pw=12, burn=1),),
            defender=Defender(ag=10, arm=2, reaction="ward")),
    _preset("protective-barrier", "Protective Barrier takes the Critical Hit",
            "OFF 12, STK 2, PW 10 against ARM 4 with Protective Barrier and no reaction: the Barrier "
            "negates one Hit, a Critical Hit first.",
            CITE_BARRIER,
            attackers=(Attacker(attribute="OFF", value=12, stk=2, pw=10),),
            defender=Defender(ag=10, arm=4, reaction="none", barrier=True)),
    _preset("three-attackers-burn", "Three attackers with Burn against a Dodge",
            "Three models attack with ACC 12, STK 4, PW 12, Burn (2); the defender (AG 11, ARM 3) "
            "makes one AG roll per Attack.",
            CITE_DODGE + ", several attacking models; " + CITE_BURN,
            attackers=tuple(Attacker(attribute="ACC", value=12, stk=4, pw=12, burn=2) for _ in range(3)),
            defender=Defender(ag=11, arm=3)),
)

SYSTEM = System(
    id=SYSTEM_ID,
    name="Eldfall Chronicles",
    summary="d20 roll-under, a 1 is a Critical; Dodge is one AG roll per enemy Attack that ignores "
            "its non-Critical Hits; Critical Hits land anyway and ignore ARM.",
    scenario_cls=EldfallScenario,
    evaluate=evaluate,
    sources=(
        Source("Eldfall Chronicles Rulebook v1.6", "p.15 Dice Rolls; p.54 Attack; p.57 Dodge; "
                                                   "p.70 Burn (X); p.73 Sweep I/II"),
        Source("Eldfall Chronicles wiki", "pages Dodge, Ward, Protective Barrier, Knockdown, Stagger, "
                                          "with the Discord answers quoted there"),
    ),
    presets=PRESETS,
    headlines=HEADLINES,
)
