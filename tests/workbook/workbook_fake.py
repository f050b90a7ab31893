"""A small made-up game system for the workbook's generic parts (rulings, languages, lists,
floats, flags, cross-field refusals), which the Infinity dodge does not exercise.

The rule: each shooter rolls ``dice`` d6 and hits on a face <= ``skill``; the defender makes
one dodge roll (a d6, succeeds on a face <= ``agility``, +1 when ``aimed`` is off and the
ruling is ``lenient``); a successful dodge cancels every hit. Tiny enough to enumerate.
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from typing import Literal

import re

from pydantic import field_validator, model_validator

from rules_core import Dist, Result, System, TraceStep
from rules_core.registry import Preset, Source
from rules_core.scenario import Part, Scenario, choice, flag, number, part, parts, ruling, text

CITE = "Fake Rules p.1"


class Defender(Part):
    agility: int = number(3, ge=0, le=6, label="Agility", help="Dodge succeeds on a d6 at most this.",
                          citation=CITE)
    stance: Literal["standing", "prone"] = choice("standing", label="Stance", help="How the defender stands.",
                                                  labels={"standing": "Standing", "prone": "Prone"})
    luck: Decimal = number(Decimal("0.5"), ge=0, le=2, step=Decimal("0.25"), label="Luck",
                           help="Unused by the rule.", unit="points")


class Shooter(Part):
    skill: int = number(3, ge=1, le=6, label="Skill", help="Hits on a d6 at most this.", citation=CITE)
    dice: int = number(1, ge=1, le=3, label="Dice", help="Dice rolled.")
    aimed: bool = flag(False, label="Aimed", help="An aimed shot is harder to dodge.")
    weapon: str = text("1d6", max_length=8, allowed="dice such as 2d6", label="Weapon",
                       help="Damage dice (unused by the rule).")

    @field_validator("weapon")
    @classmethod
    def _dice(cls, value: str) -> str:
        if not re.fullmatch(r"[1-9]d[0-9]{1,2}", value):
            raise ValueError("dice such as 2d6")
        return value


class FakeScenario(Scenario):
    system: Literal["fake-dice"] = "fake-dice"
    defender: Defender = part(Defender, label="Defender", help="Who dodges.")
    shooters: tuple[Shooter, ...] = parts(lambda: (Shooter(),), min_items=1, max_items=3,
                                          label="Shooters", help="Who shoots.")
    reading: Literal["strict", "lenient"] = ruling(
        "strict", label="Dodge bonus", help="Whether unaimed shots give +1 to dodge.", citation=CITE,
        options={"strict": "No bonus (Fake Rules p.1)", "lenient": "+1 against unaimed shots (Fake FAQ)"})

    @model_validator(mode="after")
    def _few_dice(self):
        if sum(s.dice for s in self.shooters) > 5:
            raise ValueError("shooters: at most 5 dice in all")
        return self


def hits_label(k: int) -> str:
    return "No hit" if k == 0 else f"{k} hits"


def evaluate(s: FakeScenario) -> Result:
    hits = Dist.certain(0)
    for sh in s.shooters:
        one = Dist({1: sh.skill, 0: 6 - sh.skill})
        hits = hits + one.repeat_sum(sh.dice)
    bonus = 1 if s.reading == "lenient" and not any(sh.aimed for sh in s.shooters) else 0
    p_dodge = Fraction(min(6, s.defender.agility + bonus), 6)
    landed = hits.bind(lambda k: Dist.certain(0) if k == 0 else
                       Dist.from_fractions({0: p_dodge, k: 1 - p_dodge}) if p_dodge < 1 else Dist.certain(0))
    most = sum(sh.dice for sh in s.shooters)
    p_roll = 1 - hits[0]
    headline = {"p_dodge_succeeds": p_dodge, "p_no_hit": landed[0], "expected_hits": landed.mean(),
                "p_two_or_more": landed.at_least(2)}
    return Result(system="fake-dice", scenario=s, outcomes=landed.map(hits_label),
                  outcome_order=tuple(hits_label(k) for k in range(most + 1)), hits=landed,
                  headline=headline, notes={},
                  trace=(TraceStep("Shots", f"{most} dice, at least one hit: {p_roll}", CITE),
                         TraceStep("Dodge", f"succeeds with {p_dodge}", CITE)),
                  distributions={"hits rolled": hits})


def translate(text: str, lang: str) -> str:
    """Language "xx": every text wrapped in ‹›, so a test can see that it went through here."""
    return f"‹{text}›"


FAKE = System(
    id="fake-dice", name="Fake Dice", summary="A made-up dodge rule for tests.",
    scenario_cls=FakeScenario, evaluate=evaluate, sources=(Source("Fake Rules", "p.1"),),
    presets=(Preset("two-shooters", "Two shooters", "Two shooters, one aimed.",
                    FakeScenario(shooters=(Shooter(skill=4, dice=2), Shooter(aimed=True))), CITE),
             Preset("lenient", "Lenient", "One shooter, lenient ruling.",
                    FakeScenario(reading="lenient"))),
    headlines={"p_two_or_more": "P(two or more hits land)"},
    languages=("en", "xx"), translate=translate,
)
