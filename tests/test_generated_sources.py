"""The source of a constructed puzzle names its key's kind from the key itself: the
solver's key may not be the one the construction designed."""

from __future__ import annotations

from catalogues import every_puzzle

from gyges.formats.notation import parse_move
from gyges.game.position import Position
from gyges.game.rules import PRESETS
from gyges.puzzles.catalogue import parse_catalogue
from gyges.puzzles.generate.entries import entry_text
from gyges.puzzles.generate.params import Params
from gyges.puzzles.generate.soundness import assess_soundness
from gyges.puzzles.generate.state import CandidateRecord
from gyges.puzzles.symmetry import canonical

RULES = PRESETS["pbmserv"]
SOUND = Position.from_string("321..2/1...../....../2....2/...3../.331.1 S")   # key 12-24x36=54


def test_a_relocation_key_designed_plain_is_called_a_relocation():
    rec = CandidateRecord.from_json({
        **assess_soundness(SOUND, RULES, 2).to_json(), "index": 1, "source": "compose",
        "canonical": canonical(SOUND),
        "design": {"key": "plain", "bounces": 1, "crossing": False, "defenders": 2}})
    assert rec.key is not None and "=" in rec.key
    text = entry_text(rec, Params(2, RULES, seed=3, sources=("compose",)))
    (p,) = parse_catalogue("schema: 1\npuzzles:\n" + text).puzzles
    assert p.source.startswith("CP-SAT construction: a relocation key, then a landing threat")


def test_the_shipped_constructions_name_their_keys_kind():
    constructed = [p for p in every_puzzle() if p.source.startswith("CP-SAT construction")]
    assert len(constructed) >= 15
    for p in constructed:
        key = parse_move(p.key or "", p.position, p.rules, p.history)
        kind = "relocation" if key.is_replace else "plain"
        assert p.source.startswith(f"CP-SAT construction: a {kind} key,"), (p.id, p.key)
