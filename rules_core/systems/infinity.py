"""Infinity N4: Success Values, Normal Rolls, Face to Face Rolls and the Dodge.

The rules are written once, on concrete dice faces, in :func:`roll_rank` and
:func:`resolve_face_to_face`. :func:`face_to_face` and :func:`dodge_headline` are fast exact
algorithms for the same rules (proved equal to exhaustive enumeration in the tests).

A die's *rank* summarises what one d20 did against its Success Value (SV):
``0`` a failure, ``1..19`` a non-critical success of that value, ``20`` a Critical. Between two
opposed dice, the higher rank wins and equal ranks cancel each other: that one ordering is the
whole of the Face to Face comparison (a Critical beats any value; two Criticals cancel).
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from functools import cache
from math import comb, factorial
from typing import Literal

from ..dist import Dist
from ..registry import Preset, Source, System
from ..result import Result, TraceStep
from ..scenario import Part, Scenario, choice, number, part, parts

FACES = 20
CRIT = 20
MOD_CAP = 12

CITE_ROLLS = "Infinity N4 Core Rules, Rolls: Normal Rolls and Critical Rolls (wiki page 'Roll')"
CITE_SV_OVER_20 = "Infinity N3 Core Rules p.21, Success Values above 20 (kept in N4)"
CITE_MODS = "Infinity N4 Core Rules, Modifiers (MODs): Maximum Modifier ±12 (wiki page 'Modifiers')"
CITE_F2F = "Infinity N4 Core Rules, Face to Face Rolls (wiki page 'Face to Face Roll')"
CITE_DODGE = "Infinity N4 Core Rules, Dodge (wiki page 'Dodge')"


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


# -- the scenario ---------------------------------------------------------------------------

class Dodger(Part):
    """The trooper who dodges."""

    ph: int = number(10, ge=0, le=30, label="PH", help="The dodger's Physique attribute.",
                     citation=CITE_DODGE)
    mod: int = number(0, ge=-24, le=24, label="Other PH MODs",
                      help="Sum of the other MODs to the dodge roll, before the ±12 cap.",
                      citation=CITE_MODS)


class Attacker(Part):
    """One attacker in the Order."""

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


class InfinityScenario(Scenario):
    """A trooper dodging an Attack in Infinity N4."""

    system: Literal["infinity-n4"] = "infinity-n4"
    dodger: Dodger = part(Dodger, label="Dodger", help="The trooper who declares Dodge.",
                          citation=CITE_DODGE)
    attackers: tuple[Attacker, ...] = parts(
        lambda: (Attacker(),), min_items=1, max_items=1, label="Attackers",
        help="The attacker whose dice the dodge die faces.", citation=CITE_DODGE)


# -- evaluation -----------------------------------------------------------------------------

def _sv_step(who: str, attribute: str, value: int, mod: int) -> tuple[int, list[TraceStep]]:
    sv, capped = success_value(value, [mod])
    cap_text = f"capped to {max(-MOD_CAP, min(MOD_CAP, mod)):+d}" if capped else "not reached"
    steps = [TraceStep(f"Success Value ({who})",
                       f"{attribute} {value}, MODs {mod:+d} → SV {sv}; MOD sum capped at ±12: {cap_text}",
                       CITE_MODS)]
    if sv <= 0:
        steps.append(TraceStep(f"SV ≤ 0 ({who})", "no roll is made: automatic failure", CITE_ROLLS))
    elif sv > FACES:
        steps.append(TraceStep(f"SV above 20 ({who})",
                               f"+{sv - FACES} to every face; every face succeeds; "
                               f"a face of {max(1, 2 * FACES - sv)} or more is a Critical",
                               CITE_SV_OVER_20))
    return sv, steps


def hit_label(k: int, c: int) -> str:
    """Outcome label: the attacker keeps k successes, c of them Critical."""
    return f"Attacker keeps {k} ({c} crit)"


DODGED = "Dodge succeeds"
NEITHER = "Neither keeps a success"


def evaluate(scenario: InfinityScenario) -> Result:
    """Exact result of one dodge die against the attacker's Burst."""
    dodger, (attacker,) = scenario.dodger, scenario.attackers
    sv_d, trace = _sv_step("dodger", "PH", dodger.ph, dodger.mod)
    sv_a, steps = _sv_step("attacker", attacker.attribute, attacker.value, attacker.mod)
    trace = [TraceStep("Dodge", "a Face to Face Roll of the dodger's PH against the attacker's "
                       f"{attacker.attribute}: one die against Burst {attacker.burst}", CITE_DODGE),
             *trace, *steps,
             TraceStep("Face to Face Roll", "higher successes cancel lower ones, equal values cancel "
                       "each other, a Critical beats any value; at most one side keeps successes",
                       CITE_F2F)]
    f2f = face_to_face(sv_d, 1, sv_a, attacker.burst)
    outcomes = f2f.map(lambda o: DODGED if o[0] == "A" else NEITHER if o[0] == "none" else hit_label(o[1], o[2]))
    hits = f2f.map(lambda o: o[1] if o[0] == "B" else 0)
    order = (DODGED, NEITHER) + tuple(hit_label(k, c) for k in range(1, attacker.burst + 1)
                                      for c in range(k + 1))
    headline = {
        "p_dodge_succeeds": f2f.probability(lambda o: o[0] == "A"),
        "p_no_hit": hits.probability(0),
        "expected_hits": hits.mean(),
    }
    notes = {}
    if sv_d <= 0:
        notes["p_dodge_succeeds"] = "The dodger's SV is 0 or less: the dodge fails automatically."
    return Result(system=SYSTEM_ID, scenario=scenario, outcomes=outcomes, outcome_order=order,
                  hits=hits, headline=headline, notes=notes, trace=tuple(trace))


SYSTEM_ID = "infinity-n4"

SYSTEM = System(
    id=SYSTEM_ID,
    name="Infinity N4",
    summary="d20 roll-under; Dodge is a Face to Face Roll of one PH die against every attacker's Burst.",
    scenario_cls=InfinityScenario,
    evaluate=evaluate,
    sources=(
        Source("Infinity N4 Core Rules", "Dodge; Face to Face Rolls; Modifiers; Critical Rolls (official wiki)"),
        Source("Infinity N3 Core Rules", "p.21, Success Values above 20"),
    ),
    presets=(
        Preset("zhanshi-vs-fusilier", "Zhanshi dodges a Fusilier",
               "The seed's first example: a Zhanshi (PH 10) dodges a Fusilier shooting at BS 12 with "
               "+3 for range (SV 15), Burst 3.",
               InfinityScenario(dodger=Dodger(ph=10),
                                attackers=(Attacker(attribute="BS", value=12, mod=3, burst=3),)),
               citation=CITE_DODGE + ", Examples"),
    ),
)
