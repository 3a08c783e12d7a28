"""What the engine says about a start position: the figures of its first moves.

Landing threats and blunders among the first moves of the side to move, the landing threat
hardest to meet, the replace threats, the landings a side has, and whether a side forces a
landing within some moves. The search judges its pairs with them
(:func:`gyges.setups.search.find.check_pair`), and the analysis of a pair reports them
(:func:`gyges.setups.proven.analysis.analyse_pair`). They call the compiled core's raw
entry points (``generate``, ``goal_reachable``: tuples, no Move objects), since they run
over every first move of a pair and every reply to it.

>>> from gyges.game.rules import PRESETS
>>> replace_threats(Position.setup("231132", "132312"), PRESETS["pbmserv"])
54
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from typing import Any

from gyges.formats.notation import format_move
from gyges.game import _movegen
from gyges.game.moves import Move, MoveResult, board_after, legal_moves, result_of
from gyges.game.position import Position
from gyges.game.rules import RuleSet, Side
from gyges.search import win_in

__all__ = [
    "FirstMoveThreats", "first_move_threats", "forced_landing_within", "goal_landings",
    "hardest_threat", "key_after", "moved_slots", "replace_threats",
]



def key_after(key: bytes, start: int, end: int, relocation: int | None) -> bytes:
    """The board key after a (non-winning) move."""
    return bytes(board_after(key, start, end, relocation))


def forced_landing_within(position: Position, rules: RuleSet, k: int) -> bool:
    """Can the side to move force a landing on the goal within ``k`` of its moves?
    (The solver's ``gyges.search.win_in``.)"""
    return bool(win_in(position, rules, k))


def moved_slots(before: bytes, after: bytes) -> tuple[int, ...]:
    """Where the ring just moved stands, read from the boards before and after a
    (non-winning) move alone: the changed slot that now holds the size that left the
    vacated start slot.

    A move changes its start (emptied), its end (the moving ring) and, for a replace, its
    relocation slot (the landed-on ring). A replace by a ring of the same size leaves the
    board of a plain move to the relocation slot, and the end does not change: the ring
    just moved is then the one on the relocation slot, as the plain move reads. A replace
    that relocates the landed-on ring to the vacated start swaps two rings and empties no
    slot; either could be the one that moved, so both slots are given. () for a board
    that did not change.

    >>> before = bytes([1, 2, 2] + [0] * 33)
    >>> moved_slots(before, bytes([0, 2, 1, 2] + [0] * 32))  # 1 from 0 onto 2, that 2 to 3
    (2,)
    >>> moved_slots(before, bytes([1, 0, 2, 2] + [0] * 32))  # 2 from 1 to 3 (or onto 2, to 3)
    (3,)
    >>> moved_slots(before, bytes([2, 1, 2] + [0] * 33))     # the rings on 0 and 1 swapped
    (0, 1)
    """
    changed = [x for x in range(len(before)) if before[x] != after[x]]
    vacated = [x for x in changed if not after[x]]
    if not vacated:
        return tuple(changed)
    size = before[vacated[0]]
    return tuple(x for x in changed if after[x] == size)


def replace_threats(position: Position, rules: RuleSet) -> int:
    """How many first moves of the side to move leave the ring just moved open to a replace.

    An *immediate replace threat*: a board left by a (non-landing) first move of the side
    to move after which the opponent, not blocked, has a reply that leaves a ring of
    another size on the slot of the ring just moved (:func:`moved_slots`): a replace
    that lands on it and relocates it. The count is of distinct boards.

    It reads boards only. Rings belong to no side and the board is all a position holds,
    so two moves that leave one board are one move, and the move generator keeps one of
    them by an order of slots (a same-size replace or the plain move to its relocation
    slot; which same-size ring a replace lands on): reading the kept move's end square
    made the count depend on the orientation, a pair and its mirror one apart. On boards,
    a same-size replace of the side to move is the plain move to its relocation slot (the
    ring relocated is the ring just moved), and the opponent's replace of the moved ring by
    one of its size displaces nothing (the slot keeps that size: the board is the plain
    move to its relocation slot). So a position and its mirror have the same count.
    "No immediate replace threat" means this count is 0: however the side to move opens,
    the ring it brings out cannot be displaced at once.
    """
    flags = rules.flags()
    key = position.key
    side = position.turn.index
    mover, moves = _movegen.generate(key, side, flags, [], False)
    seen: set[bytes] = set()
    n = 0
    for start, to, reloc, _, _ in moves:
        if to >= 36:
            continue
        after = key_after(key, start, to, reloc)
        if after in seen:
            continue
        seen.add(after)
        moved = moved_slots(key, after)
        replier, replies = _movegen.generate(after, 1 - mover, flags, [key], False)
        if replier == mover:
            continue
        # A reply changes only its start (emptied, or given the landed-on ring when it is
        # relocated there), its end and its relocation slot (empty before). So the ring on
        # a moved slot m gives way to one of another size exactly when the reply lands on
        # m as a replace by a ring of another size, or moves the ring on m itself onto a
        # ring that it relocates back to m (a swap: the two sizes differ).
        for r_start, r_to, r_reloc, _, _ in replies:
            if r_reloc is not None and (
                    (r_to in moved and after[r_start] != after[r_to])
                    or (r_start in moved and r_reloc == r_start)):
                n += 1
                break
    return n


def goal_landings(key: bytes, side: Side, rules: RuleSet, history: Sequence[bytes]) -> int:
    """How many of ``side``'s moves land on the goal from the board ``key`` (0 when the
    side is blocked)."""
    mover, moves = _movegen.generate(key, side.index, rules.flags(), list(history), False)
    return sum(1 for m in moves if m[1] >= 36) if mover == side.index else 0


@dataclasses.dataclass(frozen=True, repr=False)
class FirstMoveThreats:
    """What the first moves of the side to move threaten, and what they allow.

    >>> from gyges.game.rules import PRESETS
    >>> p = Position.setup("231132", "132312")
    >>> first_move_threats(p, PRESETS["pbmserv"], legal_moves(p, PRESETS["pbmserv"]))
    FirstMoveThreats(landing_threats=17, blunders=23, threats=['12-31', '12x11=41', ...])
    """

    landing_threats: int  #: first moves after which it could land next move if unanswered
    blunders: int  #: first moves that let the opponent land at once
    threats: tuple[Move, ...]  #: the landing threats that do not let the opponent land first

    def __repr__(self) -> str:
        return (f"FirstMoveThreats(landing_threats={self.landing_threats}, "
                f"blunders={self.blunders}, threats={[format_move(m) for m in self.threats]})")


def first_move_threats(position: Position, rules: RuleSet, moves: Iterable[Move]
                       ) -> FirstMoveThreats:
    """The landing threats and blunders among ``moves``, the first moves of the side to
    move in ``position`` (a move that lands at once is neither)."""
    flags = rules.flags()
    key = position.key
    me = position.turn.index
    landing = blunders = 0
    threats: list[Move] = []
    for m in moves:
        if m.is_win:
            continue
        after = key_after(key, m.start, m.end, m.relocation)
        opponent_lands = _movegen.goal_reachable(after, 1 - me, flags, [key])
        blunders += opponent_lands
        if _movegen.goal_reachable(after, me, flags, [key]):
            landing += 1
            if not opponent_lands:
                threats.append(m)
    return FirstMoveThreats(landing, blunders, tuple(threats))


def _slot_order(m: Move) -> tuple[int, int, int]:
    return (m.start, m.end, -1 if m.relocation is None else m.relocation)


def hardest_threat(start: Position, rules: RuleSet, threats: Sequence[Move]) -> dict[str, Any]:
    """The landing threat the fewest replies stop, how many, and the first of them, as
    ``{"threat", "replies", "reply"}`` in notation.

    A reply stops a threat by landing itself or by leaving the threatening side no
    landing. Threats are taken in slot order (start, end, relocation) and ties keep the
    first; the reply given is the first stopping reply in slot order. Counting a threat
    stops as soon as it cannot beat the best so far (the result is the same, found faster).
    """
    flags = rules.flags()
    key = start.key
    me = start.turn.index
    best: tuple[int, Move, MoveResult | None] | None = None
    for m in sorted(threats, key=_slot_order):
        after = key_after(key, m.start, m.end, m.relocation)
        mover, replies = _movegen.generate(after, 1 - me, flags, [key], False)
        stops = 0
        first = None
        if mover == 1 - me:
            for r_start, r_to, r_reloc, _, _ in sorted(
                    replies, key=lambda r: (r[0], r[1], -1 if r[2] is None else r[2])):
                if r_to >= 36 or not _movegen.goal_reachable(
                        key_after(after, r_start, r_to, r_reloc), me, flags, [key, after]):
                    stops += 1
                    if first is None:
                        first = result_of(after, r_start, r_to, r_reloc)
                    if best is not None and stops >= best[0]:
                        break
        if best is None or stops < best[0]:
            best = (stops, m, first)
    assert best is not None
    stops, m, first = best
    reply = None
    if first is not None:
        after_pos = Position(tuple(key_after(key, m.start, m.end, m.relocation)),
                             start.turn.other)
        reply = next(format_move(r) for r in legal_moves(after_pos, rules, [start])
                     if r.result_key(after_pos) == first)
    return {"threat": format_move(m), "replies": stops, "reply": reply}
