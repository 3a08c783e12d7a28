"""Long runs over many items: one executor interface, two backends, progress and logs.

Everything here is a leaf: it knows nothing of the game. The batch jobs (setup analysis,
solving position files, puzzle generation) hand a module-level function and its items to
an executor and write each result as it comes back, so their output file is the single
record of what is done:

- :func:`open_executor` picks the backend: the local process pool (default; ``--jobs``
  forked workers, :class:`LocalExecutor`) or Dask distributed (``--scheduler
  tcp://HOST:PORT``, ``$GYGES_SCHEDULER``, or ``local`` for a LocalCluster here;
  :class:`DaskExecutor`, in ``cluster``). Both map a function over items and yield
  results as they finish.
- Ctrl-C or SIGTERM inside an executor's ``with`` block raise :class:`Interrupted`; the
  workers are stopped (local) or the tasks cancelled (Dask), and whatever the caller wrote
  stays written.
- :func:`worker_pool` is the local pool with a per-worker initialiser and fork-inherited
  memory, for work that cannot be pickled (the solver's cook search); :func:`forked_call`
  one call in a forked process of its own (the solver's opponent questions).
- :func:`run_tasks` is the resumable run every batch job uses: a task over items, each record
  appended to a results file (:class:`ResultsFile`) as it arrives, items already there
  skipped, Ctrl-C a clean stop, a :class:`RunSummary` at the end; :class:`Batch` holds
  one executor for a run in several passes.
- :class:`ResultsFile` reads a results file back: records with their line numbers, a last
  line cut short mended, bad lines and other parameters refused by file and line.
- :class:`ProgressBar` draws a one-line bar with a rate and the time left; :class:`StatusLine`
  a status for one long search; :func:`log_to` sends a logger's records into one file.
"""

from gyges.parallel.cluster import DaskExecutor, ExecutorError
from gyges.parallel.executor import ENV, Executor, open_executor, scheduler_address
from gyges.parallel.local import (
    ForkedCall,
    Interrupted,
    LocalExecutor,
    Runner,
    forked_call,
    interruptible,
    worker_pool,
)
from gyges.parallel.logs import LogFileError, log_to
from gyges.parallel.progress import ProgressBar, StatusLine, duration
from gyges.parallel.results import (
    ParametersError,
    Results,
    ResultsFile,
    ResultsFileError,
    ResultsLine,
    dumps,
    first_record,
)
from gyges.parallel.run import Batch, RunEvent, RunSummary, run_tasks

__all__ = [
    "ENV", "Batch", "DaskExecutor", "Executor", "ExecutorError", "ForkedCall", "Interrupted",
    "LocalExecutor", "LogFileError", "ParametersError", "ProgressBar", "Results", "ResultsFile",
    "ResultsFileError", "ResultsLine", "RunEvent", "RunSummary", "Runner", "StatusLine", "dumps",
    "duration", "first_record", "forked_call", "interruptible", "log_to", "open_executor",
    "run_tasks", "scheduler_address", "worker_pool",
]
