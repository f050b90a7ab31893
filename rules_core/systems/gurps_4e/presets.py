"""GURPS 4e's presets: the seed's worked example first (the sword of B378), then one per situation."""

from __future__ import annotations

from ...registry import Preset
from . import sources as cite
from .scenario import Attack, Blast, Cover, Dodger, Friend, GurpsScenario, Target

__all__ = ["PRESETS"]

_SPEED_6 = Dodger(basic_speed=6.0)

PRESETS = (
    Preset("sword-2d1-cut-vs-dr3", "Sword, 2d+1 cutting, against DR 3",
           "The seed's damage example: one cutting hit of 2d+1 that lands with no defense, against "
           "DR 3 (a roll of 8 gives 5 penetrating × 1.5 = 7 injury); the exact injury distribution "
           "against a 10 HP target.",
           GurpsScenario(dodger=Dodger(defense="none"), target=Target(dr=3),
                         attacks=(Attack(kind="melee", hits_by="fixed", hits=1, damage="2d+1",
                                         damage_type="cut"),)),
           citation=cite.DAMAGE + " (example)"),
    Preset("rapid-fire-dodge-and-drop", "Dodge and drop against a burst of 10",
           "A gunner at skill 12 fires RoF 10 (Recoil 2) at 3d+2 pi+ against DR 6; the dodger "
           "(Basic Speed 6, Dodge 9) dodges and drops for +3. Each point of Dodge margin avoids "
           "another hit.",
           GurpsScenario(dodger=Dodger(defense="dodge_and_drop"), target=Target(dr=6, hp=12, hp_left=12),
                         attacks=(Attack(skill=12, rof=10, recoil=2, damage="3d+2", damage_type="pi+"),)),
           citation=cite.DROP + "; " + cite.RAPID_DODGE),
    Preset("drop-behind-cover", "Three shots from one foe: drop behind a log",
           "A rifleman shoots three times this turn. The dodger dodges and drops behind a log (DR 8): "
           "the log does not count against the shot that prompted the drop, but does against the "
           "next two, which also face a prone target (−2 to hit) and, by the default ruling, the "
           "carried +3 and the −3 for lying down.",
           GurpsScenario(dodger=_SPEED_6.replace(defense="dodge_and_drop"), target=Target(dr=2),
                         attacks=tuple(Attack(skill=13, damage="5d", damage_type="pi") for _ in range(3)),
                         cover=Cover(kind="dr", dr=8)),
           citation=cite.COVER),
    Preset("acrobatic-retreat", "Acrobatic dodge with a retreat against a spear",
           "A spear thrust (skill 14, 1d+3 imp) in melee; the dodger retreats (+3) and rolls "
           "Acrobatics 13 first: +2 on a success, −2 on a failure.",
           GurpsScenario(dodger=Dodger(defense="retreat", acrobatic=True, acrobatics=13),
                         target=Target(dr=2, flexible=True),
                         attacks=(Attack(kind="melee", skill=14, damage="1d+3", damage_type="imp"),)),
           citation=cite.ACROBATIC + "; " + cite.RETREAT),
    Preset("sacrificial-dodge-and-drop", "Sacrificial dodge and drop for a friend",
           "A gunner fires a 3-round burst (skill 13, Recoil 2, 2d+2 pi) at the dodger's friend a "
           "step away. The dodger dodges and drops for him: on a success both fall prone and the "
           "dodger takes the hits; by 3 or more, neither is hit. If it fails, the friend dodges at 8.",
           GurpsScenario(situation="sacrificial", dodger=Dodger(defense="dodge_and_drop"),
                         target=Target(dr=4, flexible=True),
                         attacks=(Attack(skill=13, rof=3, recoil=2, damage="2d+2", damage_type="pi"),),
                         friend=Friend(defense=8)),
           citation=cite.SACRIFICIAL),
    Preset("throw-yourself-on-a-grenade", "Throw yourself on a grenade",
           "A 4d crushing grenade lands a step away, 2 yards from a friend. The dodger throws himself "
           "on it (a sacrificial dodge and drop): on a success he takes it as a contact explosion and "
           "the friend is spared.",
           GurpsScenario(situation="smother", target=Target(dr=4), blast=Blast(damage="4d", distance=1),
                         friend=Friend(distance=2)),
           citation=cite.SACRIFICIAL + "; " + cite.CONTACT),
    Preset("dive-into-a-trench", "Dive into a trench from a 6d blast",
           "An explosion of 6d crushing goes off 2 yards away; a trench is a step away. Success: the "
           "dodger is in it before the blast. Failure: caught at 2 yards (6d ÷ 6).",
           GurpsScenario(situation="dive", blast=Blast(damage="6d", distance=2), cover=Cover(kind="full")),
           citation=cite.DIVE),
    Preset("dive-without-cover", "Dive away from a 6d blast with no cover",
           "The same blast with no cover near: success puts the dodger a yard farther (6d ÷ 9 "
           "instead of ÷ 6).",
           GurpsScenario(situation="dive", blast=Blast(damage="6d", distance=2)),
           citation=cite.DIVE + "; " + cite.EXPLOSION),
)
