"""What the batch commands share: ``--scheduler`` and ``--jobs``, the run's errors.

The batch commands (``solve FILE``, ``setups analyze``, ``generate``) run on the local
process pool by default, or on Dask distributed with ``--scheduler tcp://HOST:PORT``
(``$GYGES_SCHEDULER``) or ``--scheduler local`` (docs/batch.md). The library's run names
no option in its errors; :func:`run_errors` words them with the command's options.
"""

from __future__ import annotations

import contextlib
import functools
import os
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

import click

from gyges.formats.quoting import counted
from gyges.output import OutputError
from gyges.parallel import (
    ExecutorError,
    LogFileError,
    ParametersError,
    ResultsFileError,
    RunSummary,
)
from gyges_cli.common import UserError, interrupted

F = TypeVar("F", bound=Callable[..., Any])

SCHEDULER_HELP = (
    "Where the work runs: a Dask scheduler's tcp://HOST:PORT, 'local' for a Dask "
    "LocalCluster of --jobs workers here (default: $GYGES_SCHEDULER, else a local process "
    "pool of --jobs workers)."
)


def scheduler_option(func: F) -> F:
    """``--scheduler ADDRESS``: passes ``scheduler`` (None when not given: the library then
    reads ``$GYGES_SCHEDULER``)."""
    return click.option("--scheduler", default=None, metavar="tcp://HOST:PORT|local",
                        help=SCHEDULER_HELP)(func)


@contextlib.contextmanager
def run_errors(out: str = "--out") -> Iterator[None]:
    """A batch run's errors inside the block as one line each, exit status 2: an executor
    that cannot be used (``--scheduler``), a results file made with other parameters (or
    choose another ``out``), a line that is not a record, an output path that cannot be a
    file (``out``, or ``--log``)."""
    try:
        yield
    except ExecutorError as e:
        raise UserError(str(e), "--scheduler") from None
    except ParametersError as e:
        raise UserError(f"{e}, or choose another {out}") from None
    except ResultsFileError as e:
        raise UserError(str(e)) from None
    except LogFileError as e:
        raise UserError(f"{e} (--log)") from None
    except OutputError as e:
        raise UserError(f"{e} ({out})") from None


def executor_errors(func: F) -> F:
    """A command whose executor problems (an unreachable scheduler...) and other run
    errors are one line each, exit status 2 (:func:`run_errors` around its body)."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        with run_errors():
            return func(*args, **kwargs)

    return wrapper  # type: ignore[return-value]


def last_words(summary: RunSummary, out: str, kept: str, noun: str, verb: str) -> None:
    """A run's end: after Ctrl-C, what it kept (exit status 130); else how many it did and
    how many were already in ``out``."""
    if summary.interrupted:
        if summary.done == 0 and not os.path.exists(out):
            interrupted(f"nothing kept: no {noun} {verb} yet; {out} was not written")
        interrupted(f"{summary.done} new {kept} kept in {out}; rerun the same command "
                    "to resume")
    click.echo(f"{counted(summary.done, noun)} {verb}, {summary.skipped} already in {out}",
               err=True)
