"""Make sure a Chromium for the browser tests exists (run by `make test`).

On Debian or Ubuntu as root, installs the distribution's `chromium` package when it is missing.
Anywhere else, stops with a message saying how to get one. Never downloads a browser build of
its own (`playwright install` is not used).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

CANDIDATES = ("/usr/bin/chromium", "/usr/bin/chromium-browser")


def find() -> str | None:
    """Path of a usable Chromium: $CHROMIUM_PATH, then the Debian locations."""
    wanted = os.environ.get("CHROMIUM_PATH")
    for path in ((wanted,) if wanted else CANDIDATES):
        if path and os.access(path, os.X_OK):
            return path
    return None


def main() -> int:
    if find():
        return 0
    is_root = hasattr(os, "geteuid") and os.geteuid() == 0
    if is_root and shutil.which("apt-get"):
        print("Chromium not found: installing Debian's chromium package ...", flush=True)
        env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        for cmd in (["apt-get", "update", "-qq"],
                    ["apt-get", "install", "-y", "-qq", "--no-install-recommends", "chromium"]):
            if subprocess.run(cmd, env=env).returncode != 0:
                print(f"error: `{' '.join(cmd)}` failed; install Chromium by hand.", file=sys.stderr)
                return 1
        if find():
            return 0
    print("error: the browser tests need Chromium and none was found.\n"
          "  Debian/Ubuntu: sudo apt-get install chromium\n"
          "  elsewhere: install Chromium and set CHROMIUM_PATH=/path/to/chromium", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
