"""A dashboard with its explanations in the page's language.

A notebook's markdown cells are fixed text; a page that switches language needs its prose to
switch with it. :func:`explained` shows a system's dashboard between two Markdown texts read
from ``notebooks/<name>.<lang>.md`` (one file per language of the system): the part before the
line ``<!-- dashboard -->`` above the dashboard (the title and a one-line lead), the rest under
it. Switching the language on the page switches the texts too, and keeps the scenario.

Classes: ``wb-explain-intro`` and ``wb-explain-body`` (each an Output holding Markdown).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, NamedTuple

import ipywidgets as widgets

from .dashboard import Dashboard
from .catalog import notebooks_folder

__all__ = ["explained", "Explanation", "read_explanation", "MARK"]

#: The line of a ``.md`` file where the dashboard goes.
MARK = "<!-- dashboard -->"


class Explanation(NamedTuple):
    """The Markdown above the dashboard (``intro``) and under it (``body``)."""

    intro: str
    body: str


def read_explanation(name: str, lang: str, folder: Path | str | None = None) -> Explanation:
    """The texts of ``<folder>/<name>.<lang>.md`` (``notebooks/`` by default), split at
    :data:`MARK`; a missing file is a clear error naming it."""
    path = Path(folder if folder is not None else notebooks_folder()) / f"{name}.{lang}.md"
    if not path.is_file():
        raise FileNotFoundError(f"no explanation {path.name} for language {lang!r} in {path.parent}")
    text = path.read_text(encoding="utf-8")
    intro, mark, body = text.partition(MARK)
    return Explanation(intro.strip(), body.strip()) if mark else Explanation("", text.strip())


def _markdown(out: widgets.Output, text: str) -> None:
    out.outputs = ({"output_type": "display_data", "data": {"text/markdown": text,
                                                              "text/plain": text},
                    "metadata": {}},) if text else ()


def explained(system_id: str, name: str | None = None, **kw: Any) -> widgets.VBox:
    """The dashboard of ``system_id`` between its explanations ``<name>.<lang>.md`` (``name``
    defaults to the system id); keywords go to :class:`workbook.pages.dashboard.Dashboard`."""
    dash = Dashboard(system_id, **kw)
    name = name or system_id
    texts = {lang: read_explanation(name, lang) for lang in dash.system.languages}
    intro, body = widgets.Output(), widgets.Output()
    intro.add_class("wb-explain-intro")
    body.add_class("wb-explain-body")

    def show(_change: Any = None) -> None:
        shown = texts[dash.lang]
        _markdown(intro, shown.intro)
        _markdown(body, shown.body)

    show()
    if dash.language is not None:  # the switch (also set when a requested link names a language)
        dash.language.observe(show, names="value")
    page = widgets.VBox([intro, dash.widget, body])
    page.dashboard = dash
    return page
