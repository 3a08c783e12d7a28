"""Duplicate lookup for a run (gyges.puzzles.generate.duplicates): the catalogue's puzzles under the
run's rules, and a catalogue that cannot be used said as such."""

from __future__ import annotations

import pytest

from gyges.game.rules import PRESETS
from gyges.puzzles.catalogue import load_catalogue
from gyges.puzzles.generate.duplicates import KnownCatalogueError, known_positions
from gyges.puzzles.symmetry import canonical

RULES = PRESETS["pbmserv"]


def test_known_positions_reads_the_catalogue(tmp_path):
    known = known_positions(["puzzles"], RULES)
    cat = load_catalogue("puzzles/seed000.yaml")
    assert any(canonical(p.position.mirrored()) in known for p in cat.puzzles
               if p.rules == RULES)
    assert not known_positions(["puzzles/seed000.yaml"], PRESETS["dorbec"])
    assert not known_positions(["puzzles/seed000.yaml"], RULES, exclude="puzzles/seed000.yaml")


def test_a_catalogue_that_cannot_be_used_is_an_error(tmp_path):
    with pytest.raises(KnownCatalogueError) as e:
        known_positions([tmp_path / "none.yaml"], RULES)
    missing = tmp_path / "none.yaml"
    assert e.value.missing and str(e.value) == f"{missing}: no such file or directory"
    bad = tmp_path / "bad.yaml"
    bad.write_text("schema: 2\npuzzles: []\n")
    with pytest.raises(KnownCatalogueError) as e:
        known_positions([tmp_path], RULES)
    assert not e.value.missing and str(e.value.error).startswith(f"{bad}:1: schema '2'")
