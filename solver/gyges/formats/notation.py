"""pbmserv move notation (seed 000): writing and parsing.

A move is written as its *landing chain*: the start slot, every slot it bounced on, then
its end: an empty slot (``16-35``), the opponent's goal (``51-43-33-31-21-S``) or, for a
replace, ``x`` landing slot ``=`` relocation slot (``13-14-24x35=33``). Parenthesized
groups may give the intermediate steps between two listed slots
(``24-(14-15-)25-(24-)34-44-(54-64-)N``); they are optional, but when present they must
match the path exactly. Moves of a side that plays on while its opponent is blocked are
joined with ``; `` and a setup is six digits, columns 1 to 6.

Parsing asks the compiled core for everything: the path of the ring that fits the text
(:func:`gyges.game.moves.follow_chain`, the bounce search restricted to the written chain)
and whether its result is one of the legal moves (:func:`gyges.game.moves.legal_moves`):
which rings may move, blocked sides, null moves and the Renop law are decided there, never
here. Only when the core has refused does this module word why (:class:`NotationError`),
asking the core again with the taboo lifted, segment by segment, to find what forbids it.

>>> from gyges.game.position import Position
>>> from gyges.game.rules import PRESETS
>>> p = Position.from_string("....../3...../..1.1./1.23.3/3.22.1/....2. N")
>>> m = parse_move("51-43-33-31-21-(11-12-)S", p, PRESETS["pbmserv"])
>>> m.is_win, format_move(m), format_move(m, long=True)
(True, '51-43-33-31-21-S', '51-(41-42-)43-33-(32-)31-21-(11-12-)S')
>>> parse_move("43-33", p, PRESETS["pbmserv"])
Traceback (most recent call last):
...
gyges.formats.notation.NotationError: 43-33: 43 is not on North's shore (row 5)
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable, Sequence

from gyges.game.moves import (
    Game,
    Move,
    MoveList,
    RingPath,
    apply_move,
    follow_chain,
    format_move,
    legal_moves,
    relocation_targets,
    segments,
    taboo_clash,
)
from gyges.game.names import NameEnum
from gyges.game.position import Position
from gyges.game.rules import (
    Blocked,
    NullMove,
    Rebounce,
    Repetition,
    Replace,
    RuleSet,
    Side,
    Taboo,
)
from gyges.game.squares import NORTH_GOAL, SOUTH_GOAL, adjacent, column_of, row_of, slot_name

__all__ = [
    "MoveEnd", "NotationError", "ParsedMove", "format_move", "format_turn", "parse_move",
    "parse_setup", "parse_turn", "read_move",
]

RING_NAMES = {1: "single", 2: "double", 3: "triple"}
GOALS = (NORTH_GOAL, SOUTH_GOAL)


class NotationError(ValueError):
    """A move, turn or setup text that cannot be read or fits no legal move."""


class MoveEnd(NameEnum):
    """How a written move ends: on an empty slot (``end``), on the opponent's goal
    (``goal``) or on a ring it replaces (``land``)."""

    END = "end"
    GOAL = "goal"
    LAND = "land"


# -- writing -------------------------------------------------------------------------------


def format_turn(moves: Sequence[Move], long: bool = False) -> str:
    """The moves of one turn joined by ``; `` (``34-44-43; 43-53-N``)."""
    return "; ".join(format_move(m, long) for m in moves)


# -- reading -------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True, repr=False)
class ParsedMove:
    """A move text, read but not yet checked against a position.

    ``chain`` is the landing chain: start, every bounce, then the final slot (the end slot,
    a goal, or the landing slot of a replace). ``kind`` (a :class:`MoveEnd`) is ``end``,
    ``goal`` or ``land``
    (a replace, with ``relocation``). ``groups[i]`` gives the intermediate steps between
    ``chain[i]`` and ``chain[i + 1]`` when the text gave them.
    """

    text: str
    chain: tuple[int, ...]
    kind: MoveEnd
    relocation: int | None = None
    groups: tuple[tuple[int, tuple[int, ...]], ...] = ()

    def __post_init__(self) -> None:
        if not isinstance(self.kind, MoveEnd):
            object.__setattr__(self, "kind", MoveEnd(self.kind))

    @property
    def start(self) -> int:
        return self.chain[0]

    def __repr__(self) -> str:
        return f"ParsedMove({self.text!r}, kind={self.kind!r})"

    def group(self, i: int) -> tuple[int, ...] | None:
        for j, steps in self.groups:
            if j == i:
                return steps
        return None


_TOKEN = re.compile(r"\s*(?:(\d\d)|([NnSs])|(-)|(\()|(\))|([xX])|(=))")
_EXAMPLES = "write it like 16-35, 51-43-33-31-21-S, 13x14=44 or 24-(14-15-)25-(24-)34-44-N"


def _tokens(text: str) -> list[tuple[str, str]]:
    out = []
    pos = 0
    stripped = text.rstrip()
    while pos < len(stripped):
        m = _TOKEN.match(stripped, pos)
        if not m or m.end() == pos:
            bad = stripped[pos:].strip()[:8]
            raise NotationError(f"{text.strip()!r} is not a move: cannot read {bad!r}; {_EXAMPLES}")
        kinds = ("slot", "goal", "-", "(", ")", "x", "=")
        for kind, value in zip(kinds, m.groups(), strict=False):
            if value is not None:
                out.append((kind, value))
                break
        pos = m.end()
    return out


def _slot(value: str, text: str) -> int:
    row, column = int(value[0]), int(value[1])
    if not (1 <= row <= 6 and 1 <= column <= 6):
        raise NotationError(
            f"{text.strip()!r}: {value} is not a slot: rows and columns run from 1 to 6"
        )
    return (row - 1) * 6 + (column - 1)


def read_move(text: str) -> ParsedMove:
    """Read a move text without a position (syntax only).

    >>> read_move("24-(14-15-)25-(24-)34-44-(54-64-)N").chain
    (9, 10, 15, 21, 36)
    >>> read_move("13x14=44"), read_move("13x14=44").relocation
    (ParsedMove('13x14=44', kind='land'), 21)
    """
    toks = _tokens(text)
    shown = text.strip()

    def fail(why: str) -> NotationError:
        return NotationError(f"{shown!r} is not a move: {why}; {_EXAMPLES}")

    if not toks:
        raise fail("it is empty")
    if toks[0][0] != "slot":
        raise fail("it must begin with the start slot")
    chain = [_slot(toks[0][1], text)]
    groups: list[tuple[int, tuple[int, ...]]] = []
    kind = MoveEnd.END
    relocation = None
    i = 1
    done = False
    while i < len(toks):
        if done:
            raise fail(f"nothing may follow the end of the move ({toks[i][1]!r})")
        t, v = toks[i]
        if t == "-":
            i += 1
            if i >= len(toks):
                raise fail("it ends with '-'")
            t, v = toks[i]
        if t == "(":
            steps = []
            i += 1
            while i < len(toks) and toks[i][0] != ")":
                if toks[i][0] == "slot":
                    steps.append(_slot(toks[i][1], text))
                elif toks[i][0] != "-":
                    raise fail("a parenthesized group holds slots only, like (14-15-)")
                i += 1
            if i >= len(toks):
                raise fail("a parenthesis is not closed")
            if not steps:
                raise fail("an empty parenthesized group")
            groups.append((len(chain) - 1, tuple(steps)))
            i += 1
            if i < len(toks) and toks[i][0] == "-":
                i += 1
            if i >= len(toks):
                raise fail("a parenthesized group must be followed by the next listed slot")
            t, v = toks[i]
        if t == "slot":
            chain.append(_slot(v, text))
            i += 1
        elif t == "goal":
            chain.append(NORTH_GOAL if v.upper() == "N" else SOUTH_GOAL)
            kind = MoveEnd.GOAL
            done = True
            i += 1
        elif t == "x":
            if [kind for kind, _ in toks[i + 1 : i + 4]] != ["slot", "=", "slot"]:
                raise fail("a replace is written xLANDING=TARGET, like 13x14=44")
            chain.append(_slot(toks[i + 1][1], text))
            relocation = _slot(toks[i + 3][1], text)
            kind = MoveEnd.LAND
            done = True
            i += 4
        else:
            raise fail(f"unexpected {v!r}")
    if len(chain) < 2:
        raise fail("give the start and the end")
    return ParsedMove(shown, tuple(chain), kind, relocation, tuple(groups))


def parse_setup(text: str) -> str:
    """Six digits, the ring sizes on columns 1 to 6 of one's starting row.

    >>> parse_setup(" 231123 ")
    '231123'
    """
    digits = text.strip()
    if len(digits) != 6 or not digits.isdigit() or sorted(digits) != sorted("112233"):
        raise NotationError(
            f"{digits!r} is not a setup: give six digits, two 1s, two 2s and two 3s, for "
            "columns 1 to 6, like 231123"
        )
    return digits


# -- matching a text against the position ---------------------------------------------------


def _history_boards(history: Iterable[Position | bytes]) -> list[bytes]:
    return [h.key if isinstance(h, Position) else bytes(h) for h in history]


def parse_move(
    text: str, position: Position, rules: RuleSet, history: Iterable[Position | bytes] = ()
) -> Move:
    """The legal move that ``text`` describes in ``position``; NotationError says why not.

    The returned move follows the path the text gives (its landings and, where the text
    gives them, its intermediate steps); its ``side`` is the side that actually moves (the
    opponent of a blocked side under ``blocked=pass``).
    """
    history = list(history)
    parsed = read_move(text)
    legal = legal_moves(position, rules, history, paths=False)
    move = _core_move(parsed, position, legal.mover, rules)
    # the chain fixes start, end and relocation, hence the result: no text is ambiguous. The
    # ring must be one the core lets move (a null move leaves the board of another ring's)
    if move is not None and legal.find(move) is not None and any(
            m.start == move.start for m in legal):
        return move
    raise NotationError(f"{parsed.text}: {_refusal(parsed, position, rules, history, legal)}")


def _follow(parsed: ParsedMove, position: Position, side: Side, rules: RuleSet,
            limit: int = 1, ignore_taboo: bool = False,
            upto: int | None = None) -> list[RingPath]:
    """The core's paths of the ring that fit the text (its first ``upto`` segments
    only, any end for the last of them, when given)."""
    chain = parsed.chain
    if upto is None:
        landings, final, kind = chain[1:-1], chain[-1], parsed.kind
    else:
        landings, final, kind = chain[1:upto], chain[upto], None
    groups = {i: steps for i, steps in parsed.groups if upto is None or i < upto}
    return follow_chain(position, side, rules, parsed.start, landings, final, kind, groups,
                        limit, ignore_taboo)


def _core_move(parsed: ParsedMove, position: Position, side: Side,
               rules: RuleSet) -> Move | None:
    """The move the core finds for the text (its first path that fits, and a relocation
    it allows), or None when the core finds none."""
    if not position.board[parsed.start]:
        return None
    found = _follow(parsed, position, side, rules)
    if not found:
        return None
    path = found[0][1]
    if parsed.relocation is not None and parsed.relocation not in relocation_targets(
            position, side, rules, parsed.start):
        return None
    return Move(parsed.start, path[-1], parsed.relocation, path, parsed.chain[1:-1], side)


def _chain_path(parsed: ParsedMove, position: Position, side: Side,
                rules: RuleSet) -> tuple[tuple[int, ...], str | None]:
    """The core's first path of the ring that fits the text, or why there is none."""
    found = _follow(parsed, position, side, rules) if position.board[parsed.start] else []
    if found:
        return found[0][1], None
    return (), _why_no_path(parsed, position, side, rules)


def _refusal(parsed: ParsedMove, position: Position, rules: RuleSet, history: list,
             legal: MoveList) -> str:
    """Why the core refused the text (it found no legal move that fits)."""
    side = legal.mover
    if not position.board[parsed.start]:
        return f"no ring on {slot_name(parsed.start)}"
    if parsed.kind is MoveEnd.LAND and rules.replace == Replace.OFF:
        return f"relocation needs replace, which these rules ({rules.name}) do not allow"
    if not legal:
        return _no_moves(position, rules)
    starts = {m.start for m in legal}
    if parsed.start not in starts:
        rows = {row_of(s) for s in starts}
        shore = position.shore(side)
        if row_of(parsed.start) not in rows:
            where = f"{slot_name(parsed.start)} is not on {side.title}'s shore (row {shore})"
            if rows != {shore}:
                row = min(rows)
                where = (f"{slot_name(parsed.start)} is not in row {row}, the row {side.title} "
                         f"moves from (its shore, row {shore}, has no legal move)")
            if side is not position.turn:
                where += (f"; {position.turn.title} has no legal move, so {side.title} "
                          "plays on")
            return where
    path, why = _chain_path(parsed, position, side, rules)
    if why is not None:
        return why
    move = Move(parsed.start, path[-1], parsed.relocation, path, parsed.chain[1:-1], side)
    if parsed.relocation is not None:
        problem = _relocation_problem(position, side, rules, move)
        if problem:
            return problem
    return _explain_result(position, rules, history, move)


def _no_moves(position: Position, rules: RuleSet) -> str:
    side = position.turn
    if rules.blocked == Blocked.DRAW:
        return f"{side.title} has no legal move: under blocked=draw the game is drawn"
    if rules.blocked == Blocked.NEXT_ROW:
        return f"{side.title} cannot move a ring from any row: the game is drawn"
    return "neither side has a legal move: the game is drawn"


def _relocation_problem(position: Position, side: Side, rules: RuleSet, move: Move) -> str | None:
    """Why a replace's relocation slot is not allowed, or None.

    The compiled core decides which slots are allowed; this only words the refusal.
    """
    target = move.relocation
    assert target is not None
    if target in relocation_targets(position, side, rules, move.start):
        return None
    if target in GOALS:
        return "a relocated ring goes to an empty slot, not to a goal"
    if target == move.end or (position.board[target] and target != move.start):
        return f"{slot_name(target)} is not empty: a relocated ring goes to an empty slot"
    rows = [row_of(s) for s in range(36) if position.board[s] and s != move.start]
    shore = max(rows) if side is Side.SOUTH else min(rows)
    return (f"{slot_name(target)} cannot take a relocated ring: it is beyond "
            f"{side.other.title}'s shore (row {shore})")


def _explain_result(position: Position, rules: RuleSet, history: list, move: Move) -> str:
    """Why a move whose path exists is not legal (the core said no)."""
    if move.is_win:
        return "that goal landing is not legal here"
    after = apply_move(position, move).key
    if after == position.key:
        if rules.null_move == NullMove.FORBIDDEN:
            return "the move leaves the board as it was, which null-move=forbidden does not allow"
        return "the move reproduces an earlier position (Renop law)"
    if rules.repetition == Repetition.FORBIDDEN and after in _history_boards(history):
        return "the move reproduces an earlier position (Renop law)"
    return "the compiled rules engine finds no such legal move"


# -- wording why the core finds no path -------------------------------------------------------


def _steps_name(k: int) -> str:
    return "1 step" if k == 1 else f"{k} steps"


def _distance(a: int, b: int) -> int:
    if b == NORTH_GOAL:
        return 6 - row_of(a) + 1
    if b == SOUTH_GOAL:
        return row_of(a)
    return abs(row_of(a) - row_of(b)) + abs(column_of(a) - column_of(b))


def _direction(a: int, b: int) -> str:
    if b in GOALS or a in GOALS:
        return "the goal side"
    if b == a + 1:
        return "the west"
    if b == a - 1:
        return "the east"
    if b == a + 6:
        return "the south"
    return "the north"


def _clash_wording(step: tuple[int, int], taboo: Taboo) -> str:
    """The taboo the core found broken at ``step``, in words."""
    if taboo == Taboo.CONNECTION:
        return f"connection {'-'.join(slot_name(s) for s in sorted(step))} used twice"
    return f"slot {slot_name(step[1])} entered twice from {_direction(*step)}"


def _why_no_path(parsed: ParsedMove, position: Position, side: Side, rules: RuleSet) -> str:
    """Why the core finds no path of the ring that fits the text, in words.

    The written chain is checked segment by segment against the board (a ring to bounce
    on, an empty end, the steps written), each segment asked of the core with the taboo
    lifted; when every segment is possible, the core lists the paths without the taboo and
    says where each breaks it.
    """
    board = list(position.board)
    board[parsed.start] = 0  # the moving ring is lifted
    chain = parsed.chain
    own_goal = SOUTH_GOAL if side is Side.SOUTH else NORTH_GOAL
    k = position.board[parsed.start]
    seen_landings: list[int] = []
    for i in range(len(chain) - 1):
        a, b = chain[i], chain[i + 1]
        if i > 0:
            k = board[a]
        name = RING_NAMES[k]
        last = i == len(chain) - 2
        if a in GOALS:
            return f"a ring cannot go on from a goal ({slot_name(a)})"
        if b == own_goal:
            return f"{side.title} cannot enter its own goal ({slot_name(b)})"
        if b in GOALS:
            pass
        elif not last or parsed.kind is MoveEnd.LAND:
            if not board[b]:
                what = "to bounce on" if not last else "to replace"
                return f"no ring on {slot_name(b)} {what}"
            if rules.rebounce == Rebounce.ONCE and b in seen_landings:
                return (f"the move lands twice on the ring at {slot_name(b)}, which "
                        "rebounce=once does not allow")
            seen_landings.append(b)
        elif board[b]:
            follow = " or replace it" if rules.replace != Replace.OFF else ""
            return (f"the move cannot end on {slot_name(b)}: it holds a ring (bounce on"
                    f"{follow})")
        steps = parsed.group(i)
        if steps is not None or k == 1:
            full = (a, *(steps or ()), b)
            if len(full) - 1 != k:
                if k == 1 and steps is None:
                    return (f"a single moves 1 step: {slot_name(a)} cannot reach "
                            f"{slot_name(b)} without a bounce")
                shown = "-".join(slot_name(s) for s in full)
                return (f"a {name} moves {_steps_name(k)}: {shown} takes "
                        f"{_steps_name(len(full) - 1)}")
            for x, y in zip(full, full[1:], strict=False):
                if not adjacent(x, y):
                    if k == 1 and steps is None:
                        return (f"a single moves 1 step: {slot_name(a)} cannot reach "
                                f"{slot_name(b)} without a bounce")
                    return f"{slot_name(x)} and {slot_name(y)} are not connected"
            for x in full[1:-1]:
                if x in GOALS:
                    return f"a ring cannot pass through a goal ({slot_name(x)})"
                if board[x]:
                    return f"{slot_name(x)} holds a ring: a ring passes only through empty slots"
            clash = taboo_clash(full, rules)
            if clash is not None:
                return _clash_wording(clash, rules.taboo)
        elif not _follow(parsed, position, side, rules, ignore_taboo=True, upto=i + 1):
            if not any(w[-1] == b for w in segments(a, k, ignore_taboo=True)):
                if _distance(a, b) > k:
                    return (f"a {name} moves {_steps_name(k)}: {slot_name(a)} cannot reach "
                            f"{slot_name(b)} without a bounce")
                return (f"a {name} moves exactly {_steps_name(k)}: it cannot go from "
                        f"{slot_name(a)} to {slot_name(b)}")
            return (f"the {name} on {slot_name(a)} has no free path of {_steps_name(k)} "
                    f"to {slot_name(b)}: the slots between are taken")
    # each segment is possible alone: the taboo across segments is what forbids the move
    paths = _follow(parsed, position, side, rules, limit=20001, ignore_taboo=True)
    problems: set[str] = set()
    if len(paths) <= 20000:
        for _, path, _ in paths:
            clash = taboo_clash(path, rules)
            if clash is not None:
                problems.add(_clash_wording(clash, rules.taboo))
    if len(problems) == 1:
        return problems.pop()
    listed = sorted(problems)
    more = ", ..." if len(listed) > 2 else ""
    return (f"every path that fits the text breaks the taboo (taboo={rules.taboo})"
            + (": " + " or ".join(listed[:2]) + more if listed else ""))


def parse_turn(
    text: str, position: Position, rules: RuleSet, history: Iterable[Position | bytes] = ()
) -> list[Move]:
    """The moves of one turn, joined by ``; `` when the opponent is blocked between them.

    >>> from gyges.game.rules import PRESETS
    >>> p = Position.from_string(".3.3.3/112232/...1.2/...1../....../...... S")
    >>> [format_move(m) for m in parse_turn("34-44-43; 43-53-N", p, PRESETS["pbmserv"])]
    ['34-44-43', '43-53-N']
    """
    texts = [t.strip() for t in text.split(";")]
    if not texts or any(not t for t in texts):
        raise NotationError(f"{text.strip()!r} is not a turn: moves are joined by '; '")
    game = Game(position, tuple(history))
    moves: list[Move] = []
    for i, move_text in enumerate(texts):
        if i:
            prev = moves[-1]
            if prev.is_win:
                raise NotationError(
                    f"{move_text}: the game ended with {format_move(prev)}; nothing may follow"
                )
            if game.legal_moves(rules, paths=False).mover is not prev.side:
                raise NotationError(
                    f"{move_text}: {game.position.turn.title} is not blocked after "
                    f"{format_move(prev)}, so {prev.side.title} cannot play again"
                )
        move = parse_move(move_text, game.position, rules, game.history)
        if moves and move.side is not moves[0].side:
            raise NotationError(f"{move_text}: a turn holds the moves of one side only")
        moves.append(move)
        if not move.is_win:
            game = game.play(move)
    return moves
