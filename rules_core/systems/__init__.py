"""One module per game system. Each defines ``SYSTEM`` (a :class:`rules_core.registry.System`);
:func:`rules_core.registry.all_systems` finds them here. Modules starting with ``_`` are helpers."""
