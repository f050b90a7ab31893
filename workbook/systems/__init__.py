"""Each game's own views of its results (``SYSTEM_ID`` and ``VIEWS`` in a module of this
folder), found by the page by name (:func:`workbook.page.views.system_views`)."""
