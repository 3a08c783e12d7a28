"""The solution tree: typed winner and loser nodes, their JSON form, one walker, and the
builder that asks a prover for each node.

Tree nodes alternate between

* :class:`WinnerNode` (JSON ``{"to_move", "role": "winner", "moves_left", "moves": [...],
  "dual", "after": loser node}``): ``moves`` are all the winner's moves that win within
  ``moves_left`` (the least number that works), the first being the one followed in
  ``after``; more than one is a dual (at the root: a cook). Duals are searched where the
  winner has at most ``duals`` moves left (``"dual": null`` above that: one winning move is
  shown, alternatives were not looked for). ``"passed": true`` with ``"then"`` means the
  winner is blocked and the loser moves again;
* :class:`LoserNode` (JSON ``{"to_move", "role": "loser", "winner_moves_left", "threat":
  [...] | null, "defences": [{"move", "reply": winner node}]}``): ``threat`` is what the
  winner would play if the loser could pass; ``"passed": true`` with ``"reply"`` means the
  loser is blocked and the winner moves again (the notation joins those moves with ``; ``).

``"truncated": true`` marks a node left out because the tree grew too large. The JSON
form is what ``gyges solve --json`` prints under ``tree``; ``from_json(to_json())`` gives
the node back.

>>> leaf = WinnerNode(Side.NORTH, 1, moves=("51-43-33-31-21-S",), dual=False)
>>> leaf.to_json()
{'to_move': 'N', 'role': 'winner', 'moves_left': 1, 'moves': ['51-43-33-31-21-S'], 'dual': False}
>>> node_from_json(leaf.to_json()) == leaf
True
>>> root = LoserNode(Side.SOUTH, 1, threat=None, defences=(Defence("34-44", leaf),))
>>> main_line_turns(root)
['34-44', '51-43-33-31-21-S']
>>> root
<LoserNode S to move, N wins within 1: no threat, 1 defence>
>>> leaf
<WinnerNode N wins within 1: 51-43-33-31-21-S>
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, TypeAlias

from gyges.game.moves import Move, MoveList, apply_move
from gyges.game.position import Position
from gyges.game.rules import Side
from gyges.search.session import Prover

__all__ = [
    "Defence", "LoserNode", "Node", "Step", "TreeError", "WinnerNode", "build_tree",
    "main_line_steps", "main_line_turns", "node_from_json", "resistance", "steps", "walk",
]

TREE_BUDGET = 4000  #: winner/loser nodes expanded in one solution tree before it is cut
DUALS_UP_TO = 2  #: duals are searched for where the winner has at most this many moves left


class TreeError(ValueError):
    """JSON data that is not a solution tree (says which field is wrong)."""


# -- the nodes ----------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class WinnerNode:
    """The winner to move; it wins within ``moves_left`` of its moves (the least such).

    Not ``passed``: ``moves`` are its winning moves (``dual``: more than one, or None when
    not searched) and ``after`` the loser node after the first of them (None at the last
    move, or when ``truncated``). ``passed``: the winner is blocked and ``then`` is the
    loser moving again (None when ``truncated``). ``answers`` is how many moves win here,
    counted where duals were not searched but the main line needs the number (see
    :func:`resistance`); None elsewhere (:meth:`winning_answers` reads either).
    """

    to_move: Side
    moves_left: int
    moves: tuple[str, ...] = ()
    dual: bool | None = None
    after: LoserNode | None = None
    passed: bool = False
    then: LoserNode | None = None
    truncated: bool = False
    answers: int | None = None

    role = "winner"

    def __repr__(self) -> str:
        side = self.to_move.value
        if self.passed:
            then = ("tree cut here" if self.then is None
                    else f"{self.to_move.other.value} moves again")
            return f"<WinnerNode {side} blocked, wins within {self.moves_left}: {then}>"
        moves = ", ".join(self.moves) or "?"
        more = f", then {_defences(self.after)}" if self.after is not None else ""
        cut = ", tree cut here" if self.truncated else ""
        return f"<WinnerNode {side} wins within {self.moves_left}: {moves}{more}{cut}>"

    def winning_answers(self) -> int | None:
        """How many of the winner's moves win within ``moves_left``: all of ``moves`` where
        duals were searched, else ``answers`` (None: not counted); a blocked winner's pass
        is its one answer."""
        if self.passed:
            return 1
        return len(self.moves) if self.dual is not None else self.answers

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"to_move": self.to_move.value, "role": "winner",
                               "moves_left": self.moves_left}
        if self.passed:
            out["passed"] = True
            if self.then is not None:
                out["then"] = self.then.to_json()
        else:
            out["moves"] = list(self.moves)
            out["dual"] = self.dual
            if self.answers is not None:
                out["answers"] = self.answers
            if self.after is not None:
                out["after"] = self.after.to_json()
        if self.truncated:
            out["truncated"] = True
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> WinnerNode:
        _expect(data, "winner")
        passed = _flag(data, "passed")
        truncated = _flag(data, "truncated")
        if passed:
            then = data.get("then")
            return cls(_side(data), _count(data, "moves_left"), passed=True,
                       then=LoserNode.from_json(then) if then is not None else None,
                       truncated=truncated)
        dual = data.get("dual")
        if dual not in (True, False, None):
            raise TreeError(f"'dual' is true, false or null, not {dual!r}")
        after = data.get("after")
        answers = _count(data, "answers") if "answers" in data else None
        return cls(_side(data), _count(data, "moves_left"), moves=_texts(data, "moves"),
                   dual=dual, after=LoserNode.from_json(after) if after is not None else None,
                   truncated=truncated, answers=answers)


@dataclasses.dataclass(frozen=True)
class Defence:
    """One move of the loser and the winner node after it (None: the tree was cut)."""

    move: str
    reply: WinnerNode | None = None

    def __repr__(self) -> str:
        reply = "tree cut here" if self.reply is None else ", ".join(self.reply.moves) or "pass"
        return f"<Defence {self.move} -> {reply}>"

    def to_json(self) -> dict[str, Any]:
        if self.reply is None:
            return {"move": self.move, "truncated": True}
        return {"move": self.move, "reply": self.reply.to_json()}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Defence:
        if not isinstance(data, Mapping) or not isinstance(data.get("move"), str):
            raise TreeError(f"a defence is {{move, reply}}, not {data!r}")
        reply = data.get("reply")
        return cls(data["move"], WinnerNode.from_json(reply) if reply is not None else None)


@dataclasses.dataclass(frozen=True)
class LoserNode:
    """The loser to move; the winner wins within ``winner_moves_left`` more of its moves.

    Not ``passed``: ``threat`` is what the winner would play if the loser could pass (None:
    no threat) and ``defences`` every move of the loser with the winner's reply. ``passed``:
    the loser is blocked and ``reply`` is the winner moving again.
    """

    to_move: Side
    winner_moves_left: int
    threat: tuple[str, ...] | None = None
    defences: tuple[Defence, ...] = ()
    passed: bool = False
    reply: WinnerNode | None = None

    role = "loser"

    def __repr__(self) -> str:
        head = (f"<LoserNode {self.to_move.value} to move, {self.to_move.other.value} wins "
                f"within {self.winner_moves_left}: ")
        if self.passed:
            return head + f"blocked, {self.to_move.other.value} moves again>"
        threat = f"threat {', '.join(self.threat)}" if self.threat else "no threat"
        return head + f"{threat}, {_defences(self)}>"

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"to_move": self.to_move.value, "role": "loser",
                               "winner_moves_left": self.winner_moves_left}
        if self.passed:
            out["passed"] = True
            if self.reply is not None:
                out["reply"] = self.reply.to_json()
            return out
        out["threat"] = list(self.threat) if self.threat is not None else None
        out["defences"] = [d.to_json() for d in self.defences]
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> LoserNode:
        _expect(data, "loser")
        if _flag(data, "passed"):
            reply = data.get("reply")
            return cls(_side(data), _count(data, "winner_moves_left"), passed=True,
                       reply=WinnerNode.from_json(reply) if reply is not None else None)
        threat = data.get("threat")
        defences = data.get("defences", [])
        if not isinstance(defences, list):
            raise TreeError(f"'defences' is a list, not {defences!r}")
        return cls(_side(data), _count(data, "winner_moves_left"),
                   threat=None if threat is None else _texts(data, "threat"),
                   defences=tuple(Defence.from_json(d) for d in defences))


Node: TypeAlias = WinnerNode | LoserNode


def _defences(node: LoserNode) -> str:
    n = len(node.defences)
    return "blocked" if node.passed else f"{n} defence{'s' if n != 1 else ''}"


def node_from_json(data: Mapping[str, Any]) -> Node:
    """A winner or loser node from its JSON form (by its ``role``); TreeError if it is not
    one."""
    if not isinstance(data, Mapping):
        raise TreeError(f"a tree node is a mapping, not {data!r}")
    if data.get("role") == "winner":
        return WinnerNode.from_json(data)
    if data.get("role") == "loser":
        return LoserNode.from_json(data)
    raise TreeError(f"a tree node's role is 'winner' or 'loser', not {data.get('role')!r}")


def _expect(data: Any, role: str) -> None:
    if not isinstance(data, Mapping) or data.get("role") != role:
        raise TreeError(f"expected a {role} node, not {data!r}")


def _side(data: Mapping[str, Any]) -> Side:
    try:
        return Side(data.get("to_move"))
    except ValueError:
        raise TreeError(f"'to_move' is 'S' or 'N', not {data.get('to_move')!r}") from None


def _count(data: Mapping[str, Any], key: str) -> int:
    value = data.get(key)
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        raise TreeError(f"{key!r} is a whole number of moves (1 or more), not {value!r}")
    return value


def _flag(data: Mapping[str, Any], key: str) -> bool:
    value = data.get(key, False)
    if not isinstance(value, bool):
        raise TreeError(f"{key!r} is true or false, not {value!r}")
    return value


def _texts(data: Mapping[str, Any], key: str) -> tuple[str, ...]:
    value = data.get(key)
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise TreeError(f"{key!r} is a list of moves, not {value!r}")
    return tuple(value)


# -- walking ------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Step:
    """An edge of the tree: ``side`` plays ``move`` (None: ``side`` is blocked and passes)
    from ``node``, reaching ``child`` (None where the line ends or the tree was cut)."""

    node: Node
    move: str | None
    child: Node | None

    def __repr__(self) -> str:
        return f"<Step {self.side.value} {self.move if self.move is not None else 'passes'}>"

    @property
    def side(self) -> Side:
        return self.node.to_move

    @property
    def defence(self) -> bool:
        """Is this a move of the loser?"""
        return isinstance(self.node, LoserNode) and self.move is not None


def steps(node: Node) -> tuple[Step, ...]:
    """The edges out of ``node``, in the tree's order: a winner node's first winning move
    (only that one has a subtree), a loser node's every defence, or a blocked side's pass."""
    if isinstance(node, WinnerNode):
        if node.passed:
            return (Step(node, None, node.then),) if node.then is not None else ()
        return (Step(node, node.moves[0], node.after),) if node.moves else ()
    if node.passed:
        return (Step(node, None, node.reply),) if node.reply is not None else ()
    return tuple(Step(node, d.move, d.reply) for d in node.defences)


def walk(tree: Node | None) -> Iterator[tuple[tuple[Step, ...], Node]]:
    """Every node of the tree, depth first in the tree's order, with the steps leading to
    it from the root."""
    if tree is None:
        return
    stack: list[tuple[tuple[Step, ...], Node]] = [((), tree)]
    while stack:
        path, node = stack.pop()
        yield path, node
        stack.extend((path + (s,), s.child) for s in reversed(steps(node))
                     if s.child is not None)


def resistance(defence: Defence) -> tuple[int, int, str]:
    """How long ``defence`` holds out, as a sort key, the most resistant first: the
    winner's moves left after it (more first), then the winner's winning answers to it
    (fewer first), then the notation. A defence the tree was cut at, with no answer, comes
    last.

    >>> one = WinnerNode(Side.SOUTH, 1, moves=("43-53-N",), dual=False)
    >>> two = WinnerNode(Side.SOUTH, 1, moves=("43-53-N", "44-54-N"), dual=True)
    >>> [resistance(d) for d in (Defence("61-51", two), Defence("61-62", one))]
    [(-1, 2, '61-51'), (-1, 1, '61-62')]
    """
    reply = defence.reply
    if reply is None:
        return (0, 0, defence.move)
    answers = reply.winning_answers()
    return (-reply.moves_left, answers if answers is not None else len(reply.moves),
            defence.move)


def main_line_steps(tree: Node | None) -> Iterator[Step]:
    """The steps of the main line, passes included: at each move of the loser the defence
    that holds out longest (:func:`resistance`), at each move of the winner its first
    winning move (the fastest, in the tree's order), down to the landing."""
    node = tree
    while node is not None:
        out = steps(node)
        if not out:
            return
        step = out[0]
        if isinstance(node, LoserNode) and not node.passed:
            ranks = [resistance(d) for d in node.defences]
            step = out[ranks.index(min(ranks))]
        yield step
        node = step.child


def main_line_turns(tree: Node | None) -> list[str]:
    """The main line (:func:`main_line_steps`) as turns (``34-44-43; 43-53-N``): a side's
    consecutive moves (the opponent blocked) are joined by ``; ``. The JSON's
    ``main_line``."""
    turns: list[list[str]] = []
    last_side = None
    for step in main_line_steps(tree):
        if step.move is None:
            continue
        if step.side == last_side:
            turns[-1].append(step.move)
        else:
            turns.append([step.move])
        last_side = step.side
    return ["; ".join(t) for t in turns]


# -- building -----------------------------------------------------------------------------


def build_tree(prover: Prover, position: Position, winner: Side, moves_left: int, *,
               root: MoveList, keys: Sequence[Move] | None = None,
               budget: int = TREE_BUDGET, duals: int = DUALS_UP_TO) -> Node:
    """The solution tree of ``position`` where ``winner`` wins within ``moves_left``:
    ``root`` holds the legal moves there, ``keys`` the winning first moves when ``winner``
    is to move and they are known. At most ``budget`` nodes are expanded, the main line's
    first: it is never cut, and at each of its loser nodes every defence's answer says how
    many moves the winner has left (with no subtree where the tree is cut), and the
    answers to the defences that tie for the longest say how many moves win
    (:func:`resistance`), so that :func:`main_line_steps` reads the main line off the
    tree."""
    builder = _Builder(prover, budget, duals)
    if keys is not None and root.mover is winner:
        return builder.winner_node(position, moves_left, (), root=root, keys=keys, main=True)
    return builder.node(position, winner, moves_left, (), main=True)


class _Builder:
    """Builds a solution tree by asking the prover at each node. ``main``: the node is on
    the main line (built before its siblings, never cut)."""

    def __init__(self, prover: Prover, budget: int, duals: int):
        self.prover = prover
        self.budget = budget
        self.duals = duals

    def _spend(self) -> bool:
        self.budget -= 1
        return self.budget >= 0

    def node(self, position: Position, winner: Side, d: int,
             path: tuple[Position, ...], *, main: bool = False) -> Node:
        if position.turn is winner:
            return self.winner_node(position, d, path, main=main)
        return self.loser_node(position, winner, d, path, main=main)

    def winner_node(self, position: Position, d: int, path: tuple[Position, ...], *,
                    root: MoveList | None = None, keys: Sequence[Move] | None = None,
                    main: bool = False, count: bool = False,
                    expand: bool = True) -> WinnerNode:
        """The winner to move; it wins within ``d`` (the least such ``d`` is used).
        ``count``: say how many moves win (``answers``) where duals are not searched;
        ``expand`` False: no subtree (the node is marked cut)."""
        p = self.prover
        me = position.turn
        least = p.least(position, me, d, path) if keys is None else d
        if least is None:  # cannot happen for a proven node
            raise AssertionError(f"no win within {d} in {position}")
        if least == 1 and keys is None and root is None:
            # the last move: only the landings are listed, so only they are built (none:
            # the winner is blocked, and the loser moves again: below)
            landings = p.landing_moves(position, path)
            if landings:
                return WinnerNode(me, 1, moves=tuple(str(m) for m in landings),
                                  dual=len(landings) > 1)
        moves = root if root is not None else p.legal_moves(position, path)
        if moves.mover is not me:
            # the winner is blocked: the loser moves again
            if not expand or not self._spend() and not main:
                return WinnerNode(me, least, passed=True, truncated=True)
            then = self.loser_node(position.with_turn(me.other), me, least, path, moves=moves,
                                   main=main)
            return WinnerNode(me, least, passed=True, then=then)
        checked = True
        if keys is not None:
            wins = list(keys)
        elif least == 1:
            wins = [m for m in moves if m.is_win]
        else:
            wins, checked = self._winning(position, least, path, moves)
        answers = None
        if count and not checked:
            answers = len(p.winning_moves(position, least, path, legal=moves))
        node = WinnerNode(me, least, moves=tuple(str(m) for m in wins),
                          dual=len(wins) > 1 if checked else None, answers=answers)
        if least >= 2 and wins:
            if not expand or not self._spend() and not main:
                return dataclasses.replace(node, truncated=True)
            child = apply_move(position, wins[0])
            return dataclasses.replace(node, after=self.loser_node(
                child, me, least - 1, (*path, position), main=main))
        return node

    def loser_node(self, position: Position, winner: Side, d: int,
                   path: tuple[Position, ...], *, moves: MoveList | None = None,
                   main: bool = False) -> LoserNode:
        """The loser to move; the winner wins within ``d`` more of its moves."""
        p = self.prover
        loser = position.turn
        if moves is None:
            moves = p.legal_moves(position, path)
        if moves.mover is winner and moves.moves:
            # the loser is blocked: the winner moves again
            reply = self.winner_node(position.with_turn(winner), d, path, main=main)
            return LoserNode(loser, d, passed=True, reply=reply)
        threat = self._threat(position.with_turn(winner), winner, d, path)
        if main:
            return LoserNode(loser, d, threat=threat,
                             defences=self._main_defences(position, winner, d, path, moves))
        defences = []
        for m in moves:
            answer = None
            if self._spend():
                answer = self.winner_node(apply_move(position, m), d, (*path, position))
            defences.append(Defence(str(m), answer))
        return LoserNode(loser, d, threat=threat, defences=tuple(defences))

    def _main_defences(self, position: Position, winner: Side, d: int,
                       path: tuple[Position, ...], moves: MoveList) -> tuple[Defence, ...]:
        """The defences of a loser node on the main line, in the legal moves' order: the
        one that holds out longest is built first, on the main line; every answer has its
        moves left, also where the budget is spent (no subtree then); the answers to the
        defences that tie for the longest count their winning moves."""
        line = (*path, position)
        children = [apply_move(position, m) for m in moves]
        least = [self.prover.least(c, winner, d, line) or d for c in children]
        longest = max(least)
        tied = [i for i, n in enumerate(least) if n == longest]
        count = len(tied) > 1
        ranked = {i: self.winner_node(children[i], d, line, count=True, expand=False)
                  for i in tied} if count else {}
        first = min(tied, key=lambda i: resistance(Defence(str(moves[i]), ranked.get(i))))
        replies = {first: self.winner_node(children[first], d, line, count=count, main=True)}
        for i, child in enumerate(children):
            if i == first:
                continue
            counted = count and i in ranked
            if self._spend():
                replies[i] = self.winner_node(child, d, line, count=counted)
            else:
                replies[i] = ranked.get(i) or self.winner_node(child, d, line, expand=False)
        return tuple(Defence(str(m), replies[i]) for i, m in enumerate(moves))

    def _threat(self, position: Position, winner: Side, d: int,
                path: tuple[Position, ...]) -> tuple[str, ...] | None:
        """What ``winner`` would play in ``position`` (the loser passing), if it wins."""
        p = self.prover
        if not p.wins(position, winner, d, path):
            return None
        least = p.least(position, winner, d, path)
        if least == 1:      # the landings; none when the winner is blocked
            return tuple(str(m) for m in p.landing_moves(position, path)) or None
        moves = p.legal_moves(position, path)
        if moves.mover is not winner or least is None:
            return None
        found, _ = self._winning(position, least, path, moves)
        return tuple(str(m) for m in found)

    def _winning(self, position: Position, d: int, path: tuple[Position, ...],
                 moves: MoveList) -> tuple[list[Move], bool]:
        """The winning moves of the side to move: all of them where the winner has at
        most ``duals`` moves left, else the first the kernel finds; and whether the list
        is complete."""
        if d <= self.duals:
            return self.prover.winning_moves(position, d, path, legal=moves), True
        one = self.prover.winning_move(position, d, path, legal=moves)
        return ([one] if one is not None else []), False
