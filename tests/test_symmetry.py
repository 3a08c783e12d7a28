"""The board's symmetries (gyges.puzzles.symmetry): a position, its mirror image and the
board turned around with the sides swapped are one puzzle, for the generator
(``canonical``) and for a catalogue entry with its rules and history (``identity``)."""

from __future__ import annotations

from gyges.game.position import Position
from gyges.game.rules import PRESETS
from gyges.puzzles.generate.soundness import assess_soundness
from gyges.puzzles.symmetry import canonical, flipped, identity

RULES = PRESETS["pbmserv"]
POS = Position.from_string("321..2/1...../....../2....2/...3../.331.1 S")


def test_mirror_and_flip_give_one_canonical_form():
    pos = POS
    images = {pos, pos.mirrored(), flipped(pos), flipped(pos).mirrored()}
    assert len(images) == 4
    assert {canonical(p) for p in images} == {canonical(pos)}
    # the flipped puzzle is the same puzzle for the other side
    a, b = assess_soundness(pos, RULES, 2), assess_soundness(flipped(pos), RULES, 2)
    assert a.sound and b.sound and a.features.defences == b.features.defences


def test_one_identity_for_the_images_of_an_entry_under_its_rules():
    images = [POS, POS.mirrored(), flipped(POS), flipped(POS.mirrored())]
    assert len({identity(p, RULES) for p in images}) == 1
    assert identity(POS, RULES)[0] == canonical(POS)
    assert identity(POS, RULES) != identity(POS, PRESETS["bga"])      # other rules


def test_the_history_is_part_of_the_identity_and_turns_with_the_position():
    """The Renop law reads the history: the same position after other positions is another
    puzzle, and the mirror image of both together is the same one."""
    before = Position.from_string("321..2/1...../....../2....2/.3.3../..31.1 N")
    other = Position.from_string("321..2/1...../....../2....2/...3.3/..31.. N")
    assert identity(POS, RULES, [before]) != identity(POS, RULES)
    assert identity(POS, RULES, [before]) != identity(POS, RULES, [other])
    assert identity(POS.mirrored(), RULES, [before.mirrored()]) == identity(POS, RULES, [before])
    assert identity(flipped(POS), RULES, [flipped(before)]) == identity(POS, RULES, [before])
    assert identity(POS.mirrored(), RULES, [before]) != identity(POS, RULES, [before])
