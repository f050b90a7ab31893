"""rules_core: exact evasion rules for tabletop games, free of any UI library.

>>> from rules_core import evaluate, find_preset
>>> evaluate(find_preset("infinity-n4/zhanshi-vs-fusilier").scenario).headline["p_dodge_succeeds"]
Fraction(47, 500)
"""

from .dist import Dist
# Load the package of system modules first, so that binding the name ``systems`` to the
# registry function below is final (a later first import of the package would rebind it).
from . import systems as _system_modules  # noqa: F401
from .registry import Preset, Source, System, evaluate, find_preset, get_system, load_scenario, systems
from .result import COMMON_HEADLINES, Result, TraceStep
from .scenario import ScenarioError

__all__ = ["Dist", "Preset", "Source", "System", "evaluate", "find_preset", "get_system",
           "load_scenario", "systems", "COMMON_HEADLINES", "Result", "TraceStep", "ScenarioError"]
