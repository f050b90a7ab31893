"""Scenarios: plain, validated, immutable data with every field declared once.

A system's scenario is a pydantic model (:class:`Scenario`, its blocks :class:`Part`). Each
field is declared with one of the helpers (:func:`number`, :func:`flag`, :func:`choice`,
:func:`ruling`, :func:`text`, :func:`part`, :func:`parts`), which record its range or choices,
step, label, help text and citation. :func:`fields_of` reads those declarations back as
:class:`FieldSpec` objects, from which the workbook derives its widgets and from which
validation errors say what is allowed.

The package, one module per job (each imports only those above it):

- :mod:`.fields`: declaring fields, and what a number field accepts;
- :mod:`.specs`: reading the declarations back (:class:`FieldSpec`, :func:`fields_of`);
- :mod:`.validation`: :func:`parse`, and errors that name the field, the value and what is
  allowed (:class:`ScenarioError`, :class:`Problem`, :class:`FieldConflict`, :class:`Combination`);
- :mod:`.editing`: ``set``, ``replace``, ``get``, ``add_item``, ``remove_item``, ``paths``;
- :mod:`.display`: ``describe``, ``repr``, completion, the notebook's table, the field list of
  every class's docstring;
- :mod:`.base`: :class:`Part` and :class:`Scenario`, whose methods those are.
"""

from .base import FrozenFieldError, Part, Scenario
from .display import FieldHelp
from .fields import SNAP, choice, flag, number, part, parts, ruling, text
from .specs import FieldSpec, fields_of, spec_at
from .validation import (COMBINATION, SHOWN, Combination, FieldConflict, Problem, ScenarioError, one_line, parse,
                         shown, when)

__all__ = [
    "Part",
    "Scenario",
    "FieldSpec",
    "ScenarioError",
    "FieldConflict",
    "Combination",
    "FrozenFieldError",
    "FieldHelp",
    "Problem",
    "number",
    "flag",
    "choice",
    "ruling",
    "text",
    "part",
    "parts",
    "fields_of",
    "spec_at",
    "parse",
    "when",
    "shown",
    "one_line",
    "SNAP",
    "SHOWN",
    "COMBINATION",
]
