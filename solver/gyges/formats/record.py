"""Game records in the style of seed 000's sample game, and replaying them.

A record starts with the header ``South North``, then numbered entries, two to a line
(South's odd-numbered entries in the left column, North's even-numbered ones in the
right): the two setups first (six digits each), then one turn per entry, and possibly a
final ``Resign``. A turn of a side that plays on while its opponent is blocked joins its
moves with ``; ``::

    South North
    1 231123 2 321123
    3 16-35 4 61-53
    5 Resign

>>> record = parse_record("South North\\n1 231123 2 321123\\n3 16-35 4 61-53\\n5 Resign\\n")
>>> [(t.number, t.side.value, t.text) for t in record.turns]
[(3, 'S', '16-35'), (4, 'N', '61-53')]
>>> record.result
'Resign'
>>> record
<GameRecord <record>: 1 231123 2 321123 3 16-35 4 61-53 5 Resign>
>>> parse_record(format_record(record)) == record
True
>>> GameRecord.from_json(record.to_json()) == record
True
>>> from gyges.game.rules import PRESETS
>>> game = replay(record, PRESETS["pbmserv"])
>>> str(game.positions[-1]), game.winner, game.error
('.21123/..3.../....../....3./....../23112. S', <Side.NORTH: 'N'>, None)
>>> game
<Replay of <record>: 2 turns legal, North wins>
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping, Sequence
from typing import Any

from gyges.formats.notation import (
    NotationError,
    format_move,
    parse_setup,
    parse_turn,
    read_move,
)
from gyges.game.moves import Game, Move, NotOneMove, landing_stands
from gyges.game.position import Position, PositionError
from gyges.game.rules import RuleSet, Side, WinRule

HEADER = "South North"
RESULT_ENTRIES = ("Resign",)


class RecordError(ValueError):
    """A game record that cannot be read; the message starts with ``source:line``."""


@dataclasses.dataclass(frozen=True, repr=False)
class RecordedTurn:
    """One numbered entry of a record: the text of one side's turn (``line``: where the
    entry starts in its file, 0 when it was not read from one)."""

    number: int
    side: Side
    text: str
    line: int = 0

    def __repr__(self) -> str:
        return f"RecordedTurn({self.number}, Side.{self.side.name}, {self.text!r})"


@dataclasses.dataclass(frozen=True, repr=False)
class GameRecord:
    """A game as written: both setups (six digits, or None), the turns and any result.

    Its JSON form (:meth:`to_json`)::

        {"source": "<file name>", "south_setup": "231123" | null,
         "north_setup": "321123" | null,
         "turns": [{"number": 3, "side": "S", "text": "16-35", "line": 3}, ...],
         "result": "Resign" | null}
    """

    south_setup: str | None
    north_setup: str | None
    turns: tuple[RecordedTurn, ...]
    result: str | None
    source: str = "<record>"

    @property
    def first_number(self) -> int:
        """The number of the first turn (3 when the setups are entries 1 and 2)."""
        return self.turns[0].number if self.turns else (3 if self.south_setup else 1)

    def to_json(self) -> dict[str, Any]:
        return {
            "source": self.source, "south_setup": self.south_setup,
            "north_setup": self.north_setup,
            "turns": [{"number": t.number, "side": t.side.value, "text": t.text,
                       "line": t.line} for t in self.turns],
            "result": self.result,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> GameRecord:
        """The record of its JSON form, checked as :func:`parse_record` checks a record's
        text (RecordError says what is wrong)."""
        source = data.get("source", "<record>") if isinstance(data, Mapping) else "<record>"
        try:
            turns = tuple(RecordedTurn(int(t["number"]), Side(t["side"]), str(t["text"]),
                                       int(t.get("line", 0))) for t in data["turns"])
            record = cls(data.get("south_setup"), data.get("north_setup"), turns,
                         data.get("result"), str(source))
        except (KeyError, TypeError, ValueError, AttributeError):
            raise RecordError(f"{source}: a game record is an object with south_setup, "
                              "north_setup, turns ({number, side, text}) and result") from None
        again = parse_record(format_record(record), record.source)
        if [(t.number, t.side) for t in again.turns] != [(t.number, t.side) for t in turns]:
            raise RecordError(f"{source}: the turns' sides do not follow their numbers")
        return record

    def __repr__(self) -> str:
        text = " ".join(format_record(self).splitlines()[1:])
        return f"<GameRecord {self.source}: {text}>"


def _side_of(number: int) -> Side:
    return Side.SOUTH if number % 2 else Side.NORTH


_NUMBER = re.compile(r"\d{1,4}")


def _cut(text: str, width: int = 40) -> str:
    return text if len(text) <= width else text[: width - 3] + "..."


def parse_record(text: str, source: str = "<record>") -> GameRecord:
    """Read a record; RecordError names the source, the line and what is wrong."""
    entries: list[tuple[int, str, int]] = []   # (number, text, line)
    header_seen = False
    current: list | None = None
    for lineno, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        if not header_seen:
            if line.split() != HEADER.split() and line.lower().split() != ["south", "north"]:
                raise RecordError(
                    f"{source}:{lineno}: a game record begins with the header "
                    f"{HEADER!r}, not {_cut(line)!r}"
                )
            header_seen = True
            continue
        for i, token in enumerate(line.split()):
            starts_entry = _NUMBER.fullmatch(token) is not None and (
                current is None
                or (current[1] and not current[1].rstrip().endswith(";"))
            )
            if (i == 0 and not starts_entry and current is not None and current[1]
                    and not current[1].rstrip().endswith(";")):
                # an entry ends with its line (unless its turn goes on after a ';')
                raise RecordError(
                    f"{source}:{lineno}: {_cut(line)!r}: each line holds numbered entries, "
                    f"like '{current[0] + 1} 61-53'"
                )
            if starts_entry:
                if current is not None:
                    entries.append((current[0], current[1], current[2]))
                current = [int(token), "", lineno]
            elif current is None:
                raise RecordError(
                    f"{source}:{lineno}: {_cut(token)!r}: each entry begins with its number, "
                    "like '3 16-35'"
                )
            else:
                current[1] = f"{current[1]} {token}".strip()
    if current is not None:
        entries.append((current[0], current[1], current[2]))
    if not header_seen:
        raise RecordError(f"{source}:1: the record is empty: it needs the header {HEADER!r}")

    setups: dict[int, str] = {}
    turns: list[RecordedTurn] = []
    result = None
    expected = entries[0][0] if entries else 1
    for number, entry, lineno in entries:
        where = f"{source}:{lineno}"
        if number != expected:
            raise RecordError(f"{where}: entry {number} follows entry {expected - 1}: "
                              f"expected {expected}")
        expected += 1
        if not entry:
            raise RecordError(f"{where}: entry {number} is empty")
        if result is not None:
            raise RecordError(f"{where}: entry {number} follows the result {result!r}")
        if entry.capitalize() in RESULT_ENTRIES or entry.lower() == "resigns":
            result = "Resign"
            continue
        if number <= 2 and not turns and entry.isdigit():
            try:
                setups[number] = parse_setup(entry)
            except NotationError as e:
                raise RecordError(f"{where}: entry {number} ({_side_of(number).title}'s setup): "
                                  f"{e}") from None
            continue
        if setups and len(setups) < 2:
            raise RecordError(f"{where}: entry {number}: both setups (entries 1 and 2) come "
                              "before the first move")
        if number <= 2 and entry.isdigit():
            raise RecordError(f"{where}: entry {number}: a setup is six digits")
        for part in entry.split(";"):   # written like a move? (legal or not: replay's job)
            try:
                read_move(part.strip())
            except NotationError as e:
                raise RecordError(f"{where}: entry {number}: {_cut(str(e), 200)}") from None
        turns.append(RecordedTurn(number, _side_of(number), entry, lineno))
    if setups and len(setups) < 2:
        raise RecordError(f"{source}: both setups are needed (entries 1 and 2), found only "
                          f"entry {next(iter(setups))}")
    if setups and entries[0][0] != 1:
        raise RecordError(f"{source}:{entries[0][2]}: the setups are entries 1 and 2")
    return GameRecord(setups.get(1), setups.get(2), tuple(turns), result, source)


def format_record(record: GameRecord) -> str:
    """The record as text, two entries to a line (South's left, North's right)."""
    entries: list[tuple[int, str]] = []
    if record.south_setup is not None and record.north_setup is not None:
        entries += [(1, record.south_setup), (2, record.north_setup)]
    entries += [(t.number, t.text) for t in record.turns]
    if record.result is not None:
        last = entries[-1][0] if entries else 0
        entries.append((last + 1, record.result))
    lines = [HEADER]
    row: list[str] = []
    for number, text in entries:
        if number % 2 and row:
            lines.append(" ".join(row))
            row = []
        row.append(f"{number} {text}")
        if not number % 2:
            lines.append(" ".join(row))
            row = []
    if row:
        lines.append(" ".join(row))
    return "\n".join(lines) + "\n"


@dataclasses.dataclass(frozen=True)
class ReplayError:
    """The first entry of a record that is not legal, and why."""

    number: int
    line: int
    text: str
    reason: str

    def __str__(self) -> str:
        return f"line {self.line}: entry {self.number} ({self.text}): {self.reason}"


@dataclasses.dataclass(frozen=True, repr=False)
class Replay:
    """A replayed record: the position after the setups and after each legal turn, the
    moves of each turn, the first illegal entry (or None) and the winner (or None).

    Under ``win=unstoppable`` (seed 001), ``stoppable`` tells whether the final landing
    could have been avoided by the loser's last move (then the loser may take that move
    back: the landing does not stand); None when the rules or the record do not ask.
    """

    record: GameRecord
    positions: tuple[Position, ...]
    moves: tuple[tuple[Move, ...], ...]
    error: ReplayError | None
    winner: Side | None
    stoppable: bool | None = None

    def __repr__(self) -> str:
        n = len(self.moves)
        legal = f"{n} turn{'s' if n != 1 else ''} legal"
        if self.error is not None:
            return f"<Replay of {self.record.source}: {legal}, then {self.error}>"
        end = f"{self.winner.title} wins" if self.winner is not None else "no result"
        return f"<Replay of {self.record.source}: {legal}, {end}>"


def replay(record: GameRecord, rules: RuleSet, start: Position | None = None) -> Replay:
    """Play a record's turns under ``rules``, stopping at the first illegal one.

    The start is the position after the record's setups (South to move), or ``start``
    when the record has no setups. Earlier positions are kept for the Renop law.
    """
    if record.south_setup is not None and record.north_setup is not None:
        try:
            position = Position.setup(record.south_setup, record.north_setup)
        except PositionError as e:
            raise RecordError(f"{record.source}: {e}") from None
    elif start is not None:
        position = start
    else:
        raise RecordError(f"{record.source}: the record gives no setups (entries 1 and 2) "
                          "and no start position was given")
    positions = [position]
    game = Game(position)
    played: list[tuple[Move, ...]] = []
    winner: Side | None = None
    stoppable: bool | None = None
    error: ReplayError | None = None
    for turn in record.turns:
        if winner is not None:
            error = ReplayError(turn.number, turn.line, turn.text,
                                f"the game is over: {winner.title} has won")
            break
        position = game.position
        if position.turn is not turn.side:
            error = ReplayError(turn.number, turn.line, turn.text,
                                f"it is {position.turn.title}'s turn, not {turn.side.title}'s")
            break
        try:
            moves = parse_turn(turn.text, position, rules, game.history)
        except NotationError as e:
            error = ReplayError(turn.number, turn.line, turn.text, str(e))
            break
        if moves[0].side is not turn.side:
            error = ReplayError(
                turn.number, turn.line, turn.text,
                f"{turn.side.title} has no legal move, so {turn.side.other.title} plays on: "
                f"join {turn.side.other.title}'s moves with '; ' in entry {turn.number - 1}",
            )
            break
        after = game
        for i, move in enumerate(moves):
            if move.is_win:
                winner = move.side
                if rules.win == WinRule.UNSTOPPABLE and i == 0 and len(positions) >= 2:
                    stoppable = _stoppable(position, positions[-2], rules, game.history)
                break
            after = after.play(move)
        played.append(tuple(moves))
        if winner is None:
            game = after
            positions.append(game.position)
    if error is None and winner is None and record.result == "Resign":
        number = (record.turns[-1].number + 1) if record.turns else record.first_number
        winner = Side.NORTH if number % 2 else Side.SOUTH
    return Replay(record, tuple(positions), tuple(played), error, winner, stoppable)


def _stoppable(position: Position, previous: Position, rules: RuleSet,
               history: Sequence[Position | bytes]) -> bool | None:
    """Could the loser's last move (from ``previous`` to ``position``) have been chosen so
    that the winner could not land? The solver's test of the unstoppable variant."""
    try:
        return not landing_stands(position, previous, rules, history)
    except NotOneMove:
        return None          # the loser's last turn was more than one move: no take-back


def record_from_moves(
    turns: list[list[Move]], south_setup: str | None = None, north_setup: str | None = None,
    result: str | None = None, source: str = "<record>",
) -> GameRecord:
    """A record of played turns (each a list of moves of one side), numbered from 3 when
    the setups are given, else from 1 (South first) or 2 (North first)."""
    if south_setup is not None:
        first = 3
    else:
        first = 2 if turns and turns[0] and turns[0][0].side is Side.NORTH else 1
    recorded = tuple(
        RecordedTurn(first + i, _side_of(first + i), "; ".join(format_move(m) for m in moves), 0)
        for i, moves in enumerate(turns)
    )
    return GameRecord(south_setup, north_setup, recorded, result, source)
