"""``gyges review``: what the solver proves at every move of a game (docs/review.md)."""

from __future__ import annotations

import json
from pathlib import Path

import click

from gyges.formats.record import RecordError
from gyges.game.rules import RuleRequest, RuleSet
from gyges.parallel import Interrupted
from gyges.puzzles.catalogue import (
    AppendError,
    CatalogueError,
    DuplicateEntry,
    append_entries,
    check_target,
)
from gyges.puzzles.review import review_game
from gyges_cli.catalogue import appending_error
from gyges_cli.common import EXIT_CHECK_FAILED, UserError, fail, interrupted, rule_options
from gyges_cli.inputs import load_game


@click.command("review", short_help="Annotate a game: wins kept, missed, thrown away.")
@click.argument("game_file", metavar="GAME-FILE", type=click.Path(path_type=Path))
@click.option("--max-moves", "-n", default=3, show_default=True, type=click.IntRange(1, 30),
              help="Proofs within this many moves of the winner, at every move.")
@click.option("--json", "as_json", is_flag=True, help="Print the review as JSON.")
@click.option("--puzzles", "puzzles_out", type=click.Path(dir_okay=False, path_type=Path),
              default=None, metavar="FILE.yaml",
              help="Append the positions found (wins missed, the position where the result "
              "became forced) to this catalogue file as new entries.")
@click.option("--start", "start_arg", metavar="POS|FILE", default=None,
              help="The start position, for a record without setups (entries 1 and 2).")
@rule_options
def review(game_file: Path, max_moves: int, as_json: bool, puzzles_out: Path | None,
           start_arg: str | None, rules: RuleSet, rules_given: RuleRequest) -> None:
    """Replay GAME-FILE (a record like seed 000's sample game) and annotate every move
    with what the solver proves within --max-moves: a forced win kept (!), thrown away
    (?, naming the winning move missed), a move that walks into a forced loss (??), a
    resignation in a won position (??), and the ply where the result became forced.

    \b
    Example:
      gyges review tests/data/sample_game.txt
      gyges review game.txt --max-moves 2 --json
      gyges review tests/data/sample_game.txt --puzzles found.yaml
    """
    record, start, rules = load_game(game_file, start_arg, rules_given)
    if puzzles_out is not None:
        try:
            check_target(puzzles_out)   # before the review's work
        except CatalogueError as e:
            raise UserError(f"{e} (--puzzles)") from None
    try:
        result = review_game(record, rules, max_moves=max_moves, start=start)
        entries = result.puzzle_entries() if puzzles_out is not None else []
    except RecordError as e:
        raise UserError(str(e)) from None
    except (KeyboardInterrupt, Interrupted):
        interrupted("no review")
    if puzzles_out is not None:
        try:
            append_entries(puzzles_out, entries, title=f"Positions from {game_file.name}")
        except DuplicateEntry as e:
            if not e.same_id:
                raise UserError(str(e)) from None
            raise UserError(f"puzzle {e.entry.id} is already there (line {e.existing.line}), "
                            "from an earlier review: nothing added", str(puzzles_out)) from None
        except AppendError as e:
            raise UserError(appending_error(e)) from None
        except CatalogueError as e:
            raise UserError(str(e)) from None
    if as_json:
        data = result.to_json()
        if puzzles_out is not None:
            data["puzzles"] = {"file": str(puzzles_out), "added": len(entries)}
        click.echo(json.dumps(data, indent=1))
    else:
        click.echo(result.text(), nl=False)
        if puzzles_out is not None:
            click.echo(f"added {len(entries)} puzzle{'s' if len(entries) != 1 else ''} to "
                       f"{puzzles_out} (gyges catalogue check {puzzles_out} re-proves them)")
    if result.error is not None:
        fail(EXIT_CHECK_FAILED)


COMMANDS = [review]
