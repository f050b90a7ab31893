"""My 2d10 dodge: a rule of your own, as one Python file (the README's example).

Edit it in the lab (or any editor), check it with the notebook *Design your own rule* (its
section 7 loads this file), then publish it as a page anyone opens with no server:

    make site RULES=my_rule.py

and copy ``site/`` to any static host (docs/deploy.md, "The lab"). The same file runs with the
command line: ``python -m rules_core evaluate --system-module my_rule.py``.
"""

from fractions import Fraction
from typing import Literal

from rules_core import Dice, Evasion, Play, Scenario, flag, number, rule


class Mine(Scenario):                    # every field declared once, each with a default
    system: Literal["my-2d10"] = "my-2d10"
    skill: int = number(11, ge=2, le=20, label="Dodge skill", help="2d10 at or under it.")
    hits: int = number(3, ge=1, le=6, label="Hits", help="Hits coming in.")
    dodges: bool = flag(True, label="Dodges", help="Whether the defender dodges.")


def play(s, roller):                     # the rule on ONE roll: every die from the roller
    if not s.dodges:
        return Play("all hit", s.hits)
    a, b = roller.roll(Dice("Dodge", sides=10, count=2))
    margin = s.skill - (a + b)
    cancelled = 0 if margin < 0 else s.hits if a == b else min(s.hits, margin + 1)
    return Play("dodged" if cancelled == s.hits else "some hit" if cancelled else "all hit",
                s.hits - cancelled, evasions=(margin >= 0,))


def one_roll(s):                         # one dodge roll with nothing against it
    return Fraction(sum(a + b <= s.skill for a in range(1, 11) for b in range(1, 11)), 100)


SYSTEM = rule("my-2d10", "My 2d10 dodge", Mine, play,
              outcomes=("dodged", "some hit", "all hit"), sources=["My rules, p.1"],
              evasion=Evasion("skill", {"dodges": False}, one_roll, "2d10 at or under skill"))
