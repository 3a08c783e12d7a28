"""What every command shares: rule options, clean errors, the exit statuses, Ctrl-C.

Every command ends with one of four exit statuses (the README's table):

=====  ==========================================================================
0      done (the answer may be "no forced win": that is an answer)
1      a check failed: an illegal move in a replayed record, a catalogue entry that
       is not sound, fewer puzzles than ``--count`` found
2      bad input: one line on stderr naming the input and what is wrong, never a
       traceback (:class:`UserError`)
130    interrupted (Ctrl-C or SIGTERM): one line ``gyges: interrupted...`` saying what
       was kept (:func:`interrupted`)
=====  ==========================================================================

The early ends are spelled here: :func:`fail` with a status (and the line to print),
:func:`interrupted` for Ctrl-C, and :class:`UserError`, raised where bad input is found
deep inside a command.
"""

from __future__ import annotations

import contextlib
import functools
import os
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from typing import Any, NoReturn, TypeVar

import click

from gyges.engine.builtin import MAX_NODES, MAX_SEARCH_DEPTH, MAX_SECONDS, EngineError, Limit
from gyges.engine.network import SHIPPED_NETWORK
from gyges.formats.quoting import shorten
from gyges.game.rules import OPTIONS, PRESETS, RuleError, RuleRequest
from gyges.parallel import Interrupted

F = TypeVar("F", bound=Callable[..., Any])

EXIT_OK = 0
EXIT_CHECK_FAILED = 1
EXIT_BAD_INPUT = 2
EXIT_INTERRUPTED = 130


def fail(status: int, message: str = "") -> NoReturn:
    """End the command with exit ``status``, after the line ``gyges: message`` on stderr
    when a message is given (what went wrong; what was printed before says the rest)."""
    if message:
        click.echo(f"gyges: {message}", err=True)
    sys.exit(status)


def interrupted(detail: str = "") -> NoReturn:
    """The common end of an interrupted command: ``gyges: interrupted[: detail]`` on
    stderr and exit status 130. ``detail`` says what was kept and how to resume."""
    fail(EXIT_INTERRUPTED, "interrupted" + (f": {detail}" if detail else ""))


class UserError(click.ClickException):
    """Bad input: printed as ``gyges: <where>: <what is wrong>``, exit status 2."""

    exit_code = EXIT_BAD_INPUT

    def __init__(self, message: str, where: str | None = None) -> None:
        message = f"{where}: {message}" if where else message
        super().__init__(shorten(message))   # a long quote of the input: an excerpt

    def show(self, file: Any = None) -> None:
        click.echo(f"gyges: {self.format_message()}", err=True)


@contextlib.contextmanager
def ticking(status: Any, every: float = 1.0) -> Iterator[None]:
    """Redraw a status line (:class:`gyges.parallel.StatusLine`) every ``every`` seconds
    while the block runs, so that its elapsed time moves through a long stage (the
    search kernel runs without the GIL). Nothing on a stream that is not a terminal."""
    if not getattr(status, "tty", False):
        yield
        return
    stop = threading.Event()

    def tick() -> None:
        while not stop.wait(every):
            if status.text:
                status.show(status.text)

    thread = threading.Thread(target=tick, name="gyges-status", daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join()


class GygesGroup(click.Group):
    """The ``gyges`` command group: a usage error anywhere below it (a missing argument,
    a bad option value, an unknown command) is one line ``gyges: ...; see '<command>
    --help'`` with exit status 2, like every other bad input."""

    @staticmethod
    def _one_line(e: click.UsageError) -> UserError:
        path = e.ctx.command_path if e.ctx is not None else "gyges"
        return UserError(f"{e.format_message().rstrip('.')}; see '{path} --help'")

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        try:
            return super().parse_args(ctx, args)
        except click.exceptions.NoArgsIsHelpError:
            raise
        except click.UsageError as e:
            raise self._one_line(e) from None

    def invoke(self, ctx: click.Context) -> Any:
        main = threading.current_thread() is threading.main_thread()
        old_term = signal.signal(signal.SIGTERM, _terminated) if main else None
        try:
            return super().invoke(ctx)
        except click.exceptions.NoArgsIsHelpError:
            raise
        except click.UsageError as e:
            raise self._one_line(e) from None
        except (KeyboardInterrupt, Interrupted):
            # a command that keeps partial results says so itself; any other just stops
            interrupted()
        finally:
            if main:
                signal.signal(signal.SIGTERM, old_term)


def _terminated(signum: int, frame: Any) -> None:
    """SIGTERM ends a command as Ctrl-C does (exit status 130, what was done is kept)."""
    raise KeyboardInterrupt


def check_jobs(jobs: int | None, option: str = "--jobs") -> int:
    """The worker count to use: ``jobs`` (default: every core), at least 1, and no more
    than the cores (more only slows a run down: capped, with a note on stderr)."""
    cores = os.cpu_count() or 1
    if jobs is None:
        return cores
    if jobs < 1:
        raise UserError(f"{jobs}: use at least one worker", option)
    if jobs > cores:
        click.echo(f"gyges: {option} {jobs}: this machine has {cores} core"
                   f"{'s' if cores != 1 else ''}; using {cores}", err=True)
        return cores
    return jobs


JOBS_HELP = ("Worker processes: 1 up to the machine's cores (more is capped at the cores, "
             "with a note; less than 1 is refused).")


#: --network FILE|linear: the evaluation to search with.
network_option = click.option(
    "--network", default=None, metavar="FILE.json|linear",
    help="The evaluation: a learned one (a file of 'gyges engine-network'), or 'linear' "
         "for the linear evaluation of 30 features (default: "
         + (f"the shipped network {SHIPPED_NETWORK}" if SHIPPED_NETWORK else "linear")
         + "). The win probability is printed on the scale measured for it (a network "
         "file's calibration; 1 where none was measured).")


def jobs_option(default: str = "every core", what: str = "") -> Callable[[F], F]:
    """``--jobs/-j N``, one rule for every command (:func:`check_jobs`, applied as the
    option is read): passes ``jobs``, None when not given (the command's ``default``,
    said in the help). ``what`` says what the workers share, when it is not obvious."""
    def checked(ctx: click.Context, param: click.Parameter, value: int | None) -> int | None:
        return None if value is None else check_jobs(value)

    help_text = (what + " " if what else "") + JOBS_HELP + f"  [default: {default}]"
    return click.option("--jobs", "-j", type=int, default=None, metavar="N",
                        callback=checked, help=help_text)


def rule_options(func: F | None = None, *, from_file: bool = True) -> Any:
    """``--rules PRESET`` and repeatable ``--rule key=value``.

    Passes ``rules`` (the RuleSet they give on their own, pbmserv by default) and
    ``rules_given`` (a :class:`~gyges.game.rules.RuleRequest`, for
    :func:`gyges.game.rules.combine_rules`). Used bare, or as
    ``@rule_options(from_file=False)`` by a command that reads no position file.
    """
    if func is None:
        return functools.partial(rule_options, from_file=from_file)
    default = "the file's preset, else pbmserv" if from_file else "pbmserv"

    @click.option(
        "--rules",
        "preset_name",
        default=None,
        metavar="PRESET",
        help=f"Rule preset: {', '.join(PRESETS)} (default: {default}).",
    )
    @click.option(
        "--rule",
        "overrides",
        multiple=True,
        metavar="KEY=VALUE",
        help="Override one rule option; repeatable. Keys: "
        + "; ".join(f"{k} ({'/'.join(v)})" for k, v in OPTIONS.items())
        + ".",
    )
    @functools.wraps(func)
    def wrapper(*args: Any, preset_name: str | None, overrides: tuple[str, ...], **kwargs: Any):
        if preset_name is not None and not preset_name.strip():
            raise UserError(f"an empty preset name: choose one of {', '.join(PRESETS)}",
                            "--rules")
        try:
            request = RuleRequest.parse(preset_name, overrides)
        except RuleError as e:
            raise UserError(str(e), "--rules/--rule") from None
        kwargs["rules"] = request.rules()
        kwargs["rules_given"] = request
        return func(*args, **kwargs)

    return wrapper


def limit_options(what: str, default: Limit) -> Callable[[F], F]:
    """``--time SECONDS``, ``--depth PLIES`` (1 to
    :data:`~gyges.engine.builtin.MAX_SEARCH_DEPTH`) and ``--nodes N``, one rule for every
    command that searches: the search of ``what`` (``a move``, ``a position``...) stops
    at the first limit reached; ``default`` is the limit when none is given (said in the
    help). Passes ``seconds``, ``depth`` and ``nodes``, None when not given:
    :func:`limit_from_options` makes the limit."""
    def default_text(field: str) -> str:
        value = getattr(default, field)
        if value is None:
            return ""
        shown = f"{value:g}" if field == "time" else f"{value:,}"
        return f"; default {shown} when no limit is given"

    def decorate(func: F) -> F:
        func = click.option(
            "--nodes", type=click.IntRange(1, MAX_NODES), default=None, metavar="N",
            help=f"Nodes {what} (deterministic{default_text('nodes')}).")(func)
        func = click.option(
            "--depth", type=click.IntRange(1, MAX_SEARCH_DEPTH), default=None, metavar="PLIES",
            help=f"Plies {what} (deterministic{default_text('depth')}).")(func)
        return click.option(
            "--time", "seconds", type=click.FloatRange(0, MAX_SECONDS, min_open=True),
            default=None,
            metavar="SECONDS",
            help=f"Seconds {what} (the search then depends on the machine's "
                 f"speed{default_text('time')}).")(func)
    return decorate


def limit_from_options(seconds: float | None, depth: int | None, nodes: int | None,
                       default: Limit) -> Limit:
    """The limit of :func:`limit_options`' values: ``default`` when none is given."""
    if seconds is None and depth is None and nodes is None:
        return default
    try:
        return Limit(time=seconds, depth=depth, nodes=nodes)
    except EngineError as e:
        raise UserError(str(e), "--time/--depth/--nodes") from None
