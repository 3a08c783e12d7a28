"""Holding Ctrl-C back for a few lines. A leaf: it knows nothing of the game.

Some steps must not be cut in two by Ctrl-C (SIGINT) or SIGTERM: forking a pool's workers
(a KeyboardInterrupt raised inside ``os.fork``'s at-fork hooks is printed and swallowed,
in the parent as in the child), making, renaming or removing a temporary file. Inside
:func:`deferred` such a signal is only noted; it is delivered, to the handler that was in
place, as the block ends.

>>> import os, signal
>>> with deferred():
...     os.kill(os.getpid(), signal.SIGTERM)  # noted, not delivered yet
...     print("still here")
... # doctest: +SKIP
"""

from __future__ import annotations

import contextlib
import os
import signal
import threading
from collections.abc import Iterator
from typing import Any

__all__ = ["deferred"]


@contextlib.contextmanager
def deferred(signals: tuple[int, ...] = (signal.SIGINT, signal.SIGTERM)) -> Iterator[None]:
    """Note ``signals`` during the block and deliver the first one after it (Python runs
    signal handlers in the main thread only: elsewhere this does nothing)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    got: list[tuple[int, Any]] = []
    old = {s: signal.signal(s, lambda signum, frame: got.append((signum, frame)))
           for s in signals}
    try:
        yield
    finally:
        for s, handler in old.items():
            signal.signal(s, handler)
        for signum, frame in got[:1]:
            handler = old[signum]
            if callable(handler):
                handler(signum, frame)
            elif handler == signal.SIG_DFL:
                os.kill(os.getpid(), signum)
