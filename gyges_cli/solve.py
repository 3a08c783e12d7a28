"""``gyges solve``: prove the shortest forced win of a position (docs/solver.md), or of
every position of a position list (docs/solver.md, "Solving many positions")."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable

import click

from gyges.formats.inputs import Positions
from gyges.game.bounds import MAX_MOVES
from gyges.game.rules import RuleRequest, RuleSet, combine_rules
from gyges.parallel import Interrupted, StatusLine
from gyges.search import DUALS_UP_TO, PROVERS, SolveProgress
from gyges.search import solve as run_solve
from gyges_cli.batch import executor_errors, run_errors, scheduler_option
from gyges_cli.common import (
    UserError,
    interrupted,
    jobs_option,
    rule_options,
    ticking,
)
from gyges_cli.inputs import load_inputs


@click.command("solve")
@click.argument("source", metavar="POS|FILE")
@click.option("--max-moves", "-n", default=None, type=click.IntRange(1, MAX_MOVES),
              help=f"Bound N: look for wins of at most N moves of the winner (1..{MAX_MOVES}).  "
                   "[default: 3; a list's max-moves= wins]")
@click.option("--json", "as_json", is_flag=True,
              help="Print the solution as JSON (a list: one JSON line per position).")
@click.option("--tries", is_flag=True,
              help="Also list the winner's first moves that fail with the fewest refutations.")
@jobs_option(default="1 for one position, every core for a list",
             what="One position: its deep searches split across processes (first moves, "
                  "and replies), with the same answer as one process. A list: its "
                  "positions shared among workers.")
@click.option("--duals", default=DUALS_UP_TO, show_default=True, type=int, metavar="M",
              help="List every winning continuation (duals) where the winner has at most M "
                   "moves left; above that the tree shows one. The key and its cooks are "
                   "always all listed. Larger M costs a full search per winner node.")
@click.option("--prover", default="auto", show_default=True, type=click.Choice(PROVERS),
              help="Which prover answers the questions: dfpn (proof-number search), "
                   "alphabeta (the depth-first kernel), or auto (dfpn from -n 4 on, where it "
                   "is much faster; alphabeta below, where it is a little faster). Both are "
                   "exact and independent: the same answer either way, a cross-check.")
@click.option("--out", default=None, metavar="FILE.jsonl",
              help="Position list: write one JSON line per position here; rerun with it to "
                   "resume.")
@click.option("--strict", is_flag=True,
              help="Position list: refuse the file if any line is bad (default: report and "
                   "skip it).")
@click.option("--tree", is_flag=True,
              help="Position list: also store each solution tree and main line.")
@scheduler_option
@click.option("--log", default=None, metavar="FILE",
              help="Position list: a log file, one line per position (worker, time).")
@click.option("--quiet", "-q", is_flag=True, help="Position list: no progress bar.")
@rule_options
@executor_errors
def solve(source: str, max_moves: int | None, as_json: bool, tries: bool, jobs: int | None,
          duals: int, prover: str, out: str | None, strict: bool, tree: bool, scheduler: str | None,
          log: str | None, quiet: bool, rules: RuleSet, rules_given: RuleRequest) -> None:
    """Prove a forced win: "wins in k", "loses in k" or no forced result within N.

    k counts the winner's moves (a move made while the opponent is blocked counts). The
    output gives the key move(s) (several: a cook), the threat, every defence with the
    winner's replies down to the landing (duals marked), and search statistics.
    Under --rule win=unstoppable a landing available now is reported as stoppable unless
    the file's ``previous:`` position shows the opponent could not have avoided it.
    On a terminal a status line shows the stage and the time; Ctrl-C says what was proven.

    A FILE of many positions (one position string per line, with optional # comments and
    rules=/max-moves= overrides, or a YAML list of entries) is solved position by position
    on a process pool or a Dask cluster (--scheduler): a table of results, and with --out
    one JSON line per position, resumable.

    \b
    Examples:
      gyges solve tests/data/positions/bouncing.yaml -n 1
      gyges solve "321123/....../....../....../....../231123 S" -n 3 --json
      gyges solve puzzle.yaml -n 4 --tries --jobs 2
      gyges solve positions.txt --out results.jsonl --jobs 2
    """
    given = load_inputs(source)
    if given.is_list or out is not None:
        _solve_list(given, max_moves or 3, as_json, tries, jobs, duals, prover, out, strict,
                    tree, scheduler, log, quiet, rules_given)
        return
    if tree:
        raise UserError("is for a position list, whose records then hold each solution "
                        "tree (give --out FILE.jsonl for one position); one position's "
                        "solution always shows its tree", "--tree")
    max_moves = 3 if max_moves is None else max_moves
    jobs = 1 if jobs is None else jobs
    loaded = given.entries[0]
    rules = combine_rules(loaded.rules, rules_given)
    if duals < 0:
        raise UserError(f"must be 0 or more, not {duals}", "--duals")
    nodes = [lambda: 0]      # the prover's node counter, once it has one

    def watch(counter: Callable[[], int]) -> None:
        nodes[0] = counter

    status = StatusLine(sys.stderr, extra=lambda: f"{nodes[0]():,} nodes")
    last: list[SolveProgress] = []      # the solver's last event

    def note(event: SolveProgress) -> None:
        last[:] = [event]
        done = event.proven()
        status.show(f"{event} ({done})" if done else str(event))

    try:
        with ticking(status):
            solution = run_solve(loaded.position, rules, max_moves, loaded.history,
                                 tries=tries, jobs=jobs, previous=loaded.previous,
                                 duals=duals, progress=note, watch=watch, prover=prover)
    except ValueError as e:
        raise UserError(str(e), source) from None
    except (KeyboardInterrupt, Interrupted):
        status.clear()
        event = last[0] if last else None
        if event is not None and not event.searching:
            said = f"a forced result in {event.depth} was found; the solution was not complete"
        else:
            done = event.proven() if event is not None else ""
            said = f"{done} (proven)" if done else "nothing proven yet"
        interrupted(f"{event or 'starting'}: {said}")
    finally:
        status.clear()
    if as_json:
        click.echo(json.dumps(solution.to_json(), indent=1))
    else:
        click.echo(solution.text())


def _solve_list(given: Positions, max_moves: int, as_json: bool, tries: bool,
                jobs: int | None, duals: int, prover: str, out: str | None, strict: bool,
                tree: bool, scheduler: str | None, log: str | None, quiet: bool,
                rules_given: RuleRequest) -> None:
    """``gyges solve FILE`` for a position list (or one position with ``--out``): the bad
    lines reported, then the library's list pipeline (:func:`gyges.search.batch.solve_file`)."""
    import functools

    from gyges.search.batch import SolveListError, solve_file

    for problem in given.bad:
        click.echo(f"gyges: {problem}" + ("" if strict else " (line skipped)"), err=True)
    try:
        with run_errors("--out"):
            solved = solve_file(
                given, out, strict=strict, max_moves=max_moves,
                rules_for=functools.partial(combine_rules, request=rules_given),
                tree=tree, tries=tries, duals=duals, prover=prover, scheduler=scheduler,
                jobs=jobs, log=log, progress=None if quiet else sys.stderr)
    except SolveListError as e:
        raise UserError(e.problem + (" (--strict)" if e.bad else ""), e.source) from None
    except OSError as e:
        raise UserError(e.strerror or str(e), e.filename or out) from None
    for text in solved.json_lines() if as_json else [solved.table()]:
        click.echo(text)
    if solved.notes():
        click.echo(f"gyges: {'; '.join(solved.notes())}", err=True)
    if solved.interrupted:
        interrupted(f"{solved.run.done} new results " + (
            f"kept in {out}; rerun the same command to resume" if out is not None
            else "give --out FILE.jsonl to keep results across runs"))


COMMANDS = [solve]
