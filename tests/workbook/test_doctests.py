"""The examples in the workbook's docstrings run (the suite's doctest collection covers only
``tests`` and ``rules_core``)."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import workbook

MODULES = sorted(m.name for m in pkgutil.iter_modules(workbook.__path__, "workbook."))


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
