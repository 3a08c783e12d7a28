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
24
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
    "hardest_threat", "key_after", "replace_threats",
]



def key_after(key: bytes, start: int, end: int, relocation: int | None) -> bytes:
    """The board key after a (non-winning) move."""
    return bytes(board_after(key, start, end, relocation))


def forced_landing_within(position: Position, rules: RuleSet, k: int) -> bool:
    """Can the side to move force a landing on the goal within ``k`` of its moves?
    (The solver's ``gyges.search.win_in``.)"""
    return bool(win_in(position, rules, k))


def replace_threats(position: Position, rules: RuleSet) -> int:
    """How many first moves of the side to move are met by a replace on the ring just moved.

    An *immediate replace threat* is a first move after which the opponent can reply with a
    replace that lands on the ring just moved (standing in its place and relocating it).
    "No immediate replace threat" means this count is 0: however the first player opens,
    the ring it brings out cannot be replaced at once.
    """
    flags = rules.flags()
    key = position.key
    side = position.turn.index
    mover, moves = _movegen.generate(key, side, flags, [], False)
    n = 0
    for start, to, reloc, _, _ in moves:
        if to >= 36:
            continue
        after = key_after(key, start, to, reloc)
        replier, replies = _movegen.generate(after, 1 - mover, flags, [key], False)
        if replier == mover:
            continue
        for r in replies:
            if r[1] == to and r[2] is not None:
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
