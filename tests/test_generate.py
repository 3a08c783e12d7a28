"""Puzzle generation: soundness filter, rating, dedup, CP-SAT construction, determinism,
resuming, and the catalogue checker on the output."""

from __future__ import annotations

import dataclasses
import json
import random

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from gyges.game.moves import apply_move, can_land, legal_moves
from gyges.game.position import Position
from gyges.game.rules import PRESETS, Side
from gyges.puzzles.catalogue import check_puzzle, load_all, load_catalogue
from gyges.puzzles.compose import Design, construct, draw_path
from gyges.puzzles.generate import (
    PLAY_WAY,
    WALK_THREATS,
    Features,
    Params,
    _moves_that_win,
    assess,
    candidate,
    candidate_seed,
    canonical,
    flipped,
    known_positions,
    plausible_moves,
    play_candidate,
    rating,
    read_state,
    run,
    select,
)
from gyges.search._search import Searcher
from gyges.search.prover import solve, win_in
from gyges.search.tree import node_from_json
from gyges_cli.main import cli

RULES = PRESETS["pbmserv"]


def wins_in_two_by(pos: Position, move) -> bool:
    """Independent of the solver: after ``move`` every reply leaves the mover a landing."""
    if move.is_win:
        return False
    me = pos.turn
    after = apply_move(pos, move)
    replies = legal_moves(after, RULES, [pos])
    if replies.mover is me:  # the opponent is blocked: the mover plays again at once
        return bool(replies.wins)
    if not replies.moves:
        return False
    for r in replies:
        if r.is_win:
            return False
        nxt = apply_move(after, r)
        if not can_land(nxt, RULES, [pos, after]):
            return False
    return True


# -- soundness -------------------------------------------------------------------------------


def test_a_cooked_position_is_rejected():
    pos = Position.from_string("2.3.31/...2.3/1...../.3..../.....1/.1..22 N")
    assert not can_land(pos, RULES)
    keys = [m for m in legal_moves(pos, RULES) if wins_in_two_by(pos, m)]
    assert len(keys) >= 2                       # two first moves win in 2: a cook
    a = assess(pos, RULES, 2)
    assert not a.sound and a.reasons[0].startswith("cooked")


def test_a_trivial_position_is_rejected():
    pos = Position.from_string("...331/1.2222/.....3/.....1/....../3.1... N")
    keys = [m for m in legal_moves(pos, RULES) if wins_in_two_by(pos, m)]
    assert len(keys) == 1                       # one key, a win in exactly 2 ...
    threats = [m for m in legal_moves(pos, RULES)
               if not can_land(apply_move(pos, m), RULES, [pos])
               and can_land(apply_move(pos, m).with_turn(Side.NORTH), RULES, [pos])]
    assert threats == keys                      # ... but the only move that threatens to land
    a = assess(pos, RULES, 2)
    assert not a.sound
    assert "the key is the only move that threatens to land" in a.reasons


def test_wrong_length_is_rejected():
    pos = Position.from_string("321..2/1...../....../2....2/...3../.331.1 S")
    assert not assess(pos, RULES, 3).sound          # a win in 2 is not a win in 3
    assert assess(pos, RULES, 2).sound


def test_a_sound_puzzle_and_what_it_records():
    pos = Position.from_string("321..2/1...../....../2....2/...3../.331.1 S")
    keys = [m for m in legal_moves(pos, RULES) if wins_in_two_by(pos, m)]
    assert len(keys) == 1 and not can_land(pos, RULES)
    a = assess(pos, RULES, 2)
    assert a.sound and a.key == str(keys[0])
    assert a.main_line[0] == a.key and a.main_line[-1].endswith("-N")
    assert a.features.key_bounces == keys[0].bounces
    assert a.threats >= 2 and 1 <= a.rating.difficulty <= 5
    assert any(t.startswith("bounce chain") for t in a.themes)


def test_duals_are_a_flaw_unless_refused():
    # stub solver answers: a proven win in 2 with one key, and a tree with a dual
    pos = Position.from_string("321..2/1...../....../2....2/...3../.331.1 S")
    from gyges.search.prover import solve as real

    def dual_solve(*args, **kwargs):
        sol = real(*args, **kwargs)
        if sol.tree and sol.moves == 2 and kwargs.get("tries"):
            tree = json.loads(json.dumps(sol.tree.to_json()))
            reply = tree["after"]["defences"][0]["reply"]
            reply.update(moves_left=2, dual=True, moves=["a", "b"])
            sol = dataclasses.replace(sol, tree=node_from_json(tree))
        return sol

    kept = assess(pos, RULES, 2, solve=dual_solve)
    assert kept.sound and kept.duals
    refused = assess(pos, RULES, 2, solve=dual_solve, no_duals=True)
    assert not refused.sound and refused.reasons[0].startswith("duals")


# -- rating ----------------------------------------------------------------------------------

features = st.builds(Features, moves=st.integers(2, 4), single_tries=st.integers(0, 10),
                     defences=st.integers(0, 60), key_bounces=st.integers(0, 6),
                     quiet=st.booleans(), nodes=st.integers(0, 10**7))


@settings(max_examples=300, deadline=None)
@given(features, st.sampled_from(["moves", "single_tries", "defences", "key_bounces",
                                  "quiet", "nodes"]), st.integers(1, 5))
def test_rating_is_monotone(f, field, step):
    if field == "quiet":
        harder = dataclasses.replace(f, quiet=True)
    else:
        harder = dataclasses.replace(f, **{field: getattr(f, field) + step})
    assert rating(harder).score >= rating(f).score
    assert rating(harder).difficulty >= rating(f).difficulty


def test_rating_spans_the_scale():
    easy = Features(2, 0, 1, 0, False, 10)
    hard = Features(3, 5, 40, 4, True, 10**6)
    assert rating(easy).difficulty == 1 and rating(hard).difficulty == 5


# -- duplicates ------------------------------------------------------------------------------


def test_mirror_and_flip_give_one_canonical_form():
    pos = Position.from_string("321..2/1...../....../2....2/...3../.331.1 S")
    images = {pos, pos.mirrored(), flipped(pos), flipped(pos).mirrored()}
    assert len(images) == 4
    assert {canonical(p) for p in images} == {canonical(pos)}
    # the flipped puzzle is the same puzzle for the other side
    a, b = assess(pos, RULES, 2), assess(flipped(pos), RULES, 2)
    assert a.sound and b.sound and a.features.defences == b.features.defences


def test_select_drops_duplicates_and_known_positions():
    pos = Position.from_string("321..2/1...../....../2....2/...3../.331.1 S")
    other = Position.from_string("2..3.3/....../....1./....13/.3..../212.12 S")
    recs = {i: {"index": i, "sound": True, "canonical": canonical(p)}
            for i, p in enumerate([pos, pos.mirrored(), other, flipped(pos)])}
    assert [r["index"] for r in select(recs, 10)] == [0, 2]
    assert [r["index"] for r in select(recs, 10, {canonical(other)})] == [0]
    assert [r["index"] for r in select(recs, 1)] == [0]


def test_known_positions_reads_the_catalogue(tmp_path):
    known = known_positions(["puzzles"], RULES)
    cat = load_catalogue("puzzles/seed000.yaml")
    assert any(canonical(p.position.mirrored()) in known for p in cat.puzzles
               if p.rules == RULES)


# -- CP-SAT construction ---------------------------------------------------------------------


@pytest.mark.parametrize("bounces,key", [(0, "plain"), (1, "relocation"), (2, "plain")])
def test_construction_has_the_designed_bounces(bounces, key):
    design = Design(bounces=bounces, key=key)
    built = construct(design, RULES, random.Random(bounces))
    assert built is not None
    pos, key_move, landing = built
    assert counts(pos) == {1: 4, 2: 4, 3: 4}
    assert key_move.is_replace == (key == "relocation")
    assert not can_land(pos, RULES)
    legal = legal_moves(pos, RULES)
    assert key_move in legal.moves
    after = apply_move(pos, key_move)
    assert not can_land(after, RULES, [pos])
    threats = legal_moves(after.with_turn(Side.SOUTH), RULES, [pos]).wins
    assert landing in threats
    assert min(m.bounces for m in threats) == bounces == landing.bounces


def test_drawn_paths_cross_when_asked():
    path = draw_path(Design(bounces=2, crossing=True), random.Random(1))
    entered = [t for w in path for t in w[1:]]
    assert len(set(entered)) < len(entered)
    edges = [frozenset(e) for w in path for e in zip(w, w[1:], strict=False)]
    assert len(set(edges)) == len(edges)


def test_construction_of_a_stalemate_chain():
    from gyges.formats.notation import format_turn
    from gyges.puzzles.catalogue import Stipulation, line_themes, play_line

    design = Design(bounces=1, stalemate=True, defenders=3)
    built = construct(design, RULES, random.Random(1))
    assert built is not None
    pos, key_move, landing = built
    assert counts(pos) == {1: 4, 2: 4, 3: 4}
    assert not can_land(pos, RULES) and key_move in legal_moves(pos, RULES).moves
    after = apply_move(pos, key_move)
    replies = legal_moves(after, RULES, [pos])
    assert replies.mover is Side.SOUTH              # North has no legal move: South again
    assert not legal_moves(after, PRESETS["bga"], [pos]).moves   # (bga: blocked = draw)
    assert after.shore(Side.NORTH) == 6             # the jammed shore: twos and threes only
    assert {after.board[s] for s in range(30, 36)} <= {0, 2, 3}
    assert landing in replies.wins and landing.bounces == 1
    turn = format_turn([key_move, landing])
    assert "; " in turn and turn.endswith("-N")
    line = play_line(pos, RULES, [turn])            # the checker's reader takes the turn
    assert line.moves[0].side is line.moves[1].side is Side.SOUTH
    assert "stalemate chain" in line_themes(line, RULES, Stipulation("win", 2, Side.SOUTH))


def test_stalemate_designs_only_when_asked_and_blocked_passes():
    from gyges.puzzles.compose import ComposeError, draw_design

    rng = random.Random(5)
    assert not any(draw_design(rng, (), RULES).stalemate for _ in range(50))
    d = draw_design(rng, ("stalemate chain",), RULES)
    assert d.stalemate and d.bounces >= 1 and d.defenders >= 3
    assert not draw_design(rng, ("stalemate chain",), PRESETS["bga"]).stalemate
    with pytest.raises(ComposeError):
        Design(bounces=0, stalemate=True, defenders=3)


def check_catalogue(paths):
    """What ``gyges catalogue check`` does: read every entry, re-prove each one."""
    puzzles, problems = load_all(paths)
    for p in puzzles:
        problems.extend(check_puzzle(p))
    return puzzles, problems


def counts(pos: Position) -> dict[int, int]:
    return {v: sum(1 for x in pos.board if x == v) for v in (1, 2, 3)}


# -- runs ------------------------------------------------------------------------------------


PLAY = Params(2, RULES, seed=11, sources=("play",))


def test_candidates_depend_only_on_seed_and_index():
    assert candidate(5, PLAY) == candidate(5, PLAY)
    assert candidate(5, PLAY)[1] != candidate(6, PLAY)[1]


def test_same_puzzles_whatever_jobs_and_accepted_by_the_checker(tmp_path):
    one, two = tmp_path / "one.yaml", tmp_path / "two.yaml"
    s1 = run(PLAY, one, 3, jobs=1)
    s2 = run(PLAY, two, 3, jobs=2)
    assert s1["found"] == s2["found"] == 3
    assert one.read_text() == two.read_text()
    puzzles, problems = check_catalogue([one])
    assert len(puzzles) == 3 and problems == []
    for p in puzzles:
        assert p.credit.startswith("composed by gyges generate, seed 11")
        assert p.difficulty is not None and p.key


def test_an_interrupted_run_resumes(tmp_path):
    whole = tmp_path / "whole.yaml"
    run(PLAY, whole, 3, jobs=1)
    part = tmp_path / "part.yaml"
    first = run(PLAY, part, 3, jobs=1, max_candidates=4)       # stopped early
    state = tmp_path / "part.yaml.jsonl"
    assert len(read_state(state, PLAY)) == 4 and first["found"] < 3
    with open(state, "a") as f:
        f.write('{"index": 99, "half a li')                    # killed mid-write
    second = run(PLAY, part, 3, jobs=2)
    assert second["resumed"] == 4
    assert part.read_text() == whole.read_text()
    with pytest.raises(ValueError, match="other parameters"):
        run(dataclasses.replace(PLAY, seed=12), part, 3)


def test_a_resumed_state_with_a_gap_is_judged_again_first(tmp_path):
    """A state file holding enough sound records but missing a lower index (a run with two
    workers interrupted) is not settled: the missing candidate is judged, and the puzzles
    are those of an uninterrupted run."""
    whole = tmp_path / "whole.yaml"
    run(PLAY, whole, 2, jobs=1)
    recs = [json.loads(ln) for ln in (tmp_path / "whole.yaml.jsonl").read_text().splitlines()]
    first_sound = min(r["index"] for r in recs if r["sound"])
    more = run(PLAY, tmp_path / "more.yaml", 4, jobs=1)        # enough sound ones after it
    assert more["found"] == 4
    state = tmp_path / "gap.yaml.jsonl"
    kept = [ln for ln in (tmp_path / "more.yaml.jsonl").read_text().splitlines()
            if json.loads(ln)["index"] != first_sound]
    state.write_text("\n".join(kept) + "\n")
    again = run(PLAY, tmp_path / "gap.yaml", 2, jobs=1)
    assert again["candidates"] == 1                            # only the missing one
    assert (tmp_path / "gap.yaml").read_text() == whole.read_text()


DEEP = Params(4, RULES.with_options({"repetition": "allowed"}), seed=42, sources=("play",))


@pytest.mark.parametrize("index, position", [
    (4, "2..2../..1..3/.....2/....31/1...31/2....3 S"),
    (13, "....13/....3./.2.2../....../3..123/..2.11 S"),
])
def test_walk_back_candidates_are_exact_wins_fixed_by_seed_and_index(index, position):
    """A win-in-4 candidate (found by walking back from a side's first win in 2) is
    the same for the same seed and index, and an exact win in 4: fresh searches (no table
    shared with the walk) find a win in 4 and none in 3."""
    src, pos, _ = candidate(index, DEEP)
    assert src == "play" and str(pos) == position
    assert not legal_moves(pos, DEEP.rules).wins
    assert win_in(pos, DEEP.rules, 4) and not win_in(pos, DEEP.rules, 3)
    sol = solve(pos, DEEP.rules, max_moves=4, tree=False, max_keys=1)
    assert (sol.result, sol.moves) == ("win", 4)


def test_deep_walk_back_gives_exact_wins_only():
    """Every candidate the walk returns (from the fifth ply on, the side to move not able to
    land at once) is an exact win in 4, under the Renop law too; lines without one give
    None."""
    found = 0
    for rules, seed, indices in ((DEEP.rules, 42, (14, 17, 20)), (RULES, 7, (44, 48, 52))):
        for index in indices:
            rng = random.Random(candidate_seed(seed, index))
            pos = play_candidate(rng, rules, 4)
            if pos is None:
                continue
            found += 1
            assert not legal_moves(pos, rules).wins
            assert win_in(pos, rules, 4) and not win_in(pos, rules, 3)
    assert found == 4


@pytest.mark.parametrize("text, n, wins", [
    (".3.3.3/112232/...1.2/...1../....../...... S", 2, 2),    # seed 000: 15 keys, a cook
    ("321.../.1..../2..1../2...3./..2.../33...1 S", 2, 1),    # a sound win in 2
    ("321.../.1..../2..1../2...3./..2.../33...1 S", 1, 0),
])
@pytest.mark.parametrize("kind", ["kernel", "dfpn"])
def test_the_walk_counts_winning_moves_up_to_two(text, n, wins, kind):
    """The walk asks the move the game played and the threats whether they win within N,
    and stops at two (a cook: the game goes on); df-pn asks them together (the position
    less every other move). Each played move gives the count of fresh searches of those
    moves."""
    from gyges.search._dfpn import DfpnSearcher

    walker = Searcher if kind == "kernel" else DfpnSearcher
    pos = Position.from_string(text)
    me = pos.turn.index
    threats = plausible_moves(pos, RULES)[:WALK_THREATS]
    seen = set()
    for played in legal_moves(pos, RULES).moves[:12]:
        if played.is_win:
            continue
        asked = {apply_move(pos, m).key for m in [played, *threats]}
        by_hand = sum(Searcher(RULES.flags()).win(b, 1 - me, me, n - 1, [pos.key])
                      for b in asked)
        got = _moves_that_win(pos, apply_move(pos, played), RULES, n, walker(RULES.flags()))
        assert got == min(by_hand, 2)
        seen.add(got)
    assert seen == {wins}


@pytest.mark.parametrize("rules", [RULES, DEEP.rules])
def test_win_in_3_candidates_walk_back_to_exact_wins(rules):
    """Wins in 3 are found by walking back from a side's first win in 2 too: each
    candidate the walk returns is an exact win in 3 by fresh searches, and most lines give
    one (asking for a win in 3 at every ply was most of a win-in-3 run)."""
    found = 0
    for index in range(12):
        pos = play_candidate(random.Random(candidate_seed(5, index)), rules, 3)
        if pos is None:
            continue
        found += 1
        assert not legal_moves(pos, rules).wins
        assert win_in(pos, rules, 3) and not win_in(pos, rules, 2)
    assert found >= 4


@pytest.mark.parametrize("kind", ["kernel", "dfpn"])
@pytest.mark.parametrize("rules", [RULES, DEEP.rules, PRESETS["bga"]])
def test_win_in_with_a_kept_searcher_answers_as_fresh_searches(rules, kind):
    """One searcher asked along a game line (as the walk does: the kernel for a win in 3,
    df-pn deeper) gives the answers of a fresh search per question."""
    from gyges.game.moves import Game
    from gyges.search._dfpn import DfpnSearcher

    rng = random.Random(3)
    game = Game(Position.setup("123321", "231132"))
    kept = (Searcher if kind == "kernel" else DfpnSearcher)(rules.flags())
    asked = yes = 0
    for _ in range(14):
        ml = game.legal_moves(rules)
        if not ml.moves or ml.wins:
            break
        pos = game.position
        for d in (3, 1, 2):
            answer = win_in(pos, rules, d)
            assert win_in(pos, rules, d, searcher=kept) == answer
            asked += 1
            yes += answer
        safe = [m for m in ml if not game.play(m).can_land(rules)]
        game = game.play(rng.choice(safe or list(ml.moves)))
    assert asked >= 30 and 0 < yes < asked


@pytest.mark.parametrize("params", [PLAY, dataclasses.replace(PLAY, moves=3), DEEP])
def test_play_runs_do_not_resume_state_files_of_earlier_candidates(tmp_path, params):
    """Play candidates changed (walking back, the safe move drawn lazily, a cooked walk
    played on, fewer threats asked): a state file of an earlier way (no mark,
    "walk-back", "walk-back 2", "walk-back 3") is refused, for every stipulation; a run
    with no play candidates carries no mark (its candidates are unchanged)."""
    assert params.to_json()["play"] == PLAY_WAY
    assert "play" not in dataclasses.replace(params, sources=("compose",)).to_json()
    for earlier in (None, "walk-back", "walk-back 2", "walk-back 3"):
        old = {**params.to_json()}
        del old["play"]
        if earlier is not None:
            old["play"] = earlier
        state = tmp_path / "old.jsonl"
        state.write_text(json.dumps({"index": 0, "sound": False, "reasons": ["x"],
                                     "params": old}) + "\n")
        with pytest.raises(ValueError, match="other parameters"):
            read_state(state, params)


def test_cli_generate(tmp_path):
    out = tmp_path / "g.yaml"
    r = CliRunner().invoke(cli, ["generate", "--stipulation", "win in 2", "--count", "1",
                                 "--seed", "11", "--jobs", "1", "--source", "play", "--quiet",
                                 "--out", str(out)])
    assert r.exit_code == 0, r.output
    assert "1 puzzle written" in r.output
    r = CliRunner().invoke(cli, ["catalogue", "check", str(out)])
    assert r.exit_code == 0, r.output


@pytest.mark.parametrize("args,message", [
    (["--stipulation", "win in 1"], "choose 2, 3, 4 or 5"),
    (["--stipulation", "win in 6"], "choose 2, 3, 4 or 5"),
    (["--stipulation", "loses in 2"], "write 'win in N'"),
    (["--stipulation", "mate in 2"], "write 'win in N'"),
    (["--stipulation", "win twice"], "write 'win in N'"),
    (["--stipulation", "win in 2", "--themes", "sparkle"], "unknown theme"),
])
def test_cli_bad_input(tmp_path, args, message):
    r = CliRunner().invoke(cli, ["generate", *args, "--out", str(tmp_path / "x.yaml")])
    assert r.exit_code == 2
    assert message in r.output and "Traceback" not in r.output


@pytest.mark.slow
def test_composed_candidates_are_the_same_in_a_pool(tmp_path):
    params = Params(2, RULES, seed=4, sources=("compose",))
    a = run(params, tmp_path / "a.yaml", 1, jobs=1)
    b = run(params, tmp_path / "b.yaml", 1, jobs=2)
    assert a["found"] == b["found"] == 1
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


# -- the generated catalogue, by brute force (independent of the solver's kernel) -----------


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
        run(PLAY, out, 1)
    assert out.read_text() == "my notes: keep them\n"


def test_an_edited_catalogue_keeps_the_edits_and_gains_puzzles(tmp_path):
    out = tmp_path / "mine.yaml"
    run(PLAY, out, 2, jobs=1)
    first = out.read_text()
    edited = first.replace('title: "Generated puzzles: win in 2"', "# mine\ntitle: My own")
    out.write_text(edited)
    again = run(PLAY, out, 1, jobs=1)           # a smaller --count never shrinks the file
    assert again["found"] == 1 and out.read_text() == edited
    run(PLAY, out, 3, jobs=1)                    # a larger one appends the new puzzle
    text = out.read_text()
    assert text.startswith(edited) and text.count("- id:") == 3
    assert check_catalogue([out])[1] == []
    run(PLAY, out, 1, jobs=1, force=True)       # --force replaces it
    assert out.read_text().count("- id:") == 1 and "My own" not in out.read_text()


def test_collect_merges_runs_without_duplicates(tmp_path):
    from gyges.puzzles.generate import collect

    run(PLAY, tmp_path / "a.yaml", 3, jobs=1)
    state = tmp_path / "a.yaml.jsonl"
    other = dataclasses.replace(PLAY, rules=PRESETS["bga"])
    text = collect(tmp_path / "all.yaml", [(PLAY, state, 3), (PLAY, state, 3)])
    assert text.count("- id:") == 3                          # the second run adds nothing
    assert text.startswith("# gyges generate --stipulation 'win in 2' --rules pbmserv "
                           "--seed 11 --count 3 --source play")
    assert check_catalogue([tmp_path / "all.yaml"])[1] == []
    with pytest.raises(ValueError, match="other parameters"):
        collect(tmp_path / "x.yaml", [(other, state, 1)])
