"""Kept so that notebooks written against earlier versions still run: the dashboard is now
:mod:`workbook.pages.dashboard`, and :func:`dashboard` :mod:`workbook.pages.notebook` (in a
notebook: ``from workbook import dashboard``)."""

from .pages.dashboard import *  # noqa: F401,F403
from .pages.dashboard import __all__ as _page
from .pages.notebook import *  # noqa: F401,F403
from .pages.notebook import __all__ as _notebook

__all__ = [*_page, *_notebook]
