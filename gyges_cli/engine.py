"""``gyges analyse`` (the engine's best move, score and line for a position) and ``gyges
ugi`` (the engine over the UGI protocol): docs/engine.md."""

from __future__ import annotations

import dataclasses
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

from gyges.engine.builtin import (
    MAX_CORES,
    MAX_NODES,
    MAX_PROVE_DEPTH,
    Analysis,
    EngineError,
    Limit,
    Options,
    SearchInterrupted,
)
from gyges.engine.builtin import analyse as run_analyse
from gyges.engine.calibration import (
    calibration_report,
    read_game_files,
    read_scored_games,
    reliability_svg,
)
from gyges.engine.dataset import DataSettings, play_dataset
from gyges.engine.labels import LabelSettings, label_games, read_labels
from gyges.engine.logistic import MissingNumpy
from gyges.engine.network import LINEAR, Network, NetworkError, evaluation_network
from gyges.engine.network_training import NetSettings, network_positions, train_network
from gyges.engine.score import Loss, Win
from gyges.engine.server import serve
from gyges.engine.training import Settings, train_weights
from gyges.engine.weights import Weights, WeightsError
from gyges.game.rules import RuleRequest, RuleSet, combine_rules
from gyges.output import write_atomic
from gyges.parallel import ResultsFileError, StatusLine
from gyges_cli.batch import last_words, run_errors, scheduler_option
from gyges_cli.common import (
    UserError,
    check_jobs,
    interrupted,
    jobs_option,
    limit_from_options,
    limit_options,
    network_option,
    rule_options,
)
from gyges_cli.inputs import load_input

F = TypeVar("F", bound=Callable[..., Any])

#: ``analyse`` without --time, --depth or --nodes: two seconds.
DEFAULT_ANALYSE_LIMIT = Limit(time=2.0)


def _options(prove: int, weights: str | None, network: str | None, cores: int) -> Options:
    try:
        # --weights without --network: the linear evaluation with those weights
        net = evaluation_network(LINEAR if weights and network is None else network)
        return Options(prove=prove, weights=Weights.load(weights) if weights else None,
                       cores=cores, network=net)
    except (WeightsError, NetworkError, EngineError) as e:
        raise UserError(str(e)) from None



def score_text(a: Analysis) -> str:
    """``wins in 2 (proven)``, ``loses in 3 (proven)``, or the evaluation with its win
    probability."""
    if isinstance(a.score, Win):
        return f"wins in {a.score.moves} (proven)"
    if isinstance(a.score, Loss):
        return f"loses in {a.score.moves} (proven)"
    if a.lower_bound:
        return (f"at least {a.score} (win probability at least "
                f"{100 * a.win_probability:.1f}%: a lower bound, from depth {a.depth + 1} "
                f"cut short after this move beat depth {a.depth}'s best)")
    return f"{a.score} (win probability {100 * a.win_probability:.1f}%)"


def search_text(a: Analysis) -> str:
    """The search's figures: depth, selective depth, nodes, time and rate; or that the
    prover answered alone."""
    if a.nodes == 0 and a.proven:
        return f"proven by the prover in {a.time:.2f} s"
    return (f"depth {a.depth} (selective {a.seldepth}), {a.nodes} nodes in {a.time:.2f} s "
            f"({a.nps} nodes/s)")


def _report(a: Analysis) -> str:
    if a.move is None:
        return "no move: nobody can move, the game is drawn\n"
    lines = []
    if a.move.side is not a.position.turn:
        lines.append(f"{a.position.turn.title} is blocked: {a.move.side.title} moves again")
    lines += [f"best move  {a.move}", f"score      {score_text(a)}",
              f"line       {' '.join(str(m) for m in a.pv)}",
              f"search     {search_text(a)}"]
    return "\n".join(lines) + "\n"


cores_option = click.option(
    "--cores", type=click.IntRange(1, MAX_CORES), default=1, show_default=True,
    callback=lambda ctx, param, value: check_jobs(value, "--cores"),
    help="Processes searching: each searches the whole tree, sharing the table and which "
         "moves each is searching (1: the "
         "search is deterministic under a depth or node limit; more than the machine's "
         "cores is capped at them, with a note).")


@click.command("analyse", short_help="The engine's best move, score and line for a position.")
@click.argument("source", metavar="POS|FILE")
@limit_options("to search", DEFAULT_ANALYSE_LIMIT)
@click.option("--prove", type=click.IntRange(0, MAX_PROVE_DEPTH), default=3, show_default=True,
              help="Ask the prover for forced wins and losses within this many moves of "
                   "the winner (0: no proofs).")
@click.option("--weights", default=None, metavar="FILE",
              help="The evaluation's weights (default: the shipped ones).")
@network_option
@cores_option
@click.option("--json", "as_json", is_flag=True, help="Print the analysis as JSON.")
@rule_options
def analyse(source: str, seconds: float | None, depth: int | None, nodes: int | None,
            prove: int, weights: str | None, network: str | None, cores: int,
            as_json: bool, rules: RuleSet, rules_given: RuleRequest) -> None:
    """Search a position with the engine: best move, score (the evaluation and its win
    probability, or "wins in k (proven)"), principal variation in pbmserv notation.

    Iterative deepening alpha-beta with the fitted evaluation, backed by the df-pn prover
    (forced wins and losses within --prove moves are exact). A terminal shows each depth
    as it is done; Ctrl-C prints the best found so far.

    \b
    Example:
      gyges analyse "321123/....../....../....../....../231123 S" --time 1
      gyges analyse "....../3...../..1.1./1.23.3/3.22.1/....2. N" --depth 3 --json
      gyges analyse game.txt --nodes 100000 --network data/engine/network-128-deeper.json
    """
    limit = limit_from_options(seconds, depth, nodes, DEFAULT_ANALYSE_LIMIT)
    loaded = load_input(source)
    rules = combine_rules(loaded.rules, rules_given)
    status = StatusLine()

    def progress(a: Analysis) -> None:
        pv = " ".join(str(m) for m in a.pv[:6])
        status.show(f"depth {a.depth}: {a.score} {pv}")

    try:
        result = run_analyse(loaded.position, rules, limit, loaded.history,
                             _options(prove, weights, network, cores), progress)
    except SearchInterrupted as e:
        status.clear()
        if e.analysis is not None and e.analysis.move is not None:
            click.echo(json.dumps(e.analysis.to_json()) if as_json else _report(e.analysis),
                       nl=not as_json)
            interrupted("the best found so far is printed above")
        interrupted("no depth was completed")
    status.clear()
    if as_json:
        click.echo(json.dumps(result.to_json(), indent=1))
    else:
        click.echo(_report(result), nl=False)


@click.command("ugi", short_help="The engine over the UGI protocol (standard input/output).")
@click.option("--prove", type=click.IntRange(0, MAX_PROVE_DEPTH), default=3, show_default=True,
              help="The proof horizon, in moves of the winner (0: no proofs).")
@click.option("--weights", default=None, metavar="FILE",
              help="The evaluation's weights (default: the shipped ones).")
@network_option
@cores_option
@rule_options(from_file=False)
def ugi(prove: int, weights: str | None, network: str | None, cores: int, rules: RuleSet,
        rules_given: RuleRequest) -> None:
    """Speak the Universal Gyges Interface of Beck-Bjella/Gyges on standard input and
    output, for a GUI or a match runner: ugi, isready, setoption (maxTime, maxPly,
    maxNodes, prove, hash, cores), setpos start|data BOARD, go, stop, quit. Boards and
    moves in that protocol's numbering (from the side to move); docs/engine.md. As an
    extension, 'setpos data BOARD history ITEM...' gives the game's earlier positions,
    for the Renop law (gyges's own client sends them).

    \b
    Example:
      printf 'ugi\\nsetoption maxTime 1\\nsetpos start\\ngo\\nquit\\n' | gyges ugi
    """
    serve(rules, sys.stdin, sys.stdout, _options(prove, weights, network, cores))


@click.command("engine-weights", short_help="Train the evaluation's weights by self-play.")
@click.option("--out", default=None, metavar="FILE",
              help="The weights file to write (default: print it).")
@click.option("--rounds", type=click.IntRange(1), default=Settings.rounds, show_default=True,
              help="Rounds of self-play and fitting, each with the weights of the round "
                   "before.")
@click.option("--games", type=click.IntRange(1), default=Settings.games, show_default=True,
              help="Self-play games a round.")
@click.option("--nodes", type=click.IntRange(1), default=Settings.nodes,
              show_default=True, help="Nodes a move.")
@click.option("--random-plies", type=click.IntRange(0), default=Settings.random_plies,
              show_default=True, help="Random first moves of a game.")
@click.option("--max-plies", type=click.IntRange(1), default=Settings.max_plies,
              show_default=True, help="A game longer than this is a draw.")
@click.option("--ridge", type=click.FloatRange(0), default=Settings.ridge, show_default=True,
              help="The ridge penalty on the standardised weights.")
@click.option("--seed", type=int, default=Settings.seed, show_default=True,
              help="The seed of the openings and random moves.")
@jobs_option(default="1", what="Processes for the self-play (the weights are the same).")
def engine_weights(out: str | None, rounds: int, games: int, nodes: int, random_plies: int,
                   max_plies: int, ridge: float, seed: int, jobs: int | None) -> None:
    """Train the evaluation's weights: rounds of seeded self-play at a fixed node count,
    each followed by a logistic regression of the results on the evaluation's features
    (docs/engine.md). The same settings give the same file on the same kind of machine.
    'make weights' runs it with --jobs 2 and
    writes solver/gyges/engine/weights.json.
    """
    settings = Settings(rounds, games, nodes, random_plies, max_plies, ridge, seed)
    try:
        weights = train_weights(settings, jobs or 1,
                                progress=lambda line: click.echo(line, err=True))
    except (MissingNumpy, ValueError) as e:
        raise UserError(str(e)) from None
    if out is None:
        click.echo(weights.dumps(), nl=False)
        return
    try:
        write_atomic(out, weights.dumps())
    except OSError as e:
        raise UserError(e.strerror or str(e), out) from None


@click.command("engine-data", short_help="Play self-play games to train an evaluation on.")
@click.option("--out", required=True, metavar="FILE.jsonl",
              help="The games file: appended to, and resumed from.")
@click.option("--games", type=click.IntRange(1), required=True,
              help="Play games 0 to GAMES - 1 (those in the file already are skipped).")
@click.option("--nodes", type=click.IntRange(1, MAX_NODES), default=DataSettings.nodes,
              show_default=True, help="Nodes a move.")
@click.option("--random-plies", type=click.IntRange(0),
              default=DataSettings.random_plies, show_default=True,
              help="Random first moves of a game (none that lets the opponent land at once).")
@click.option("--prove", type=click.IntRange(0, MAX_PROVE_DEPTH), default=DataSettings.prove,
              show_default=True, help="The engine's proof horizon, in moves.")
@click.option("--max-plies", type=click.IntRange(1), default=DataSettings.max_plies,
              show_default=True, help="A game longer than this is a draw.")
@click.option("--seed", type=click.IntRange(0, 2 ** 31 - 1), default=DataSettings.seed,
              show_default=True, help="The seed of the setups and random moves.")
@click.option("--first-game", type=click.IntRange(0), default=0, show_default=True,
              help="Play games from this number on (up to --games - 1): a new file that "
                   "goes on where an earlier one of the same run stopped.")
@network_option
@jobs_option(default="1", what="Worker processes (the games are the same).")
@scheduler_option
@click.option("--log", default=None, metavar="FILE", help="Also log each game to FILE.")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar on stderr.")
def engine_data(out: str, games: int, nodes: int, random_plies: int, prove: int,
                max_plies: int, seed: int, first_game: int, network: str | None,
                jobs: int | None, scheduler: str | None, log: str | None,
                quiet: bool) -> None:
    """Play the builtin engine against itself into a JSON Lines file of games, to train an
    evaluation on: every position of every game labelled by the game's result and by the
    score the search gave the move played there.

    Game N is played from a random pair of setups under the pbmserv rules (N even) or
    Helios's (N odd); its first --random-plies moves are random, the rest searched to
    --nodes. A game depends only on N, the settings and the engine: every line names the
    engine that played it (a file of other settings or of another engine is refused).
    Games are appended as they finish; Ctrl-C keeps them (exit status 130) and the same
    command resumes.

    \b
    Examples:
      gyges engine-data --games 1000 --out games.jsonl --jobs 2
      gyges engine-data --games 100000 --nodes 2000 --random-plies 8 --out big.jsonl
      gyges engine-data --first-game 1000 --games 5000 --out more.jsonl --jobs 2
      gyges engine-data --games 20000 --network net.json --out net-games.jsonl --jobs 2
    """
    jobs = check_jobs(jobs)
    settings = DataSettings(nodes, random_plies, prove, max_plies, seed, network)
    try:
        with run_errors("--out"):
            summary = play_dataset(out, games, settings, first=first_game,
                                   scheduler=scheduler, jobs=jobs, log=log,
                                   progress=None if quiet else sys.stderr)
    except (EngineError, ValueError) as e:   # NetworkError is a ValueError
        raise UserError(str(e)) from None
    except OSError as e:
        raise UserError(e.strerror or str(e), e.filename or out) from None
    last_words(summary, out, "games", "game", "played")


@click.command("engine-calibration",
               short_help="Measure how true the engine's win probabilities are.")
@click.argument("games", metavar="GAMES.jsonl[.gz]", type=click.Path(dir_okay=False))
@click.option("--held-out-every", type=click.IntRange(1), default=5, show_default=True,
              help="Hold out every K-th game (by number): the figures are measured on them "
                   "(1: every game, nothing fitted).")
@click.option("--engine", default=None, metavar="ENGINE",
              help="A match's file: the builtin engine whose moves to measure, by its text "
                   "in the match (default: the match's only builtin engine).")
@click.option("--svg", default=None, metavar="FILE.svg",
              help="Also write the reliability diagram of the held-out games.")
@click.option("--scale", type=click.FloatRange(0, min_open=True), default=None,
              help="Measure the probabilities as if printed on this scale (default: the "
                   "one the games record; 1.23 for the linear evaluation).")
@click.option("--write-scale", "write_into", default=None, metavar="NETWORK.json",
              help="Write the scale fitted on the fit games (the rescaled factor times the "
                   "printed scale, to 3 decimals) into this network file as its "
                   "calibration (its weights, and so its moves, unchanged).")
@click.option("--quiet", "-q", is_flag=True, help="No progress lines on stderr.")
def engine_calibration(games: str, held_out_every: int, engine: str | None, svg: str | None,
                       scale: float | None, write_into: str | None, quiet: bool) -> None:
    """Set the win probability the engine printed for each searched move of the games of
    GAMES (a file of 'gyges engine-data', gzipped or not, or of 'gyges match': the moves
    of its builtin engine) against the game's result, and
    print how true it is: log-loss and Brier score on the held-out games, beside the base
    rate (one constant probability) as the null to beat; the recalibration p' =
    logistic(a * logit(p) + b) of least log-loss on the other games, and its scores on the
    held-out ones; the reliability table (predicted against observed, by bins, with 95%
    intervals counting each game once). Proven scores and random moves are left out.

    The games of one evaluation: those of a learned network (engine-data --network) are
    printed on the scale its file gives (1 where none was measured); the rescaled line's
    factor times that scale is the one to write into the file ("calibration"), and
    --scale checks a scale before it is written.

    \b
    Examples:
      gyges engine-calibration data/engine/training-games.jsonl.gz --svg reliability.svg
      gyges engine-calibration games.jsonl --held-out-every 10
      gyges engine-calibration net-games.jsonl --scale 0.89
      gyges engine-calibration net-games.jsonl --write-scale net.json
      gyges engine-calibration match.jsonl --engine builtin --held-out-every 1
    """
    def progress(n: int) -> None:
        if not quiet:
            click.echo(f"read {n:,} games", err=True)

    try:
        report = calibration_report(read_scored_games(games, engine), held_out_every,
                                    progress=progress, scale=scale)
    except ValueError as e:
        raise UserError(str(e)) from None
    except OSError as e:
        raise UserError(e.strerror or str(e), games) from None
    click.echo(report.text(), nl=False)
    if svg is not None:
        try:
            write_atomic(svg, reliability_svg(report, "Win probability: predicted and observed"))
        except OSError as e:
            raise UserError(e.strerror or str(e), svg) from None
    if write_into is not None:
        fitted = round(report.scale_only.scale * report.printed_scale, 3)
        try:
            net = dataclasses.replace(Network.load(write_into), calibration=fitted)
            write_atomic(write_into, net.dumps())
        except NetworkError as e:
            raise UserError(str(e)) from None
        except OSError as e:
            raise UserError(e.strerror or str(e), write_into) from None
        if not quiet:
            click.echo(f"{write_into}: calibration {fitted:g}", err=True)


@click.command("engine-network",
               short_help="Train a learned evaluation over the board from self-play games.")
@click.argument("games", metavar="GAMES.jsonl[.gz]...", nargs=-1, required=True,
                type=click.Path(dir_okay=False))
@click.option("--out", default=None, metavar="FILE.json",
              help="Write the network here (default: print only the report).")
@click.option("--hidden", type=click.IntRange(1, 1024), default=NetSettings.hidden,
              show_default=True, help="Hidden units of the first layer.")
@click.option("--epochs", type=click.IntRange(1), default=NetSettings.epochs,
              show_default=True, help="Passes over the training positions.")
@click.option("--rate", type=click.FloatRange(0, min_open=True), default=NetSettings.rate,
              show_default=True, help="Adam's step size.")
@click.option("--final-rate", type=click.FloatRange(0, min_open=True), default=None,
              help="Let Adam's step fall along a half cosine from --rate to this by the "
                   "last batch (default: a constant step).")
@click.option("--result-weight", type=click.FloatRange(0, 1), default=NetSettings.result_weight,
              show_default=True,
              help="The target: this much the game's result, the rest the win probability "
                   "of the search's score for the move played.")
@click.option("--labels", "label_files", multiple=True, metavar="LABELS.jsonl",
              type=click.Path(dir_okay=False),
              help="Deeper scores of the games' positions (a file of 'gyges engine-labels'; "
                   "repeatable): the search's part of the target takes them where they "
                   "have one.")
@click.option("--only-games-of", "only_of", multiple=True, metavar="LABELS.jsonl",
              type=click.Path(dir_okay=False),
              help="Train on (and hold out) only the games these label files cover "
                   "(repeatable): with and without --labels, the same positions with deeper "
                   "or the games' own scores.")
@click.option("--features/--board-only", default=NetSettings.features, show_default=True,
              help="Also weigh the present evaluation's features (a linear term).")
@click.option("--attack", is_flag=True, default=NetSettings.attack,
              help="Also read the attack maps: the slots each side's moves land on or end "
                   "on, 144 more inputs (docs/engine.md, \"A learned evaluation\").")
@click.option("--held-out-every", type=click.IntRange(2), default=NetSettings.held_out_every,
              show_default=True, help="Hold out every K-th game (by number).")
@click.option("--seed", type=click.IntRange(0), default=NetSettings.seed, show_default=True,
              help="The seed of the first weights and of the order of the positions.")
@click.option("--checkpoint", default=None, metavar="FILE.npz",
              help="Save the training's state here after each epoch; the same command "
                   "resumes from it, and it is removed once the network is written to --out "
                   "(default: OUT.checkpoint.npz beside --out; none without --out).")
@click.option("--quiet", "-q", is_flag=True, help="No progress lines on stderr.")
def engine_network(games: tuple[str, ...], out: str | None, hidden: int, epochs: int, rate: float,
                   final_rate: float | None, result_weight: float, label_files: tuple[str, ...],
                   only_of: tuple[str, ...], features: bool, attack: bool,
                   held_out_every: int, seed: int, checkpoint: str | None, quiet: bool) -> None:
    """Train a small network over the board (each slot's ring, seen from the side to
    move; an NNUE-style integer network, docs/engine.md) on the positions of GAMES (files
    of 'gyges engine-data', read in the order given: the parts of one run, whose games are
    numbered on), holding out every K-th game, and print how well it predicts the held-out
    games' results beside the present evaluation and the base rate. The same files and
    options give the same network. An interrupted run (Ctrl-C, a lost machine) resumes
    after its last whole epoch when run again with the same files and options, and ends
    with the network an uninterrupted run makes.

    \b
    Examples:
      gyges engine-network data/engine/training-games.jsonl.gz --out network.json
      gyges engine-network games.jsonl --board-only --hidden 64 --epochs 8
      gyges engine-network games.jsonl --epochs 20 --rate 0.002 --final-rate 0.0001
      gyges engine-network data/engine/training-games.jsonl.gz \\
        data/engine/training-games-2.jsonl.gz --hidden 64 --out network.json
      gyges engine-network games.jsonl --labels labels.jsonl --result-weight 0.5 \\
        --out deeper.json
      gyges engine-network games.jsonl --labels labels.jsonl --result-weight 0 \\
        --attack --hidden 512 --out attack.json
    """
    def say(line: str) -> None:
        if not quiet:
            click.echo(line, err=True)

    settings = NetSettings(hidden=hidden, epochs=epochs, rate=rate, final_rate=final_rate,
                           result_weight=result_weight, features=features,
                           held_out_every=held_out_every, seed=seed, attack=attack)
    try:
        labels = read_labels(label_files) if label_files else None
        records = read_game_files(games)
        if only_of:
            covered = read_labels(only_of).scores
            records = (r for r in records if r["game"] in covered)
        data = network_positions(records, result_weight,
                                 progress=lambda n: say(f"read {n:,} games"),
                                 labels=labels.scores if labels else None, attack=attack)
        if checkpoint is None and out is not None:
            checkpoint = out + ".checkpoint.npz"
        net, report = train_network(data, settings, progress=say, checkpoint=checkpoint)
        if labels is not None:
            net = dataclasses.replace(net, fit={**net.fit, "labels": labels.summary()})
        if only_of:
            net = dataclasses.replace(net, fit={**net.fit, "only_games_of": list(only_of)})
    except (MissingNumpy, ValueError, ResultsFileError) as e:
        raise UserError(str(e)) from None
    except OSError as e:
        raise UserError(e.strerror or str(e), e.filename or games[0]) from None
    click.echo(report, nl=False)
    if out is not None:
        try:
            write_atomic(out, net.dumps())
        except OSError as e:
            raise UserError(e.strerror or str(e), out) from None
        if checkpoint is not None:
            Path(checkpoint).unlink(missing_ok=True)


@click.command("engine-labels",
               short_help="Search the training games' positions deeper, to train on.")
@click.argument("games", metavar="GAMES.jsonl[.gz]...", nargs=-1, required=True,
                type=click.Path(dir_okay=False))
@click.option("--out", required=True, metavar="LABELS.jsonl",
              help="The labels file: appended to, and resumed from.")
@click.option("--nodes", type=click.IntRange(1, MAX_NODES), default=LabelSettings.nodes,
              show_default=True, help="Nodes a position.")
@click.option("--prove", type=click.IntRange(0, MAX_PROVE_DEPTH), default=LabelSettings.prove,
              show_default=True, help="The engine's proof horizon, in moves.")
@click.option("--every", type=click.IntRange(1), default=LabelSettings.every, show_default=True,
              help="Label the games whose number is PART modulo EVERY (a share of them).")
@click.option("--part", type=click.IntRange(0), default=LabelSettings.part, show_default=True,
              help="See --every.")
@network_option
@jobs_option(default="1", what="Worker processes (the scores are the same).")
@scheduler_option
@click.option("--log", default=None, metavar="FILE", help="Also log each game to FILE.")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar on stderr.")
def engine_labels(games: tuple[str, ...], out: str, nodes: int, prove: int, every: int,
                  part: int, network: str | None, jobs: int | None, scheduler: str | None,
                  log: str | None, quiet: bool) -> None:
    """Search each position of the games of GAMES (files of 'gyges engine-data', the parts
    of one run) afresh to --nodes and write the scores, one line a game, for
    'gyges engine-network --labels': a deeper look than the games' own searches.

    A score depends only on the position, the game's earlier positions, the settings and
    the engine (every line names it; a file of other settings or of another engine is
    refused). Lines are appended as games finish; Ctrl-C keeps them (exit status 130) and
    the same command resumes.

    \b
    Examples:
      gyges engine-labels games.jsonl --nodes 10000 --out labels.jsonl --jobs 2
      gyges engine-labels data/engine/training-games.jsonl.gz \\
        data/engine/training-games-2.jsonl.gz --every 3 --part 1 --out labels-1.jsonl
      gyges engine-labels games.jsonl --network linear --out labels.jsonl
    """
    jobs = check_jobs(jobs)
    if part >= every:
        raise click.BadParameter(f"{part}: give a part from 0 to {every - 1} (--every {every})",
                                 param_hint="--part")
    settings = LabelSettings(nodes, prove, every, part)
    try:
        with run_errors("--out"):
            summary = label_games(out, read_game_files(games), settings, scheduler=scheduler,
                                  jobs=jobs, log=log, progress=None if quiet else sys.stderr,
                                  network=network)
    except (EngineError, ValueError) as e:
        raise UserError(str(e)) from None
    except OSError as e:
        raise UserError(e.strerror or str(e), e.filename or out) from None
    last_words(summary, out, "games", "game", "labelled")


COMMANDS = [analyse, ugi, engine_weights, engine_data, engine_labels, engine_calibration,
            engine_network]
