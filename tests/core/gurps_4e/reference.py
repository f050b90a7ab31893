"""GURPS 4e written again from the rules text (docs/rulings/gurps-4e.md and the B pages it
cites), sharing nothing with ``rules_core`` but the faces of a six-sided die.

It reads a scenario as plain data (``scenario.to_data()``) and computes, exactly and by a plain
walk over every roll, what the fast path reports: the outcome labels, hits on the dodger, every
further distribution and the headline probabilities. Its planning — which roll gets which
modifier, what a drop carries to the foe's later attacks, which hits a defense may touch, what a
margin buys — is its own, so a wrong modifier in the package's planning shows as a difference.
"""

from __future__ import annotations

import re
from collections import defaultdict
from fractions import Fraction
from math import floor
from typing import Any, NamedTuple

FACES = range(1, 7)


# -- dice ---------------------------------------------------------------------------------------------

def totals(dice: int) -> dict[int, Fraction]:
    """Probability of each total of ``dice`` six-sided dice, counted face by face."""
    dist = {0: Fraction(1)}
    for _ in range(dice):
        step: dict[int, Fraction] = defaultdict(Fraction)
        for total, p in dist.items():
            for face in FACES:
                step[total + face] += p / 6
        dist = dict(step)
    return dist


THREE_D6 = totals(3)


#: The Basic Set's constants (B17, B343-348, B377), which a house rule (the scenario's
#: ``variant`` block) may change.
OFFICIAL = {"critical_up_to": 4, "critical_5_at": 15, "critical_6_at": 16, "always_fails_from": 17,
            "dodge_base": 3, "retreat_bonus": 3, "drop_bonus": 3}


def check(roll: int, score: int, rule: dict[str, int] = OFFICIAL) -> tuple[bool, bool, int]:
    """(success, critical, margin) of a 3d6 roll against a score (B343-348): 3-4 always succeed,
    17-18 always fail; critical success on 3-4, 5 at 15+, 6 at 16+; critical failure on 18, on
    17 at 15 or less, and 10 or more over the score. ``rule`` moves the 4, 15, 16 and 17."""
    if roll <= rule["critical_up_to"]:
        return True, True, score - roll
    success = roll < rule["always_fails_from"] and roll <= score
    if success:
        critical = (roll == 5 and score >= rule["critical_5_at"]) or (roll == 6 and score >= rule["critical_6_at"])
    else:
        critical = roll == 18 or (roll == 17 and score <= 15) or roll - score >= 10
    return success, critical, score - roll


def chance(score: int, rule: dict[str, int] = OFFICIAL) -> Fraction:
    return sum((p for roll, p in THREE_D6.items() if check(roll, score, rule)[0]), Fraction(0))


# -- one hit's injury (B378-379, B398-400, B414) --------------------------------------------------------

WOUNDING = {"pi-": Fraction(1, 2), "pi": 1, "pi+": Fraction(3, 2), "pi++": 2, "cut": Fraction(3, 2), "imp": 2,
            "cr": 1, "burn": 1, "cor": 1, "tox": 1, "fat": 1}
BLUNT = {"cr": 5, "cut": 10, "imp": 10, "pi-": 10, "pi": 10, "pi+": 10, "pi++": 10}


def notation(text: str) -> tuple[int, int, int]:
    """(dice, adds, multiplier) of canonical damage text such as ``2d+1`` or ``4d×2``."""
    match = re.fullmatch(r"(\d+)d([+-]\d+)?(?:×(\d+))?", text)
    assert match, text
    return int(match[1]), int(match[2] or 0), int(match[3] or 1)


def armor(dr: int, divisor: str) -> int:
    value = Fraction(divisor)
    if value >= 1:
        return floor(dr / value)
    return int(max(dr, 1) / value)


def hit_injury(damage: str, kind: str, dr: int, *, divisor: str = "1", flexible: bool = False,
               location: str = "torso", hp: int = 10, cover: int = 0, spread: int = 1,
               maximum: bool = False) -> dict[int, Fraction]:
    """The injury of one hit, over its damage dice (or at their highest total)."""
    dice, adds, mult = notation(damage)

    def one(total: int) -> int:
        basic = max((total + adds) * mult, 0 if kind == "cr" else 1) // spread
        reaching = max(0, basic - armor(cover, divisor)) if cover else basic
        through = reaching - armor(dr, divisor)
        if through > 0:
            if location == "vitals" and kind != "fat":
                wound = 3
            elif location == "limb" and kind in ("pi+", "pi++", "imp"):
                wound = 1
            else:
                wound = WOUNDING[kind]
            hurt = max(1, floor(through * wound))
        elif flexible and kind in BLUNT:
            hurt = reaching // BLUNT[kind]
        else:
            hurt = 0
        if location == "limb" and kind != "fat":
            hurt = min(hurt, hp // 2 + 1)
        return hurt

    if maximum:
        return {one(6 * dice): Fraction(1)}
    out: dict[int, Fraction] = defaultdict(Fraction)
    for total, p in totals(dice).items():
        out[one(total)] += p
    return dict(out)


def hits_of(per_hit: dict[int, Fraction], k: int, hp: int, wounds: bool) -> dict[tuple[int, bool], Fraction]:
    """(total injury, some hit over HP/2) over ``k`` independent hits."""
    out = {(0, False): Fraction(1)}
    for _ in range(k):
        step: dict[tuple[int, bool], Fraction] = defaultdict(Fraction)
        for (total, major), p in out.items():
            for value, q in per_hit.items():
                step[(total + value, major or (wounds and 2 * value > hp))] += p * q
        out = dict(step)
    return out


# -- the dodger's scores ------------------------------------------------------------------------------

ENCUMBRANCE = {"none": 0, "light": 1, "medium": 2, "heavy": 3, "extra-heavy": 4}
DEFENSE_POSTURE = {"standing": 0, "crouching": 0, "kneeling": -2, "sitting": -2, "crawling": -3, "lying": -3}
RAPID_FIRE = [(50, 6), (25, 5), (17, 4), (13, 3), (9, 2), (5, 1)]


def dodge(data: dict[str, Any], *, dropped: bool = False, kind: str = "blast") -> int:
    """The Dodge against one attack of ``kind`` "melee" or "ranged" (or a blast), before an
    Acrobatics roll. B377: a retreat is +3 against melee attacks only."""
    d, t = data["dodger"], data["target"]
    rule = data["variant"]
    score = floor(d["basic_speed"]) + rule["dodge_base"] - ENCUMBRANCE[d["encumbrance"]]
    if 3 * t["hp_left"] < t["hp"] or 3 * t["fp_left"] < t["fp"]:
        score = -(-score // 2)
    reacts = d["defense"] != "none"
    option = "dodge_and_drop" if data["situation"] in ("smother", "dive") and reacts else d["defense"]
    if option == "retreat" and kind == "melee":
        score += rule["retreat_bonus"]
    if option == "dodge_and_drop" and (not dropped or data["carry"] != "prone_only"):
        score += rule["drop_bonus"]
    prone = dropped and not d["flying"] and data["carry"] != "bonus_only"
    score += -3 if prone else DEFENSE_POSTURE[d["posture"]]
    return score + d["shield_db"] + d["modifier"]


def attack_skill(data: dict[str, Any], attack: dict[str, Any], *, dropped: bool, at_friend: bool = False) -> int:
    skill = attack["skill"] + next((bonus for least, bonus in RAPID_FIRE if attack["rof"] >= least), 0)
    if attack["kind"] == "ranged" and not at_friend:
        prone = dropped and not data["dodger"]["flying"] and data["carry"] != "bonus_only"
        if prone or data["dodger"]["posture"] != "standing":
            skill -= 2
    return skill


def dodge_rolls(data: dict[str, Any], score: int) -> list[tuple[Fraction, bool, bool, int]]:
    """(probability, success, critical, margin) of the dodger's Dodge roll, after an acrobatic
    dodge's Acrobatics roll (+2 made, −2 missed)."""
    d = data["dodger"]
    scores = [(Fraction(1), score)]
    if d["acrobatic"]:
        made = chance(d["acrobatics"], data["variant"])
        scores = [(made, score + 2), (1 - made, score - 2)]
    return [(p * q, *check(roll, value, data["variant"])) for p, value in scores for roll, q in THREE_D6.items() if p]


def avoided(success: bool, critical: bool, margin: int, facing: int, ruling: str) -> int:
    """Hits a Dodge avoids against rapid fire: one plus one per point of margin (B375)."""
    if not success:
        return 0
    if critical and ruling == "all":
        return facing
    return min(facing, 1 + max(0, margin))


def attack_rolls(data: dict[str, Any], attack: dict[str, Any], skill: int) -> list[tuple[Fraction, int, bool]]:
    """(probability, hits, critical hit) of one attack."""
    if attack["hits_by"] == "fixed":
        return [(Fraction(1), attack["hits"], False)]
    if skill < 3:
        return [(Fraction(1), 0, False)]
    out = []
    for roll, p in THREE_D6.items():
        success, critical, margin = check(roll, skill, data["variant"])
        hits = min(attack["rof"], 1 + max(0, margin) // attack["recoil"]) if success else 0
        out.append((p, hits, success and critical))
    return out


def free_hits(hits: int, critical: bool, ruling: str) -> int:
    """Hits no defense may touch: a critical hit's (all, or the first under crit_hit = first)."""
    if not critical:
        return 0
    return hits if ruling == "all" else min(hits, 1)


def pool(data: dict[str, Any]) -> tuple[str, int]:
    kind = data["blast"]["damage_type"] if data["situation"] in ("smother", "dive") else data["attacks"][0]["damage_type"]
    return ("FP", data["target"]["fp_left"]) if kind == "fat" else ("HP", data["target"]["hp_left"])


# -- the situations -------------------------------------------------------------------------------------

class Tally:
    """Weighted outcomes of the whole situation, read back as distributions and probabilities."""

    def __init__(self) -> None:
        self.rows: list[tuple[Fraction, dict[str, Any]]] = []

    def add(self, p: Fraction, **row: Any) -> None:
        if p:
            self.rows.append((p, row))

    def dist(self, name: str) -> dict[Any, Fraction]:
        out: dict[Any, Fraction] = defaultdict(Fraction)
        for p, row in self.rows:
            out[row[name]] += p
        return {k: v for k, v in out.items() if v}

    def probability(self, event, given=lambda row: True) -> Fraction | None:
        whole = sum((p for p, row in self.rows if given(row)), Fraction(0))
        if not whole:
            return None
        return sum((p for p, row in self.rows if given(row) and event(row)), Fraction(0)) / whole


class State(NamedTuple):
    """Where a turn of attacks stands: a drop made, the Dodge rolls so far (None, "made" or
    "failed"), whether any hit arrived, hits landed and dodged, injury, and a major wound."""

    dropped: bool
    rolls: str | None
    arrived: bool
    landed: int
    dodged: int
    injury: int
    major: bool


def _attacks(data: dict[str, Any]) -> Tally:
    d, t = data["dodger"], data["target"]
    option = d["defense"]
    name, left = pool(data)
    wounds = name == "HP"
    states = {State(False, None, False, 0, 0, 0, False): Fraction(1)}
    for attack in data["attacks"]:
        landing: dict[tuple[int, int], dict] = {}  # (cover DR, hits landing) → their injury
        new: dict[State, Fraction] = defaultdict(Fraction)
        for state, p in states.items():
            dropped, rolls, arrived, landed, dodged, injury, major = state
            if dropped and data["cover"]["kind"] == "full":
                new[state] += p
                continue
            cover = data["cover"]["dr"] if dropped and data["cover"]["kind"] == "dr" else 0
            per_hit = hit_injury(attack["damage"], attack["damage_type"], t["dr"], divisor=attack["divisor"],
                                 flexible=t["flexible"], location=t["location"], hp=t["hp"], cover=cover)
            skill = attack_skill(data, attack, dropped=dropped)
            for q, hits, critical in attack_rolls(data, attack, skill):
                free = free_hits(hits, critical, data["crit_hit"])
                if hits == 0 or hits == free or option == "none":
                    branches = [(Fraction(1), None, 0, dropped)]
                else:
                    score = dodge(data, dropped=dropped, kind=attack["kind"])
                    branches = [(r, success, avoided(success, crit, margin, hits - free, data["crit_dodge"]),
                                 dropped or option == "dodge_and_drop")
                                for r, success, crit, margin in dodge_rolls(data, score)]
                for r, success, away, after in branches:
                    now = rolls if success is None else ("failed" if rolls == "failed" or not success else "made")
                    if (cover, hits - away) not in landing:
                        landing[(cover, hits - away)] = hits_of(per_hit, hits - away, t["hp"], wounds)
                    for (harm, hurt), s in landing[(cover, hits - away)].items():
                        new[State(after, now, arrived or hits > 0, landed + hits - away, dodged + away,
                                   injury + harm, major or hurt)] += p * q * r * s
        states = dict(new)
    tally = Tally()
    for (dropped, rolls, arrived, landed, dodged, injury, major), p in states.items():
        if not arrived:
            label = "No hit arrives"
        elif not landed:
            label = "Every hit dodged"
        elif injury >= left:
            label = f"Down ({name} ≤ 0)"
        elif major:
            label = "Major wound"
        else:
            label = "Injured" if injury else "Hits land, no injury"
        tally.add(p, outcome=label, hits=landed, injury=injury, major=major, rolls=rolls, hits_dodged=dodged,
                  ends_prone=dropped and option == "dodge_and_drop" and not d["flying"])
    return tally


def _sacrificial(data: dict[str, Any]) -> Tally:
    d, t, f = data["dodger"], data["target"], data["friend"]
    attack = data["attacks"][0]
    drop = d["defense"] == "dodge_and_drop"
    wounds = pool(data)[0] == "HP"
    on_dodger = hit_injury(attack["damage"], attack["damage_type"], t["dr"], divisor=attack["divisor"],
                           flexible=t["flexible"], location=t["location"], hp=t["hp"])
    on_friend = hit_injury(attack["damage"], attack["damage_type"], f["dr"], divisor=attack["divisor"],
                           flexible=f["flexible"], hp=f["hp"])
    tally = Tally()

    def land(p: Fraction, label: str, rolls: str | None, mine: int, theirs: int) -> None:
        for (harm, hurt), q in hits_of(on_dodger, mine, t["hp"], wounds).items():
            for (friend_harm, _), r in hits_of(on_friend, theirs, f["hp"], wounds).items():
                tally.add(p * q * r, outcome=label, hits=mine, injury=harm, major=hurt, rolls=rolls,
                          friend_injury=friend_harm, friend_hit=theirs > 0,
                          ends_prone=rolls is not None and drop and not d["flying"])

    for q, hits, critical in attack_rolls(data, attack, attack_skill(data, attack, dropped=False, at_friend=True)):
        if not hits:
            land(q, "No hit arrives", None, 0, 0)
            continue
        free = free_hits(hits, critical, data["crit_hit"])
        if hits == free:
            land(q, "Friend is hit", None, 0, free)
            continue
        if d["defense"] == "none":  # no sacrificial dodge: the attack goes at the friend, who defends alone
            if not f["defends"]:
                land(q, "Friend is hit", None, 0, hits)
                continue
            for roll, s in THREE_D6.items():
                ok, fcrit, fmargin = check(roll, f["defense"], data["variant"])
                theirs = hits - avoided(ok, fcrit, fmargin, hits - free, data["crit_dodge"])
                land(q * s, "Friend is hit" if theirs else "Friend defends every hit", None, 0, theirs)
            continue
        for r, success, crit, margin in dodge_rolls(data, dodge(data)):
            if success:
                mine = 0 if drop and margin >= 3 else hits - free
                label = ("Both are hit" if mine and free else "Dodger takes the hit" if mine
                         else "Friend is hit" if free else "Neither is hit (success by 3+)")
                land(q * r, label, "made", mine, free)
            elif f["defends"]:
                for roll, s in THREE_D6.items():
                    ok, fcrit, fmargin = check(roll, f["defense"], data["variant"])
                    theirs = hits - avoided(ok, fcrit, fmargin, hits - free, data["crit_dodge"])
                    land(q * r * s, "Friend is hit" if theirs else "Friend defends every hit", "failed", 0, theirs)
            else:
                land(q * r, "Friend is hit", "failed", 0, hits)
    return tally


def _blast(data: dict[str, Any], yards: int, *, friend: bool = False, cover: int = 0,
           maximum: bool = False) -> dict[int, Fraction] | None:
    """The blast on the dodger (or the friend) ``yards`` away; ``None`` beyond its reach."""
    b = data["blast"]
    dice = notation(b["damage"])[0]
    if b["spread"] == "explosion" and yards > 2 * dice:
        return None
    who = data["friend"] if friend else data["target"]
    spread = 1 if b["spread"] == "area" or yards == 0 else 3 * yards
    return hit_injury(b["damage"], b["damage_type"], who["dr"], flexible=who["flexible"], hp=who["hp"],
                      cover=cover, spread=spread, maximum=maximum)


def _smother(data: dict[str, Any]) -> Tally:
    t, b, f = data["target"], data["blast"], data["friend"]
    hp, wounds = t["hp"], pool(data)[0] == "HP"
    contact = _blast(data, 0, maximum=data["smother_damage"] == "maximum")
    stays = _blast(data, b["distance"])
    exposed = _blast(data, f["distance"], friend=True) or {0: Fraction(1)}
    tally = Tally()
    if data["dodger"]["defense"] == "none":  # nobody throws himself on it: everyone where they stood
        for harm, q in (stays or {0: Fraction(1)}).items():
            for spared, s in exposed.items():
                caught = _blast(data, f["distance"], friend=True) is not None
                tally.add(q * s, outcome="Nobody on it: the blast goes off", hits=int(stays is not None),
                          injury=harm, major=wounds and 2 * harm > hp, rolls=None, friend_hit=caught,
                          friend_injury=spared if caught else 0, friend_injury_unprotected=spared,
                          ends_prone=False)
        return tally
    for r, success, _, _ in dodge_rolls(data, dodge(data)):
        mine = contact if success else stays
        for harm, q in (mine or {0: Fraction(1)}).items():
            for spared, s in exposed.items():
                caught = not success and _blast(data, f["distance"], friend=True) is not None
                tally.add(r * q * s, outcome="Smothered: the dodger takes the blast in contact" if success
                          else "Too slow: the blast goes off", hits=int(mine is not None), injury=harm,
                          major=wounds and 2 * harm > hp, rolls="made" if success else "failed",
                          friend_hit=caught, friend_injury=spared if caught else 0,
                          friend_injury_unprotected=spared, ends_prone=not data["dodger"]["flying"])
    return tally


def _dive(data: dict[str, Any]) -> Tally:
    t, b, c = data["target"], data["blast"], data["cover"]
    hp, wounds = t["hp"], pool(data)[0] == "HP"
    caught = _blast(data, b["distance"])
    if c["kind"] == "full":
        label, safe = "Reached complete cover", {0: Fraction(1)}
    elif c["kind"] == "dr":
        label, safe = "Reached cover (its DR protects)", _blast(data, b["distance"], cover=c["dr"])
    elif b["spread"] == "explosion":
        label, safe = "A yard farther from the blast", _blast(data, b["distance"] + 1)
    else:
        label, safe = "Dove, but still in the area", caught
    tally = Tally()
    if data["dodger"]["defense"] == "none":  # no dive: the effect where the dodger stands
        for harm, q in (caught or {0: Fraction(1)}).items():
            tally.add(q, outcome="No dive: caught where he stood" if caught is not None else "Out of the blast's reach",
                      hits=int(caught is not None), injury=harm, major=wounds and 2 * harm > hp, rolls=None,
                      ends_prone=False)
        return tally
    for r, success, _, _ in dodge_rolls(data, dodge(data)):
        if success:
            here, name, struck = safe, label, safe is not None and c["kind"] != "full"
        else:
            here, name, struck = caught, "Caught before the step", caught is not None
        if here is None:
            name = "Out of the blast's reach"
        for harm, q in (here or {0: Fraction(1)}).items():
            tally.add(r * q, outcome=name, hits=int(struck), injury=harm, major=wounds and 2 * harm > hp,
                      rolls="made" if success else "failed", ends_prone=not data["dodger"]["flying"])
    return tally


def reference(data: dict[str, Any]) -> dict[str, Any]:
    """Everything the fast path reports, from the rules text: ``outcomes``, ``hits``, each
    further distribution by name, and the headline probabilities."""
    tally = {"attacks": _attacks, "sacrificial": _sacrificial, "smother": _smother, "dive": _dive}[data["situation"]](data)
    name, left = pool(data)
    out = {"outcomes": tally.dist("outcome"), "hits": tally.dist("hits"), "injury": tally.dist("injury"),
           "ends_prone": tally.dist("ends_prone"),
           "p_dodge_succeeds": tally.probability(lambda row: row["rolls"] == "made",
                                                 given=lambda row: row["rolls"] is not None),
           "p_down": tally.probability(lambda row: row["injury"] >= left),
           "p_major_wound": tally.probability(lambda row: row["major"]) if name == "HP" else None}
    if data["situation"] == "attacks":
        out["hits_dodged"] = tally.dist("hits_dodged")
    if data["situation"] in ("sacrificial", "smother"):
        out["friend_injury"] = tally.dist("friend_injury")
        out["p_friend_hit"] = tally.probability(lambda row: row["friend_hit"])
    if data["situation"] == "smother":
        out["friend_injury_unprotected"] = tally.dist("friend_injury_unprotected")
    if data["situation"] == "dive":
        caught = _blast(data, data["blast"]["distance"])
        out["injury_if_caught"] = caught or {0: Fraction(1)}
    return out
