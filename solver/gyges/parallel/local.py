"""The local backend: forked worker processes on this machine, and how a run stops.

- :func:`interruptible` turns Ctrl-C (KeyboardInterrupt) and SIGTERM inside its block into
  :class:`Interrupted`; every backend runs under it.
- :class:`LocalExecutor` maps a function over items on ``jobs`` forked workers (in this
  process for one job), results as they finish.
- :func:`worker_pool` is the lower-level pool whose workers are set up once by an
  initialiser and inherit the parent's memory (the solver's cook search hands each worker
  a copy of its transposition table that way); it is local only.
- :func:`forked_call` runs one call in a forked process of its own, beside this one, and
  kills it when its block ends (the solver's opponent questions).

Workers ignore SIGINT (the terminal sends Ctrl-C to the whole process group: the parent
alone decides), and take SIGTERM's default action, so that terminating the pool ends them
at once, even in the middle of a long task.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import threading
from collections.abc import Callable, Iterable, Iterator
from typing import Any, TypeVar

from gyges.signals import deferred

__all__ = ["ForkedCall", "Interrupted", "LocalExecutor", "Runner", "forked_call",
           "interruptible", "worker_pool"]

T = TypeVar("T")
R = TypeVar("R")


class Interrupted(Exception):
    """The run was stopped by Ctrl-C or SIGTERM."""


def _raise_interrupted(signum: int, frame: Any) -> None:
    raise Interrupted()


@contextlib.contextmanager
def interruptible() -> Iterator[None]:
    """Inside the block, Ctrl-C and SIGTERM raise :class:`Interrupted` (SIGTERM only when
    called from the main thread, where handlers can be set)."""
    main = threading.current_thread() is threading.main_thread()
    old_term = signal.signal(signal.SIGTERM, _raise_interrupted) if main else None
    try:
        yield
    except KeyboardInterrupt:
        raise Interrupted() from None
    finally:
        if main:
            signal.signal(signal.SIGTERM, old_term)


_HELD = {signal.SIGINT, signal.SIGTERM}


def _start_worker(init: Callable[..., None] | None, args: tuple) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent handles Ctrl-C
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # pool.terminate() must end a worker
    # forked with both signals blocked (see _pool): one sent before this point (a pool
    # terminated as soon as it started) is still pending, and ends the worker now
    signal.pthread_sigmask(signal.SIG_UNBLOCK, _HELD)
    if init is not None:
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

    def terminate(self) -> None:
        """Stop every worker now, whatever it is doing (tasks whose results are no longer
        wanted); the pool takes no more tasks."""
        if self._pool is not None:
            self._pool.terminate()


@contextlib.contextmanager
def worker_pool(jobs: int, init: Callable[..., None], args: tuple = ()) -> Iterator[Runner]:
    """A :class:`Runner` over ``jobs`` forked workers, each set up by ``init(*args)``.

    With one job, ``init`` runs here and no process is started (one process beside this
    one: :func:`forked_call`). Ctrl-C and SIGTERM inside the ``with`` block raise
    :class:`Interrupted`; the workers are then terminated rather than waited for.
    """
    with interruptible(), _pool(jobs, init, args) as pool:
        if pool is None:
            init(*args)
        yield Runner(pool)


@contextlib.contextmanager
def _pool(jobs: int, init: Callable[..., None] | None, args: tuple) -> Iterator[Any]:
    """A forked pool of ``jobs`` workers (None for one job): closed and joined when the
    block ends normally, terminated when it ends by an exception (an interruption)."""
    if jobs <= 1:
        yield None
        return
    ctx = multiprocessing.get_context("fork")
    with deferred():   # Ctrl-C inside a fork's hooks would be swallowed
        # blocked too, at the system level, so that the workers are forked with the signals
        # held rather than with the parent's noting handler, which would swallow a SIGTERM
        # (pool.terminate()) sent before _start_worker restores the default action
        held = signal.pthread_sigmask(signal.SIG_BLOCK, _HELD)
        try:
            pool = ctx.Pool(jobs, initializer=_start_worker, initargs=(init, args))
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, held)
    finished = False
    try:
        yield pool
        finished = True
    finally:
        # a Ctrl-C while the pool winds down is delivered after it (inside the caller's
        # interruptible block), not in the pool's finalizer at the interpreter's exit,
        # which would print a traceback: terminate() runs that finalizer now
        with deferred():
            if finished:
                pool.close()
                pool.join()
            pool.terminate()
            pool.join()


def _run_forked(writer: Any, func: Callable[..., Any], args: tuple) -> None:
    """The body of a :func:`forked_call` child: the call, its outcome sent to the parent."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)   # the parent handles Ctrl-C
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, _HELD)
    try:
        outcome: tuple[bool, Any] = (True, func(*args))
    except BaseException as e:  # noqa: BLE001 -- handed to the parent, raised there
        outcome = (False, e)
    writer.send(outcome)
    writer.close()


class ForkedCall:
    """One call running in a forked process of its own (see :func:`forked_call`)."""

    def __init__(self, func: Callable[..., Any], args: tuple) -> None:
        ctx = multiprocessing.get_context("fork")
        self._reader, writer = ctx.Pipe(duplex=False)
        with deferred():   # as in _pool: the child starts with the signals held
            held = signal.pthread_sigmask(signal.SIG_BLOCK, _HELD)
            try:
                self._process = ctx.Process(target=_run_forked, args=(writer, func, args),
                                            daemon=True)
                self._process.start()
            finally:
                signal.pthread_sigmask(signal.SIG_SETMASK, held)
        writer.close()

    def ready(self, timeout: float = 0.0) -> bool:
        """Has the call finished (waiting up to ``timeout`` seconds for it)?"""
        return bool(self._reader.poll(timeout))

    def result(self) -> Any:
        """The call's result (waiting for it), or the exception it raised, raised here."""
        try:
            ok, value = self._reader.recv()
        except EOFError:
            self._process.join(5)       # its pipe closes as it exits: reap it for the code
            raise RuntimeError(f"the forked process (pid {self._process.pid}) ended without "
                               f"an answer (exit code {self._process.exitcode})") from None
        if not ok:
            raise value
        return value

    def kill(self) -> None:
        """End the process now, whatever it is doing (SIGKILL: it cannot be swallowed),
        and reap it."""
        if self._process.is_alive():
            self._process.kill()
        self._process.join()
        self._reader.close()


@contextlib.contextmanager
def forked_call(func: Callable[..., Any], *args: Any) -> Iterator[ForkedCall]:
    """``func(*args)`` in one forked process, alongside this one (it inherits this
    process's memory: nothing is pickled but the outcome). The block reads the result
    with ``ready``/``result``; leaving it, however it is left, ends the process at once.
    No pool: nothing but the process to stop. Ctrl-C and SIGTERM inside the block raise
    :class:`Interrupted`, as in :func:`worker_pool`."""
    with interruptible():
        call = ForkedCall(func, args)
        try:
            yield call
        finally:
            call.kill()


class LocalExecutor:
    """The default backend: ``jobs`` forked worker processes on this machine (none for one
    job: the work runs in this process). Use it as a context manager."""

    def __init__(self, jobs: int | None = None) -> None:
        self.jobs = max(1, jobs or os.cpu_count() or 1)
        self._stack: contextlib.ExitStack | None = None
        self._pool: Any = None

    @property
    def name(self) -> str:
        return f"local, {self.jobs} worker{'s' if self.jobs != 1 else ''}"

    @property
    def workers(self) -> int:
        return self.jobs

    def __enter__(self) -> LocalExecutor:
        stack = contextlib.ExitStack()
        stack.enter_context(interruptible())
        self._pool = stack.enter_context(_pool(self.jobs, None, ()))
        self._stack = stack
        return self

    def __exit__(self, *exc: Any) -> bool | None:
        stack, self._stack, self._pool = self._stack, None, None
        assert stack is not None
        return stack.__exit__(*exc)

    def map_unordered(self, func: Callable[[T], R], items: Iterable[T],
                      chunksize: int = 1) -> Iterator[R]:
        """``func(item)`` for every item, each result as soon as it is ready (in order
        with one job). ``func`` must be a module-level function or a ``functools.partial``
        of one (it is pickled for the workers)."""
        return Runner(self._pool).map_unordered(func, items, chunksize)
