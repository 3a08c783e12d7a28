"""What the solver proved (:class:`Solution`, with its :class:`Stats` and :class:`Try`
values) and its rendering as text, the way a chess problem solver prints a solution:
stipulation, key(s) with the threat, every defence with the winner's replies down to the
landing (duals marked), tries with their refutations, statistics.

The solution tree is typed (:mod:`gyges.search.tree`); its JSON form is documented there
and in docs/solver.md.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from gyges.game.moves import Move
from gyges.game.position import Position
from gyges.game.rules import RuleSet, Side
from gyges.search.stipulation import ResultKind, Stipulation
from gyges.search.tree import LoserNode, Node, WinnerNode, main_line

__all__ = ["Solution", "Stats", "Try", "render_text"]

GROUP_WIDTH = 88
MAX_LISTED = 6  #: alternatives listed after a dual (the JSON lists them all)


@dataclasses.dataclass(frozen=True)
class Stats:
    """Search effort: positions visited, wall time, transposition-table hits;
    ``proof_nodes``, the positions visited to find the result and the keys (``nodes``
    less the solution tree's and the tries' work)."""

    nodes: int
    seconds: float
    tt_hits: int
    truncated: bool = False
    proof_nodes: int = 0

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
    (:mod:`gyges.search.tree`; its JSON form in docs/solver.md). ``stoppable`` is only set
    under ``win=unstoppable`` for a win in 1.
    """

    position: Position
    rules: RuleSet
    max_moves: int
    result: ResultKind
    moves: int | None
    keys: tuple[Move, ...]
    tree: Node | None
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

    def proven(self) -> Stipulation:
        """What is proven, as a stipulation about the side to move (``none``: within
        ``max_moves``)."""
        moves = self.moves if self.moves is not None else self.max_moves
        return Stipulation(self.result, moves, self.position.turn)

    def stipulation(self) -> str:
        """``South to move wins in 2``, the way a chess problem states its task."""
        return self.proven().statement(stoppable=self.stoppable)

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
            "tree": self.tree.to_json() if self.tree is not None else None,
            "tries": [t.to_json() for t in self.tries],
            "stats": self.stats.to_json(),
        }

    def text(self) -> str:
        """The whole solution as text (:func:`render_text`)."""
        return render_text(self)


# -- text ---------------------------------------------------------------------------------


def _wrap(prefix: str, items: list[str], indent: str) -> list[str]:
    lines, line = [], prefix
    for i, item in enumerate(items):
        piece = item + ("," if i < len(items) - 1 else "")
        if len(line) + len(piece) + 1 > GROUP_WIDTH and line.strip():
            lines.append(line)
            line = indent + "  "
        line += (" " if not line.endswith(" ") else "") + piece
    lines.append(line)
    return lines


def _winner_lines(node: WinnerNode, indent: str, lead: str) -> list[str]:
    """``lead`` is the text before the winner's move (a defence, or the key label)."""
    if node.passed:
        if node.truncated and node.then is None:
            return [f"{indent}{lead}... (tree cut here)"]
        out = [f"{indent}{lead}({node.to_move.value} is blocked: the opponent moves again)"]
        if node.then is not None:
            out += _loser_lines(node.then, indent + "  ")
        return out
    moves = node.moves
    main = moves[0] if moves else "?"
    text = f"{indent}{lead}{main}"
    if node.moves_left == 1:
        text += "  (lands)" if main.endswith(("-N", "-S")) else ""
    if len(moves) > 1:
        others = moves[1:]
        shown = ", ".join(others[:MAX_LISTED])
        if len(others) > MAX_LISTED:
            shown += f" and {len(others) - MAX_LISTED} more"
        text += f"  [{'cook' if lead == '' and indent == '  ' else 'dual'}: also {shown}]"
    if node.dual is None:
        text += "  (duals not searched)"
    out = [text]
    if node.after is not None:
        out += _loser_lines(node.after, indent + "  ")
    elif node.truncated:
        out.append(f"{indent}  ... (tree cut here)")
    return out


def _loser_lines(node: LoserNode, indent: str) -> list[str]:
    if node.passed:
        out = [f"{indent}({node.to_move.value} is blocked: the winner moves again)"]
        if node.reply is not None:
            out += _winner_lines(node.reply, indent, "; ")
        return out
    threat = node.threat
    if threat:
        out = [f"{indent}threat: {threat[0]}"
               + (f"  (also {', '.join(threat[1:])})" if len(threat) > 1 else "")]
    else:
        out = [f"{indent}no threat (every move of {node.to_move.value} concedes)"]
    grouped: dict[str, list[str]] = {}
    rest = []
    for d in node.defences:
        reply = d.reply
        if reply and reply.moves_left == 1 and not reply.passed and reply.moves:
            grouped.setdefault(reply.moves[0] + (" [dual]" if reply.dual else ""),
                               []).append(d.move)
        else:
            rest.append(d)
    for landing, defs in grouped.items():
        out += _wrap(f"{indent}{len(defs)} defence{'s' if len(defs) > 1 else ''} -> "
                     f"{landing}:", defs, indent)
    for d in rest:
        if d.reply is None:
            out.append(f"{indent}{d.move} ... (tree cut here)")
        else:
            out += _winner_lines(d.reply, indent, f"{d.move}  ")
    return out


def render_text(solution: Solution) -> str:
    """The whole solution as text."""
    s = solution
    lines = [f"position: {s.position}", f"rules: {s.rules.name} ({s.rules.describe()})",
             s.stipulation()]
    if s.result == "win":
        if s.keys:
            label = "keys (cook)" if s.cook else "key"
            lines += _wrap(f"{label}:", [str(k) for k in s.keys], "")
        line = s.main_line()
        if line:
            lines.append(f"main line: {' / '.join(line)}")
    elif s.result == "loss":
        line = s.main_line()
        if line:
            lines.append(f"for instance: {' / '.join(line)}")
    if s.tree is not None:
        lines.append("solution:")
        if isinstance(s.tree, WinnerNode):
            lines += _winner_lines(s.tree, "  ", "")
        else:
            lines += _loser_lines(s.tree, "  ")
    if s.tries:
        lines.append("tries:")
        for t in s.tries:
            refs = ", ".join(str(m) for m in t.refutations) or "?"
            more = f" (+{t.more} more)" if t.more else ""
            lines.append(f"  {t.move}? refuted by {refs}{more}")
    st = s.stats
    lines.append(f"stats: {st.nodes} nodes, {st.seconds:.3f} s, {st.tt_hits} transposition hits"
                 + (" (some lines cut: blocked too often in a row)" if st.truncated else ""))
    return "\n".join(lines)
