"""Infinity N4: the scenario — the dodger, the attackers, a template, the Guts Roll, the
minus-three ruling and the rule's own constants (house rules) — as declared fields (range, label,
help, citation), and the sources' citations.

Nothing here depends on how the Order is played or computed.
"""

from __future__ import annotations

from typing import Literal

from pydantic import model_validator

from ...scenario import FieldConflict, Part, Scenario, choice, flag, number, part, parts, ruling, when
from ...variants import VARIANT_FIELD, Variant

SYSTEM_ID = "infinity-n4"

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

    @classmethod
    def schema_rules(cls) -> list[dict]:
        """IMM-B and Dodge, refused together (:meth:`_imm_b_cannot_dodge`)."""
        return [{"not": {"allOf": [when(cls, "immobilized", "IMM-B"), when(cls, "dodges", True)]}}]

    @model_validator(mode="after")
    def _imm_b_cannot_dodge(self) -> "Dodger":
        if self.immobilized == "IMM-B" and self.dodges:
            raise FieldConflict.combination(
                {"immobilized": "IMM-B", "dodges": True}, rule="a trooper in IMM-B cannot Dodge: only Reset may "
                "be declared", citation="N4 Core Rules, Immobilized-B State", found="the dodger is in IMM-B",
                fix="turn off Declares Dodge, or choose IMM-A or No")
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


class InfinityVariant(Variant):
    """Infinity N4's rule constants, each at its official value unless a house rule changes it."""

    mod_cap: int = number(
        12, ge=0, le=24, label="MOD cap (±)", citation=CITE_MODS,
        help="The sum of the MODs on one roll is held within ± this before it is added to the "
             "attribute (official ±12). It applies to every roll: the dodger's and each attacker's.")
    circumstance_mod: int = number(
        -3, ge=-12, le=0, label="PH MOD of a −3 circumstance", citation=CITE_DODGE_MODS,
        help="The PH MOD each −3 circumstance gives the dodge roll (official −3: ZoC outside LoF, "
             "Template without LoF, Deployable's template). The minus-three ruling still decides "
             "whether several circumstances give it once or each; the sum is then capped.")
    dodge_move: int = number(
        2, ge=0, le=8, label="Dodge move (inches)", citation=CITE_DODGE_MOVE,
        help="How far a dodger that succeeded against every attack may move (official 2\"). "
             "At 0 it cannot move: it stays, whatever is chosen after a successful dodge.")


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
        labels={"move": "Move up to the dodge move (officially 2\"; leaves Engaged)",
                "engage": "Move into contact: Engaged",
                "stay": "Stay"})
    guts: Guts = part(Guts, label="Guts Roll", help="What happens after a successful Attack.",
                      citation=CITE_GUTS)
    minus_three: Literal["single", "stacking"] = ruling(
        "single", label="Several −3 PH circumstances", citation=CITE_DODGE_MODS,
        help="When several −3 PH circumstances apply to one roll (ZoC outside LoF, Template without "
             "LoF, Deployable's template): one −3 or one per circumstance.",
        options=RULING_MINUS_THREE)
    variant: InfinityVariant = part(InfinityVariant, **VARIANT_FIELD)
