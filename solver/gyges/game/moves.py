"""Moves and legal move lists.

A :class:`Move` knows its start slot, every slot its ring entered along its representative
path, the rings it bounced on, its end (a slot or a goal) and any relocation. Move
generation itself is compiled (``solver/gyges/game/_movegen.pyx``); this module turns its output
into values, applies moves to positions (:class:`Game` keeps the history as it goes) and
is the public face of the core: the path-constrained search that notation parsing asks
(:func:`follow_chain`), the taboo (:func:`taboo_clash`), the segments (:func:`segments`),
relocation targets and perft.

>>> from gyges.game.position import Position
>>> from gyges.game.rules import PRESETS
>>> moves = legal_moves(Position.from_string("321123/....../....../....../....../231123 S"),
...                     PRESETS["pbmserv"])
>>> moves.blocked, len(moves), moves[0]
(False, 336, Move('11-22', Side.SOUTH))
>>> moves
<MoveList of South in 321123/....../....../....../....../231123 S: 336 moves, 11-22, 11-31, ...>
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

from gyges.game import _movegen
from gyges.game.position import Position
from gyges.game.rules import RuleSet, Side
from gyges.game.squares import NORTH_GOAL, SOUTH_GOAL, slot_name

#: What identifies a move: the ring that lands on the goal (``("win", start)``), or the
#: board it leaves (``("board", sizes)``). Two moves with the same result are the same
#: move (a same-size replace and the plain move to its relocation slot, say).
MoveResult = tuple[str, "int | tuple[int, ...]"]


def result_of(board: Sequence[int], start: int, end: int,
              relocation: int | None = None) -> MoveResult:
    """The :data:`MoveResult` of the move ``start``, ``end``, ``relocation`` on ``board``.

    >>> result_of((0, 3, 2) + (0,) * 33, 1, 36)
    ('win', 1)
    """
    if end in (NORTH_GOAL, SOUTH_GOAL):
        return ("win", start)
    return ("board", board_after(board, start, end, relocation))


@dataclasses.dataclass(frozen=True, repr=False)
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

    def result_key(self, position: Position) -> MoveResult:
        """The move's identity in ``position``: see :data:`MoveResult`."""
        return result_of(position.board, self.start, self.end, self.relocation)

    def __str__(self) -> str:
        """The pbmserv notation: start, each bounce, the end (``x``landing``=``target)."""
        return format_move(self)

    def __repr__(self) -> str:
        return f"Move({format_move(self)!r}, Side.{self.side.name})"


def _segments(move: Move) -> list[tuple[int, ...]] | None:
    """The path cut at each landing: one tuple of slots per segment, start slot first."""
    path = move.path
    if not path or path[0] != move.start or path[-1] != move.end:
        return None
    cuts = [0]
    for landing in move.landings:
        try:
            cuts.append(path.index(landing, cuts[-1] + 1))
        except ValueError:
            return None
    cuts.append(len(path) - 1)
    return [path[a : b + 1] for a, b in zip(cuts, cuts[1:], strict=False)]


def format_move(move: Move, long: bool = False) -> str:
    """Start, each bounce, then the end: ``51-43-33-31-21-S``, ``13-14-24x35=33``
    (pbmserv notation, seed 000; :mod:`gyges.formats.notation` reads it back).

    With ``long``, every intermediate step is given in parentheses, as the seed does:
    ``24-(14-15-)25-(24-)34-44-(54-64-)N``.

    >>> format_move(Move(9, 15, path=(9, 3, 4, 10, 9, 15), landings=(10,)), long=True)
    '24-(14-15-)25-(24-)34'
    """
    segments = _segments(move) if long else None
    if segments is None:
        chain = "-".join(slot_name(s) for s in (move.start, *move.landings))
        if move.relocation is not None:
            return f"{chain}x{slot_name(move.end)}={slot_name(move.relocation)}"
        return f"{chain}-{slot_name(move.end)}"
    out = slot_name(move.start)
    for i, seg in enumerate(segments):
        last = i == len(segments) - 1
        middle = "".join(f"{slot_name(s)}-" for s in seg[1:-1])
        sep = "x" if last and move.relocation is not None else ""
        out += "-" if not (sep and not middle) else ""
        if middle:
            out += f"({middle})"
        out += sep + slot_name(seg[-1])
    if move.relocation is not None:
        out += f"={slot_name(move.relocation)}"
    return out


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
    return Position.unchecked(board_after(position.board, move.start, move.end,
                                          move.relocation), move.side.other)


@dataclasses.dataclass(frozen=True, repr=False)
class MoveList(Sequence[Move]):
    """The legal moves of a position, one per distinct result.

    ``blocked`` tells that the side to move has no legal move. Under ``blocked=pass`` the
    opponent then moves again from the same board: ``mover`` is that side and ``moves``
    are its moves. Under ``blocked=draw`` (or when neither side can move) ``moves`` is
    empty: the game is drawn. ``wins`` holds the moves that land on the goal (kept when
    the list is made). The JSON form is :func:`gyges.formats.movelist.move_list_to_json`.
    """

    position: Position
    mover: Side
    moves: tuple[Move, ...]
    wins: tuple[Move, ...] = dataclasses.field(init=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "wins", tuple(m for m in self.moves if m.is_win))

    @classmethod
    def _made(cls, position: Position, mover: Side, moves: tuple[Move, ...],
              wins: tuple[Move, ...]) -> MoveList:
        """A list whose ``wins`` are known (the core's output, sorted as it came)."""
        made = object.__new__(cls)
        d = made.__dict__
        d["position"] = position
        d["mover"] = mover
        d["moves"] = moves
        d["wins"] = wins
        return made

    @property
    def blocked(self) -> bool:
        return self.mover is not self.position.turn or not self.moves

    def __repr__(self) -> str:
        shown = ", ".join(format_move(m) for m in self.moves[:2])
        more = ", ..." if len(self.moves) > 2 else ""
        count = f"{len(self.moves)} move{'s' if len(self.moves) != 1 else ''}"
        return (f"<MoveList of {self.mover.title} in {self.position}: {count}"
                f"{', ' + shown if shown else ''}{more}>")

    def find(self, move: Move) -> Move | None:
        """The listed move with the result of ``move`` (:data:`MoveResult`), or None.

        A move may be written another way than the listed one (a same-size replace for
        the plain move to its relocation slot, another ring's null move).
        """
        for m in self.moves:       # the same start, end and relocation: the same result
            if m.start == move.start and m.end == move.end and m.relocation == move.relocation:
                return m
        target = move.result_key(self.position)
        for m in self.moves:
            if m.result_key(self.position) == target:
                return m
        return None

    def __getitem__(self, i):
        return self.moves[i]

    def __len__(self) -> int:
        return len(self.moves)

    def __iter__(self) -> Iterator[Move]:
        return iter(self.moves)


def _history_keys(position: Position, history: Iterable[Position | bytes]) -> list[bytes]:
    return [h.key if isinstance(h, Position) else bytes(h) for h in history]


def legal_moves(
    position: Position, rules: RuleSet, history: Iterable[Position | bytes] = (),
    paths: bool = True,
) -> MoveList:
    """Every legal move of ``position`` under ``rules``, with representative paths (unless
    ``paths`` is false: then ``path`` and ``landings`` are empty, and the list is faster).

    ``history`` holds the earlier positions of the game (for the Renop law under
    ``repetition=forbidden``; the current position always counts as earlier).
    """
    mover, raw = _movegen.generate(
        position.key, position.turn.index, rules.flags(), _history_keys(position, history), paths
    )
    side = Side.SOUTH if mover == 0 else Side.NORTH
    moves, wins = _moves_of(raw, side)
    return MoveList._made(position, side, moves, wins)


def landing_moves(position: Position, rules: RuleSet,
                  history: Iterable[Position | bytes] = ()) -> tuple[Move, ...]:
    """The legal moves of the side to move that land on the goal, with their paths, in
    :func:`legal_moves`' order (its moves with ``is_win``), without building the others
    (a solution tree lists the landings at each of its last moves).

    >>> from gyges.game.rules import PRESETS
    >>> p = Position.from_string("....../3...../..1.1./1.23.3/3.22.1/....2. N")
    >>> [str(m) for m in landing_moves(p, PRESETS["pbmserv"])]
    ['51-43-33-31-21-S']
    """
    mover, raw = _movegen.generate(
        position.key, position.turn.index, rules.flags(), _history_keys(position, history), True
    )
    if mover != position.turn.index:
        return ()       # blocked: the opponent moves, and cannot land on this side's goal
    return _moves_of([r for r in raw if r[1] in (NORTH_GOAL, SOUTH_GOAL)], position.turn)[1]


def _moves_of(raw: list[tuple[Any, ...]],
              side: Side) -> tuple[tuple[Move, ...], tuple[Move, ...]]:
    """The :class:`Move` of each of the core's raw moves, and those that land on a goal,
    built without the frozen dataclass's ``__init__`` (six ``object.__setattr__`` calls:
    six times slower, and most of the cost of a move list where many are made, as in
    puzzle generation)."""
    new = object.__new__
    out = []
    wins = []
    for start, end, relocation, path, landings in raw:
        m = new(Move)
        d = m.__dict__
        d["start"] = start
        d["end"] = end
        d["relocation"] = relocation
        d["path"] = path or ()
        d["landings"] = landings or ()
        d["side"] = side
        out.append(m)
        if end >= NORTH_GOAL:
            wins.append(m)
    return tuple(out), tuple(wins)


def can_land(position: Position, rules: RuleSet, history: Iterable[Position | bytes] = ()) -> bool:
    """Can the side to move land on the opponent's goal now? (Builds no move list.)"""
    return _movegen.goal_reachable(
        position.key, position.turn.index, rules.flags(), _history_keys(position, history)
    )


class NotOneMove(ValueError):
    """A position said to be one move before another is not."""


def landing_stands(position: Position, previous: Position, rules: RuleSet,
                   history: Sequence[Position | bytes] = ()) -> bool:
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


@dataclasses.dataclass(frozen=True, repr=False)
class Game:
    """A position with the earlier positions of its game, oldest first: the one place a
    move is played and the position it leaves is recorded (for the Renop law).

    >>> from gyges.game.position import START
    >>> from gyges.game.rules import PRESETS
    >>> game = Game(START).play(legal_moves(START, PRESETS["pbmserv"])[0])
    >>> game.history == (START,), game.position.turn.title
    (True, 'North')
    >>> game
    <Game at 321123/....../....../....../.2..../.31123 N after 1 earlier position>
    """

    position: Position
    history: tuple[Position | bytes, ...] = ()

    def __repr__(self) -> str:
        n = len(self.history)
        return f"<Game at {self.position} after {n} earlier position{'s' if n != 1 else ''}>"

    def play(self, move: Move) -> Game:
        """The game after a (non-winning) move: the position it leaves joins the history."""
        return Game(apply_move(self.position, move), (*self.history, self.position))

    def legal_moves(self, rules: RuleSet, paths: bool = True) -> MoveList:
        return legal_moves(self.position, rules, self.history, paths)

    def can_land(self, rules: RuleSet) -> bool:
        return can_land(self.position, rules, self.history)

    @staticmethod
    def of(position: Position | Game, history: Iterable[Position | bytes] = ()) -> Game:
        """What a call that takes a position and its history, or a game, was given: the
        game (a position and a history make one; a game and a history too is an error).

        >>> from gyges.game.position import START
        >>> Game.of(START, [START]) == Game.of(Game(START, (START,))) == Game(START, (START,))
        True
        """
        if not isinstance(position, Game):
            return Game(position, tuple(history))
        if tuple(history):
            raise ValueError("give a game, or a position with its history, not both")
        return position


# -- the core's searches, for the formats above (no layer imports ``_movegen`` but this one)


#: A path of a ring as the core lists it: ``(kind, path, landings)``, kind ``end``,
#: ``land`` or ``goal``; ``path`` every slot entered, start first.
RingPath = tuple[str, tuple[int, ...], tuple[int, ...]]


def follow_chain(position: Position, side: Side, rules: RuleSet, start: int,
                 landings: Sequence[int], final: int | None = None, kind: str | None = None,
                 groups: Mapping[int, Sequence[int]] | None = None, limit: int = 1,
                 ignore_taboo: bool = False) -> list[RingPath]:
    """The paths of the ring on ``start`` that bounce on ``landings`` in order and end on
    ``final`` (of ``kind``), stepping on ``groups[i]`` between the ends of segment ``i``
    where given: the lexicographically first ``limit`` (all when negative). Movement only
    (no rows, null moves or Renop: :func:`legal_moves` decides legality). See
    ``_movegen.follow_chain``.

    >>> from gyges.game.rules import PRESETS
    >>> p = Position.from_string("....../3...../..1.1./1.23.3/3.22.1/....2. N")
    >>> [kind for kind, _, _ in follow_chain(p, Side.NORTH, PRESETS["pbmserv"], 24, [20],
    ...                                      final=14, kind="land")]
    ['land']
    """
    return _movegen.follow_chain(
        position.key, side.index, rules.flags(), start, list(landings), final, kind,
        None if groups is None else {i: list(g) for i, g in groups.items()}, limit,
        ignore_taboo)


def ring_paths(position: Position, side: Side, rules: RuleSet, start: int,
               chain: Sequence[int] | None = None) -> list[RingPath]:
    """Every path of the ring on ``start`` (bouncing on exactly ``chain`` when given)."""
    return _movegen.ring_paths(position.key, side.index, rules.flags(), start,
                               None if chain is None else list(chain))


def taboo_clash(path: Sequence[int], rules: RuleSet) -> tuple[int, int] | None:
    """The first step of ``path`` (slots entered, start first) that breaks the taboo."""
    return _movegen.taboo_clash(tuple(path), rules.flags())


def segments(start: int, steps: int, rules: RuleSet | None = None,
             ignore_taboo: bool = False) -> list[tuple[int, ...]]:
    """Every way to take exactly ``steps`` steps from slot ``start`` on an empty board (the
    slots entered, ``start`` excluded; goals only as the last step), as the core's segment
    tables hold them: the game's one adjacency.

    >>> segments(0, 1)
    [(6,), (37,), (1,)]
    """
    return _movegen.segments(start, steps, rules.flags() if rules else 0, ignore_taboo)


def relocation_targets(position: Position, side: Side, rules: RuleSet, start: int) -> list[int]:
    """Slots where a ring landed on by the ring from ``start`` may be relocated (sorted)."""
    return _movegen.relocation_targets(position.key, side.index, rules.flags(), start)


def perft(position: Position, rules: RuleSet, depth: int,
          history: Iterable[Position | bytes] = ()) -> tuple[int, int]:
    """``(leaves, move lists)``: the move sequences of exactly ``depth`` moves (a goal
    landing ends its line) and the move lists generated to count them."""
    return _movegen.perft(position.key, position.turn.index, rules.flags(), depth,
                          _history_keys(position, history))
