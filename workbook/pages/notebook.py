"""The dashboard as an object to work with in a notebook: :func:`dashboard` and what it returns,
:class:`NotebookDashboard`::

    from workbook import dashboard
    d = dashboard("infinity-n4")          # the page, as a cell's last expression
    d.scenario = d.scenario.set("dodger.ph", 13)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rules_core import Result, System, all_systems, register
from rules_core.scenario import Scenario, parse

from .dashboard import Dashboard

__all__ = ["NotebookDashboard", "dashboard"]


class NotebookDashboard(Dashboard):
    """The dashboard as an object to work with in a notebook (what :func:`dashboard` returns).

    It displays as the page (as the last expression of a cell, or with ``display``), and code
    and sliders share one state:

    - ``scenario``: the scenario shown; assign a scenario built in code to show it
      (``d.scenario = d.scenario.set("dodger.ph", 13)``);
    - ``result``: its exact :class:`rules_core.Result`;
    - ``on_change(callback)``: ``callback(result)`` after every new evaluated scenario, from the
      controls or from code (``result.scenario`` is the scenario); ``remove=True`` unregisters.

    Everything else is as for :class:`Dashboard` (``figures``, ``tables``, ``form``, ...).
    """

    def __init__(self, system: System | str, **kw: Any):
        self._observers: list[Callable[[Result], None]] = []
        super().__init__(system, **kw)

    @property
    def scenario(self) -> Scenario:
        """The scenario shown; assigning one shows it (validated: a bad one is refused with a
        :class:`rules_core.ScenarioError` and nothing changes)."""
        return self.form.scenario

    @scenario.setter
    def scenario(self, scenario: Scenario | dict[str, Any]) -> None:
        self.form.set_scenario(parse(self.system.scenario_cls, scenario))

    def on_change(self, callback: Callable[[Result], None], remove: bool = False) -> None:
        """Call ``callback(result)`` after each new scenario is evaluated and shown."""
        if remove:
            self._observers.remove(callback)
        else:
            self._observers.append(callback)

    def _show(self, scenario: Scenario) -> None:
        super()._show(scenario)
        if self.result is not None and self.result.scenario == scenario:  # evaluated, not refused
            for callback in list(self._observers):
                callback(self.result)

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        return {**self.widget._repr_mimebundle_(**kwargs), "text/plain": repr(self)}

    def __repr__(self) -> str:
        return f"<dashboard of {self.system.id}: {self.result!r}>"


def dashboard(system: str | System | Scenario, *, scenario: Scenario | dict[str, Any] | None = None,
              **kw: Any) -> NotebookDashboard:
    """The dashboard of a system (an id, a :class:`rules_core.System`, or a scenario built in
    code, whose system it is and which it then shows), ready to be a notebook's last
    expression; ``scenario`` and the other keywords as for :class:`Dashboard`. Returns a
    :class:`NotebookDashboard`: ``d.scenario``, ``d.result``, ``d.on_change(callback)``.

    A designer's rule (``rules_core.rule(...)``) not registered yet is registered here: every
    panel looks systems up by id (a sweep, the page of games), as the rest of the workbook does."""
    if isinstance(system, Scenario):
        if scenario is not None:
            raise TypeError("give the scenario once: dashboard(scenario) or dashboard(id, scenario=...)")
        system, scenario = system.system, system
    if isinstance(system, System) and all_systems().get(system.id) is not system:
        register(system)  # a built-in game's id is refused with the designer's RuleError
    return NotebookDashboard(system, scenario=scenario, **kw)
