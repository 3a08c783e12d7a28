"""The difficulty of a puzzle, one scale for every entry of the catalogue, measured by
solvers: the effort a ladder of engines needs to find the whole solution
(:func:`effort`), calibrated into 1..5 on the shipped catalogue (:func:`level`).
``catalogue add``, ``review --puzzles``, ``gyges generate`` and the shipped catalogue all
rate with :func:`rate` (docs/catalogue.md, "Difficulty").

The ladder's rungs are the playing engine without its prover (``prove=0``, one core, a
table of :data:`RATING_HASH_BITS` bits, cleared before each search: deterministic) searching
:data:`LADDER`'s node budgets, 16 nodes doubling up to :data:`LADDER`'s last. At each turn
of the winner on the main line (the key first), with ``j`` of its moves left, the rung
passes when the engine's move wins within ``j`` (the entry's key or a declared cook at the
root, the main line's move, or another the prover proves) and its score is a proven win
within ``j``: its search has found an answer to every defence down to the landing. The
puzzle's effort is the log2 of the largest of those turns' first passing rungs
(:data:`BEYOND` when a turn passes no rung). A landing in 1 is found before any search
(the lowest rung). A "loses in N" entry's first turn is the loser's: the rung passes when
the engine's score is a proven loss in N and its move a longest defence; a "no forced
result" entry has that turn only: the engine's move must leave the opponent no win within
N. The prover's verdicts are cached per position and move.

>>> from gyges.game.rules import PRESETS
>>> from gyges.search.stipulation import Stipulation
>>> p = Position.from_string("....../3...../..1.1./1.23.3/3.22.1/....2. N")
>>> rate(p, PRESETS["pbmserv"], Stipulation("win", 1), "51-43-33-31-21-S",
...      main_line=["51-43-33-31-21-(11-12-)S"])
PuzzleRating(score=4.0, difficulty=1)
>>> [level(e) for e in (4, 5, 6, 8, 9, 10, 11, 13, 14, BEYOND)]
[1, 1, 2, 2, 3, 3, 4, 4, 5, 5]
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Sequence
from typing import Any

from gyges.engine.builtin import Engine, Options
from gyges.engine.builtin import Limit as EngineLimit
from gyges.engine.score import Loss, Win
from gyges.formats.notation import format_turn, parse_move
from gyges.game.moves import Game, Move, MoveResult, apply_move, can_land, legal_moves
from gyges.game.position import Position
from gyges.game.rules import RuleSet, Side
from gyges.puzzles.lines import SolveFn, play_line, principal_line
from gyges.search import Prover
from gyges.search import solve as search_solve
from gyges.search.stipulation import Stipulation

__all__ = ["BEYOND", "CAPS", "EFFORT_VERSION", "LADDER", "RATING_HASH_BITS", "THRESHOLDS",
           "TRIES_UP_TO", "Features", "PuzzleRating", "Turn", "effort", "level", "measure", "rate",
           "threatens", "turns_tested"]

#: The ladder's node budgets: 16 doubling to 4,194,304 (2 ** 4 .. 2 ** 22). A rung is
#: named by its log2; wins in 1 pass the lowest (the engine lands before searching).
LADDER: tuple[int, ...] = tuple(2 ** k for k in range(4, 23))
#: The effort of a puzzle one of whose turns passes no rung: one above the top rung.
BEYOND = int(math.log2(LADDER[-1])) + 1
#: The engine's table on every rung: 2 ** RATING_HASH_BITS entries of 16 bytes (16 MiB).
RATING_HASH_BITS = 20

#: The effort (log2 of the nodes) from which a puzzle is difficulty 2, 3, 4, 5. Chosen
#: on the shipped catalogue (104 entries) so that each level holds about a fifth of it and
#: none more than 30%: ``gyges catalogue rate`` prints how many entries have each effort
#: (efforts 4: 19, 5: 5, 6: 9, 7: 8, 8: 5, 9: 11, 10: 10, 11: 3, 12: 7, 13: 4, 14 and
#: more: 23), which these cut into 24, 22, 21, 14 and 23 entries (docs/catalogue.md).
THRESHOLDS = (6, 9, 11, 14)
#: Bumped whenever what :func:`effort` measures changes (the cache of efforts,
#: :mod:`gyges.puzzles.difficulty`, is keyed by it with the ladder and the engine's files).
EFFORT_VERSION = 1


@dataclasses.dataclass(frozen=True)
class PuzzleRating:
    """A puzzle's rating: ``score``, the solvers' effort (log2 of the nodes of the lowest
    rung that finds the whole solution, :func:`effort`), and ``difficulty``, its level
    1 (easy) .. 5 (hard) as in the catalogue (:func:`level`)."""

    score: float
    difficulty: int


def level(effort_: float) -> int:
    """The difficulty (1..5) of a puzzle of effort ``effort_``: one more for each of
    :data:`THRESHOLDS` it reaches (so a greater effort is never easier)."""
    return 1 + sum(effort_ >= t for t in THRESHOLDS)


@dataclasses.dataclass(frozen=True)
class Turn:
    """A turn the ladder tests: ``position`` (after ``history``) with ``side`` to move,
    which must ``win`` within ``moves`` of its moves (``task="win"``), hold out exactly
    ``moves`` (``"loss"``) or leave the opponent no win within ``moves`` (``"none"``);
    ``known``: its moves known to do so (as boards after them)."""

    position: Position
    history: tuple[Position, ...]
    side: Side
    task: str
    moves: int
    known: frozenset[MoveResult]


def _after(position: Position, move: Move) -> Position:
    return apply_move(position.with_turn(move.side), move)


def turns_tested(position: Position, rules: RuleSet, stipulation: Stipulation,
                 main_line: Sequence[str], cooks: Sequence[str] = (),
                 history: Sequence[Position] = (), key: str | None = None) -> list[Turn]:
    """The turns the ladder tests on a puzzle (see the module's doc): the winner's on the
    main line (the key's first) and, for a loss or no forced result, the first turn.
    ValueError when the main line or a cook cannot be played."""
    if not main_line and key is not None:
        main_line = [key]  # a "no forced result" entry may give its key alone
    line = play_line(position, rules, main_line, history)
    game = Game(position, tuple(history))
    out: list[Turn] = []
    moves = line.moves
    if not moves:
        return out
    first = moves[0]
    if stipulation.kind != "win":
        out.append(Turn(position, tuple(history), first.side, str(stipulation.kind),
                        stipulation.moves, frozenset({first.result_key(position)})))
        if stipulation.kind == "none":
            return out
    winner = moves[-1].side
    left = stipulation.moves
    for i, m in enumerate(moves):
        p, hist = game.position, tuple(h for h in game.history if isinstance(h, Position))
        if m.side is winner:
            known = {m.result_key(p)}
            if i == 0:
                known |= {parse_move(c, p, rules, hist).result_key(p) for c in cooks}
            out.append(Turn(p.with_turn(winner), hist, winner, "win", left, frozenset(known)))
            left -= 1
        if m.is_win:
            break
        game = Game(_after(p, m), (*hist, p))
    return out


class _Ladder:
    """One puzzle's rungs: an engine, a prover and their answers."""

    def __init__(self, rules: RuleSet, within: int, history: Sequence[Position]) -> None:
        self.rules = rules
        # the rungs were measured with the linear evaluation: ratings stay on its scale
        self.engine = Engine(rules, Options(prove=0, hash_bits=RATING_HASH_BITS, cores=1,
                                            network=None))
        self.history = tuple(history)
        self.within = within
        self._prover: Prover | None = None
        self.verdicts: dict[tuple[bytes, Side, tuple[bytes, ...], MoveResult, int], bool] = {}

    def close(self) -> None:
        self.engine.close()

    def wins(self, turn: Turn, move: Move, winner: Side, within: int) -> bool:
        """Can ``winner`` win within ``within`` after ``move`` in ``turn`` (cached)?"""
        p = turn.position
        key = (p.key, p.turn, tuple(h.key for h in turn.history), move.result_key(p), within)
        if key not in self.verdicts:
            if self._prover is None:
                self._prover = Prover(self.rules, within=self.within, history=self.history)
            line = [*turn.history[len(self.history):], p]
            self.verdicts[key] = within > 0 and self._prover.wins(_after(p, move), winner,
                                                                  within, line)
        return self.verdicts[key]

    def passes(self, turn: Turn, nodes: int) -> bool:
        """Does the engine at ``nodes`` nodes solve ``turn``?"""
        if turn.task == "win" and can_land(turn.position, self.rules, turn.history):
            return True
        self.engine.clear()
        a = self.engine.analyse(turn.position, EngineLimit(nodes=nodes), turn.history)
        m, score = a.move, a.score
        if m is None:
            return False
        known = m.result_key(turn.position) in turn.known
        if turn.task == "win":
            return isinstance(score, Win) and score.moves <= turn.moves and (
                known or self.wins(turn, m, turn.side, turn.moves - 1))
        if turn.task == "loss":
            return isinstance(score, Loss) and score.moves == turn.moves and (
                known or not self.wins(turn, m, turn.side.other, turn.moves - 1))
        return known or not self.wins(turn, m, turn.side.other, turn.moves)

    def first_pass(self, turn: Turn) -> int:
        """The log2 of the first rung that solves ``turn`` (:data:`BEYOND`: none)."""
        for nodes in LADDER:
            if self.passes(turn, nodes):
                return int(math.log2(nodes))
        return BEYOND


def effort(position: Position, rules: RuleSet, stipulation: Stipulation,
           main_line: Sequence[str], cooks: Sequence[str] = (),
           history: Sequence[Position] = (), key: str | None = None,
           progress: Callable[[int, int], None] | None = None) -> int:
    """The solvers' effort on a proven puzzle: the log2 of the nodes of the lowest rung
    of :data:`LADDER` that solves every turn of :func:`turns_tested`, :data:`BEYOND` when
    the top rung does not. ``key``: the key of a "no forced result" entry without a main
    line. ``progress(i, n)`` hears each turn begun."""
    turns = turns_tested(position, rules, stipulation, main_line, cooks, history, key)
    ladder = _Ladder(rules, max(1, stipulation.moves), history)
    try:
        worst = int(math.log2(LADDER[0]))
        for i, turn in enumerate(turns):
            if progress is not None:
                progress(i, len(turns))
            worst = max(worst, ladder.first_pass(turn))
        return worst
    finally:
        ladder.close()


def rate(position: Position, rules: RuleSet, stipulation: Stipulation, key: str | None,
         *, main_line: Sequence[str] | None = None, cooks: Sequence[str] = (),
         history: Sequence[Position] = (), solve: SolveFn | None = None) -> PuzzleRating:
    """The rating of a proven catalogue entry: the :func:`level` of its :func:`effort`.
    ``main_line``: the entry's, in pbmserv notation (None: the solver's from ``key``,
    :func:`~gyges.puzzles.lines.principal_line`); ``cooks``: its other keys. ValueError if
    a move cannot be played."""
    if main_line is None and stipulation.kind == "none":
        main_line = []
    elif main_line is None:
        first = parse_move(key, position, rules, history) if key is not None else None
        moves = principal_line(position, rules, stipulation.kind, stipulation.moves, history,
                               solve or search_solve, first=first)
        main_line = [format_turn(t) for t in moves]
    e = effort(position, rules, stipulation, main_line, cooks, history, key)
    return PuzzleRating(float(e), level(e))


# -- the features of a generated puzzle (its state record, its title and notes) ----------

#: The cap of a feature as the records count it.
CAPS = {"single_tries": 5}
#: Tries are looked for up to a win in this many moves (each try of a win in N costs a
#: proof that a second defence holds for every first move, and that grows fast with N).
TRIES_UP_TO = 4


@dataclasses.dataclass(frozen=True)
class Features:
    """What a generated puzzle's record keeps of it (:func:`measure`).

    ``moves``: the stipulated number of moves; ``single_tries``: first moves that fail but
    are refuted by one defence only (a win in 2 to :data:`TRIES_UP_TO` moves), counted up
    to their cap; ``defences``: the replies to the key (for a puzzle that is not a win:
    the moves of the side to move); ``key_bounces``: bounces of the key; ``quiet``: the key
    of a win neither relocates a ring nor threatens to land.

    >>> f = Features(2, 3, 20, 2, True)
    >>> Features.from_json(f.to_json()) == f
    True
    """

    moves: int
    single_tries: int
    defences: int
    key_bounces: int
    quiet: bool

    def to_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Features:
        """The features :meth:`to_json` wrote."""
        return cls(**d)


def threatens(before: Position, after: Position, side: Side, rules: RuleSet,
              history: Sequence[Position] = ()) -> bool:
    """Could ``side`` land at once from ``after`` if it were to move again?"""
    return can_land(after.with_turn(side), rules, [*history, before])


def measure(position: Position, rules: RuleSet, stipulation: Stipulation, key: Move | None,
            *, tries: int, history: Sequence[Position] = ()) -> Features:
    """The features of a puzzle: ``position`` (after ``history``) under ``rules``, its
    proven ``stipulation``, its ``key`` (None: no key declared) and its single ``tries``
    (as the solver counted them)."""
    bounces = key.bounces if key is not None else 0
    if stipulation.kind != "win" or key is None:
        choices = legal_moves(position, rules, history)
        mine = len(choices.moves) if choices.mover is position.turn else 0
        return Features(stipulation.moves, 0, mine, bounces, False)
    if key.is_win:
        return Features(stipulation.moves, 0, 0, bounces, False)
    after = apply_move(position, key)
    replies = legal_moves(after, rules, [*history, position])
    defences = len(replies.moves) if replies.mover is after.turn else 0
    quiet = not key.is_replace and not threatens(position, after, position.turn, rules,
                                                 history)
    return Features(stipulation.moves, min(tries, CAPS["single_tries"]), defences, bounces,
                    quiet)
