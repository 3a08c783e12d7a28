"""The Dask backend: the same work sent to a Dask distributed cluster.

A cluster is started with Dask's own commands (``dask scheduler``, then ``dask worker
tcp://HOST:PORT --nthreads 1`` on each machine, with this package installed in the same
version); :class:`DaskExecutor` connects a client to its scheduler, or starts a
``LocalCluster`` on this machine for the address ``local``. Tasks are submitted in a
sliding window (a few per worker thread, so a run of a million items does not flood the
scheduler) and their results come back as they finish; the caller writes them. When a
worker dies, the scheduler runs its tasks again elsewhere: each item's result still comes
back exactly once. When the client stops (Ctrl-C, SIGTERM, an error), its tasks are
cancelled and the client closes; a client that dies without a word is dropped by the
scheduler, and its tasks with it.
"""

from __future__ import annotations

import contextlib
import logging
import os
import signal
from collections.abc import Callable, Iterable, Iterator
from typing import Any, TypeVar

from gyges.parallel.local import interruptible

__all__ = ["DaskExecutor", "ExecutorError"]

T = TypeVar("T")
R = TypeVar("R")

CONNECT_TIMEOUT = 10  #: seconds to reach a scheduler before giving up (default)
TIMEOUT_ENV = "GYGES_SCHEDULER_TIMEOUT"  #: the environment variable that changes it
WINDOW_PER_THREAD = 4  #: tasks in flight per worker thread (at least MIN_WINDOW in all)
MIN_WINDOW = 64
SCHEMES = ("tcp", "tls", "ws", "wss")  #: the address schemes of a remote scheduler
_QUIET = ("distributed", "tornado", "asyncio", "bokeh")


class ExecutorError(ValueError):
    """A backend that cannot be used as asked (no such scheduler, Dask not installed)."""


@contextlib.contextmanager
def _quiet_logs(level: int = logging.ERROR) -> Iterator[None]:
    """Dask's own warnings (a worker lost, a task rescheduled) are not the user's business:
    the run handles them; errors still show."""
    loggers = [logging.getLogger(name) for name in _QUIET]
    old = [lg.level for lg in loggers]
    for lg in loggers:
        lg.setLevel(level)
    try:
        yield
    finally:
        for lg, lv in zip(loggers, old, strict=True):
            lg.setLevel(lv)


@contextlib.contextmanager
def _sigint_ignored() -> Iterator[None]:
    """SIGINT ignored while worker processes start: they inherit it, so a Ctrl-C at the
    terminal (sent to the whole process group) reaches only this client."""
    try:
        old = signal.signal(signal.SIGINT, signal.SIG_IGN)
    except ValueError:  # not the main thread
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, old)


def _short(text: str, width: int = 60) -> str:
    """At most ``width`` characters of a value, for a message."""
    return text if len(text) <= width else f"{text[: width - 3]}... ({len(text)} characters)"


def _address(text: str) -> str:
    """A scheduler's address, ``tcp://HOST:PORT`` (``HOST:PORT`` alone is tcp), checked
    before a client is made: a client made for a bad address fails, and then hangs for
    seconds in its own clean-up."""
    address = text if "://" in text else f"tcp://{text}"
    scheme, _, place = address.partition("://")
    host, _, port = place.rpartition(":")
    if scheme not in SCHEMES or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise ExecutorError(f"{_short(text)!r} is not a scheduler's address: give "
                            "tcp://HOST:PORT, or 'local' for a cluster started here")
    return address


def _timeout() -> float:
    text = os.environ.get(TIMEOUT_ENV, "")
    try:
        value = float(text) if text.strip() else CONNECT_TIMEOUT
    except ValueError:
        raise ExecutorError(f"${TIMEOUT_ENV}={_short(text)!r}: give a number of seconds"
                            ) from None
    return value if value > 0 else CONNECT_TIMEOUT


class DaskExecutor:
    """Work on a Dask cluster: ``address`` ``tcp://HOST:PORT`` (or ``HOST:PORT``) of a
    running scheduler, or ``local`` to start a ``LocalCluster`` of ``jobs`` single-threaded
    worker processes here. Use it as a context manager."""

    def __init__(self, address: str, jobs: int | None = None) -> None:
        self.address = address.strip()
        self.jobs = jobs
        self._stack: contextlib.ExitStack | None = None
        self._cluster: Any = None
        self.client: Any = None

    @property
    def name(self) -> str:
        where = "LocalCluster" if self.address == "local" else self.address
        return f"dask {where}, {self.workers} worker thread{'s' if self.workers != 1 else ''}"

    @property
    def workers(self) -> int:
        """Worker threads now in the cluster (at least 1, for sizing the window)."""
        if self.client is None:
            return 1
        try:
            return max(1, sum(self.client.nthreads().values()))
        except Exception:  # noqa: BLE001 - a scheduler gone away: the map will say so
            return 1

    def __enter__(self) -> DaskExecutor:
        try:
            from distributed import Client, LocalCluster
        except ImportError as e:  # pragma: no cover - a dependency of the package
            raise ExecutorError(f"the Dask backend needs the 'distributed' package ({e})"
                                ) from None
        stack = contextlib.ExitStack()
        try:
            stack.enter_context(interruptible())
            stack.enter_context(_quiet_logs())
            if self.address == "local":
                n = max(1, self.jobs or os.cpu_count() or 1)
                with _sigint_ignored():
                    cluster = stack.enter_context(LocalCluster(
                        n_workers=n, threads_per_worker=1, processes=True,
                        dashboard_address=None, silence_logs=logging.ERROR))
                self._cluster = cluster
                self.client = stack.enter_context(Client(cluster, set_as_default=False))
            else:
                address = _address(self.address)
                timeout = _timeout()
                try:
                    self.client = stack.enter_context(
                        Client(address, timeout=timeout, set_as_default=False))
                except (OSError, TimeoutError) as e:
                    raise ExecutorError(
                        f"cannot reach a Dask scheduler at {address} within "
                        f"{timeout:g} s ({e.__class__.__name__}); start one with "
                        f"'dask scheduler' and workers with 'dask worker {address}'"
                    ) from None
                except ValueError as e:
                    raise ExecutorError(f"{self.address}: {e}; give tcp://HOST:PORT or "
                                        "'local'") from None
        except BaseException:
            stack.close()
            raise
        self._stack = stack
        return self

    def __exit__(self, *exc: Any) -> bool | None:
        stack, self._stack = self._stack, None
        assert stack is not None
        if exc[0] is not None and self._cluster is not None:
            self._kill_workers()
        try:
            return stack.__exit__(*exc)
        finally:
            self.client = self._cluster = None

    def _kill_workers(self) -> None:
        """Stop the LocalCluster's worker processes at once (Ctrl-C, an error): a worker
        busy in a search does not stop when asked, and its cluster would wait seconds for
        it; the work in flight is lost either way, and the results written are kept."""
        for nanny in list(getattr(self._cluster, "workers", {}).values()):
            pid = getattr(getattr(nanny, "process", None), "pid", None)
            if pid is not None:
                with contextlib.suppress(OSError):
                    os.kill(pid, signal.SIGKILL)

    def map_unordered(self, func: Callable[[T], R], items: Iterable[T],
                      chunksize: int = 1) -> Iterator[R]:
        """``func(item)`` for every item on the cluster, each result as it finishes.

        ``func`` is pickled for the workers, so it must be importable there (the same
        package installed). ``chunksize`` is ignored: each item is one task. Stopping early
        (closing the iterator, an exception) cancels the tasks still out.
        """
        from distributed import KilledWorker, as_completed

        client = self.client
        if client is None:
            raise RuntimeError("DaskExecutor used outside its 'with' block")
        it = iter(items)
        window = max(MIN_WINDOW, WINDOW_PER_THREAD * self.workers)
        pending = as_completed(loop=client.loop)
        out: set[Any] = set()

        def submit(n: int) -> None:
            for _ in range(n):
                try:
                    item = next(it)
                except StopIteration:
                    return
                future = client.submit(func, item, pure=False)
                out.add(future)
                pending.add(future)

        try:
            submit(window)
            while out:
                future = next(pending)
                out.discard(future)
                try:
                    result = future.result()
                except KilledWorker as e:
                    raise ExecutorError(
                        f"a task was running on each of the workers that died in a row ({e}): "
                        "it may be what kills them (memory?); see the workers' logs"
                    ) from None
                future.release()
                submit(1)
                yield result
        finally:
            if out:
                client.cancel(list(out))
