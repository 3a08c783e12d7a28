"""Bad input, command by command: one row per case (the command, the input it is given,
the exit status, a fragment of the one error line), each checked for one ``gyges:`` line,
no traceback, and nothing left behind (no output file, no empty log, no directory).

The cases are those a new user tried: deep YAML nesting and alias bombs in every YAML
reader, unwritable and misnamed outputs, a bogus scheduler, huge values echoed back,
a generated catalogue another run would have replaced, ``--jobs`` beyond the cores."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from common import BOUNCING, DATA, POSITIONS, PUZZLES, START, run_gyges, write

SEEDS = PUZZLES / "seed000.yaml"
DEEP = "[" * 1000 + "]" * 1000
BOMB = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"{chr(98 + i)}: &{chr(98 + i)} [{', '.join(['*' + chr(97 + i)] * 9)}]\n" for i in range(9))
BIG = "x" * (1 << 20)


def files(tmp_path: Path) -> dict[str, Path]:
    """The inputs of the table, written into ``tmp_path``."""
    made = {
        "deep.yaml": DEEP + "\n",
        "deep-list.yaml": "- " + DEEP + "\n",
        "deep-entry.yaml": f"schema: 1\npuzzles:\n- id: a\n  position: {DEEP}\n",
        "bomb.yaml": BOMB,
        "loop.yaml": "a: &a [1, *a]\n",
        "positions.txt": f"{START}\n{BOUNCING}\n",
        "big-value.yaml": f'schema: 1\npuzzles:\n- id: a\n  position: "{BIG}"\n'
                          "  stipulation: win in 1\n",
        "big-id.yaml": f'schema: 1\npuzzles:\n- id: "{BIG}"\n  position: "{BOUNCING}"\n'
                       f"  stipulation: {BIG[:500_000]}\n",
        "empty.yaml": "schema: 1\npuzzles: []\n",
        "game.txt": (DATA / "sample_game.txt").read_text(),
        "empty.txt": "",
    }
    out = {}
    for name, text in made.items():
        (tmp_path / name).write_text(text)
        out[name] = tmp_path / name
    (tmp_path / "binary.bin").write_bytes(bytes(range(256)))
    out["binary.bin"] = tmp_path / "binary.bin"
    (tmp_path / "logdir").mkdir()
    return out


# (id, command with {name} for the files above and {tmp} for the folder, status, fragment)
CASES = [
    ("show-deep", "show {deep.yaml}", 2, "deep.yaml:1: nested deeper than 200 levels"),
    ("moves-deep", "moves {deep.yaml}", 2, "nested deeper than 200 levels"),
    ("solve-deep", "solve {deep.yaml}", 2, "nested deeper than 200 levels"),
    ("solve-list-deep", "solve {deep-list.yaml} --strict", 2, "nested deeper than 200"),
    ("replay-start-deep", "replay {game.txt} --start {deep.yaml}", 2, "nested deeper"),
    ("check-deep", "catalogue check {deep-entry.yaml}", 2, "deep-entry.yaml:4: nested"),
    ("list-deep", "catalogue list {deep.yaml}", 2, "nested deeper than 200 levels"),
    ("export-deep", "export {deep.yaml} --format text --out {tmp}/o.txt", 2, "nested"),
    ("against-deep", "generate --stipulation 'win in 2' --against {deep.yaml} "
     "--out {tmp}/g.yaml", 2, "nested deeper than 200 levels"),
    ("setups-deep", "setups search --file {deep.yaml}", 2, "nested deeper than 200 levels"),
    ("show-bomb", "show {bomb.yaml}", 2, "stand for more than 100,000 values"),
    ("check-bomb", "catalogue check {bomb.yaml}", 2, "stand for more than 100,000 values"),
    ("setups-bomb", "setups search --file {bomb.yaml}", 2, "more than 100,000 values"),
    ("show-loop", "show {loop.yaml}", 2, "the alias *a is inside the value it names"),
    ("export-pdf-html", "export {seeds} --format pdf --out {tmp}/x.html", 2,
     "x.html: a .html name for the pdf book: name it x.pdf, or a directory"),
    ("export-svg-file", "export {seeds} --format svg --out {tmp}/d.svg", 2,
     "the svg diagrams, which go to a directory"),
    ("export-empty", "export {empty.yaml} --format text --out {tmp}/e.txt", 2,
     "no puzzles in the catalogue: nothing to export"),
    ("scheduler-bogus", "solve {positions.txt} --out {tmp}/r.jsonl --log {tmp}/r.log "
     "--scheduler bogus://x", 2, "'bogus://x' is not a scheduler's address"),
    ("scheduler-timeout", "solve {positions.txt} --out {tmp}/r.jsonl --log {tmp}/r.log "
     "--scheduler tcp://127.0.0.1:9", 2, "$GYGES_SCHEDULER_TIMEOUT='abc'"),
    ("analyze-bogus", "setups analyze --depth 1 --south 231123 --north 321123 "
     "--out {tmp}/a.jsonl --scheduler bogus://x", 2, "is not a scheduler's address"),
    ("generate-bogus", "generate --stipulation 'win in 2' --count 1 --out {tmp}/g.yaml "
     "--log {tmp}/g.log --scheduler bogus://x", 2, "is not a scheduler's address"),
    ("log-directory", "solve {positions.txt} --out {tmp}/r.jsonl --log {logdir}", 2,
     "logdir: is a directory: give a file name (--log)"),
    ("analyze-log-directory", "setups analyze --depth 1 --south 231123 --north 321123 "
     "--out {tmp}/a.jsonl --log {logdir}", 2, "is a directory: give a file name (--log)"),
    ("check-big-value", "catalogue check {big-value.yaml}", 2, "(1048576 characters)"),
    ("list-big-id", "catalogue list {big-id.yaml}", 2, "(1048576 characters)"),
    ("export-big-value", "export {big-value.yaml} --format text --out {tmp}/b.txt", 2,
     "(1048576 characters)"),
    ("tree-one-position", f"solve '{BOUNCING}' --tree", 2, "--tree: is for a position list"),
    ("jobs-zero", "generate --stipulation 'win in 2' --jobs 0 --out {tmp}/g.yaml", 2,
     "--jobs: 0: use at least one worker"),
    ("name-too-long", "show " + "x/" * 5000, 2, "bad position string"),
    ("check-name-too-long", "catalogue check " + "x/" * 5000, 2, "File name too long"),
    # An output path that is no regular file is refused before any work (it was read back
    # to resume, without end: /dev/zero ate all memory).
    ("solve-out-device", "solve {positions.txt} --out /dev/full -q", 2,
     "/dev/full: is not a regular file (a device, a pipe or a socket): give the name of a "
     "file (--out)"),
    ("solve-out-zero", f"solve '{BOUNCING}' --out /dev/zero", 2, "/dev/zero: is not a regular"),
    ("solve-log-device", "solve {positions.txt} --out {tmp}/r.jsonl --log /dev/full", 2,
     "/dev/full: is not a regular file (a device, a pipe or a socket): give the name of a "
     "file (--log)"),
    ("analyze-out-device", "setups analyze --depth 1 --south 231123 --north 321123 "
     "--out /dev/full", 2, "/dev/full: is not a regular file"),
    ("add-to-device", f"catalogue add '{BOUNCING}' --to /dev/zero --id x", 2,
     "/dev/zero: is not a regular file"),
    ("add-against-missing", f"catalogue add '{BOUNCING}' --to {{tmp}}/x.yaml --id x "
     "--against {tmp}/none.yaml", 2, "--against "),
    ("add-against-deep", f"catalogue add '{BOUNCING}' --to {{tmp}}/x.yaml --id x "
     "--against {deep.yaml}", 2, "nested deeper than 200 levels"),
    ("add-shipped", f"catalogue add '{BOUNCING}' --to {{tmp}}/x.yaml --id x --against {{seeds}}",
     2, "this position is already puzzle seed000-bouncing"),
    ("match-out-device", "match builtin:nodes=100 builtin:nodes=100 --games 2 "
     "--out /dev/zero", 2, "/dev/zero: is not a regular file"),
    ("rank-out-device", "setups rank --games 2 --nodes 100 --out /dev/zero", 2,
     "/dev/zero: is not a regular file"),
    ("generate-out-device", "generate --stipulation 'win in 2' --count 1 --out /dev/zero", 2,
     "/dev/zero: is not a regular file"),
    ("show-empty-file", "show {empty.txt}", 2, "empty.txt: the file is empty: give a "
     "position string"),
    ("solve-empty-file", "solve {empty.txt}", 2, "empty.txt: the file is empty"),
    # Limits a search cannot take: infinite or too large (an OverflowError before).
    ("analyse-time-inf", f"analyse '{START}' --time inf", 2, "inf is not in the range"),
    ("analyse-time-nan", f"analyse '{START}' --time nan", 2, "the time limit must be"),
    ("analyse-nodes-huge", f"analyse '{START}' --nodes 18446744073709551616", 2,
     "is not in the range 1<=x<=18446744073709551615"),
    ("review-nodes-huge", "review {game.txt} --nodes 18446744073709551616", 2,
     "is not in the range"),
    ("match-spec-nodes-huge", "match builtin builtin:nodes=18446744073709551616 --games 2 "
     "--out {tmp}/m.jsonl", 2, "the node limit must be 1..18446744073709551615"),
    ("match-spec-time-inf", "match builtin builtin:time=inf --games 2 --out {tmp}/m.jsonl",
     2, "the time limit must be more than 0 and at most 1,000,000 seconds"),
    ("rank-nodes-huge", "setups rank --games 2 --nodes 18446744073709551616 "
     "--out {tmp}/r.jsonl", 2, "is not in the range"),
    ("generate-out-empty", "generate --stipulation 'win in 2' --count 1 --out ''", 2,
     "--out: an empty file name"),
    ("match-record-file", "match builtin:nodes=100 builtin:nodes=100 --games 2 "
     "--out {tmp}/m.jsonl --record {game.txt}", 2,
     "game.txt: is not a directory: give a directory for the files (--record)"),
    ("weights-binary", f"analyse '{START}' --depth 1 --weights {{binary.bin}}", 2,
     "not a weights file: it is not text"),
    ("search-north-unused", "setups search --side south --north 321123", 2,
     "north: a fixed setup changes nothing here"),
    ("review-puzzles-device", "review {game.txt} --puzzles /dev/zero", 2,
     "/dev/zero: is not a regular file"),
]


@pytest.mark.parametrize("case, command, status, fragment", CASES, ids=[c[0] for c in CASES])
def test_bad_input_is_one_line(tmp_path, case, command, status, fragment):
    import shlex

    names = {k: str(v) for k, v in files(tmp_path).items()}
    names.update(tmp=str(tmp_path), seeds=str(SEEDS), logdir=str(tmp_path / "logdir"))
    for name, value in names.items():
        command = command.replace("{" + name + "}", value)
    args = shlex.split(command)
    before = set(os.listdir(tmp_path))
    env = {"GYGES_SCHEDULER_TIMEOUT": "abc"} if case == "scheduler-timeout" else None
    r = run_gyges(*args, env=env)
    assert r.exit_code == status, r.output
    errors = [line for line in r.stderr.splitlines() if line.startswith("gyges:")]
    assert r.exception is None or isinstance(r.exception, SystemExit), r.exception
    assert "Traceback" not in r.output
    assert any(fragment in line for line in errors), r.stderr
    assert all(line.startswith("gyges:") for line in r.stderr.splitlines()
               if not line.startswith("[")), r.stderr     # a progress bar aside
    assert len(r.stderr) < 2000                            # an excerpt, never the input
    assert set(os.listdir(tmp_path)) == before             # nothing left behind


def test_a_long_error_line_is_cut_but_a_path_is_not(tmp_path):
    from gyges.formats.quoting import shorten

    path = "/tmp/pytest-of-root/pytest-1/test_a_long_name_of_a_test_that_makes_a_path0/x.yaml"
    assert shorten(f"{path}: bad") == f"{path}: bad"
    assert shorten("'" + "y" * 500 + "'") == "'" + "y" * 57 + "... (500 characters)'"


def test_an_unwritable_folder_is_refused_before_the_work(tmp_path, monkeypatch):
    """catalogue add and review --puzzles check their file before solving (as root a
    read-only folder is writable: os.access stands in for it)."""
    import gyges.puzzles.review.game_review as review

    ro = tmp_path / "RO"
    ro.mkdir()
    real = os.access
    monkeypatch.setattr(os, "access", lambda p, mode, *a, **k: False
                        if Path(p) == ro and mode == os.W_OK else real(p, mode, *a, **k))
    monkeypatch.setattr(review, "review_game", lambda *a, **k: pytest.fail("reviewed"))
    r = run_gyges("catalogue", "add", POSITIONS / "bouncing.yaml", "--to", ro / "x.yaml",
              "--id", "x")
    assert r.exit_code == 2 and r.stderr == (
        f"gyges: {ro / 'x.yaml'}: cannot create it: {ro} is not writable\n")
    r = run_gyges("review", DATA / "sample_game.txt", "--puzzles", ro / "x.yaml")
    assert r.exit_code == 2 and r.stderr == (
        f"gyges: {ro / 'x.yaml'}: cannot create it: {ro} is not writable (--puzzles)\n")
    assert os.listdir(ro) == []


def test_a_write_that_fails_names_the_file_and_leaves_nothing(tmp_path, monkeypatch):
    import tempfile

    from gyges.output import OutputError, write_atomic

    def refused(*args, **kwargs):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(tempfile, "mkstemp", refused)
    with pytest.raises(OutputError, match=r"x\.yaml: cannot write it: Permission denied$"):
        write_atomic(tmp_path / "x.yaml", "a: 1\n")
    assert os.listdir(tmp_path) == []


def test_one_position_file_or_diagram_with_out_is_a_one_entry_list(tmp_path):
    for source in (POSITIONS / "bouncing.yaml", POSITIONS / "stalemate.txt"):
        out = tmp_path / f"{source.stem}.jsonl"
        r = run_gyges("solve", source, "--out", out, "-n", "1", "-q")
        assert r.exit_code == 0, r.output
        assert len(out.read_text().splitlines()) == 1 and "1 position:" in r.stdout


def test_jobs_beyond_the_cores_are_capped_with_a_note_by_every_command(tmp_path):
    cores = os.cpu_count() or 1
    note = f"gyges: --jobs 99: this machine has {cores} core{'s' if cores != 1 else ''}; " \
        f"using {cores}\n"
    r = run_gyges("solve", BOUNCING, "-n", "1", "--jobs", "99")
    assert r.exit_code == 0 and r.stderr == note
    r = run_gyges("setups", "analyze", "--depth", "1", "--south", "231123", "--north", "321123",
              "--out", tmp_path / "a.jsonl", "--jobs", "99", "-q")
    assert r.exit_code == 0 and r.stderr.startswith(note)
    for command in (["solve"], ["setups", "analyze"], ["generate"]):
        text = run_gyges(*command, "--help").output
        assert "more is capped at the cores" in " ".join(text.split()), command


def test_generate_never_replaces_a_catalogue_with_puzzles(tmp_path):
    out = tmp_path / "w.yaml"
    args = ["generate", "--stipulation", "win in 2", "--out", out, "-q", "--jobs", "1"]
    r = run_gyges(*args, "--count", "1", "--seed", "1")
    assert r.exit_code == 0, r.output
    first = [line for line in out.read_text().splitlines() if "- id:" in line]
    (tmp_path / "w.yaml.jsonl").unlink()                 # the state file gone
    r = run_gyges(*args, "--count", "1", "--seed", "5")
    assert r.exit_code == 0, r.output
    ids = [line for line in out.read_text().splitlines() if "- id:" in line]
    assert ids[: len(first)] == first and len(ids) == len(first) + 1
    assert run_gyges("catalogue", "check", out, "-q").exit_code == 0


def test_an_interrupted_generate_keeps_the_count_asked_in_its_header(tmp_path):
    from gyges.game.rules import PRESETS
    from gyges.puzzles.generate.entries import catalogue_text
    from gyges.puzzles.generate.params import Params

    text = catalogue_text([(Params(2, PRESETS["pbmserv"], 0), [])], counts=[5])
    assert text.startswith("# gyges generate --stipulation 'win in 2' --rules pbmserv "
                           "--seed 0 --count 5\n")


def test_analyze_jobs_beyond_the_cores_are_capped(tmp_path):
    cores = os.cpu_count() or 1
    r = run_gyges("setups", "analyze", "--south", "231123", "--north", "321123", "--depth",
                  "1", "-q", "--jobs", "200", "--out", tmp_path / "a.jsonl")
    assert r.exit_code == 0
    assert f"--jobs 200: this machine has {cores} core" in r.output


# -- options and the files they name, checked before any work -------------------------------


@pytest.mark.parametrize(("args", "message"), [
    (["generate", "--stipulation", "win in 2", "--max-candidates", "0", "--out", "q.yaml"],
     "--max-candidates: 0: give at least 1"),
    (["setups", "report", "x.jsonl", "--top", "-5"], "-5 is not in the range"),
    (["show", ""], "an empty argument"),
    (["generate", "--stipulation", "mate in 2", "--out", "q.yaml"], "write 'win in N'"),
    (["show", START, "--rules", ""], "an empty preset name"),
], ids=["max-candidates-zero", "top-negative", "empty-position", "mate-in-2", "empty-rules"])
def test_an_option_out_of_its_range_is_bad_input(workdir, args, message):
    r = run_gyges(*args)
    assert r.exit_code == 2 and message in r.output, r.output
    assert "is a directory" not in r.output


def test_generate_negative_max_candidates_is_bad_input_and_leaves_no_file(tmp_path):
    r = run_gyges("generate", "--stipulation", "win in 2", "--max-candidates", "-5",
                  "--out", tmp_path / "q.yaml")
    assert r.exit_code == 2 and not (tmp_path / "q.yaml").exists()


def test_analyze_depth_31_is_bad_input_and_leaves_no_file(tmp_path):
    out = tmp_path / "x.jsonl"
    r = run_gyges("setups", "analyze", "--depth", "31", "--south", "231123", "--north",
                  "112233", "--out", out)
    assert r.exit_code == 2 and "Traceback" not in r.output and "1<=x<=30" in r.output
    assert not out.exists()


def test_empty_rules_is_not_pbmserv():
    r = run_gyges("show", str(POSITIONS / "taboo-dorbec.yaml"), "--rules", "")
    assert r.exit_code == 2 and "empty preset" in r.output


def test_generate_against_a_missing_or_malformed_file_is_bad_input(tmp_path):
    for against, message in ((tmp_path / "nonexist.yaml", "no such file"),
                             (write(tmp_path / "bad.yaml", "puzzles: [\n"), "malformed YAML")):
        r = run_gyges("generate", "--stipulation", "win in 2", "--against", against,
                      "--out", tmp_path / "g.yaml")
        assert r.exit_code == 2 and message in r.output, r.output
        assert not (tmp_path / "g.yaml").exists()


@pytest.mark.parametrize("content", [b"\x7fELF\x02\x01\x01\x00" * 50, b"", b"\n\n",
                                     b"hello world"],
                         ids=["binary", "empty", "blank-lines", "text"])
def test_report_on_a_file_without_records_is_bad_input(tmp_path, content):
    path = tmp_path / "x.jsonl"
    path.write_bytes(content)
    r = run_gyges("setups", "report", path)
    assert r.exit_code == 2 and "Traceback" not in r.output, r.output


def test_an_output_that_is_the_standard_output_is_refused(tmp_path):
    """``--out /dev/stdout``: a pipe is no regular file, and a file stdout is redirected
    to would get the table written over the records; both refused before any work."""
    import subprocess

    args = ["gyges", "solve", BOUNCING, "--out", "/dev/stdout", "-q"]
    piped = subprocess.run(args, capture_output=True, text=True, timeout=120)
    assert piped.returncode == 2 and "is not a regular file" in piped.stderr, piped.stderr
    redirected = tmp_path / "out.txt"
    with open(redirected, "w") as f:
        r = subprocess.run(args, stdout=f, stderr=subprocess.PIPE, text=True, timeout=120)
    assert r.returncode == 2, r.stderr
    assert r.stderr == "gyges: /dev/stdout: is this command's standard output: give the " \
                       "name of a file (--out)\n"
    assert redirected.read_text() == ""


BOM = "\ufeff"


@pytest.mark.parametrize("kind", ["position list", "game record", "diagram", "position string"])
def test_a_byte_order_mark_is_read_as_nothing(tmp_path, kind):
    """Notepad starts a UTF-8 file with a byte-order mark: every text input reads it as if
    it were not there (YAML files always did)."""
    from gyges.formats.diagram import format_diagram
    from gyges.game.position import Position

    if kind == "position list":
        text, command = f"{BOUNCING}\n{START} max-moves=1\n", ["solve"]
    elif kind == "game record":
        text, command = (DATA / "sample_game.txt").read_text(), ["replay"]
    elif kind == "diagram":
        text, command = format_diagram(Position.from_string(BOUNCING)) + "\n", ["show"]
    else:
        text, command = BOUNCING + "\n", ["show"]
    plain = write(tmp_path / "plain.txt", text)
    marked = tmp_path / "marked.txt"
    marked.write_bytes(BOM.encode("utf-8") + text.encode("utf-8"))
    want = run_gyges(*command, plain)
    got = run_gyges(*command, marked)
    assert want.exit_code == 0, want.output
    assert (got.exit_code, got.stdout) == (0, want.stdout.replace(str(plain), str(marked)))


def test_a_review_is_printed_before_its_puzzles_are_refused(tmp_path):
    """``review --puzzles FILE`` twice: the second run cannot add the same puzzles, and
    says so after printing the review (the work is not thrown away)."""
    found = tmp_path / "found.yaml"
    game = DATA / "sample_game.txt"
    first = run_gyges("review", game, "--puzzles", found, "--depth", "2")
    assert first.exit_code == 0, first.output
    again = run_gyges("review", game, "--puzzles", found, "--depth", "2")
    assert again.exit_code == 2
    review = first.stdout.split("added ")[0]
    assert review and again.stdout == review
    assert again.stderr.startswith(f"gyges: {found}: puzzle ") and "already there" in again.stderr
