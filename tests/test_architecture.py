"""The architecture's rules that import-linter (``make lint``) cannot see, since it does not
see compiled modules: who calls the compiled core directly, and the core's own examples
(pytest collects doctests from ``.py`` files only)."""

from __future__ import annotations

import ast
import doctest
from pathlib import Path

from gyges.game import _movegen

ROOT = Path(__file__).resolve().parent.parent

#: The modules that may call the compiled core directly: the game layer (its public face
#: is ``gyges.game.moves``), and the setups analysis, which takes the core's raw tuples
#: for speed. Notation, the other formats, the puzzles and the CLI go through the game layer.
DIRECT = {
    "solver/game/moves.py", "solver/game/position.py", "solver/game/squares.py",
    "solver/setups/batch.py", "solver/setups/constraints.py",
}


def _imports_core(path: Path) -> bool:
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.module == "gyges.game._movegen":
                return True
            if node.module == "gyges.game" and any(a.name == "_movegen" for a in node.names):
                return True
        if isinstance(node, ast.Import) and any(
                a.name == "gyges.game._movegen" for a in node.names):
            return True
    return False


def test_only_the_game_layer_calls_the_compiled_core():
    users = {
        p.relative_to(ROOT).as_posix()
        for package in ("solver", "gyges_cli")
        for p in (ROOT / package).rglob("*.py")
        if _imports_core(p)
    }
    assert "solver/game/moves.py" in users        # the check does see the imports
    assert users <= DIRECT, sorted(users - DIRECT)


def test_the_compiled_core_examples():
    result = doctest.testmod(_movegen)
    assert result.attempted >= 8 and result.failed == 0
