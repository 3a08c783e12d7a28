"""What the solver proved (:class:`Solution`, with its :class:`Stats` and :class:`Try`
values) and its rendering as text, the way a chess problem solver prints a solution:
stipulation, key(s) with the threat, every defence with the winner's replies down to the
landing (duals marked), tries with their refutations, statistics.

The solution tree is typed (:mod:`gyges.search.tree`); its JSON form is documented there
and in docs/solver.md.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from gyges.formats.notation import NotationError, parse_move
from gyges.game.moves import Move, apply_move, legal_moves
from gyges.game.position import Position, PositionError
from gyges.game.rules import RuleError, RuleSet, Side
from gyges.search.stipulation import ResultKind, ResultName, Stipulation
from gyges.search.tree import (
    LoserNode,
    Node,
    TreeError,
    WinnerNode,
    main_line_turns,
    node_from_json,
)

__all__ = ["Solution", "SolutionError", "Stats", "Try", "render_text"]

GROUP_WIDTH = 88
MAX_LISTED = 6  #: alternatives listed after a dual (the JSON lists them all)


class SolutionError(ValueError):
    """JSON data that is not a solution (says which field is wrong)."""


@dataclasses.dataclass(frozen=True)
class Stats:
    """Search effort: positions visited, wall time, transposition-table hits;
    ``proof_nodes``, the positions visited to find the result and the keys (``nodes``
    less the solution tree's and the tries' work). The JSON form leaves out
    ``proof_nodes`` and rounds ``seconds`` to 0.1 ms."""

    nodes: int
    seconds: float
    tt_hits: int
    truncated: bool = False
    proof_nodes: int = 0

    def __repr__(self) -> str:
        return (f"Stats(nodes={self.nodes}, seconds={self.seconds:.4f}, "
                f"tt_hits={self.tt_hits}, truncated={self.truncated}, "
                f"proof_nodes={self.proof_nodes})")

    def to_json(self) -> dict[str, Any]:
        return {"nodes": self.nodes, "seconds": round(self.seconds, 4),
                "tt_hits": self.tt_hits, "truncated": self.truncated}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Stats:
        """The statistics of :meth:`to_json` (``proof_nodes`` 0: not in the JSON)."""
        try:
            nodes, seconds, hits = data["nodes"], data["seconds"], data["tt_hits"]
            truncated = data.get("truncated", False)
        except (KeyError, TypeError, AttributeError):
            raise SolutionError(f"'stats' is {{nodes, seconds, tt_hits, truncated}}, not "
                                f"{data!r}") from None
        if not all(isinstance(v, int) for v in (nodes, hits)) or not isinstance(
                seconds, int | float) or not isinstance(truncated, bool):
            raise SolutionError(f"'stats' holds counts, seconds and a flag, not {data!r}")
        return cls(nodes, float(seconds), hits, truncated)


@dataclasses.dataclass(frozen=True)
class Try:
    """A first move of the would-be winner that fails, and the defences that refute it."""

    move: Move
    refutations: tuple[Move, ...]
    more: int = 0  #: further refutations not listed

    def __repr__(self) -> str:
        refs = ", ".join(str(m) for m in self.refutations)
        more = f", more={self.more}" if self.more else ""
        return f"<Try {self.move}? refuted by {refs or '?'}{more}>"

    def to_json(self) -> dict[str, Any]:
        return {"move": str(self.move), "refutations": [str(m) for m in self.refutations],
                "more_refutations": self.more}

    @classmethod
    def from_json(cls, data: Mapping[str, Any], position: Position, rules: RuleSet,
                  history: tuple[Position, ...] = ()) -> Try:
        """The try of :meth:`to_json`, its moves read in ``position`` (the solved one)."""
        if not isinstance(data, Mapping) or not isinstance(data.get("refutations"), list):
            raise SolutionError(f"a try is {{move, refutations, more_refutations}}, not "
                                f"{data!r}")
        move = _listed_move(data.get("move"), position, rules, history, "a try")
        after = apply_move(position, move)
        refutations = tuple(_listed_move(r, after, rules, (*history, position), "a refutation")
                            for r in data["refutations"])
        more = data.get("more_refutations", 0)
        if not isinstance(more, int) or isinstance(more, bool) or more < 0:
            raise SolutionError(f"'more_refutations' is a count, not {more!r}")
        return cls(move, refutations, more)


def _listed_move(text: Any, position: Position, rules: RuleSet,
                 history: tuple[Position, ...], what: str) -> Move:
    """The legal move ``text`` describes, as the move list has it (its path)."""
    if not isinstance(text, str):
        raise SolutionError(f"{what} is a move in pbmserv notation, not {text!r}")
    try:
        found = legal_moves(position, rules, history).find(
            parse_move(text, position, rules, history))
    except NotationError as e:
        raise SolutionError(f"{what} {text!r}: {e}") from None
    assert found is not None        # parse_move returns legal moves only
    return found


@dataclasses.dataclass(frozen=True)
class Solution:
    """What the solver proved about a position.

    ``result`` is ``win`` (the side to move lands on the goal with its ``moves``-th move
    at the latest, whatever the opponent does, and ``moves`` is minimal), ``loss`` (every
    move of the side to move leaves the opponent such a win in at most ``moves``) or
    ``none`` (neither within ``max_moves``; every line was searched). ``keys`` holds every
    first move that wins in ``moves`` (more than one: a cook). ``tree`` is the solution tree
    (:mod:`gyges.search.tree`; its JSON form in docs/solver.md). ``stoppable`` is only set
    under ``win=unstoppable`` for a win in 1.

    Properties are values it holds or reads off at once (``winner``, ``cook``); methods
    build something from them (``proven()``, ``statement()``, ``main_line_turns()``,
    ``text()``, ``to_json()``).
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

    def __post_init__(self) -> None:
        result: ResultName = self.result
        object.__setattr__(self, "result", ResultKind(result))

    def __repr__(self) -> str:
        keys = f"; keys {', '.join(str(k) for k in self.keys)}" if self.keys else ""
        return (f"<Solution {self.position} ({self.rules.name}): "
                f"{self.proven().statement(stoppable=self.stoppable)}{keys}>")

    @property
    def winner(self) -> Side | None:
        if self.result is ResultKind.WIN:
            return self.position.turn
        if self.result is ResultKind.LOSS:
            return self.position.turn.other
        return None

    @property
    def cook(self) -> bool:
        return len(self.keys) > 1

    def main_line_turns(self) -> list[str]:
        """The turns of the main line, a side's consecutive moves joined by ``; ``
        (:func:`~gyges.search.tree.main_line_turns`; ``main_line`` in the JSON)."""
        return main_line_turns(self.tree)

    def proven(self) -> Stipulation:
        """What is proven, as a stipulation about the side to move (``none``: within
        ``max_moves``)."""
        moves = self.moves if self.moves is not None else self.max_moves
        return Stipulation(self.result, moves, self.position.turn)

    def statement(self) -> str:
        """``South to move wins in 2``, the way a chess problem states its task."""
        return self.proven().statement(stoppable=self.stoppable)

    def to_json(self) -> dict[str, Any]:
        return {
            "position": str(self.position),
            "rules": self.rules.options(),
            "max_moves": self.max_moves,
            "result": self.result.value,
            "moves": self.moves,
            "winner": self.winner.value if self.winner else None,
            "keys": [str(k) for k in self.keys],
            "cook": self.cook,
            "stoppable": self.stoppable,
            "main_line": self.main_line_turns(),
            "tree": self.tree.to_json() if self.tree is not None else None,
            "tries": [t.to_json() for t in self.tries],
            "stats": self.stats.to_json(),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Solution:
        """The solution of :meth:`to_json` (its ``stats`` as :meth:`Stats.from_json`
        reads them); SolutionError says which field is wrong. ``to_json()`` of the result
        is the data again."""
        if not isinstance(data, Mapping):
            raise SolutionError(f"a solution is a mapping, not {data!r}")
        missing = [k for k in ("position", "rules", "max_moves", "result", "moves", "keys",
                               "tree", "tries", "stats") if k not in data]
        if missing:
            raise SolutionError(f"a solution has {', '.join(repr(k) for k in missing)}")
        try:
            position = Position.from_string(data["position"])
            rules = RuleSet().with_options(data["rules"])
            result = ResultKind(data["result"])
        except (PositionError, RuleError, ValueError, TypeError, AttributeError) as e:
            raise SolutionError(f"not a solution's position, rules or result: {e}") from None
        counts = (data["max_moves"], data["moves"])
        if not all(c is None or isinstance(c, int) and not isinstance(c, bool) for c in counts):
            raise SolutionError(f"'max_moves' and 'moves' are counts, not {counts}")
        if not isinstance(data["keys"], list) or not isinstance(data["tries"], list):
            raise SolutionError("'keys' and 'tries' are lists")
        keys = tuple(_listed_move(k, position, rules, (), "a key") for k in data["keys"])
        try:
            tree = node_from_json(data["tree"]) if data["tree"] is not None else None
        except TreeError as e:
            raise SolutionError(f"'tree': {e}") from None
        tries = tuple(Try.from_json(t, position, rules) for t in data["tries"])
        stoppable = data.get("stoppable")
        if stoppable not in (True, False, None):
            raise SolutionError(f"'stoppable' is true, false or null, not {stoppable!r}")
        return cls(position, rules, data["max_moves"], result, data["moves"], keys, tree,
                   tries, Stats.from_json(data["stats"]), stoppable)

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
             s.statement()]
    if s.result is ResultKind.WIN and s.keys:
        label = "keys (cook)" if s.cook else "key"
        lines += _wrap(f"{label}:", [str(k) for k in s.keys], "")
    line = s.main_line_turns()
    if line:    # a loss's starts with the longest defence
        lines.append(f"main line: {' / '.join(line)}")
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
