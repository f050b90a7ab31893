"""Kept so that notebooks written against earlier versions still run: the dashboard is now
:mod:`workbook.pages.dashboard` (in a notebook: ``from workbook import dashboard``)."""

from .pages.dashboard import *  # noqa: F401,F403
from .pages.dashboard import __all__  # noqa: F401
