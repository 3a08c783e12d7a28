"""The generation run (gyges.puzzles.generate): the same puzzles whatever the workers and
the interruptions, a catalogue file that keeps a user's text, several runs collected in one
file, the ``gyges generate`` command, and the generated catalogue checked by brute force
(independent of the solver's kernel)."""

from __future__ import annotations

import dataclasses
import json

import pytest
from common import run_gyges

from gyges.game.moves import apply_move, can_land, legal_moves
from gyges.game.position import Position
from gyges.game.rules import PRESETS, Side
from gyges.puzzles.catalogue import load_all, load_catalogue
from gyges.puzzles.catalogue.checking import check_catalogue as checked
from gyges.puzzles.generate import collect, generate_puzzles
from gyges.puzzles.generate.params import Params
from gyges.puzzles.generate.state import read_state
from gyges.puzzles.rating import rate
from gyges.puzzles.symmetry import canonical

RULES = PRESETS["pbmserv"]


def check_catalogue(paths):
    """What ``gyges catalogue check`` does: read every entry, re-prove each one."""
    puzzles, problems = load_all(paths)
    return puzzles, [*problems, *checked(puzzles).problems]


PLAY = Params(2, RULES, seed=11, sources=("play",))


def test_same_puzzles_whatever_jobs_and_accepted_by_the_checker(tmp_path):
    one, two = tmp_path / "one.yaml", tmp_path / "two.yaml"
    s1 = generate_puzzles(PLAY, one, 3, jobs=1)
    s2 = generate_puzzles(PLAY, two, 3, jobs=2)
    assert s1.found == s2.found == 3
    assert one.read_text() == two.read_text()
    puzzles, problems = check_catalogue([one])
    assert len(puzzles) == 3 and problems == []
    for p in puzzles:
        assert p.credit.startswith("composed by gyges generate, seed 11")
        assert p.difficulty == rate(p.position, p.rules, p.stipulation, p.key,
                                    main_line=p.main_line, history=p.history).difficulty


def test_an_interrupted_run_resumes(tmp_path):
    whole = tmp_path / "whole.yaml"
    generate_puzzles(PLAY, whole, 3, jobs=1)
    part = tmp_path / "part.yaml"
    first = generate_puzzles(PLAY, part, 3, jobs=1, max_candidates=4)       # stopped early
    state = tmp_path / "part.yaml.jsonl"
    assert len(read_state(state, PLAY)) == 4 and first.found < 3
    with open(state, "a") as f:
        f.write('{"index": 99, "half a li')                    # killed mid-write
    second = generate_puzzles(PLAY, part, 3, jobs=2)
    assert second.run.resumed == 4
    assert part.read_text() == whole.read_text()
    with pytest.raises(ValueError, match="other parameters"):
        generate_puzzles(dataclasses.replace(PLAY, seed=12), part, 3)


def test_a_resumed_state_with_a_gap_is_judged_again_first(tmp_path):
    """A state file holding enough sound records but missing a lower index (a run with two
    workers interrupted) is not settled: the missing candidate is judged, and the puzzles
    are those of an uninterrupted run."""
    whole = tmp_path / "whole.yaml"
    generate_puzzles(PLAY, whole, 2, jobs=1)
    recs = [json.loads(ln) for ln in (tmp_path / "whole.yaml.jsonl").read_text().splitlines()]
    first_sound = min(r["index"] for r in recs if r["sound"])
    more = generate_puzzles(PLAY, tmp_path / "more.yaml", 4, jobs=1)  # enough sound ones after it
    assert more.found == 4
    state = tmp_path / "gap.yaml.jsonl"
    kept = [ln for ln in (tmp_path / "more.yaml.jsonl").read_text().splitlines()
            if json.loads(ln)["index"] != first_sound]
    state.write_text("\n".join(kept) + "\n")
    again = generate_puzzles(PLAY, tmp_path / "gap.yaml", 2, jobs=1)
    assert again.run.done == 1                              # only the missing one
    assert (tmp_path / "gap.yaml").read_text() == whole.read_text()



def test_cli_words_the_librarys_errors_with_its_options(tmp_path):
    def gen(*args):
        return run_gyges("generate", "--stipulation", "win in 2", "--count", "1", "--seed",
                         "11", "--jobs", "1", "--source", "play", "--quiet", *args)

    r = gen("--against", tmp_path / "none", "--out", tmp_path / "a.yaml")
    assert r.exit_code == 2 and r.output == f"gyges: --against {tmp_path / 'none'}: no such " \
        "file or directory\n"
    (tmp_path / "bad.yaml").write_text("schema: 1\npuzzles: 3\n")
    r = gen("--against", tmp_path / "bad.yaml", "--out", tmp_path / "a.yaml")
    assert r.exit_code == 2 and r.output.endswith(
        "(a catalogue given to --against; fix it, or leave it out)\n")
    (tmp_path / "mine.yaml").write_text("my notes\n")
    r = gen("--against", tmp_path / "bad.yaml", "--out", tmp_path / "mine.yaml")
    assert r.exit_code == 2 and r.output.startswith(f"gyges: {tmp_path / 'mine.yaml'}: exists "
                                                    "and is not a catalogue")
    assert r.output.endswith(": choose another --out, or pass --force to replace it\n")
    state = tmp_path / "b.yaml.jsonl"
    state.write_text(json.dumps({"index": 0, "sound": False, "reasons": ["x"],
                                 "params": dataclasses.replace(PLAY, seed=12).to_json()}) + "\n")
    (tmp_path / "empty.yaml").write_text("schema: 1\npuzzles: []\n")
    r = gen("--against", tmp_path / "empty.yaml", "--out", tmp_path / "b.yaml")
    assert r.exit_code == 2 and " made by a run with other parameters (" in r.output
    assert r.output.endswith("; rerun with those to resume it, or give this run a state file "
                             "of its own with --state (the same --out gains its puzzles), or "
                             "choose another --out\n")


def test_cli_generate(tmp_path):
    out = tmp_path / "g.yaml"
    r = run_gyges("generate", "--stipulation", "win in 2", "--count", "1", "--seed", "11",
                  "--jobs", "1", "--source", "play", "--quiet", "--out", out)
    assert r.exit_code == 0, r.output
    assert "1 puzzle written" in r.output
    r = run_gyges("catalogue", "check", out)
    assert r.exit_code == 0, r.output


@pytest.mark.parametrize("args,message", [
    (["--stipulation", "win in 1"], "choose 2, 3, 4, 5 or 6"),
    (["--stipulation", "win in 7"], "choose 2, 3, 4, 5 or 6"),
    (["--stipulation", "loses in 2"], "write 'win in N'"),
    (["--stipulation", "mate in 2"], "write 'win in N'"),
    (["--stipulation", "win twice"], "write 'win in N'"),
    (["--stipulation", "win in 2", "--themes", "sparkle"], "unknown theme"),
])
def test_cli_bad_input(tmp_path, args, message):
    r = run_gyges("generate", *args, "--out", tmp_path / "x.yaml")
    assert r.exit_code == 2
    assert message in r.output and "Traceback" not in r.output


@pytest.mark.slow
def test_composed_candidates_are_the_same_in_a_pool(tmp_path):
    params = Params(2, RULES, seed=4, sources=("compose",))
    a = generate_puzzles(params, tmp_path / "a.yaml", 1, jobs=1)
    b = generate_puzzles(params, tmp_path / "b.yaml", 1, jobs=2)
    assert a.found == b.found == 1
    assert (tmp_path / "a.yaml").read_text() == (tmp_path / "b.yaml").read_text()
    assert check_catalogue([tmp_path / "a.yaml"])[1] == []


@pytest.mark.slow
def test_a_killed_command_resumes(tmp_path):
    import shutil
    import subprocess
    import time

    if shutil.which("gyges") is None:
        pytest.skip("the gyges command is not installed")
    empty = tmp_path / "empty"
    empty.mkdir()
    args = [shutil.which("gyges"), "generate", "--stipulation", "win in 2",
            "--count", "6", "--seed", "11", "--jobs", "2", "--source", "play", "--quiet",
            "--against", str(empty)]
    whole = subprocess.run([*args, "--out", str(tmp_path / "whole.yaml")], capture_output=True,
                           text=True, timeout=600)
    assert whole.returncode == 0, whole.stderr
    part = tmp_path / "part.yaml"
    proc = subprocess.Popen([*args, "--out", str(part)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    state = tmp_path / "part.yaml.jsonl"
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and (
                not state.exists() or len(state.read_text().splitlines()) < 3):
            time.sleep(0.05)
        proc.terminate()
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    if proc.returncode == 0:
        pytest.skip("the run finished before it could be interrupted")
    assert proc.returncode == 130 and "resume" in err
    again = subprocess.run([*args, "--out", str(part)], capture_output=True, text=True,
                           timeout=600)
    assert again.returncode == 0 and "from an earlier run" in again.stdout
    assert part.read_text() == (tmp_path / "whole.yaml").read_text()


def brute_wins(pos: Position, rules, k: int, hist: list) -> bool:
    """Does the side to move land within ``k`` of its moves, whatever the opponent does?
    Plain minimax over the legal moves; a blocked side is passed over (the MoveList says
    who moves)."""
    me = pos.turn
    ml = legal_moves(pos, rules, hist)
    if not ml.moves:
        return False
    if ml.mover is not me:      # blocked: the opponent moves again
        return all(not d.is_win and brute_wins(apply_move(pos, d), rules, k, [*hist, pos])
                   for d in ml)
    if ml.wins:
        return True
    return k > 1 and any(brute_loses(apply_move(pos, m), rules, k - 1, [*hist, pos], me)
                         for m in ml)


def brute_loses(pos: Position, rules, k: int, hist: list, winner: Side) -> bool:
    """The opponent of ``winner`` to move: does ``winner`` land within ``k`` more moves?"""
    ml = legal_moves(pos, rules, hist)
    if not ml.moves:
        return False
    if ml.mover is winner:      # the defender is blocked: the winner moves again
        return brute_wins(pos.with_turn(winner), rules, k, hist)
    for d in ml:
        if d.is_win:
            return False
        nxt = apply_move(pos, d)
        if k == 1 and not can_land(nxt, rules, [*hist, pos]):
            if legal_moves(nxt, rules, [*hist, pos]).mover is winner:
                return False    # not blocked, and no landing
            if not brute_wins(nxt, rules, 1, [*hist, pos]):
                return False
        elif k > 1 and not brute_wins(nxt, rules, k, [*hist, pos]):
            return False
    return True


def test_generated_catalogue_by_brute_force():
    from gyges.formats.notation import parse_move

    cat = load_catalogue("puzzles/generated.yaml")
    assert len(cat.puzzles) >= 30
    assert len({p.difficulty for p in cat.puzzles}) >= 4
    assert len({canonical(p.position) for p in cat.puzzles}) == len(cat.puzzles)
    assert sum("stalemate chain" in p.themes for p in cat.puzzles) >= 2
    for p in cat.puzzles:
        assert p.credit.startswith("composed by gyges generate, seed")
        k, pos = p.stipulation.moves, p.position
        key = parse_move(p.key, pos, p.rules)
        assert brute_loses(apply_move(pos, key), p.rules, k - 1, [pos], pos.turn), p.id
        assert not brute_wins(pos, p.rules, k - 1, []), p.id      # no shorter win
        if k == 2:                                                 # and no other key
            same = apply_move(pos, key)            # moves are the same when their boards are
            others = [m for m in legal_moves(pos, p.rules) if not m.is_win
                      and apply_move(pos, m) != same
                      and brute_loses(apply_move(pos, m), p.rules, 1, [pos], pos.turn)]
            assert others == [], p.id


def test_a_file_that_is_no_catalogue_is_not_overwritten(tmp_path):
    out = tmp_path / "mine.yaml"
    out.write_text("my notes: keep them\n")
    with pytest.raises(ValueError, match="exists and is not a catalogue"):
        generate_puzzles(PLAY, out, 1)
    assert out.read_text() == "my notes: keep them\n"


def test_an_edited_catalogue_keeps_the_edits_and_gains_puzzles(tmp_path):
    out = tmp_path / "mine.yaml"
    generate_puzzles(PLAY, out, 2, jobs=1)
    first = out.read_text()
    edited = first.replace('title: "Generated puzzles: win in 2"', "# mine\ntitle: My own")
    out.write_text(edited)
    again = generate_puzzles(PLAY, out, 1, jobs=1)  # a smaller --count never shrinks the file
    assert again.found == 1 and out.read_text() == edited
    generate_puzzles(PLAY, out, 3, jobs=1)                    # a larger one appends the new puzzle
    text = out.read_text()
    assert text.startswith(edited) and text.count("- id:") == 3
    assert check_catalogue([out])[1] == []
    generate_puzzles(PLAY, out, 1, jobs=1, force=True)       # --force replaces it
    assert out.read_text().count("- id:") == 1 and "My own" not in out.read_text()


def test_collect_merges_runs_without_duplicates(tmp_path):
    generate_puzzles(PLAY, tmp_path / "a.yaml", 3, jobs=1)
    state = tmp_path / "a.yaml.jsonl"
    other = dataclasses.replace(PLAY, rules=PRESETS["bga"])
    text = collect(tmp_path / "all.yaml", [(PLAY, state, 3), (PLAY, state, 3)])
    assert text.count("- id:") == 3                          # the second run adds nothing
    assert text.startswith("# gyges generate --stipulation 'win in 2' --rules pbmserv "
                           "--seed 11 --count 3 --source play")
    assert check_catalogue([tmp_path / "all.yaml"])[1] == []
    with pytest.raises(ValueError, match="other parameters"):
        collect(tmp_path / "x.yaml", [(other, state, 1)])
