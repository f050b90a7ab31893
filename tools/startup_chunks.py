"""Record the JavaScript chunks the dashboards load as they start (``server/startup_chunks.txt``).

The server sends those chunks in one script (``server/startup_script.py``). After an upgrade of
Voilà or of a JupyterLab extension the list is out of date: the browser test of a cold open then
names the chunks a page fetched one by one, and this script writes the list again. It starts the
server without the startup script on a free 127.0.0.1 port, opens the index and the four
dashboards in Debian's Chromium, each in an empty browser context, and writes every chunk those
pages fetched (Voilà's own and its extensions', not their entry files), in the order first fetched.

    python tools/startup_chunks.py            # writes server/startup_chunks.txt
    python tools/startup_chunks.py --check    # exit 1 if the list differs from what pages fetch
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlsplit

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "server"))
from browser_session import DASHBOARD_READY, DASHBOARDS, launch, open_page, start_server  # noqa: E402
import startup_script  # noqa: E402

#: The pages opened, each with what shows it is drawn.
PAGES = {"index.ipynb": "() => Boolean(document.querySelector('.wb-index a'))",
         **{name: DASHBOARD_READY for name in DASHBOARDS}}
HEADER = ("# The JavaScript chunks the dashboards load as they start, sent in one script "
          "(server/startup_script.py).\n# Written by tools/startup_chunks.py: run it again after "
          "an upgrade of Voilà or of a JupyterLab extension.\n")


def record() -> list[str]:
    """The chunks the pages fetch with no startup script, in the order first fetched."""
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as folder:
        server = start_server(Path(folder, "server.log"), "--pool=0", "--startup-script=False")
        try:
            fetched: list[str] = []
            with sync_playwright() as pw:
                browser = launch(pw)
                for name, ready in PAGES.items():
                    context = browser.new_context()
                    page, stats = open_page(context, f"{server.url}voila/render/{name}", ready,
                                            count_bytes=False)
                    if stats.error:
                        raise SystemExit(f"{name} did not open: {stats.error}")
                    time.sleep(1)  # what is fetched right after the first chart, too
                    for url in page.evaluate("performance.getEntriesByType('resource').map(r => r.name)"):
                        path = urlsplit(url).path.lstrip("/")
                        if startup_script.is_chunk(path) and path not in fetched:
                            fetched.append(path)
                    context.close()
                browser.close()
            return fetched
        finally:
            server.stop()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="compare, do not write")
    args = parser.parse_args(argv)
    chunks = record()
    if args.check:
        listed = startup_script.listed()
        missing, unused = sorted(set(chunks) - set(listed)), sorted(set(listed) - set(chunks))
        print(f"{len(chunks)} fetched, {len(listed)} listed; not listed: {missing or 'none'}; "
              f"listed, not fetched: {unused or 'none'}")
        return 1 if missing or unused else 0
    startup_script.CHUNK_LIST.write_text(HEADER + "".join(f"{c}\n" for c in chunks), encoding="utf-8")
    print(f"{len(chunks)} chunks written to {startup_script.CHUNK_LIST.relative_to(HERE.parent)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
