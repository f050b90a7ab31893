"""The list of dashboards, for the index notebook: every registered system that has a
notebook, found by name, so a new system's notebook appears without editing the index.

A notebook belongs to a system when its name is the system's id, or the id followed by ``-``
and more (``infinity-n4-dodge.ipynb`` belongs to ``infinity-n4``). Links are relative
(``infinity-n4-dodge.ipynb``), so they work from the index under ``voila notebooks/`` (where
the index is ``/voila/render/index.ipynb``) and in JupyterLab alike.
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from pathlib import Path

import ipywidgets as widgets

from rules_core import System, all_systems

__all__ = ["Entry", "notebooks_folder", "dashboards", "index"]

INDEX = "index.ipynb"
#: Titles of the pages that belong to no one system.
PAGE_TITLES = {"compare-systems.ipynb": "One dodge, four games"}


@dataclass(frozen=True)
class Entry:
    """One dashboard: its notebook's file name and its system (None for a notebook that
    belongs to no registered system)."""

    notebook: str
    system: System | None

    @property
    def title(self) -> str:
        if self.system is not None:
            return self.system.name
        return PAGE_TITLES.get(self.notebook, Path(self.notebook).stem.replace("-", " "))


def notebooks_folder() -> Path:
    """The project's ``notebooks/`` folder (beside the ``workbook`` package)."""
    return Path(__file__).resolve().parent.parent / "notebooks"


def _owner(stem: str, known: dict[str, System]) -> System | None:
    matches = [s for sid, s in known.items() if stem == sid or stem.startswith(sid + "-")]
    return max(matches, key=lambda s: len(s.id), default=None)


def dashboards(folder: Path | str | None = None) -> list[Entry]:
    """Every notebook in ``folder`` except the index: registered systems' dashboards first
    (in registry order), then any other notebook."""
    folder = Path(folder) if folder is not None else notebooks_folder()
    known = dict(all_systems())
    found = [p.name for p in sorted(folder.glob("*.ipynb")) if p.name != INDEX]
    entries = [Entry(name, _owner(Path(name).stem, known)) for name in found]
    order = list(known)
    return sorted(entries, key=lambda e: (e.system is None,
                                          order.index(e.system.id) if e.system else 0, e.notebook))


def index(folder: Path | str | None = None) -> widgets.HTML:
    """The list of dashboards as links with each system's summary (class ``wb-index``)."""
    items = []
    for entry in dashboards(folder):
        summary = html.escape(entry.system.summary) if entry.system else ""
        items.append(f'<li><a class="wb-index-link" href="{html.escape(entry.notebook, quote=True)}">'
                     f"{html.escape(entry.title)}</a>"
                     + (f" — {summary}" if summary else "") + "</li>")
    body = f"<ul>{''.join(items)}</ul>" if items else "<p>No dashboards yet.</p>"
    box = widgets.HTML(body)
    box.add_class("wb-index")
    return box
