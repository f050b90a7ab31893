"""Kept so that notebooks written against earlier versions still run: the views of a result
are now :mod:`workbook.page.views` (in a notebook: ``from workbook import outcome_chart``)."""

from .page.views import *  # noqa: F401,F403
from .page.views import __all__  # noqa: F401
