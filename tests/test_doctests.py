"""The examples in the library's and the CLI's docstrings, run against the installed
``gyges`` package, its compiled modules included (pytest's ``--doctest-modules`` reads
``.py`` files only)."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import gyges
import gyges_cli


def _modules() -> list[str]:
    names = []
    for package in (gyges, gyges_cli):
        names.append(package.__name__)
        names += [m.name for m in pkgutil.walk_packages(package.__path__, package.__name__ + ".")
                  if not m.name.rsplit(".", 1)[-1].startswith("__")]
    return sorted(names)


MODULES = _modules()


def test_every_module_is_seen():
    assert "gyges.game.moves" in MODULES and "gyges_cli.main" in MODULES
    assert "gyges.game._movegen" in MODULES      # the compiled core has examples too


@pytest.mark.parametrize("name", MODULES)
def test_examples(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples failed"
