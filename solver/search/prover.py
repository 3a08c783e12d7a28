"""The forced-win solver: proven "win in k", "loses in k" or "no forced result within N".

The proofs are made by the compiled kernel (``solver/_search.pyx``); this module asks it
the questions, finds every key move (cooks), and builds the solution tree by re-searching
from the key. docs/solver.md explains the search and why its answers are exact.

>>> from solver.game.rules import PRESETS
>>> p = Position.from_string("....../3...../..1.1./1.23.3/3.22.1/....2. N")
>>> s = solve(p, PRESETS["pbmserv"])
>>> s.result, s.moves, [str(k) for k in s.keys]
('win', 1, ['51-43-33-31-21-S'])
>>> win_in(p, PRESETS["pbmserv"], 1)
True
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Sequence
from typing import Any

from solver.game.moves import Move, MoveList, NotOneMove, apply_move, landing_stands, legal_moves
from solver.game.position import Position
from solver.game.rules import RuleSet, Side
from solver.parallel import worker_pool
from solver.search._search import Searcher

__all__ = ["Solution", "Stats", "Try", "solve", "win_in", "SolveError"]

TREE_BUDGET = 4000  #: winner/loser nodes expanded in one solution tree before it is cut
DUALS_UP_TO = 2  #: duals are searched for where the winner has at most this many moves left


class SolveError(ValueError):
    """A question the solver cannot answer as asked (bad bound, inconsistent files)."""


@dataclasses.dataclass(frozen=True)
class Stats:
    """Search effort: positions visited, wall time, transposition-table hits."""

    nodes: int
    seconds: float
    tt_hits: int
    truncated: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"nodes": self.nodes, "seconds": round(self.seconds, 4),
                "tt_hits": self.tt_hits, "truncated": self.truncated}


@dataclasses.dataclass(frozen=True)
class Try:
    """A first move of the would-be winner that fails, and the defences that refute it."""

    move: Move
    refutations: tuple[Move, ...]
    more: int = 0  #: further refutations not listed

    def to_json(self) -> dict[str, Any]:
        return {"move": str(self.move), "refutations": [str(m) for m in self.refutations],
                "more_refutations": self.more}


@dataclasses.dataclass(frozen=True)
class Solution:
    """What the solver proved about a position.

    ``result`` is ``"win"`` (the side to move lands on the goal with its ``moves``-th move
    at the latest, whatever the opponent does, and ``moves`` is minimal), ``"loss"`` (every
    move of the side to move leaves the opponent such a win in at most ``moves``) or
    ``"none"`` (neither within ``max_moves``; every line was searched). ``keys`` holds every
    first move that wins in ``moves`` (more than one: a cook). ``tree`` is the solution tree
    as JSON-ready data (see docs/solver.md). ``stoppable`` is only set under
    ``win=unstoppable`` for a win in 1.
    """

    position: Position
    rules: RuleSet
    max_moves: int
    result: str
    moves: int | None
    keys: tuple[Move, ...]
    tree: dict[str, Any] | None
    tries: tuple[Try, ...]
    stats: Stats
    stoppable: bool | None = None

    @property
    def winner(self) -> Side | None:
        if self.result == "win":
            return self.position.turn
        if self.result == "loss":
            return self.position.turn.other
        return None

    @property
    def cook(self) -> bool:
        return len(self.keys) > 1

    def main_line(self) -> list[str]:
        """The turns of the main line, a side's consecutive moves joined by ``; ``."""
        return main_line(self.tree)

    def stipulation(self) -> str:
        """``South to move wins in 2``, the way a chess problem states its task."""
        side = self.position.turn.title
        if self.result == "win":
            text = f"{side} to move wins in {self.moves}"
            if self.stoppable:
                text += ", stoppable (the opponent could have avoided it: take-back)"
            return text
        if self.result == "loss":
            return (f"{side} to move loses in {self.moves}: "
                    f"{self.position.turn.other.title} wins whatever {side} does")
        return f"{side} to move: no forced win for either side within {self.max_moves}"

    def to_json(self) -> dict[str, Any]:
        return {
            "position": str(self.position),
            "rules": self.rules.options(),
            "max_moves": self.max_moves,
            "result": self.result,
            "moves": self.moves,
            "winner": self.winner.value if self.winner else None,
            "keys": [str(k) for k in self.keys],
            "cook": self.cook,
            "stoppable": self.stoppable,
            "main_line": self.main_line(),
            "tree": self.tree,
            "tries": [t.to_json() for t in self.tries],
            "stats": self.stats.to_json(),
        }

    def text(self) -> str:
        from solver.search.solution import render_text

        return render_text(self)


# -- the questions asked of the kernel ------------------------------------------------------


class _Prover:
    """One Searcher (one transposition table) plus the file history."""

    def __init__(self, rules: RuleSet, history: Sequence[Position], tt_bits: int = 20):
        self.rules = rules
        self.searcher = Searcher(rules.flags(), tt_bits)
        self.history = [h.key for h in history]

    def win(self, position: Position, winner: Side, d: int, path: Sequence[Position] = ()) -> bool:
        """Can ``winner`` land within ``d`` of its moves from ``position``?"""
        if d <= 0:
            return False
        return self.searcher.win(position.key, position.turn.index, winner.index, d,
                                 self.history + [p.key for p in path])

    def least(self, position: Position, winner: Side, d: int,
              path: Sequence[Position] = ()) -> int | None:
        """The least ``d' <= d`` with a win within ``d'``, or None."""
        for k in range(1, d + 1):
            if self.win(position, winner, k, path):
                return k
        return None

    def winning(self, position: Position, d: int, path: Sequence[Position], moves: MoveList,
                all_of_them: bool = True) -> tuple[list[Move], bool]:
        """The moves of the side to move that win within ``d`` (all of them, or one found
        by the search's ordering), and whether the list is complete."""
        hist = self.history + [q.key for q in path]
        me = position.turn.index
        if all_of_them:
            found = set(self.searcher.winning_moves(position.key, me, d, hist))
            complete = True
        else:
            one = self.searcher.find_win(position.key, me, d, hist)
            found = {one} if one is not None else set()
            complete = False
        return [m for m in moves if (m.start, m.end, m.relocation) in found], complete

    def moves(self, position: Position, path: Sequence[Position] = ()) -> MoveList:
        """The legal moves, with the file history and the line ``path`` for Renop."""
        return legal_moves(position, self.rules, [*self.history, *(q.key for q in path)])


def win_in(position: Position, rules: RuleSet, k: int, history: Sequence[Position] = ()) -> bool:
    """Does the side to move win in at most ``k`` moves? (Yes/no, for batch use.)

    >>> from solver.game.rules import PRESETS
    >>> win_in(Position.from_string(".3.3.3/112232/...1.2/...1../....../...... S"),
    ...        PRESETS["pbmserv"], 2)
    True
    """
    if k < 1:
        return False
    prover = _Prover(rules, history, tt_bits=16)
    return prover.win(position, position.turn, k)


# -- parallel root split ---------------------------------------------------------------------

_WORKER: dict[str, Any] = {}


def _worker_adopt(searcher: Searcher, history: list[bytes]) -> None:
    """Set up a forked worker with the parent's searcher (its copy, table included: the
    pool forks, so nothing is pickled)."""
    _WORKER["searcher"] = searcher
    _WORKER["history"] = history


def _worker_task(args: tuple[int, bytes, int, int, int, bytes]) -> tuple[int, bool, int, int]:
    """One root move's question: ``(index, won, nodes, tt_hits)``."""
    index, child, side, winner, d, root = args
    s: Searcher = _WORKER["searcher"]
    n0, h0 = s.nodes, s.tt_hits
    r = s.win(child, side, winner, d, [*_WORKER["history"], root])
    return index, r, s.nodes - n0, s.tt_hits - h0


# -- solving ---------------------------------------------------------------------------------


def solve(
    position: Position,
    rules: RuleSet,
    max_moves: int = 3,
    history: Sequence[Position] = (),
    *,
    tries: bool = False,
    jobs: int = 1,
    previous: Position | None = None,
    tree: bool = True,
    duals: int = DUALS_UP_TO,
    progress: Callable[[str], None] | None = None,
) -> Solution:
    """Prove the shortest forced result of ``position`` within ``max_moves`` moves.

    ``history`` holds the earlier positions of the game (Renop law), oldest first;
    ``previous`` the position before the opponent's last move (unstoppable variant).
    ``jobs > 1`` splits the cook search (every first move checked once the least k is
    known) across processes; the proof itself runs here, where iterative deepening's
    table and move ordering serve it best. ``duals``: the solution tree
    lists every winning continuation (and marks duals) where the winner has at most this
    many moves left; above that one winning move is shown (``"dual": null``).
    ``progress`` receives a short note as each stage starts (for a status line).
    """
    note = progress if progress is not None else (lambda _text: None)
    if not 1 <= max_moves <= 30:
        raise SolveError(f"--max-moves must be 1..30, not {max_moves}")
    if jobs < 1:
        raise SolveError(f"--jobs must be at least 1, not {jobs}")
    if duals < 0:
        raise SolveError(f"--duals must be 0 or more, not {duals}")
    history = tuple(history)
    t0 = time.perf_counter()
    prover = _Prover(rules, history)
    me, other = position.turn, position.turn.other
    root = legal_moves(position, rules, history)
    result, k = "none", None
    for d in range(1, max_moves + 1):
        note(f"searching for a win in {d}")
        if prover.win(position, me, d):
            result, k = "win", d
            break
        if prover.win(position, other, d):
            result, k = "loss", d
            break
    keys: list[Move] = []
    extra_nodes = extra_hits = 0
    if result == "win":
        if jobs > 1 and root.mover is me and k > 1 and not root.wins:
            keys, extra_nodes, extra_hits = _parallel_keys(
                jobs, prover, position, root, me, k, note)
        else:
            keys = _keys(prover, position, root, me, k, note)
    stoppable = None
    if rules.win == "unstoppable" and result == "win":
        if k == 1 and root.mover is me:
            try:
                stoppable = True if previous is None else not landing_stands(
                    position, previous, rules, history)
            except NotOneMove as e:
                raise SolveError(str(e)) from None
        else:
            stoppable = False
    built = None
    if tree and result != "none":
        note("building the solution tree")
        builder = _TreeBuilder(prover, TREE_BUDGET, duals)
        winner = me if result == "win" else other
        if result == "win" and root.mover is me:
            built = builder.winner_node(position, k, (), root=root, keys=keys)
        else:
            built = builder.node(position, winner, k, ())
    found_tries: tuple[Try, ...] = ()
    if tries and result != "loss":
        note("looking for tries")
        found_tries = _tries(prover, position, root, me, k or max_moves)
    searcher = prover.searcher
    stats = Stats(searcher.nodes + extra_nodes, time.perf_counter() - t0,
                  searcher.tt_hits + extra_hits, searcher.truncated)
    return Solution(position, rules, max_moves, result, k, tuple(keys), built, found_tries,
                    stats, stoppable)


def _parallel_keys(jobs: int, prover: _Prover, position: Position, root: MoveList, me: Side,
                   k: int, note: Callable[[str], None]):
    """The keys (every first move winning within ``k``), the first moves split across
    ``jobs`` forked processes: ``(keys, nodes, tt_hits)``. Each worker starts from a copy of
    the prover's searcher, whose table already holds what the proof found."""
    tasks = [(apply_move(position, m).key, me.other.index, me.index, k - 1, position.key)
             for m in root]
    out: list[tuple[bool, int, int]] = [(False, 0, 0)] * len(tasks)
    with worker_pool(jobs, _worker_adopt, (prover.searcher, prover.history)) as pool:
        numbered = [(i, *t) for i, t in enumerate(tasks)]
        for done, (i, won, nodes, hits) in enumerate(pool.map_unordered(_worker_task, numbered)):
            out[i] = (won, nodes, hits)
            note(f"looking for cooks: {done + 1} of {len(tasks)} first moves done")
    keys = [m for m, (won, _, _) in zip(root, out, strict=True) if won]
    return keys, sum(o[1] for o in out), sum(o[2] for o in out)


def _keys(prover: _Prover, position: Position, root: MoveList, me: Side, k: int,
          note: Callable[[str], None]) -> list[Move]:
    """Every first move that wins within ``k``: the key and its cooks. Proving there is no
    cook means refuting every other first move, often the longest part of a solve."""
    if root.mover is not me:
        return []
    landings = [m for m in root if m.is_win]
    if landings or k == 1:
        return landings
    wins = set(prover.searcher.winning_moves(
        position.key, me.index, k, prover.history,
        lambda i, n: note(f"looking for cooks: first move {i + 1} of {n}")))
    return [m for m in root if (m.start, m.end, m.relocation) in wins]


def _tries(prover: _Prover, position: Position, root: MoveList, me: Side, k: int,
           limit: int = 8, most: int = 3) -> tuple[Try, ...]:
    """First moves of ``me`` that fail to win within ``k`` but come close: those with the
    fewest refutations (defences after which no win within ``k - 1`` remains), at most
    ``most`` refutations each, best first. A move after which the opponent lands at once
    is not a try."""
    if root.mover is not me or k < 2:
        return ()
    scored = []
    for m in root:
        if m.is_win:
            continue
        child = apply_move(position, m)
        replies = prover.moves(child, (position,))
        if not replies.moves or replies.wins and replies.mover is not me:
            continue
        if prover.win(child, me, k - 1, (position,)):
            continue            # a key, not a try
        refs = []
        for r in replies:
            after = apply_move(child, r)
            if r.side is me:
                continue        # the opponent is blocked: no defence to list
            if not prover.win(after, me, k - 1, (position, child)):
                refs.append(r)
                if len(refs) > most:
                    break
        if refs and len(refs) <= most:
            scored.append((len(refs), len(scored), Try(m, tuple(refs))))
    scored.sort(key=lambda t: t[:2])
    return tuple(t for _, _, t in scored[:limit])


# -- the solution tree ------------------------------------------------------------------------


class _TreeBuilder:
    """Builds the solution tree as JSON-ready dicts (see docs/solver.md for the fields)."""

    def __init__(self, prover: _Prover, budget: int, duals: int = DUALS_UP_TO):
        self.prover = prover
        self.budget = budget
        self.duals = duals

    def _spend(self) -> bool:
        self.budget -= 1
        return self.budget >= 0

    def node(self, position: Position, winner: Side, d: int, path: tuple[Position, ...]):
        if position.turn is winner:
            return self.winner_node(position, d, path)
        return self.loser_node(position, winner, d, path)

    def winner_node(self, position: Position, d: int, path: tuple[Position, ...], *,
                    root: MoveList | None = None, keys: Sequence[Move] | None = None):
        """The winner to move; it wins within ``d`` (the least such ``d`` is used)."""
        p = self.prover
        me = position.turn
        moves = root if root is not None else p.moves(position, path)
        least = p.least(position, me, d, path) if keys is None else d
        if least is None:  # cannot happen for a proven node
            raise AssertionError(f"no win within {d} in {position}")
        node: dict[str, Any] = {"to_move": me.value, "role": "winner", "moves_left": least}
        if moves.mover is not me:
            node["passed"] = True   # the winner is blocked: the loser moves again
            if self._spend():
                node["then"] = self.loser_node(position.with_turn(me.other), me, least, path,
                                               moves=moves)
            else:
                node["truncated"] = True
            return node
        checked = True
        if keys is not None:
            wins = list(keys)
        elif least == 1:
            wins = [m for m in moves if m.is_win]
        else:
            wins, checked = p.winning(position, least, path, moves,
                                      all_of_them=least <= self.duals)
        node["moves"] = [str(m) for m in wins]
        node["dual"] = len(wins) > 1 if checked else None
        if least >= 2 and wins:
            main = wins[0]
            child = apply_move(position, main)
            if self._spend():
                node["after"] = self.loser_node(child, me, least - 1, (*path, position))
            else:
                node["truncated"] = True
        return node

    def loser_node(self, position: Position, winner: Side, d: int, path: tuple[Position, ...],
                   *, moves: MoveList | None = None):
        """The loser to move; the winner wins within ``d`` more of its moves."""
        p = self.prover
        loser = position.turn
        if moves is None:
            moves = p.moves(position, path)
        node: dict[str, Any] = {"to_move": loser.value, "role": "loser", "winner_moves_left": d}
        if moves.mover is winner and moves.moves:
            node["passed"] = True     # the loser is blocked: the winner moves again
            node["reply"] = self.winner_node(position.with_turn(winner), d, path)
            return node
        threat_pos = position.with_turn(winner)
        threat = None
        if p.win(threat_pos, winner, d, path):
            tl = p.least(threat_pos, winner, d, path)
            tm = p.moves(threat_pos, path)
            if tm.mover is winner:
                if tl == 1:
                    threat = [str(m) for m in tm if m.is_win]
                else:
                    found, _ = p.winning(threat_pos, tl, path, tm, all_of_them=tl <= self.duals)
                    threat = [str(m) for m in found]
        node["threat"] = threat
        defences = []
        for m in moves:
            entry: dict[str, Any] = {"move": str(m)}
            child = apply_move(position, m)
            if self._spend():
                entry["reply"] = self.winner_node(child, d, (*path, position))
            else:
                entry["truncated"] = True
            defences.append(entry)
        node["defences"] = defences
        return node


def main_line(tree: dict[str, Any] | None) -> list[str]:
    """The first line of a solution tree as turns (``34-44-43; 43-53-N``)."""
    turns: list[list[str]] = []
    last_side = None
    node = tree
    while node:
        if node["role"] == "winner":
            if node.get("passed"):
                node = node.get("then")
                continue
            if not node.get("moves"):
                break
            move = node["moves"][0]
            side = node["to_move"]
            node = node.get("after")
        else:
            if node.get("passed"):
                node = node.get("reply")
                continue
            if not node.get("defences"):
                break
            move = node["defences"][0]["move"]
            side = node["to_move"]
            node = node["defences"][0].get("reply")
        if side == last_side:
            turns[-1].append(move)
        else:
            turns.append([move])
        last_side = side
    return ["; ".join(t) for t in turns]
