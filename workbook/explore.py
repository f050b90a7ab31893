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
y="value", color="name")`` plots it; :func:`sweep_chart` does the same with exact hovers.
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
from rules_core.result import fraction_text, one_in

from .page.text import headline_label
from .page.views import percent_text

__all__ = ["sweep", "sweep_grid", "sweep_frame", "sweep_chart", "to_frame", "headline_frame"]

_COLUMNS = ("headline", "name", "exact", "exact_text", "value", "refused")


def sweep_frame(swept: Sweep) -> pd.DataFrame:
    """The tidy frame of a core :class:`rules_core.Sweep`: one row per point and headline
    quantity. Columns: each swept field (by dotted path), ``headline`` (the key), ``name``
    (readable), ``exact`` (``Fraction`` or None), ``exact_text`` (``"n/d"`` or None), ``value``
    (float, NaN for None) and ``refused`` (why the rules refused that point, else ""; such a
    point has one row with no headline)."""
    rows: list[dict[str, Any]] = []
    keys = swept.headline_keys()
    for point in swept:
        where = dict(zip(swept.fields, point.values))
        if point.refused:
            rows.append({**where, "headline": None, "name": None, "exact": None, "exact_text": None,
                         "value": float("nan"), "refused": point.refused})
            continue
        for key in keys:
            exact = point.headline.get(key)
            rows.append({**where, "headline": key, "name": headline_label(key), "exact": exact,
                         "exact_text": None if exact is None else fraction_text(exact),
                         "value": float("nan") if exact is None else float(exact), "refused": ""})
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
    vertical line at a value of the field (e.g. the scenario's own)."""
    path = frame.columns[0]
    shown = frame[frame["refused"] == ""]
    keys = list(headlines) if headlines is not None else \
        [k for k in dict.fromkeys(shown["headline"]) if k.startswith("p_")]
    traces = []
    for key in keys:
        rows = shown[shown["headline"] == key]
        traces.append(go.Scatter(
            x=list(rows[path]), y=list(rows["value"]), mode="lines+markers", name=headline_label(key),
            customdata=[[t or "—", "—" if e is None else percent_text(e)]
                        for t, e in zip(rows["exact_text"], rows["exact"])],
            hovertemplate=f"{path} = %{{x}}<br>%{{customdata[0]}} = %{{customdata[1]}}<extra>"
                          f"{headline_label(key)}</extra>"))
    fig = go.Figure(traces, layout=dict(title=dict(text=f"Headline along {path}"), height=360,
                                        xaxis=dict(title=dict(text=path)),
                                        yaxis=dict(title=dict(text="Probability"), tickformat=".0%"),
                                        template="plotly_white"))
    if mark is not None:
        fig.add_vline(x=float(mark), line_dash="dot", line_color="#888")
    return fig


def to_frame(result: Result) -> pd.DataFrame:
    """The outcomes as a pandas DataFrame, one row each in display order: ``outcome``,
    ``exact`` (the ``Fraction``), ``probability`` and ``percent`` (floats, ready for plotly)
    and ``one_in`` ("1 in 10.6")."""
    rows = result.outcome_rows()
    return pd.DataFrame({
        "outcome": pd.Series([label for label, _ in rows], dtype=object),
        "exact": pd.Series([p for _, p in rows], dtype=object),
        "probability": pd.Series([float(p) for _, p in rows], dtype="float64"),
        "percent": pd.Series([float(p) * 100 for _, p in rows], dtype="float64"),
        "one_in": pd.Series([one_in(p) for _, p in rows], dtype=object)})


def headline_frame(result: Result) -> pd.DataFrame:
    """The headline as a pandas DataFrame, one row per quantity: ``key``, ``exact`` (the
    ``Fraction``, or None), ``value`` (float, NaN when None), ``percent`` and ``one_in``
    (for probabilities, the ``p_*`` keys) and ``note`` (why a value is None)."""
    rows = list(result.headline.items())
    probability = [key.startswith("p_") and v is not None for key, v in rows]
    return pd.DataFrame({
        "key": pd.Series([key for key, _ in rows], dtype=object),
        "exact": pd.Series([v for _, v in rows], dtype=object),
        "value": pd.Series([float("nan") if v is None else float(v) for _, v in rows],
                           dtype="float64"),
        "percent": pd.Series([float(v) * 100 if p else float("nan")
                              for (_, v), p in zip(rows, probability)], dtype="float64"),
        "one_in": pd.Series([one_in(v) if p else None for (_, v), p in zip(rows, probability)],
                            dtype=object),
        "note": pd.Series([result.notes.get(key) for key, _ in rows], dtype=object)})
