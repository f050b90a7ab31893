"""``python -m rules_core``: see :mod:`rules_core.cli`."""

import sys

from .cli import main

sys.exit(main())
