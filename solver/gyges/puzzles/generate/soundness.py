"""Soundness: is a candidate a sound "side to move wins in N" puzzle? :func:`assess_soundness` asks
the solver (docs/generate.md): the stipulation exact, one key, the puzzle not trivial, its
main line replayable; a sound one gets its main line, themes, features and rating.

>>> from gyges.game.rules import PRESETS
>>> a = assess_soundness(Position.from_string("321..2/1...../....../2....2/...3../.331.1 S"),
...            PRESETS["pbmserv"], 2)
>>> a.sound, a.key, a.main_line[-1].endswith("-N")
(True, '12-24x36=54', True)
>>> SoundnessAssessment.from_json(a.to_json()) == a
True
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Sequence
from typing import Any

from gyges.formats.notation import format_move
from gyges.game.moves import Move, apply_move, can_land, legal_moves
from gyges.game.position import Position
from gyges.game.rules import RuleSet, Side
from gyges.puzzles.catalogue.authoring import AuthoringError, findings
from gyges.puzzles.rating import (
    CAPS,
    TRIES_UP_TO,
    Features,
    PuzzleRating,
    measure,
    rate,
    threatens,
)
from gyges.search import solve as search_solve
from gyges.search.stipulation import Stipulation
from gyges.search.tree import Node, Step, WinnerNode, walk

__all__ = ["TRIES_UP_TO", "SoundnessAssessment", "assess_soundness", "dual_notes",
           "plausible_moves", "theme_matches", "threatens"]


@dataclasses.dataclass(frozen=True)
class SoundnessAssessment:
    """The solver's verdict on a candidate (``sound``, else the ``reasons`` it is not) and,
    for a sound one, everything its catalogue entry needs."""

    position: Position
    sound: bool
    reasons: tuple[str, ...]
    key: str | None = None
    main_line: tuple[str, ...] = ()
    themes: tuple[str, ...] = ()
    features: Features | None = None
    rating: PuzzleRating | None = None
    tries: tuple[str, ...] = ()
    duals: tuple[str, ...] = ()
    threats: int = 0

    def to_json(self) -> dict[str, Any]:
        return {
            "position": str(self.position), "sound": self.sound, "reasons": list(self.reasons),
            "key": self.key, "main_line": list(self.main_line), "themes": list(self.themes),
            "features": self.features.to_json() if self.features else None,
            "score": self.rating.score if self.rating else None,
            "difficulty": self.rating.difficulty if self.rating else None,
            "tries": list(self.tries), "duals": list(self.duals), "threats": self.threats,
        }

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> SoundnessAssessment:
        f = d.get("features")
        r = PuzzleRating(d["score"], d["difficulty"]) if d.get("difficulty") is not None else None
        return cls(Position.from_string(d["position"]), d["sound"], tuple(d["reasons"]),
                   d.get("key"), tuple(d.get("main_line", ())), tuple(d.get("themes", ())),
                   Features.from_json(f) if f else None, r, tuple(d.get("tries", ())),
                   tuple(d.get("duals", ())), d.get("threats", 0))

    def __repr__(self) -> str:
        verdict = f"sound, key {self.key}" if self.sound else "; ".join(self.reasons)
        return f"SoundnessAssessment({self.position}: {verdict})"


def plausible_moves(position: Position, rules: RuleSet,
                    history: Sequence[Position] = ()) -> list[Move]:
    """The first moves a solver would look at first: those that threaten to land next move
    (if the opponent did nothing) without letting the opponent land at once. ``history``:
    the game before ``position`` (under the Renop law no move may bring back its boards)."""
    me = position.turn
    out = []
    for m in legal_moves(position, rules, history):
        if m.is_win or m.side is not me:
            continue
        after = apply_move(position, m)
        if can_land(after, rules, [*history, position]):
            continue
        if threatens(position, after, me, rules, history):
            out.append(m)
    return out


def dual_notes(tree: Node | None, shown: int = 3) -> list[str]:
    """The duals of a solution tree, each where it arises once: the points where the winner
    has several winning continuations before its last move, each as the line from the key
    down to that point, numbered by the winner's moves, and the moves that win there (the
    first ``shown`` of them, "and others" when there are more). Several rings that can
    land on the goal on the last move are not a dual.

    >>> from gyges.search.tree import Defence, LoserNode
    >>> two = WinnerNode(Side.SOUTH, 2, moves=("52-42x32=22", "53-32-22"), dual=True)
    >>> one = WinnerNode(Side.SOUTH, 2, moves=("52-42-32-22",), dual=False)
    >>> after = LoserNode(Side.NORTH, 3, defences=(Defence("26x36=12", two),
    ...                                            Defence("26-36", one)))
    >>> dual_notes(WinnerNode(Side.SOUTH, 3, moves=("15x12=36",), dual=False, after=after))
    ['after 1. 15x12=36 26x36=12 2. ...: 52-42x32=22 or 53-32-22']
    """
    if tree is None:
        return []
    winner = tree.to_move
    out = []
    for path, node in walk(tree):
        if path and isinstance(node, WinnerNode) and node.moves_left >= 2 and node.dual:
            # no count of the others: a note states no number that the check does not
            # recompute
            moves = " or ".join(node.moves[:shown]) + (" (and others)"
                                                       if len(node.moves) > shown else "")
            out.append(f"after {_line_to(path, winner)}: {moves}")
    return out


def _line_to(path: Sequence[Step], winner: Side) -> str:
    """The moves of ``path`` numbered by the winner's moves, as problem books print a line,
    up to the winner's next move (``1. 15x12=36 26x36=12 2. ...``); a side's consecutive
    moves (its opponent blocked) are joined by ``;``."""
    groups: list[str] = []
    count, last = 0, None
    for step in path:
        if step.move is None:
            continue
        if step.side is winner:
            count += 1
            if last is winner:
                groups[-1] += ";"
            groups.append(f"{count}. {step.move}")
        elif last is step.side:
            groups[-1] += f"; {step.move}"
        else:
            groups[-1] += f" {step.move}"
        last = step.side
    return " ".join([*groups, f"{count + 1}. ..."])


def assess_soundness(position: Position, rules: RuleSet, moves: int, *, no_duals: bool = False,
                     min_tries: int = 2, solve: Callable[..., Any] | None = None,
                     history: Sequence[Position] = ()) -> SoundnessAssessment:
    """Is ``position`` (after ``history``, the game before it: under the Renop law no move
    may bring back one of its boards) a sound "side to move wins in ``moves``" puzzle?
    (docs/generate.md)

    Sound: the solver proves a win in exactly ``moves`` (no shorter win), with one key (no
    cook); not trivial: the key is not the only legal move, not the only move that threatens
    to land, and at least ``min_tries`` other moves threaten to land (plausible tries).
    Duals are a flaw recorded in ``duals``; with ``no_duals`` they reject the puzzle.
    """
    solve = functools.partial(solve or search_solve, history=tuple(history))
    me = position.turn
    root = legal_moves(position, rules, history)
    if root.mover is not me or not root.moves:
        return SoundnessAssessment(position, False, ("the side to move is blocked",))
    if root.wins:
        return SoundnessAssessment(position, False, ("the side to move lands at once",))
    # a cook is told from a unique key by the first two keys found; once the key is known
    # to be unique, the other solves stop at it (deep stipulations: the cook search of
    # every defence on the main line was most of the time)
    quick = functools.partial(solve, tree=False, max_keys=1)
    threats = plausible_moves(position, rules, history)
    # the tree (for duals) and the tries (for the rating) come from the same solve, asked
    # only when the key is unique and the position can still be a puzzle (a second legal
    # move, and at least min_tries threats, the plausible tries being among them): the
    # tries then start from the cook search's table, which holds a refutation of every
    # other first move. The rating counts the tries refuted by one defence, up to its cap:
    # only those are looked for (a first move is dropped at its second refutation, not its
    # fourth).
    extras = len(root.moves) > 1 and len(threats) >= min_tries
    sol = solve(position, rules, max_moves=moves, tree=extras, max_keys=2,
                tries=extras and moves <= TRIES_UP_TO, try_refutations=1,
                try_count=int(CAPS["single_tries"]), extras_if_cooked=False)
    if sol.result != "win" or sol.moves != moves:
        found = f"{sol.result} in {sol.moves}" if sol.moves else sol.result
        return SoundnessAssessment(position, False,
                                   (f"not a win in exactly {moves} ({found})",))
    if len(sol.keys) != 1:
        return SoundnessAssessment(position, False, (f"cooked: {len(sol.keys)} keys",))
    key = sol.keys[0]
    reasons = []
    if len(root.moves) == 1:
        reasons.append("the key is the only legal move")
    key_result = key.result_key(position)
    others = [m for m in threats if m.result_key(position) != key_result]
    if len(others) < len(threats) and not others:
        reasons.append("the key is the only move that threatens to land")
    if len(others) < min_tries:
        reasons.append(f"{len(others)} plausible tries (at least {min_tries} wanted)")
    if reasons:
        return SoundnessAssessment(position, False, tuple(reasons), key=format_move(key))
    found_duals = dual_notes(sol.tree)
    if found_duals and no_duals:
        return SoundnessAssessment(position, False, ("duals: " + "; ".join(found_duals),),
                                   key=format_move(key))
    try:
        found = findings(position, rules, sol, history, quick)
    except AuthoringError as e:
        # the catalogue checker replays the main line: an entry it cannot replay is no use
        return SoundnessAssessment(
            position, False, (f"the main line cannot be replayed: {e.reason}",),
            key=format_move(key))
    st = Stipulation("win", moves, me)
    features = measure(position, rules, st, key, tries=len(sol.tries), history=history)
    rated = rate(position, rules, st, format_move(key), main_line=found.main_line,
                 history=history, solve=solve)
    return SoundnessAssessment(
        position, True, (), key=format_move(key), main_line=found.main_line,
        themes=found.themes, features=features, rating=rated,
        tries=tuple(str(t.move) for t in sol.tries), duals=tuple(found_duals),
        threats=len(others),
    )


def theme_matches(wanted: Sequence[str], themes: Sequence[str]) -> bool:
    """Does a puzzle with ``themes`` show every wanted theme? ``bounce chain N`` asks for a
    chain of at least N bounces.

    >>> theme_matches(["bounce chain 2", "runner"], ["bounce chain 3", "runner"])
    True
    >>> theme_matches(["taboo"], ["bounce chain 3"])
    False
    """
    for w in wanted:
        if w.startswith("bounce chain"):
            n = int(w.split()[-1])
            if not any(t.startswith("bounce chain") and int(t.split()[-1]) >= n for t in themes):
                return False
        elif w not in themes:
            return False
    return True
