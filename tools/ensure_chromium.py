"""Make sure a Chromium for the browser tests exists (run by `make test`).

On Debian or Ubuntu as root, installs the distribution's `chromium` package when it is missing.
Anywhere else, stops with a message saying how to get one. Never downloads a browser build of
its own (`playwright install` is not used).

``--begin`` starts that install in the background and returns at once (its output goes to
``.chromium-install.log``), so that it runs beside the virtualenv's install; ``--wait`` (or no
option) then waits for it, or installs in the foreground if none was begun, and fails if there
is still no Chromium.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

CANDIDATES = ("/usr/bin/chromium", "/usr/bin/chromium-browser")
ROOT = Path(__file__).resolve().parents[1]
LOG = ROOT / ".chromium-install.log"
PID = ROOT / ".chromium-install.pid"
INSTALL = ("apt-get update -qq && "
           "apt-get install -y -qq --no-install-recommends chromium")
WAIT_S = 900


def find() -> str | None:
    """Path of a usable Chromium: $CHROMIUM_PATH, then the Debian locations."""
    wanted = os.environ.get("CHROMIUM_PATH")
    for path in ((wanted,) if wanted else CANDIDATES):
        if path and os.access(path, os.X_OK):
            return path
    return None


def can_install() -> bool:
    return hasattr(os, "geteuid") and os.geteuid() == 0 and shutil.which("apt-get") is not None


def begin() -> int:
    """Start installing Debian's chromium in the background when it is missing and can be."""
    if find() or not can_install() or _running() is not None:
        return 0
    print("Chromium not found: installing Debian's chromium package in the background "
          f"({LOG.name}) ...", flush=True)
    with open(LOG, "wb") as log:
        process = subprocess.Popen(["sh", "-c", INSTALL], stdout=log, stderr=subprocess.STDOUT,
                                   stdin=subprocess.DEVNULL, start_new_session=True,
                                   env={**os.environ, "DEBIAN_FRONTEND": "noninteractive"})
    PID.write_text(str(process.pid))
    return 0


def _running() -> int | None:
    """The process id of an install begun by ``--begin`` that is still running, else None."""
    try:
        pid = int(PID.read_text())
        os.kill(pid, 0)
    except (OSError, ValueError):
        return None
    try:  # (a finished child of a process gone is no longer there; a zombie is not running)
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return pid
    return None if state == "Z" else pid


def wait() -> int:
    """Wait for an install begun by ``--begin``; install now if none was; 0 once Chromium is here."""
    deadline = time.monotonic() + WAIT_S
    if _running() is not None:
        print("Waiting for Chromium's install to finish ...", flush=True)
        while _running() is not None and time.monotonic() < deadline:
            time.sleep(0.5)
    PID.unlink(missing_ok=True)
    if find():
        return 0
    if can_install():
        print("Chromium not found: installing Debian's chromium package ...", flush=True)
        if subprocess.run(["sh", "-c", INSTALL], env={**os.environ, "DEBIAN_FRONTEND": "noninteractive"}).returncode:
            print(f"error: `{INSTALL}` failed; install Chromium by hand.", file=sys.stderr)
            return 1
        if find():
            return 0
    print("error: the browser tests need Chromium and none was found.\n"
          "  Debian/Ubuntu: sudo apt-get install chromium\n"
          "  elsewhere: install Chromium and set CHROMIUM_PATH=/path/to/chromium", file=sys.stderr)
    return 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--begin", action="store_true", help="start the install in the background and return")
    parser.add_argument("--wait", action="store_true", help="wait for it (the default)")
    args = parser.parse_args(argv)
    return begin() if args.begin else wait()


if __name__ == "__main__":
    sys.exit(main())
