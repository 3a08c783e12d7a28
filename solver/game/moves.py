"""Moves and legal move lists.

A :class:`Move` knows its start slot, every slot its ring entered along its representative
path, the rings it bounced on, its end (a slot or a goal) and any relocation. Move
generation itself is compiled (``solver/_movegen.pyx``); this module turns its output into
values and applies moves to positions.

>>> from solver.game.position import Position
>>> from solver.game.rules import PRESETS
>>> moves = legal_moves(Position.from_string("321123/....../....../....../....../231123 S"),
...                     PRESETS["pbmserv"])
>>> moves.blocked, len(moves), str(moves[0])
(False, 336, '11-22')
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Iterator, Sequence

from solver.game import _movegen
from solver.game.position import Position
from solver.game.rules import RuleSet, Side
from solver.game.squares import NORTH_GOAL, SOUTH_GOAL


@dataclasses.dataclass(frozen=True)
class Move:
    """One move: the ring on ``start`` travels ``path`` and stops on ``end``.

    ``path`` holds every slot the ring enters, beginning with ``start`` and ending with
    ``end``; ``landings`` the slots of the rings it bounced on, in order. When
    ``relocation`` is set the move is a replace: the ring stops on the ring at ``end`` and
    that ring goes to ``relocation``.
    """

    start: int
    end: int
    relocation: int | None = None
    path: tuple[int, ...] = ()
    landings: tuple[int, ...] = ()
    side: Side = Side.SOUTH

    @property
    def is_win(self) -> bool:
        return self.end in (NORTH_GOAL, SOUTH_GOAL)

    @property
    def is_replace(self) -> bool:
        return self.relocation is not None

    @property
    def bounces(self) -> int:
        return len(self.landings)

    def result_key(self, position: Position) -> tuple[int, int, int | None]:
        """What decides the resulting position: start, end and relocation."""
        return (self.start, self.end, self.relocation)

    def __str__(self) -> str:
        """The pbmserv notation: start, each bounce, the end (``x``landing``=``target)."""
        from solver.formats.notation import format_move

        return format_move(self)


def board_after(
    board: Sequence[int], start: int, end: int, relocation: int | None = None
) -> tuple[int, ...]:
    """Ring sizes after the ring on ``start`` stops on ``end`` (a replace relocates the ring
    that stood on ``end`` to ``relocation``). Bounced-on rings never move, so this is all
    a (non-winning) move changes.

    >>> board_after((0, 3, 2) + (0,) * 33, 1, 2, 0)[:3]
    (2, 0, 3)
    """
    after = list(board)
    ring = after[start]
    after[start] = 0
    if relocation is not None:
        after[relocation] = after[end]
    after[end] = ring
    return tuple(after)


def apply_move(position: Position, move: Move) -> Position:
    """The position after a (non-winning) move, the mover's opponent to move."""
    if move.is_win:
        raise ValueError(f"{move} lands on a goal: the game is over, there is no next position")
    return Position(board_after(position.board, move.start, move.end, move.relocation),
                    move.side.other)


@dataclasses.dataclass(frozen=True)
class MoveList(Sequence[Move]):
    """The legal moves of a position, one per distinct result.

    ``blocked`` tells that the side to move has no legal move. Under ``blocked=pass`` the
    opponent then moves again from the same board: ``mover`` is that side and ``moves``
    are its moves. Under ``blocked=draw`` (or when neither side can move) ``moves`` is
    empty: the game is drawn.
    """

    position: Position
    mover: Side
    moves: tuple[Move, ...]

    @property
    def blocked(self) -> bool:
        return self.mover is not self.position.turn or not self.moves

    @property
    def wins(self) -> tuple[Move, ...]:
        return tuple(m for m in self.moves if m.is_win)

    def __getitem__(self, i):  # type: ignore[override]
        return self.moves[i]

    def __len__(self) -> int:
        return len(self.moves)

    def __iter__(self) -> Iterator[Move]:
        return iter(self.moves)


def _history_keys(position: Position, history: Iterable[Position | bytes]) -> list[bytes]:
    return [h.key if isinstance(h, Position) else bytes(h) for h in history]


def legal_moves(
    position: Position, rules: RuleSet, history: Iterable[Position | bytes] = ()
) -> MoveList:
    """Every legal move of ``position`` under ``rules``, with representative paths.

    ``history`` holds the earlier positions of the game (for the Renop law under
    ``repetition=forbidden``; the current position always counts as earlier).
    """
    mover, raw = _movegen.generate(
        position.key, position.turn.index, rules.flags(), _history_keys(position, history), True
    )
    side = Side.SOUTH if mover == 0 else Side.NORTH
    moves = tuple(
        Move(start, to, reloc, path, landings, side) for start, to, reloc, path, landings in raw
    )
    return MoveList(position, side, moves)


def can_land(position: Position, rules: RuleSet, history: Iterable[Position | bytes] = ()) -> bool:
    """Can the side to move land on the opponent's goal now? (Builds no move list.)"""
    return _movegen.goal_reachable(
        position.key, position.turn.index, rules.flags(), _history_keys(position, history)
    )


class NotOneMove(ValueError):
    """A position said to be one move before another is not."""


def landing_stands(position: Position, previous: Position, rules: RuleSet,
                   history: Sequence[Position] = ()) -> bool:
    """Did every alternative of the opponent's last move (from ``previous``) also allow the
    side to move a landing? (The unstoppable variant, seed 001: then a landing stands;
    otherwise the opponent may take the last move back.)"""
    prior = list(history)
    if prior and prior[-1] == previous:
        prior = prior[:-1]
    options = legal_moves(previous, rules, prior)
    results = [apply_move(previous, m) for m in options if not m.is_win]
    if options.mover is position.turn or position.board not in [r.board for r in results]:
        raise NotOneMove(
            f"the previous position {previous} is not one move before {position}: "
            f"no legal move of {position.turn.other.title} leads from it to the position"
        )
    if options.wins:
        return False          # the opponent could have landed itself instead
    return all(can_land(r, rules, [*prior, previous]) for r in results)
