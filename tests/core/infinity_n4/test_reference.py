"""An independent reference for the Infinity N4 Order, written from the rules text (the rules
notes and docs/rulings/infinity-n4.md), sharing no code with ``rules_core`` beyond the d20's
twenty faces: it reads the scenario as plain data and decides on its own which roll gets which
MODs (the dodger's, the ones against that attack, the −3 PH circumstances under the minus-three
ruling, the ±12 cap — the cap, the size of a circumstance and the dodge move read from the
scenario's rule constants, so house rules are checked too), what a face means against an SV (Critical on the SV, SV above 20, SV 0 or
less), which successes survive a Face to Face Roll, how many Saving Rolls a hit calls for
(ammunition, Criticals) and what wounds, and when a Guts Roll is made.

It conditions on the one dodge die's face (the rolls are independent given it) and, for each
attack, walks the attack dice one at a time as a distribution of (kept, kept Criticals, whether
one of them beat or tied the dodge). Checked against ``evaluate`` on scenarios drawn over the
whole declared ranges, and on a grid of the −3 circumstances.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import product

from hypothesis import HealthCheck, given, settings

from rules_core import evaluate, load_scenario
from strategies import scenario_strategy

FACES = range(1, 21)   # the one thing shared: a d20 has faces 1..20
PER_HIT = {"N": 1, "AP": 1, "DA": 2, "EXP": 3}


# -- Success Values ------------------------------------------------------------------------------

def capped(total: int, data: dict) -> int:
    """The sum of MODs on one roll is held within −cap..+cap (the rulebook's cap is 12)."""
    cap = data["variant"]["mod_cap"]
    return max(-cap, min(cap, total))


def circumstances_mod(count: int, data: dict) -> int:
    """One circumstance's PH MOD (the rulebook's −3) per circumstance when they stack, that MOD
    once however many apply otherwise."""
    each = data["variant"]["circumstance_mod"]
    if count == 0:
        return 0
    return each * count if data["minus_three"] == "stacking" else each


def dodge_sv(data: dict, own_mod: int, circumstances: int) -> int:
    dodger = data["dodger"]
    return dodger["ph"] + capped(dodger["mod"] + own_mod + circumstances_mod(circumstances, data), data)


class Die:
    """One d20 against an SV: succeeded, was it a Critical, and its value for the comparison."""

    def __init__(self, face: int, sv: int):
        if sv <= 0:                      # no roll: automatic failure
            self.success, self.critical, self.value = False, False, 0
        elif sv > 20:                    # + (SV − 20) to the face; 20 or more is a Critical
            total = face + sv - 20
            self.success, self.critical, self.value = True, total >= 20, min(total, 20)
        else:
            self.success, self.critical, self.value = face <= sv, face == sv, face


def survives(mine: Die, theirs: list[Die]) -> bool:
    """Face to Face: a Critical survives iff the other side has no Critical; a plain success of
    value v iff the other side has no Critical and no success of value v or more."""
    if not mine.success:
        return False
    if any(d.critical for d in theirs):
        return False
    if mine.critical:
        return True
    return not any(d.success and d.value >= mine.value for d in theirs)


# -- Saving Rolls --------------------------------------------------------------------------------

def wound_faces(weapon: dict, dodger: dict) -> int:
    """Faces of a Saving Roll that wound: DAM − ARM (or BTS; AP halves it rounding up), −3 more
    in Partial Cover, between 0 and 20."""
    resist = dodger["arm"] if weapon["save_vs"] == "ARM" else dodger["bts"]
    if weapon["ammo"] == "AP":
        resist = (resist + 1) // 2
    threshold = weapon["damage"] - resist - (3 if weapon["partial_cover"] else 0)
    return sum(1 for f in FACES if f <= threshold)


def wounds_of(rolls: int, wounding: int) -> dict[int, Fraction]:
    """How many of ``rolls`` Saving Rolls wound, each on ``wounding`` faces of 20."""
    out = {0: Fraction(1)}
    p = Fraction(wounding, 20)
    for _ in range(rolls):
        step: dict[int, Fraction] = {}
        for w, q in out.items():
            step[w] = step.get(w, 0) + q * (1 - p)
            step[w + 1] = step.get(w + 1, 0) + q * p
        out = step
    return out


# -- one roll of the Order, given the dodge die ----------------------------------------------------

def attack_given_dodge(dodge: Die | None, sv: int, burst: int) -> dict[tuple[bool, int, int], Fraction]:
    """(the dodge survives, hits, Critical hits) of one attacker's Burst against the dodge die
    (``None``: no Dodge, every success lands), walking the attack dice one at a time."""
    # state: (some attack die stops the dodge's success, kept, kept Criticals)
    states = {(False, 0, 0): Fraction(1)}
    for _ in range(burst):
        step: dict[tuple[bool, int, int], Fraction] = {}
        for face in FACES:
            die = Die(face, sv)
            stops = dodge is not None and dodge.success and not survives(dodge, [die])
            kept = die.success and (dodge is None or survives(die, [dodge]))
            for (stopped, k, c), q in states.items():
                key = (stopped or stops, k + kept, c + (kept and die.critical))
                step[key] = step.get(key, 0) + q / 20
        states = step
    out: dict[tuple[bool, int, int], Fraction] = {}
    for (stopped, k, c), q in states.items():
        key = (dodge is not None and dodge.success and not stopped, k, c)
        out[key] = out.get(key, 0) + q
    return out


def reference(data: dict) -> dict[str, object]:
    """The Order's headline numbers and its hits and wounds distributions, from the rules."""
    dodger, template = data["dodger"], data["template"]
    attacking = [a for a in data["attackers"] if a["attacks"]]
    # What the one dodge die is compared with, each with its own SV for the dodger.
    rolls = []
    for a in attacking:
        circumstances = a["zoc_no_lof"] + a["template_no_lof"]
        rolls.append(("attack", a, dodge_sv(data, a["dodge_mod"], circumstances),
                      a["value"] + capped(a["mod"], data)))
    if template["kind"] != "none":
        circumstances = (not template["lof"]) + (template["kind"] == "deployable")
        rolls.append(("template", template, dodge_sv(data, template["dodge_mod"], circumstances), None))
    if not rolls:   # nobody attacks: a Normal PH Roll, −3 if an Active trooper is in ZoC outside LoF
        zoc = any(a["zoc_no_lof"] for a in data["attackers"])
        rolls.append(("alone", None, dodge_sv(data, 0, int(zoc)), None))
    engaged = dodger["engaged"] or any(a["attribute"] == "CC" for a in attacking)
    blocked = engaged or dodger["immobilized"] != "no"
    guts_passes = Fraction(sum(1 for f in FACES if f <= dodger["wip"]), 20)

    totals = {"dodged": Fraction(0), "no_hit": Fraction(0), "null": Fraction(0),
              "guts_fails": Fraction(0), "guts_passes": Fraction(0), "no_effect": Fraction(0),
              "no_guts": Fraction(0)}
    hits_dist: dict[int, Fraction] = {}
    wounds_dist: dict[int, Fraction] = {}
    dodge_faces = [(face, Fraction(1, 20)) for face in FACES] if dodger["dodges"] else [(None, Fraction(1))]
    for face, weight in dodge_faces:
        # (all dodged so far, hits, wounds, a hit that brings a Guts Roll)
        order = {(True, 0, 0, False): weight}
        for kind, weapon, sv_dodge, sv_attack in rolls:
            dodge = None if face is None else Die(face, sv_dodge)
            outcomes: dict[tuple[bool, int, int, bool], Fraction] = {}
            if kind == "attack":
                for (ok, k, c), q in attack_given_dodge(dodge, sv_attack, weapon["burst"]).items():
                    saves = (k * PER_HIT[weapon["ammo"]] + c) if weapon["damage"] else 0
                    for w, qw in wounds_of(saves, wound_faces(weapon, dodger)).items():
                        guts = k > 0 and (weapon["damage"] > 0 or weapon["inflicts_state"])
                        key = (ok, k, w, guts)
                        outcomes[key] = outcomes.get(key, 0) + q * qw
            else:
                ok = dodge is not None and dodge.success
                hit = int(kind == "template" and not ok)
                saves = hit * PER_HIT[weapon["ammo"]] if hit and weapon["damage"] else 0
                for w, qw in wounds_of(saves, wound_faces(weapon, dodger) if saves else 0).items():
                    guts = hit > 0 and (weapon["damage"] > 0 or weapon["inflicts_state"])
                    outcomes[(ok, hit, w, guts)] = outcomes.get((ok, hit, w, guts), 0) + qw
            joined: dict[tuple[bool, int, int, bool], Fraction] = {}
            for (ok0, h0, w0, g0), q0 in order.items():
                for (ok1, h1, w1, g1), q1 in outcomes.items():
                    key = (ok0 and ok1, h0 + h1, w0 + w1, g0 or g1)
                    joined[key] = joined.get(key, 0) + q0 * q1
            order = joined
        for (ok, hits, wounds, guts_hit), q in order.items():
            hits_dist[hits] = hits_dist.get(hits, 0) + q
            wounds_dist[wounds] = wounds_dist.get(wounds, 0) + q
            if dodger["dodges"] and ok:
                totals["dodged"] += q
            if hits == 0:
                totals["no_hit"] += q
            if wounds >= dodger["wounds"]:
                totals["null"] += q
            elif hits and not guts_hit:        # no Damage and no State: no Guts Roll
                totals["no_effect"] += q
            elif hits and blocked:             # hit, so it did not move: still Engaged or IMM
                totals["no_guts"] += q
            elif hits:
                passes = 0 if data["guts"]["decision"] == "fail" else guts_passes
                totals["guts_fails"] += q * (1 - passes)
                totals["guts_passes"] += q * passes
    # The dodger that succeeded against everything moves up to the dodge move (the rulebook's 2");
    # with no move at all it stays, whatever was planned.
    move = data["variant"]["dodge_move"]
    plan = data["after_dodge"] if move else "stay"
    moved = {"move": f"moves up to {move}\"", "engage": "moves into contact, Engaged",
             "stay": "stays"}[plan]
    return {
        "p_dodge_succeeds": totals["dodged"] if dodger["dodges"] else None,
        "dodged": ("Unharmed, dodged everything: " + moved, totals["dodged"]),
        "p_no_hit": totals["no_hit"],
        "expected_hits": sum(k * q for k, q in hits_dist.items()),
        "expected_wounds": sum(w * q for w, q in wounds_dist.items()),
        "p_null": totals["null"],
        "p_guts_fails": totals["guts_fails"],
        "final": {"Hit, stands: no Guts Roll (no Damage, no State)": totals["no_effect"],
                  "Hit, stands: no Guts Roll (Engaged or Immobilized)": totals["no_guts"],
                  "Hit, passes the Guts Roll: stands its ground": totals["guts_passes"],
                  "Unharmed, does not move (no successful dodge)": totals["no_hit"] - totals["dodged"]},
        "hits": {k: q for k, q in hits_dist.items() if q},
        "wounds": {w: q for w, q in wounds_dist.items() if q},
    }


def check(data: dict) -> None:
    scenario = load_scenario(data)
    data = scenario.to_data()          # every field filled in, as plain data
    expected = reference(data)
    result = evaluate(scenario)
    for name in ("p_dodge_succeeds", "p_no_hit", "expected_hits", "expected_wounds", "p_null", "p_guts_fails"):
        assert result.headline[name] == expected[name], name
    assert dict(result.hits.items()) == expected["hits"]
    assert dict(result.distributions["wounds"].items()) == expected["wounds"]
    final = result.distributions["final state"]
    for label, p in expected["final"].items():
        assert final[label] == p, label
    moved, p_dodged = expected["dodged"]
    if p_dodged:
        [dodged] = [label for label, _ in final.items() if label.startswith(moved)]
        assert final[dodged] == p_dodged


# -- the reference against evaluate ---------------------------------------------------------------

@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scenario_strategy("infinity-n4"))
def test_evaluate_equals_the_reference_on_drawn_orders(raw):
    dodger = raw["dodger"]
    if dodger["immobilized"] == "IMM-B":   # a trooper in IMM-B cannot declare a Dodge
        raw = {**raw, "dodger": {**dodger, "dodges": False}}
    check(raw)


def test_evaluate_equals_the_reference_on_every_minus_three_circumstance():
    # Each circumstance alone and together, under both readings, against an attacker, a Direct
    # Template and a mine; and nobody attacking, inside ZoC. The dodger's MODs stay off the cap.
    for reading, zoc, template_no_lof, lof, kind in product(
            ("single", "stacking"), (False, True), (False, True), (False, True),
            ("none", "direct", "deployable")):
        attacker = {"value": 12, "mod": 3, "burst": 2, "zoc_no_lof": zoc, "template_no_lof": template_no_lof}
        check({"system": "infinity-n4", "dodger": {"ph": 14, "wounds": 2}, "minus_three": reading,
               "attackers": [attacker], "template": {"kind": kind, "lof": lof, "ammo": "DA"}})
    for reading in ("single", "stacking"):
        check({"system": "infinity-n4", "dodger": {"ph": 9}, "minus_three": reading,
               "attackers": [{"attacks": False, "zoc_no_lof": True}]})


def test_evaluate_equals_the_reference_under_house_rules():
    # The rule constants moved off their official values, each alone and together, on Orders
    # where they bite: the dodger's and the attackers' MODs past a small cap, the −3
    # circumstances on an attacker and on a mine under both readings, and every movement plan.
    orders = [
        {"dodger": {"ph": 12, "mod": -5}, "attackers": [{"value": 11, "mod": 7, "burst": 2, "zoc_no_lof": True}],
         "template": {"kind": "deployable", "lof": False, "ammo": "AP"}},
        {"dodger": {"ph": 9, "mod": 4, "engaged": True}, "after_dodge": "move",
         "attackers": [{"value": 13, "mod": -9, "burst": 3, "template_no_lof": True}]},
        {"dodger": {"ph": 11, "immobilized": "IMM-A"}, "after_dodge": "engage",
         "attackers": [{"attacks": False, "zoc_no_lof": True}]},
    ]
    for order, reading, cap, each, move in product(orders, ("single", "stacking"), (0, 2, 9, 24),
                                                   (0, -2, -5), (0, 1, 6)):
        check({"system": "infinity-n4", **order, "minus_three": reading,
               "variant": {"mod_cap": cap, "circumstance_mod": each, "dodge_move": move}})
