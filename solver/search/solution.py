"""Rendering a :class:`solver.search.prover.Solution` as text, the way a chess problem solver
prints a solution: stipulation, key(s) with the threat, every defence with the winner's
replies down to the landing (duals marked), tries with their refutations, statistics.

Tree nodes (the JSON ``tree``) alternate between

* winner nodes ``{"role": "winner", "to_move", "moves_left", "moves": [...], "dual",
  "after": loser node}``: ``moves`` are all the winner's moves that win within
  ``moves_left`` (the least number that works), the first being the one followed in
  ``after``; more than one is a dual (at the root: a cook). Duals are searched where the
  winner has at most two moves left (``"dual": null`` above that: one winning move is
  shown, alternatives were not looked for). ``"passed": true`` with
  ``"then"`` means the winner is blocked and the loser moves again;
* loser nodes ``{"role": "loser", "to_move", "winner_moves_left", "threat": [...] | null,
  "defences": [{"move", "reply": winner node}]}``: ``threat`` is what the winner would play
  if the loser could pass; ``"passed": true`` with ``"reply"`` means the loser is blocked
  and the winner moves again (the notation joins those moves with ``; ``).

``"truncated": true`` marks a node left out because the tree grew too large.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from solver.search.prover import Solution

GROUP_WIDTH = 88
MAX_LISTED = 6  #: alternatives listed after a dual (the JSON lists them all)


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


def _winner_lines(node: dict[str, Any], indent: str, lead: str) -> list[str]:
    """``lead`` is the text before the winner's move (a defence, or the key label)."""
    if node.get("truncated") and "moves" not in node and "then" not in node:
        return [f"{indent}{lead}... (tree cut here)"]
    if node.get("passed"):
        out = [f"{indent}{lead}({node['to_move']} is blocked: the opponent moves again)"]
        if "then" in node:
            out += _loser_lines(node["then"], indent + "  ")
        return out
    moves = node.get("moves", [])
    main = moves[0] if moves else "?"
    text = f"{indent}{lead}{main}"
    if node.get("moves_left", 1) == 1:
        text += "  (lands)" if main.endswith(("-N", "-S")) else ""
    if len(moves) > 1:
        others = moves[1:]
        shown = ", ".join(others[:MAX_LISTED])
        if len(others) > MAX_LISTED:
            shown += f" and {len(others) - MAX_LISTED} more"
        text += f"  [{'cook' if lead == '' and indent == '  ' else 'dual'}: also {shown}]"
    if node.get("dual") is None and "dual" in node:
        text += "  (duals not searched)"
    out = [text]
    after = node.get("after")
    if after is not None:
        out += _loser_lines(after, indent + "  ")
    elif node.get("truncated"):
        out.append(f"{indent}  ... (tree cut here)")
    return out


def _loser_lines(node: dict[str, Any], indent: str) -> list[str]:
    if node.get("passed"):
        reply = node.get("reply")
        out = [f"{indent}({node['to_move']} is blocked: the winner moves again)"]
        if reply is not None:
            out += _winner_lines(reply, indent, "; ")
        return out
    out = []
    threat = node.get("threat")
    if threat:
        out.append(f"{indent}threat: {threat[0]}"
                   + (f"  (also {', '.join(threat[1:])})" if len(threat) > 1 else ""))
    else:
        out.append(f"{indent}no threat (every move of {node['to_move']} concedes)")
    grouped: dict[str, list[str]] = {}
    rest = []
    for d in node.get("defences", []):
        reply = d.get("reply")
        if (reply and reply.get("moves_left") == 1 and not reply.get("passed")
                and reply.get("moves")):
            grouped.setdefault(reply["moves"][0] + (" [dual]" if reply.get("dual") else ""),
                               []).append(d["move"])
        else:
            rest.append(d)
    for landing, defs in grouped.items():
        out += _wrap(f"{indent}{len(defs)} defence{'s' if len(defs) > 1 else ''} -> "
                     f"{landing}:", defs, indent)
    for d in rest:
        reply = d.get("reply")
        if reply is None:
            out.append(f"{indent}{d['move']} ... (tree cut here)")
        else:
            out += _winner_lines(reply, indent, f"{d['move']}  ")
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
        tree = s.tree
        if tree["role"] == "winner":
            lines += _winner_lines(tree, "  ", "")
        else:
            lines += _loser_lines(tree, "  ")
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
