"""The hits chart in three modes, as AnyDice offers them: the distribution (exactly k hits),
at least k, at most k — every bar exact on hover.

:class:`ModePanel` (``.widget``, ``.update(result)``) puts a mode switch above the chart.
CSS classes: ``wb-modes`` (``wb-modes-switch``, ``wb-modes-chart``).
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

import ipywidgets as widgets
import plotly.graph_objects as go

from rules_core import Result, System

from ..page.chart import chart
from ..page.layout import OKABE_ITO
from ..page.views import _figure, exact_bar

__all__ = ["MODES", "hits_rows", "hits_chart", "ModePanel"]

#: Each mode: its key and the English title of its chart.
MODES = {"distribution": "P(exactly k hits land)", "at_least": "P(at least k hits land)",
         "at_most": "P(at most k hits land)"}


def hits_rows(result: Result, mode: str) -> list[tuple[int, Fraction]]:
    """``(k, probability)`` for k = 0 .. the most hits possible, in ``mode`` (one of
    :data:`MODES`).

    >>> from rules_core import evaluate, find_preset
    >>> r = evaluate(find_preset("d100-homebrew/burst-3-vs-dodge-45").scenario)
    >>> [str(p) for _, p in hits_rows(r, "at_most")]
    ['1/4', '7/20', '9/20', '1']
    """
    if mode not in MODES:
        raise ValueError(f"mode {mode!r} is not one of {', '.join(MODES)}")
    most = max(result.hits.outcomes())
    pick = {"distribution": result.hits.__getitem__, "at_least": result.hits.at_least,
            "at_most": result.hits.at_most}[mode]
    return [(k, pick(k)) for k in range(0, most + 1)]


def hits_chart(result: Result, mode: str = "distribution", lang: str = "en", *,
               text: Callable[[str], str] = str) -> go.Figure:
    """Bars of the hits landing in ``mode``, the exact ``n/d`` on hover."""
    rows = hits_rows(result, mode)
    ks, probs = zip(*rows)
    return _figure([exact_bar(ks, probs, text("Probability"), OKABE_ITO["blue"], lang=lang)], text(MODES[mode]),
                   text("Hits landing (k)"), text("Probability"), xaxis=dict(dtick=1),
                   yaxis=dict(tickformat=".0%", rangemode="tozero"), showlegend=False, lang=lang)


class ModePanel:
    """The hits chart with a switch: distribution, at least, at most."""

    #: Present mode (a projector): larger chart type; set by the page.
    present = False

    def __init__(self, system: System | None = None, text: Callable[[str], str] = str, lang: str = "en",
                 mode: str = "distribution"):
        self.text, self.lang = text, lang
        self.result: Result | None = None
        self.figure: go.Figure | None = None
        self.switch = widgets.ToggleButtons(options=[(text("Distribution"), "distribution"),
                                                     (text("At least"), "at_least"),
                                                     (text("At most"), "at_most")], value=mode)
        self.switch.add_class("wb-modes-switch")
        self.switch.observe(lambda _ch: self._draw(), names="value")
        self.chart = chart("wb-modes-chart")
        self.widget = widgets.VBox([self.switch, self.chart])
        self.widget.add_class("wb-modes")

    @property
    def mode(self) -> str:
        """The mode shown."""
        return self.switch.value

    def update(self, result: Result) -> None:
        """Draw ``result`` in the current mode."""
        self.result = result
        self._draw()

    def _draw(self, *_: Any) -> None:
        if self.result is None:
            return
        self.figure = hits_chart(self.result, self.mode, self.lang, text=self.text)
        self.chart.show(self.figure, self.present)
