"""Control changes the browser sends faster than a page can show them, shown once: the latest."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Generic, TypeVar

__all__ = ["Coalesced"]

T = TypeVar("T")


def _handling_browser_message() -> bool:
    """True while the kernel handles a widget message from the browser (a control change)."""
    try:
        from IPython import get_ipython
        kernel = getattr(get_ipython(), "kernel", None)
        parent = kernel.get_parent("shell") if kernel is not None else None
    except Exception:  # no kernel, or one without parent messages
        return False
    return bool(parent) and parent.get("header", {}).get("msg_type") == "comm_msg"


def _event_loop() -> asyncio.AbstractEventLoop | None:
    """The running event loop (inside a kernel's message handler), else None."""
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None


class Coalesced(Generic[T]):
    """``show`` of each value given, at once; but a value the browser sent while the kernel has
    more messages to read is shown once they are read, and only the latest of them: then
    ``latest()`` is shown if the value given last is no longer it (the form moved on). With
    ``enabled`` False every value is shown at once."""

    def __init__(self, show: Callable[[T], None], latest: Callable[[], T], enabled: Callable[[], bool]):
        self._show, self._latest, self._enabled = show, latest, enabled
        self._pending: T | None = None

    def __call__(self, value: T) -> None:
        loop = _event_loop() if self._enabled() and _handling_browser_message() else None
        if loop is None:
            self._show(value)
            return
        first = self._pending is None
        self._pending = value
        if first:
            loop.call_soon(self._show_pending)

    def _show_pending(self) -> None:
        value, self._pending = self._pending, None
        if value is None or value != self._latest():
            value = self._latest()
        try:
            self._show(value)
        except Exception:  # a callback's error would otherwise vanish in the event loop
            logging.getLogger(__name__).exception("could not show %r", value)
            raise
