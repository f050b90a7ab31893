"""The Voilà server's one addition: its root opens the index of dashboards.

Voilà serving a folder shows a list of its ``.ipynb`` files at ``/``; a reader wants the
index. :func:`open_index_at_root` (called from the project's ``voila.py`` settings file, which
Voilà reads at start-up) makes a request for the root itself redirect to
``voila/render/index.ipynb`` when the folder has an index; the file list stays at
``/voila/tree``.
"""

from __future__ import annotations

import os

__all__ = ["open_index_at_root", "INDEX"]

INDEX = "index.ipynb"


def open_index_at_root() -> None:
    """Redirect the bare server root to the index notebook (idempotent)."""
    from jupyter_server.utils import url_path_join
    from voila.tornado.treehandler import TornadoVoilaTreeHandler

    if getattr(TornadoVoilaTreeHandler, "_workbook_index", False):
        return
    listing = TornadoVoilaTreeHandler.get

    async def get(self, path: str = ""):
        root = self.base_url or "/"
        if (self.request.path.rstrip("/") == root.rstrip("/") and not path
                and os.path.isfile(os.path.join(self.contents_manager.root_dir, INDEX))):
            query = f"?{self.request.query}" if self.request.query else ""
            return self.redirect(url_path_join(root, "voila/render", INDEX) + query)
        return await listing(self, path)

    TornadoVoilaTreeHandler.get = get
    TornadoVoilaTreeHandler._workbook_index = True
