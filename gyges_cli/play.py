"""Commands that look at positions and play moves: show, moves, perft, replay."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from gyges.formats.diagram import format_diagram
from gyges.formats.movelist import move_list_to_json
from gyges.formats.posfile import PositionFile
from gyges.formats.record import RecordError
from gyges.formats.record import replay as replay_record
from gyges.game.bounds import MAX_PERFT_DEPTH
from gyges.game.movecount import Perft, perft_depth
from gyges.game.moves import Move, MoveList, apply_move, can_land, legal_moves
from gyges.game.position import Position
from gyges.game.rules import Blocked, RuleRequest, RuleSet, Side, combine_rules
from gyges.game.squares import row_of
from gyges.parallel import StatusLine
from gyges_cli.common import EXIT_CHECK_FAILED, UserError, fail, interrupted, rule_options, ticking
from gyges_cli.inputs import load_game_input, load_input


def _rules_line(rules: RuleSet, given: RuleRequest | None = None) -> str:
    """The rules' name and options; what the user asked for first when that is a preset
    with overrides that happen to equal another preset (``dorbec`` with ``replace=off``)."""
    name = rules.name
    if given is not None and given.preset and given.overrides \
            and name not in (given.preset, "custom"):
        asked = " ".join(f"{k}={v}" for k, v in given.overrides)
        name = f"{given.preset} with {asked} (= {name})"
    return f"{name} ({rules.describe()})"


def _goal_name(side: Side) -> str:
    """The goal a side wins on: the opponent's."""
    return f"{side.other.title}'s goal"


def _move_list(pf: PositionFile, rules: RuleSet) -> MoveList:
    try:
        return legal_moves(pf.position, rules, pf.history)
    except ValueError as e:  # pragma: no cover - positions are validated when read
        raise UserError(str(e), pf.source) from None


def _result(move: Move, position: Position) -> Position | None:
    return None if move.is_win else apply_move(position, move)


# -- show ----------------------------------------------------------------------------------


@click.command(short_help="Show a diagram, shores, side to move, threats.")
@click.argument("pos", metavar="POS|FILE")
@rule_options
def show(pos: str, rules: RuleSet, rules_given: RuleRequest) -> None:
    """Show a position: its diagram, both shores, whose move it is and what that side can do.

    POS|FILE is a position string (row 6 first, rows joined by '/', then S or N), a YAML
    position file or a text diagram file. A file's rules apply unless --rules/--rule are
    given.

    \b
    Example:
      gyges show "321123/....../....../....../....../231123 S"
      gyges show tests/data/positions/bouncing.yaml --rules dorbec
    """
    pf = load_input(pos)
    rules = combine_rules(pf.rules, rules_given)
    p = pf.position
    moves = _move_list(pf, rules)
    click.echo(format_diagram(p, coordinates=True, shores=True))
    click.echo()
    click.echo(f"position: {p}")
    click.echo(f"rules:    {_rules_line(rules, rules_given)}")
    click.echo(f"shores:   South's row {p.shore(Side.SOUTH)}, North's row {p.shore(Side.NORTH)}")
    if pf.history:
        click.echo(f"history:  {len(pf.history)} earlier position"
                   f"{'s' if len(pf.history) != 1 else ''} (Renop law)")
    if pf.previous is not None:
        click.echo(f"previous: {pf.previous}")
    side = p.turn
    stuck_rows = sorted({row_of(m.start) for m in moves} - {p.shore(side)})
    if not moves.blocked and stuck_rows and rules.blocked == Blocked.NEXT_ROW:
        click.echo(f"{side.title} to move: the shore rings have no legal move, so the rings of "
                   f"row {stuck_rows[0]} move ({len(moves)} legal moves)")
    elif not moves.blocked:
        click.echo(f"{side.title} to move: {len(moves)} legal moves, not blocked")
    elif moves.moves:
        click.echo(f"{side.title} to move is blocked (no legal move): "
                   f"{moves.mover.title} moves again ({len(moves)} moves)")
    else:
        click.echo(f"{side.title} to move is blocked (no legal move): the game is drawn")
    if can_land(p, rules, pf.history):
        wins = len([m for m in moves.wins if m.side is side])
        click.echo(f"{side.title} can land on {_goal_name(side)} now "
                   f"({wins} winning move{'s' if wins != 1 else ''})")
    else:
        click.echo(f"{side.title} cannot land on {_goal_name(side)} now")


# -- moves ---------------------------------------------------------------------------------


@click.command(short_help="List the legal moves of a position (text or JSON).")
@click.argument("pos", metavar="POS|FILE")
@click.option("--json", "as_json", is_flag=True,
              help="Print JSON: {position, mover, blocked, moves: [{notation, result, win}]}.")
@rule_options
def moves(pos: str, as_json: bool, rules: RuleSet, rules_given: RuleRequest) -> None:
    """List the legal moves of a position, one per distinct resulting position.

    Each move is given in pbmserv notation with the position it leads to (the other side
    to move); a move landing on the opponent's goal is marked WIN. When the side to move
    is blocked under blocked=pass, the opponent's moves are listed (see "mover").

    \b
    Example:
      gyges moves "321123/....../....../....../....../231123 S"
      gyges moves tests/data/positions/bouncing.yaml --json
    """
    pf = load_input(pos)
    rules = combine_rules(pf.rules, rules_given)
    p = pf.position
    ml = _move_list(pf, rules)
    if as_json:
        click.echo(json.dumps(move_list_to_json(ml), indent=1))
        return
    click.echo(f"position: {p}")
    click.echo(f"rules:    {_rules_line(rules, rules_given)}")
    if ml.blocked:
        if ml.moves:
            click.echo(f"{p.turn.title} is blocked: {ml.mover.title} moves again")
        else:
            click.echo(f"{p.turn.title} is blocked and no one can move: the game is drawn")
    width = max((len(str(m)) for m in ml), default=0)
    for m in ml:
        if m.is_win:
            click.echo(f"  {str(m):<{width}}  WIN ({ml.mover.title} lands on "
                       f"{_goal_name(ml.mover)})")
        else:
            click.echo(f"  {str(m):<{width}}  {_result(m, p)}")
    replaces = sum(1 for m in ml if m.is_replace)
    click.echo(f"{len(ml)} moves for {ml.mover.title}: {replaces} replaces, "
               f"{len(ml.wins)} wins")


# -- perft ---------------------------------------------------------------------------------


@click.command(short_help="Count move sequences per depth, with time and nodes/s.")
@click.argument("pos", metavar="POS|FILE")
@click.option("--depth", "-d", type=click.IntRange(1, MAX_PERFT_DEPTH), required=True,
              help="Count move sequences of 1, 2, ... up to this many moves.")
@click.option("--json", "as_json", is_flag=True,
              help="Print JSON: {position, preset, rules: {option: value}, depths: [{depth, "
                   "nodes, seconds, nodes_per_second}]}.")
@rule_options
def perft(pos: str, depth: int, as_json: bool, rules: RuleSet, rules_given: RuleRequest) -> None:
    """Count the move sequences of each length from a position (a move generator test).

    At each node the moves are its distinct resulting positions, plus one goal landing per
    ring that can land (a landing ends its line). For every depth 1..D this prints the
    number of sequences (nodes), the time taken and nodes per second. The history of a
    position file applies (Renop law). On a terminal a status line shows the depth being
    counted and the time; Ctrl-C stops it (exit status 130) after the depths done.

    \b
    Example:
      gyges perft "321123/....../....../....../....../231123 S" --depth 2
      gyges perft tests/data/positions/bouncing.yaml -d 3 --rules dorbec --json
    """
    pf = load_input(pos)
    rules = combine_rules(pf.rules, rules_given)
    p = pf.position
    rows = []
    if not as_json:
        click.echo(f"perft from {p} under {_rules_line(rules, rules_given)}")
        click.echo(f"{'depth':>5} {'nodes':>16} {'seconds':>10} {'nodes/s':>14}")
    status = StatusLine(sys.stderr)
    for d in range(1, depth + 1):
        status.show(f"perft: counting depth {d}")
        try:
            with ticking(status):
                row = perft_depth(p, rules, d, pf.history)
        except KeyboardInterrupt:
            status.clear()
            interrupted(f"depth {d} not finished")
        status.clear()
        rows.append(row)
        if not as_json:
            rate = row.nodes_per_second
            shown = f"{rate:,.0f}" if rate is not None else "-"
            click.echo(f"{d:>5} {row.nodes:>16,} {row.seconds:>10.3f} {shown:>14}")
    if as_json:
        click.echo(json.dumps(Perft(p, rules, tuple(rows)).to_json(), indent=1))


# -- replay --------------------------------------------------------------------------------


@click.command(short_help="Replay a game record, checking every move.")
@click.argument("game_file", metavar="GAME-FILE", type=click.Path(path_type=Path))
@click.option("--quiet", "-q", is_flag=True, help="Print only the verdict, not every move.")
@click.option("--start", "start_arg", metavar="POS|FILE", default=None,
              help="The start position, for a record without setups (entries 1 and 2).")
@rule_options
def replay(game_file: Path, quiet: bool, start_arg: str | None, rules: RuleSet,
           rules_given: RuleRequest) -> None:
    """Replay a game record, checking every move, and say who won.

    A record is written like seed 000's sample game: the header 'South North', then
    numbered entries two to a line (setups 1 and 2 first, then one turn each; a turn
    played on while the opponent is blocked joins its moves with '; '), and possibly
    'Resign'. Each turn is printed with the diagram after it. Exit status 0 when every
    move is legal, 1 at the first illegal move (with its number, line and why), 2 when
    the record cannot be read.

    \b
    Example:
      gyges replay tests/data/sample_game.txt
      gyges replay game.txt --rules dorbec --quiet
    """
    record, start, rules = load_game_input(game_file, start_arg, rules_given)
    try:
        game = replay_record(record, rules, start)
    except RecordError as e:
        raise UserError(str(e)) from None

    if not quiet:
        click.echo(f"rules: {_rules_line(rules, rules_given)}")
        if record.south_setup is not None:
            click.echo(f"1 South {record.south_setup}")
            click.echo(f"2 North {record.north_setup}")
        click.echo(format_diagram(game.positions[0], shores=True))
        for i, played in enumerate(game.moves):
            turn = record.turns[i]
            click.echo()
            click.echo(f"{turn.number} {turn.side.title} {'; '.join(str(m) for m in played)}")
            if i + 1 < len(game.positions):
                click.echo(format_diagram(game.positions[i + 1], shores=True))
            elif played and played[-1].is_win:
                click.echo(f"{played[-1].side.title} lands on {_goal_name(played[-1].side)}")
        click.echo()

    if game.error is not None:
        bad = game.error
        if game.moves:
            n = len(game.moves)
            click.echo(f"{n} move{'s' if n != 1 else ''} legal, then")
        reason = bad.reason.removeprefix(f"{bad.text}: ")
        click.echo(f"move {bad.number} ({bad.text}, line {bad.line}): {reason}")
        fail(EXIT_CHECK_FAILED)
    n = len(game.moves)
    click.echo(f"all {n} move{'s' if n != 1 else ''} legal")
    last = game.moves[-1][-1] if game.moves and game.moves[-1] else None
    if last is not None and last.is_win and game.winner is not None:
        click.echo(f"{game.winner.title} wins: {last} lands on {_goal_name(last.side)} "
                   f"(move {record.turns[n - 1].number})")
        if game.stoppable:
            click.echo(f"  but the landing is stoppable (win=unstoppable): "
                       f"{game.winner.other.title} could have avoided it with another last "
                       "move and may take that move back")
        elif game.stoppable is False:
            click.echo("  and it stands (win=unstoppable): every other last move of "
                       f"{game.winner.other.title} allowed a landing too")
    elif record.result == "Resign" and game.winner is not None:
        click.echo(f"{game.winner.other.title} resigns: {game.winner.title} wins")
    else:
        final = game.positions[-1]
        click.echo(f"no result yet: {final.turn.title} to move in {final}")


COMMANDS = [show, moves, perft, replay]
