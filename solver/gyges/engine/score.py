"""Scores: proven results and evaluations on one total order.

A score is always from the point of view of the side to move. ``Win(k)``: the side to
move lands on the goal with its ``k``-th move at the latest; ``Loss(k)``: the opponent
lands with its ``k``-th move at the latest (``k`` counts the winner's moves, as the solver's
"wins in k" does; a move made while the other side is blocked counts). Between them lie
the evaluations, ``Eval(v)``: ``v`` hundredths of the evaluation's logit, ``Eval(0)`` an
even game. Its win probability is calibrated: measured on games held out, a searched
score is surer than the evaluation's logistic says, so ``Eval(v)`` means a win
probability of ``logistic(c * v / 100)``, where ``c`` is the scale measured for the
evaluation that searched: :data:`CALIBRATION` for the linear evaluation, ``Eval(100)`` 77 %,
not 73 %; a learned network's own (:attr:`gyges.engine.network.Network.calibration`).
:meth:`Score.probability` takes the scale, :attr:`Score.win_probability` is the linear
evaluation's (``-s`` has the probability ``1 - p``).

>>> sorted([Win(1), Eval(-40), Loss(2), Win(3), Eval(120), Loss(1)])
[Loss(1), Loss(2), Eval(-40), Eval(120), Win(3), Win(1)]
>>> -Win(2), str(Win(2)), str(Eval(-35)), Score.parse("loss in 3")
(Loss(2), 'win in 2', '-0.35', Loss(3))
>>> round(Eval(100).win_probability, 3), Win(4).win_probability
(0.774, 1.0)
>>> round(Eval(-100).win_probability + Eval(100).win_probability, 9)
1.0
>>> round(Eval(100).probability(0.89), 3), Loss(2).probability(0.89)
(0.709, 0.0)
"""

from __future__ import annotations

import dataclasses
import functools
import math
import re
from typing import Any

from gyges.engine._engine import MATE, MATE_BOUND

__all__ = ["CALIBRATION", "MATE", "Eval", "Loss", "Score", "ScoreError", "Win"]

#: Hundredths of a logit per unit of ``Eval``: the evaluation's scale.
SCALE = 100.0

#: The searched score's logit per unit of the linear evaluation's: the win probability
#: of ``Eval(v)`` is ``logistic(CALIBRATION * v / SCALE)``. Fitted (one scale, the same for
#: both sides, so that a score and its negation add up to 1) on the self-play games of
#: ``data/engine/training-games.jsonl.gz``, every 5th game held out, by ``make
#: calibration``: its report (``data/engine/calibration-report.txt``) measures what is
#: printed with it, and the scale refitted there is 1.00 when this one is right.
CALIBRATION = 1.23


class ScoreError(ValueError):
    """A score that cannot be read."""


@functools.total_ordering
class Score:
    """A proven result or an evaluation (see the module's text); compare with ``<``."""

    __slots__ = ()

    def _rank(self) -> tuple[int, float]:
        raise NotImplementedError

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, Score):
            return NotImplemented
        return self._rank() < other._rank()

    def __neg__(self) -> Score:
        raise NotImplementedError

    @property
    def is_proven(self) -> bool:
        """A landing within a number of moves (not an evaluation)."""
        return False

    def probability(self, calibration: float = CALIBRATION) -> float:
        """The chance the side to move wins: 1 or 0 for a proven result, else the
        logistic of the evaluation on the scale ``calibration`` (the evaluation's
        measured one: :data:`CALIBRATION` for the linear evaluation)."""
        raise NotImplementedError

    @property
    def win_probability(self) -> float:
        """:meth:`probability` on the linear evaluation's scale (:data:`CALIBRATION`)."""
        return self.probability()

    def to_int(self) -> int:
        """The compiled search's integer form (``MATE - plies`` for a win)."""
        raise NotImplementedError

    @staticmethod
    def from_int(value: int) -> Score:
        """A score from the compiled search's integer form.

        >>> Score.from_int(Win(3).to_int()), Score.from_int(Loss(2).to_int())
        (Win(3), Loss(2))
        """
        if value > MATE_BOUND:
            return Win((MATE - value + 1) // 2)
        if value < -MATE_BOUND:
            return Loss((MATE + value) // 2)
        return Eval(value)

    def to_json(self) -> dict[str, int]:
        raise NotImplementedError

    @staticmethod
    def from_json(data: Any) -> Score:
        """The inverse of :meth:`to_json`: ``{"win": k}``, ``{"loss": k}``, ``{"eval": v}``.

        >>> Score.from_json(Eval(12).to_json()), Score.from_json({"win": 2})
        (Eval(12), Win(2))
        """
        if isinstance(data, dict) and len(data) == 1:
            (kind, value), = data.items()
            if isinstance(value, int) and not isinstance(value, bool):
                if kind == "win" and value >= 1:
                    return Win(value)
                if kind == "loss" and value >= 1:
                    return Loss(value)
                if kind == "eval":
                    return Eval(value)
        raise ScoreError(f"{data!r} is not a score: write {{\"win\": k}}, {{\"loss\": k}} or "
                         "{\"eval\": v}")

    @staticmethod
    def parse(text: str) -> Score:
        """The inverse of ``str()``: ``win in 2``, ``loss in 3``, ``+0.35``, ``-1.20``."""
        t = text.strip().lower()
        m = re.fullmatch(r"(win|loss) in (\d+)", t)
        if m and int(m.group(2)) >= 1:
            return Win(int(m.group(2))) if m.group(1) == "win" else Loss(int(m.group(2)))
        m = re.fullmatch(r"([+-]?)(\d+)\.(\d\d)", t)
        if m:
            value = int(m.group(2)) * 100 + int(m.group(3))
            return Eval(-value if m.group(1) == "-" else value)
        raise ScoreError(f"{text!r} is not a score: write 'win in 2', 'loss in 3' or an "
                         "evaluation like +0.35")


@dataclasses.dataclass(frozen=True, eq=True, repr=False)
class Win(Score):
    """The side to move lands with its ``moves``-th move at the latest."""

    moves: int

    def _rank(self) -> tuple[int, float]:
        return (2, -self.moves)

    def __neg__(self) -> Score:
        return Loss(self.moves)

    @property
    def is_proven(self) -> bool:
        return True

    def probability(self, calibration: float = CALIBRATION) -> float:
        return 1.0

    def to_int(self) -> int:
        return MATE - (2 * self.moves - 1)

    def to_json(self) -> dict[str, int]:
        return {"win": self.moves}

    def __repr__(self) -> str:
        return f"Win({self.moves})"

    def __str__(self) -> str:
        return f"win in {self.moves}"


@dataclasses.dataclass(frozen=True, eq=True, repr=False)
class Loss(Score):
    """The opponent lands with its ``moves``-th move at the latest."""

    moves: int

    def _rank(self) -> tuple[int, float]:
        return (0, self.moves)

    def __neg__(self) -> Score:
        return Win(self.moves)

    @property
    def is_proven(self) -> bool:
        return True

    def probability(self, calibration: float = CALIBRATION) -> float:
        return 0.0

    def to_int(self) -> int:
        return -(MATE - 2 * self.moves)

    def to_json(self) -> dict[str, int]:
        return {"loss": self.moves}

    def __repr__(self) -> str:
        return f"Loss({self.moves})"

    def __str__(self) -> str:
        return f"loss in {self.moves}"


@dataclasses.dataclass(frozen=True, eq=True, repr=False)
class Eval(Score):
    """An evaluation: ``value`` hundredths of the logit of the side to move's win
    probability (0: even)."""

    value: int

    def _rank(self) -> tuple[int, float]:
        return (1, self.value)

    def __neg__(self) -> Score:
        return Eval(-self.value)

    def probability(self, calibration: float = CALIBRATION) -> float:
        return 1.0 / (1.0 + math.exp(-calibration * self.value / SCALE))

    def to_int(self) -> int:
        return self.value

    def to_json(self) -> dict[str, int]:
        return {"eval": self.value}

    def __repr__(self) -> str:
        return f"Eval({self.value})"

    def __str__(self) -> str:
        sign = "-" if self.value < 0 else "+"
        return f"{sign}{abs(self.value) // 100}.{abs(self.value) % 100:02d}"
