"""Long runs over many items: a worker pool that survives interruption, a progress bar, logs.

Both the batch analysis of setups (``solver/batch.py``) and the puzzle generator
(``solver/generate.py``) stream results to a file as they arrive; what they share lives here:

- :func:`worker_pool` runs a function over items on ``jobs`` forked workers (or in this
  process for one job). Ctrl-C or SIGTERM raise :class:`Interrupted` in the parent, the
  workers are terminated, and whatever the caller already wrote stays written.
- :class:`Progress` draws a one-line bar with a rate and the time left.
- :func:`log_to` sends a logger's records, the workers' included (multiprocessing-logging),
  into one file.
"""

from __future__ import annotations

import contextlib
import logging
import multiprocessing
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from typing import Any, TextIO, TypeVar

from solver.signals import deferred

T = TypeVar("T")
R = TypeVar("R")


class Interrupted(Exception):
    """The run was stopped by Ctrl-C or SIGTERM."""


def _raise_interrupted(signum: int, frame: Any) -> None:
    raise Interrupted()


def _start_worker(init: Callable[..., None], args: tuple) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent handles Ctrl-C
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # pool.terminate() must end a worker
    init(*args)


class Runner:
    """Maps a function over items, in a pool or in this process."""

    def __init__(self, pool: Any) -> None:
        self._pool = pool

    def map_unordered(
        self, func: Callable[[T], R], items: Iterable[T], chunksize: int = 1
    ) -> Iterator[R]:
        """Results as they finish (in order when there is no pool)."""
        if self._pool is None:
            return (func(item) for item in items)
        return self._pool.imap_unordered(func, items, chunksize=chunksize)


@contextlib.contextmanager
def worker_pool(jobs: int, init: Callable[..., None], args: tuple = ()) -> Iterator[Runner]:
    """A :class:`Runner` over ``jobs`` forked workers, each set up by ``init(*args)``.

    With one job, ``init`` runs here and no process is started. Ctrl-C and SIGTERM inside
    the ``with`` block raise :class:`Interrupted`; the workers are then terminated rather
    than waited for.
    """
    main = threading.current_thread() is threading.main_thread()
    old_term = signal.signal(signal.SIGTERM, _raise_interrupted) if main else None
    pool = None
    finished = False
    try:
        if jobs > 1:
            ctx = multiprocessing.get_context("fork")
            with deferred():   # Ctrl-C inside a fork's hooks would be swallowed
                pool = ctx.Pool(jobs, initializer=_start_worker, initargs=(init, args))
        else:
            init(*args)
        yield Runner(pool)
        finished = True
    except KeyboardInterrupt:
        raise Interrupted() from None
    finally:
        if main:
            signal.signal(signal.SIGTERM, old_term)
        if pool is not None:
            if finished:
                pool.close()
            else:
                pool.terminate()
            pool.join()


def duration(seconds: float) -> str:
    """``1m05s``, ``2h03m00s``.

    >>> duration(65), duration(7380)
    ('1m05s', '2h03m00s')
    """
    s = int(seconds)
    if s >= 3600:
        return f"{s // 3600}h{s % 3600 // 60:02d}m{s % 60:02d}s"
    return f"{s // 60}m{s % 60:02d}s"


class Progress:
    """A one-line progress bar on a stream: count, rate and time left.

    ``unit`` names what is counted; ``per_minute`` shows the rate per minute; ``extra``
    adds a note to the line (e.g. how many candidates were tried).
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
        self.done = 0
        self.last = 0.0
        self.tty = bool(getattr(self.stream, "isatty", lambda: False)())

    def line(self) -> str:
        elapsed = time.monotonic() - self.start
        rate = self.done / elapsed if elapsed > 0 else 0.0
        left = (self.total - self.done) / rate if rate > 0 else float("nan")
        width = 30
        filled = min(width, int(width * self.done / self.total)) if self.total else width
        eta = duration(left) if left == left else "?"
        shown = f"{rate * 60:.1f} {self.unit}/min" if self.per_minute else \
            f"{rate:.1f} {self.unit}/s"
        note = f", {self.extra()}" if self.extra is not None else ""
        return (f"[{'#' * filled}{'.' * (width - filled)}] {self.done}/{self.total} "
                f"{shown}{note}, {duration(elapsed)} elapsed, {eta} left")

    def update(self, n: int = 1) -> None:
        """Count ``n`` more done and redraw (at most every ``every`` seconds on a tty)."""
        self.set(self.done + n)

    def set(self, done: int) -> None:
        """Set the count done and redraw."""
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

    def __init__(self, stream: TextIO | None = None) -> None:
        self.stream = stream if stream is not None else sys.stderr
        self.start = time.monotonic()
        self.shown = False
        self.text = ""   # the last note shown (or that would have been)
        self.tty = bool(getattr(self.stream, "isatty", lambda: False)())

    def show(self, text: str) -> None:
        self.text = text
        if not self.tty:
            return
        self.stream.write(f"\r\x1b[K{text} ({duration(time.monotonic() - self.start)})")
        self.stream.flush()
        self.shown = True

    def clear(self) -> None:
        if self.shown:
            self.stream.write("\r\x1b[K")
            self.stream.flush()
            self.shown = False


@contextlib.contextmanager
def log_to(path: str | None, logger: logging.Logger) -> Iterator[None]:
    """Send ``logger``'s records (INFO and up), the forked workers' too, to the file ``path``.

    With ``path`` None the records go nowhere (the logger does not propagate).
    """
    logger.setLevel(logging.INFO)
    logger.propagate = False
    handler = None
    if path is not None:
        import multiprocessing_logging

        handler = logging.FileHandler(path, encoding="utf-8")
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(message)s"))
        logger.addHandler(handler)
        multiprocessing_logging.install_mp_handler(logger)
    try:
        yield
    finally:
        if handler is not None:
            for h in list(logger.handlers):
                logger.removeHandler(h)
                h.close()
