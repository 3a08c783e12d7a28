"""``gyges setups``: search opening setups, analyse every pair, report on an analysis.

See docs/setups.md for the constraint keys, the record layout and the report.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TextIO, TypeVar

import click

from gyges.engine import MAX_PROVE_DEPTH, EngineError
from gyges.engine.network import NetworkError
from gyges.game.rules import RuleRequest, RuleSet, Side
from gyges.output import OutputError, check_output, open_atomic, signed
from gyges.parallel import ResultsFileError, RunSummary, StatusLine
from gyges.setups import (
    MAX_ANALYSIS_DEPTH,
    MIN_ANALYSIS_DEPTH,
    ConstraintFileError,
    PairListError,
    PairSelectionError,
    RoundProgress,
    ScopeError,
    SetupError,
    find_setups,
    heatmap_svg,
    parse_pairs,
    read_constraints,
    read_results,
    report,
    run_analysis,
    select_pairs,
)
from gyges.setups.answer import setup_answer
from gyges.setups.evaluation.comparison import compare_evaluations, comparison_report
from gyges.setups.evaluation.heatmap import evaluation_map_svg
from gyges.setups.evaluation.summary import EvaluationTable, evaluation_report
from gyges.setups.evaluation.table import (
    DEFAULT_NODES,
    is_evaluation_file,
    read_evaluations,
    run_evaluations,
)
from gyges.setups.selfplay.forest import forest_plot
from gyges.setups.selfplay.games import (
    DEFAULT_SELFPLAY_LIMIT,
    is_games_file,
    read_selfplay_games,
    run_games,
)
from gyges.setups.selfplay.ladder import LadderError, Rung, ladder_report, ladder_rungs
from gyges.setups.selfplay.report import rank_report
from gyges.setups.selfplay.scoremap import score_map_svg
from gyges.setups.selfplay.table import game_table
from gyges.setups.validation import COUNT, validation_pairs, validation_report
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
    ticking,
)
from gyges_cli.inputs import read_input_text

F = TypeVar("F", bound=Callable[..., Any])


@click.group("setups")
def setups_group() -> None:
    """Opening setups: search them with constraints, analyse all pairs, report."""


def _words(e: Exception) -> str:
    """A library error in the command's words: a constraint's scope names the options
    that widen it."""
    if isinstance(e, ConstraintFileError) and e.cause is not None:
        return f"{e.path}: {_words(e.cause)}"
    if isinstance(e, ScopeError):
        name, option = e.side.title, f"--{e.side.title.lower()}"
        if e.engine:
            return (f"{e.problem}: fix {name}'s setup with {option} SETUP, tie it with "
                    "--north-as, or use --side pair")
        return f"{e.problem}: use --side pair, or fix {name}'s setup with {option} SETUP"
    return str(e)


def pair_options(verb: str) -> Callable[[F], F]:
    """--south, --north and --pairs: the pairs a batch command works on (read by
    :func:`_pairs`); ``verb`` says what it does with them."""
    def decorate(f: F) -> F:
        f = click.option("--pairs", "pairs_file", default=None, metavar="FILE",
                         help=f"The pairs to {verb} instead: one 'SOUTH NORTH' pair per "
                         "line, as 'setups search --side pair' prints them ('#' starts a "
                         "comment).")(f)
        f = click.option("--north", default=None, metavar="SETUP[,SETUP...]|all",
                         help="North's setups (default: all).")(f)
        return click.option("--south", default=None, metavar="SETUP[,SETUP...]|all",
                            help="South's setups (default: all).")(f)
    return decorate


@setups_group.command("search")
@click.argument("constraints", nargs=-1, metavar="[KEY=VALUE|FILE.yaml]...")
@click.option("--file", "files", multiple=True, metavar="FILE",
              help="A YAML constraint file (keys as the options below, without --).")
@click.option("--side", type=click.Choice(["south", "north", "pair"]), default=None,
              help="What to enumerate: South's setups (default), North's, or pairs.")
@click.option("--fix", multiple=True, metavar="[N:|S:]SIZE@COL",
              help="A ring of SIZE on column COL (e.g. 3@1; N: for North's row).")
@click.option("--off", multiple=True, metavar="[N:|S:]SIZE@COLS",
              help="No ring of SIZE on these columns (e.g. 3@16).")
@click.option("--apart", multiple=True, metavar="[N:|S:]SIZES",
              help="The two rings of each of these sizes not side by side (e.g. 13).")
@click.option("--symmetric", is_flag=False, flag_value="true", default=None,
              metavar="[south|north|both]",
              help="Setups that read the same mirrored (alone: the searched side(s)).")
@click.option("--centre", "--center", "centre", multiple=True, metavar="[N:|S:]SIZE(=|<=|>=)K",
              help="How many rings of SIZE on columns 3-4 (e.g. 3>=1).")
@click.option("--edges", multiple=True, metavar="[N:|S:]SIZE(=|<=|>=)K",
              help="How many rings of SIZE on columns 1 and 6 (e.g. 1=2).")
@click.option("--south", default=None, metavar="SETUP", help="South's setup fixed.")
@click.option("--north", default=None, metavar="SETUP", help="North's setup fixed.")
@click.option("--north-as", type=click.Choice(["mirror", "rotated"]), default=None,
              help="North's row is South's as drawn (mirror) or turned half a turn (rotated).")
@click.option("--lands-in", type=int, default=None, metavar="N",
              help="South forces a goal landing within N moves (engine, lazy).")
@click.option("--cannot-land-in", type=int, default=None, metavar="N",
              help="South cannot force a landing within N moves (engine, lazy).")
@click.option("--min-moves", type=int, default=None, metavar="K",
              help="South has at least K distinct first moves (engine, lazy).")
@click.option("--no-replace-threat", is_flag=True, default=False,
              help="No South first move can be answered by a replace on the moved ring.")
@click.option("--max-replace-threats", type=int, default=None, metavar="K",
              help="At most K South first moves exposed to such a replace.")
@click.option("--canonical", is_flag=True, default=False,
              help="Report mirror-equivalent setups (pairs mirrored together) once.")
@click.option("--count", "mode", flag_value="count",
              help="Print only how many (with --json: a JSON object without the results).")
@click.option("--list", "mode", flag_value="list", default=True, help="One per line (default).")
@click.option("--json", "as_json", is_flag=True,
              help="A JSON object: side, count, canonical, rules and results.")
@rule_options(from_file=False)
def search_command(constraints: tuple[str, ...], files: tuple[str, ...], mode: str,
                   as_json: bool, rules: RuleSet, rules_given: RuleRequest, **options: Any) -> None:
    """Every setup (or pair) meeting the constraints, exactly, in sorted order.

    Constraints come from the options, from KEY=VALUE arguments and from YAML files, all
    with the same keys (e.g. "fix=3@1" or, in a file, "fix: [3@1, N:2@6]"). Engine
    properties (lands-in, cannot-land-in, min-moves, replace threats) are those of the
    start position, South to move, and are checked lazily: CP-SAT proposes, the engine
    judges, each rejected assignment is cut, until the model is exhausted.

    \b
    gyges setups search --fix 3@1 --apart 3 --count
    gyges setups search --side pair --north 321123 --min-moves 400
    gyges setups search --side pair --north-as rotated --symmetric --canonical
    """
    status = StatusLine(sys.stderr)

    def progress(event: RoundProgress) -> None:
        if not event.over:
            status.show(str(event))        # on a terminal only
        else:
            status.clear()
            click.echo(f"gyges: {event}", err=True)

    try:
        c = read_constraints(constraints, files,
                             {k.replace("_", "-"): v for k, v in options.items()})
        status.show(f"searching {c.side} setups with CP-SAT")   # on a terminal only
        with ticking(status):
            found = find_setups(c, rules, progress=progress if c.engine else None)
    except ConstraintFileError as e:
        raise UserError(_words(e)) from None
    except ValueError as e:   # a SetupError, or bad input the engine refuses
        raise UserError(_words(e), "setups search") from None
    except KeyboardInterrupt:
        status.clear()
        interrupted(status.text or "")
    status.clear()
    if as_json:
        click.echo(json.dumps(found.to_json(results=mode != "count"), sort_keys=True))
    elif mode == "count":
        click.echo(found.count)
    else:
        for line in found.lines():
            click.echo(line)


@setups_group.command("analyze")
@pair_options("analyze")
@click.option("--canonical", is_flag=True, default=False,
              help="Analyse only the canonical pair standing for each pair and its mirror "
                   "(both rows reversed: the same verdict and figures): 4,068 pairs stand "
                   "for all 8,100; 'setups report' counts each for its mirror too.")
@click.option("--depth", type=click.IntRange(MIN_ANALYSIS_DEPTH, MAX_ANALYSIS_DEPTH), default=2,
              show_default=True,
              help=f"Prove forced wins within this many of South's moves "
                   f"({MIN_ANALYSIS_DEPTH}..{MAX_ANALYSIS_DEPTH}).")
@jobs_option()
@scheduler_option
@click.option("--split/--no-split", default=None,
              help="Split each pair's work per group of South's first moves, so that "
                   "one pair's work goes to several workers (default: from --depth 6 on; "
                   "a split pair costs about a third more CPU in all).")
@click.option("--out", required=True, metavar="FILE.jsonl",
              help="Results, one JSON object per line; rerun with it to resume (missing "
              "directories are created).")
@click.option("--log", default=None, metavar="FILE",
              help="Log file: one line per pair (worker, pair, result, time).")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
@rule_options(from_file=False)
def analyze_command(south: str | None, north: str | None, pairs_file: str | None,
                    canonical: bool, depth: int, jobs: int | None, scheduler: str | None,
                    split: bool | None, out: str, log: str | None, quiet: bool,
                    rules: RuleSet, rules_given: RuleRequest) -> None:
    """Analyse setup pairs (South moves first) into a JSON Lines file.

    Each pair gets its move counts, replace counts, landing and replace threats, the
    solver's verdict within --depth (win/loss/none, key moves) and North's best defence.
    Results are appended as they finish; Ctrl-C keeps them (exit status 130) and a rerun
    resumes. The work runs on a local process pool, or on a Dask cluster with --scheduler.

    \b
    Examples:
      gyges setups analyze --south 231123 --north all --depth 2 --out table.jsonl
      gyges setups analyze --depth 3 --jobs 2 --out table.jsonl --log table.log
      gyges setups analyze --depth 4 --canonical --scheduler tcp://HOST:8786 --out d4.jsonl
      gyges setups search --side pair --north 321123 --min-moves 400 > p.txt
      gyges setups analyze --pairs p.txt --depth 3 --out p.jsonl
    """
    jobs = check_jobs(jobs)
    pairs = _pairs(south, north, pairs_file)
    _run_batch(lambda progress: run_analysis(pairs, rules, depth, out, canonical=canonical,
                                    split=split, scheduler=scheduler, jobs=jobs, log=log,
                                    progress=progress),
               out, quiet, ("results", "pair", "analysed"))


@setups_group.command("rank")
@click.option("--games", type=click.IntRange(1), default=None, metavar="N",
              help="Games to play (default: one round, each pair once); game i plays "
                   "pair i mod P of a fixed seeded order, and every round after the first "
                   "opens with one random move of each side, so a pair's games differ.")
@limit_options("a move", DEFAULT_SELFPLAY_LIMIT)
@click.option("--prove", type=click.IntRange(0, MAX_PROVE_DEPTH), default=2, show_default=True,
              metavar="K", help="The engine's proof horizon in moves (0: no prover).")
@click.option("--max-plies", type=click.IntRange(1), default=200, show_default=True,
              metavar="P", help="A game this many moves long is a draw.")
@pair_options("play")
@click.option("--canonical", is_flag=True, default=False,
              help="Play only the canonical pair standing for each pair and its mirror "
                   "(4,068 stand for all 8,100); the ranking then counts each setup with "
                   "its mirror image.")
@network_option
@jobs_option(what="Games at a time, one worker process each.")
@scheduler_option
@click.option("--out", required=True, metavar="GAMES.jsonl",
              help="The games, one JSON object per line; rerun with it to resume.")
@click.option("--log", default=None, metavar="FILE",
              help="Log file: one line per game (worker, pair, result, time).")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
@rule_options(from_file=False)
def rank_command(games: int | None, seconds: float | None, depth: int | None,
                 nodes: int | None, prove: int, max_plies: int, south: str | None,
                 north: str | None, pairs_file: str | None, canonical: bool,
                 network: str | None, jobs: int | None, scheduler: str | None, out: str,
                 log: str | None, quiet: bool, rules: RuleSet,
                 rules_given: RuleRequest) -> None:
    """Play the builtin engine against itself from setup pairs (South moves first) into
    a JSON Lines file of games, to rank the setups ('setups report GAMES.jsonl').

    Each game is one line: the game's number and round, the pair, the result (south,
    north or draw), why, the moves, and the run's parameters. Games are appended as they
    finish; Ctrl-C keeps them (exit status 130) and the same command resumes. The work
    runs on a local process pool, or on a Dask cluster with --scheduler. At --nodes or
    --depth the file holds the same games whatever the backend.

    \b
    Examples:
      gyges setups rank --canonical --games 10000 --nodes 1000 --out games.jsonl
      gyges setups rank --south 231123,321123 --north all --depth 3 --out g.jsonl
      gyges setups report games.jsonl --svg games.svg
    """
    jobs = check_jobs(jobs)
    pairs = _pairs(south, north, pairs_file)
    limit = limit_from_options(seconds, depth, nodes, DEFAULT_SELFPLAY_LIMIT)
    _run_batch(lambda progress: run_games(pairs, rules, out, games=games, limit=limit,
                                          prove=prove, max_plies=max_plies,
                                          canonical=canonical, scheduler=scheduler,
                                          jobs=jobs, log=log, progress=progress,
                                          network=network),
               out, quiet, ("games", "game", "played"))


@setups_group.command("evaluate")
@click.option("--nodes", type=click.IntRange(1), default=DEFAULT_NODES, show_default=True,
              metavar="N", help="Each pair's search: this many nodes, on one core "
              "(deterministic: the same value on any machine).")
@click.option("--prove", type=click.IntRange(0, MAX_PROVE_DEPTH), default=3, show_default=True,
              metavar="K", help="The engine's proof horizon in moves (0: no prover).")
@pair_options("evaluate")
@network_option
@jobs_option(what="Pairs at a time, one worker process each.")
@scheduler_option
@click.option("--out", required=True, metavar="FILE.jsonl",
              help="The evaluations, one JSON object per line; rerun with it to resume.")
@click.option("--log", default=None, metavar="FILE",
              help="Log file: one line per pair (worker, pair, value, time).")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
@rule_options(from_file=False)
def evaluate_command(nodes: int, prove: int, south: str | None, north: str | None,
                     pairs_file: str | None, network: str | None, jobs: int | None,
                     scheduler: str | None, out: str, log: str | None, quiet: bool,
                     rules: RuleSet, rules_given: RuleRequest) -> None:
    """Search each setup pair's start position (South moves first) at a fixed budget
    into a JSON Lines file: the low-noise half of the setup study.

    Each line is one pair: the engine's score for South, South's win probability (the
    calibrated one 'analyse' prints), the best first move, the depth reached, and the
    run's parameters with the engine that searched. Only the canonical pair standing
    for each pair asked for is searched (a pair and its mirror have the same value).
    Lines are appended as they finish; Ctrl-C keeps them (exit status 130) and the
    same command resumes; a file of other parameters or of another engine is refused.
    'setups report FILE' prints each setup's average and its best reply.

    \b
    Examples:
      gyges setups evaluate --jobs 2 --out evaluations.jsonl
      gyges setups evaluate --south 231123 --nodes 20000 --out e.jsonl
      gyges setups report evaluations.jsonl
      gyges setups report games.jsonl --evaluations evaluations.jsonl --forest f.svg
    """
    jobs = check_jobs(jobs)
    pairs = _pairs(south, north, pairs_file)
    _run_batch(lambda progress: run_evaluations(pairs, rules, out, nodes=nodes,
                                                prove=prove, scheduler=scheduler,
                                                jobs=jobs, log=log, progress=progress,
                                                network=network),
               out, quiet, ("evaluations", "pair", "evaluated"))


def _run_batch(call: Callable[[TextIO | None], RunSummary], out: str, quiet: bool,
               words: tuple[str, str, str]) -> None:
    """A batch command's run: ``call(progress)`` (a bar on standard error unless
    ``quiet``), its errors in the command's words, and its last words (``words``: what
    the file holds, one unit, what was done to it)."""
    try:
        with run_errors("--out"):
            summary = call(None if quiet else sys.stderr)
    except (SetupError, EngineError, NetworkError) as e:
        raise UserError(str(e)) from None
    except OSError as e:
        raise UserError(e.strerror or str(e), e.filename or out) from None
    last_words(summary, out, *words)


def _pairs(south: str | None, north: str | None, pairs_file: str | None
           ) -> list[tuple[str, str]]:
    """The pairs asked for: from --pairs FILE, else from --south and --north."""
    if pairs_file is not None:
        if south is not None or north is not None:
            raise UserError("give either a list of pairs or --south and --north, not both",
                            "--pairs")
        try:
            return parse_pairs(read_input_text(Path(pairs_file), "list of pairs"), pairs_file)
        except PairListError as e:
            raise UserError(str(e)) from None
    try:
        return select_pairs(south or "all", north or "all")
    except PairSelectionError as e:
        raise UserError(e.problem, f"--{e.side.title.lower()}") from None


def _ladder_option(prefix: str, purpose: str) -> Callable[[F], F]:
    """The --ladder option: a strength ladder's games files (``prefix`` and ``purpose``:
    the help's start and what the command does with them)."""
    return click.option(
        "--ladder", "ladder_files", multiple=True, metavar="GAMES.jsonl",
        help=f"{prefix}the games files of a strength ladder ('setups ladder'), weakest "
        f"first, one --ladder each (at least two, under the games' rules); {purpose}")


@setups_group.command("report")
@click.argument("results", metavar="FILE.jsonl")
@click.option("--svg", "svg_out", default=None, metavar="OUT.svg",
              help="Also draw a heat map: for an analysis, South setup by North setup, "
              "every setup labelled; for a games file, the pair map, South's score by "
              "South and North setup groups (by shrunken strength, as many as the games "
              "support) with 95% intervals; for an evaluation file, South's win "
              "probability for every pair (a file gyges did not write is not replaced "
              "without --force).")
@click.option("--forest", "forest_out", default=None, metavar="OUT.svg",
              help="For a games file: also draw the forest plot, each setup's fitted and "
              "shrunken strength with its 95% interval, sorted (a file gyges did not write "
              "is not replaced without --force).")
@click.option("--force", is_flag=True,
              help="Replace --svg or --forest even if gyges did not write it.")
@click.option("--top", type=click.IntRange(0), default=5, show_default=True,
              help="For an analysis: how many strongest and weakest setups of each side to "
              "list (one ranked list of all when a side has fewer than twice as many), and "
              "how many narrowest defences (a games report lists every setup).")
@click.option("--proven", "proven_file", default=None, metavar="FILE.jsonl",
              help="For a games file: a results file of 'setups analyze' under the same "
              "rules whose forced results count for their pairs' games and lead the report.")
@click.option("--evaluations", "evaluations_file", default=None, metavar="FILE.jsonl",
              help="For a games file: a file of 'setups evaluate' under the same rules; "
              "the forest plot writes each setup's average win probability by it at the "
              "end of its row.")
@_ladder_option("For a games file: ", "the first-move advantage is also given at each of "
                "their strengths.")
def report_command(results: str, svg_out: str | None, forest_out: str | None, top: int,
                   force: bool, proven_file: str | None, evaluations_file: str | None,
                   ladder_files: tuple[str, ...]) -> None:
    """Summarise an analysis ('setups analyze'), a self-play table ('setups rank') or
    the engine's evaluations of pairs ('setups evaluate').

    For an analysis: forced results, setups ranked, narrowest defences,
    distributions. Each section says in a line what its numbers are:

    \b
    - forced results: pairs in which the solver proves that South (moving
      first) or North lands on the goal within the depth, whatever the other plays;
    - setups ranked: for each setup, the pairs each side wins by force ("South
      wins 3/90"), its score (pairs its side wins less pairs it loses, per pair,
      -1 to +1), and South's landing threats a pair, which ranks equal scores
      (more is better for South, fewer for North); when nothing is forced, the
      setups by landing threats alone, which the report says is no strength;
    - narrowest defences: South's landing threat that the fewest North replies stop;
    - distributions of move counts, landing threats, blunders, replace threats.

    A table of canonical pairs (setups analyze --canonical) is counted with its
    mirror pairs: "4,068 canonical pairs (8,100 with mirrors)".

    For a games file: the results and how the games ended; South's first-move
    advantage (its score over all games with a 95% interval, as Elo, and as
    fitted); every setup of each side ranked by a Bradley-Terry fit of all
    results (Elo, centred, with a 95% interval, its games and score); which
    differences are significant (a pairwise test at 5%); the best reply to each
    setup from the games. With --ladder, South's score at each strength of the
    ladder's games and its change between them. With --proven, pairs with a
    forced result lead and their games count as that result. --svg draws the pair
    map: South's score with its 95% interval by South and North setup groups (each
    side's setups in groups by shrunken strength, as many as leave about 385 games
    a cell, each game grouped by the fit of the other half of the games); --forest
    draws each setup's fitted strength and its shrunken strength (the best guess
    of its true strength given how much the side's setups truly differ) with their
    95% intervals.

    For an evaluation file: South's mean win probability, each side's setups by
    their average win probability over the other side's setups (its spread, the
    best and worst), and every setup with the other side's best reply to it.

    \b
    Examples:
      gyges setups report table.jsonl
      gyges setups report table.jsonl --top 10 --svg heatmap.svg
      gyges setups report games.jsonl --proven d3.jsonl --svg games.svg
      gyges setups report games.jsonl --forest forest.svg
      gyges setups report games.jsonl --ladder l-1k.jsonl --ladder l-10k.jsonl
    """
    if not os.path.exists(results):
        raise UserError("no such file", results)
    if os.path.isdir(results):
        raise UserError("is a directory, not a results file", results)
    for out, option in ((svg_out, "--svg"), (forest_out, "--forest")):
        try:
            if out is not None:
                check_output(out, force=force)
        except OutputError as e:
            raise UserError(f"{e} ({option})") from None
    forest = None
    map_name = "heat map"
    try:
        if is_games_file(results):
            map_name = "pair map"
            text, svg, forest = _games_report(results, proven_file, svg_out is not None,
                                              forest_out is not None, evaluations_file,
                                              ladder_files)
        elif is_evaluation_file(results):
            for given, option in ((proven_file, "--proven"), (forest_out, "--forest"),
                                  (evaluations_file, "--evaluations"),
                                  (ladder_files or None, "--ladder")):
                if given is not None:
                    raise UserError(f"{option} is not for an evaluation file (made by "
                                    "'gyges setups evaluate')")
            map_name = "evaluation map"
            params, records = read_evaluations(results)
            text = evaluation_report(params, records, top).rstrip("\n")
            svg = (evaluation_map_svg(EvaluationTable.of(records))
                   if svg_out is not None else None)
        else:
            for given, option in ((proven_file, "--proven"), (forest_out, "--forest"),
                                  (evaluations_file, "--evaluations"),
                                  (ladder_files or None, "--ladder")):
                if given is not None:
                    raise UserError(f"{option} is for a games file (made by 'gyges setups "
                                    "rank')")
            text, svg = _analysis_report(results, top, svg_out is not None)
    except ResultsFileError as e:
        raise UserError(str(e)) from None
    except OSError as e:
        raise UserError(e.strerror or str(e), e.filename or results) from None
    click.echo(text)
    for out, picture, what in ((svg_out, svg, map_name), (forest_out, forest, "forest plot")):
        if out and picture:
            try:
                with open_atomic(out) as f:
                    f.write(signed(picture, "<!--", "-->"))
            except OutputError as e:
                raise UserError(str(e)) from None
            except OSError as e:
                raise UserError(e.strerror or str(e), out) from None
            click.echo(f"{what} written to {out}", err=True)


def _analysis_report(results: str, top: int, svg: bool) -> tuple[str, str | None]:
    found, records = read_results(results)
    if not records:
        raise UserError("holds no setup analysis records (made by 'gyges setups analyze')",
                        results)
    return report(records, found, top=top), heatmap_svg(records) if svg else None


@setups_group.command("answer")
@click.argument("games_file", metavar="GAMES.jsonl")
@click.option("--evaluations", "evaluations_file", required=True, metavar="FILE.jsonl",
              help="The engine's evaluations of the pairs ('setups evaluate'), under the "
              "games' rules.")
@click.option("--validation", "validation_file", default=None, metavar="GAMES.jsonl",
              help="The games of the validation block ('setups validation-pairs'), whose "
              "verdict then counts in the answer.")
@_ladder_option("", "South's score at its weakest and strongest rungs is set beside the "
                "evaluations of the same pairs.")
def answer_command(games_file: str, evaluations_file: str, validation_file: str | None,
                   ladder_files: tuple[str, ...]) -> None:
    """Which setup should I choose? The answer a games file and an evaluation file give.

    Short paragraphs, each sentence made from the files' numbers: what the
    evaluations say (South's mean win probability, each side's best and worst setups
    and their spread); what the games say (South's score with its interval, by how
    the games were opened; each side's true spread and whether the games can rank
    it); whether the games confirm the evaluations (the correlation of the two
    over each side's setups, with a permutation p-value and the ceiling the games'
    noise puts on it; the evaluations' win probabilities scored on the games played
    from their positions; with --validation, the validation block's verdict); both
    together (each setup's games shrunk toward what the evaluations predict for it: the
    best guesses with their intervals); how large the setup's effect is beside the
    first move's (with --ladder, whether South's score moves with strength toward the
    evaluations); and the answer in short: where a test of the games confirms the
    evaluations and none contradicts them, the best guess of both together, else that
    the data cannot tell.
    docs/setups.md opens with it for the published files.

    \b
    Example:
      gyges setups answer data/setups/pbmserv-selfplay.jsonl \
          --evaluations data/setups/pbmserv-evaluations.jsonl
    """
    found, games = _games_file(games_file)
    params, records = _evaluation_file(evaluations_file, found["rules"])
    validation = None if validation_file is None else _games_file(validation_file)[1]
    rungs = _ladder_rungs(ladder_files, "--ladder", found["rules"]) if ladder_files else []
    table = game_table(games, found["canonical"])
    click.echo(setup_answer(table, found, games, records, params, validation=validation,
                            ladder=rungs), nl=False)


def _read_file(path: str, kind: str, is_kind: Callable[[str], bool],
               read: Callable[[str], tuple[Any, list[dict[str, Any]]]], where: str
               ) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The parameters and records of the ``kind`` file at ``path`` (given as ``where``),
    or a one-line error: missing, of another kind, bad, or empty."""
    if not os.path.isfile(path):
        raise UserError(f"no such {kind} file", path)
    try:
        if not is_kind(path):
            raise UserError(f"is not a {kind} file", where)
        params, records = read(path)
    except ResultsFileError as e:
        raise UserError(str(e)) from None
    if params is None or not records:
        raise UserError("holds no records", where)
    return params, records


def _evaluation_file(path: str, rules: str | None = None
                     ) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The evaluation file given as --evaluations (made under ``rules`` when given)."""
    where = f"--evaluations {path}"
    params, records = _read_file(path, "'setups evaluate'", is_evaluation_file,
                                 read_evaluations, where)
    if rules is not None and params["rules"] != rules:
        raise UserError(f"made under other rules ({params['rules']}) than the games "
                        f"({rules})", where)
    return params, records


def _games_file(path: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A games file of 'setups rank'."""
    return _read_file(path, "'setups rank' games", is_games_file, read_selfplay_games, path)


@setups_group.command("validation-pairs")
@click.option("--evaluations", "evaluations_file", required=True, metavar="FILE.jsonl",
              help="The engine's evaluations of the pairs ('setups evaluate').")
@click.option("--count", type=click.IntRange(1, 24), default=COUNT, show_default=True,
              help="Setups in each group: the best, the worst, the opponents.")
def validation_pairs_command(evaluations_file: str, count: int) -> None:
    """The pairs of the validation block, one 'SOUTH NORTH' a line, for 'setups rank
    --pairs': each side's COUNT best and COUNT worst setups by the evaluations (one of
    each setup and its mirror), each against the other side's COUNT setups whose
    averages are nearest the middle.

    \b
    Example (make validation plays the published block):
      gyges setups validation-pairs --evaluations e.jsonl > v.pairs
      gyges setups rank --pairs v.pairs --games 4000 --nodes 10000 --out v.jsonl
      gyges setups validate v.jsonl --evaluations e.jsonl
    """
    _, records = _evaluation_file(evaluations_file)
    for south, north in validation_pairs(EvaluationTable.of(records), count):
        click.echo(f"{south} {north}")


@setups_group.command("validate")
@click.argument("games_file", metavar="GAMES.jsonl")
@click.option("--evaluations", "evaluations_file", required=True, metavar="FILE.jsonl",
              help="The evaluations the block was drawn from ('setups evaluate').")
@click.option("--count", type=click.IntRange(1, 24), default=COUNT, show_default=True,
              help="Setups in each group, as given to 'setups validation-pairs'.")
def validate_command(games_file: str, evaluations_file: str, count: int) -> None:
    """Do the games confirm the evaluations' best and worst setups? For each side: the
    best group's and the worst group's score in the block's games (from
    'setups validation-pairs'), the gap with its 95% interval beside the gap the
    evaluations predict, and whether the games confirm, contradict or cannot tell.
    """
    found, games = _games_file(games_file)
    _, records = _evaluation_file(evaluations_file, found["rules"])
    click.echo(validation_report(EvaluationTable.of(records), games, count), nl=False)


@setups_group.command("compare")
@click.argument("first", metavar="A.jsonl")
@click.argument("second", metavar="B.jsonl")
def compare_command(first: str, second: str) -> None:
    """Do two evaluation files of 'setups evaluate' tell the same story? Two searches of
    the pairs (two evaluations, budgets or engines) under the same rules, side by side.

    Over the pairs both files hold (a pair and its mirror counted once): the
    correlation of South's win probability and South's mean in each (the first move's
    advantage). For each side, over its setups (a setup and its mirror counted once):
    the correlation of their averages with a permutation p-value (2,000 shuffles,
    seeded), how many of each file's 5 best setups the other's 5 best share, and the
    verdict in words: the two searches agree, rank the setups in opposite orders, or
    the data cannot tell (then each file's order of the setups is its own search's).

    \b
    Example (the linear evaluation's table against the network's):
      gyges setups compare data/setups/pbmserv-evaluations-linear.jsonl \\
          data/setups/pbmserv-evaluations.jsonl
    """
    params_a, records_a = _read_file(first, "'setups evaluate'", is_evaluation_file,
                                     read_evaluations, first)
    params_b, records_b = _read_file(second, "'setups evaluate'", is_evaluation_file,
                                     read_evaluations, second)
    if params_a["rules"] != params_b["rules"]:
        raise UserError(f"made under other rules ({params_b['rules']}) than {first} "
                        f"({params_a['rules']}): compare files of the same rules", second)
    try:
        c = compare_evaluations(EvaluationTable.of(records_a), EvaluationTable.of(records_b))
    except ValueError as e:
        raise UserError(str(e)) from None
    click.echo(comparison_report((first, params_a), (second, params_b), c), nl=False)


@setups_group.command("ladder")
@click.argument("games_files", nargs=-1, required=True, metavar="GAMES.jsonl...")
def ladder_command(games_files: tuple[str, ...]) -> None:
    """The strength ladder: do the games' answers move with the engine's strength?

    Give games files of 'setups rank' that differ only in the engine's limit (the same
    pairs, rules, proof horizon and engine), weakest first. For each strength: South's
    score (the first-move advantage) with its 95% interval, from the setups
    themselves and after random first moves, and each side's split-half reliability.
    Between each two strengths: the change in South's score with its interval, and
    the correlation of each side's setup strengths with its interval, beside the
    ceiling the games' noise puts on it (when the interval stays below it, the
    ranking moves with strength).

    \b
    Example (make ladder plays the published one):
      gyges setups ladder ladder-1k.jsonl ladder-10k.jsonl ladder-50k.jsonl
    """
    click.echo(ladder_report(_ladder_rungs(games_files)), nl=False)


def _ladder_rungs(games_files: Sequence[str], option: str = "", rules: str | None = None
                  ) -> list[Rung]:
    """The rungs of a strength ladder, one games file a rung (``option``: the option that
    named the files, for the messages; ``rules``: the rules the games must be under)."""
    if len(games_files) < 2:
        raise UserError(f"give at least two games files{option and ' to ' + option}, one "
                        "a strength")
    try:
        return ladder_rungs([_games_file(path) for path in games_files], rules)
    except LadderError as e:
        where = f"{option} {games_files[e.index]}".strip()
        raise UserError(str(e).replace("the first file", games_files[0]), where) from None


def _evaluation_columns(path: str, rules: str) -> dict[Side, dict[str, float]]:
    """By side, each setup's average win probability in the evaluation file ``path``."""
    _, records = _evaluation_file(path, rules)
    return EvaluationTable.of(records).forest_column()


def _games_report(results: str, proven_file: str | None, svg: bool, forest: bool,
                  evaluations_file: str | None = None, ladder_files: Sequence[str] = ()
                  ) -> tuple[str, str | None, str | None]:
    found, games = read_selfplay_games(results)
    if not games or found is None:
        raise UserError("holds no game records (made by 'gyges setups rank')", results)
    proven: list[dict] = []
    if proven_file is not None:
        if not os.path.isfile(proven_file):
            raise UserError("no such results file", proven_file)
        analysis, records = read_results(proven_file)
        proven = [r.to_json() for r in records]
        if analysis is not None and analysis.rules != found["rules"]:
            raise UserError(f"made under other rules ({analysis.rules}) than the games "
                            f"({found['rules']}): give an analysis under the games' rules",
                            f"--proven {proven_file}")
    table = game_table(games, found["canonical"], proven)
    evaluations = (None if evaluations_file is None
                   else _evaluation_columns(evaluations_file, found["rules"]))
    rungs = _ladder_rungs(ladder_files, "--ladder", found["rules"]) if ladder_files else []
    return (rank_report(table, found, games, rungs=rungs), score_map_svg(table) if svg else None,
            forest_plot(table, evaluations, evaluation_label="evaluation")
            if forest else None)


COMMANDS = [setups_group]
