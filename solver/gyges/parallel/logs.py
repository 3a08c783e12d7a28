"""One log file for a run: the client's records and the forked local workers' records."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Iterator

from gyges.output import OutputError, check_output
from gyges.parallel.local import Interrupted

__all__ = ["LogFileError", "log_to"]


class LogFileError(OutputError):
    """A log file that cannot be written (a directory, a folder that cannot be written)."""


@contextlib.contextmanager
def log_to(path: str | None, logger: logging.Logger) -> Iterator[None]:
    """Send ``logger``'s records (INFO and up), the forked workers' too, to the file ``path``.

    With ``path`` None the records go nowhere (the logger does not propagate). The path
    is checked first (:class:`LogFileError`); the file is made at the first record, so a
    run that fails before its work (a scheduler out of reach) leaves no empty log.
    """
    logger.setLevel(logging.INFO)
    logger.propagate = False
    if not logger.handlers:  # without a file, records go nowhere (not to logging's last
        logger.addHandler(logging.NullHandler())  # resort, stderr)
    handler = None
    if path is not None:
        import multiprocessing_logging

        try:
            check_output(path, replaceable=True)   # a log is appended to
        except OutputError as e:
            raise LogFileError(e.problem, e.path) from None
        handler = logging.FileHandler(path, encoding="utf-8", delay=True)
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(message)s"))
        logger.addHandler(handler)
        multiprocessing_logging.install_mp_handler(logger)
    try:
        yield
    except Interrupted:
        logger.warning("interrupted (Ctrl-C or SIGTERM): the results written so far are kept")
        raise
    finally:
        if handler is not None:
            for h in list(logger.handlers):
                logger.removeHandler(h)
                h.close()
        if not logger.handlers:  # records after the run go nowhere too
            logger.addHandler(logging.NullHandler())
