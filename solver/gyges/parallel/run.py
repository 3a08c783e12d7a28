"""One resumable run: a task over many items on the local pool or Dask, each record
appended to a results file as it arrives, so that the file is the record of what is done.

:func:`run_tasks` is the whole of it in one call::

    summary = run_tasks(task, items, key=..., results=ResultsFile(path, ...),
                        scheduler=None, jobs=None, progress=sys.stderr, log=None, stop=None)

- The results file (:class:`~gyges.parallel.results.ResultsFile`) is checked first: a path
  that cannot be a file is refused, and so is a file holding anything but records of its
  kind, or records made with other parameters (:class:`ResultsFileError`,
  :class:`ParametersError`: file, line, what to do). A last line cut short is mended.
- Items asking what an earlier item asked (the same ``key``) run once; items whose key
  already has a record in the file are skipped.
- The rest go to :func:`~gyges.parallel.open_executor` (``scheduler``, ``jobs``: the local
  pool or Dask; never more local workers than tasks). Each record is appended and flushed
  here, in the client, as it arrives, with Ctrl-C held back for the length of the write:
  every line is whole. ``progress`` draws a bar on a stream; ``watch`` is told of each
  record; ``log`` gets one line per record (the worker and the time it took).
- ``stop(records)``, asked before the first task and after each record, ends the run
  early when it says so (the workers still busy are stopped).
- Ctrl-C or SIGTERM ends the run cleanly: workers stopped, every line written kept, and
  the summary says ``interrupted``. The same run again resumes where it stopped.

The result is a :class:`RunSummary`. Work done in passes (a first pass whose records feed
a second, block by block) runs in one :class:`Batch`: one executor, one log, one Ctrl-C
for all the passes, each pass a :meth:`Batch.run` with its own items, keys and file.

>>> import os, tempfile
>>> path = os.path.join(tempfile.mkdtemp(), "squares.jsonl")
>>> results = ResultsFile(path, "a square", key=lambda r: r["n"])
>>> def square(n):   # a task for more than one job is importable: a module's function
...     return {"n": n, "square": n * n}
>>> s = run_tasks(square, [3, 1, 2, 3], results=results, jobs=1)
>>> (s.done, s.skipped, s.duplicates, s.interrupted), sorted(s.records)
((3, 0, 1, False), [1, 2, 3])
>>> s = run_tasks(square, [1, 2, 3, 4], results=results, jobs=1)
>>> s.done, s.skipped, s.resumed
(1, 3, 3)
>>> open(path).read().splitlines()[-1]
'{"n":4,"square":16}'
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import logging
import os
import socket
import time
import types
from collections.abc import Callable, Hashable, Iterable, Mapping
from typing import Any, TextIO, TypeVar

from gyges.output import check_output, open_append
from gyges.parallel.executor import Executor, open_executor
from gyges.parallel.local import Interrupted, interruptible
from gyges.parallel.logs import log_to
from gyges.parallel.progress import ProgressBar
from gyges.parallel.results import Record, ResultsFile, dumps
from gyges.signals import deferred

__all__ = ["Batch", "RunEvent", "RunSummary", "chunk_size", "run_tasks"]

T = TypeVar("T")

Records = Mapping[Hashable, Record]
_LOG = logging.getLogger("gyges.run")


@dataclasses.dataclass(frozen=True)
class RunEvent:
    """What a run's ``watch`` is told: before the first task (``record`` None), then after
    each new record is written. ``records``: every record known so far, by key (those read
    from the file and those made now); ``done``/``todo``: this run's tasks."""

    record: Record | None
    records: Records
    done: int
    todo: int


@dataclasses.dataclass(frozen=True)
class RunSummary:
    """What a run did.

    ``todo``: the tasks it had to do; ``done``: records it made (written, when there is a
    file); ``skipped``: items whose record was already in the file; ``duplicates``: items
    asking what an earlier item asked (run once); ``resumed``: records found in the file
    (some may answer items not asked this time); ``interrupted``: Ctrl-C or SIGTERM ended
    it; ``stopped``: the stop condition did; ``records``: every record known at the end,
    by key.
    """

    todo: int = 0
    done: int = 0
    skipped: int = 0
    duplicates: int = 0
    resumed: int = 0
    interrupted: bool = False
    stopped: bool = False
    seconds: float = 0.0
    records: Records = dataclasses.field(default_factory=lambda: types.MappingProxyType({}))

    @property
    def complete(self) -> bool:
        """Has every item its record (nothing interrupted, nothing stopped short)?"""
        return not self.interrupted and not self.stopped and self.done == self.todo


def _timed(task: Callable[[Any], Record], numbered: tuple[int, Any]
           ) -> tuple[int, Record, float, str]:
    """A task as a worker runs it: the item's number, its record, the seconds it took and
    where it ran (for the log)."""
    number, item = numbered
    start = time.perf_counter()
    record = task(item)
    return (number, record, time.perf_counter() - start,
            f"{socket.gethostname()} pid {os.getpid()}")


class _Stopped(Exception):
    """The stop condition ended a pass: its executor is left as by an exception, so that
    the tasks still out are stopped rather than waited for."""


@dataclasses.dataclass
class _Tally:
    """A pass's counts as it goes (see :class:`RunSummary`)."""

    todo: int = 0
    done: int = 0
    skipped: int = 0
    duplicates: int = 0
    resumed: int = 0


@dataclasses.dataclass
class _File:
    """A results file a batch reads and appends to: its records by key, its handle."""

    spec: ResultsFile
    records: dict[Hashable, Record]
    handle: TextIO | None = None


class Batch:
    """One executor, one log and one Ctrl-C for one or more passes (:meth:`run`) over
    results files. Use it as a context manager.

    The executor (:func:`~gyges.parallel.open_executor` with ``scheduler`` and ``jobs``)
    opens at the first pass that has work, or at :meth:`executor`. Each results file is
    read once (and mended) at its first use; the passes append to it and see each other's
    records. Ctrl-C or SIGTERM anywhere in the block ends it cleanly: the workers are
    stopped, the block is left, ``interrupted`` is True, and a pass asked for afterwards
    does nothing. Any other exception stops the workers and goes on up.
    """

    def __init__(self, scheduler: str | None = None, jobs: int | None = None, *,
                 log: str | None = None, logger: logging.Logger | None = None) -> None:
        self.scheduler = scheduler
        self.jobs = jobs
        self.log = log
        self.logger = logger if logger is not None else _LOG
        self.interrupted = False
        self._stack: contextlib.ExitStack | None = None
        self._executor: Executor | None = None
        self._executor_stack: contextlib.ExitStack | None = None
        self._files: dict[str, _File] = {}

    def __enter__(self) -> Batch:
        stack = contextlib.ExitStack()
        stack.enter_context(log_to(self.log, self.logger))
        stack.enter_context(interruptible())
        self._stack = stack
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: Any) -> bool:
        stack, self._stack = self._stack, None
        assert stack is not None
        stopping = exc_type is not None and issubclass(exc_type, (KeyboardInterrupt,
                                                                  Interrupted))
        try:
            if stopping:
                self._interrupt()
            else:
                self._close_executor(exc)
        finally:
            for f in self._files.values():
                if f.handle is not None:
                    f.handle.close()
                    f.handle = None
            if stopping:
                stack.close()
            else:
                stack.__exit__(exc_type, exc, tb)
        return stopping

    def executor(self, tasks: int | None = None) -> Executor:
        """The batch's executor, opened at the first call (with ``tasks``, a local pool of
        no more workers than that)."""
        if self._stack is None:
            raise RuntimeError("a Batch is used inside its 'with' block")
        if self._executor is None:
            jobs = self.jobs
            if tasks is not None:
                jobs = max(1, min(jobs or os.cpu_count() or 1, tasks))
            stack = contextlib.ExitStack()
            self._executor = stack.enter_context(open_executor(self.scheduler, jobs))
            self._executor_stack = stack
        return self._executor

    def records(self, results: ResultsFile) -> Records:
        """The records of a results file by key: read (and mended) at the first call, then
        those the passes add."""
        return types.MappingProxyType(self._file(results).records)

    def run(self, task: Callable[[T], Record], items: Iterable[T], *,
            key: Callable[[T], Hashable] | None = None,
            results: ResultsFile | None = None,
            progress: TextIO | None = None, unit: str = "items",
            watch: Callable[[RunEvent], None] | None = None,
            stop: Callable[[Records], bool] | None = None,
            describe: Callable[[Record], str] | None = None,
            chunksize: int | None = 1) -> RunSummary:
        """One pass: ``task(item)`` for each item not yet answered in ``results``.

        ``task`` is pickled for the workers (a module-level function, or a
        ``functools.partial`` of one) and returns the item's record, a JSON object.
        ``key(item)`` says which question an item asks (default: the item itself); with
        ``results``, the record's own key (``results.key``) must be the same. ``unit``
        names the items on the bar and in the log; ``describe(record)`` is the log's text
        for a record (default: its key); ``chunksize`` how many items a local worker takes
        at a time (None: sized to the work, :func:`chunk_size`). See :func:`run_tasks` for the
        rest.
        """
        start = time.perf_counter()
        tally = _Tally()
        known: dict[Hashable, Record] = {}
        interrupted, stopped = self.interrupted, False
        bar = None
        try:
            if not self.interrupted:
                file = self._file(results) if results is not None else None
                known = file.records if file is not None else {}
                tally.resumed = len(known)
                asked: dict[Hashable, T] = {}
                for item in items:
                    k = key(item) if key is not None else item
                    if k in asked:
                        tally.duplicates += 1
                    else:
                        asked[k] = item
                todo = [(k, item) for k, item in asked.items() if k not in known]
                tally.todo, tally.skipped = len(todo), len(asked) - len(todo)
                view = types.MappingProxyType(known)
                settled = stop is not None and stop(view)
                if todo and not settled:
                    self.executor(len(todo))   # a backend out of reach: before any bar
                if watch is not None:
                    watch(RunEvent(None, view, 0, len(todo)))
                if settled:
                    stopped = True
                elif todo:
                    if progress is not None:
                        bar = ProgressBar(len(todo), progress, unit=unit)
                    stopped = self._pass(task, todo, file, known, tally, bar, watch, stop,
                                         describe, unit, chunksize)
        except (KeyboardInterrupt, Interrupted):
            interrupted = True
            self._interrupt()
        finally:
            if bar is not None:
                bar.close()
        return RunSummary(**dataclasses.asdict(tally), interrupted=interrupted,
                          stopped=stopped, seconds=time.perf_counter() - start,
                          records=types.MappingProxyType(dict(known)))

    def _pass(self, task: Callable[[Any], Record], todo: list[tuple[Hashable, Any]],
              file: _File | None, known: dict[Hashable, Record], tally: _Tally,
              bar: ProgressBar | None, watch: Callable[[RunEvent], None] | None,
              stop: Callable[[Records], bool] | None,
              describe: Callable[[Record], str] | None, unit: str,
              chunksize: int | None) -> bool:
        """The tasks of a pass on the executor, each record kept as it arrives; True when
        the stop condition ended it."""
        ex = self.executor(len(todo))
        self.logger.info("%d %s to do (%d already done) on %s", len(todo), unit,
                         tally.skipped, ex.name)
        view = types.MappingProxyType(known)
        size = chunksize if chunksize is not None else chunk_size(len(todo), ex.workers)
        done = ex.map_unordered(functools.partial(_timed, task),
                                enumerate(item for _, item in todo), chunksize=size)
        stopped = False
        try:
            for number, record, seconds, worker in done:
                k = todo[number][0]
                with deferred():   # the line whole, and counted, or neither
                    if file is not None:
                        self._append(file, k, record)
                    known[k] = record
                    tally.done += 1
                self.logger.info("%s: %s in %.3f s", worker,
                                 describe(record) if describe is not None else repr(k), seconds)
                if bar is not None:
                    bar.update()
                if watch is not None:
                    watch(RunEvent(record, view, tally.done, len(todo)))
                if stop is not None and stop(view):
                    stopped = True
                    break
        finally:
            close = getattr(done, "close", None)
            if close is not None:
                close()   # a Dask map cancels the tasks still out
        if stopped:
            self._close_executor(_Stopped())
            self.logger.info("stopped after %d new records: the stop condition is met",
                             tally.done)
        else:
            self.logger.info("%d new records", tally.done)
        return stopped

    def _file(self, results: ResultsFile) -> _File:
        f = self._files.get(results.path)
        if f is None:
            if results.key is None:
                raise ValueError(f"{results.path}: a run's results file says which item "
                                 "each record answers (ResultsFile.key)")
            check_output(results.path, replaceable=True)
            read = results.read(repair=True)
            f = self._files[results.path] = _File(results, read.by_key())
        return f

    @staticmethod
    def _append(file: _File, key: Hashable, record: Record) -> None:
        if file.spec.key is not None and file.spec.key(record) != key:
            raise ValueError(f"a record for {key!r} says it answers "
                             f"{file.spec.key(record)!r}: a resumed run would not find it")
        if file.handle is None:
            file.handle = open_append(file.spec.path)
        file.handle.write(dumps(record) + "\n")
        file.handle.flush()

    def _interrupt(self) -> None:
        if not self.interrupted:
            self.logger.warning("interrupted (Ctrl-C or SIGTERM): every record written is "
                                "kept")
        self.interrupted = True
        with contextlib.suppress(KeyboardInterrupt, Interrupted):
            self._close_executor(Interrupted())

    def _close_executor(self, exc: BaseException | None) -> None:
        """Leave the executor's block: waiting for its workers when the work is done,
        stopping them at once on an exception."""
        stack, self._executor_stack, self._executor = self._executor_stack, None, None
        if stack is None:
            return
        if exc is None:
            stack.close()
        else:
            stack.__exit__(type(exc), exc, exc.__traceback__)


def chunk_size(tasks: int, workers: int) -> int:
    """Items a local worker takes at a time for many quick tasks: about eight chunks per
    worker (fewer hand-overs between the pool and its workers), at most 16 items (a
    chunk's records come back together when the whole chunk is done: small chunks keep
    the file close to what is done), at least 1.

    >>> chunk_size(8100, 2), chunk_size(100, 2), chunk_size(3, 8)
    (16, 6, 1)
    """
    return max(1, min(16, tasks // (8 * workers)))


def run_tasks(task: Callable[[T], Record], items: Iterable[T], *,
              key: Callable[[T], Hashable] | None = None,
              results: ResultsFile | None = None,
              scheduler: str | None = None, jobs: int | None = None,
              progress: TextIO | None = None, unit: str = "items",
              watch: Callable[[RunEvent], None] | None = None,
              stop: Callable[[Records], bool] | None = None,
              log: str | None = None, logger: logging.Logger | None = None,
              describe: Callable[[Record], str] | None = None,
              chunksize: int | None = 1) -> RunSummary:
    """Run ``task`` over ``items`` into the results file ``results``, resumably, and say
    what was done (see the module documentation).

    ``results`` None keeps the records in memory only (``RunSummary.records``).
    ``scheduler``/``jobs`` choose the executor (:func:`~gyges.parallel.open_executor`);
    ``progress`` a stream for a progress bar counting ``unit``; ``watch`` a function told
    of the start and of each record (:class:`RunEvent`); ``stop`` a condition on the
    records known, asked before the first task and after each record; ``log`` a file for
    the log (``logger``'s records, the workers' too). Raises
    :class:`~gyges.parallel.results.ResultsFileError` for a results file it may not
    extend, :class:`~gyges.output.OutputError` for a path that cannot be one, and
    :class:`~gyges.parallel.ExecutorError` for an executor it cannot open, before any task
    runs; a task's exception goes on up once the workers are stopped.
    """
    summary = RunSummary(interrupted=True)
    with Batch(scheduler, jobs, log=log, logger=logger) as batch:
        summary = batch.run(task, items, key=key, results=results, progress=progress,
                            unit=unit, watch=watch, stop=stop, describe=describe,
                            chunksize=chunksize)
    if batch.interrupted and not summary.interrupted:
        summary = dataclasses.replace(summary, interrupted=True)
    return summary
