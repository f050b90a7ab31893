"""A page of ``docs/`` that a tool writes and people annotate: the tool rewrites what is above
the page's notes heading and keeps the notes, from that heading on, word for word."""

from __future__ import annotations

from pathlib import Path


def write_keeping_notes(path: Path, text: str, notes: str) -> None:
    """Write ``text`` to ``path``, followed by what ``path`` held from its heading ``notes`` on
    (nothing if it has no such heading)."""
    earlier = path.read_text(encoding="utf-8") if path.exists() else ""
    kept = earlier[earlier.index(notes):] if notes in earlier else ""
    path.write_text(text + ("\n" + kept if kept else ""), encoding="utf-8")
