"""Game review: what the solver proves at every move of a game record, and the playing
engine's judgement of every turn (docs/review.md).

The room's modules:

- :mod:`~gyges.puzzles.review.game_review`: the review (:func:`review_game`, a
  :class:`GameReview`): each turn classed by what it did to the proven result, the ply
  where the result became forced, and the positions found made catalogue entries;
- :mod:`~gyges.puzzles.review.engine_judgement`: the engine's judgement of a turn (the
  mover's win probability before and after it, the best move, the marks for an
  inaccuracy, a mistake, a blunder at the falls :data:`INACCURACY`, :data:`MISTAKE`,
  :data:`BLUNDER`; each position searched within :data:`DEFAULT_REVIEW_LIMIT` unless told).

This package is the review's public face: the names below are those of its modules.
"""

from gyges.puzzles.review.engine_judgement import (
    BLUNDER,
    DEFAULT_REVIEW_LIMIT,
    INACCURACY,
    MISTAKE,
    EngineMark,
    Judgement,
)
from gyges.puzzles.review.game_review import (
    GameReview,
    Kind,
    Mark,
    MoveReview,
    PositionVerdict,
    ReviewInterrupted,
    review_game,
)

__all__ = [
    "BLUNDER", "DEFAULT_REVIEW_LIMIT", "INACCURACY", "MISTAKE", "EngineMark", "GameReview",
    "Judgement", "Kind", "Mark", "MoveReview", "PositionVerdict", "ReviewInterrupted",
    "review_game",
]
