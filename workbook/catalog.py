"""The list of dashboards, for the index notebook: every registered system that has a
notebook, found by name, so a new system's notebook appears without editing the index.

A notebook belongs to a system when its name is the system's id, or the id followed by ``-``
and more (``infinity-n4-dodge.ipynb`` belongs to ``infinity-n4``). Links are relative
(``infinity-n4-dodge.ipynb``), so they work from the index under ``voila notebooks/`` (where
the index is ``/voila/render/index.ipynb``) and in JupyterLab alike.
"""

from __future__ import annotations

import html
import json
import re
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

import ipywidgets as widgets

from rules_core import System, all_systems, evaluate

__all__ = ["Entry", "notebooks_folder", "dashboards", "index", "lead", "picture"]

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


def heading(folder: Path | str, notebook: str) -> str:
    """The notebook's title: its first Markdown heading, as plain text (``""`` when none)."""
    try:
        cells = json.loads((Path(folder) / notebook).read_text(encoding="utf-8")).get("cells", [])
        text = next("".join(c["source"]) for c in cells if c.get("cell_type") == "markdown")
    except (OSError, ValueError, StopIteration, KeyError, TypeError):
        return ""
    found = re.search(r"^#\s+(.+)$", text, re.M)
    return re.sub(r"[*_`]", "", found.group(1)).strip() if found else ""


def lead(folder: Path | str, notebook: str) -> str:
    """The notebook's one-line summary: the first paragraph under its title (from
    ``<stem>.en.md`` when its words live there, see :mod:`workbook.explain`), as plain text;
    ``""`` when it has none."""
    folder, stem = Path(folder), Path(notebook).stem
    try:
        words = folder / f"{stem}.en.md"
        if words.is_file():
            text = words.read_text(encoding="utf-8")
        else:
            cells = json.loads((folder / notebook).read_text(encoding="utf-8")).get("cells", [])
            text = next("".join(c["source"]) for c in cells if c.get("cell_type") == "markdown")
    except (OSError, ValueError, StopIteration, KeyError, TypeError):
        return ""
    paragraphs = [p.strip() for p in re.split(r"\n\s*\n", text) if p.strip()]
    body = [p for p in paragraphs if not p.startswith(("#", "<!--"))]
    if not body:
        return ""
    first = re.sub(r"[*_`]", "", " ".join(body[0].split()))
    sentence = re.match(r"(.+?[.!?])(\s|$)", first)
    return sentence.group(1) if sentence else first


def picture(system: System, width: int = 132, height: int = 56) -> str:
    """A small inline SVG of the system's default scenario: its outcome probabilities as bars
    (Okabe–Ito blue), exact values in each bar's tooltip."""
    rows = evaluate(system.default_scenario()).outcome_rows()
    most = max((p for _, p in rows), default=Fraction(1)) or Fraction(1)
    gap, n = 3, max(len(rows), 1)
    bar = (width - gap * (n + 1)) / n
    bars = []
    for i, (label, p) in enumerate(rows):
        h = max(1.0, float(p / most) * (height - 4))
        bars.append(f'<rect x="{gap + i * (bar + gap):.1f}" y="{height - h:.1f}" width="{bar:.1f}" '
                    f'height="{h:.1f}" fill="#0072B2"><title>{html.escape(str(label))}: '
                    f"{p.numerator}/{p.denominator}</title></rect>")
    return (f'<svg class="wb-index-picture" role="img" aria-label="{html.escape(system.name)}: '
            f'outcome chart" width="{width}" height="{height}" viewBox="0 0 {width} {height}">'
            f'<rect width="{width}" height="{height}" fill="#f7faff"/>{"".join(bars)}</svg>')


_INDEX_CSS = """<style>
.wb-index-cards { display: grid; grid-template-columns: repeat(auto-fill, minmax(280px, 1fr));
  gap: 12px; margin: 8px 0; }
.wb-index-card { display: flex; gap: 12px; align-items: flex-start; padding: 12px;
  border: 1px solid #c8d3e0; border-radius: 8px; background: #fff; text-decoration: none;
  color: #1a1a1a; }
.wb-index-card:hover, .wb-index-card:focus { border-color: #0072B2; box-shadow: 0 0 0 2px #0072B233; }
.wb-index-card .wb-index-name { color: #0057a0; text-decoration: underline; font-weight: 700;
  font-size: 1.15rem; }
.wb-index-card .wb-index-summary { margin: 4px 0 0; line-height: 1.35; }
.wb-index-card .wb-index-more { color: #0057a0; font-weight: 600; }
</style>"""


def index(folder: Path | str | None = None) -> widgets.HTML:
    """The dashboards as cards (class ``wb-index``): each a link (``a.wb-index-link``) with a
    picture of its outcome chart, its title and a one-line summary (the system's summary in
    the tooltip)."""
    folder = Path(folder) if folder is not None else notebooks_folder()
    items = []
    for entry in dashboards(folder):
        summary = lead(folder, entry.notebook) or (entry.system.summary.split(";")[0] if entry.system else "")
        tip = html.escape(entry.system.summary, quote=True) if entry.system else ""
        title = entry.title if entry.system else (heading(folder, entry.notebook) or entry.title)
        more = ("Open the dashboard" if entry.system else
                "Open the lesson" if entry.notebook.startswith("lesson-") else "Open the notebook")
        items.append(f'<a class="wb-index-link wb-index-card" href="{html.escape(entry.notebook, quote=True)}"'
                     f' title="{tip}">' + (picture(entry.system) if entry.system else "")
                     + f'<span><span class="wb-index-name">{html.escape(title)}</span>'
                     f'<p class="wb-index-summary">{html.escape(summary)}</p>'
                     f'<span class="wb-index-more">{more} →</span></span></a>')
    body = (f'{_INDEX_CSS}<div class="wb-index-cards">{"".join(items)}</div>' if items
            else "<p>No dashboards yet.</p>")
    box = widgets.HTML(body)
    box.add_class("wb-index")
    return box
