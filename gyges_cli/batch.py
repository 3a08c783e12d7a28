"""What the batch commands share: ``--scheduler`` and ``--jobs``, the executor's errors.

The batch commands (``solve FILE``, ``setups analyze``, ``generate``) run on the local
process pool by default, or on Dask distributed with ``--scheduler tcp://HOST:PORT``
(``$GYGES_SCHEDULER``) or ``--scheduler local`` (docs/setups.md, "Running on a cluster").
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar

import click

from gyges_cli.common import UserError

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


def executor_errors(func: F) -> F:
    """An unreachable scheduler (or any other executor problem) as one line, exit 2."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        from gyges.parallel import ExecutorError

        try:
            return func(*args, **kwargs)
        except ExecutorError as e:
            raise UserError(str(e), "--scheduler") from None

    return wrapper  # type: ignore[return-value]
