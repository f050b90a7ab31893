"""A table of the page, without pandas: its columns by name and its rows of plain values.

The dashboards run where pandas and numpy have no wheels (Pyodide, in the browser), so every
table a page builds and shows is a :class:`Table`: :func:`table_html` lays
one out, :func:`workbook.page.layout.headline_cards` reads the headline's. A notebook gets the
pandas DataFrame with :meth:`Table.to_frame`, which imports pandas then, and only then (what
:func:`workbook.page.views.outcome_table` and its kin return).

A notebook where pandas has no wheel (the static site's lab) shows a :class:`Table` as it is
(``_repr_html_``), and :meth:`Table.select` picks its columns.

A DataFrame a designer's own view returns is still shown: :meth:`Table.from_frame` reads it
through its own methods, and :func:`is_frame` tells one without importing pandas.
"""

from __future__ import annotations

import html
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["Table", "is_frame", "table_html"]


@dataclass(frozen=True)
class Table:
    """Rows of plain values under named ``columns``, None for "no value". ``floats`` names the
    columns of numbers that :meth:`to_frame` makes ``float64`` (None becomes NaN there); the
    others stay as they are (``object``).

    >>> table = Table.of([{"key": "hit", "p": 0.25}, {"key": "miss", "p": None}], floats=("p",))
    >>> table.columns, table.column("p"), table.records()[0]
    (('key', 'p'), [0.25, None], {'key': 'hit', 'p': 0.25})
    """

    columns: tuple[str, ...]
    rows: tuple[tuple[Any, ...], ...]
    floats: tuple[str, ...] = ()

    @classmethod
    def of(cls, records: Iterable[Mapping[str, Any]], columns: Sequence[str] | None = None,
           floats: Sequence[str] = ()) -> Table:
        """The table of ``records`` (dicts by column; a column a record has not is None in it),
        its columns ``columns`` or else the first record's keys."""
        records = list(records)
        names = tuple(columns if columns is not None else records[0] if records else ())
        return cls(names, tuple(tuple(record.get(c) for c in names) for record in records), tuple(floats))

    @classmethod
    def from_frame(cls, frame: pd.DataFrame) -> Table:
        """A pandas DataFrame's columns and rows (its index left out), read through the
        frame's own methods: pandas is not imported here."""
        return cls.of(frame.to_dict("records"), list(frame.columns))

    def records(self) -> list[dict[str, Any]]:
        """Each row as a dict by column."""
        return [dict(zip(self.columns, row)) for row in self.rows]

    def column(self, name: str) -> list[Any]:
        """The values of the column ``name``, top to bottom."""
        at = self.columns.index(name)
        return [row[at] for row in self.rows]

    def select(self, *names: str) -> Table:
        """The table of the columns ``names`` alone, in that order.

        >>> Table.of([{"a": 1, "b": 2}]).select("b").records()
        [{'b': 2}]
        """
        unknown = [n for n in names if n not in self.columns]
        if unknown:
            raise KeyError(f"no column {unknown[0]!r}; the columns are {', '.join(self.columns)}")
        at = [self.columns.index(n) for n in names]
        return Table(names, tuple(tuple(row[i] for i in at) for row in self.rows),
                     tuple(f for f in self.floats if f in names))

    def __len__(self) -> int:
        return len(self.rows)

    def _repr_html_(self) -> str:
        """Shown in a notebook as the page shows a table (every column, headed by its name): a
        notebook without pandas (the static site's lab) still shows it as a table."""
        return table_html(self, {c: str(c) for c in self.columns})

    def to_frame(self) -> pd.DataFrame:
        """The table as a pandas DataFrame, for a notebook: every column ``object`` (None kept
        for "no value", not NaN) but the ``floats``, which are ``float64``."""
        import pandas as pd  # here only: a page never asks for a frame

        frame = pd.DataFrame([list(row) for row in self.rows], columns=list(self.columns), dtype=object)
        return frame.astype({c: "float64" for c in self.floats})


def is_frame(thing: Any) -> bool:
    """Whether ``thing`` is a pandas DataFrame, told by its ``columns`` and ``to_dict`` (pandas
    is not imported to ask)."""
    return hasattr(thing, "columns") and hasattr(thing, "to_dict")


def table_html(table: Table, columns: Mapping[str, str], css: str = "wb-grid",
               text: Callable[[str], str] = str) -> str:
    """A plain HTML table of ``table``'s ``columns`` (``{column: header}``, headers passed through
    ``text``). Each cell carries ``data-col="<column>"`` and each row ``data-key`` (and
    ``data-kind``) from the ``key`` (and ``kind``) column, so the page reads the same in any language.
    """
    head = "".join(f'<th data-col="{html.escape(c)}" style="text-align:left;padding:2px 10px">'
                   f'{html.escape(text(h))}</th>' for c, h in columns.items())
    body = []
    for row in table.records():
        marks = "".join(f' data-{c}="{html.escape(str(row[c]), quote=True)}"'
                        for c in ("key", "kind") if c in row)
        cells = "".join(f'<td data-col="{html.escape(c)}" style="padding:2px 10px">'
                        f'{"" if _missing(row[c]) else html.escape(str(row[c]))}</td>'
                        for c in columns)
        body.append(f"<tr{marks}>{cells}</tr>")
    return (f'<table class="{css}" style="border-collapse:collapse"><thead><tr>{head}</tr></thead>'
            f'<tbody>{"".join(body)}</tbody></table>')


def _missing(value: Any) -> bool:
    return value is None or (isinstance(value, float) and math.isnan(value))
