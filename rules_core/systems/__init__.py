"""One package per game system, named after its id with ``_`` for ``-`` (``infinity_n4``,
``gurps_4e``, ``eldfall``, ``d100_homebrew``), each of the same files (see docs/core.md). Each
defines ``SYSTEM`` (a :class:`rules_core.registry.System`) in its ``__init__.py``;
:func:`rules_core.registry.all_systems` finds them here. Names starting with ``_`` are skipped."""
