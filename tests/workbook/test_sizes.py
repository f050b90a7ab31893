"""The workbook stays in modules a reader takes in whole: none over 500 lines, and the dashboard,
where every part of the page meets, at most 400."""

from __future__ import annotations

from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "workbook"
MODULES = sorted(PACKAGE.rglob("*.py"))
#: Lines a module may have, by its path in the package; every other module: DEFAULT.
LIMITS = {"pages/dashboard.py": 400}
DEFAULT = 500


def _name(path: Path) -> str:
    return path.relative_to(PACKAGE).as_posix()


def _too_long(name: str, lines: int) -> bool:
    return lines > LIMITS.get(name, DEFAULT)


@pytest.mark.parametrize("path", MODULES, ids=_name)
def test_no_module_is_too_long(path):
    lines = len(path.read_text().splitlines())
    assert not _too_long(_name(path), lines), f"{_name(path)} has {lines} lines"


def test_the_limits_can_fail():
    """Every module is read, the limits name modules that exist, and a module one line over its
    limit is caught (a test that cannot fail is none)."""
    assert "pages/dashboard.py" in map(_name, MODULES) and len(MODULES) > 30
    assert all((PACKAGE / name).is_file() for name in LIMITS)
    assert _too_long("pages/dashboard.py", 401) and not _too_long("pages/dashboard.py", 400)
    assert _too_long("page/views.py", 501) and not _too_long("page/views.py", 500)
