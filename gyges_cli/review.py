"""``gyges review``: what the solver proves at every move of a game, and the engine's
judgement of it (docs/review.md)."""

from __future__ import annotations

import json
from pathlib import Path

import click

from gyges.engine import Limit
from gyges.formats.quoting import counted
from gyges.formats.record import RecordedTurn, RecordError
from gyges.game.bounds import MAX_MOVES
from gyges.game.rules import RuleRequest, RuleSet
from gyges.parallel import Interrupted, StatusLine
from gyges.puzzles.catalogue import (
    AppendError,
    CatalogueError,
    DuplicateEntry,
    append_entries,
    check_target,
)
from gyges.puzzles.review import (
    BLUNDER,
    DEFAULT_REVIEW_LIMIT,
    INACCURACY,
    MISTAKE,
    GameReview,
    ReviewInterrupted,
    review_game,
)
from gyges_cli.catalogue import appending_error
from gyges_cli.common import (
    EXIT_CHECK_FAILED,
    UserError,
    fail,
    interrupted,
    limit_from_options,
    limit_options,
    rule_options,
    ticking,
)
from gyges_cli.inputs import load_game_input


def _limit(seconds: float | None, depth: int | None, nodes: int | None,
           no_engine: bool) -> Limit | None:
    """The engine's search of each position (None: no engine)."""
    if no_engine:
        if seconds is not None or depth is not None or nodes is not None:
            raise UserError("--no-engine takes no --time, --depth or --nodes")
        return None
    return limit_from_options(seconds, depth, nodes, DEFAULT_REVIEW_LIMIT)


def _show(result: GameReview, as_json: bool) -> None:
    if as_json:
        click.echo(json.dumps(result.to_json(), indent=1))
    else:
        click.echo(result.text(), nl=False)


@click.command("review", short_help="Annotate a game: proven wins kept, missed, thrown away; "
               "the engine's blunders.",
               epilog=f"The engine's marks: the mover's win probability falls by at least "
               f"{100 * INACCURACY:g} points (?!), {100 * MISTAKE:g} (?) or {100 * BLUNDER:g} "
               "(??) from before the move to after it (docs/review.md).")
@click.argument("game_file", metavar="GAME-FILE", type=click.Path(path_type=Path))
@click.option("--max-moves", "-n", default=3, show_default=True, type=click.IntRange(1, MAX_MOVES),
              help="Proofs within this many moves of the winner, at every move.")
@click.option("--json", "as_json", is_flag=True, help="Print the review as JSON.")
@click.option("--puzzles", "puzzles_out", type=click.Path(dir_okay=False, path_type=Path),
              default=None, metavar="FILE.yaml",
              help="Append the positions found (wins missed, the position where the result "
              "became forced) to this catalogue file as new entries.")
@click.option("--start", "start_arg", metavar="POS|FILE", default=None,
              help="The start position, for a record without setups (entries 1 and 2).")
@limit_options("the engine searches a position", DEFAULT_REVIEW_LIMIT)
@click.option("--no-engine", is_flag=True,
              help="Proofs only: no engine judgement (win probabilities, best moves, "
                   "inaccuracies, mistakes, blunders).")
@rule_options
def review(game_file: Path, max_moves: int, as_json: bool, puzzles_out: Path | None,
           start_arg: str | None, seconds: float | None, depth: int | None,
           nodes: int | None, no_engine: bool, rules: RuleSet, rules_given: RuleRequest) -> None:
    """Replay GAME-FILE (a record like seed 000's sample game) and annotate every move
    with what the solver proves within --max-moves: a forced win kept (!), thrown away
    (?, naming the winning move missed), a move that walks into a forced loss (??), a
    resignation in a won position (??), and the ply where the result became forced.

    The engine judges every move too (one search a position, --nodes, --depth or
    --time): the mover's win probability before and after it, the best move when it
    played another, and its marks for a fall in win probability: (?!) inaccuracy,
    (?) mistake, (??) blunder. A proven mark outranks the engine's on the same move.

    A terminal shows the move under review; Ctrl-C prints the moves reviewed so far
    (exit status 130; nothing is added to the --puzzles file).

    \b
    Example:
      gyges review tests/data/sample_game.txt
      gyges review game.txt --max-moves 2 --json
      gyges review game.txt --depth 4
      gyges review tests/data/sample_game.txt --puzzles found.yaml
    """
    limit = _limit(seconds, depth, nodes, no_engine)
    record, start, rules = load_game_input(game_file, start_arg, rules_given)
    if puzzles_out is not None:
        try:
            check_target(puzzles_out)   # before the review's work
        except CatalogueError as e:
            raise UserError(f"{e} (--puzzles)") from None
    status = StatusLine()

    def progress(k: int, n: int, turn: RecordedTurn) -> None:
        status.show(f"reviewing {turn.number} {turn.text} ({k} of {n} moves)")

    result: GameReview | None = None
    try:
        with ticking(status):
            result = review_game(record, rules, max_moves=max_moves, start=start,
                                 limit=limit, progress=progress)
            if puzzles_out is not None:
                status.show("making the puzzles")
            entries = result.puzzle_entries() if puzzles_out is not None else []
    except RecordError as e:
        raise UserError(str(e)) from None
    except ReviewInterrupted as e:
        status.clear()
        _show(e.review, as_json)
        kept = f"; nothing added to {puzzles_out}" if puzzles_out is not None else ""
        interrupted(f"the {counted(len(e.review.moves), 'move')} reviewed before entry "
                    f"{e.review.stopped_at} are printed above{kept}")
    except (KeyboardInterrupt, Interrupted):
        status.clear()
        if result is None:
            interrupted("no review")
        _show(result, as_json)
        interrupted(f"the review is printed above; nothing added to {puzzles_out}")
    finally:
        status.clear()
    refused = None if puzzles_out is None else _store(puzzles_out, entries, game_file)
    stored = puzzles_out is not None and refused is None
    if as_json:
        data = result.to_json()
        if stored:
            data["puzzles"] = {"file": str(puzzles_out), "added": len(entries)}
        click.echo(json.dumps(data, indent=1))
    else:
        click.echo(result.text(), nl=False)
        if stored:
            click.echo(f"added {len(entries)} puzzle{'s' if len(entries) != 1 else ''} to "
                       f"{puzzles_out} (gyges catalogue check {puzzles_out} re-proves them)")
    if refused is not None:      # the review is printed first: the work is not lost
        raise refused
    if result.error is not None:
        fail(EXIT_CHECK_FAILED)


def _store(path: Path, entries: list, game_file: Path) -> UserError | None:
    """The review's puzzles appended to ``path``; the refusal, if they cannot be."""
    try:
        append_entries(path, entries, title=f"Positions from {game_file.name}")
    except DuplicateEntry as e:
        if not e.same_id:
            return UserError(str(e))
        return UserError(f"puzzle {e.entry.id} is already there (line {e.existing.line}), "
                         "from an earlier review: nothing added", str(path))
    except AppendError as e:
        return UserError(appending_error(e))
    except CatalogueError as e:
        return UserError(str(e))
    return None


COMMANDS = [review]
