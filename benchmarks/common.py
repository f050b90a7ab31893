"""What a benchmark module declares: ``CASES``, a list of :class:`Case`."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class Case:
    """One timed computation.

    ``run`` computes the exact numbers warm (caches may be filled by a first call);
    ``target_ms`` is the issue's target for one warm call; ``reference``, when given, computes
    the same numbers with an independent library (icepool) and is timed beside it;
    ``check`` (optional) asserts that ``run()`` and ``reference()`` agree; ``target_times``
    (optional) is a second target, relative: one warm call at most that many times the
    reference's.
    """

    system: str
    name: str
    run: Callable[[], object]
    target_ms: float
    reference: Callable[[], object] | None = None
    reference_name: str = "icepool"
    check: Callable[[object, object], bool] | None = None
    #: the reference computes 1/reference_scale of the work (a sample of a large grid); its
    #: time is multiplied back up and marked as an estimate.
    reference_scale: float = 1.0
    target_times: float | None = None
