"""Exploring in code: sweeps as tidy pandas DataFrames, ready for plotly express.

>>> from rules_core import find_preset
>>> seed = find_preset("infinity-n4/zhanshi-vs-fusilier").scenario
>>> frame = sweep(seed, "dodger.ph", [10, 11])
>>> dodge = frame[frame.headline == "p_dodge_succeeds"]
>>> dodge["dodger.ph"].tolist(), dodge["exact_text"].tolist(), dodge["value"].tolist()
([10, 11], ['47/500', '2223/20000'], [0.094, 0.11115])

The core computes the sweep exactly (:func:`rules_core.sweep`, plain records); this module
only lays it out: one row per point and headline quantity, the swept fields as columns named by
their dotted paths, the exact ``Fraction`` beside its float. ``px.line(frame, x="dodger.ph",
y="value", color="name")`` plots it (one ``kind`` at a time: ``frame[frame.kind ==
"probability"]``); :func:`sweep_chart` does the same with exact hovers and a separate axis for
expectations. :func:`to_frame` lays out a result's outcomes or any named distribution.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from decimal import Decimal
from typing import Any

import pandas as pd
import plotly.graph_objects as go

import rules_core
from rules_core import Result, Sweep
from rules_core.scenario import Scenario
from rules_core.result import decimal, fraction_text, one_in

from .page.text import headline_label
from .page.views import percent_text

__all__ = ["sweep", "sweep_grid", "sweep_frame", "sweep_chart", "to_frame", "distribution_frames",
           "headline_frame"]

_COLUMNS = ("headline", "name", "exact", "exact_text", "value", "refused", "kind")


def sweep_frame(swept: Sweep) -> pd.DataFrame:
    """The tidy frame of a core :class:`rules_core.Sweep`: one row per point and headline
    quantity. Columns: each swept field (by dotted path), ``headline`` (the key), ``name``
    (readable), ``exact`` (``Fraction`` or None), ``exact_text`` (``"n/d"`` or None), ``value``
    (float, NaN for None), ``refused`` (why the rules refused that point, else ""; such a
    point has one row with no headline) and ``kind`` (``"probability"`` for the ``p_*`` keys,
    ``"expectation"`` for the rest: plot one kind on one axis)."""
    rows: list[dict[str, Any]] = []
    keys = swept.headline_keys()
    for point in swept:
        where = dict(zip(swept.fields, point.values))
        if point.refused:
            rows.append({**where, "headline": None, "name": None, "exact": None, "exact_text": None,
                         "value": float("nan"), "refused": point.refused, "kind": None})
            continue
        for key in keys:
            exact = point.headline.get(key)
            rows.append({**where, "headline": key, "name": headline_label(key), "exact": exact,
                         "exact_text": None if exact is None else fraction_text(exact),
                         "value": float("nan") if exact is None else float(exact), "refused": "",
                         "kind": "probability" if key.startswith("p_") else "expectation"})
    frame = pd.DataFrame(rows, columns=[*swept.fields, *_COLUMNS], dtype=object)
    numeric = {path: _dtype(frame[path]) for path in swept.fields}
    return frame.astype({"value": "float64", **{k: v for k, v in numeric.items() if v}})


def _dtype(values: Iterable[Any]) -> str | None:
    """``int64`` for whole numbers, ``float64`` for numbers (exact Decimals become floats, for
    plotting), None for choices and flags (they stay as they are)."""
    values = list(values)
    if not values or any(isinstance(v, bool) or not isinstance(v, (int, float, Decimal)) for v in values):
        return None
    return "int64" if all(isinstance(v, int) for v in values) else "float64"


def sweep(scenario: Scenario, path: str, values: Iterable[Any] | None = None) -> pd.DataFrame:
    """:func:`rules_core.sweep` as a tidy frame (see :func:`sweep_frame`)."""
    return sweep_frame(rules_core.sweep(scenario, path, values))


def sweep_grid(scenario: Scenario, path: str, values: Iterable[Any] | None, other: str,
               other_values: Iterable[Any] | None = None) -> pd.DataFrame:
    """:func:`rules_core.sweep_grid` as a tidy frame (see :func:`sweep_frame`)."""
    return sweep_frame(rules_core.sweep_grid(scenario, path, values, other, other_values))


def sweep_chart(frame: pd.DataFrame, headlines: Sequence[str] | None = None,
                mark: Any = None) -> go.Figure:
    """Lines of the ``headlines`` (default: every probability, the ``p_*`` keys) of a
    one-field sweep frame against the swept field, the exact value on hover; ``mark`` draws a
    vertical line at a value of the field (e.g. the scenario's own). Probabilities go on a
    percent axis; expectations (``expected_hits``, ...) on an axis of their own, on the right
    when both are drawn, so an expectation is never read as a probability."""
    path = frame.columns[0]
    shown = frame[frame["refused"] == ""]
    keys = list(headlines) if headlines is not None else \
        [k for k in dict.fromkeys(shown["headline"]) if k.startswith("p_")]
    probabilities = [k for k in keys if k.startswith("p_")]
    expectations = [k for k in keys if not k.startswith("p_")]
    both = bool(probabilities and expectations)
    traces = []
    for key in keys:
        rows = shown[shown["headline"] == key]
        probability = key.startswith("p_")
        traces.append(go.Scatter(
            x=list(rows[path]), y=list(rows["value"]), mode="lines+markers", name=headline_label(key),
            yaxis="y2" if both and not probability else "y",
            line=dict(dash="dash") if both and not probability else None,
            customdata=[[t or "—", "—" if e is None else (percent_text(e) if probability else decimal(e))]
                        for t, e in zip(rows["exact_text"], rows["exact"])],
            hovertemplate=f"{path} = %{{x}}<br>%{{customdata[0]}} = %{{customdata[1]}}<extra>"
                          f"{headline_label(key)}</extra>"))
    if probabilities:
        yaxis = dict(title=dict(text="Probability"), tickformat=".0%")
    else:
        yaxis = dict(title=dict(text=_expectation_title(expectations)))
    layout: dict[str, Any] = dict(title=dict(text=f"Headline along {path}"), height=360,
                                  xaxis=dict(title=dict(text=path)), yaxis=yaxis, template="plotly_white")
    if both:
        layout["yaxis2"] = dict(title=dict(text=_expectation_title(expectations)), overlaying="y",
                                side="right", rangemode="tozero", showgrid=False)
        layout["legend"] = dict(x=1.08)
    fig = go.Figure(traces, layout=layout)
    if mark is not None:
        fig.add_vline(x=float(mark), line_dash="dot", line_color="#888")
    return fig


def _expectation_title(keys: Sequence[str]) -> str:
    """The axis title of expectations: the one label, or "Expected value" for several."""
    return headline_label(keys[0]) if len(keys) == 1 else "Expected value"


def to_frame(result: Result, distribution: str | None = None) -> pd.DataFrame:
    """A distribution of ``result`` as a pandas DataFrame, one row per value: the value, then
    ``exact`` (the ``Fraction``), ``exact_text`` (``"n/d"``), ``probability`` and ``percent``
    (floats, ready for plotly) and ``one_in`` ("1 in 10.6").

    - ``to_frame(result)``: the outcomes in display order (impossible ones included), the value
      column named ``outcome``;
    - ``to_frame(result, "injury")``: a named distribution of ``result.distributions`` (GURPS
      ``injury``, Infinity and Eldfall ``wounds``, ...) or ``"hits"`` (the hits landing), in the
      order of its values, the value column named after the distribution. A name the result
      does not have is refused naming the near names and every one there is
      (:class:`rules_core.result.UnknownDistribution`, a ``KeyError``).

    ``frame.attrs["distribution"]`` names what the frame holds.

    >>> from rules_core import evaluate, find_preset
    >>> injury = to_frame(evaluate(find_preset("gurps-4e/sword-2d1-cut-vs-dr3").scenario), "injury")
    >>> injury[["injury", "exact_text"]].head(3).values.tolist()
    [[0, '1/36'], [1, '1/18'], [3, '1/12']]
    """
    if distribution is None or distribution == "outcomes":
        rows, column = result.outcome_rows(), "outcome"
    else:
        rows, column = list(result.distribution(distribution).items()), distribution
    frame = pd.DataFrame({
        column: pd.Series([value for value, _ in rows], dtype=_value_dtype([v for v, _ in rows])),
        "exact": pd.Series([p for _, p in rows], dtype=object),
        "exact_text": pd.Series([fraction_text(p) for _, p in rows], dtype=object),
        "probability": pd.Series([float(p) for _, p in rows], dtype="float64"),
        "percent": pd.Series([float(p) * 100 for _, p in rows], dtype="float64"),
        "one_in": pd.Series([one_in(p) for _, p in rows], dtype=object)})
    frame.attrs["distribution"] = column if column == "outcome" else distribution
    return frame


def _value_dtype(values: Sequence[Any]) -> str | type:
    """``int64`` for whole numbers (not flags), else ``object`` (labels, flags stay as they are)."""
    whole = values and all(isinstance(v, int) and not isinstance(v, bool) for v in values)
    return "int64" if whole else object


def distribution_frames(result: Result) -> dict[str, pd.DataFrame]:
    """Every distribution of ``result`` as a frame (:func:`to_frame`), by name: ``"outcomes"``,
    ``"hits"``, then each of ``result.distributions``."""
    names = ["outcomes", "hits", *(n for n in result.distributions if n not in ("outcomes", "hits"))]
    return {name: to_frame(result, name) for name in names}


def headline_frame(result: Result) -> pd.DataFrame:
    """The headline as a pandas DataFrame, one row per quantity: ``key``, ``name`` (its label,
    as every card and table shows it), ``exact`` (the ``Fraction``, or None), ``value`` (float,
    NaN when None), ``percent`` and ``one_in`` (for probabilities, the ``p_*`` keys) and
    ``note`` (why a value is None)."""
    rows = list(result.headline.items())
    probability = [key.startswith("p_") and v is not None for key, v in rows]
    return pd.DataFrame({
        "key": pd.Series([key for key, _ in rows], dtype=object),
        "name": pd.Series([headline_label(key) for key, _ in rows], dtype=object),
        "exact": pd.Series([v for _, v in rows], dtype=object),
        "value": pd.Series([float("nan") if v is None else float(v) for _, v in rows],
                           dtype="float64"),
        "percent": pd.Series([float(v) * 100 if p else float("nan")
                              for (_, v), p in zip(rows, probability)], dtype="float64"),
        "one_in": pd.Series([one_in(v) if p else None for (_, v), p in zip(rows, probability)],
                            dtype=object),
        "note": pd.Series([result.notes.get(key) for key, _ in rows], dtype=object)})
