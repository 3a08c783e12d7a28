"""``gyges solve``: prove the shortest forced win of a position (docs/solver.md)."""

from __future__ import annotations

import json
import sys

import click

from gyges_cli.common import UserError, combine_rules, interrupted, rule_options, ticking
from gyges_cli.inputs import load_input
from solver.game.rules import RuleSet
from solver.parallel import Interrupted, StatusLine
from solver.search.prover import DUALS_UP_TO
from solver.search.prover import solve as run_solve


@click.command("solve")
@click.argument("source", metavar="POS|FILE")
@click.option("--max-moves", "-n", default=3, show_default=True,
              type=click.IntRange(1, 30),
              help="Bound N: look for wins of at most N moves of the winner (1..30).")
@click.option("--json", "as_json", is_flag=True, help="Print the solution as JSON.")
@click.option("--tries", is_flag=True,
              help="Also list the winner's first moves that fail with the fewest refutations.")
@click.option("--jobs", "-j", default=1, show_default=True, type=int,
              help="Processes for the cook search (every first move checked once the "
                   "least k is known: often the longest part). The proof itself runs in one.")
@click.option("--duals", default=DUALS_UP_TO, show_default=True, type=int, metavar="M",
              help="List every winning continuation (duals) where the winner has at most M "
                   "moves left; above that the tree shows one. The key and its cooks are "
                   "always all listed. Larger M costs a full search per winner node.")
@rule_options
def solve(source: str, max_moves: int, as_json: bool, tries: bool, jobs: int, duals: int,
          rules: RuleSet, rules_given: bool) -> None:
    """Prove a forced win: "wins in k", "loses in k" or no forced result within N.

    k counts the winner's moves (a move made while the opponent is blocked counts). The
    output gives the key move(s) (several: a cook), the threat, every defence with the
    winner's replies down to the landing (duals marked), and search statistics.
    Under --rule win=unstoppable a landing available now is reported as stoppable unless
    the file's ``previous:`` position shows the opponent could not have avoided it.
    On a terminal a status line shows the stage and the time; Ctrl-C says what was proven.

    \b
    Examples:
      gyges solve tests/data/positions/bouncing.yaml -n 1
      gyges solve "321123/....../....../....../....../231123 S" -n 3 --json
      gyges solve puzzle.yaml -n 4 --tries --jobs 2
    """
    loaded = load_input(source)
    rules = combine_rules(loaded.rules, rules, rules_given)
    if jobs < 1:
        raise UserError(f"must be at least 1, not {jobs}", "--jobs")
    if duals < 0:
        raise UserError(f"must be 0 or more, not {duals}", "--duals")
    status = StatusLine(sys.stderr)
    depths: list[int] = []   # the bounds searched, for what a Ctrl-C leaves proven

    stage = [""]             # the prover's last note

    def note(text: str) -> None:
        shown = text
        if text.startswith("searching for a win in "):
            depths.append(int(text.rsplit(" ", 1)[1]))
            if depths[-1] > 1:   # the bound proven so far, on the status line too
                shown = f"{text} (none within {depths[-1] - 1} for either side)"
        stage[0] = text
        status.show(shown)

    try:
        with ticking(status):
            solution = run_solve(loaded.position, rules, max_moves, loaded.history,
                                 tries=tries, jobs=jobs, previous=loaded.previous,
                                 duals=duals, progress=note)
    except ValueError as e:
        raise UserError(str(e), source) from None
    except (KeyboardInterrupt, Interrupted):
        status.clear()
        if not depths or stage[0].startswith("searching") and depths[-1] == 1:
            proven = "nothing proven yet"
        elif stage[0].startswith("searching"):
            proven = f"no forced win for either side within {depths[-1] - 1} (proven)"
        else:
            proven = (f"a forced result in {depths[-1]} was found; the solution was not "
                      "complete")
        interrupted(f"{stage[0] or 'starting'}: {proven}")
    finally:
        status.clear()
    if as_json:
        click.echo(json.dumps(solution.to_json(), indent=1))
    else:
        click.echo(solution.text())


COMMANDS = [solve]
