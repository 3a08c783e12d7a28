"""The difficulty of a puzzle, one scale for every entry of the catalogue: the
:class:`Features` of its position (:func:`measure`), and :func:`rating`, a weighted sum of
capped, increasing terms cut into 1..5 (docs/catalogue.md). ``catalogue add``, ``review
--puzzles``, ``gyges generate`` and the shipped catalogue all rate with :func:`rate`.

The features rest on what a solver of the puzzle meets: the stipulation's length, the
defences to the key, the key's kind (its bounces; a quiet key, one that neither relocates
a ring nor threatens to land) and the tries refuted by a single defence. They are
properties of the position under its rules, not of the search that proved it, so a
position's difficulty does not move when the solver gets faster.

>>> rating(Features(moves=2, single_tries=0, defences=5, key_bounces=0, quiet=False))
PuzzleRating(score=2.25, difficulty=1)
>>> f = Features(2, 3, 20, 2, True)
>>> Features.from_json(f.to_json()) == f
True
>>> from gyges.game.rules import PRESETS
>>> from gyges.search.stipulation import Stipulation
>>> p = Position.from_string("....../3...../..1.1./1.23.3/3.22.1/....2. N")
>>> rate(p, PRESETS["pbmserv"], Stipulation("win", 1), "51-43-33-31-21-S")
PuzzleRating(score=2.0, difficulty=1)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

from gyges.formats.notation import parse_move
from gyges.game.moves import Move, apply_move, can_land, legal_moves
from gyges.game.position import Position
from gyges.game.rules import RuleSet, Side
from gyges.puzzles.lines import SolveFn
from gyges.search import solve as search_solve
from gyges.search.stipulation import Stipulation

__all__ = ["CAPS", "THRESHOLDS", "TRIES_UP_TO", "WEIGHTS", "Features", "PuzzleRating", "measure",
           "rate", "rating", "single_tries", "threatens"]

@dataclasses.dataclass(frozen=True)
class Features:
    """What makes a puzzle hard (:func:`measure`).

    ``moves``: the stipulated number of moves; ``single_tries``: first moves that fail but
    are refuted by one defence only (a win in 2 to :data:`TRIES_UP_TO` moves), counted up
    to the rating's cap; ``defences``: the replies to the key (for a puzzle that is not a
    win: the moves of the side to move, among which it must find the key); ``key_bounces``:
    bounces of the key; ``quiet``: the key of a win neither relocates a ring nor threatens
    to land.
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


@dataclasses.dataclass(frozen=True)
class PuzzleRating:
    score: float
    difficulty: int  #: 1 (easy) .. 5 (hard), as in the catalogue


#: The score's terms (docs/catalogue.md); each grows with its feature and is capped. The
#: stipulation's length weighs most: each move more is a level of the tree a solver must
#: see through, against which the rest (the alternatives that nearly work, the replies to
#: keep track of, a key that is hard to see) add about a level of difficulty at most.
WEIGHTS = {"moves": 2.0, "single_tries": 0.6, "defences": 0.05, "key_bounces": 0.5,
           "quiet": 1.5}
CAPS = {"single_tries": 5, "defences": 40, "key_bounces": 4}
#: Score thresholds of difficulty 2, 3, 4, 5: a win in 1 is easy whatever its key (at
#: most 2.0), a win in 2 (2.0 to 10.5) spans 1 to 5 by its tries, defences and key, a win
#: in 3 starts at 2 and a win in 5 is very hard (8.0 and more).
THRESHOLDS = (3.0, 4.5, 6.0, 8.0)

#: Tries are looked for up to a win in this many moves. What it trades: each try of a win
#: in N costs a proof that a second defence holds ("no win in N - 1") for every first move,
#: hundreds of them, and that proof grows fast with N; against a rating that needs no tries
#: for a win in 5, whose length alone (8.0) makes it very hard.
TRIES_UP_TO = 4


def rating(f: Features) -> PuzzleRating:
    """The difficulty of a puzzle from its features: a weighted sum of capped, increasing
    terms (so more of any feature never makes a puzzle easier), cut into 1..5.

    >>> rating(Features(2, 3, 20, 2, True))
    PuzzleRating(score=7.3, difficulty=4)
    """
    w, c = WEIGHTS, CAPS
    score = (
        w["moves"] * (f.moves - 1)
        + w["single_tries"] * min(f.single_tries, c["single_tries"])
        + w["defences"] * min(f.defences, c["defences"])
        + w["key_bounces"] * min(f.key_bounces, c["key_bounces"])
        + (w["quiet"] if f.quiet else 0.0)
    )
    difficulty = 1 + sum(score >= t for t in THRESHOLDS)
    return PuzzleRating(round(score, 3), difficulty)


def threatens(before: Position, after: Position, side: Side, rules: RuleSet,
              history: Sequence[Position] = ()) -> bool:
    """Could ``side`` land at once from ``after`` if it were to move again?"""
    return can_land(after.with_turn(side), rules, [*history, before])


def single_tries(position: Position, rules: RuleSet, moves: int,
                 history: Sequence[Position] = (), solve: SolveFn | None = None) -> int:
    """The first moves of a win in ``moves`` that fail, refuted by one defence only, up to
    the rating's cap (none looked for outside a win in 2 to :data:`TRIES_UP_TO`)."""
    if not 2 <= moves <= TRIES_UP_TO:
        return 0
    solve = solve or search_solve
    sol = solve(position, rules, max_moves=moves, history=history, tree=False, tries=True,
                try_refutations=1, try_count=CAPS["single_tries"])
    return len(sol.tries)


def measure(position: Position, rules: RuleSet, stipulation: Stipulation, key: Move | None,
            *, history: Sequence[Position] = (), tries: int | None = None,
            solve: SolveFn | None = None) -> Features:
    """The features of a puzzle: ``position`` (after ``history``) under ``rules``, its
    proven ``stipulation`` and its ``key`` (None: no key declared). ``tries``: the single
    tries when they are known already (:func:`single_tries` otherwise, which asks the
    solver)."""
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
    if tries is None:
        tries = single_tries(position, rules, stipulation.moves, history, solve)
    return Features(stipulation.moves, min(tries, CAPS["single_tries"]), defences, bounces,
                    quiet)


def rate(position: Position, rules: RuleSet, stipulation: Stipulation, key: str | None,
         *, history: Sequence[Position] = (), solve: SolveFn | None = None) -> PuzzleRating:
    """The rating of a catalogue entry: :func:`rating` of :func:`measure` (``key`` in
    pbmserv notation; ValueError if it is not a legal move)."""
    move = parse_move(key, position, rules, history) if key is not None else None
    return rating(measure(position, rules, stipulation, move, history=history, solve=solve))
