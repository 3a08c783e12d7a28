"""The measurement behind docs/engine.md's word on the mover's offset ("Is the printed
probability true?"): how the searched scores of two consecutive moves of a game compare.

In a games file of ``gyges engine-data`` (each move's searched score, for the side that
moved), a move's score ``v`` and the next move's ``w`` (the opponent's) would add up to 0 on
average if each search judged the position as the one before it did. Their sum is what
the side to move's score runs high by, twice (once for each side). Only pairs of scores
that are not proven results and where the first is within ``--within`` of 0 (where the
printed probability is not yet near 0 or 1) are counted; the 95% interval of the mean is by
games (a game's pairs are not independent).

Run from the repository's root (a few seconds); it prints the report kept in
``data/engine/score-alternation.txt``:

    python3 data/engine/score_alternation.py data/engine/network-final-games.jsonl.gz \\
        > data/engine/score-alternation.txt
"""

from __future__ import annotations

import argparse
import gzip
import json
import math
import statistics

PROVEN = 20000   # a score at least this large is a proven result (docs/engine.md)


def game_pairs(scores: list[int | None], within: int) -> list[int]:
    """The sums of consecutive searched scores of one game (both not proven, the first
    within ``within`` of 0).

    >>> game_pairs([None, 40, -10, 31995, -31996], 300)
    [30]
    """
    out = []
    for v, w in zip(scores, scores[1:], strict=False):
        if v is None or w is None or abs(v) >= PROVEN or abs(w) >= PROVEN or abs(v) > within:
            continue
        out.append(v + w)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("games", help="a games file of gyges engine-data (.jsonl or .jsonl.gz)")
    parser.add_argument("--within", type=int, default=300,
                        help="count a pair only where the first score is within this of 0")
    args = parser.parse_args()
    opener = gzip.open if args.games.endswith(".gz") else open
    per_game: list[list[int]] = []
    engine = scale = None
    with opener(args.games, "rt") as f:
        for line in f:
            record = json.loads(line)
            engine = engine or record.get("engine")
            scale = scale or record.get("calibration")
            pairs = game_pairs(record.get("scores") or [], args.within)
            if pairs:
                per_game.append(pairs)
    sums = [s for g in per_game for s in g]
    n, mean = len(sums), statistics.fmean(sums)
    # the variance of the mean by games: the sum of each game's deviations, squared
    var = sum(sum(s - mean for s in g) ** 2 for g in per_game) / (n * n)
    half = 1.96 * math.sqrt(var)
    print(f"consecutive searched scores of {args.games}: {n:,} pairs of {len(per_game):,} "
          f"games (neither proven, the first within {args.within} of 0)")
    if engine:
        print(f"  played by engine {engine.get('code')}, weights {engine.get('weights')}")
    print(f"  the sum of a move's score and the next move's: mean {mean:+.1f} "
          f"[{mean - half:+.1f}, {mean + half:+.1f}] (95%, by games), median "
          f"{statistics.median(sums):+.0f}")
    print(f"  the side to move's score runs high by about {mean / 2:.0f} on average: "
          f"{mean / 2 / 100:.3f} logits on the evaluation's own scale")


if __name__ == "__main__":
    main()
