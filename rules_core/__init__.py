"""rules_core: exact evasion rules for tabletop games, free of any UI library.

``compare``, ``worth`` and ``simulate`` here are the functions; their modules, of the same
names, are still imported by name (``from rules_core.compare import worth_curve``, or
``importlib.import_module("rules_core.simulate")``).

>>> from rules_core import evaluate, find_preset
>>> evaluate(find_preset("infinity-n4/zhanshi-vs-fusilier").scenario).headline["p_dodge_succeeds"]
Fraction(47, 500)
"""

from .compare import compare, worth
from .design import RuleError, rule
from .dist import Dist
from .play import Headline, Play, TooManyPlays, enumerate_play, expectation, play_once, probability, sample
from .registry import (Evasion, Preset, Source, System, all_systems, evaluate, find_preset, find_system,
                       get_system, load_scenario, register, unregister)
from .roller import Dice, DiceError, FacesRoller, RandomRoller, Roller
from .result import COMMON_HEADLINES, Result, TraceStep
from .scenario import Part, Scenario, ScenarioError, choice, flag, number, part, parts, ruling
from .simulate import simulate
from .sweeps import Sweep, SweepPoint, sweep, sweep_grid
from .variants import Variant

__all__ = ["Dist", "Preset", "Source", "System", "evaluate", "find_preset", "find_system", "get_system",
           "load_scenario", "all_systems", "Play", "Headline", "enumerate_play", "sample", "play_once",
           "Dice", "DiceError", "Roller", "RandomRoller", "FacesRoller", "COMMON_HEADLINES", "Result", "TraceStep", "ScenarioError",
           "sweep", "sweep_grid", "Sweep", "SweepPoint", "compare", "worth", "simulate",
           # designing a rule of your own (rules_core.design)
           "rule", "register", "unregister", "RuleError", "TooManyPlays", "Evasion", "Scenario", "Part",
           "Variant", "number", "flag", "choice", "ruling", "part", "parts", "probability", "expectation"]
