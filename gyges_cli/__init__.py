"""The ``gyges`` command-line program (click)."""

from __future__ import annotations

import _thread
import signal
import sys
import threading
from typing import Any


def _repost_interrupt(unraisable: Any) -> None:
    """``sys.unraisablehook`` of the program: a Ctrl-C that lands in a callback Python
    cannot raise from (a weak reference's, a finalizer's: say while a worker pool is torn
    down) is posted again to the main thread, where it ends the program as any Ctrl-C
    does, instead of being printed as an ignored traceback and lost. It is posted from
    another thread a moment later, once the callback is over (posted at once, it would
    be raised in this hook again; should it land in another callback, it comes back
    here). After the command, SIGINT is ignored and the post does nothing. Anything else
    is printed as Python prints it."""
    if isinstance(unraisable.exc_value, KeyboardInterrupt):
        timer = threading.Timer(0.05, _thread.interrupt_main)
        timer.daemon = True
        timer.start()
    else:
        sys.__unraisablehook__(unraisable)


def main() -> None:
    """The ``gyges`` program: Ctrl-C while it loads its commands ends as anywhere else
    (one line and exit status 130, not a traceback)."""
    try:
        from gyges_cli.main import cli
    except KeyboardInterrupt:
        # the one end not spelled with gyges_cli.common.interrupted: the import that was
        # interrupted may be that module's own, so the same line is written here
        sys.stderr.write("gyges: interrupted\n")
        raise SystemExit(130) from None
    sys.unraisablehook = _repost_interrupt
    try:
        cli()
    finally:
        # the command is over (its output written): a Ctrl-C while the interpreter shuts
        # down, when SIGINT is back at its default, would kill it without a word
        signal.signal(signal.SIGINT, signal.SIG_IGN)
