"""Infinity N4: Success Values, Normal and Face to Face Rolls, and the whole Dodge Order.

The rules are written once, on concrete dice faces: :func:`roll_rank` (one d20 against a Success
Value), :func:`resolve_face_to_face` (one Face to Face Roll), :func:`saving_roll_wounds` (one
Saving Roll) and, for a whole Order, ``rules_core.systems._infinity_order.play`` (the dodge die,
every attacker's dice, the Saving Rolls and the Guts Roll → outcome and trace). The fast exact
algorithms here (:func:`face_to_face`, :func:`dodge_headline`, :func:`evaluate`,
:func:`dodge_grid`) are proved equal to exhaustive enumeration of those rules in the tests.

A die's *rank* summarises what one d20 did against its Success Value (SV):
``0`` a failure, ``1..19`` a non-critical success of that value, ``20`` a Critical. Between two
opposed dice, the higher rank wins and equal ranks cancel each other: that one ordering is the
whole of the Face to Face comparison (a Critical beats any value; two Criticals cancel).

One dodge die faces every attack of the Order, each with its own SV for the dodger. Given that
die's face, the attacks are independent of each other (each depends only on its own dice and
saves), so :func:`evaluate` conditions on the face, combines the attacks for that face, and sums
over the faces; it never multiplies per-attack probabilities across faces.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from math import comb, factorial
from typing import Literal

from pydantic import model_validator

from ..dist import Dist
from ..registry import Preset, Source, System
from ..result import Result, TraceStep
from ..scenario import FieldConflict, Part, Scenario, choice, flag, number, part, parts, ruling

FACES = 20
CRIT = 20
MOD_CAP = 12

CITE_ROLLS = "Infinity N4 Core Rules, Rolls: Normal Rolls and Critical Rolls (wiki page 'Roll')"
CITE_SV_OVER_20 = "Infinity N3 Core Rules p.21, Success Values above 20 (kept in N4)"
CITE_MODS = "Infinity N4 Core Rules, Modifiers (MODs): Maximum Modifier ±12 (wiki page 'Modifiers')"
CITE_F2F = "Infinity N4 Core Rules, Face to Face Rolls (wiki page 'Face to Face Roll')"
CITE_DODGE = "Infinity N4 Core Rules, Dodge (wiki page 'Dodge')"
CITE_DODGE_MODS = "Infinity N4 Core Rules, Dodge: the −3 PH MOD circumstances (wiki page 'Dodge')"
CITE_DODGE_EXAMPLE = "Infinity N4 Core Rules, Dodge, second example (mine and Fusilier; wiki page 'Dodge')"
CITE_DODGE_MOVE = "Infinity N4 Core Rules, Dodge: movement after a successful Dodge (wiki page 'Dodge')"
CITE_TEMPLATES = ("Infinity N4 Core Rules, Direct Template Weapons and Deployable Weapons "
                  "(wiki pages 'Direct Template Weapons', 'Deployable')")
CITE_SAVES = "Infinity N4 Core Rules, Saving Roll (wiki page 'Saving Roll')"
CITE_AMMO = ("Infinity N4 Core Rules, Ammunition: Normal, AP (ARM/BTS halved, rounding up), DA (2 "
             "Saving Rolls), EXP (3); a Critical adds one Saving Roll (wiki page 'Ammunition')")
CITE_COVER = "Infinity N4 Core Rules, Cover: Partial Cover (+3 to Saving Rolls) (wiki page 'Cover')"
CITE_WOUNDS = ("Infinity N4 Core Rules, Wounds and the Null States: losing the last Wound/STR point "
               "leaves the trooper Unconscious or worse, all Null (wiki pages 'Wounds', 'Null')")
CITE_GUTS = "Infinity N4 Core Rules, Guts Roll (wiki page 'Guts Roll')"
CITE_GUTS_FAQ = "Infinity N4 FAQ 1.0 (Jan 2021), Guts Roll: no Damage and no State, no Guts Roll"
CITE_ENGAGED = "Infinity N4 Core Rules, CC Attack and Engaged State (wiki pages 'CC Attack', 'Engaged')"
CITE_IMM_B = "Infinity N4 Core Rules, Immobilized-B State: only Reset may be declared (wiki page)"
CITE_MINES = "Infinity N4 Weapon Chart, Mines: AP Mines DAM 13, AP, Direct Template, Deployable (wiki page)"

# -- the rule, on concrete faces -------------------------------------------------------------

def success_value(attribute: int, mods: Sequence[int]) -> tuple[int, bool]:
    """SV = attribute + sum of MODs, the sum capped to ±12. Returns ``(sv, capped)``.

    >>> success_value(12, [3])
    (15, False)
    >>> success_value(10, [-9, -6])
    (-2, True)
    """
    total = sum(mods)
    capped = max(-MOD_CAP, min(MOD_CAP, total))
    return attribute + capped, capped != total


def roll_rank(face: int, sv: int) -> int:
    """What one d20 face does against SV: 0 failure, 1..19 success of that value, 20 Critical.

    SV <= 0 fails without a roll; SV > 20 adds SV - 20 to the face, every face succeeds and a
    total of 20 or more is a Critical.

    >>> [roll_rank(f, 15) for f in (1, 14, 15, 16)]
    [1, 14, 20, 0]
    >>> [roll_rank(f, 25) for f in (1, 14, 15, 20)]
    [6, 19, 20, 20]
    """
    if not 1 <= face <= FACES:
        raise ValueError(f"a d20 face is 1..20, got {face}")
    if sv <= 0:
        return 0
    if sv > FACES:
        return min(face + sv - FACES, CRIT)
    if face == sv:
        return CRIT
    return face if face < sv else 0


def resolve_face_to_face(faces_a: Sequence[int], sv_a: int, faces_b: Sequence[int], sv_b: int
                         ) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """One Face to Face Roll on concrete faces: the ranks of the successes each side keeps.

    A non-critical success of value v survives iff the opponent has no Critical and no success
    of value >= v (equal values cancel both); a Critical survives iff the opponent has no
    Critical. At most one side keeps successes.

    >>> resolve_face_to_face([8], 10, [12, 8, 16], 15)
    ((), (12,))
    >>> resolve_face_to_face([9], 10, [3, 8, 16], 15)
    ((9,), ())
    """
    ranks_a = [roll_rank(f, sv_a) for f in faces_a]
    ranks_b = [roll_rank(f, sv_b) for f in faces_b]
    best_a, best_b = max(ranks_a, default=0), max(ranks_b, default=0)
    kept_a = tuple(sorted((r for r in ranks_a if r > best_b), reverse=True))
    kept_b = tuple(sorted((r for r in ranks_b if r > best_a), reverse=True))
    return kept_a, kept_b


# -- fast exact algorithms -------------------------------------------------------------------

@cache
def rank_weights(sv: int) -> tuple[int, ...]:
    """How many of the 20 faces give each rank 0..20 against SV."""
    weights = [0] * (CRIT + 1)
    for face in range(1, FACES + 1):
        weights[roll_rank(face, sv)] += 1
    return tuple(weights)


@cache
def _at_most(sv: int) -> tuple[int, ...]:
    """Cumulative rank weights: faces giving a rank <= r, for r = 0..20."""
    out, running = [], 0
    for w in rank_weights(sv):
        running += w
        out.append(running)
    return tuple(out)


@cache
def best_rank_weights(sv: int, dice: int) -> tuple[int, ...]:
    """Weights (over 20**dice) of the best rank among ``dice`` dice being r, for r = 0..20."""
    cum = _at_most(sv)
    return tuple(cum[r] ** dice - (cum[r - 1] ** dice if r else 0) for r in range(CRIT + 1))


def _keeps(sv: int, dice: int, opp_sv: int, opp_dice: int) -> dict[tuple[int, int], int]:
    """Weights (over 20**(dice+opp_dice)) of this side keeping k successes, c of them Critical,
    for k >= 1: condition on the opponent's best rank b; each die independently beats b or not."""
    w = rank_weights(sv)
    cum = _at_most(sv)
    out: dict[tuple[int, int], int] = {}
    for b, pb in enumerate(best_rank_weights(opp_sv, opp_dice)):
        if not pb or b == CRIT:
            continue
        crit, plain, lose = w[CRIT], cum[CRIT - 1] - cum[b], cum[b]
        for k in range(1, dice + 1):
            for c in range(k + 1):
                ways = factorial(dice) // (factorial(c) * factorial(k - c) * factorial(dice - k))
                weight = ways * crit ** c * plain ** (k - c) * lose ** (dice - k)
                if weight:
                    out[(k, c)] = out.get((k, c), 0) + pb * weight
    return out


@cache
def face_to_face(sv_a: int, dice_a: int, sv_b: int, dice_b: int) -> Dist:
    """Exact outcome of a Face to Face Roll: ``("A", k, c)`` side A keeps k successes of which c
    are Critical, ``("B", k, c)`` likewise for B, ``("none", 0, 0)`` neither keeps any.

    >>> face_to_face(10, 1, 15, 3)[("A", 1, 0)] + face_to_face(10, 1, 15, 3)[("A", 1, 1)]
    Fraction(47, 500)
    """
    total = FACES ** (dice_a + dice_b)
    weights: dict[tuple[str, int, int], int] = {}
    for (k, c), wt in _keeps(sv_a, dice_a, sv_b, dice_b).items():
        weights[("A", k, c)] = wt
    for (k, c), wt in _keeps(sv_b, dice_b, sv_a, dice_a).items():
        weights[("B", k, c)] = wt
    weights[("none", 0, 0)] = total - sum(weights.values())
    return Dist(weights)


def f2f_headline(sv_a: int, dice_a: int, sv_b: int, dice_b: int
                 ) -> tuple[Fraction, Fraction, Fraction, Fraction]:
    """``(P(A keeps a success), P(B keeps a success), E[successes A keeps], E[successes B keeps])``
    of a Face to Face Roll, without building the distribution (used for grids and heatmaps).

    Side A keeps exactly its dice that beat B's best rank b, so conditioning on b gives
    P(A keeps) = sum_b P(best_B = b) (1 - P(a die <= b)^dice_a) and
    E[A keeps] = sum_b P(best_B = b) dice_a P(a die > b).

    >>> f2f_headline(10, 1, 15, 3)[0]
    Fraction(47, 500)
    """
    den_a, den_b = FACES ** dice_a, FACES ** dice_b
    cum_a, cum_b = _at_most(sv_a), _at_most(sv_b)
    best_a, best_b = best_rank_weights(sv_a, dice_a), best_rank_weights(sv_b, dice_b)
    keeps_a = keeps_b = mean_a = mean_b = 0
    for r in range(CRIT):  # an opposing best rank of 20 (a Critical) lets nothing through
        pb, pa = best_b[r], best_a[r]
        if pb:
            keeps_a += pb * (den_a - cum_a[r] ** dice_a)
            mean_a += pb * (FACES - cum_a[r])
        if pa:
            keeps_b += pa * (den_b - cum_b[r] ** dice_b)
            mean_b += pa * (FACES - cum_b[r])
    both = den_a * den_b
    return (Fraction(keeps_a, both), Fraction(keeps_b, both),
            Fraction(mean_a * dice_a, den_b * FACES), Fraction(mean_b * dice_b, den_a * FACES))


def dodge_headline(sv_dodger: int, sv_attacker: int, burst: int) -> tuple[Fraction, Fraction, Fraction]:
    """``(p_dodge_succeeds, p_no_hit, expected_hits)`` of one dodge die against one Burst.

    >>> dodge_headline(10, 15, 3)
    (Fraction(47, 500), Fraction(401, 3200), Fraction(9, 5))
    """
    dodged, hit, _, hits = f2f_headline(sv_dodger, 1, sv_attacker, burst)
    return dodged, 1 - hit, hits


# -- saving rolls, on concrete faces ---------------------------------------------------------

SAVES_PER_HIT = {"N": 1, "AP": 1, "DA": 2, "EXP": 3}


def wound_threshold(damage: int, resist: int, *, ap: bool = False, partial_cover: bool = False) -> int:
    """The face at or under which a Saving Roll is failed (a wound): DAM − ARM (or BTS), with
    ARM/BTS halved rounding up against AP, −3 more in Partial Cover, clamped to 0..20.

    >>> wound_threshold(13, 1), wound_threshold(13, 5, ap=True), wound_threshold(13, 1, partial_cover=True)
    (12, 10, 9)
    >>> wound_threshold(5, 8), wound_threshold(25, 0)
    (0, 20)
    """
    if ap:
        resist = -(-resist // 2)
    return max(0, min(FACES, damage - resist - (3 if partial_cover else 0)))


def saving_roll_wounds(face: int, threshold: int) -> bool:
    """One Saving Roll on a concrete d20 face: a wound iff ``face <= threshold``.

    >>> [saving_roll_wounds(f, 12) for f in (1, 12, 13, 20)]
    [True, True, False, False]
    """
    if not 1 <= face <= FACES:
        raise ValueError(f"a d20 face is 1..20, got {face}")
    return face <= threshold


def normal_roll_succeeds(face: int, sv: int) -> bool:
    """A Normal Roll on a concrete face: any success, Critical included (rank above 0)."""
    return roll_rank(face, sv) > 0


# -- the scenario ---------------------------------------------------------------------------

GROUP_AGAINST = "Dodge roll against this attack"
GROUP_DAMAGE = "Damage and Saving Rolls"


def _damage_field(default: int) -> object:
    return number(default, ge=0, le=25, label="DAM", group=GROUP_DAMAGE, citation=CITE_SAVES,
                  help="The weapon's Damage. 0 for an attack without a Damage value (no Saving Roll).")


def _ammo_field() -> object:
    return choice("N", label="Ammunition", group=GROUP_DAMAGE, citation=CITE_AMMO,
                  help="Saving Rolls per hit: 1 (N, AP), 2 (DA), 3 (EXP); a Critical adds one more. "
                       "AP halves ARM/BTS, rounding up.",
                  labels={"N": "N (1 roll)", "AP": "AP (1 roll, ARM/BTS halved)",
                          "DA": "DA (2 rolls)", "EXP": "EXP (3 rolls)"})


def _save_vs_field() -> object:
    return choice("ARM", label="Saving Roll against", group=GROUP_DAMAGE, citation=CITE_SAVES,
                  help="The dodger's attribute the Saving Roll uses.",
                  labels={"ARM": "ARM", "BTS": "BTS"})


def _cover_field() -> object:
    return flag(False, label="Dodger in Partial Cover", group=GROUP_DAMAGE, citation=CITE_COVER,
                help="+3 to the dodger's Saving Rolls against this attack. (Cover's −3 to the "
                     "attacker's BS belongs in the attacker's MODs.)")


def _state_field() -> object:
    return flag(False, label="Inflicts a State", group=GROUP_DAMAGE, citation=CITE_GUTS_FAQ,
                help="The attack inflicts a State. An attack with DAM 0 that inflicts no State "
                     "(e.g. Smoke) causes no Guts Roll.")


class Dodger(Part):
    """The trooper who dodges."""

    ph: int = number(10, ge=0, le=30, label="PH", help="The dodger's Physique attribute.",
                     citation=CITE_DODGE)
    mod: int = number(0, ge=-24, le=24, label="Other PH MODs",
                      help="Sum of the other MODs to the dodge roll, before the ±12 cap.",
                      citation=CITE_MODS)
    dodges: bool = flag(True, label="Declares Dodge", citation=CITE_DODGE,
                        help="Off: the trooper does not Dodge; attackers roll Normal Rolls and "
                             "templates hit. No evasion roll is made.")
    arm: int = number(1, ge=0, le=20, label="ARM", help="Armour, for Saving Rolls against ARM.",
                      citation=CITE_SAVES, group="Saving Rolls and Wounds")
    bts: int = number(0, ge=0, le=20, label="BTS", help="Bio-Technological Shield, for Saving "
                      "Rolls against BTS.", citation=CITE_SAVES, group="Saving Rolls and Wounds")
    wounds: int = number(1, ge=1, le=10, label="Wounds (W/STR)", citation=CITE_WOUNDS,
                         group="Saving Rolls and Wounds",
                         help="The trooper is Null once the wounds inflicted reach this.")
    wip: int = number(13, ge=0, le=30, label="WIP", help="Willpower, for the Guts Roll.",
                      citation=CITE_GUTS, group="States and Guts")
    engaged: bool = flag(False, label="Engaged", citation=CITE_ENGAGED, group="States and Guts",
                         help="In silhouette contact with an enemy at the start of the Order (a CC "
                              "attacker makes the dodger Engaged anyway).")
    immobilized: Literal["no", "IMM-A", "IMM-B"] = choice(
        "no", label="Immobilized", citation=f"{CITE_DODGE}; {CITE_IMM_B}", group="States and Guts",
        help="A successful dodge cancels IMM-A. A trooper in IMM-B cannot Dodge.",
        labels={"no": "No", "IMM-A": "IMM-A", "IMM-B": "IMM-B (cannot Dodge)"})

    @model_validator(mode="after")
    def _imm_b_cannot_dodge(self) -> "Dodger":
        if self.immobilized == "IMM-B" and self.dodges:
            raise FieldConflict("dodges", True, "false while the dodger is in IMM-B (only Reset "
                                "may be declared: N4 Core Rules, Immobilized-B State)")
        return self


class Attacker(Part):
    """One enemy trooper in the Order."""

    attribute: Literal["BS", "CC", "PH", "WIP"] = choice(
        "BS", label="Attribute", help="The attribute the attack uses.", citation=CITE_DODGE,
        labels={"BS": "BS (shooting)", "CC": "CC (close combat)", "PH": "PH", "WIP": "WIP"})
    value: int = number(12, ge=0, le=30, label="Attribute value",
                        help="The attacker's value of that attribute.", citation=CITE_F2F)
    mod: int = number(0, ge=-24, le=24, label="MODs",
                      help="Sum of the attacker's MODs (range, cover, ...), before the ±12 cap.",
                      citation=CITE_MODS)
    burst: int = number(3, ge=1, le=5, label="Burst", help="Dice the attacker rolls (B).",
                        citation=CITE_F2F)
    attacks: bool = flag(True, label="Attacks the dodger", citation=CITE_DODGE,
                         help="Off: this trooper is in the Order but does not attack the dodger; "
                              "no roll is made against it.")
    dodge_mod: int = number(0, ge=-12, le=12, label="Dodge MODs against it", group=GROUP_AGAINST,
                            citation=CITE_MODS,
                            help="Other MODs to the dodger's PH against this attack only "
                                 "(e.g. −3 for a Surprise Attack).")
    zoc_no_lof: bool = flag(False, label="In ZoC, outside LoF", group=GROUP_AGAINST,
                            citation=CITE_DODGE_MODS,
                            help="The dodger reacts in ARO and this Active trooper is inside its "
                                 "Zone of Control but outside its LoF: −3 PH.")
    template_no_lof: bool = flag(False, label="Template Weapon, no LoF", group=GROUP_AGAINST,
                                 citation=CITE_DODGE_MODS,
                                 help="The attack uses a Template Weapon that still rolls (e.g. an "
                                      "Impact Template) and the dodger has no LoF to the attacker: −3 PH.")
    damage: int = _damage_field(13)
    ammo: Literal["N", "AP", "DA", "EXP"] = _ammo_field()
    save_vs: Literal["ARM", "BTS"] = _save_vs_field()
    partial_cover: bool = _cover_field()
    inflicts_state: bool = _state_field()


class Template(Part):
    """A weapon that hits without a roll of its own: a Direct Template or a Deployable's template."""

    kind: Literal["none", "direct", "deployable"] = choice(
        "none", label="Template", citation=CITE_TEMPLATES,
        help="A Direct Template Weapon or a Deployable's template (a mine) affecting the dodger: "
             "no Face to Face Roll; the dodge die makes a Normal PH Roll and the template's one "
             "hit lands unless it succeeds.",
        labels={"none": "None", "direct": "Direct Template Weapon",
                "deployable": "Deployable Weapon's template (mine)"})
    lof: bool = flag(True, label="Dodger has LoF to its source", citation=CITE_DODGE_MODS,
                     help="Off: the dodger has no LoF to the template's attacker (or to the mine): −3 PH.")
    dodge_mod: int = number(0, ge=-12, le=12, label="Dodge MODs against it", citation=CITE_MODS,
                            help="Other MODs to the dodger's PH against the template only.")
    damage: int = _damage_field(13)
    ammo: Literal["N", "AP", "DA", "EXP"] = _ammo_field()
    save_vs: Literal["ARM", "BTS"] = _save_vs_field()
    partial_cover: bool = _cover_field()
    inflicts_state: bool = _state_field()


class Guts(Part):
    """The Guts Roll at the end of the Order."""

    decision: Literal["roll", "fail"] = choice(
        "roll", label="Guts Roll", citation=CITE_GUTS,
        help="The owner may choose to fail the Guts Roll instead of rolling it.",
        labels={"roll": "Roll WIP", "fail": "Choose to fail it"})
    can_leave: bool = flag(True, label="Can leave LoF/area within 2\"", citation=CITE_GUTS,
                           help="On a failed Guts Roll the trooper first tries to move up to 2\" out "
                                "of every attacker's LoF and area of effect.")
    can_cover: bool = flag(True, label="Can reach cover within 2\"", citation=CITE_GUTS,
                           help="Otherwise it moves up to 2\" into Partial or Total Cover from every "
                                "attacker; if neither is possible it goes Prone.")


RULING_MINUS_THREE = {
    "single": "One −3 at most per roll, however many of the circumstances apply (N4 Core Rules, "
              "Dodge: the rule text)",
    "stacking": "Each circumstance gives its own −3, e.g. −6 for a mine without LoF (N4 Core "
                "Rules, Dodge, second example)",
}


class InfinityScenario(Scenario):
    """A trooper dodging in an Order of Infinity N4: one to three enemy troopers, an optional
    template or mine, Saving Rolls and the Guts Roll."""

    system: Literal["infinity-n4"] = "infinity-n4"
    dodger: Dodger = part(Dodger, label="Dodger", help="The trooper who declares Dodge.",
                          citation=CITE_DODGE)
    attackers: tuple[Attacker, ...] = parts(
        lambda: (Attacker(),), min_items=1, max_items=3, label="Attackers", item_label="Attacker",
        help="Enemy troopers in the Order (several AROs, a Coordinated Order): one dodge die "
             "against each one's Burst.", citation=CITE_DODGE)
    template: Template = part(Template, label="Template or mine",
                              help="A weapon that hits without an attack roll; the dodge die makes "
                                   "a Normal PH Roll against it.", citation=CITE_TEMPLATES)
    after_dodge: Literal["move", "engage", "stay"] = choice(
        "move", label="After a successful dodge", citation=CITE_DODGE_MOVE,
        help="What the dodger does if its die succeeds against every attack (it does not move if "
             "it fails against any).",
        labels={"move": "Move up to 2\" (leaves Engaged)", "engage": "Move into contact: Engaged",
                "stay": "Stay"})
    guts: Guts = part(Guts, label="Guts Roll", help="What happens after a successful Attack.",
                      citation=CITE_GUTS)
    minus_three: Literal["single", "stacking"] = ruling(
        "single", label="Several −3 PH circumstances", citation=CITE_DODGE_MODS,
        help="When several −3 PH circumstances apply to one roll (ZoC outside LoF, Template without "
             "LoF, Deployable's template): one −3 or one per circumstance.",
        options=RULING_MINUS_THREE)


# -- the Order, planned: what the one dodge die is compared with ------------------------------

@dataclass(frozen=True)
class OrderRoll:
    """One comparison of the dodge die: a Face to Face Roll against an attacker's Burst
    (``kind="f2f"``) or a Normal PH Roll (``kind="normal"``: a template, or nobody attacks)."""

    name: str
    kind: Literal["f2f", "normal"]
    sv_dodge: int
    sv_attack: int = 0
    dice: int = 0
    #: hits landing when a Normal Roll fails: 1 for a template, 0 when nobody attacks
    hits_on_fail: int = 0
    #: Saving Rolls per hit (0 for an attack without Damage); a Critical adds one
    saves: int = 0
    #: a Saving Roll is a wound iff its face is at most this
    threshold: int = 0
    #: a hit from it causes a Guts Roll (it has Damage or inflicts a State)
    guts: bool = False
    #: index in ``scenario.attackers`` (None for the template or the not-attacked roll)
    attacker: int | None = None


@dataclass(frozen=True)
class OrderPlan:
    """Everything about an Order that does not depend on the dice."""

    rolls: tuple[OrderRoll, ...]
    dodges: bool
    wounds: int
    engaged: bool
    immobilized: str
    after_dodge: str
    guts_sv: int
    guts_decision: str
    guts_fallback: Literal["leave", "cover", "prone"]
    trace: tuple[TraceStep, ...]


# Outcome labels of the whole Order (``Result.outcomes``).
DODGED = "Dodge succeeds"
NO_HIT = "No hit lands, no successful dodge"
# Per-roll outcome labels (``Result.distributions[roll name]``).
NEITHER = "Neither keeps a success"
TEMPLATE_HITS = "Template hits"
ROLL_FAILS = "Dodge roll fails"


def hits_label(k: int) -> str:
    """Outcome label of the whole Order: ``k`` hits land in total (k >= 1)."""
    return "1 hit lands" if k == 1 else f"{k} hits land"


def hit_label(k: int, c: int) -> str:
    """Per-attacker outcome label: the attacker keeps k successes, c of them Critical."""
    return f"Attacker keeps {k} ({c} crit)"


def roll_label(roll: OrderRoll, ok: bool, hits: int, crits: int) -> str:
    """What one comparison of the dodge die came to."""
    if ok:
        return DODGED
    if roll.kind == "f2f":
        return hit_label(hits, crits) if hits else NEITHER
    return TEMPLATE_HITS if hits else ROLL_FAILS


def roll_labels(roll: OrderRoll) -> tuple[str, ...]:
    """Every per-roll outcome label of ``roll``, in display order."""
    if roll.kind == "f2f":
        return (DODGED, NEITHER) + tuple(hit_label(k, c) for k in range(1, roll.dice + 1)
                                         for c in range(k + 1))
    return (DODGED, TEMPLATE_HITS if roll.hits_on_fail else ROLL_FAILS)


# Final states at the end of the Order (``Result.distributions["final state"]``).
UNHARMED_STAYS = "Unharmed, does not move (no successful dodge)"
HIT_NO_EFFECT = "Hit, stands: no Guts Roll (no Damage, no State)"
HIT_NO_GUTS = "Hit, stands: no Guts Roll (Engaged or Immobilized)"
HIT_PASSES = "Hit, passes the Guts Roll: stands its ground"
NULL_STATE = "Null: lost its last Wound"
FALLBACKS = {"leave": "moves up to 2\" out of the attackers' LoF and areas",
             "cover": "moves up to 2\" into cover", "prone": "goes Prone"}


def dodged_label(plan: OrderPlan) -> str:
    """Final state after the dodge die succeeded against everything: the chosen movement and the
    States it cancels (Engaged when moving away, IMM-A always)."""
    text = {"move": "Unharmed, dodged everything: moves up to 2\"",
            "engage": "Unharmed, dodged everything: moves into contact, Engaged",
            "stay": "Unharmed, dodged everything: stays"}[plan.after_dodge]
    cancels = (["Engaged"] if plan.engaged and plan.after_dodge == "move" else []) + \
              (["IMM-A"] if plan.immobilized == "IMM-A" else [])
    return text + (f" (cancels {' and '.join(cancels)})" if cancels else "")


def guts_failed_label(plan: OrderPlan) -> str:
    """Final state after a failed (or forgone) Guts Roll: the first possible option."""
    return "Hit, fails the Guts Roll: " + FALLBACKS[plan.guts_fallback]


def final_state_order(plan: OrderPlan) -> tuple[str, ...]:
    """Every final-state label, in display order."""
    return (dodged_label(plan), UNHARMED_STAYS, HIT_NO_EFFECT, HIT_NO_GUTS, HIT_PASSES,
            guts_failed_label(plan), NULL_STATE)


def engaged_at_start(s: InfinityScenario) -> bool:
    """Engaged when the Order starts: the flag, or any attacker attacking in close combat."""
    return s.dodger.engaged or any(a.attacks and a.attribute == "CC" for a in s.attackers)


def _sv_trace(who: str, attribute: str, value: int, mods: Sequence[tuple[str, int]]
              ) -> tuple[int, list[TraceStep]]:
    total = sum(m for _, m in mods)
    sv, capped = success_value(value, [total])
    parts_text = ", ".join(f"{name} {m:+d}" for name, m in mods if m) or "none"
    cap_text = f"capped to {max(-MOD_CAP, min(MOD_CAP, total)):+d}" if capped else "not reached"
    steps = [TraceStep(f"Success Value ({who})",
                       f"{attribute} {value}, MODs {total:+d} ({parts_text}) → SV {sv}; "
                       f"MOD sum capped at ±12: {cap_text}", CITE_MODS)]
    if sv <= 0:
        steps.append(TraceStep(f"SV ≤ 0 ({who})", "no roll is made: automatic failure", CITE_ROLLS))
    elif sv > FACES:
        steps.append(TraceStep(f"SV above 20 ({who})",
                               f"+{sv - FACES} to every face; every face succeeds; "
                               f"a face of {max(1, 2 * FACES - sv)} or more is a Critical",
                               CITE_SV_OVER_20))
    return sv, steps


def _circumstance_mod(circumstances: Sequence[str], reading: str) -> int:
    if not circumstances:
        return 0
    return -3 * len(circumstances) if reading == "stacking" else -3


def _dodge_sv(s: InfinityScenario, name: str, own_mod: int, circumstances: list[str]
              ) -> tuple[int, list[TraceStep]]:
    d = s.dodger
    minus = _circumstance_mod(circumstances, s.minus_three)
    steps = []
    if circumstances:
        how = (f"one −3 for {len(circumstances)} circumstances" if len(circumstances) > 1 and
               s.minus_three == "single" else f"{minus:+d}")
        steps.append(TraceStep(f"−3 PH circumstances ({name})", f"{'; '.join(circumstances)}: {how} "
                               f"(ruling minus-three = {s.minus_three})", CITE_DODGE_MODS))
    sv, more = _sv_trace(f"dodger against {name}", "PH", d.ph,
                         [("dodger", d.mod), ("against this attack", own_mod), ("circumstances", minus)])
    return sv, steps + more


def _damage_plan(name: str, weapon: Attacker | Template, d: Dodger) -> tuple[int, int, bool, list[TraceStep]]:
    guts = weapon.damage > 0 or weapon.inflicts_state
    if weapon.damage == 0:
        what = "inflicts a State: no Saving Roll, but a hit causes a Guts Roll" if guts else \
            "no Damage and no State: no Saving Roll and no Guts Roll"
        return 0, 0, guts, [TraceStep(f"Saving Rolls ({name})", what, CITE_GUTS_FAQ)]
    resist = d.arm if weapon.save_vs == "ARM" else d.bts
    threshold = wound_threshold(weapon.damage, resist, ap=weapon.ammo == "AP",
                                partial_cover=weapon.partial_cover)
    saves = SAVES_PER_HIT[weapon.ammo]
    shown = f"{weapon.save_vs} {resist}" + (f" halved to {-(-resist // 2)} (AP)" if weapon.ammo == "AP" else "")
    detail = (f"{weapon.ammo}: {saves} per hit, +1 per Critical; a roll of {threshold} or less is a "
              f"wound (DAM {weapon.damage} − {shown}" + (", −3 Partial Cover" if weapon.partial_cover else "")
              + ", within 0..20)")
    steps = [TraceStep(f"Saving Rolls ({name})", detail, CITE_AMMO)]
    if weapon.partial_cover:
        steps.append(TraceStep(f"Partial Cover ({name})", "+3 to the Saving Rolls", CITE_COVER))
    return saves, threshold, guts, steps


def plan_order(s: InfinityScenario) -> OrderPlan:
    """What the one dodge die is compared with (each roll with its own SVs), the saves, and the
    Guts and movement circumstances, with the trace of the rules applied."""
    d = s.dodger
    trace = [TraceStep("Dodge", "one PH die against every attack of the Order, each with its own SV "
                       "for the dodger: a Face to Face Roll against each attacker's Burst, a Normal "
                       "PH Roll against a template or when nobody attacks; the results are "
                       "correlated through that one die", CITE_DODGE),
             TraceStep("Ruling minus-three", f"{s.minus_three}: {RULING_MINUS_THREE[s.minus_three]}",
                       CITE_DODGE_MODS)]
    if not d.dodges:
        trace.append(TraceStep("No Dodge", "the trooper does not declare Dodge: each attacker's "
                               "successes all land (Normal Rolls) and a template hits", CITE_DODGE))
    rolls: list[OrderRoll] = []
    for i, a in enumerate(s.attackers):
        name = f"Attacker {i + 1}"
        if not a.attacks:
            trace.append(TraceStep(name, "does not attack the dodger: no roll against it", CITE_DODGE))
            continue
        circumstances = ((["Active trooper inside ZoC and outside LoF"] if a.zoc_no_lof else []) +
                         (["Template Weapon without LoF to the attacker"] if a.template_no_lof else []))
        sv_d, steps = _dodge_sv(s, name, a.dodge_mod, circumstances)
        sv_a, attack_steps = _sv_trace(name, a.attribute, a.value, [("attacker", a.mod)])
        saves, threshold, guts, save_steps = _damage_plan(name, a, d)
        trace += [TraceStep(name, f"Face to Face Roll: the dodge die against {a.attribute} Burst "
                            f"{a.burst}", CITE_F2F), *(steps if d.dodges else []), *attack_steps, *save_steps]
        rolls.append(OrderRoll(name, "f2f", sv_d, sv_a, a.burst, 0, saves, threshold, guts, i))
    t = s.template
    if t.kind != "none":
        name = "Mine" if t.kind == "deployable" else "Direct Template"
        circumstances = ((["Template Weapon without LoF to the attacker"] if not t.lof else []) +
                         (["Template of a Deployable Weapon"] if t.kind == "deployable" else []))
        sv_d, steps = _dodge_sv(s, name, t.dodge_mod, circumstances)
        saves, threshold, guts, save_steps = _damage_plan(name, t, d)
        trace += [TraceStep(name, "no attack roll: a Normal PH Roll of the same dodge die; its one "
                            "hit lands unless that roll succeeds (all or nothing)", CITE_TEMPLATES),
                  *(steps if d.dodges else []), *save_steps]
        rolls.append(OrderRoll(name, "normal", sv_d, hits_on_fail=1, saves=saves,
                               threshold=threshold, guts=guts))
    if not rolls:
        zoc = any(a.zoc_no_lof for a in s.attackers)
        name = "Not attacked"
        sv_d, steps = _dodge_sv(s, name, 0, ["Active trooper inside ZoC and outside LoF"] if zoc else [])
        trace += [TraceStep(name, "nobody attacks the dodger: a Normal PH Roll", CITE_DODGE),
                  *(steps if d.dodges else [])]
        rolls.append(OrderRoll(name, "normal", sv_d))
    trace.append(TraceStep("Face to Face Roll", "higher successes cancel lower ones, equal values "
                           "cancel each other, a Critical beats any value; at most one side keeps "
                           "successes; the dodger's success must survive every roll of the Order",
                           CITE_F2F))
    trace.append(TraceStep("After a successful dodge", {
        "move": "moves up to 2\" in the Effects step; cancels Engaged and IMM-A",
        "engage": "moves up to 2\" into silhouette contact: Engaged; cancels IMM-A",
        "stay": "does not move; cancels IMM-A"}[s.after_dodge] +
        "; a dodger that failed against any attack does not move", CITE_DODGE_MOVE))
    engaged = engaged_at_start(s)
    fallback = "leave" if s.guts.can_leave else "cover" if s.guts.can_cover else "prone"
    blocked = [w for w, on in (("Engaged", engaged), (d.immobilized, d.immobilized != "no")) if on]
    trace.append(TraceStep("Guts Roll", "a Normal WIP Roll at the end of the Order when a hit of an "
                           "attack with Damage or a State landed and the trooper is not Engaged, Null "
                           "or IMM; " + ("a hit trooper stays " + " and ".join(blocked) +
                                         ", so no Guts Roll is made" if blocked else
                                         f"WIP {d.wip}" + ("; the owner chooses to fail it"
                                                           if s.guts.decision == "fail" else ""))
                           + f"; on a failure it {FALLBACKS[fallback]}", CITE_GUTS))
    trace.append(TraceStep("Null", f"Null once the wounds inflicted reach W {d.wounds}", CITE_WOUNDS))
    return OrderPlan(tuple(rolls), d.dodges, d.wounds, engaged, d.immobilized, s.after_dodge,
                     d.wip, s.guts.decision, fallback, tuple(trace))


# -- fast exact path: condition on the dodge die's face ------------------------------------------

def _power(poly: Sequence[int], n: int) -> list[int]:
    """``poly`` to the ``n``-th power (non-negative coefficients), by Kronecker substitution.

    >>> _power([1, 1], 3)
    [1, 3, 3, 1]
    """
    bits = (sum(poly) ** n).bit_length() + 1   # no coefficient of the power exceeds this
    return _unpack(_pack(poly, bits) ** n, bits, (len(poly) - 1) * n + 1)


def _pack(poly: Sequence[int], bits: int) -> int:
    """The polynomial as one integer, ``bits`` per coefficient (lowest degree lowest).

    >>> _unpack(_pack([1, 2], 8) * _pack([3, 4], 8), 8, 3)   # (1 + 2x)(3 + 4x)
    [3, 10, 8]
    """
    packed = 0
    for c in reversed(poly):
        packed = (packed << bits) | c
    return packed


def _unpack(packed: int, bits: int, length: int) -> list[int]:
    """The ``length`` coefficients of a packed polynomial."""
    mask = (1 << bits) - 1
    out = []
    for _ in range(length):
        out.append(packed & mask)
        packed >>= bits
    return out


def _most(roll: OrderRoll) -> tuple[int, int, int]:
    """The most hits, Criticals and wounds ``roll`` can bring."""
    if roll.kind == "f2f":
        return roll.dice, roll.dice, roll.dice * (roll.saves + 1 if roll.saves else 0)
    return roll.hits_on_fail, 0, roll.hits_on_fail * roll.saves


def _add(acc: list[int], poly: Sequence[int], times: int = 1) -> list[int]:
    if len(acc) < len(poly):
        acc = acc + [0] * (len(poly) - len(acc))
    for i, x in enumerate(poly):
        acc[i] += times * x
    return acc


@cache
def _binomial(n: int, success: int) -> tuple[int, ...]:
    """Weights over 20**n of k of n d20 rolls landing on ``success`` of the 20 faces."""
    return tuple(comb(n, k) * success ** k * (FACES - success) ** (n - k) for k in range(n + 1))


@cache
def _multinomials(n: int) -> tuple[tuple[int, int, int], ...]:
    """``(k, c, ways)``: the ways n dice split into c Criticals, k − c plain kept, n − k lost."""
    return tuple((k, c, factorial(n) // (factorial(c) * factorial(k - c) * factorial(n - k)))
                 for k in range(n + 1) for c in range(k + 1))


@dataclass(frozen=True)
class _GivenRank:
    """One roll's outcome given the dodge die's rank against it, as integer weights:
    ``ok``, ``kept`` {(k, c): w} and ``hits`` over ``den``; ``wounds`` over ``wden``."""

    ok: int
    kept: dict[tuple[int, int], int]
    hits: list[int]
    crits: list[int]
    wounds: list[int]


def _denominators(roll: OrderRoll) -> tuple[int, int]:
    """(den, wden): the weights of a roll's hits, and of its wounds, are over these."""
    if roll.kind == "f2f":
        per_die = FACES * (FACES ** (roll.saves + 1) if roll.saves else 1)
        return FACES ** roll.dice, per_die ** roll.dice
    return 1, FACES ** roll.saves


def _given_rank(roll: OrderRoll, r: int) -> _GivenRank:
    t, s = roll.threshold, roll.saves
    if roll.kind == "normal":
        hit = 0 if r > 0 else roll.hits_on_fail
        wounds = list(_binomial(s, t)) if hit and s else [FACES ** s]
        return _GivenRank(1 if r > 0 else 0, {(hit, 0): 1}, [1] if not hit else [0, 1], [1], wounds)
    n, w, cum = roll.dice, rank_weights(roll.sv_attack), _at_most(roll.sv_attack)
    if r == CRIT:  # the dodger's Critical: nothing of the attacker's survives; its Criticals cancel it
        lose, plain, crit = FACES, 0, 0
        ok = (FACES - w[CRIT]) ** n
    else:          # attacker dice above the dodge rank are kept, the others lose
        crit, lose = w[CRIT], cum[r]
        plain = FACES - lose - crit
        ok = cum[r - 1] ** n if r > 0 else 0
    kept: dict[tuple[int, int], int] = {}
    hits, crits = [0] * (n + 1), [0] * (n + 1)
    for k, c, ways in _multinomials(n):
        weight = ways * crit ** c * plain ** (k - c) * lose ** (n - k)
        if weight:
            kept[(k, c)] = weight
            hits[k] += weight
            crits[c] += weight
    if s:  # one die: lost, or kept (s Saving Rolls) or kept Critical (s + 1); padded to s + 1 save dice
        die = _add([lose * FACES ** (s + 1)], [plain * FACES * x for x in _binomial(s, t)])
        die = _add(die, [crit * x for x in _binomial(s + 1, t)])
        wounds = _power(die, n)
    else:
        wounds = [FACES ** n]
    return _GivenRank(ok, kept, hits, crits, wounds)


@dataclass(frozen=True)
class OrderNumbers:
    """Exact integer weights of an Order, summed over the dodge die's faces.

    ``hits``, ``crits``, ``ok`` and ``no_guts_hit`` are over ``den``; ``wounds`` over ``wden``;
    per-roll ``roll_kept[j]``/``roll_ok[j]`` over ``faces * den_j`` and ``roll_wounds[j]`` over
    ``faces * wden_j``."""

    faces: int
    den: int
    wden: int
    ok: int
    hits: list[int]
    crits: list[int]
    no_guts_hit: int
    wounds: list[int]
    roll_ok: list[int]
    roll_kept: list[dict[tuple[int, int], int]]
    roll_wounds: list[list[int]]


def order_numbers(plan: OrderPlan) -> OrderNumbers:
    """Sum over the dodge die's faces of the Order given that face: given the face, each roll
    depends only on its own dice and saves, so the rolls combine by products and convolutions."""
    rolls = plan.rolls
    dens = [_denominators(r) for r in rolls]
    if plan.dodges:
        groups: dict[tuple[int, ...], int] = {}
        for face in range(1, FACES + 1):
            ranks = tuple(roll_rank(face, r.sv_dodge) for r in rolls)
            groups[ranks] = groups.get(ranks, 0) + 1
        faces = FACES
    else:  # no dodge die: as if every comparison failed
        groups, faces = {tuple(0 for _ in rolls): 1}, 1
    den = wden = faces
    for d_hits, d_wounds in dens:
        den, wden = den * d_hits, wden * d_wounds
    # Kronecker substitution: a polynomial with non-negative integer coefficients is packed
    # into one integer, a slot of ``bits`` per coefficient, so that one big-integer product is
    # the convolution. Every coefficient met here, summed over the faces too, is at most the
    # final denominator, so slots of its bit length never overflow into each other.
    h_bits, w_bits = den.bit_length() + 1, wden.bit_length() + 1
    given: dict[tuple[int, int], tuple[_GivenRank, int, int, int]] = {}
    faces_at: dict[tuple[int, int], int] = {}  # (roll, dodge rank) -> faces giving it
    ok_sum, no_guts_sum = 0, 0
    hits_sum = crits_sum = wounds_sum = 0   # packed
    for ranks, count in groups.items():
        ok, no_guts, hits, crits, wounds = 1, 1, 1, 1, 1
        for j, (roll, r) in enumerate(zip(rolls, ranks)):
            entry = given.get((j, r))
            if entry is None:
                g = _given_rank(roll, r)
                entry = given[(j, r)] = (g, _pack(g.hits, h_bits), _pack(g.crits, h_bits),
                                         _pack(g.wounds, w_bits))
            g, g_hits, g_crits, g_wounds = entry
            faces_at[(j, r)] = faces_at.get((j, r), 0) + count
            ok *= g.ok
            no_guts *= g.hits[0] if roll.guts else dens[j][0]
            hits, crits, wounds = hits * g_hits, crits * g_crits, wounds * g_wounds
        ok_sum += count * (ok if plan.dodges else 0)
        no_guts_sum += count * no_guts
        hits_sum += count * hits
        crits_sum += count * crits
        wounds_sum += count * wounds
    most = [_most(roll) for roll in rolls]
    hits_sum = _unpack(hits_sum, h_bits, 1 + sum(m[0] for m in most))
    crits_sum = _unpack(crits_sum, h_bits, 1 + sum(m[1] for m in most))
    wounds_sum = _unpack(wounds_sum, w_bits, 1 + sum(m[2] for m in most))
    # Each roll on its own: the same per-rank results, weighted by the faces giving that rank.
    roll_ok = [0] * len(rolls)
    roll_kept: list[dict[tuple[int, int], int]] = [{} for _ in rolls]
    roll_wounds: list[list[int]] = [[0] for _ in rolls]
    for (j, r), count in faces_at.items():
        g = given[(j, r)][0]
        roll_ok[j] += count * g.ok
        for key, wt in g.kept.items():
            roll_kept[j][key] = roll_kept[j].get(key, 0) + count * wt
        roll_wounds[j] = _add(roll_wounds[j], g.wounds, count)
    return OrderNumbers(faces, den, wden, ok_sum, hits_sum, crits_sum, no_guts_sum, wounds_sum,
                        roll_ok, roll_kept, roll_wounds)


def _dist(weights: Sequence[int]) -> Dist:
    return Dist(enumerate(weights))


def final_states(plan: OrderPlan, numbers: OrderNumbers, wounds: Dist) -> Dist:
    """Final states at the end of the Order. Being hit means the dodge failed against something,
    so the trooper did not move and keeps its starting States (Engaged, IMM); a Guts Roll follows
    only a hit of an attack with Damage or a State; Null needs a wound, so it implies such a hit."""
    den = numbers.den
    p_dodged = Fraction(numbers.ok, den)
    p_no_hit = Fraction(numbers.hits[0], den)
    p_no_guts_hit = Fraction(numbers.no_guts_hit, den)
    p_null = wounds.at_least(plan.wounds)
    p_guts_case = 1 - p_no_guts_hit - p_null
    if plan.engaged or plan.immobilized != "no":
        blocked, passes, fails = p_guts_case, Fraction(0), Fraction(0)
    else:
        p_pass = Fraction(0) if plan.guts_decision == "fail" else \
            Fraction(sum(rank_weights(plan.guts_sv)[1:]), FACES)
        blocked, passes, fails = Fraction(0), p_guts_case * p_pass, p_guts_case * (1 - p_pass)
    return Dist.from_fractions({
        dodged_label(plan): p_dodged, UNHARMED_STAYS: p_no_hit - p_dodged,
        HIT_NO_EFFECT: p_no_guts_hit - p_no_hit, HIT_NO_GUTS: blocked, HIT_PASSES: passes,
        guts_failed_label(plan): fails, NULL_STATE: p_null})


# -- a grid of headline numbers, for heatmaps ----------------------------------------------------

@cache
def _rank_table(sv: int) -> tuple[int, ...]:
    return tuple(roll_rank(face, sv) for face in range(1, FACES + 1))


@cache
def _f2f_by_rank(sv_attack: int, dice: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """For each dodge rank r: weights (over 20**dice) of the dodge surviving, and of no hit."""
    w, cum = rank_weights(sv_attack), _at_most(sv_attack)
    ok = tuple(0 if r == 0 else (FACES - w[CRIT]) ** dice if r == CRIT else cum[r - 1] ** dice
               for r in range(CRIT + 1))
    no_hit = tuple(FACES ** dice if r == CRIT else cum[r] ** dice for r in range(CRIT + 1))
    return ok, no_hit


def dodge_grid(scenario: InfinityScenario, phs: Sequence[int], svs: Sequence[int], *,
               attacker: int = 0, burst: int | None = None
               ) -> tuple[list[list[Fraction | None]], list[list[Fraction]]]:
    """``(p_dodge_succeeds, p_no_hit)`` for every dodger PH in ``phs`` (rows) and every SV of
    attacker number ``attacker`` (0-based; it is made to attack, with Burst ``burst`` if given)
    in ``svs`` (columns), the rest of the Order as in ``scenario``; ``p_dodge_succeeds`` is None
    everywhere when the trooper does not Dodge. See :func:`dodge_grid_weights`.

    >>> s = InfinityScenario()
    >>> dodge_grid(s, [10], [15])[0][0][0] == dodge_headline(10, 15, 3)[0]
    True
    """
    den, dodge, no_hit = dodge_grid_weights(scenario, phs, svs, attacker=attacker, burst=burst)
    p_no_hit = [[Fraction(w, den) for w in row] for row in no_hit]
    if dodge is None:
        return [[None for _ in row] for row in no_hit], p_no_hit
    return [[Fraction(w, den) for w in row] for row in dodge], p_no_hit


def dodge_grid_weights(scenario: InfinityScenario, phs: Sequence[int], svs: Sequence[int], *,
                       attacker: int = 0, burst: int | None = None
                       ) -> tuple[int, list[list[int]] | None, list[list[int]]]:
    """The numbers of :func:`dodge_grid` as integer weights over one denominator:
    ``(den, dodge, no_hit)`` (``dodge`` None when the trooper does not Dodge), for callers that
    need many cells fast. Exact, without building distributions: given the dodge face,
    P(dodge survives) and P(no hit) are products over the rolls; the rolls that do not vary are
    multiplied once per face and PH, then summed by the dodge's rank against the varied attacker.
    """
    dice = burst or scenario.attackers[attacker].burst
    varied = scenario.replace(attackers=tuple(
        x.replace(attacks=True, burst=dice) if i == attacker else x
        for i, x in enumerate(scenario.attackers)))
    plan = plan_order(varied)
    ph0 = scenario.dodger.ph
    fixed, den_fixed, offset_varied = [], (FACES if plan.dodges else 1) * FACES ** dice, 0
    for roll in plan.rolls:
        if roll.attacker == attacker:
            offset_varied = roll.sv_dodge - ph0
            continue
        if roll.kind == "f2f":
            ok_t, no_hit_t = _f2f_by_rank(roll.sv_attack, roll.dice)
            den_fixed *= FACES ** roll.dice
        else:
            ok_t = tuple(int(r > 0) for r in range(CRIT + 1))
            no_hit_t = tuple(int(r > 0 or not roll.hits_on_fail) for r in range(CRIT + 1))
        fixed.append((roll.sv_dodge - ph0, ok_t, no_hit_t))
    p_dodge: list[list[int]] = []
    p_no_hit: list[list[int]] = []
    for ph in phs:
        # Per face: the product over the fixed rolls, gathered by the rank against the varied one.
        ok_by_rank: dict[int, int] = {}
        no_hit_by_rank: dict[int, int] = {}
        for f in range(FACES if plan.dodges else 1):
            ok = no_hit = 1
            for offset, ok_t, no_hit_t in fixed:
                r = _rank_table(ph + offset)[f] if plan.dodges else 0
                ok *= ok_t[r]
                no_hit *= no_hit_t[r]
            r = _rank_table(ph + offset_varied)[f] if plan.dodges else 0
            ok_by_rank[r] = ok_by_rank.get(r, 0) + ok
            no_hit_by_rank[r] = no_hit_by_rank.get(r, 0) + no_hit
        row_dodge, row_no_hit = [], []
        for sv in svs:
            ok_t, no_hit_t = _f2f_by_rank(sv, dice)
            row_dodge.append(sum(w * ok_t[r] for r, w in ok_by_rank.items()))
            row_no_hit.append(sum(w * no_hit_t[r] for r, w in no_hit_by_rank.items()))
        p_dodge.append(row_dodge)
        p_no_hit.append(row_no_hit)
    return den_fixed, (p_dodge if plan.dodges else None), p_no_hit


# -- evaluation -----------------------------------------------------------------------------

def evaluate(scenario: InfinityScenario) -> Result:
    """Exact result of the whole Order: the dodge die against every attack, hits, Saving Rolls,
    wounds, Null, movement and the Guts Roll."""
    plan = plan_order(scenario)
    numbers = order_numbers(plan)
    den = numbers.den
    most = len(numbers.hits) - 1
    outcome_weights = {DODGED: numbers.ok, NO_HIT: numbers.hits[0] - numbers.ok}
    outcome_weights.update({hits_label(k): numbers.hits[k] for k in range(1, most + 1)})
    outcomes = Dist(outcome_weights)
    hits = _dist(numbers.hits)
    wounds = _dist(numbers.wounds)
    final = final_states(plan, numbers, wounds)
    distributions = {"final state": final, "wounds": wounds, "criticals": _dist(numbers.crits)}
    for j, roll in enumerate(plan.rolls):
        ok = numbers.roll_ok[j]
        weights = {DODGED: ok}
        for (k, c), wt in numbers.roll_kept[j].items():
            # a surviving dodge is among the weights of "nothing kept": take it out of them
            label = roll_label(roll, False, k, c)
            weights[label] = weights.get(label, 0) + wt - (ok if (k, c) == (0, 0) else 0)
        distributions[roll.name] = Dist(weights)
        hits_weights: dict[int, int] = {}
        for (k, _), wt in numbers.roll_kept[j].items():
            hits_weights[k] = hits_weights.get(k, 0) + wt
        distributions[f"{roll.name}: hits"] = Dist(hits_weights)
        distributions[f"{roll.name}: wounds"] = _dist(numbers.roll_wounds[j])
    notes = {}
    if plan.dodges:
        p_dodge: Fraction | None = Fraction(numbers.ok, den)
        failing = [r.name for r in plan.rolls if r.sv_dodge <= 0]
        if failing:
            notes["p_dodge_succeeds"] = ("The dodger's SV is 0 or less against " + ", ".join(failing)
                                         + ": that roll fails automatically.")
    else:
        p_dodge = None
        notes["p_dodge_succeeds"] = "The trooper does not declare Dodge: no evasion roll is made."
    headline = {
        "p_dodge_succeeds": p_dodge,
        "p_no_hit": hits[0],
        "expected_hits": hits.mean(),
        "expected_wounds": wounds.mean(),
        "p_null": final[NULL_STATE],
        "p_guts_fails": final[guts_failed_label(plan)],
    }
    trace = plan.trace + (TraceStep("Exact computation", "conditioned on the dodge die's face; given "
                                    "it, each attack is independent of the others (its own dice and "
                                    "saves), so the attacks combine per face and the faces are "
                                    "summed", CITE_DODGE),)
    order = (DODGED, NO_HIT) + tuple(hits_label(k) for k in range(1, most + 1))
    return Result(system=SYSTEM_ID, scenario=scenario, outcomes=outcomes, outcome_order=order,
                  hits=hits, headline=headline, notes=notes, trace=trace,
                  distributions=distributions)


SYSTEM_ID = "infinity-n4"

_ZHANSHI = dict(ph=10, arm=1, bts=0, wounds=1, wip=13)
_FUSILIER = Attacker(attribute="BS", value=12, mod=3, burst=3, damage=13, ammo="N")

HEADLINES = {
    "expected_wounds": "Expected number of wounds inflicted in the Order: failed Saving Rolls over "
                       "every hit that lands, counted in full even past the trooper's last Wound.",
    "p_null": "Probability that the trooper ends the Order Null: the wounds inflicted reach its "
              "Wounds (W/STR).",
    "p_guts_fails": "Probability that the Order ends with a failed Guts Roll (rolled and failed, or "
                    "failed by the owner's choice), so that the trooper must leave the attackers' "
                    "LoF, take cover or go Prone.",
}

SYSTEM = System(
    id=SYSTEM_ID,
    name="Infinity N4",
    summary="d20 roll-under; one PH die dodges every attack of the Order: Face to Face against "
            "each attacker's Burst, a Normal Roll against templates; saves, Null and the Guts Roll.",
    scenario_cls=InfinityScenario,
    evaluate=evaluate,
    sources=(
        Source("Infinity N4 Core Rules", "Dodge; Face to Face Rolls; Modifiers; Critical Rolls; "
               "Saving Roll; Ammunition; Cover; Guts Roll; Template Weapons (official wiki)"),
        Source("Infinity N4 FAQ", "1.0, January 2021: State MODs stack; Guts Rolls without Damage"),
        Source("Infinity N3 Core Rules", "p.21, Success Values above 20"),
    ),
    headlines=HEADLINES,
    presets=(
        Preset("zhanshi-dodges-to-engage", "Zhanshi dodges to engage a Fusilier",
               "The rulebook's first Dodge example: a Zhanshi (PH 10) dodges in ARO a Fusilier shooting at BS 12 "
               "with +3 for range (SV 15), Burst 3, and on a success moves into contact (Engaged). "
               "Not in the example, assumed: a Combi Rifle (DAM 13, N) and the Zhanshi's ARM 1, BTS 0, "
               "W 1, WIP 13.",
               InfinityScenario(dodger=Dodger(**_ZHANSHI), attackers=(_FUSILIER,),
                                after_dodge="engage"),
               citation=CITE_DODGE + ", first example"),
        Preset("zhanshi-mine-and-fusilier", "Zhanshi dodges a mine and a Fusilier",
               "The rulebook's second Dodge example: the Zhanshi's Dodge ARO triggers a mine it has no LoF to "
               "while the Fusilier shoots (SV 15, Burst 3). Read as the example does (ruling "
               "'stacking'), the mine costs −6 PH: the same die avoids it only on 1..4, and the "
               "Zhanshi moves only if it succeeds against both. Assumed: AP Mine DAM 13 (N4 Weapon "
               "Chart), Combi Rifle DAM 13 N.",
               InfinityScenario(dodger=Dodger(**_ZHANSHI), attackers=(_FUSILIER,),
                                template=Template(kind="deployable", lof=False, damage=13, ammo="AP"),
                                minus_three="stacking"),
               citation=f"{CITE_DODGE_EXAMPLE}; {CITE_MINES}"),
        Preset("zhanshi-vs-fusilier", "Zhanshi dodges a Fusilier",
               "The rulebook's first Dodge example, the Face to Face Roll alone: a Zhanshi (PH 10) dodges a "
               "Fusilier shooting at BS 12 with +3 for range (SV 15), Burst 3.",
               InfinityScenario(dodger=Dodger(ph=10),
                                attackers=(Attacker(attribute="BS", value=12, mod=3, burst=3),)),
               citation=CITE_DODGE + ", Examples"),
    ),
)
