"""rules_core: exact evasion rules for tabletop games, free of any UI library.

>>> from rules_core import evaluate, find_preset
>>> evaluate(find_preset("infinity-n4/zhanshi-vs-fusilier").scenario).headline["p_dodge_succeeds"]
Fraction(47, 500)
"""

from .dist import Dist
from .play import Headline, Play, enumerate_play, play_once, sample
from .registry import Preset, Source, System, all_systems, evaluate, find_preset, get_system, load_scenario
from .roller import Dice, DiceError, FacesRoller, RandomRoller, Roller
from .result import COMMON_HEADLINES, Result, TraceStep
from .scenario import ScenarioError
from .sweeps import Sweep, SweepPoint, sweep, sweep_grid

__all__ = ["Dist", "Preset", "Source", "System", "evaluate", "find_preset", "get_system",
           "load_scenario", "all_systems", "Play", "Headline", "enumerate_play", "sample", "play_once",
           "Dice", "DiceError", "Roller", "RandomRoller", "FacesRoller", "COMMON_HEADLINES", "Result", "TraceStep", "ScenarioError",
           "sweep", "sweep_grid", "Sweep", "SweepPoint"]
