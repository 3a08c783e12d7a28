"""A search session: :class:`Prover` asks the compiled provers questions about positions.

A :class:`Prover` holds one rule set, one compiled prover (picked and sized by
:mod:`gyges.search.policy`) with its transposition table, and the game's earlier
positions (the Renop law). Its table is kept across questions: every entry is keyed by
the board and the relevant history, so each answer is that of a fresh search, and a run
of related questions (deeper and deeper, or along one game line) reuses what the earlier
ones proved. Questions and answers speak positions, sides and moves; a ``line`` is the
positions played since the session's history, oldest first (positions or 36-byte boards).

>>> from gyges.game.rules import PRESETS
>>> p = Position.from_string("..1.../..23../..3.../..3113/2..2../2..1.. S")
>>> prover = Prover(PRESETS["pbmserv"], within=2)
>>> prover.wins(p, p.turn, 1), prover.wins(p, p.turn, 2), prover.least(p, p.turn, 3)
(False, True, 2)
>>> [str(m) for m in prover.winning_moves(p, 2)]
['14-24-33x43=12']
>>> key = prover.winning_moves(p, 2)[0]
>>> prover.known(p, [key], p.turn, 1)
[<Known.WIN: 'win'>]
>>> prover
Prover(pbmserv, kind=alphabeta, table_bits=16)
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterable, Sequence
from typing import NoReturn

from gyges.game.bounds import MAX_MOVES
from gyges.game.moves import (
    Game,
    Move,
    MoveList,
    apply_move,
    board_after,
    landing_moves,
    legal_moves,
)
from gyges.game.moves import result_of as _result_of
from gyges.game.position import Position
from gyges.game.rules import RuleSet, Side
from gyges.search import policy
from gyges.search._dfpn import DfpnSearcher
from gyges.search._search import Searcher
from gyges.search.policy import ProverKind, SolveError, pick

__all__ = ["History", "Known", "Prover", "win_in", "winners_among_boards"]

#: Earlier positions, oldest first: positions or their 36-byte boards (``Position.key``).
History = Iterable[Position | bytes]

#: A child of a position: the move that reaches it, or the position it reaches.
Child = Move | Position



class Known(enum.Enum):
    """A three-valued answer: proven to win, proven not to, or not known (nothing proven
    yet, or a line the search gave up on). It has no truth value: compare it."""

    WIN = "win"
    NO_WIN = "no win"
    UNKNOWN = "unknown"

    def __bool__(self) -> NoReturn:
        raise TypeError("Known is three-valued: compare it with Known.WIN, NO_WIN or UNKNOWN")

    @classmethod
    def of(cls, code: int) -> Known:
        """The compiled provers' answer code: 1, 0 or -1."""
        return cls.WIN if code > 0 else cls.NO_WIN if code == 0 else cls.UNKNOWN


def _boards(positions: History) -> list[bytes]:
    return [p.key if isinstance(p, Position) else bytes(p) for p in positions]


class Prover:
    """A search session: questions about positions under ``rules``, answered exactly.

    ``kind`` picks the compiled prover (``auto``, ``dfpn`` or ``alphabeta``:
    :class:`~gyges.search.policy.ProverKind` or its name), for questions of up to
    ``within`` moves, which also sizes its table (:func:`~gyges.search.policy.table_bits`;
    ``table_bits`` overrides it). ``history``: the game's positions before those asked
    about, oldest first. The lists of winning moves always come from the alpha-beta
    kernel (its order decides which of several winning moves is found first), with a table
    of its own when the session's prover is df-pn.
    """

    def __init__(self, rules: RuleSet, kind: ProverKind | str = ProverKind.AUTO,
                 within: int = 3, *, history: History = (), table_bits: int | None = None):
        if not 1 <= within <= MAX_MOVES:
            raise SolveError(f"questions go 1..{MAX_MOVES} moves deep, not {within}")
        self._rules = rules
        self._kind = pick(kind, within)
        self._bits = policy.table_bits(within) if table_bits is None else table_bits
        self._history = tuple(_boards(history))
        flags = rules.flags()
        self._searcher: Searcher | DfpnSearcher
        self._kernel: Searcher | None
        if self._kind is ProverKind.DFPN:
            self._searcher, self._kernel = DfpnSearcher(flags, self._bits), None
        else:
            self._searcher = self._kernel = Searcher(flags, self._bits)

    def __repr__(self) -> str:
        return f"Prover({self._rules.name}, kind={self._kind}, table_bits={self._bits})"

    # -- what it is -------------------------------------------------------------------

    @property
    def rules(self) -> RuleSet:
        return self._rules

    @property
    def kind(self) -> ProverKind:
        """The compiled prover that answers the yes/no questions (never ``auto``)."""
        return self._kind

    @property
    def table_bits(self) -> int:
        """Its table holds 2 ** table_bits entries."""
        return self._bits

    @property
    def history(self) -> tuple[bytes, ...]:
        """The boards of the game before the positions asked about, oldest first."""
        return self._history

    @property
    def nodes(self) -> int:
        """Positions searched so far, by every question of this session."""
        return self._searcher.nodes + self._kernel_only("nodes")

    @property
    def tt_hits(self) -> int:
        """Answers found in a transposition table so far."""
        return self._searcher.tt_hits + self._kernel_only("tt_hits")

    @property
    def truncated(self) -> bool:
        """Was any "no" of this session left undecided by a line given up (a side
        blocked too often in a row) and counted as no?"""
        kernel = self._kernel is not None and self._kernel.truncated
        return bool(self._searcher.truncated or kernel)

    def _kernel_only(self, counter: str) -> int:
        kernel = self._kernel
        return getattr(kernel, counter) if kernel is not None and kernel is not self._searcher \
            else 0

    def _line(self, line: History) -> list[bytes]:
        return [*self._history, *_boards(line)]

    def _child_boards(self, position: Position, children: Iterable[Child]) -> list[bytes]:
        return [_board_after(position, c) if isinstance(c, Move) else c.key for c in children]

    # -- the moves ----------------------------------------------------------------------

    def legal_moves(self, position: Position, line: History = ()) -> MoveList:
        """The legal moves of ``position`` after the history and ``line`` (Renop)."""
        return legal_moves(position, self._rules, self._line(line))

    def landing_moves(self, position: Position, line: History = ()) -> tuple[Move, ...]:
        """The legal moves of the side to move that land (as :meth:`legal_moves`)."""
        return landing_moves(position, self._rules, self._line(line))

    # -- yes/no questions -----------------------------------------------------------------

    def wins(self, position: Position, winner: Side, within: int, line: History = ()) -> bool:
        """Can ``winner`` land within ``within`` of its own moves from ``position``,
        whatever the other side does? (No when the answer rests on a line given up:
        :attr:`truncated` says so.)"""
        if within <= 0:
            return False
        return self._searcher.win(position.key, position.turn.index, winner.index, within,
                                  self._line(line))

    def least(self, position: Position, winner: Side, within: int,
              line: History = ()) -> int | None:
        """The least number of moves, at most ``within``, in which ``winner`` wins from
        ``position``, or None."""
        for k in range(1, within + 1):
            if self.wins(position, winner, k, line):
                return k
        return None

    def known(self, position: Position, children: Iterable[Child], winner: Side,
              within: int, line: History = ()) -> list[Known]:
        """What the table already proves, without searching, of ``wins(child, winner,
        within, [*line, position])`` for each child of ``position`` (a move of its side to
        move, or the position it reaches; every child with the same side to move)."""
        children = list(children)
        if within <= 0:
            return [Known.NO_WIN] * len(children)
        turns = {position.turn.other if isinstance(c, Move) else c.turn for c in children}
        if len(turns) > 1:
            raise ValueError("the children asked together have the same side to move")
        if not children:
            return []
        codes = self._searcher.known(self._child_boards(position, children), turns.pop().index,
                                     winner.index, within, [*self._line(line), position.key])
        return [Known.of(c) for c in codes]

    def wins_excluding(self, position: Position, winner: Side, within: int,
                       excluded: Iterable[Child], line: History = ()) -> Known:
        """:meth:`wins` with the moves of the side to move that reach ``excluded`` (moves
        or positions) left out at the root. With the loser to move, NO_WIN means another
        move holds, and :meth:`known` then tells which (from 2 moves on). UNKNOWN: a line
        given up, a blocked side, or (with the alpha-beta kernel) the winner to move."""
        return Known.of(self._searcher.win_excluding(
            position.key, position.turn.index, winner.index, within,
            self._child_boards(position, excluded), self._line(line)))

    # -- which moves win --------------------------------------------------------------------

    def winners_among(self, position: Position, within: int,
                      moves: Iterable[Child] | None = None, *, limit: int = 0,
                      line: History = ()) -> list[Child]:
        """Which of ``moves`` (moves of the side to move, or the positions they reach;
        default every legal move) win within ``within`` moves, this one included: up to
        ``limit`` of them (0: all), in the order found.

        With df-pn the position is asked as a whole, less every other move
        (:meth:`some_winners_among`: df-pn goes for the likeliest winner, where asking the
        moves in turn disproves every move met before it); whatever that leaves open is
        asked move by move."""
        legal = self.legal_moves(position, line)
        asked = _distinct(position, list(legal) if moves is None else moves)
        most = limit or len(asked)
        won, settled = self.some_winners_among(position, within, asked, limit=most, line=line,
                                               legal=legal)
        if settled:
            return won
        me = position.turn
        for child in asked:
            if len(won) >= most:
                break
            if any(child is w for w in won):
                continue
            if isinstance(child, Move) and child.is_win:
                if within >= 1:
                    won.append(child)
                continue
            after = apply_move(position, child) if isinstance(child, Move) else child
            if child_wins(self, position, after, me, within, line):
                won.append(child)
        return won

    def some_winners_among(self, position: Position, within: int, asked: Sequence[Child], *,
                           limit: int, line: History = (),
                           legal: MoveList | None = None) -> tuple[list[Child], bool]:
        """One step of :meth:`winners_among`: the winners among ``asked`` that df-pn's
        searches of the position less the other moves find (up to ``limit``), and whether
        that settled it (False: it could not tell, and the rest of ``asked`` is to be asked
        in turn; always False with the alpha-beta kernel, which does not ask this, and
        where the side to move can land).
        ``legal``: the legal moves of ``position``, when the caller has them."""
        searcher = self._searcher
        if not isinstance(searcher, DfpnSearcher):
            return [], False
        if legal is None:
            legal = self.legal_moves(position, line)
        if legal.wins:
            return [], False                # a landing has no board: each is asked in turn
        boards = self._child_boards(position, asked)
        won, settled = winners_among_boards(
            searcher, position.key, position.turn.index, within, self._line(line),
            self._child_boards(position, legal), boards, limit)
        return [asked[boards.index(b)] for b in won], settled

    def winning_moves(self, position: Position, within: int, line: History = (), *,
                      legal: MoveList | None = None, limit: int = 0,
                      progress: Callable[[int, int], None] | None = None) -> list[Move]:
        """Every move of the side to move that wins within ``within`` moves (the keys and
        cooks), in the order of the legal moves; empty when it is blocked. The kernel tries
        them in its search's order: ``limit > 0`` stops once that many are found (2 tells a
        unique key from a cook); ``progress(i, n)`` is called before the i-th of n is
        tried. ``legal``: the legal moves of ``position``, when the caller has them."""
        legal = self.legal_moves(position, line) if legal is None else legal
        found = self._alphabeta().winning_moves(position.key, position.turn.index, within,
                                                self._line(line), progress, limit)
        return _listed(position, legal, found)

    def winning_move(self, position: Position, within: int, line: History = (), *,
                     legal: MoveList | None = None) -> Move | None:
        """One move of the side to move that wins within ``within`` moves, the first the
        kernel's search finds (its order: the proof's move first), or None."""
        legal = self.legal_moves(position, line) if legal is None else legal
        one = self._alphabeta().find_win(position.key, position.turn.index, within,
                                         self._line(line))
        listed = _listed(position, legal, [one] if one is not None else [])
        return listed[0] if listed else None

    def _alphabeta(self) -> Searcher:
        """The kernel that lists winning moves: the session's own prover, or one made on
        first use with a table of the same size."""
        if self._kernel is None:
            self._kernel = Searcher(self._rules.flags(), self._bits)
        return self._kernel


def child_wins(prover: Prover, position: Position, child: Position, winner: Side, within: int,
               line: History = ()) -> bool:
    """Does the move from ``position`` to ``child`` (a move of ``winner``) win within
    ``within`` moves, this one included? The question :meth:`Prover.wins` asks of the
    child, one move fewer, with ``position`` added to the line."""
    return prover.wins(child, winner, within - 1, [*line, position])


def _board_after(position: Position, move: Move) -> bytes:
    """The board a (non-landing) move of ``position`` leaves."""
    if move.is_win:
        raise ValueError(f"{move} lands on the goal: no position follows it")
    return bytes(board_after(position.board, move.start, move.end, move.relocation))


def _distinct(position: Position, children: Iterable[Child]) -> list[Child]:
    """The children, each once (the first way it is given; a landing by its move)."""
    seen: set[bytes | Move] = set()
    out = []
    for c in children:
        key: bytes | Move = c if isinstance(c, Move) and c.is_win else \
            _board_after(position, c) if isinstance(c, Move) else c.key
        if key not in seen:
            seen.add(key)
            out.append(c)
    return out


def _listed(position: Position, legal: MoveList,
            found: Iterable[tuple[int, int, int | None]]) -> list[Move]:
    """The listed moves of ``found`` (the kernel's ``(start, to, relocation)`` triples)."""
    results = {_result_of(position.board, *t) for t in found}
    return [m for m in legal if m.result_key(position) in results]


def winners_among_boards(searcher: DfpnSearcher, board: bytes, side: int, d: int,
                         history: list[bytes], children: Sequence[bytes],
                         asked: Sequence[bytes], limit: int) -> tuple[list[bytes], bool]:
    """The compiled step behind :meth:`Prover.some_winners_among`, on boards: which of the
    boards ``asked`` (reached by moves of ``side``, to move on ``board``; ``children`` are
    all its moves' boards) win within ``d``, up to ``limit`` of them, in the order found:
    the position is asked as a whole, less every child not asked and each winner found
    (``win_excluding``), and the table tells which child won. Also whether that settled
    it: False when the searcher could not tell (a line given up, a result not kept)."""
    left = set(asked)
    out = [c for c in children if c not in left]
    won: list[bytes] = []
    while len(won) < limit:
        r = searcher.win_excluding(board, side, side, d, out, history)
        if r <= 0:
            return won, r == 0
        known = searcher.known(list(asked), 1 - side, side, d - 1, [*history, board])
        new = [b for b, w in zip(asked, known, strict=True) if w == 1 and b not in won]
        if not new:
            return won, False
        won.append(new[0])
        out.append(new[0])
    return won, True


def win_in(position: Position | Game, rules: RuleSet, k: int, history: History = (),
           searcher: Prover | None = None) -> bool:
    """Does the side to move win in at most ``k`` moves (``history``: the game's earlier
    positions, or ``position`` a :class:`~gyges.game.moves.Game`)? One question, with a
    fresh df-pn table (a :class:`Prover` keeps its table across many questions).

    ``searcher``: a :class:`Prover` of ``rules`` to ask instead, kept by the caller across
    calls.

    >>> from gyges.game.rules import PRESETS
    >>> win_in(Position.from_string(".3.3.3/112232/...1.2/...1../....../...... S"),
    ...        PRESETS["pbmserv"], 2)
    True
    """
    try:
        game = Game.of(position, history)
    except ValueError as e:
        raise SolveError(str(e)) from None
    position, history = game.position, game.history
    if k < 1:
        return False
    me = position.turn
    if searcher is not None:
        return searcher.wins(position, me, k, history)
    return Prover(rules, ProverKind.DFPN, min(k, MAX_MOVES), history=history,
                  table_bits=16).wins(position, me, k)
