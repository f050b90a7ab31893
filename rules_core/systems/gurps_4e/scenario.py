"""The GURPS 4e scenario: who dodges, what comes in, and what the source leaves to rulings.

Four situations share one set of fields:

- ``attacks``: one foe's attacks on the dodger in one turn (one to four, in order);
- ``sacrificial``: one attack aimed at a friend a step away, which the dodger tries to take
  or, with a dodge and drop, to spoil for both (B375, B377);
- ``smother``: the dodger throws himself on an explosive to spare a friend (B377, B415);
- ``dive``: the dodger dives for cover from an explosion or area effect (B377, B414).
"""

from __future__ import annotations

from decimal import Decimal
from math import ceil, log2
from typing import Literal, NamedTuple

from pydantic import field_validator, model_validator

from ...scenario import FieldConflict, Part, Scenario, choice, fields_of, flag, number, part, parts, ruling, text, when
from ...variants import VARIANT_FIELD, Variant
from . import sources as cite
from .damage import (DAMAGE_TYPES, DIVISORS, IMPALING_OR_PIERCING, LOCATIONS, MAX_LENGTH, NOTATION, Hit,
                     hit_injury, parse_damage)

__all__ = ["SYSTEM_ID", "GurpsVariant", "OFFICIAL", "Dodger", "Target", "Attack", "Cover", "Blast", "Friend",
           "GurpsScenario", "Pool",
           "ENCUMBRANCE", "POSTURES", "Posture", "DamageType", "Divisor", "SIZE_LIMIT", "turn_size"]

SYSTEM_ID = "gurps-4e"
#: The largest turn computed exactly (see :func:`turn_size`): about a second on a laptop.
SIZE_LIMIT = 1_500_000

DamageType = Literal["pi-", "pi", "pi+", "pi++", "cut", "imp", "cr", "burn", "cor", "tox", "fat"]
Divisor = Literal["1", "2", "3", "5", "10", "100", "0.5", "0.2", "0.1"]
Location = Literal["torso", "vitals", "limb"]

ENCUMBRANCE = {"none": 0, "light": 1, "medium": 2, "heavy": 3, "extra-heavy": 4}


class Posture(NamedTuple):
    """A posture's modifiers (B551): to the dodger's active defenses, and to ranged attacks at him."""

    defense: int
    ranged_at: int


POSTURES = {"standing": Posture(0, 0), "crouching": Posture(0, -2), "kneeling": Posture(-2, -2),
            "sitting": Posture(-2, -2), "crawling": Posture(-3, -2), "lying": Posture(-3, -2)}
DOWN_POSTURES = ("crawling", "lying")


def _dice(value: str) -> str:
    """Validate damage dice text and store it in its canonical spelling."""
    return str(parse_damage(value))


#: What the JSON Schema says of damage dice: the canonical spelling (``2d+1``, ``1d-1``, ``4d×2``),
#: 1 to 30 dice, an add of ±1 to ±50, a multiplier of 2 to 10 (the validator also reads ``2d6 + 1``).
DICE_PATTERN = r"^([1-9]|[12][0-9]|30)d([+-]([1-9]|[1-4][0-9]|50))?(×([2-9]|10))?$"
#: Damage dice of a turn of attacks in the schema, by the shape of the turn, so that every turn the
#: schema allows is within ``SIZE_LIMIT`` (see :meth:`GurpsScenario.schema_rules`): 1 to 3 dice
#: with an add of ±1 to ±5 (one attack of any RoF, or up to four of RoF and hits 10 at most), or
#: 1 to 10 dice with an add of ±1 to ±10 (up to four attacks of RoF and hits 3 at most).
SMALL_DICE_PATTERN = r"^[1-3]d([+-][1-5])?$"
MEDIUM_DICE_PATTERN = r"^([1-9]|10)d([+-]([1-9]|10))?$"


def _dice_field(default: str, label: str, help: str, citation: str) -> str:
    return text(default, max_length=MAX_LENGTH, allowed=NOTATION, label=label, help=help,
                citation=citation, pattern=DICE_PATTERN)


class GurpsVariant(Variant):
    """GURPS's own rule constants a designer may change (house rules), each at its official value.

    The success roll's automatic success and failure and its critical successes (B343-348), and
    the +3s of Dodge (B17), a retreat and a dodge and drop (B377). The critical *failure*
    thresholds (18; 17 at 15 or less; 10 over the score) are not here: no number the workbook
    computes depends on them (a critically failed Dodge is a failed Dodge; the critical miss
    table is out of scope).
    """

    critical_up_to: int = number(
        4, ge=2, le=8, label="Always a critical success: 3d6 up to", citation=cite.CRITICAL,
        help="A roll this low succeeds whatever the score, and critically (officially 3 or 4); "
             "2: no roll succeeds automatically. A critical hit allows no defense.")
    critical_5_at: int = number(
        15, ge=5, le=40, label="A roll of 5 is critical at effective score", citation=cite.CRITICAL,
        help="From this effective score on, a roll of 5 is a critical success (officially 15).")
    critical_6_at: int = number(
        16, ge=6, le=40, label="A roll of 6 is critical at effective score", citation=cite.CRITICAL,
        help="From this effective score on, a roll of 6 is a critical success (officially 16).")
    always_fails_from: int = number(
        17, ge=10, le=19, label="Always a failure: 3d6 from", citation=cite.SUCCESS,
        help="A roll this high fails whatever the score (officially 17 and 18); 19: no roll "
             "fails automatically.")
    dodge_base: int = number(3, ge=0, le=8, label="Dodge = Basic Speed +", citation=cite.DODGE,
                             help="Added to Basic Speed (fractions dropped) for Dodge (officially 3).")
    retreat_bonus: int = number(3, ge=0, le=6, label="Retreat bonus to Dodge", citation=cite.RETREAT,
                                help="A retreat's bonus to Dodge against melee attacks (officially +3).")
    drop_bonus: int = number(3, ge=0, le=6, label="Dodge and drop bonus", citation=cite.DROP,
                             help="A dodge and drop's bonus to Dodge against ranged attacks and blasts "
                                  "(officially +3); under the ruling carry it may apply to later attacks.")


#: The official rule: every constant at its value in the Basic Set.
OFFICIAL = GurpsVariant()


class Dodger(Part):
    """The character who dodges, with every modifier to the Dodge roll."""

    basic_speed: Decimal = number(6, ge=1, le=20, step=Decimal("0.25"), label="Basic Speed",
                                  help="Dodge is Basic Speed with fractions dropped, + 3.", citation=cite.DODGE)
    encumbrance: Literal["none", "light", "medium", "heavy", "extra-heavy"] = choice(
        "none", label="Encumbrance", help="Each level is −1 to Dodge.", citation=cite.ENCUMBRANCE,
        labels={"none": "None (0)", "light": "Light (1)", "medium": "Medium (2)", "heavy": "Heavy (3)",
                "extra-heavy": "Extra-Heavy (4)"})
    posture: Literal["standing", "crouching", "kneeling", "sitting", "crawling", "lying"] = choice(
        "standing", label="Posture", citation=cite.POSTURE,
        help="Kneeling or sitting −2, crawling or lying −3 to Dodge; any posture but standing is "
             "−2 to ranged attacks at you.",
        labels={"standing": "Standing", "crouching": "Crouching", "kneeling": "Kneeling",
                "sitting": "Sitting", "crawling": "Crawling", "lying": "Lying down (prone)"})
    defense: Literal["none", "plain", "retreat", "dodge_and_drop"] = choice(
        "plain", label="Defense", citation=cite.DROP,
        help="Retreat: +3, melee only. Dodge and drop: +3, ranged only, ends prone, applies to "
             "all defenses against that foe this turn. None: no active defense (surprised); in a "
             "sacrificial dodge, on an explosive or diving for cover, the dodger does not react "
             "(the others are a dodge and drop whatever is chosen here).",
        labels={"none": "No defense", "plain": "Dodge", "retreat": "Dodge with a retreat (+3)",
                "dodge_and_drop": "Dodge and drop (+3)"})
    acrobatic: bool = flag(False, label="Acrobatic dodge", citation=cite.ACROBATIC,
                           help="Roll Acrobatics before each Dodge: +2 to it on a success, −2 on a failure.")
    acrobatics: int = number(12, ge=3, le=30, label="Acrobatics skill",
                             help="Effective Acrobatics skill for an acrobatic dodge.", citation=cite.ACROBATIC)
    shield_db: int = number(0, ge=0, le=4, label="Shield DB",
                            help="A ready shield's Defense Bonus adds to Dodge.", citation=cite.SHIELD)
    modifier: int = number(0, ge=-10, le=10, label="Other Dodge modifiers",
                           help="Any further situational modifier to the Dodge roll.", citation=cite.DODGE)
    flying: bool = flag(False, label="Flying or swimming", citation=cite.FLYING,
                        help="A flyer or swimmer does not end prone, and may dodge and drop only "
                             "where a step takes it below concealing terrain.")
    below_terrain: bool = flag(False, label="A step takes me below concealing terrain",
                               help="For a flyer or swimmer: a dodge and drop is possible here.",
                               citation=cite.FLYING)


class Target(Part):
    """The dodger's body: armor, hit location, Hit and Fatigue Points."""

    dr: int = number(0, ge=0, le=100, label="DR", citation=cite.DAMAGE,
                     help="Damage Resistance at the hit location (against a blast: the large-area "
                          "DR, the average of torso DR and the least-protected location's, B400).")
    flexible: bool = flag(False, label="Flexible armor", citation=cite.BLUNT,
                          help="Flexible armor lets blunt trauma through when nothing penetrates.")
    location: Location = choice("torso", label="Hit location", labels=LOCATIONS, citation=cite.LOCATION,
                                help="Vitals: ×3 for impaling or piercing. Arm or leg: ×1 for pi+, "
                                     "pi++ and imp, and no more injury than cripples the limb.")
    hp: int = number(10, ge=1, le=100, label="HP", help="Hit Points (full).", citation=cite.MAJOR)
    hp_left: int = number(10, ge=1, le=100, label="HP left",
                          help="Hit Points left before this turn; below 1/3 of HP halves Dodge.",
                          citation=cite.LOW_HP_FP)
    fp: int = number(10, ge=1, le=100, label="FP", help="Fatigue Points (full).", citation=cite.FATIGUE)
    fp_left: int = number(10, ge=1, le=100, label="FP left",
                          help="Fatigue Points left; below 1/3 of FP halves Dodge; fatigue damage comes off them.",
                          citation=cite.LOW_HP_FP)

    @classmethod
    def schema_rules(cls) -> list[dict]:
        """HP left at most HP, FP left at most FP: one branch per full value (JSON Schema cannot
        compare two fields), a missing field counting as its default."""
        specs = {spec.name: spec for spec in fields_of(cls)}
        rules = []
        for full, left in (("hp", "hp_left"), ("fp", "fp_left")):
            whole, part = specs[full], specs[left]
            rules.append({"anyOf": [
                {"properties": {full: {"const": k}, left: {"maximum": k}},
                 "required": [*([full] if k != whole.default else []),
                              *([left] if k < part.default else [])]}
                for k in range(whole.minimum, whole.maximum + 1)]})
        return rules

    @model_validator(mode="after")
    def _left_within_full(self) -> "Target":
        for name, left, full in (("HP", self.hp_left, self.hp), ("FP", self.fp_left, self.fp)):
            if left > full:
                key = name.lower()
                raise FieldConflict.combination(
                    {key: full, f"{key}_left": left}, rule=f"{name} left cannot exceed the full {name}",
                    citation="B16", found=f"{name} left {left}, full {name} {full}",
                    fix=f"{name} left must be at most the full {name} ({full}), or raise the full {name}")
        return self


class Attack(Part):
    """One attack from the foe: how its hits arrive and what each hit does."""

    kind: Literal["ranged", "melee"] = choice("ranged", label="Attack", citation=cite.DROP,
                                               help="A retreat works against melee, a dodge and drop against ranged attacks.",
                                               labels={"ranged": "Ranged", "melee": "Melee"})
    hits_by: Literal["roll", "fixed"] = choice(
        "roll", label="Hits", citation=cite.RAPID_FIRE,
        help="An attack roll (rapid fire: one hit plus one per full Recoil of margin, up to RoF), "
             "or a fixed number of hits that reach the dodger.",
        labels={"roll": "Attack roll", "fixed": "Fixed number of hits"})
    skill: int = number(12, ge=3, le=30, label="Attacker's effective skill, before RoF bonus and target's posture",
                        citation=f"{cite.SUCCESS}; {cite.RAPID_FIRE}; {cite.POSTURE}",
                        help="The attacker's skill with every modifier the workbook does not know (range "
                             "and speed, the target's size, aiming, lighting, the attacker's own "
                             "situation). The workbook adds two itself: the rapid-fire bonus (+1 at RoF "
                             "5–8, +2 at 9–12, +3 at 13–16, +4 at 17–24, +5 at 25–49, +6 at 50 or more) "
                             "and, against a ranged attack, −2 when the dodger is not standing "
                             "(crouching, kneeling, sitting, crawling or lying, or prone after a dodge "
                             "and drop). Below 3 after those, the attack is not made.")
    rof: int = number(1, ge=1, le=50, label="RoF", help="Rate of fire: the most hits one attack can score.",
                      citation=cite.RAPID_FIRE)
    recoil: int = number(2, ge=1, le=20, label="Recoil", citation=cite.RAPID_FIRE,
                         help="One extra hit per full Recoil by which the attack roll succeeds.")
    hits: int = number(1, ge=1, le=50, label="Fixed hits", help="Hits that reach the dodger, with no attack roll.",
                       citation=cite.RAPID_FIRE)
    damage: str = _dice_field("2d+1", "Damage", "Damage dice per hit, e.g. 2d+1, 1d-1, 3d, 4d×2.", cite.DAMAGE)
    damage_type: DamageType = choice("cut", label="Damage type", labels=DAMAGE_TYPES, citation=cite.WOUNDING,
                                     help="Sets the wounding modifier and the minimum damage.")
    divisor: Divisor = choice("1", label="Armor divisor", labels=DIVISORS, citation=cite.DIVISOR,
                              help="Divides DR (rounding down); (0.5), (0.2), (0.1) multiply it, DR 0 counting as 1.")

    @field_validator("damage")
    @classmethod
    def _check_damage(cls, value: str) -> str:
        return _dice(value)


class Cover(Part):
    """Cover: dropped behind during a dodge and drop, or a step away when diving for cover."""

    kind: Literal["none", "dr", "full"] = choice(
        "none", label="Cover", citation=cite.COVER,
        help="Cover with DR adds that DR against the hit; complete cover (a trench, a wall) blocks it.",
        labels={"none": "No cover", "dr": "Cover with DR", "full": "Complete cover"})
    dr: int = number(5, ge=0, le=200, label="Cover DR", help="DR of the cover (with 'Cover with DR').",
                     citation=cite.COVER)


class Blast(Part):
    """An explosion or area effect (for diving for cover and throwing oneself on an explosive)."""

    damage: str = _dice_field("4d", "Blast damage", "The explosive's listed damage, e.g. 4d or 8d.",
                              cite.EXPLOSION)
    damage_type: DamageType = choice("cr", label="Blast damage type", labels=DAMAGE_TYPES,
                                     citation=cite.EXPLOSION, help="Usually crushing.")
    spread: Literal["explosion", "area"] = choice(
        "explosion", label="Effect", citation=cite.EXPLOSION,
        help="An explosion's damage falls with distance (÷ 3 × yards, out to 2 yards per die); "
             "an area or cone effect is the same throughout its area.",
        labels={"explosion": "Explosion", "area": "Area or cone effect"})
    distance: int = number(1, ge=0, le=60, label="Yards from the blast",
                           help="The dodger's distance from the centre (0: on it).", citation=cite.EXPLOSION)

    @field_validator("damage")
    @classmethod
    def _check_damage(cls, value: str) -> str:
        return _dice(value)


class Friend(Part):
    """The friend the dodger protects (sacrificial dodge, throwing oneself on an explosive)."""

    defends: bool = flag(True, label="Friend defends", citation=cite.SACRIFICIAL,
                         help="If the sacrificial dodge fails, the friend still gets an active defense.")
    defense: int = number(9, ge=0, le=30, label="Friend's Dodge",
                          help="The friend's effective Dodge if the sacrificial dodge fails.",
                          citation=cite.DODGE)
    dr: int = number(0, ge=0, le=100, label="Friend's DR", help="The friend's DR.", citation=cite.DAMAGE)
    flexible: bool = flag(False, label="Friend's armor is flexible", help="For blunt trauma.",
                          citation=cite.BLUNT)
    hp: int = number(10, ge=1, le=100, label="Friend's HP", help="The friend's full HP.", citation=cite.MAJOR)
    distance: int = number(2, ge=1, le=60, label="Friend's yards from the explosive",
                           help="How far the friend is from the explosive the dodger throws himself on.",
                           citation=cite.EXPLOSION)


class GurpsScenario(Scenario):
    """A GURPS 4e dodge: the situation, the dodger, what comes in, and the rulings."""

    system: Literal["gurps-4e"] = SYSTEM_ID
    situation: Literal["attacks", "sacrificial", "smother", "dive"] = choice(
        "attacks", label="Situation", citation=cite.DROP,
        help="A foe's attacks on you this turn; a sacrificial dodge for a friend a step away; "
             "throwing yourself on an explosive; diving for cover from a blast.",
        labels={"attacks": "Attacks on the dodger", "sacrificial": "Sacrificial dodge for a friend",
                "smother": "Throw yourself on an explosive", "dive": "Dive for cover"})
    dodger: Dodger = part(Dodger, label="Dodger", help="Who dodges, and how.", citation=cite.DODGE)
    target: Target = part(Target, label="Dodger's body", help="Armor, hit location, HP and FP.",
                          citation=cite.DAMAGE)
    attacks: tuple[Attack, ...] = parts(lambda: (Attack(),), min_items=1, max_items=4,
                                        label="Attacks this turn", item_label="Attack", citation=cite.DROP,
                                        help="One foe's attacks in this turn, in order (a sacrificial "
                                             "dodge uses the first, aimed at the friend).")
    cover: Cover = part(Cover, label="Cover", citation=cite.COVER,
                        help="Dropped behind (counts from the foe's next attack) or a step away (diving).")
    blast: Blast = part(Blast, label="Blast", help="The explosion or area effect.", citation=cite.EXPLOSION)
    friend: Friend = part(Friend, label="Friend", help="The friend the dodger protects.",
                          citation=cite.SACRIFICIAL)

    carry: Literal["both", "bonus_only", "prone_only"] = ruling(
        "both", label="Dodge and drop against the foe's later attacks",
        help="After a dodge and drop, do its +3 and the prone posture apply to the same foe's "
             "later attacks this turn?",
        citation=cite.DROP + "; " + cite.POSTURE,
        options={"both": "Both: the +3 applies to every defense against that foe this turn (B377), "
                         "and prone gives −3 to those defenses and −2 to his ranged attacks (B551)",
                 "bonus_only": "+3 only: the +3 carries; being prone counts only from the foe's next turn",
                 "prone_only": "Prone only: the +3 was for the attack that prompted the drop; later "
                               "attacks face a prone target (−3 Dodge, −2 to hit)"})
    crit_dodge: Literal["margin", "all"] = ruling(
        "margin", label="Critical success on a Dodge against rapid fire", citation=cite.RAPID_DODGE,
        help="Does a critical success on the Dodge avoid every hit of a rapid-fire attack?",
        options={"margin": "By margin: like any success, one hit plus one per point of margin (B375 as written)",
                 "all": "Every hit: a critical success avoids the whole burst"})
    crit_hit: Literal["all", "first"] = ruling(
        "all", label="Critical hit with rapid fire", citation=cite.CRIT_HIT,
        help="When a rapid-fire attack roll is a critical hit, which of its hits allow no defense?",
        options={"all": "All its hits: no defense against any of them",
                 "first": "The first hit only: the others may be dodged as usual"})
    smother_damage: Literal["contact", "maximum"] = ruling(
        "contact", label="Throwing yourself on an explosive", citation=cite.CONTACT,
        help="How much blast damage the dodger takes when the sacrificial dodge and drop succeeds.",
        options={"contact": "Contact explosion: the listed damage, rolled, not divided (B377 says "
                            "'treat the blast as a contact explosion')",
                 "maximum": "Fully contained: the maximum possible damage (B415 on explosions "
                            "covered on all sides)"})
    variant: GurpsVariant = part(GurpsVariant, **VARIANT_FIELD)

    @classmethod
    def schema_rules(cls) -> list[dict]:
        """The checks of :meth:`_situation_fits` in JSON Schema. The size limit cannot be said
        exactly (it multiplies fields across the attacks): a turn of attacks is held to one of
        three shapes (one attack of up to 3 dice ± 5; up to four attacks of RoF and hits 10 at
        most and 3 dice ± 5; up to four of RoF and hits 3 at most and 10 dice ± 10), each
        within ``SIZE_LIMIT`` at its largest — stricter than the check, so that every turn the
        schema allows is one the check takes."""
        situation = lambda *v: when(cls, "situation", list(v))  # noqa: E731
        defense = lambda *v: when(cls, "dodger.defense", list(v))  # noqa: E731
        dropping = {"anyOf": [{"allOf": [situation("smother", "dive"), {"not": defense("none")}]},
                              {"allOf": [defense("dodge_and_drop"), situation("attacks", "sacrificial")]}]}
        flying = when(cls, "dodger.flying", True)
        items = lambda schema: {"properties": {"attacks": {"items": schema}}}  # noqa: E731
        turn = situation("attacks", "sacrificial")
        small = {"properties": {"damage": {"pattern": SMALL_DICE_PATTERN}}}
        return [
            {"not": {"allOf": [when(cls, "dodger.acrobatic", True), defense("none")]}},
            {"not": {"allOf": [dropping, when(cls, "dodger.posture", list(DOWN_POSTURES)),
                               {"not": flying}]}},
            {"not": {"allOf": [dropping, {"not": {"allOf": [situation("dive"), when(cls, "cover.kind", "none")]}},
                               flying, when(cls, "dodger.below_terrain", False)]}},
            {"if": situation("sacrificial"), "then": {"properties": {"attacks": {"maxItems": 1}}}},
            {"not": {"allOf": [situation("sacrificial"), defense("retreat")]}},
            {"if": {"allOf": [turn, defense("dodge_and_drop")]},
             "then": items({"properties": {"kind": {"const": "ranged"}}})},
            {"if": {"allOf": [turn, when(cls, "target.location", "vitals")]},
             "then": {"required": ["attacks"], **items({"required": ["damage_type"],
                                                        "properties": {"damage_type": {"enum": sorted(IMPALING_OR_PIERCING)}}})}},
            {"if": turn, "then": {"anyOf": [
                items({"required": ["damage_type"], "properties": {"damage_type": {"const": "fat"}}}),
                items({"properties": {"damage_type": {"not": {"const": "fat"}}}})]}},
            {"if": situation("smother"), "then": {"properties": {"blast": {"properties": {
                "spread": {"const": "explosion"}, "distance": {"maximum": 1}}}}}},
            {"if": turn, "then": {"anyOf": [  # three shapes of turn, each within SIZE_LIMIT
                {"properties": {"attacks": {"maxItems": 1, "items": small}}},
                items({"properties": {"rof": {"maximum": 10}, "hits": {"maximum": 10}, **small["properties"]}}),
                items({"properties": {"rof": {"maximum": 3}, "hits": {"maximum": 3},
                                      "damage": {"pattern": MEDIUM_DICE_PATTERN}}})]}},
        ]

    @model_validator(mode="after")
    def _situation_fits(self) -> "GurpsScenario":
        defense, dodger, situation = self.dodger.defense, self.dodger, self.situation
        if dodger.acrobatic and defense == "none":
            raise FieldConflict.combination(
                {"dodger.defense": "none", "dodger.acrobatic": True},
                rule="an acrobatic dodge is a way of making a Dodge roll", citation="B375",
                found="the defense is 'No defense', so there is no Dodge to make acrobatic",
                fix="choose a defense, or turn off the acrobatic dodge")
        dropping = ((situation in ("smother", "dive") and defense != "none")
                    or (defense == "dodge_and_drop" and situation in ("attacks", "sacrificial")))
        # which fields make the dodge and drop: the situation (diving, smothering) or the defense
        drop_made = ({"situation": situation} if situation in ("smother", "dive")
                     else {"dodger.defense": defense})
        drop_words = {"smother": "throwing yourself on an explosive is a dodge and drop",
                      "dive": "diving for cover is a dodge and drop"}.get(situation, "a dodge and drop")
        other = ("or choose No defense" if situation in ("smother", "dive") else "or choose another defense")
        if dropping and dodger.posture in DOWN_POSTURES and not dodger.flying:
            raise FieldConflict.combination(
                {**drop_made, "dodger.posture": dodger.posture},
                rule=f"{drop_words}: it throws you to the ground, so you cannot be down already",
                citation="B377",
                found=f"the dodger is {dodger.posture}" + (" down" if dodger.posture == "lying" else ""),
                fix=f"choose standing, crouching, kneeling or sitting, {other}")
        needs_terrain = dropping and not (situation == "dive" and self.cover.kind == "none")
        if needs_terrain and dodger.flying and not dodger.below_terrain:
            raise FieldConflict.combination(
                {**drop_made, "dodger.flying": True, "dodger.below_terrain": False},
                rule="flying or swimming, you may dodge and drop only where a step takes you below "
                     "concealing terrain (diving for distance alone is always allowed)", citation="B377",
                found="the dodger flies or swims with no concealing terrain a step below",
                fix=f"turn on 'A step takes me below concealing terrain', {other}")
        if situation in ("attacks", "sacrificial"):
            self._check_attacks()
            self._check_size()
        if situation == "smother":
            if self.blast.spread != "explosion":
                raise FieldConflict.combination(
                    {"situation": situation, "blast.spread": self.blast.spread},
                    rule="you can throw yourself only on an explosive", citation="B377",
                    found="the effect is an area or cone effect",
                    fix="choose the effect Explosion, or the situation Dive for cover")
            if self.blast.distance > 1:
                raise FieldConflict.combination(
                    {"situation": situation, "blast.distance": self.blast.distance},
                    rule="you can throw yourself only on an explosive no more than a step away",
                    citation="B377", found=f"it is {self.blast.distance} yards away",
                    fix="set 0 or 1 yard, or choose the situation Dive for cover")
        return self

    def _check_attacks(self) -> None:
        defense = self.dodger.defense
        attacks = self.attacks if self.situation == "attacks" else self.attacks[:1]
        if self.situation == "sacrificial":
            if len(self.attacks) != 1:
                raise FieldConflict.combination(
                    {"situation": "sacrificial", "attacks": len(self.attacks)},
                    rule="a sacrificial dodge is against the one attack aimed at the friend", citation="B375",
                    found=f"this turn has {len(self.attacks)} attacks",
                    fix="keep one attack, or choose the situation Attacks on the dodger")
            if defense == "retreat":
                raise FieldConflict.combination(
                    {"situation": "sacrificial", "dodger.defense": defense},
                    rule="a sacrificial dodge is made without a retreat", citation="B375",
                    found="the defense is a retreat",
                    fix="choose Dodge (sacrificial dodge), Dodge and drop (sacrificial dodge and drop), or No "
                        "defense (the friend defends alone)")
        for i, attack in enumerate(attacks):
            # a retreat against a ranged attack is made, and gives no bonus (B377): see play.dodge_score
            if defense == "dodge_and_drop" and attack.kind != "ranged":
                raise FieldConflict.combination(
                    {"dodger.defense": defense, f"attacks.{i}.kind": attack.kind},
                    rule="a dodge and drop works only against ranged attacks", citation="B377",
                    found=f"attack {i + 1} is melee" if len(attacks) > 1 else "the attack is melee",
                    fix="choose Dodge or Dodge with a retreat, or make the attack ranged")
            if self.target.location == "vitals" and attack.damage_type not in IMPALING_OR_PIERCING:
                raise FieldConflict.combination(
                    {"target.location": "vitals", f"attacks.{i}.damage_type": attack.damage_type},
                    rule="only impaling and piercing attacks can target the vitals", citation="B398-399",
                    found=(f"attack {i + 1}" if len(attacks) > 1 else "the attack") + f" does {attack.damage_type}",
                    fix="choose imp, pi-, pi, pi+ or pi++, or another hit location")
        fatigue = {a.damage_type == "fat" for a in attacks}
        if len(fatigue) > 1:
            i = next(i for i, a in enumerate(attacks) if a.damage_type == "fat")
            j = next(j for j, a in enumerate(attacks) if a.damage_type != "fat")
            raise FieldConflict.combination(
                {f"attacks.{j}.damage_type": attacks[j].damage_type, f"attacks.{i}.damage_type": "fat"},
                rule="fatigue damage comes off FP and other damage off HP, and a turn is counted in one of them",
                citation="B426", found=f"attack {i + 1} is fat and attack {j + 1} is not",
                fix="make every attack this turn fat, or none")

    def _check_size(self) -> None:
        size = turn_size(self)
        if size > SIZE_LIMIT:
            attacks = self.attacks if self.situation == "attacks" else self.attacks[:1]
            hits = sum(a.rof if a.hits_by == "roll" else a.hits for a in attacks)
            raise FieldConflict("attacks", f"{len(attacks)} attack(s), up to {hits} hits in all",
                                f"a turn small enough to compute exactly (this one is {size / SIZE_LIMIT:.1f} "
                                "times the limit): fewer attacks, a lower RoF or fewer hits, or smaller damage")

    # -- readings of the fields the rule and the fast path share -----------------------------------

    @property
    def fatigue(self) -> bool:
        """Whether the damage in this situation is fatigue (it comes off FP, not HP)."""
        if self.situation in ("smother", "dive"):
            return self.blast.damage_type == "fat"
        return self.attacks[0].damage_type == "fat"

    def pool(self) -> "Pool":
        """The points the damage comes off: HP left, or FP left against fatigue damage."""
        return Pool("FP", self.target.fp_left) if self.fatigue else Pool("HP", self.target.hp_left)

    def hit(self, index: int, cover_dr: int = 0) -> Hit:
        """A hit of the ``index``-th attack on the dodger, through cover of ``cover_dr``."""
        attack, target = self.attacks[index], self.target
        return Hit(parse_damage(attack.damage), attack.damage_type, attack.divisor, target.dr, target.flexible,
                   target.location, target.hp, cover_dr)

    def friend_hit(self) -> Hit:
        """A hit of the first attack on the friend (torso)."""
        attack, friend = self.attacks[0], self.friend
        return Hit(parse_damage(attack.damage), attack.damage_type, attack.divisor, friend.dr, friend.flexible,
                   "torso", friend.hp)


class Pool(NamedTuple):
    """What damage comes off: ``name`` "HP" or "FP", and how many are ``left`` before the turn."""

    name: str
    left: int


def turn_size(scenario: GurpsScenario) -> int:
    """How big the exact computation of a turn of attacks is: bits per weight (enough for every
    way the turn's dice can fall) × injury values the total can take. Work grows a little faster
    than this; blasts are always small (0)."""
    if scenario.situation in ("smother", "dive"):
        return 0
    sacrificial = scenario.situation == "sacrificial"
    bits = slots = 0
    for i, attack in enumerate(scenario.attacks[:1] if sacrificial else scenario.attacks):
        hits = attack.rof if attack.hits_by == "roll" else attack.hits
        bits += 32 + ceil(hits * parse_damage(attack.damage).dice * log2(6))
        targets = (scenario.hit(i), scenario.friend_hit()) if sacrificial else (scenario.hit(i),)
        slots += hits * max(max(hit_injury(hit).outcomes()) for hit in targets)
    return bits * (slots + 1)
