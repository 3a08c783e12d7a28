"""The architecture's rules that import-linter (``make lint``) cannot see, since it does not
see compiled modules: who calls the compiled core and the compiled provers directly, and
the core's own examples (pytest collects doctests from ``.py`` files only)."""

from __future__ import annotations

import ast
import doctest
from pathlib import Path

from common import ROOT

from gyges.game import _movegen

#: The modules that may call the compiled core directly: the game layer (its public face
#: is ``gyges.game.moves``), and the setups analysis, which takes the core's raw tuples
#: for speed. Notation, the other formats, the puzzles and the CLI go through the game layer.
DIRECT = {
    "solver/gyges/game/moves.py", "solver/gyges/game/position.py", "solver/gyges/game/squares.py",
    "solver/gyges/setups/search/figures.py",
}


def _imports(path: Path, module: str) -> bool:
    """Does the file import ``module`` (``a.b._c``), in any form, at any depth?"""
    parent, _, name = module.rpartition(".")
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.module == module:
                return True
            if node.module == parent and any(a.name == name for a in node.names):
                return True
        if isinstance(node, ast.Import) and any(a.name == module for a in node.names):
            return True
    return False


def _users(module: str) -> set[str]:
    return {
        p.relative_to(ROOT).as_posix()
        for package in ("solver/gyges", "gyges_cli")
        for p in (ROOT / package).rglob("*.py")
        if _imports(p, module)
    }


def test_only_the_game_layer_calls_the_compiled_core():
    users = _users("gyges.game._movegen")
    assert "solver/gyges/game/moves.py" in users        # the check does see the imports
    assert users <= DIRECT, sorted(users - DIRECT)


def test_only_the_search_layer_calls_the_compiled_provers():
    users = _users("gyges.search._search") | _users("gyges.search._dfpn")
    assert "solver/gyges/search/session.py" in users    # the check does see the imports
    outside = {u for u in users if not u.startswith("solver/gyges/search/")}
    assert not outside, f"{sorted(outside)}: ask a gyges.search.Prover instead"


def test_the_compiled_core_examples():
    result = doctest.testmod(_movegen)
    assert result.attempted >= 8 and result.failed == 0
