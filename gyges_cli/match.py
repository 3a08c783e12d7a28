"""``gyges match``: games between two engines on the resumable run, with the first
engine's score, Elo difference and an optional SPRT stop (docs/engine.md)."""

from __future__ import annotations

import sys

import click

from gyges.engine.builtin import EngineError, Limit
from gyges.engine.client import EngineFailure
from gyges.engine.match import MatchSettings, run_match, write_records
from gyges.engine.openings import OPENING_SETS
from gyges.engine.players import EngineSpec
from gyges.engine.stats import Sprt
from gyges.game.rules import RuleRequest, RuleSet
from gyges.output import OutputError, check_output_dir
from gyges.setups.pairs import PairListError, parse_pairs
from gyges_cli.batch import run_errors, scheduler_option
from gyges_cli.common import (
    UserError,
    interrupted,
    jobs_option,
    limit_from_options,
    limit_options,
    rule_options,
)

#: ``match`` without --time, --depth or --nodes: a second a move.
DEFAULT_MATCH_LIMIT = Limit(time=1.0)


def _sprt(text: str | None, min_games: int) -> Sprt | None:
    if text is None:
        if min_games:
            raise UserError(f"{min_games}: the SPRT's least number of games, so only with "
                            "--sprt ELO0,ELO1", "--min-games")
        return None
    try:
        elo0, elo1 = (float(x) for x in text.split(","))
        return Sprt(elo0, elo1, min_games=min_games)
    except ValueError as e:
        detail = str(e) if "SPRT" in str(e) else "write ELO0,ELO1, like 0,50"
        raise UserError(f"{text!r}: {detail}", "--sprt") from None


def _read_pairs(path: str) -> list[tuple[str, str]]:
    """The openings of a file: one ``SOUTH NORTH`` pair a line."""
    try:
        with open(path, encoding="utf-8") as f:
            return parse_pairs(f.read(), path)
    except (OSError, UnicodeDecodeError) as e:
        raise UserError(f"cannot read it: {getattr(e, 'strerror', None) or e}", path
                        ) from None
    except PairListError as e:
        raise UserError(str(e)) from None


@click.command("match", short_help="Games between two engines: score, Elo, SPRT.")
@click.argument("first", metavar="ENGINE")
@click.argument("second", metavar="ENGINE")
@click.option("--games", type=int, required=True,
              help="Games to play (even: each opening twice, the sides swapped).")
@limit_options("a move", DEFAULT_MATCH_LIMIT)
@click.option("--openings", "opening_set", default="canonical", show_default=True,
              metavar="canonical|all|FILE",
              help="Setup pairs to start from: the 4,068 pairs up to mirror images, all "
                   "8,100 (both in a fixed seeded order), or a file of 'SOUTH NORTH' lines "
                   "(in its order).")
@click.option("--max-plies", type=click.IntRange(1, None), default=200, show_default=True,
              help="A game longer than this many moves is a draw.")
@click.option("--sprt", "sprt_text", default=None, metavar="ELO0,ELO1",
              help="Stop when the SPRT decides between 'ELO1 better' and 'ELO0' (alpha = "
                   "beta = 0.05).")
@click.option("--min-games", type=click.IntRange(0, None), default=0, metavar="N",
              help="With --sprt: play at least N games before the SPRT may stop the "
                   "match (a few games decide an SPRT on too little; N games also give "
                   "the Elo interval its width).")
@jobs_option(what="Games at a time, one worker process each.")
@scheduler_option
@click.option("--out", required=True, metavar="GAMES.jsonl",
              help="The games, one JSON object a line; rerun with it to resume or extend "
                   "the match.")
@click.option("--record", "record_dir", default=None, metavar="DIR",
              help="Also write each game in the text format 'gyges replay' reads, one file "
                   "a game (DIR/game-0001.txt...).")
@click.option("--log", default=None, metavar="FILE",
              help="Log file: one line per game (worker, result, time).")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
@rule_options(from_file=False)
def match(first: str, second: str, games: int, seconds: float | None, depth: int | None,
          nodes: int | None, opening_set: str, max_plies: int, sprt_text: str | None,
          min_games: int, jobs: int | None, scheduler: str | None, out: str,
          record_dir: str | None, log: str | None, quiet: bool, rules: RuleSet,
          rules_given: RuleRequest) -> None:
    """Play games between two engines and print the first one's score.

    Each ENGINE is builtin[:option=value,...] (the builtin engine; options depth, nodes,
    time, prove, hash, cores, weights, network) or ugi:COMMAND (any UGI program, started
    once per worker process). --games N plays N/2 openings, each twice with the sides
    swapped; the rules engine referees (an illegal or missing answer loses). Prints the
    first engine's wins, draws and losses, its score and Elo difference with the 95%
    interval, and the SPRT's state with --sprt. Ctrl-C keeps every game written (exit
    status 130); the same command again resumes, and with a larger --games extends the
    match.

    \b
    Examples:
      gyges match builtin:depth=3 builtin:depth=2 --games 20 --out d3-d2.jsonl
      gyges match builtin "ugi:gyges ugi" --time 0.1 --games 100 --jobs 2 --out m.jsonl
      gyges match builtin ugi:/path/to/gyges_engine --time 0.5 --games 200 --rules pbmserv \\
        --rule rebounce=once --rule null-move=allowed --rule blocked=draw \\
        --rule repetition=allowed --out helios.jsonl --record helios-games
    """
    if games < 2 or games % 2:
        raise UserError(f"{games}: give an even number of games, at least 2 (each opening "
                        "is played twice, the sides swapped)", "--games")
    if opening_set not in OPENING_SETS and opening_set.lower() in OPENING_SETS:
        opening_set = opening_set.lower()
    limit = limit_from_options(seconds, depth, nodes, DEFAULT_MATCH_LIMIT)
    try:
        engines = (EngineSpec.parse(first), EngineSpec.parse(second))
    except EngineError as e:
        raise UserError(str(e)) from None
    if record_dir is not None:
        try:
            check_output_dir(record_dir)      # before the games, not after them
        except OutputError as e:
            raise UserError(f"{e} (--record)") from None
    settings = MatchSettings(engines, rules, limit, opening_set, max_plies)
    pairs = None if opening_set in OPENING_SETS else _read_pairs(opening_set)
    sprt = _sprt(sprt_text, min_games)
    try:
        with run_errors("--out"):
            result = run_match(settings, games, out, pairs=pairs, sprt=sprt,
                               scheduler=scheduler,
                               jobs=jobs, progress=None if quiet else sys.stderr, log=log)
    except EngineError as e:
        raise UserError(str(e)) from None
    except EngineFailure as e:
        raise UserError(str(e), "the engine") from None
    if record_dir is not None:
        try:
            write_records(result, record_dir)
        except OSError as e:
            raise UserError(e.strerror or str(e), e.filename or record_dir) from None
    click.echo(result.text())
    if result.run.interrupted:
        interrupted(f"{len(result.games)} games kept in {out}; rerun the same command to "
                    "resume")


COMMANDS = [match]
