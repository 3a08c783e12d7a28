"""The one interface for batch work: choose a backend, map a function, get results as
they finish.

>>> import operator, functools
>>> with open_executor(None, jobs=1) as ex:
...     sorted(ex.map_unordered(functools.partial(operator.mul, 3), [1, 2, 3]))
[3, 6, 9]
>>> scheduler_address(None, {"GYGES_SCHEDULER": "tcp://10.0.0.5:8786"})
'tcp://10.0.0.5:8786'
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Protocol, TypeVar

from gyges.parallel.cluster import DaskExecutor, ExecutorError
from gyges.parallel.local import LocalExecutor

__all__ = ["ENV", "Executor", "ExecutorError", "open_executor", "scheduler_address"]

T = TypeVar("T")
R = TypeVar("R")

ENV = "GYGES_SCHEDULER"  #: the environment variable naming a scheduler


class Executor(Protocol):
    """What every backend offers, inside its ``with`` block."""

    @property
    def name(self) -> str:
        """A short description for logs: the backend and its size."""

    @property
    def workers(self) -> int:
        """How many tasks can run at once (to size batches)."""

    def map_unordered(self, func: Callable[[T], R], items: Iterable[T],
                      chunksize: int = 1) -> Iterator[R]:
        """``func(item)`` for each item, results in the order they finish."""

    def __enter__(self) -> Executor: ...

    def __exit__(self, *exc: object) -> bool | None: ...


def scheduler_address(scheduler: str | None, environ: Mapping[str, str] | None = None
                      ) -> str | None:
    """The scheduler asked for: the option, else ``$GYGES_SCHEDULER``, else None (local
    pool). ``""`` and ``none`` mean the local pool even when the variable is set."""
    env = os.environ if environ is None else environ
    value = scheduler if scheduler is not None else env.get(ENV)
    if value is None or value.strip().lower() in ("", "none", "pool"):
        return None
    return value.strip()


def open_executor(scheduler: str | None = None, jobs: int | None = None) -> Executor:
    """The backend for ``scheduler`` (see :func:`scheduler_address`): the local process
    pool of ``jobs`` workers (default every core), ``local`` for a Dask ``LocalCluster`` of
    ``jobs`` workers, or ``tcp://HOST:PORT`` for a running Dask scheduler (its workers are
    its own: ``jobs`` is not used). Enter it with ``with``; an unreachable scheduler raises
    :class:`ExecutorError` there."""
    if jobs is not None and jobs < 1:
        raise ExecutorError(f"{jobs} jobs: give at least 1")
    address = scheduler_address(scheduler)
    if address is None:
        return LocalExecutor(jobs)
    if address.lower() == "local":
        return DaskExecutor("local", jobs)
    return DaskExecutor(address, jobs)
