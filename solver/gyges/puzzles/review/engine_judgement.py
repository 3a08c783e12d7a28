"""The engine's judgement of a game's moves: the mover's win probability before and after
each turn, the best move when the turn played another, and a mark for a fall in win
probability (docs/review.md).

Every position of the game gets one search of the playing engine (:mod:`gyges.engine`),
within a :class:`~gyges.engine.Limit`, with the game's history for the Renop law. A
proof outranks an evaluation: where the solver proves a result the score is that result
(:class:`PositionAssessment`), so a proven win counts 100 % and a proven loss 0 %. A turn's
:class:`Judgement` compares the position before it with the position after it, both from
the mover's side; the fall in win probability gives the mark:

=============  ======  ==========================================
mark           sign    the mover's win probability falls by
=============  ======  ==========================================
inaccuracy     (?!)    at least :data:`INACCURACY` (15 points)
mistake        (?)     at least :data:`MISTAKE` (20 points)
blunder        (??)    at least :data:`BLUNDER` (30 points)
=============  ======  ==========================================

The signs are in brackets: they are the engine's opinion, where ``!``, ``?`` and ``??``
without brackets are the review's proven facts.

>>> from gyges import PRESETS
>>> from gyges.engine import Eval, Win
>>> from gyges.formats.notation import parse_move
>>> mark_for(0.62 - 0.45), mark_for(0.10), mark_for(1.0 - 0.0).sign
(<EngineMark.INACCURACY: 'inaccuracy'>, <EngineMark.NONE: ''>, '(??)')
>>> p = Position.from_string("....../3...../..1.1./1.23.3/3.22.1/....2. N")
>>> key = parse_move("51-43-33-31-21-S", p, PRESETS["pbmserv"])
>>> played = parse_move("51-32", p, PRESETS["pbmserv"])
>>> before = PositionAssessment(p, Eval(50), key)
>>> j = judge(before, played, PositionAssessment(p.with_turn(Side.SOUTH), Eval(40)))
>>> round(j.win_before, 3), round(j.win_after, 3), j.mark
(0.649, 0.379, <EngineMark.MISTAKE: 'mistake'>)
>>> j.text()
'65% -> 38%, a mistake (best 51-43-33-31-21-S, +0.50)'
>>> Judgement.from_json(j.to_json(), p, PRESETS["pbmserv"]) == j
True
>>> judge(PositionAssessment(p, Win(1), key, (key,)), key, None).text()
'100% -> 100%'
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Sequence
from typing import Any

from gyges.engine import Analysis, Limit
from gyges.engine.score import CALIBRATION, Score
from gyges.formats.notation import parse_move
from gyges.game.moves import Move
from gyges.game.position import Position
from gyges.game.rules import RuleSet, Side

__all__ = ["BLUNDER", "DEFAULT_REVIEW_LIMIT", "INACCURACY", "MISTAKE", "EngineMark", "Judgement",
           "PositionAssessment", "assess_position", "judge", "limit_text", "mark_for"]

#: Falls in the mover's (calibrated) win probability, 0..1, that make an inaccuracy, a
#: mistake and a blunder: the smallest steps of 5 points at which the engine's own best
#: move falls that far in at most 5%, 2% and 1% of positions, measured at the review's
#: default limit (data/engine/review_thresholds.py, its output beside it in
#: data/engine/review-thresholds.txt; docs/review.md). The evaluation at that limit is
#: noisy, so smaller steps would mark the engine's own moves.
INACCURACY = 0.15
MISTAKE = 0.20
BLUNDER = 0.30

#: The engine's search of each position when none is given: a node count, so that a
#: review is the same on every machine; about 0.1-0.2 s a position at the engine's speed
#: (docs/engine.md), so a 40-move game takes some 10-20 s besides the proofs.
DEFAULT_REVIEW_LIMIT = Limit(nodes=20_000)


class EngineMark(str, enum.Enum):
    """The engine's mark for a fall in the mover's win probability."""

    NONE = ""
    INACCURACY = "inaccuracy"
    MISTAKE = "mistake"
    BLUNDER = "blunder"

    def __str__(self) -> str:
        return self.value

    @property
    def sign(self) -> str:
        """The sign in the annotated record: ``(?!)``, ``(?)``, ``(??)`` or nothing."""
        return {"": "", "inaccuracy": "(?!)", "mistake": "(?)", "blunder": "(??)"}[self.value]


def mark_for(drop: float) -> EngineMark:
    """The mark for a fall of ``drop`` in the mover's win probability."""
    if drop >= BLUNDER:
        return EngineMark.BLUNDER
    if drop >= MISTAKE:
        return EngineMark.MISTAKE
    if drop >= INACCURACY:
        return EngineMark.INACCURACY
    return EngineMark.NONE


@dataclasses.dataclass(frozen=True)
class PositionAssessment:
    """What is known of ``position``: its ``score`` for the side to move, a proven result
    where the solver has one, else the engine's; the engine's best move (None when
    nothing can move), and the proven winning first moves (``keys``) when the side to
    move forces a win. ``depth`` is the search depth (plies) of ``score``, and
    ``depths`` the engine's score at each depth completed (1, 2, ...); ``calibration``
    the scale of the engine's evaluation (:attr:`gyges.engine.Analysis.calibration`)."""

    position: Position
    score: Score
    best: Move | None = None
    keys: tuple[Move, ...] = ()
    depth: int = 0
    depths: tuple[Score, ...] = ()
    calibration: float = CALIBRATION

    @property
    def side(self) -> Side:
        return self.position.turn

    def score_for(self, side: Side, depth: int | None = None) -> Score:
        """The score from ``side``'s point of view: at ``depth`` plies when the engine
        completed that depth and nothing is proven, else the best known."""
        score = self.score
        if depth is not None and not score.is_proven and 1 <= depth <= len(self.depths):
            score = self.depths[depth - 1]
        return score if side is self.side else -score


def assess_position(analysis: Analysis, depths: Sequence[Analysis] = (),
                    proven: Score | None = None, keys: Sequence[Move] = ()
                    ) -> PositionAssessment:
    """The assessment of ``analysis.position`` from the engine's answer ``analysis`` and
    its analysis of each depth completed (``depths``, in the order the search gave them):
    ``proven`` (a result the solver proved for the side to move, with its winning
    ``keys``) outranks the engine's score."""
    side = analysis.position.turn
    table: dict[int, Score] = {}
    for a in depths:  # a later search of the same depth (after a proof's check) wins
        table[a.depth] = a.score if a.position.turn is side else -a.score
    completed = tuple(table[d] for d in range(1, max(table, default=0) + 1) if d in table)
    completed = completed if len(completed) == max(table, default=0) else ()
    depth = analysis.depth
    if depth in table and table[depth] != analysis.score:
        depth += 1  # the best move of a deeper search cut short (docs/engine.md, Time)
    score = proven if proven is not None else analysis.score
    return PositionAssessment(analysis.position, score, analysis.move, tuple(keys), depth,
                              completed, analysis.calibration)


@dataclasses.dataclass(frozen=True)
class Judgement:
    """The engine's judgement of one turn, from the mover's side: the score ``before``
    the turn (the best move's score), the score ``after`` it (None when the turn ended
    the game), the win probability after it (1 after a landing, 0 after a resignation),
    the ``best`` move when the turn played another one (None otherwise), and the
    ``mark`` for the fall in win probability; ``calibration``: the scale of the engine's
    evaluation, which the probabilities are on."""

    before: Score
    after: Score | None
    win_after: float
    best: Move | None
    mark: EngineMark
    calibration: float = CALIBRATION

    @property
    def win_before(self) -> float:
        return self.before.probability(self.calibration)

    @property
    def drop(self) -> float:
        """How far the mover's win probability fell (negative: it rose)."""
        return self.win_before - self.win_after

    def text(self) -> str:
        """``62% -> 40%, a mistake (best 16-24, +0.50)``: the win probabilities, the mark,
        and the best move with its score."""
        out = f"{_percent(self.win_before)} -> {_percent(self.win_after)}"
        if self.mark:
            out += f", {'an' if self.mark is EngineMark.INACCURACY else 'a'} {self.mark}"
        if self.best is not None:
            out += f" (best {self.best}, {self.before})"
        return out

    def to_json(self) -> dict[str, Any]:
        """``{"before": score, "win_before": p, "after": score | null, "win_after": p,
        "drop": d, "best": "<move>" | null, "mark": "inaccuracy" | "mistake" | "blunder"
        | ""}``; a score is ``{"win": k}``, ``{"loss": k}`` or ``{"eval": v}``, a
        probability has four decimals."""
        out = {"before": self.before.to_json(), "win_before": round(self.win_before, 4),
               "after": self.after.to_json() if self.after is not None else None,
               "win_after": round(self.win_after, 4), "drop": round(self.drop, 4),
               "best": str(self.best) if self.best is not None else None,
               "mark": self.mark.value}
        if self.calibration != CALIBRATION:
            out["calibration"] = self.calibration
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any], position: Position, rules: RuleSet,
                  history: Sequence[Position] = ()) -> Judgement:
        """The judgement :meth:`to_json` wrote of a turn played in ``position`` (its best
        move is read there, with the game's ``history``); NotationError (a ValueError)
        if it is not a legal move."""
        best = None
        if data["best"] is not None:
            best = parse_move(data["best"], position, rules, history)
        after = Score.from_json(data["after"]) if data["after"] is not None else None
        scale = float(data.get("calibration", CALIBRATION))
        win_after = after.probability(scale) if after is not None else float(data["win_after"])
        return cls(Score.from_json(data["before"]), after, win_after, best,
                   EngineMark(data["mark"]), scale)


def _percent(p: float) -> str:
    return f"{round(100 * p)}%"


def _same(a: Move, b: Move, position: Position) -> bool:
    return a.result_key(position) == b.result_key(position)


def judge(before: PositionAssessment, played: Move | None,
          after: PositionAssessment | None) -> Judgement:
    """The judgement of the turn of ``before.side`` that played ``played`` (its first
    move; None for a resignation) in ``before.position``, leading to ``after`` (None: the
    turn ended the game, by a landing or a resignation)."""
    side, position = before.side, before.position
    score = before.score
    if after is None:
        after_score, win_after = None, 1.0 if played is not None else 0.0
    else:
        # the move played, searched one ply less deep: the depth at which the best
        # move's score counts it (an even and an odd depth differ much)
        after_score = after.score_for(side, before.depth - 1)
        win_after = after_score.probability(before.calibration)
    best = before.best
    if before.keys and (best is None or not any(_same(best, k, position)
                                                for k in before.keys)):
        best = before.keys[0]  # the proof's winning move outranks the engine's choice
    if best is not None and played is not None and (
            _same(best, played, position) or after_score is not None and after_score >= score):
        best = None  # the move played is the best, or scores as well
    drop = score.probability(before.calibration) - win_after
    return Judgement(score, after_score, win_after, best, mark_for(drop), before.calibration)


def limit_text(limit: Limit) -> str:
    """The limit in words: ``20000 nodes``, ``depth 5``, ``0.5 s`` (joined by "or").

    >>> limit_text(Limit(nodes=20000)), limit_text(Limit(time=0.5, depth=4))
    ('20000 nodes', '0.5 s or depth 4')
    """
    parts = []
    if limit.time is not None:
        parts.append(f"{limit.time:g} s")
    if limit.depth is not None:
        parts.append(f"depth {limit.depth}")
    if limit.nodes is not None:
        parts.append(f"{limit.nodes} nodes")
    return " or ".join(parts)
