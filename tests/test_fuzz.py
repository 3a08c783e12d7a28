"""The fuzz campaign: random and mutated inputs through every reader and every
command, with click's test runner.

Each run must end in exit status 0 with a correct result (a position read back the same,
a report of the records given...), or 1 where a check can fail (replay, catalogue check,
export), or 2 with one line per error naming the input; never a traceback, and never a
changed input file.

Two profiles of the same tests: the short one runs in ``make test`` (``FUZZ_SHORT``
examples per test), the long one (marked ``slow``) in ``make test-all`` (``FUZZ_LONG``).
docs/reliability.md records how many cases the long profile ran and what it found.
"""

from __future__ import annotations

import functools
import json
import re
from pathlib import Path

import pytest
from common import BOUNCING, DATA, POSITIONS, START, run_gyges
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from gyges.formats.diagram import DiagramError, format_diagram, parse_diagram
from gyges.formats.notation import NotationError, parse_move
from gyges.formats.posfile import PositionFileError, dump_position_file, parse_position_file
from gyges.formats.record import RecordError, parse_record
from gyges.game.position import Position, PositionError
from gyges.game.rules import PRESETS
from gyges.puzzles.catalogue import CatalogueError, parse_catalogue

FUZZ_SHORT = 15
FUZZ_LONG = 600


def profiles(test, **strategies):
    """The test twice, with ``strategies`` drawn by hypothesis: a short profile, and a long
    one marked slow."""
    common = dict(deadline=None,
                  suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much,
                                         HealthCheck.function_scoped_fixture,
                                         HealthCheck.data_too_large])

    def make(examples: int):
        @functools.wraps(test)
        def run(*args, **kwargs):
            return test(*args, **kwargs)
        return settings(max_examples=examples, **common)(given(**strategies)(run))

    return make(FUZZ_SHORT), pytest.mark.slow(make(FUZZ_LONG))


# -- inputs: seeds and mutations ------------------------------------------------------------

CHARS = st.sampled_from(list("0123456789./-xX=()SNsn ;:#\n\t'\"{}[]|>-") + ["\x00", "é", "\ufeff",
                                                                          "\r", "𝟙"])


@st.composite
def mutated(draw, seed: str) -> str:
    """``seed`` with a few random edits: characters replaced, inserted or deleted, lines
    deleted, duplicated or swapped, the text cut short."""
    text = seed
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(["replace", "insert", "delete", "dup-line", "del-line",
                                     "swap-lines", "cut", "digit"]))
        n = len(text)
        if kind in ("replace", "insert", "delete", "cut", "digit") and n == 0:
            kind = "insert"
        if kind == "replace":
            i = draw(st.integers(0, n - 1))
            text = text[:i] + draw(CHARS) + text[i + 1:]
        elif kind == "digit":        # numbers are where readers meet their limits
            i = draw(st.integers(0, n - 1))
            text = text[:i] + str(draw(st.sampled_from([0, 7, 9, 31, 99, 10**6, -1]))) + \
                text[i + 1:]
        elif kind == "insert":
            i = draw(st.integers(0, n))
            text = text[:i] + draw(st.text(CHARS, min_size=1, max_size=8)) + text[i:]
        elif kind == "delete":
            i = draw(st.integers(0, n - 1))
            text = text[:i] + text[i + draw(st.integers(1, 8)):]
        elif kind == "cut":
            text = text[: draw(st.integers(0, n))]
        else:
            lines = text.splitlines(keepends=True)
            if not lines:
                continue
            i = draw(st.integers(0, len(lines) - 1))
            if kind == "dup-line":
                lines.insert(i, lines[i])
            elif kind == "del-line":
                del lines[i]
            else:
                j = draw(st.integers(0, len(lines) - 1))
                lines[i], lines[j] = lines[j], lines[i]
            text = "".join(lines)
    return text


def one_of_mutated(*seeds: str):
    return st.sampled_from(seeds).flatmap(lambda s: mutated(s))


POSITION_STRINGS = st.one_of(
    one_of_mutated(START, BOUNCING, "3....3/13..2./2...../1..31./....22/.1.... N"),
    st.text(CHARS, max_size=60),
)

_SAMPLE = (DATA / "sample_game.txt").read_text()
_POSFILES = [p.read_text() for p in sorted((POSITIONS).glob("*.yaml"))]
_DIAGRAMS = [(POSITIONS / "stalemate.txt").read_text(),
             format_diagram(Position.from_string(BOUNCING))]
_CATALOGUE = f"""\
schema: 1
title: "Fuzz"
puzzles:
- id: bouncing
  title: "Bouncing"
  position: "{BOUNCING}"
  stipulation: North wins in 1
  solution: {{key: 51-43-33-31-21-S, main-line: [51-43-33-31-21-S]}}
  themes: [bounce chain 2]
  difficulty: 1
- id: start
  diagram: |
    1 2 3 4 5 6
    N
    3 2 1 1 2 3 6
    . . . . . . 5
    . . . . . . 4
    . . . . . . 3
    . . . . . . 2
    2 3 1 1 2 3 1
    S
    South to move
  stipulation: no forced result in 1
"""
_MOVES = ["16-35", "51-43-33-31-21-S", "13x14=44", "24-(14-15-)25-(24-)34-44-N", "61-53",
          "66x65=21", "13-14-24x35=33"]


# -- the invariants -------------------------------------------------------------------------


def invoke(args: list[str], files: list[Path] = (), allowed: tuple[int, ...] = (0, 2)):
    """Run a command; check the exit status, that it raised nothing but SystemExit, that a
    status-2 run printed only error lines naming the input, and that no input changed."""
    before = {f: f.read_bytes() for f in files if f.exists()}
    r = run_gyges(*args)
    what = f"gyges {args!r}: exit {r.exit_code}\n{r.output[-1500:]}"
    assert r.exception is None or isinstance(r.exception, SystemExit), \
        f"{what}\n{r.exc_info and r.exc_info[1]!r}"
    assert "Traceback" not in r.output, what
    assert r.exit_code in allowed, what
    if r.exit_code == 2:
        lines = r.stderr.splitlines()
        assert lines and all(re.match(r"gyges: |\S+:\d+: ", ln) for ln in lines), what
        assert all(len(ln) < 1200 for ln in lines), what
    for f, data in before.items():
        assert f.read_bytes() == data, f"{what}\n{f} changed"
    return r


def _write(tmp: Path, name: str, text: str) -> Path:
    path = tmp / name
    path.write_bytes(text.encode("utf-8", "surrogatepass"))
    return path


# -- position strings ------------------------------------------------------------------------


def _position_strings(text):
    try:
        p = Position.from_string(text)
    except PositionError:
        p = None
    assume("\x00" not in text)   # not representable in argv
    r = invoke(["show", text]) if text.strip() and not Path(text).exists() else None
    if p is not None:
        assert str(Position.from_string(str(p))) == str(p)
        if r is not None:
            assert r.exit_code == 0 and f"position: {p}" in r.output
    elif r is not None:
        assert r.exit_code == 2


test_position_strings, test_position_strings_long = profiles(
    _position_strings, text=POSITION_STRINGS)


# -- diagrams --------------------------------------------------------------------------------


def _diagrams(tmp_path_factory, text):
    try:
        p = parse_diagram(text, "d.txt", turn_required=True)
    except DiagramError as e:
        assert str(e).startswith("d.txt:")
        p = None
    if p is not None:
        assert parse_diagram(format_diagram(p)) == p
    d = _write(tmp_path_factory.mktemp("d"), "d.txt", text)
    r = invoke(["show", str(d)], [d])
    if r.exit_code == 0 and p is not None:
        assert f"position: {p}" in r.output


test_diagrams, test_diagrams_long = profiles(
    _diagrams, text=one_of_mutated(*_DIAGRAMS))


# -- position files --------------------------------------------------------------------------


def _position_files(tmp_path_factory, text, command):
    try:
        pf = parse_position_file(text, "p.yaml")
    except PositionFileError as e:
        assert str(e).startswith("p.yaml")
        pf = None
    if pf is not None:
        assert parse_position_file(dump_position_file(pf)) == pf
    f = _write(tmp_path_factory.mktemp("p"), "p.yaml", text)
    r = invoke([command[0], str(f), *command[1:]], [f])
    if pf is not None and command[0] == "moves" and r.exit_code == 0:
        assert json.loads(r.output)["position"] == str(pf.position)


_DORBEC_FILE = dump_position_file(Position.from_string(BOUNCING), PRESETS["dorbec"],
                                  diagram=True)
test_position_files, test_position_files_long = profiles(
    _position_files, text=one_of_mutated(*_POSFILES, _DORBEC_FILE),
    command=st.sampled_from([["show"], ["moves", "--json"], ["solve", "-n", "1"],
                             ["perft", "-d", "1"]]))


# -- notation and game records ---------------------------------------------------------------


def _notation(move, position):
    p = Position.from_string(position)
    try:
        m = parse_move(move, p, PRESETS["pbmserv"])
    except NotationError:
        m = None
    except ValueError as e:       # any other ValueError is a reader's bug
        raise AssertionError(f"{move!r}: {type(e).__name__}: {e}") from None
    if m is not None:
        from gyges.formats.notation import format_move

        assert parse_move(format_move(m), p, PRESETS["pbmserv"]) == m


test_notation, test_notation_long = profiles(
    _notation, move=st.one_of(one_of_mutated(*_MOVES), st.text(CHARS, max_size=30)),
    position=st.sampled_from([START, BOUNCING]))


def _records(tmp_path_factory, text, start):
    try:
        parse_record(text, "g.txt")
    except RecordError as e:
        assert str(e).startswith("g.txt")
    f = _write(tmp_path_factory.mktemp("g"), "g.txt", text)
    args = ["replay", str(f), "-q"] + (["--start", start] if start else [])
    invoke(args, [f], allowed=(0, 1, 2))


test_records, test_records_long = profiles(
    _records, text=one_of_mutated(_SAMPLE, "South North\n1 231123 2 321123\n3 16-35 "
                                  "4 61-53\n5 Resign\n"),
    start=st.sampled_from([None, START]))


# -- catalogues ------------------------------------------------------------------------------


def _cheap(text: str) -> bool:
    """Re-proving stays cheap: every stipulation at most 2 moves."""
    try:
        cat = parse_catalogue(text)
    except CatalogueError:
        return True
    return all(p.stipulation.moves <= 2 for p in cat.puzzles)


def _catalogues(tmp_path_factory, text, command):
    assume(_cheap(text))
    try:
        parse_catalogue(text, "c.yaml")
    except CatalogueError as e:
        assert str(e).startswith("c.yaml")
    tmp = tmp_path_factory.mktemp("c")
    f = _write(tmp, "c.yaml", text)
    args = [a.replace("OUT", str(tmp / "out")) for a in command]
    invoke([*args[:2], str(f), *args[2:]] if command[0] == "catalogue"
           else [args[0], str(f), *args[1:]], [f], allowed=(0, 1, 2))


test_catalogues, test_catalogues_long = profiles(
    _catalogues, text=one_of_mutated(_CATALOGUE),
    command=st.sampled_from([["catalogue", "list"], ["catalogue", "check", "-q"],
                             ["export", "--format", "text", "--out", "OUT"],
                             ["export", "--format", "svg", "--out", "OUT"]]))


def _catalogue_add(tmp_path_factory, text):
    """``catalogue add`` appends to a mutated catalogue or refuses it, never breaking it."""
    tmp = tmp_path_factory.mktemp("a")
    f = _write(tmp, "c.yaml", text)
    before = f.read_bytes()
    r = run_gyges("catalogue", "add", "3....3/13..2./2...../1..31./....22/.1.... N",
                  "--to", f, "--id", "new-one", "--max-moves", "1")
    assert r.exception is None or isinstance(r.exception, SystemExit), repr(r.exception)
    assert r.exit_code in (0, 2), r.output
    if r.exit_code == 2:
        assert f.read_bytes() == before
    else:
        after = f.read_bytes().decode()
        assert after.startswith(before.decode()) and "new-one" in after
        parse_catalogue(after)


test_catalogue_add, test_catalogue_add_long = profiles(
    _catalogue_add, text=one_of_mutated(_CATALOGUE))


# -- JSONL results and constraint files ------------------------------------------------------


@pytest.fixture(scope="module")
def analysis(tmp_path_factory) -> str:
    out = tmp_path_factory.mktemp("jsonl") / "t.jsonl"
    r = run_gyges("setups", "analyze", "--south", "231123", "--north", "321123,312213",
                  "--depth", "1", "-q", "--jobs", "1", "--out", out)
    assert r.exit_code == 0, r.output
    return out.read_text()


def _jsonl(tmp_path_factory, analysis, data, command):
    text = data.draw(mutated(analysis))
    tmp = tmp_path_factory.mktemp("j")
    f = _write(tmp, "t.jsonl", text)
    if command == "analyze":   # resuming a mutated file: resumed, or refused untouched
        before = f.read_bytes()
        r = run_gyges("setups", "analyze", "--south", "231123", "--north", "321123,312213",
                      "--depth", "1", "-q", "--jobs", "1", "--out", f)
        assert r.exception is None or isinstance(r.exception, SystemExit), repr(r.exception)
        assert r.exit_code in (0, 2), r.output
        if r.exit_code == 2:
            assert f.read_bytes() == before
        else:   # every pair there (a record edited by hand but well-formed is kept)
            from gyges.setups import read_results

            pairs = {r.pair for r in read_results(str(f))[1]}
            assert pairs >= {("231123", "321123"), ("231123", "312213")}
        return
    args = ["setups", "report", str(f)]
    if command == "report-svg":
        args += ["--svg", str(tmp / "h.svg")]
    r = invoke(args, [f])
    if r.exit_code == 0:
        n = int(r.output.split()[0])
        assert 1 <= n <= len(text.splitlines())


test_jsonl, test_jsonl_long = profiles(
    _jsonl, data=st.data(), command=st.sampled_from(["report", "report-svg", "analyze"]))


_CONSTRAINTS = "side: south\nfix: [3@1]\napart: [3]\nsymmetric: false\n"


def _constraint_files(tmp_path_factory, text):
    assume(not re.search(r"lands-in|cannot-land", text))   # engine proofs: not cheap
    f = _write(tmp_path_factory.mktemp("s"), "c.yaml", text)
    invoke(["setups", "search", "--file", str(f), "--count"], [f])


test_constraint_files, test_constraint_files_long = profiles(
    _constraint_files,
    text=one_of_mutated(_CONSTRAINTS, "side: pair\nnorth: 321123\nmin-moves: 300\n"))


def _generate_state(tmp_path_factory, text):
    """A mutated state file of ``generate``: read (a truncated last line dropped) or
    refused with its line, never a traceback."""
    from gyges.puzzles.generate.params import GenerateError, Params
    from gyges.puzzles.generate.state import read_state

    params = Params(2, PRESETS["pbmserv"], 0)
    rec = {"index": 0, "params": params.to_json(), "sound": False, "reasons": ["x"],
           "position": None, "canonical": None, "source": "play", "design": {}}
    seed = "".join(json.dumps({**rec, "index": i}) + "\n" for i in range(3))
    f = _write(tmp_path_factory.mktemp("st"), "s.jsonl", text.draw(mutated(seed)))
    try:
        records = read_state(f, params)
    except GenerateError as e:
        assert str(e).startswith(str(f))
    else:
        assert all(isinstance(i, int) for i in records)


test_generate_state, test_generate_state_long = profiles(
    _generate_state, text=st.data())
