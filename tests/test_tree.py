"""The typed solution tree and the Solution: their JSON forms round-trip, the walker visits
every node once, the main line reads the tree the way the JSON reads, and their reprs show
notation."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gyges.game.moves import apply_move, legal_moves
from gyges.game.position import Position
from gyges.game.rules import PRESETS, Side
from gyges.puzzles.catalogue import load_all
from gyges.search import (
    LoserNode,
    Solution,
    SolutionError,
    WinnerNode,
    main_line_steps,
    node_from_json,
    solve,
)
from gyges.search.tree import Defence, TreeError, main_line_turns, walk

ROOT = Path(__file__).resolve().parent.parent
SAMPLE_12 = "..1.../..23../..3.../..3113/2..2../2..1.. S"    # South wins in 2, one key


def _json_nodes(data) -> int:
    """How many winner and loser nodes the JSON form holds (independently of the walker)."""
    if isinstance(data, dict):
        own = 1 if data.get("role") in ("winner", "loser") else 0
        return own + sum(_json_nodes(v) for v in data.values())
    if isinstance(data, list):
        return sum(_json_nodes(v) for v in data)
    return 0


def _json_answers(reply) -> int:
    """How many moves win in a winner node's JSON: all its listed moves where duals were
    searched, else its counted ``answers``, else the one listed; a pass is one."""
    if reply.get("passed"):
        return 1
    if reply.get("dual") is None and "answers" in reply:
        return reply["answers"]
    return len(reply.get("moves", []))


def _json_main_line(tree) -> list[str]:
    """The main line read from the JSON by string keys (a reference written apart from the
    tree module): the winner's first move, the loser's defence after which the winner has
    the most moves left, then the fewest winning answers, then the first in notation."""
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
            answered = [d for d in node.get("defences", []) if d.get("reply")]
            if not answered:
                break
            best = sorted(answered, key=lambda d: (-d["reply"]["moves_left"],
                                                   _json_answers(d["reply"]), d["move"]))[0]
            move, node_next = best["move"], best["reply"]
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
        assert s.main_line_turns() == main_line_turns(back) == _json_main_line(data), name
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
    assert main_line_turns(root) == ["62-53", "34-44", "51-43-33-31-21-S"]
    assert [s.move for s in main_line_steps(root)] == main_line_turns(root)
    assert node_from_json(root.to_json()) == root
    assert root.to_json()["after"]["defences"][2] == {"move": "34-46", "truncated": True}


def test_passes_join_a_sides_moves_in_one_turn():
    land = WinnerNode(Side.SOUTH, 1, moves=("43-53-N",), dual=False)
    blocked = LoserNode(Side.NORTH, 1, passed=True, reply=land)
    root = WinnerNode(Side.SOUTH, 2, moves=("34-44-43",), dual=False, after=blocked)
    assert main_line_turns(root) == ["34-44-43; 43-53-N"]
    assert [(s.side, s.move) for s in main_line_steps(root)] == [
        (Side.SOUTH, "34-44-43"), (Side.NORTH, None), (Side.SOUTH, "43-53-N")]
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


def test_every_catalogue_solution_round_trips_through_json():
    """``Solution.from_json`` reads back what ``to_json`` wrote: the same JSON again, and
    the same solution but for the statistics the JSON leaves out or rounds."""
    kinds = set()
    for name, s in _trees():
        data = json.loads(json.dumps(s.to_json()))
        back = Solution.from_json(data)
        assert back.to_json() == data, name
        assert back.keys == s.keys and back.tree == s.tree and back.tries == s.tries, name
        assert (back.position, back.rules, back.result, back.moves) == (
            s.position, s.rules, s.result, s.moves), name
        assert back.stats.nodes == s.stats.nodes and back.stats.proof_nodes == 0, name
        kinds.add(s.result)
    assert kinds == {"win", "loss", "none"}


def test_tries_round_trip_through_json():
    s = solve(Position.from_string(SAMPLE_12), PRESETS["pbmserv"], 2, tries=True)
    assert s.tries
    back = Solution.from_json(json.loads(json.dumps(s.to_json())))
    assert back.tries == s.tries and back.to_json() == s.to_json()


@pytest.mark.parametrize("change, words", [
    ({"position": "nonsense"}, "position"),
    ({"result": "draw"}, "result"),
    ({"keys": ["66-N"]}, "a key '66-N'"),
    ({"keys": "14-24"}, "'keys'"),
    ({"tree": {"role": "judge"}}, "'tree'"),
    ({"stats": {"nodes": "many"}}, "'stats'"),
    ({"stoppable": "perhaps"}, "'stoppable'"),
])
def test_what_is_not_a_solution_is_refused(change, words):
    data = solve(Position.from_string(SAMPLE_12), PRESETS["pbmserv"], 2).to_json()
    with pytest.raises(SolutionError, match=words):
        Solution.from_json({**data, **change})
    missing = dict(data)
    del missing["keys"]
    with pytest.raises(SolutionError, match="'keys'"):
        Solution.from_json(missing)


def test_reprs_show_notation():
    s = solve(Position.from_string(SAMPLE_12), PRESETS["pbmserv"], 2, tries=True)
    assert repr(s) == (f"<Solution {SAMPLE_12} (pbmserv): South to move wins in 2; "
                       "keys 14-24-33x43=12>")
    assert repr(s.tree).startswith("<WinnerNode S wins within 2: 14-24-33x43=12, then ")
    assert repr(s.tree.after).startswith("<LoserNode N to move, S wins within 1: no threat, ")
    assert repr(s.tries[0]).startswith(f"<Try {s.tries[0].move}? refuted by ")
    assert repr(s.stats).startswith(f"Stats(nodes={s.stats.nodes}, seconds=")
    assert repr(Defence("34-46")) == "<Defence 34-46 -> tree cut here>"
