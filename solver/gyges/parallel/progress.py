"""What a long run shows on the terminal: a progress bar with the time left, a status line."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import TextIO

__all__ = ["ProgressBar", "StatusLine", "duration", "rate_text"]


def duration(seconds: float) -> str:
    """``1m05s``, ``2h03m00s``.

    >>> duration(65), duration(7380)
    ('1m05s', '2h03m00s')
    """
    s = int(seconds)
    if s >= 3600:
        return f"{s // 3600}h{s % 3600 // 60:02d}m{s % 60:02d}s"
    return f"{s // 60}m{s % 60:02d}s"


def rate_text(per_second: float, unit: str, per_minute: bool = False) -> str:
    """A rate as a progress line shows it: per second, or per minute with ``per_minute``;
    a rate under one a minute is shown per hour (a deep puzzle run finds a few an hour:
    "0.0 puzzles/min" would say nothing).

    >>> rate_text(2.5, "positions"), rate_text(0.5, "puzzles", per_minute=True)
    ('2.5 positions/s', '30.0 puzzles/min')
    >>> rate_text(2 / (42 * 60), "puzzles", per_minute=True)
    '2.9 puzzles/hour'
    """
    if not per_minute:
        return f"{per_second:.1f} {unit}/s"
    if 0 < per_second * 60 < 1:
        return f"{per_second * 3600:.1f} {unit}/hour"
    return f"{per_second * 60:.1f} {unit}/min"


#: the time left is shown once this run has done this many units, for this many seconds:
#: the first unit comes early or late by chance and the workers take a moment to start, so
#: an estimate from less swings widely
ETA_UNITS = 2
ETA_SECONDS = 5.0


class ProgressBar:
    """A one-line progress bar on a stream: count, rate and time left (``?`` until
    :data:`ETA_UNITS` units and :data:`ETA_SECONDS` seconds of this run give a rate to go
    by).

    ``unit`` names what is counted; ``per_minute`` shows the rate per minute (per hour
    when under one a minute: :func:`rate_text`); ``extra`` adds a note to the line (e.g.
    how many candidates were tried).
    """

    def __init__(
        self,
        total: int,
        stream: TextIO | None = None,
        every: float = 0.25,
        unit: str = "items",
        per_minute: bool = False,
        extra: Callable[[], str] | None = None,
    ) -> None:
        self.total = total
        self.stream = stream if stream is not None else sys.stderr
        self.every = every
        self.unit = unit
        self.per_minute = per_minute
        self.extra = extra
        self.start = time.monotonic()
        self.done: float = 0
        self.resumed: float = 0   # done by an earlier run: not part of this run's rate
        self.last = 0.0
        self.tty = bool(getattr(self.stream, "isatty", lambda: False)())

    def line(self) -> str:
        elapsed = time.monotonic() - self.start
        rate = (self.done - self.resumed) / elapsed if elapsed > 0 else 0.0
        ran = self.done - self.resumed
        known = rate > 0 and ran >= ETA_UNITS and elapsed >= ETA_SECONDS
        left = 0.0 if self.done >= self.total else \
            (self.total - self.done) / rate if known else None
        width = 30
        filled = min(width, int(width * self.done / self.total)) if self.total else width
        eta = duration(left) if left is not None else "?"
        shown = rate_text(rate, self.unit, self.per_minute)
        note = f", {self.extra()}" if self.extra is not None else ""
        return (f"[{'#' * filled}{'.' * (width - filled)}] {int(self.done)}/{self.total} "
                f"{shown}{note}, {duration(elapsed)} elapsed, {eta} left")

    def resume(self, done: float) -> None:
        """Start from ``done`` units finished by an earlier run (the rate counts only what
        this run does).

        >>> import io
        >>> bar = ProgressBar(5, io.StringIO(), unit="puzzles", per_minute=True)
        >>> bar.resume(1)
        >>> bar.line().split(" puzzles/min")[0]
        '[######........................] 1/5 0.0'
        """
        self.resumed = done
        self.set(done)

    def update(self, n: int = 1) -> None:
        """Count ``n`` more done and redraw (at most every ``every`` seconds on a tty)."""
        self.set(self.done + n)

    def set(self, done: float) -> None:
        """Set the count done (a fraction while a unit is part done) and redraw."""
        self.done = done
        now = time.monotonic()
        if now - self.last >= (self.every if self.tty else 10 * self.every) or \
                self.done >= self.total:
            self.last = now
            self.stream.write(("\r" if self.tty else "") + self.line() + ("" if self.tty else "\n"))
            self.stream.flush()

    def close(self) -> None:
        if self.tty:
            self.stream.write("\n")
            self.stream.flush()


class StatusLine:
    """One line of status on a terminal, rewritten in place, with the time elapsed: for
    long single searches whose total is unknown. Silent when the stream is not a
    terminal (logs and pipes get only the result); ``clear`` wipes the line.
    """

    def __init__(self, stream: TextIO | None = None,
                 extra: Callable[[], str] | None = None) -> None:
        self.stream = stream if stream is not None else sys.stderr
        self.extra = extra   # more to show after the time (read at every redraw)
        self.start = time.monotonic()
        self.shown = False
        self.text = ""   # the last note shown (or that would have been)
        self.tty = bool(getattr(self.stream, "isatty", lambda: False)())

    def show(self, text: str) -> None:
        self.text = text
        if not self.tty:
            return
        more = f", {self.extra()}" if self.extra is not None else ""
        self.stream.write(f"\r\x1b[K{text} ({duration(time.monotonic() - self.start)}{more})")
        self.stream.flush()
        self.shown = True

    def clear(self) -> None:
        if self.shown:
            self.stream.write("\r\x1b[K")
            self.stream.flush()
            self.shown = False
