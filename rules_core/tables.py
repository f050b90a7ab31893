"""Results as rows of plain text for CSV: every exact number as ``"n/d"`` beside its float.

The command line and the workbook's downloads both write these rows, so an exported number is
the core's exact value, spelled once.

>>> from rules_core import evaluate, find_preset
>>> rows = outcome_rows(evaluate(find_preset("d100-homebrew/burst-3-vs-dodge-45").scenario))
>>> rows[0]
{'outcome': '3 evaded, 0 land', 'exact': '1/4', 'float': 0.25}
>>> print(csv_text(rows[:1]).strip())
outcome,exact,float
"3 evaded, 0 land",1/4,0.25
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from .compare import Comparison
from .result import Result, fraction_text

__all__ = ["outcome_rows", "headline_rows", "sweep_rows", "comparison_rows", "csv_text"]


def _exact(value: Fraction | None) -> dict[str, Any]:
    return ({"exact": "", "float": ""} if value is None
            else {"exact": fraction_text(value), "float": float(value)})


def outcome_rows(result: Result) -> list[dict[str, Any]]:
    """One row per outcome in display order: ``outcome``, ``exact`` (``n/d``), ``float``."""
    return [{"outcome": label, **_exact(p)} for label, p in result.outcome_rows()]


def headline_rows(result: Result) -> list[dict[str, Any]]:
    """One row per headline quantity: ``headline``, ``exact``, ``float`` (empty when it does
    not apply) and ``note`` (why not)."""
    return [{"headline": key, **_exact(value), "note": result.notes.get(key, "")}
            for key, value in result.headline.items()]


def _cell(value: Any) -> Any:
    """A swept field's value as a CSV cell (exact decimals in their short form)."""
    if isinstance(value, bool) or not isinstance(value, (int, Fraction)) and not hasattr(value, "as_tuple"):
        return value
    return str(value)


def sweep_rows(swept: Any) -> list[dict[str, Any]]:
    """A :class:`rules_core.sweeps.Sweep` as tidy rows: each swept field (by dotted path),
    ``headline``, ``exact``, ``float`` — one row per point and headline quantity; a point the
    rules refused has one row with its reason in ``refused``."""
    keys = swept.headline_keys()
    rows = []
    for point in swept:
        where = {path: _cell(v) for path, v in zip(swept.fields, point.values)}
        if point.refused:
            rows.append({**where, "headline": "", "exact": "", "float": "", "refused": point.refused})
            continue
        rows += [{**where, "headline": key, **_exact(point.headline.get(key)), "refused": ""}
                 for key in keys]
    return rows


def comparison_rows(comparison: Comparison) -> list[dict[str, Any]]:
    """A :class:`~rules_core.compare.Comparison` as rows: every headline, then (within one
    system) every outcome, each with A, B and B − A exactly and as floats, and the difference
    in percentage points for probabilities."""
    def row(kind: str, d: Any) -> dict[str, Any]:
        a, b, diff = _exact(d.a), _exact(d.b), _exact(d.difference)
        points = d.points() if kind == "headline" else (None if d.difference is None
                                                          else float(d.difference * 100))
        return {"kind": kind, "key": d.key, "a_exact": a["exact"], "a_float": a["float"],
                "b_exact": b["exact"], "b_float": b["float"], "difference_exact": diff["exact"],
                "difference_float": diff["float"], "difference_points": "" if points is None else points}

    rows = [row("headline", d) for d in comparison.differences()]
    if comparison.a.system == comparison.b.system:
        rows += [row("outcome", d) for d in comparison.outcome_differences()]
    return rows


def csv_text(rows: Sequence[dict[str, Any]]) -> str:
    """``rows`` (dicts with the same keys) as CSV text with a header line."""
    out = io.StringIO()
    if rows:
        writer = csv.DictWriter(out, fieldnames=list(rows[0]), lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
    return out.getvalue()
