"""The d100 homebrew scenario: a defender, one opponent's attacks in a Turn, and the rulings.

Every field is declared once with its range, label, help text and citation; the Russian texts
of the same labels live in :mod:`rules_core.systems.d100_homebrew.text`.
"""

from __future__ import annotations

from typing import Literal

from pydantic import model_validator

from ...scenario import FieldConflict, Part, Scenario, choice, flag, number, part, parts, ruling, when
from ...variants import VARIANT_FIELD, Variant

SYSTEM_ID = "d100-homebrew"
MAX_ATTACKS = 6

# The rule's own constants, official values (a house rule changes them in the scenario's
# ``variant`` block): a further Success per full 10 points under the target; leftover Successes
# at 2 per hit of a later attack, +1 per full −10 by which its penalty exceeds the first one's.
POINTS_PER_SUCCESS = 10
LEFTOVER_COST = 2
PENALTY_STEP = 10

# Citations: the homebrew's Evasion text (the Russian original is the authority), section by
# section, and the public d100 rulebooks a ruling follows.
CITE_TESTS = "d100 homebrew, Evasion [Избегание]: Dodge(A)+0 and Parry(WS)+0 tests"
CITE_DODGE = "d100 homebrew, Evasion › Dodge [Уклонение], ¶1"
CITE_STRAY = "d100 homebrew, Evasion › Dodge [Уклонение], ¶2 (stray shot)"
CITE_PARRY = "d100 homebrew, Evasion › Parry [Парирование], ¶1–2"
CITE_SIZE = "d100 homebrew, Evasion › Parry [Парирование], ¶3 (Size)"
CITE_ONE_PER_ATTACK = "d100 homebrew, Evading multiple hits and attacks, ¶1"
CITE_LEFTOVERS = "d100 homebrew, Evading multiple hits and attacks, ¶2"
CITE_LEAP = "d100 homebrew, Evasion › Leap [Отскок], ¶1"
CITE_LEAP_BUDGET = "d100 homebrew, Evasion › Leap [Отскок], ¶2"
CITE_RULINGS = "Dodge Workbook rulings for the d100 homebrew (docs/rulings/d100-homebrew.md)"
CITE_DH2_TESTS = "Dark Heresy 2nd ed. Core Rulebook, ch. I Playing the Game: Tests, Degrees of Success"
CITE_OW_DOS = "Only War Core Rulebook, ch. I Playing the Game: Degrees of Success"


class D100Variant(Variant):
    """The homebrew's own constants a designer may change (house rules), each at its official
    value: how many points under the target buy a further Success, and what leftover Successes
    cost on a later attack's hits."""

    points_per_success: int = number(
        POINTS_PER_SUCCESS, ge=1, le=50, label="Points per further Success", citation=CITE_OW_DOS,
        help="A passed test scores 1 Success plus one per full this many points the roll is under the "
             "target (officially 10; under the ruling tens_digits, the width of a 'digit').")
    leftover_cost: int = number(
        LEFTOVER_COST, ge=1, le=10, label="Leftover Successes per hit", citation=CITE_LEFTOVERS,
        help="Successes left after evading every hit of one attack evade hits of the opponent's later "
             "attacks this Turn at this many per hit (officially 2).")
    penalty_step: int = number(
        PENALTY_STEP, ge=1, le=60, label="Extra penalty per +1 Success", citation=CITE_LEFTOVERS,
        help="A later attack's hit costs +1 leftover Success per full this many points by which its "
             "penalty to Evasion exceeds the first attack's (officially 10).")


class Defender(Part):
    """The character who evades."""

    agility: int = number(45, ge=0, le=100, label="Agility (A)",
                          help="The Agility characteristic on which Dodge is tested: Dodge(A).",
                          citation=CITE_TESTS, group="Dodge")
    dodge_advance: int = number(0, ge=0, le=30, step=10, label="Dodge advance",
                                help="How far the Dodge skill is advanced (+0 to +30); added to the target.",
                                citation=CITE_TESTS, group="Dodge")
    dodge_modifier: int = number(0, ge=-60, le=60, step=5, label="Dodge modifier",
                                 help="Any other modifier to every Dodge test (the +0 of Dodge(A)+0).",
                                 citation=CITE_TESTS, group="Dodge")
    weapon_skill: int = number(40, ge=0, le=100, label="Weapon Skill (WS)",
                               help="The Weapon Skill characteristic on which Parry is tested: Parry(WS).",
                               citation=CITE_TESTS, group="Parry")
    parry_advance: int = number(0, ge=0, le=30, step=10, label="Parry advance",
                                help="How far the Parry skill is advanced (+0 to +30); added to the target. "
                                     "A larger attacker needs +10 per Size of difference.",
                                citation=CITE_SIZE, group="Parry")
    parry_modifier: int = number(0, ge=-60, le=60, step=5, label="Parry modifier",
                                 help="Any other modifier to every Parry test (the +0 of Parry(WS)+0).",
                                 citation=CITE_TESTS, group="Parry")
    reactions: int = number(1, ge=0, le=6, label="Reactions",
                            help="Reactions left this Turn; each Evasion roll (Dodge or Parry) uses one.",
                            citation=CITE_ONE_PER_ATTACK, group="Reactions")
    spd: int = number(3, ge=0, le=20, label="SPD (m)",
                      help="Speed: the farthest Leap against one attack, in metres.",
                      citation=CITE_LEAP, group="Leap")
    unspent_ap: int = number(0, ge=0, le=6, label="Unspent AP",
                             help="Action points left unspent at the end of the defender's Turn; each adds "
                                  "SPD metres to the Round's total Leap distance.",
                             citation=CITE_LEAP_BUDGET, group="Leap")
    delayed_half_action: bool = flag(False, label="Delayed half-action",
                                     help="A Delayed half-action spent on Leaping adds SPD metres to the "
                                          "Round's total, as if it were unspent.",
                                     citation=CITE_LEAP_BUDGET, group="Leap")
    engaged_in_melee: bool = flag(False, label="Engaged in melee",
                                  help="The defender is in melee: a Leap takes him out of it and counts as a "
                                       "Disengage unless every enemy able to make Free Attacks also evades.",
                                  citation=CITE_LEAP, group="Leap")


class Attack(Part):
    """One attack of the opponent in this Turn, after it has hit."""

    kind: Literal["shooting", "melee", "shot_in_melee"] = choice(
        "shooting", label="Kind of attack", help="Shooting can be Dodged (and Leapt from); melee attacks and "
        "shots fired in melee can also be Parried.", citation=CITE_PARRY,
        labels={"shooting": "Shooting (ranged)", "melee": "Melee", "shot_in_melee": "Shot fired in melee"})
    hits: int = number(3, ge=1, le=10, label="Hits", help="Hits this attack has scored on the defender.",
                       citation=CITE_ONE_PER_ATTACK)
    evasion_modifier: int = number(0, ge=-60, le=30, step=5, label="Modifier to Evasion",
                                   help="This attack's modifier to Evasion tests against it, in steps of 5 (e.g. −20 "
                                        "or −25). Leftover Successes cost 1 more per hit for each full −10 by "
                                        "which it exceeds the first attack's penalty (−25 after +0: 4 per hit).",
                                   citation=CITE_LEFTOVERS)
    evasion: Literal["dodge", "parry", "none"] = choice(
        "dodge", label="Evasion", help="The Evasion roll made against this attack if hits remain and a Reaction "
        "is left (none: no roll; leftover Successes still count).", citation=CITE_ONE_PER_ATTACK,
        labels={"dodge": "Dodge", "parry": "Parry", "none": "No roll"})
    covers_whole_base: bool = flag(False, label="Covers the whole Base",
                                   help="An area attack (Blast or Spray template) covering the whole Base: "
                                        "only a Leap can dodge it.", citation=CITE_LEAP)
    leap: Literal["none", "cover", "out_of_reach"] = choice(
        "none", label="Leap plan", help="After a successful Dodge against a shooting attack, Leap instead of "
        "negating hits: into Cover (its hits land against the Cover's AP) or out of the attack's reach "
        "(all its hits negated).", citation=CITE_LEAP,
        labels={"none": "No Leap", "cover": "Leap into Cover", "out_of_reach": "Leap out of reach"})
    leap_distance: int = number(2, ge=1, le=30, label="Leap needed (m)",
                                help="Metres the Leap must cover to reach Cover or leave the attack's reach.",
                                citation=CITE_LEAP_BUDGET)
    free_attackers_evade: bool = flag(False, label="Free attackers evade too",
                                      help="Every enemy able to make Free Attacks also tries to Evade this "
                                           "attack, so a Leap out of melee is not a Disengage.",
                                      citation=CITE_LEAP)
    next_target: bool = flag(False, label="Next target on the line of fire",
                             help="Someone stands on the line of fire behind the defender: each dodged hit "
                                  "of a shot flies on and may hit him (GM's call) with 1 Success.",
                             citation=CITE_STRAY)

    @classmethod
    def schema_rules(cls) -> list[dict]:
        """A melee attack covering the whole Base, refused (:meth:`_area_is_a_shot`)."""
        return [{"not": {"allOf": [when(cls, "kind", "melee"), when(cls, "covers_whole_base", True)]}}]

    @model_validator(mode="after")
    def _area_is_a_shot(self) -> "Attack":
        if self.covers_whole_base and self.kind == "melee":
            raise FieldConflict.combination(
                {"kind": "melee", "covers_whole_base": True},
                rule="only a shooting attack (a Blast or Spray template) can cover the whole Base",
                citation=CITE_LEAP, found="the attack is melee",
                fix="choose Shooting (ranged) or Shot fired in melee, or turn off Covers the whole Base")
        return self


class D100Scenario(Scenario):
    """A defender evading one opponent's attacks in a Turn (d100 roll-under)."""

    system: Literal["d100-homebrew"] = SYSTEM_ID
    defender: Defender = part(Defender, label="Defender", help="The character who evades.",
                              citation=CITE_DODGE)
    sizes_larger: int = number(0, ge=0, le=6, label="Attacker Sizes larger",
                               help="How many Sizes the attacker is larger than the defender (0: same or "
                                    "smaller). Parry needs +10 advance per Size; 4 or more: no Parry.",
                               citation=CITE_SIZE, group="Opponent")
    attacks: tuple[Attack, ...] = parts(
        lambda: (Attack(),), min_items=1, max_items=MAX_ATTACKS, label="Attacks", item_label="Attack",
        help="The opponent's attacks this Turn that hit, in the order they are made.",
        citation=CITE_LEFTOVERS, group="Opponent")
    successes: Literal["margin", "tens_digits"] = ruling(
        "margin", label="Successes on a pass",
        help="How many Successes a passed test scores.", citation=CITE_OW_DOS,
        options={"margin": "1 + one per full 10 the roll is under the target: 1 + floor((target − roll)/10) "
                           "(Only War / Black Crusade degrees of success)",
                 "tens_digits": "1 + tens digit of the target − tens digit of the roll (Dark Heresy 2nd ed.)"})
    roll_01: Literal["passes", "as_rolled"] = ruling(
        "passes", label="A roll of 01", help="Whether 01 passes whatever the target.",
        citation=CITE_DH2_TESTS,
        options={"passes": "01 always passes, with at least 1 Success (Dark Heresy 2nd ed.)",
                 "as_rolled": "01 passes only if the target is 1 or more"})
    roll_100: Literal["fails", "as_rolled"] = ruling(
        "fails", label="A roll of 100", help="Whether 100 fails whatever the target.",
        citation=CITE_DH2_TESTS,
        options={"fails": "100 always fails (Dark Heresy 2nd ed.)",
                 "as_rolled": "100 passes when the target is 100 or more"})
    spending: Literal["cheapest_first", "in_order"] = ruling(
        "cheapest_first", label="Spending leftover Successes",
        help="Which later attacks' hits leftover Successes pay for.", citation=CITE_LEFTOVERS,
        options={"cheapest_first": "Spent at once on the later attacks' hits, cheapest hits first: the most "
                                   "hits evaded (workbook default)",
                 "in_order": "Spent on the later attacks as they come, in the order made, whatever they cost"})
    leap_policy: Literal["as_planned", "when_short"] = ruling(
        "as_planned", label="When to Leap",
        help="When a planned Leap is taken after a successful Dodge.", citation=CITE_LEAP,
        options={"as_planned": "Whenever the Dodge passes and the distance fits (workbook default)",
                 "when_short": "Only when the Successes cannot evade every remaining hit of that attack"})
    variant: D100Variant = part(D100Variant, **VARIANT_FIELD)
