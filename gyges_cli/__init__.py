"""The ``gyges`` command-line program (click)."""

from __future__ import annotations

import signal
import sys


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
    try:
        cli()
    finally:
        # the command is over (its output written): a Ctrl-C while the interpreter shuts
        # down, when SIGINT is back at its default, would kill it without a word
        signal.signal(signal.SIGINT, signal.SIG_IGN)
