"""Stipulations: what is proven (or to be proven) about the side to move, read from text
and phrased in every form the program prints.

A result kind is :class:`ResultKind` (``win``, ``loss``, ``none``; each equal to its name).

>>> s = Stipulation.parse("North wins in 1")
>>> s.kind, s.moves, s.side, str(s)
('win', 1, <Side.NORTH: 'N'>, 'North wins in 1')
>>> s.kind is ResultKind.WIN, s.kind == "win"
(True, True)
>>> str(Stipulation.parse("loses in 2", Side.SOUTH))
'South loses in 2'
>>> str(Stipulation.parse("no forced result in 1", Side.NORTH))
'no forced result in 1'
>>> Stipulation("win", 2, Side.SOUTH).task()
'South to move and win in 2'
>>> Stipulation("loss", 2, Side.NORTH).statement()
'North to move loses in 2: South wins whatever North does'
>>> Stipulation("win", 3).command()
'win in 3'
"""

from __future__ import annotations

import dataclasses
import re
from typing import Literal

from gyges.game.bounds import MAX_MOVES
from gyges.game.names import NameEnum
from gyges.game.rules import Side

__all__ = ["RESULT_KINDS", "ResultKind", "ResultName", "Stipulation"]


class ResultKind(NameEnum):
    """What is proven about the side to move: it wins, it loses, or neither within the
    bound. Each kind is equal to its name (``ResultKind.WIN == "win"``), which is also
    its ``str()`` and its JSON form."""

    WIN = "win"
    LOSS = "loss"
    NONE = "none"


#: A result kind or its name, as the constructors take them.
ResultName = ResultKind | Literal["win", "loss", "none"]
RESULT_KINDS: tuple[ResultKind, ...] = tuple(ResultKind)

_STIPULATION = re.compile(
    r"^\s*(?:(?P<side>south|north|s|n)\s+)?(?:to\s+move\s+(?:and\s+)?)?"
    r"(?P<verb>wins?|loses?)\s+in\s+(?P<k>\d+)\s*$"
    r"|^\s*(?:(?P<side2>south|north|s|n)\s*(?:to\s+move)?\s*:?\s*)?"
    r"no\s+forced\s+result\s+(?:in|within)\s+(?P<k2>\d+)\s*$",
    re.IGNORECASE,
)


@dataclasses.dataclass(frozen=True, init=False)
class Stipulation:
    """What the solver must prove about the side to move.

    ``win``: it wins with its ``moves``-th move and no sooner; ``loss``: whatever it does,
    the opponent wins with its ``moves``-th move and no sooner against the best defence;
    ``none``: neither side can force a win within ``moves`` moves. ``side`` is the side to
    move (None: not said). ``kind`` may be given by name (``"win"``).
    """

    kind: ResultKind
    moves: int
    side: Side | None = None

    def __init__(self, kind: ResultName, moves: int, side: Side | None = None) -> None:
        object.__setattr__(self, "kind", ResultKind(kind))
        object.__setattr__(self, "moves", moves)
        object.__setattr__(self, "side", side)

    def __repr__(self) -> str:
        side = f", Side.{self.side.name}" if self.side is not None else ""
        return f"Stipulation({self.kind.value!r}, {self.moves}{side})"

    @classmethod
    def parse(cls, text: str, turn: Side | None = None) -> Stipulation:
        """Read ``North wins in 2``, ``loses in 3``, ``no forced result in 2``.

        ``turn`` (the side to move) fills in a missing side; a side that is not the side to
        move is an error.
        """
        m = _STIPULATION.match(str(text))
        if not m:
            raise ValueError(
                f"{text!r} is not a stipulation: write '<side> wins in N', '<side> loses in "
                "N' or 'no forced result in N' (N = the winner's moves), like 'South wins in 2'"
            )
        side_text = m.group("side") or m.group("side2")
        side = Side.parse(side_text) if side_text else turn
        if turn is not None and side is not turn:
            assert side is not None
            raise ValueError(
                f"the stipulation speaks of {side.title} but {turn.title} is to move: "
                f"a stipulation is about the side to move ({turn.title})"
            )
        kind: ResultKind
        if m.group("verb"):
            win = m.group("verb").lower().startswith("win")
            kind = ResultKind.WIN if win else ResultKind.LOSS
            k = int(m.group("k"))
        else:
            kind, k = ResultKind.NONE, int(m.group("k2"))
        if k < 1:
            raise ValueError(f"{text!r}: N counts moves, so it is 1 or more")
        if k > MAX_MOVES:
            raise ValueError(f"{text!r}: N must be 1..{MAX_MOVES} (the solver's limit)")
        return cls(kind, k, side)

    def __str__(self) -> str:
        """The catalogue's form: ``North wins in 1``, ``South loses in 2``, ``no forced
        result in 2``."""
        if self.kind is ResultKind.NONE:
            return f"no forced result in {self.moves}"
        who = f"{self.side.title} " if self.side else ""
        verb = "wins" if self.kind is ResultKind.WIN else "loses"
        return f"{who}{verb} in {self.moves}"

    @property
    def winner(self) -> Side | None:
        """The side that wins (None for ``none`` or when the side is not said)."""
        if self.side is None or self.kind is ResultKind.NONE:
            return None
        return self.side if self.kind is ResultKind.WIN else self.side.other

    def _side(self, turn: Side | None) -> Side:
        side = turn or self.side
        if side is None:
            raise ValueError(f"'{self}' does not say who is to move")
        return side

    def command(self) -> str:
        """The form of ``gyges generate --stipulation``: ``win in 2`` (no side)."""
        if self.kind is ResultKind.NONE:
            return f"no forced result in {self.moves}"
        return f"{'win' if self.kind == 'win' else 'lose'} in {self.moves}"

    def statement(self, *, stoppable: bool | None = None) -> str:
        """The solver's statement: ``South to move wins in 2`` (``stoppable``: the win in 1
        could have been avoided under ``win=unstoppable``)."""
        side = self._side(None)
        if self.kind is ResultKind.WIN:
            text = f"{side.title} to move wins in {self.moves}"
            if stoppable:
                text += ", stoppable (the opponent could have avoided it: take-back)"
            return text
        if self.kind is ResultKind.LOSS:
            return (f"{side.title} to move loses in {self.moves}: "
                    f"{side.other.title} wins whatever {side.title} does")
        return f"{side.title} to move: no forced win for either side within {self.moves}"

    def task(self, turn: Side | None = None) -> str:
        """The task as a book prints it: ``South to move and win in 2``."""
        side = self._side(turn).title
        if self.kind is ResultKind.WIN:
            return f"{side} to move and win in {self.moves}"
        if self.kind is ResultKind.LOSS:
            return f"{side} to move loses in {self.moves}"
        return f"{side} to move: hold out for {self.moves} move{'s' if self.moves > 1 else ''}"

    def answer(self, turn: Side | None = None) -> str:
        """What is proven, as the solutions pages of a book say it: ``South wins in 2.``"""
        side = self._side(turn)
        if self.kind is ResultKind.WIN:
            return f"{side.title} wins in {self.moves}."
        if self.kind is ResultKind.LOSS:
            return f"Whatever {side.title} does, {side.other.title} wins in {self.moves}."
        return f"Neither side can force a win within {self._moves()}."

    def _moves(self) -> str:
        """``1 move``, ``2 moves``."""
        return f"{self.moves} move{'s' if self.moves != 1 else ''}"

    def proof_note(self, keys: str) -> str:
        """What the solver proved, in words, for the notes of a catalogue entry; ``keys``
        says how many keys there are (``the only key``)."""
        side = self._side(None).title if self.kind is not ResultKind.NONE else ""
        if self.kind is ResultKind.WIN:
            return f"Proven by the solver: {side} wins in {self.moves} and no sooner; {keys}."
        if self.kind is ResultKind.LOSS:
            return (f"Proven by the solver: every move of {side} loses within {self._moves()} "
                    "of the opponent, and the main line's first move holds out that long.")
        return f"Proven by the solver: neither side can force a win within {self._moves()}."
