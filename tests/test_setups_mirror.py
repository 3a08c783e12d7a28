"""A setup pair and its mirror (both rows reversed: the whole board reflected left to right)
have the same figures: the rules are the same mirrored, and docs/setups.md says so. Checked
on the analyses of pairs (a fixed sample by default; every pair at depths 1 and 2 in the
slow run) and on the published depth-3 table, whose records hold all 8,100 pairs."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest

from gyges.game.position import Position
from gyges.game.rules import PRESETS
from gyges.setups.pairs import all_pairs, canonical_pairs, mirror_setup
from gyges.setups.proven.analysis import analyse_pair
from gyges.setups.proven.records import PairRecord, read_results
from gyges.setups.search.figures import replace_threats

DATA = Path(__file__).resolve().parent.parent / "data" / "setups"
RULES = PRESETS["pbmserv"]
#: The pair whose replace threats once differed from its mirror's (23 against 22).
EXAMPLE = ("121332", "123213")


def mirror(pair: tuple[str, str]) -> tuple[str, str]:
    return mirror_setup(pair[0]), mirror_setup(pair[1])


def difference(record: PairRecord, other: PairRecord) -> list[str]:
    """What differs between the figures of a pair's record and those of its mirror's
    (``other``): every field but the setups; the keys and the defence name moves on each
    pair's own board (and the path written for a move is the first of equal ones, an
    order the mirror changes), so of them the counts are compared."""
    diff = [f.name for f in dataclasses.fields(PairRecord)
            if f.name not in ("south", "north", "keys", "defence")
            and getattr(record, f.name) != getattr(other, f.name)]
    if len(record.keys) != len(other.keys):
        diff.append("keys")

    def counts(d: Any) -> Any:
        return None if d is None else {k: v for k, v in d.items() if isinstance(v, int)}

    if counts(record.defence) != counts(other.defence):
        diff.append("defence")
    return diff


def mismatches(records: dict[tuple[str, str], PairRecord]) -> list[str]:
    """The pairs (with their mirror among ``records``) whose figures differ from it."""
    return [f"{' '.join(p)}: {', '.join(d)}" for p, r in sorted(records.items())
            if mirror(p) in records and (d := difference(r, records[mirror(p)]))]


def analyses(pairs: list[tuple[str, str]], depth: int) -> dict[tuple[str, str], PairRecord]:
    """The analysis of each pair and of its mirror."""
    wanted = sorted(set(pairs) | {mirror(p) for p in pairs})
    return {p: analyse_pair(*p, RULES, depth) for p in wanted}


#: The default run's pairs: every 25th canonical pair (163), the example among them.
SAMPLE = sorted(set(canonical_pairs(all_pairs())[::25]) | {EXAMPLE})


def test_the_example_and_its_mirror_have_the_same_replace_threats():
    pair = Position.setup(*EXAMPLE)
    mirrored = Position.setup(*mirror(EXAMPLE))
    assert mirrored == pair.mirrored()
    assert replace_threats(pair, RULES) == replace_threats(mirrored, RULES)


def test_a_sample_of_pairs_and_their_mirrors_have_the_same_figures():
    records = analyses(SAMPLE, 1)
    assert len(records) > 300 and EXAMPLE in records
    assert mismatches(records) == []


@pytest.mark.slow
@pytest.mark.parametrize("depth", [1, 2])
def test_every_pair_and_its_mirror_have_the_same_figures(depth: int):
    records = {p: analyse_pair(*p, RULES, depth) for p in all_pairs()}
    assert len(records) == 8100
    assert mismatches(records) == []


def test_the_published_depth_3_table_agrees_with_its_mirror():
    _, records = read_results(str(DATA / "pbmserv-depth3.jsonl"))
    table = {r.pair: r for r in records}
    assert len(table) == 8100 and all(mirror(p) in table for p in table)
    assert mismatches(table) == []


def test_a_difference_is_found():
    # the check itself: a record against one with another replace-threat count
    record = analyse_pair(*EXAMPLE, RULES, 1)
    other = dataclasses.replace(record, replace_threats=record.replace_threats + 1)
    assert difference(record, other) == ["replace_threats"]
    assert difference(record, dataclasses.replace(record, defence=None)) == (
        [] if record.defence is None else ["defence"])
