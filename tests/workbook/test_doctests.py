"""The examples in the workbook's docstrings run (the suite's doctest collection covers only
``tests`` and ``rules_core``)."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import workbook

ALL = sorted(m.name for m in pkgutil.walk_packages(workbook.__path__, "workbook."))


def has_examples(name: str) -> bool:
    return any(t.examples for t in doctest.DocTestFinder().find(importlib.import_module(name)))


#: Only the modules that have examples: a module without any would pass without testing anything.
MODULES = [name for name in ALL if has_examples(name)]


def test_the_workbook_has_docstring_examples():
    assert len(MODULES) >= 3, MODULES


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0 and result.attempted > 0
