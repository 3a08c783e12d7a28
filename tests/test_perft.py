"""Perft: the compiled generator's move-sequence counts against tests/data/perft.txt.

The counts in the data file were computed once by the naive reference generator
(``tests/reference.py``, :func:`reference_perft`), independently of the compiled core; run
``python tests/test_perft.py > tests/data/perft.txt`` to compute them again (a few minutes).

Perft(depth) is the number of move sequences of exactly ``depth`` moves, where a node's
moves are its distinct results plus one goal landing per ring that can land; a goal
landing ends its line (it counts only as the last move); under ``blocked=pass`` a blocked
node's moves are its opponent's; the Renop law sees every earlier board of the line.

File format (like python-chess's perft files): blocks separated by blank lines, each with
``id NAME``, ``position POSITION-STRING``, ``rules PRESET [key=value ...]`` and one
``perft DEPTH COUNT`` line per depth; ``#`` starts a comment line.
"""

from __future__ import annotations

import dataclasses
import sys
import time
from pathlib import Path

import pytest
from common import DATA

from gyges.game import _movegen
from gyges.game.position import Position
from gyges.game.rules import PRESETS, RuleSet, rules_from

PERFT_FILE = DATA / "perft.txt"

#: Counts above this many leaves are checked only in the slow run.
FAST_LEAVES = 600_000


@dataclasses.dataclass(frozen=True)
class PerftEntry:
    id: str
    position: str
    rules: str
    counts: tuple[tuple[int, int], ...]  # (depth, count)

    def ruleset(self) -> RuleSet:
        preset, *overrides = self.rules.split()
        return rules_from(preset, overrides)


def read_perft(path: Path = PERFT_FILE) -> list[PerftEntry]:
    """The entries of a perft file; ValueError names the line of anything malformed."""
    entries: list[PerftEntry] = []
    fields: dict[str, str] = {}
    counts: list[tuple[int, int]] = []

    def flush(line_no: int) -> None:
        if not fields and not counts:
            return
        missing = {"id", "position", "rules"} - set(fields)
        if missing or not counts:
            raise ValueError(f"{path}:{line_no}: entry lacks {sorted(missing) or 'perft lines'}")
        entries.append(PerftEntry(fields["id"], fields["position"], fields["rules"], tuple(counts)))
        fields.clear()
        counts.clear()

    lines = path.read_text().splitlines()
    for n, line in enumerate(lines, 1):
        line = line.strip()
        if line.startswith("#"):
            continue
        if not line:
            flush(n)
            continue
        key, _, value = line.partition(" ")
        if key == "perft":
            depth, count = value.split()
            counts.append((int(depth), int(count)))
        elif key in ("id", "position", "rules"):
            fields[key] = value.strip()
        else:
            raise ValueError(f"{path}:{n}: unknown field {key!r}: use id, position, rules, perft")
    flush(len(lines) + 1)
    return entries


def engine_perft(entry: PerftEntry, depth: int) -> int:
    position = Position.from_string(entry.position)
    leaves, _lists = _movegen.perft(
        position.key, position.turn.index, entry.ruleset().flags(), depth, []
    )
    return leaves


def _cases(slow: bool) -> list:
    out = []
    for entry in read_perft():
        for depth, count in entry.counts:
            if (count > FAST_LEAVES) == slow:
                out.append(pytest.param(entry, depth, count, id=f"{entry.id}-d{depth}"))
    return out


def test_perft_file_covers_every_preset_and_both_starts():
    from gyges.game.rules import PRESETS

    entries = read_perft()
    assert len({e.id for e in entries}) == len(entries)
    for name in PRESETS:
        for start in ("321123/....../....../....../....../321123 S",
                      "321123/....../....../....../....../231123 S"):
            assert any(e.position == start and e.rules == name and len(e.counts) >= 2
                       for e in entries), (name, start)


@pytest.mark.parametrize(("entry", "depth", "count"), _cases(slow=False))
def test_perft(entry, depth, count):
    assert engine_perft(entry, depth) == count


@pytest.mark.slow
@pytest.mark.parametrize(("entry", "depth", "count"), _cases(slow=True))
def test_perft_deep(entry, depth, count):
    assert engine_perft(entry, depth) == count


@pytest.mark.parametrize(
    ("entry", "depth", "count"),
    [c for c in _cases(slow=False) if c.values[2] <= 10_000][::3],
)
def test_perft_file_agrees_with_reference_now(entry, depth, count):
    """The small counts, recomputed by the reference: the file is what it claims to be."""
    from reference import reference_perft

    position = Position.from_string(entry.position)
    assert reference_perft(position.board, position.turn, entry.ruleset(), depth) == count


@pytest.mark.parametrize("entry", read_perft()[:4], ids=lambda e: e.id)
def test_perft_move_lists_count_inner_nodes(entry):
    """perft's second figure: one move list per node above the leaves."""
    position = Position.from_string(entry.position)
    flags = entry.ruleset().flags()
    _, lists1 = _movegen.perft(position.key, position.turn.index, flags, 1, [])
    leaves1, _ = _movegen.perft(position.key, position.turn.index, flags, 1, [])
    _, lists2 = _movegen.perft(position.key, position.turn.index, flags, 2, [])
    assert lists1 == 1
    assert 1 < lists2 <= 1 + leaves1


# -- computing the file with the reference ------------------------------------------------

STARTS = {
    "start": "321123/....../....../....../....../321123 S",
    "sample": "321123/....../....../....../....../231123 S",  # seed 000's sample game
}

#: (id, position, rules, deepest depth) of the positions beyond the starts.
MIDGAMES = [
    # Seed 000's worked examples.
    ("seed-bouncing", "....../3...../..1.1./1.23.3/3.22.1/....2. N", "pbmserv", 2),
    ("seed-taboo", "....../1...../3.23../3.211./2.132./...... S", "pbmserv", 2),
    ("seed-stalemate", ".3.3.3/112232/...1../...1.2/....../...... N", "pbmserv", 3),
    ("seed-stalemate-next-row", ".3.3.3/112232/...1../...1.2/....../...... N", "summary", 2),
    ("seed-stalemate-draw", ".3.3.3/112232/...1../...1.2/....../...... N", "bga", 2),
    ("seed-relocation", "213132/....../....../....../....../113223 S", "pbmserv", 2),
    # Reached by random play (tests/positions.py, seed 42).
    ("mid-1", "...3../....../3.12.1/212.23/1....3/...... S", "pbmserv", 3),
    ("mid-2", ".....3/...2../.1.322/131.1./32..../...... N", "pbmserv", 3),
    ("mid-3", ".11..2/..1.../22.2../....33/....33/...1.. N", "pbmserv", 3),
    ("mid-4", "23..31/.1..2./...3.3/....../....2./..1.21 S",
     "pbmserv rebounce=once null-move=allowed", 2),
    ("mid-5", "1...../...3../2323.2/11..23/..1.../...... S", "dorbec", 3),
    ("mid-6", "....2./..3.1./11.22./....1./..33.3/...2.. N", "dorbec", 3),
    ("mid-7", "....../....1./2.1313/221.33/....2./...... S", "dorbec-beginner", 2),
    ("mid-8", "....../....../1.1332/2.2313/2...../1..... S", "bga", 3),
    ("mid-9", "...2../...3.1/3.21.1/.13.2./...32./...... N", "bga", 3),
    ("mid-10", "...2../.1.32./.3..../.132.1/1....3/..2... N", "summary", 3),
    # Few rings: goal landings, back-and-forth lines (Renop), blocked sides.
    ("sparse-1", "....../...1../....../....../..2.../...... S", "pbmserv", 3),
    ("sparse-2", "....../...1../....../....../..2.../...... S",
     "pbmserv repetition=allowed null-move=allowed", 3),
    ("sparse-3", ".2..3./....../....../1...../....../..3... N", "dorbec", 3),
]


def compute(out=sys.stdout) -> None:
    """Compute every entry with the reference generator and write the file's text."""
    from reference import TooComplex, reference_perft

    specs = []
    for name in PRESETS:
        for tag, position in STARTS.items():
            specs.append((f"{tag}-{name}", position, name, 2))
    specs.extend(MIDGAMES)
    print("# Perft counts computed by the naive reference generator (tests/reference.py):",
          file=out)
    print("# python tests/test_perft.py > tests/data/perft.txt", file=out)
    for ident, text, rules_text, depth in specs:
        position = Position.from_string(text)
        preset, *overrides = rules_text.split()
        rules = rules_from(preset, overrides)
        print(f"\nid {ident}\nposition {text}\nrules {rules_text}", file=out)
        for d in range(1, depth + 1):
            t = time.time()
            try:
                count = reference_perft(position.board, position.turn, rules, d)
            except TooComplex:  # a node whose walks the reference cannot afford: stop here
                break
            print(f"perft {d} {count}", file=out, flush=True)
            print(f"{ident} depth {d}: {count} ({time.time() - t:.1f} s)", file=sys.stderr)


if __name__ == "__main__":
    compute()
