"""The typed solution tree: its JSON form round-trips, its walker visits every node once,
and the main line and text rendering read it the way the JSON reads."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gyges.game.moves import apply_move, legal_moves
from gyges.game.rules import Side
from gyges.puzzles.catalogue import load_all
from gyges.search import LoserNode, WinnerNode, node_from_json, solve
from gyges.search.tree import Defence, TreeError, main_line, walk

ROOT = Path(__file__).resolve().parent.parent


def _json_nodes(data) -> int:
    """How many winner and loser nodes the JSON form holds (independently of the walker)."""
    if isinstance(data, dict):
        own = 1 if data.get("role") in ("winner", "loser") else 0
        return own + sum(_json_nodes(v) for v in data.values())
    if isinstance(data, list):
        return sum(_json_nodes(v) for v in data)
    return 0


def _json_main_line(tree) -> list[str]:
    """The first line read from the JSON by string keys (the old reading, a reference)."""
    turns: list[list[str]] = []
    last = None
    node = tree
    while node:
        if node.get("passed"):
            node = node.get("then" if node["role"] == "winner" else "reply")
            continue
        if node["role"] == "winner":
            if not node.get("moves"):
                break
            move, node_next = node["moves"][0], node.get("after")
        else:
            if not node.get("defences"):
                break
            move, node_next = node["defences"][0]["move"], node["defences"][0].get("reply")
        if node["to_move"] == last:
            turns[-1].append(move)
        else:
            turns.append([move])
        last = node["to_move"]
        node = node_next
    return ["; ".join(t) for t in turns]


def _trees():
    """Every tree the solver makes on the catalogue's positions, and on the positions after
    each of their first few moves (loss trees, blocked sides)."""
    puzzles, errors = load_all([ROOT / "puzzles"])
    assert puzzles and not errors
    for p in puzzles:
        k = p.stipulation.moves
        yield p.id, solve(p.position, p.rules, k, p.history, duals=1 if k > 2 else 2)
        if p.id.startswith("seed"):
            for m in list(legal_moves(p.position, p.rules, p.history))[:4]:
                if not m.is_win:
                    child = apply_move(p.position, m)
                    yield f"{p.id} after {m}", solve(child, p.rules, k,
                                                     [*p.history, p.position])


def test_every_catalogue_tree_round_trips_through_json():
    seen = {"winner": 0, "loser": 0, "passed": 0}
    for name, s in _trees():
        if s.tree is None:
            continue
        data = s.tree.to_json()
        text = json.dumps(data)
        back = node_from_json(json.loads(text))
        assert back == s.tree, name
        assert json.dumps(back.to_json()) == text, name
        nodes = list(walk(s.tree))
        assert len(nodes) == _json_nodes(data), name
        assert s.main_line() == main_line(back) == _json_main_line(data), name
        for _, node in nodes:
            seen[node.role] += 1
            seen["passed"] += node.passed
    assert seen["winner"] > 100 and seen["loser"] > 100 and seen["passed"] > 0


def test_the_walker_gives_the_path_to_each_node():
    leaf = WinnerNode(Side.NORTH, 1, moves=("51-43-33-31-21-S",), dual=False)
    other = WinnerNode(Side.NORTH, 1, moves=("51-41-S", "51-42-S"), dual=True)
    loser = LoserNode(Side.SOUTH, 1, threat=("51-43-33-31-21-S",),
                      defences=(Defence("34-44", leaf), Defence("34-45", other),
                                Defence("34-46")))
    root = WinnerNode(Side.NORTH, 2, moves=("62-53",), dual=False, after=loser)
    visited = [([s.move for s in path], node) for path, node in walk(root)]
    assert visited == [([], root), (["62-53"], loser), (["62-53", "34-44"], leaf),
                       (["62-53", "34-45"], other)]
    assert main_line(root) == ["62-53", "34-44", "51-43-33-31-21-S"]
    assert node_from_json(root.to_json()) == root
    assert root.to_json()["after"]["defences"][2] == {"move": "34-46", "truncated": True}


def test_passes_join_a_sides_moves_in_one_turn():
    land = WinnerNode(Side.SOUTH, 1, moves=("43-53-N",), dual=False)
    blocked = LoserNode(Side.NORTH, 1, passed=True, reply=land)
    root = WinnerNode(Side.SOUTH, 2, moves=("34-44-43",), dual=False, after=blocked)
    assert main_line(root) == ["34-44-43; 43-53-N"]
    assert root.to_json()["after"] == {
        "to_move": "N", "role": "loser", "winner_moves_left": 1, "passed": True,
        "reply": land.to_json()}


@pytest.mark.parametrize("data, words", [
    ({"role": "judge"}, "role"),
    ({"role": "winner", "to_move": "E", "moves_left": 1, "moves": [], "dual": False},
     "to_move"),
    ({"role": "winner", "to_move": "S", "moves_left": 0, "moves": [], "dual": False},
     "moves_left"),
    ({"role": "winner", "to_move": "S", "moves_left": 1, "moves": "12-N", "dual": False},
     "moves"),
    ({"role": "loser", "to_move": "S", "winner_moves_left": 1, "threat": None,
      "defences": [{"reply": None}]}, "defence"),
])
def test_what_is_not_a_tree_is_refused(data, words):
    with pytest.raises(TreeError, match=words):
        node_from_json(data)
