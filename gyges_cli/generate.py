"""``gyges generate``: compose, verify, rate and collect sound puzzles (docs/generate.md)."""

from __future__ import annotations

import os
import sys

import click

from gyges.formats.quoting import counted
from gyges.game.rules import RuleRequest, RuleSet
from gyges.output import OutputError, check_output, distinct
from gyges.puzzles.catalogue import THEMES
from gyges.puzzles.generate import (
    SOURCES,
    GenerateError,
    KnownCatalogueError,
    OutputNotCatalogue,
    Params,
    ParamsError,
    Source,
    StateMismatch,
    generate_puzzles,
    generated_moves,
    parse_themes,
    state_path,
)
from gyges_cli.batch import run_errors, scheduler_option
from gyges_cli.common import (
    EXIT_CHECK_FAILED,
    UserError,
    check_jobs,
    fail,
    interrupted,
    jobs_option,
    rule_options,
)


@click.command("generate")
@click.option("--stipulation", required=True, metavar="'win in N'",
              help="What the side to move must do: 'win in 2', 'win in 3' (N = 2..6).")
@click.option("--themes", default=None, metavar="LIST",
              help="Comma-separated themes every puzzle must show: 'bounce chain N' (at "
              "least N), " + ", ".join(t for t in THEMES if t not in ("bounce chain N",
                                                                      "unstoppable"))
              + " (docs/catalogue.md, Themes).")
@rule_options(from_file=False)
@click.option("--count", default=10, show_default=True, type=int,
              help="How many sound, new puzzles to collect.")
@click.option("--seed", default=0, show_default=True, type=int,
              help="The run's seed: the same seed gives the same puzzles, whatever --jobs.")
@jobs_option()
@scheduler_option
@click.option("--source", type=click.Choice(["both", "play", "compose", "games"]),
              default="both", show_default=True,
              help="Candidates from random play, from the CP-SAT construction, both (play, "
              "one candidate in 256 constructed), or from the builtin engine's self-play "
              "games (each puzzle keeps its game as its history).")
@click.option("--no-duals", is_flag=True, help="Reject puzzles with duals (default: keep them "
              "and note the dual as a flaw).")
@click.option("--min-tries", default=2, show_default=True, type=int,
              help="Plausible tries (other moves that threaten to land) a puzzle needs.")
@click.option("--max-candidates", default=None, type=int,
              help="Give up after this many candidates, at least 1 (default: 200 per puzzle "
              "+ 200).")
@click.option("--against", "against", multiple=True, type=click.Path(),
              help="Catalogue files or directories whose puzzles are not generated again "
              "(default: puzzles/ when it exists); repeatable.")
@click.option("--state", default=None, type=click.Path(dir_okay=False),
              help="The side file of judged candidates (default: OUT.jsonl); a rerun "
              "resumes from it.")
@click.option("--log", default=None, type=click.Path(dir_okay=False),
              help="Write the workers' log to this file.")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
@click.option("--out", required=True, type=click.Path(dir_okay=False),
              help="The catalogue file to write (YAML, schema 1). A file you wrote or "
              "edited keeps its text and gains the new puzzles; missing directories are "
              "created.")
@click.option("--force", is_flag=True,
              help="Replace --out even when it is not a catalogue the puzzles can be added to.")
def generate(stipulation: str, themes: str | None, rules: RuleSet, rules_given: RuleRequest,
             count: int, seed: int, jobs: int | None, scheduler: str | None, source: str,
             no_duals: bool,
             min_tries: int, max_candidates: int | None, against: tuple[str, ...],
             state: str | None, log: str | None, quiet: bool, out: str, force: bool) -> None:
    """Generate sound puzzles: candidates from play, from a CP-SAT construction or from
    the builtin engine's self-play games (--source), each proven by the solver (exact
    stipulation, one key, not trivial), rated, tagged with its themes, duplicates
    removed; written to OUT as catalogue entries.

    Every candidate's verdict goes to a state file (OUT.jsonl) as it is judged: Ctrl-C
    keeps them (exit status 130) and the same command again resumes, to the same puzzles
    whatever --jobs. Exit status 1 when fewer than --count puzzles were found.

    \b
    Examples:
      gyges generate --stipulation 'win in 2' --count 5 --seed 1 --out my-puzzles.yaml
      gyges generate --stipulation 'win in 3' --themes 'bounce chain 2' --jobs 2 \\
          --out w3.yaml --against puzzles/
    """
    try:
        moves = generated_moves(stipulation)
        wanted = parse_themes(themes)
    except ParamsError as e:
        raise UserError(e.problem, f"--{e.field}") from None
    if count < 1:
        raise UserError(f"{count}: ask for at least one puzzle", "--count")
    jobs = check_jobs(jobs)
    if min_tries < 0:
        raise UserError(f"{min_tries}: 0 or more", "--min-tries")
    if max_candidates is not None and max_candidates < 1:
        raise UserError(f"{max_candidates}: give at least 1 (leave it out for the default)",
                        "--max-candidates")
    sources = SOURCES if source == "both" else (Source(source),)
    params = Params(moves, rules, seed, sources, wanted, no_duals, min_tries)
    if not against and os.path.isdir("puzzles"):
        against = ("puzzles",)
    if not out.strip():
        raise UserError("an empty file name: give the catalogue file to write", "--out")
    try:   # the output policy, worded with the options that name the files
        distinct(("--out", out), ("--state", state or state_path(out)))
    except OutputError as e:
        raise UserError(str(e)) from None
    for option, path in (("--out", out), ("--state", state or state_path(out))):
        try:
            check_output(path, force=True)
        except OutputError as e:
            raise UserError(f"{e} ({option})") from None
    try:
        with run_errors("--state"):
            summary = generate_puzzles(params, out, count, jobs=jobs, state=state,
                                       max_candidates=max_candidates, against=against,
                                       progress=None if quiet else sys.stderr, log=log,
                                       force=force, scheduler=scheduler)
    except GenerateError as e:
        raise UserError(_worded(e)) from None
    except OSError as e:
        raise UserError(e.strerror or str(e), e.filename or out) from None
    what = (f"{summary.found} puzzle{'s' if summary.found != 1 else ''} written to "
            f"{out} ({counted(summary.tried, 'candidate')} judged, {summary.sound} sound")
    if summary.run.resumed:
        what += f", {summary.run.resumed} of them from an earlier run"
    if summary.run.interrupted:
        interrupted(what + "); run the same command again to resume")
    click.echo(what + ")")
    if summary.found < count:
        fail(EXIT_CHECK_FAILED, f"only {summary.found} of {count} puzzles found within "
             f"{summary.limit} candidates: raise --max-candidates, or rerun with another "
             "--seed")


def _worded(e: GenerateError) -> str:
    """The library's error with the options that concern it."""
    if isinstance(e, KnownCatalogueError):
        if e.missing:
            return f"--against {e.error}"
        return f"{e.error} (a catalogue given to --against; fix it, or leave it out)"
    if isinstance(e, StateMismatch):
        return (f"{e}; rerun with those to resume it, or give this run a state file of its "
                "own with --state (the same --out gains its puzzles), or choose another --out")
    if isinstance(e, OutputNotCatalogue):
        return f"{e}: choose another --out, or pass --force to replace it"
    return str(e)


COMMANDS = [generate]
