"""The measurement behind review's marks (docs/review.md, "Why these thresholds"): how often
the mover's printed win probability falls by at least so many points on the engine's own
best move (a false alarm) and on a random legal move.

Self-play games of the builtin engine at 3,000 nodes a move, from the first GAMES setup
pairs of ``gyges.engine.openings()``, at most 60 moves each. In each position whose score
is not a proven result, one engine per game (one table, as a review has) searches the
position at review's default limit, then the position after its best move and the position
after a random legal move that does not land (seeded by the game's number), and judges
both moves as ``gyges review`` does (``gyges.puzzles.review.engine_judgement.judge``).

The thresholds follow from the table by a rule written here, not by hand: the smallest
multiple of 5 points at which the engine's own best move falls that far in at most 5% of
positions (inaccuracy), 2% (mistake) and 1% (blunder), each above the one before.

Run from the repository's root (about 12 CPU minutes with the defaults, ``--jobs 2``
halves the wall time); it prints the report kept in ``data/engine/review-thresholds.txt``:

    python3 data/engine/review_thresholds.py --jobs 2 > data/engine/review-thresholds.txt
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import sys

from gyges.engine import Analysis, Engine, Limit, open_player, openings, play_game
from gyges.engine.identity import engine_identity
from gyges.engine.refereed import replay_moves
from gyges.game.moves import apply_move, legal_moves
from gyges.game.rules import PRESETS
from gyges.puzzles.review.engine_judgement import DEFAULT_REVIEW_LIMIT, assess_position, judge

RULES = PRESETS["pbmserv"]
PLAY_NODES = 3000
MAX_PLIES = 60
STEPS = (5, 10, 15, 20, 25, 30, 35, 40, 50)
#: the largest share of the engine's own best moves a mark may fall on
RATES = (("inaccuracy", 0.05), ("mistake", 0.02), ("blunder", 0.01))


def _assess(engine: Engine, position, history):
    depths: list[Analysis] = []
    analysis = engine.analyse(position, DEFAULT_REVIEW_LIMIT, history, depths.append)
    return assess_position(analysis, depths)


def game_drops(number: int) -> list[tuple[float, float]]:
    """Game ``number``'s positions: (the best move's fall, a random move's fall)."""
    player = open_player(f"builtin:nodes={PLAY_NODES}", RULES)
    try:
        game = play_game(player, player, openings()[number], RULES,
                         Limit(nodes=PLAY_NODES), MAX_PLIES)
    finally:
        player.close()
    engine = Engine(RULES)
    rng = random.Random(number)
    out = []
    for position, history in replay_moves(game, RULES):
        before = _assess(engine, position, history)
        if before.score.is_proven or before.best is None:
            continue
        moves = legal_moves(position, RULES, history)
        others = [m for m in moves.moves if not m.is_win
                  and m.result_key(position) != before.best.result_key(position)]
        if not others:
            continue
        falls = []
        for move in (moves.find(before.best), rng.choice(others)):
            after_position = apply_move(position, move)
            after = _assess(engine, after_position, (*history, position))
            falls.append(judge(before, move, after).drop)
        out.append((falls[0], falls[1]))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=150)
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args()
    with multiprocessing.Pool(args.jobs) as pool:
        per_game = pool.map(game_drops, range(args.games), chunksize=1)
    drops = [d for game in per_game for d in game]
    n = len(drops)
    rate = {t: (sum(b >= t / 100 for b, _ in drops) / n, sum(r >= t / 100 for _, r in drops) / n)
            for t in STEPS}
    print(f"review's marks: falls in the mover's printed win probability, {n:,} positions "
          f"of {args.games} self-play games")
    print(f"  ({PLAY_NODES:,} nodes a move, at most {MAX_PLIES} moves; judged at review's "
          f"default limit, {DEFAULT_REVIEW_LIMIT.nodes:,} nodes)")
    print(f"  by {engine_identity(command='python3 data/engine/review_thresholds.py')}")
    print()
    print("the fall is at least   " + "".join(f"{t:>7}" for t in STEPS) + "  points")
    print("the engine's best move " + "".join(f"{100 * rate[t][0]:6.1f}%" for t in STEPS))
    print("a random legal move    " + "".join(f"{100 * rate[t][1]:6.1f}%" for t in STEPS))
    print()
    floor = 0
    for mark, most in RATES:
        chosen = next((t for t in STEPS if t > floor and rate[t][0] <= most), None)
        if chosen is None:
            print(f"{mark}: no step of the table keeps the best move's share at "
                  f"{100 * most:g}% or less")
            sys.exit(1)
        print(f"{mark}: {chosen} points (the best move falls that far in "
              f"{100 * rate[chosen][0]:.1f}% of positions, at most {100 * most:g}%; a random "
              f"move in {100 * rate[chosen][1]:.1f}%)")
        floor = chosen


if __name__ == "__main__":
    main()
