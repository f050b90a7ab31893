"""Eldfall Chronicles: the scenario's declared fields (range, step, label, help, citation), the
rule's own constants (house rules) and the citations the rule quotes. Imports nothing below it."""

from __future__ import annotations

from typing import Literal

from ...scenario import Part, Scenario, choice, flag, number, part, parts, ruling
from ...variants import VARIANT_FIELD, Variant

__all__ = ["Attacker", "Defender", "SecondModel", "EldfallVariant", "EldfallScenario",
           "without_reaction"]

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
CITE_HALVING = "Eldfall Chronicles Rulebook v1.6, p.15 (halving and doubling: after other modifiers, rounding up)"


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


class EldfallVariant(Variant):
    """Eldfall's rule constants, each at its official value unless a house rule changes it."""

    critical_face: int = number(
        1, ge=1, le=5, label="Critical on faces up to", citation=CITE_ROLLS,
        help="An attribute roll on a face from 1 to this is a Critical, if it succeeds (official: "
             "a 1 only). It widens the Critical Hits a Dodge cannot ignore and the Critical AG "
             "rolls; above 20 a face of 20 stays a Critical too. Damage rolls have no Criticals.")
    halving: Literal["up", "down"] = choice(
        "up", label="Halving rounds", citation=CITE_HALVING,
        help="Which way a halved value rounds (official: up). It applies to every halving: AG "
             "without LoS and the rulebook's half-SPD move after a Dodge.",
        labels={"up": "Up (official)", "down": "Down"})


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
    variant: EldfallVariant = part(EldfallVariant, **VARIANT_FIELD)


def without_reaction(scenario: EldfallScenario) -> EldfallScenario:
    """The same scenario with the defender not reacting (no Dodge, no Ward; Barrier kept):
    what the reaction is worth is the difference between the two results."""
    return scenario.replace(defender=scenario.defender.replace(reaction="none"))
