"""The playing engine (``gyges.engine``): speed beside the peer engine Helios, strength in
games against it and between settings, the catalogue's keys in a second each (figures in
docs/engine.md).

- ``nps [SECONDS] [--runs N] [--network FILE]``: nodes per second on the same positions,
  side by side: Helios (its last ``info ... nps`` line) on core 1, the builtin engine (no
  proofs; its default evaluation, or the network FILE, or ``linear``) on core 0, each
  given SECONDS a position, alternating, N times (default 3): the median.
- ``match GAMES SECONDS [ENGINE] [--out FILE]``: ENGINE (default ``builtin``) against
  Helios under Helios's rules, from canonical setup pairs in the fixed order, each pair
  twice with the sides swapped, SECONDS a move, one core each (``run_match``, as
  ``gyges match`` plays it; FILE resumable).
- ``versus A B GAMES [--depth D | --nodes N | --time S] [--rules peer|pbmserv]``: two
  engine texts against each other the same way (fixed depth or nodes: deterministic).
- ``throughput [GAMES] [SECONDS] [--jobs J]``: self-play games an hour, the builtin engine
  against itself at SECONDS a move (default 0.05) on J worker processes (default 2).
- ``puzzles [SECONDS] [--cores C]``: every win of the catalogue (wins in 1 to 5): is the
  key found within SECONDS (default 1) by the engine on C cores (default 1), and how long
  the search took.
- ``cores [SECONDS] [--runs N] [--cores C]``: the search on one core and on C (default
  2): the time to the deepest depth both reach within SECONDS (default 2), N times
  (default 3) alternating, the medians.
- ``cores-games [SECONDS] [--positions N] [--cores C]``: the same on N positions (default
  70) from the published self-play games under Helios's rules (the positions before moves
  10, 20, 30 and 40 of every 97th game), SECONDS (default 0.5) each, once: the geometric
  mean of the speed-ups, positions the search settles or completes no depth of 0.02 s in
  left out. Searches as short as a game's moves.
- ``prover-share [SECONDS] [--positions N] [--cores C]``: where a move's time goes at
  SECONDS a move (default 0.2) on C cores (default 1), over the same positions: the
  search's share and each prover question's (a win within ``prove``, within ``prove`` + 1,
  the checks of whether the chosen move loses).

Helios is built as docs/engine.md says ("Helios, the other engine"); without it the
comparisons are skipped. Run: ``python -m bench.bench_engine nps 1``;
``python -m bench engine`` runs ``nps`` and ``puzzles``.
"""

from __future__ import annotations

import argparse
import gzip
import itertools
import json
import math
import os
import shlex
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench import machine
from gyges.engine import Analysis, Engine, Limit, Options, analyse
from gyges.engine.calibration import recorded_moves
from gyges.engine.client import popen_ugi
from gyges.engine.match import MatchResult, MatchSettings, run_match
from gyges.engine.network import evaluation_network
from gyges.formats.notation import parse_turn
from gyges.game.moves import Move
from gyges.game.position import Position
from gyges.game.rules import PRESETS, RuleSet
from gyges.puzzles.catalogue import load_catalogue
from gyges.puzzles.catalogue.schema import Puzzle

HELIOS = Path(os.environ.get("GYGES_PEER", "/tmp/peer/ugi/target/release/gyges_engine"))
PEER = PRESETS["helios"]
ROOT = Path(__file__).resolve().parent.parent

#: Positions for the speed comparison: the start, the Rust engine's test position, and
#: positions from games of the builtin engine against itself (12 rings, as Helios needs).
POSITIONS = (
    "321123/....../....../....../....../231123 S",
    "030100/000200/002000/021100/300300/002130 S",
    ".21123/..3.../....../....3./....../23112. S",
    "2131../...1../...3../...2../..1.../3.223. S",
    "2..12./...1../..133./..13../..2.../..2.3. S",
    "12.31./....3./....../....../.2...1/.32231 S",
    "3...1./2.1.3./...2../....../.2.1.1/.323.. S",
    "2.312./1...../...13./....../...1../23.3.2 S",
    "..3.2./1...../...11./....3./..322./23..1. S",
)


def _pin(core: int) -> None:
    if hasattr(os, "sched_setaffinity") and (os.cpu_count() or 1) > core:
        os.sched_setaffinity(0, {core})


def _helios_command() -> list[str]:
    return ["taskset", "-c", "1", str(HELIOS)] if (os.cpu_count() or 1) > 1 else [str(HELIOS)]


def _helios_nps(position: Position, seconds: float) -> tuple[int, int]:
    """Helios's last ``info`` line on ``position``: (its nodes per second, ply)."""
    with popen_ugi(_helios_command()) as helios:
        a = helios.analyse(position, Limit(time=seconds))
    return a.nps, a.depth


def bench_nps(seconds: float = 1.0, runs: int = 3, network: str | None = None) -> None:
    """Nodes a second side by side, each program ``runs`` times a position (alternating),
    its median rate (a single run of Helios varies by a sixth from one run to the next);
    a program that settles a position (Helios: ply 99; gyges: a proven score) stops
    early, and its rate over that moment is left out of the ratio. ``network``: gyges
    evaluates with this network file (``linear``: the linear evaluation; None: the
    default one)."""
    net = evaluation_network(network)
    print(f"nodes per second, {seconds:g} s a position, one core each, the median of "
          f"{runs} runs (lowest-highest), gyges's evaluation: {network or 'the default'}"
          f"  ({machine()})")
    print(f"  {'position':46s} {'Helios nps (ply)':>30s} {'gyges nps (depth)':>30s}")
    _pin(0)
    ratios = []
    for text in POSITIONS:
        p = Position.from_string(text)
        helios: list[tuple[int, int]] = []
        gyges = []
        for _ in range(runs):
            if HELIOS.exists():
                helios.append(_helios_nps(p, seconds))
            gyges.append(analyse(p, PEER, Limit(time=seconds),
                                 options=Options(prove=0, network=net)))
        hn, hd = _median(helios) if helios else (0, 0)
        a = sorted(gyges, key=lambda x: x.nps)[len(gyges) // 2]
        settled = f"  gyges: {a.score} after {a.nodes} nodes" if a.score.is_proven else ""
        settled += "  Helios: solved" if any(d >= 99 for _, d in helios) else ""
        h_range = f"{min(n for n, _ in helios)}-{max(n for n, _ in helios)}" if helios else "-"
        g_range = f"{min(x.nps for x in gyges)}-{max(x.nps for x in gyges)}"
        print(f"  {text:46s} {hn:8d} ({hd:2d}) {h_range:>15s} "
              f"{a.nps:8d} ({a.depth:2d}) {g_range:>15s}{settled}")
        if hn and not settled:
            ratios.append(a.nps / hn)
    if ratios:
        print(f"  gyges / Helios (medians) on the {len(ratios)} positions both searched: "
              f"{min(ratios):.2f} to {max(ratios):.2f} (mean {sum(ratios) / len(ratios):.2f})")


def _depth_times(position: Position, rules: RuleSet, seconds: float,
                 cores: int) -> dict[int, float]:
    """Each depth the search completes within ``seconds`` (no prover), with the time it
    took."""
    times: dict[int, float] = {}

    def info(a: Analysis) -> None:
        times[a.depth] = a.search_time

    analyse(position, rules, Limit(time=seconds), options=Options(prove=0, cores=cores),
            info=info)
    return times


def bench_cores(seconds: float = 2.0, runs: int = 3, cores: int = 2) -> None:
    """The search on one core and on ``cores``: on each position, the deepest depth both
    complete within ``seconds`` and the time each took to it (the median of ``runs``
    alternating runs); the catalogue's two deepest wins in 5 of the no-Renop file too. A
    position the search settles (a proven result) in under 0.1 s is left out."""
    print(f"time to a depth on 1 and {cores} cores, {seconds:g} s a search, the median of "
          f"{runs} runs  ({machine()})")
    cases = [(text, PEER, Position.from_string(text)) for text in POSITIONS]
    deep = load_catalogue(ROOT / "puzzles" / "deep" / "win-in-5-no-renop.yaml")
    cases += [(p.id, p.rules, p.position) for p in deep.puzzles
              if p.id in ("gen-w5-s52-00000", "gen-w5-s52-00002")]
    ratios = []
    for name, rules, p in cases:
        one: list[dict[int, float]] = []
        many: list[dict[int, float]] = []
        for _ in range(runs):
            one.append(_depth_times(p, rules, seconds, 1))
            many.append(_depth_times(p, rules, seconds, cores))
        depth = min(max(t) for t in one + many if t)
        t1 = sorted(t[depth] for t in one)[runs // 2]
        tn = sorted(t[depth] for t in many)[runs // 2]
        if t1 < 0.1:
            print(f"  {name:46s} settled at depth {depth} in {t1:.2f} s (left out)")
            continue
        ratios.append(t1 / tn)
        print(f"  {name:46s} depth {depth:2d}: {t1:5.2f} s on 1 core, {tn:5.2f} s on "
              f"{cores}: {t1 / tn:4.2f} times faster")
    print(f"  {min(ratios):.2f} to {max(ratios):.2f} times faster (mean "
          f"{sum(ratios) / len(ratios):.2f})")


def game_positions(count: int) -> list[Position]:
    """``count`` positions from the published self-play games under Helios's rules: the
    positions before moves 10, 20, 30 and 40 of every 97th game (of those that long)."""
    out: list[Position] = []
    games = ROOT / "data" / "engine" / "training-games-2.jsonl.gz"
    with gzip.open(games, "rt", encoding="utf-8") as f:
        for line in itertools.islice(f, 1, None, 97):
            record = json.loads(line)
            if record["rules"] != "helios":
                continue
            moves = list(recorded_moves(record))
            out += [moves[k].position for k in (10, 20, 30, 40) if len(moves) > k + 2]
            if len(out) >= count:
                return out[:count]
    return out


def bench_cores_games(seconds: float = 0.5, positions: int = 70, cores: int = 2) -> None:
    """The search on one core and on ``cores`` on positions from games (see the module)."""
    print(f"time to a depth on 1 and {cores} cores, {seconds:g} s a search, {positions} "
          f"positions from self-play games  ({machine()})")
    logs = []
    for p in game_positions(positions):
        one = _depth_times(p, PEER, seconds, 1)
        many = _depth_times(p, PEER, seconds, cores)
        common = [d for d in one if d in many and one[d] >= 0.02]
        if common:
            d = max(common)
            logs.append(math.log(one[d] / many[d]))
    mean = math.exp(sum(logs) / len(logs)) if logs else math.nan
    low, high = (math.exp(min(logs)), math.exp(max(logs))) if logs else (math.nan, math.nan)
    print(f"  {len(logs)} positions compared ({positions - len(logs)} settled or too quick): "
          f"{cores} cores {mean:.2f} times as fast (geometric mean; {low:.2f} to {high:.2f})")


def _median(runs: list[tuple[int, int]]) -> tuple[int, int]:
    """The run of the median rate: (nodes a second, ply)."""
    return sorted(runs)[len(runs) // 2]


def _match(a: str, b: str, games: int, limit: Limit, rules: RuleSet, out: Path | None,
           jobs: int = 1) -> MatchResult:
    """``a`` against ``b`` by :func:`gyges.engine.match.run_match` (canonical openings,
    each with both sides), into ``out`` (resumable) or a file thrown away."""
    settings = MatchSettings((a, b), rules, limit)
    with tempfile.TemporaryDirectory() as tmp:
        path = out if out is not None else Path(tmp) / "games.jsonl"
        return run_match(settings, games, str(path), jobs=jobs, progress=sys.stderr)


def bench_match(games: int, seconds: float, engine: str, out: Path | None) -> None:
    if not HELIOS.exists():
        print(f"Helios is not built ({HELIOS}): no match")
        return
    print(f"{engine} against Helios, {games} games, {seconds:g} s a move, Helios's rules "
          f"({machine()})")
    _pin(0)
    t = time.time()
    helios = "ugi:" + shlex.join(_helios_command())
    result = _match(engine, helios, games, Limit(time=seconds), PEER, out)
    print(result.text())
    print(f"  ({time.time() - t:.0f} s; load after: "
          f"{' '.join(f'{x:.1f}' for x in os.getloadavg())})")


def bench_versus(a: str, b: str, games: int, limit: Limit, rules_name: str) -> None:
    rules = PEER if rules_name == "peer" else PRESETS[rules_name]
    print(f"{a} against {b}, {games} games, {limit}, rules {rules_name}")
    print(_match(a, b, games, limit, rules, None).text())


def bench_prover_share(seconds: float = 0.2, positions: int = 70, cores: int = 1) -> None:
    """Where a move's time goes: the share of the whole analysis (measured around it) that
    the search and each of the prover's questions take, summed over the positions of
    :func:`game_positions`, a cleared table before each, Helios's rules."""
    from gyges.engine import proofs

    spent: dict[str, float] = {}

    def timed(name: str, question: Any) -> Any:
        def asked(*args: Any, **kwargs: Any) -> Any:
            began = time.perf_counter()
            try:
                return question(*args, **kwargs)
            finally:
                key = f"{name} within {args[2]}" if name == "win" else name
                spent[key] = spent.get(key, 0.0) + time.perf_counter() - began
        return asked

    print(f"where a move's time goes, {seconds:g} s a move on {cores} core(s), {positions} "
          f"positions from self-play games  ({machine()}; load before "
          f"{os.getloadavg()[0]:.1f})")
    real = proofs.forced_win, proofs.loses_after
    proofs.forced_win = timed("win", real[0])          # type: ignore[assignment]
    proofs.loses_after = timed("loses", real[1])       # type: ignore[assignment]
    total = searched = 0.0
    open_moves: list[float] = []          # the moves that end unsettled: their seconds
    try:
        with Engine(PEER, Options(cores=cores)) as engine:
            for position in game_positions(positions):
                engine.clear()
                began = time.perf_counter()
                a = engine.analyse(position, Limit(time=seconds))
                took = time.perf_counter() - began
                total += took
                searched += a.search_time
                if not a.score.is_proven:
                    open_moves.append(took)
    finally:
        proofs.forced_win, proofs.loses_after = real
    print(f"  {total:.2f} s in all ({total / positions:.3f} s a move): the search "
          f"{searched / total:.0%}, " + ", ".join(
              f"{'a win ' + k.split()[-1] if k.startswith('win') else 'the loss checks'}: "
              f"{v / total:.0%}" for k, v in sorted(spent.items())))
    if open_moves:
        print(f"  {positions - len(open_moves)} of {positions} moves end settled (a proven "
              f"win or loss); the other {len(open_moves)} take {min(open_moves):.3f} to "
              f"{max(open_moves):.3f} s, {sum(open_moves) / len(open_moves):.3f} s on average "
              f"({sum(open_moves) / len(open_moves) / seconds:.0%} of the move's time)")


def bench_throughput(games: int = 100, seconds: float = 0.05, jobs: int = 2) -> None:
    """Self-play games an hour: the builtin engine against itself at ``seconds`` a move on
    ``jobs`` worker processes (what ``gyges match builtin builtin --time S --jobs J``
    does), pbmserv rules."""
    load = os.getloadavg()[0]
    t = time.perf_counter()
    result = _match("builtin", "builtin", games, Limit(time=seconds), PRESETS["pbmserv"],
                    None, jobs)
    spent = time.perf_counter() - t
    moves = sum(len(g.moves) for g in result.games.values())
    print(f"self-play at {seconds:g} s a move on {jobs} jobs ({machine()}; load before "
          f"{load:.1f})")
    print(f"  {len(result.games)} games, {moves} moves in {spent:.0f} s: "
          f"{3600 * len(result.games) / spent:.0f} games an hour, "
          f"{spent * jobs / max(1, moves):.3f} s a move per job, "
          f"{moves / max(1, len(result.games)):.1f} moves a game")


def _move(puzzle: Puzzle, text: str) -> Move:
    return parse_turn(text, puzzle.position, puzzle.rules, puzzle.history)[0]


def bench_puzzles(seconds: float = 1.0, cores: int = 1) -> None:
    """Every win of the catalogue: is its key (or a cook: the catalogue lists every
    winning first move, checked by the solver) found within ``seconds``? Counts by
    length; each miss with what was played and how far the search got."""
    print(f"the catalogue's wins: key found within {seconds:g} s on {cores} "
          f"core{'s' if cores > 1 else ''}?  ({machine()})")
    by_length: dict[int, list[int]] = {}
    slowest = 0.0
    for path in sorted((ROOT / "puzzles").rglob("*.yaml")):
        for puzzle in load_catalogue(path).puzzles:
            stip = puzzle.stipulation
            if stip.kind != "win":
                continue
            t = time.perf_counter()
            a = analyse(puzzle.position, puzzle.rules, Limit(time=seconds), puzzle.history,
                        Options(cores=cores))
            spent = time.perf_counter() - t
            keys = {_move(puzzle, text).result_key(puzzle.position)
                    for text in (puzzle.key, *puzzle.cooks) if text}
            ok = a.move is not None and a.move.result_key(puzzle.position) in keys
            tally = by_length.setdefault(stip.moves, [0, 0])
            tally[0] += ok
            tally[1] += 1
            slowest = max(slowest, spent)
            if not ok:
                print(f"  missed {puzzle.id} ({stip}): played {a.move}, score {a.score}, "
                      f"depth {a.depth}, {a.nodes} nodes in {spent:.2f} s; key "
                      f"{' or '.join(t for t in (puzzle.key, *puzzle.cooks) if t)}",
                      flush=True)
    found = sum(t[0] for t in by_length.values())
    total = sum(t[1] for t in by_length.values())
    print("  " + ", ".join(f"wins in {k}: {t[0]} of {t[1]}"
                           for k, t in sorted(by_length.items())))
    print(f"  {found} of {total} keys found; the slowest answer took {slowest:.2f} s "
          f"(load after: {os.getloadavg()[0]:.1f})")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.bench_engine")
    sub = parser.add_subparsers(dest="what")
    p = sub.add_parser("nps")
    p.add_argument("seconds", type=float, nargs="?", default=1.0)
    p.add_argument("--runs", type=int, default=3)
    p.add_argument("--network", default=None, help="a network file, or linear")
    p = sub.add_parser("cores")
    p.add_argument("seconds", type=float, nargs="?", default=2.0)
    p.add_argument("--runs", type=int, default=3)
    p.add_argument("--cores", type=int, default=2)
    p = sub.add_parser("cores-games")
    p.add_argument("seconds", type=float, nargs="?", default=0.5)
    p.add_argument("--positions", type=int, default=70)
    p.add_argument("--cores", type=int, default=2)
    p = sub.add_parser("prover-share")
    p.add_argument("seconds", type=float, nargs="?", default=0.2)
    p.add_argument("--positions", type=int, default=70)
    p.add_argument("--cores", type=int, default=1)
    p = sub.add_parser("match")
    p.add_argument("games", type=int)
    p.add_argument("seconds", type=float)
    p.add_argument("engine", nargs="?", default="builtin")
    p.add_argument("--out", type=Path, default=None)
    p = sub.add_parser("versus")
    p.add_argument("a")
    p.add_argument("b")
    p.add_argument("games", type=int)
    p.add_argument("--depth", type=int)
    p.add_argument("--nodes", type=int)
    p.add_argument("--time", type=float)
    p.add_argument("--rules", default="peer")
    p = sub.add_parser("throughput")
    p.add_argument("games", type=int, nargs="?", default=100)
    p.add_argument("seconds", type=float, nargs="?", default=0.05)
    p.add_argument("--jobs", type=int, default=2)
    p = sub.add_parser("puzzles")
    p.add_argument("seconds", type=float, nargs="?", default=1.0)
    p.add_argument("--cores", type=int, default=1)
    args = parser.parse_args(argv if argv is not None else [])
    print(f"  {time.strftime('%Y-%m-%d %H:%M')}")
    if args.what in (None, "nps"):
        bench_nps(getattr(args, "seconds", 1.0), getattr(args, "runs", 3),
                  getattr(args, "network", None))
    if args.what == "cores":
        bench_cores(args.seconds, args.runs, args.cores)
    if args.what == "cores-games":
        bench_cores_games(args.seconds, args.positions, args.cores)
    if args.what == "prover-share":
        bench_prover_share(args.seconds, args.positions, args.cores)
    if args.what == "match":
        bench_match(args.games, args.seconds, args.engine, args.out)
    if args.what == "versus":
        bench_versus(args.a, args.b, args.games,
                     Limit(time=args.time, depth=args.depth, nodes=args.nodes), args.rules)
    if args.what == "throughput":
        bench_throughput(args.games, args.seconds, args.jobs)
    if args.what in (None, "puzzles"):
        bench_puzzles(getattr(args, "seconds", 1.0), getattr(args, "cores", 1))


if __name__ == "__main__":
    main(sys.argv[1:])

