"""The playing engine (gyges.engine): scores, limits, determinism, proof-backing, the
catalogue's keys at fixed depth, the weights file."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st
from positions import arbitrary_position, reachable_positions

from gyges import PRESETS, Position
from gyges.engine._engine import Search
from gyges.engine.builtin import Engine, EngineError, Limit, Options, analyse
from gyges.engine.players import open_player
from gyges.engine.refereed import play_game, replay_moves
from gyges.engine.score import Eval, Loss, Score, ScoreError, Win
from gyges.engine.training import fit_weights
from gyges.engine.weights import FEATURES, Weights, WeightsError
from gyges.game._movegen import quick_moves
from gyges.game.moves import apply_move, legal_moves
from gyges.puzzles.catalogue import load_catalogue
from gyges.search import solve, win_in
from gyges_cli.main import cli

ROOT = Path(__file__).resolve().parent.parent
PBM = PRESETS["pbmserv"]
START = Position.from_string("321123/....../....../....../....../231123 S")
RUST = Position.from_string("030100/000200/002000/021100/300300/002130 S")

scores = st.one_of(st.integers(1, 60).map(Win), st.integers(1, 60).map(Loss),
                   st.integers(-29999, 29999).map(Eval))


@given(scores)
def test_a_score_round_trips_through_text_json_and_the_search_integer(s: Score):
    assert Score.parse(str(s)) == s
    assert Score.from_json(json.loads(json.dumps(s.to_json()))) == s
    assert Score.from_int(s.to_int()) == s
    assert (-s).__neg__() == s


@given(scores, scores)
def test_scores_order_as_the_search_integers_do(a: Score, b: Score):
    assert (a < b) == (a.to_int() < b.to_int())
    assert (a == b) == (a.to_int() == b.to_int())
    assert (-a < -b) == (b < a)


def test_score_order_and_probabilities():
    assert Loss(1) < Loss(5) < Eval(-29999) < Eval(0) < Eval(29999) < Win(5) < Win(1)
    assert Win(2).win_probability == 1.0 and Loss(2).win_probability == 0.0
    assert Eval(0).win_probability == 0.5
    assert Eval(-100).win_probability == pytest.approx(1 - Eval(100).win_probability)
    for bad in ("win in 0", "draw", "+1.5", ""):
        with pytest.raises(ScoreError):
            Score.parse(bad)
    with pytest.raises(ScoreError):
        Score.from_json({"win": 0})


def test_a_limit_needs_something_and_sane_values():
    for bad in ({}, {"time": 0}, {"depth": 0}, {"nodes": 0}, {"depth": 500}):
        with pytest.raises(EngineError):
            Limit(**bad)


def _same(a, b):
    return (str(a.move), a.score, [str(m) for m in a.pv], a.depth, a.nodes) == \
        (str(b.move), b.score, [str(m) for m in b.pv], b.depth, b.nodes)


@pytest.mark.parametrize("limit", [Limit(depth=3), Limit(nodes=20000)])
def test_fixed_depth_and_node_searches_are_deterministic(limit):
    for p in (START, RUST):
        first = analyse(p, PBM, limit, options=Options(prove=0))
        assert first.move is not None and first.nodes > 0
        assert _same(first, analyse(p, PBM, limit, options=Options(prove=0)))
    if limit.nodes:
        assert first.nodes <= limit.nodes


def test_a_cleared_engine_answers_as_a_fresh_one():
    """What a search learnt (the table) changes the next search's work; clear() forgets
    it: the answer and the node count are a fresh engine's."""
    fresh = Engine(PBM, Options(prove=0)).analyse(START, Limit(depth=2))
    used = Engine(PBM, Options(prove=0))
    used.analyse(START, Limit(depth=3))
    warm = used.analyse(START, Limit(depth=2))
    used.clear()
    again = used.analyse(START, Limit(depth=2))
    assert warm.nodes != fresh.nodes
    assert (again.move, again.score, again.pv, again.nodes) == (
        fresh.move, fresh.score, fresh.pv, fresh.nodes)


def test_the_principal_variation_is_legal_and_starts_with_the_move():
    a = analyse(RUST, PBM, Limit(depth=4), options=Options(prove=0))
    assert a.pv[0] == a.move and len(a.pv) >= 2
    p, history = RUST, []
    for m in a.pv:
        moves = legal_moves(p, PBM, history)
        assert moves.find(m) == m and m.side is moves.mover
        history.append(p)
        p = apply_move(p.with_turn(m.side), m)


def test_a_landing_is_played_at_once_and_proven():
    p = Position.from_string("....../3...../..1.1./1.23.3/3.22.1/....2. N")
    a = analyse(p, PBM, Limit(depth=5))
    assert (str(a.move), a.score, a.proven) == ("51-43-33-31-21-S", Win(1), True)


def test_nobody_to_move_is_a_draw_and_a_blocked_side_passes():
    # seed 000's stalemate after 34-44-43: North is blocked
    stuck = Position.from_string(".3.3.3/112232/..11../.....2/....../...... N")
    a = analyse(stuck, PRESETS["pbmserv"].with_options({"blocked": "draw"}), Limit(depth=2))
    assert a.move is None and a.score == Eval(0) and a.pv == ()
    truth = solve(stuck, PBM, 3)           # blocked=pass: South moves again, and wins
    assert (truth.result, truth.moves) == ("loss", 2)
    for options in (Options(), Options(prove=0)):
        a = analyse(stuck, PBM, Limit(depth=4), options=options)
        assert a.score == Loss(2) and a.move.side.value == "S"
        after = apply_move(stuck.with_turn(a.move.side), a.move)
        assert win_in(after.with_turn(a.move.side), PBM, 1, [stuck])


def _sample_positions() -> list[tuple[Position, tuple[Position, ...]]]:
    """Positions of two short games between engines at depth 1 (no proofs)."""
    engine = open_player("builtin:depth=1,prove=0", PBM)
    out = []
    for opening in (("231123", "321123"), ("123321", "213312")):
        game = play_game(engine, engine, opening, PBM, max_plies=40)
        out += replay_moves(game, PBM)
    return out


SAMPLE = _sample_positions()


@pytest.mark.parametrize("k", [2, 3])
def test_the_engine_plays_every_proven_win_within_its_horizon(k):
    engine = Engine(PBM, Options(prove=k))
    seen = 0
    for p, history in SAMPLE[:: k - 1]:
        truth = solve(p, PBM, k, history, tree=False)
        a = engine.analyse(p, Limit(depth=1), history)
        if truth.result == "win":
            seen += 1
            assert a.score == Win(truth.moves), str(p)
            assert a.move.result_key(p) in {key.result_key(p) for key in truth.keys}
        else:
            assert not (isinstance(a.score, Win) and a.score.moves <= k), str(p)
    assert seen >= 2


def test_the_engine_avoids_a_proven_loss_that_another_move_avoids():
    engine = Engine(PBM, Options(prove=2))
    checked = 0
    for p, history in SAMPLE:
        if solve(p, PBM, 2, history, tree=False).result == "loss":
            continue                     # every move loses: nothing to avoid
        a = engine.analyse(p, Limit(depth=1), history)
        if a.move is None or a.move.is_win:
            continue
        assert not win_in(apply_move(p, a.move), PBM, 2, [*history, p]), str(p)
        checked += 1
    assert checked >= 10


def _catalogue_sample():
    out = []
    for name in ("seed000.yaml", "solver-composed.yaml", "generated.yaml"):
        for puzzle in load_catalogue(ROOT / "puzzles" / name).puzzles:
            stip = puzzle.stipulation
            if stip.kind == "win" and stip.moves <= 3 and puzzle.key:
                out.append(puzzle)
    return out[::3]


@pytest.mark.parametrize("puzzle", _catalogue_sample(), ids=lambda p: p.id)
def test_the_search_alone_finds_catalogue_keys_at_fixed_depth(puzzle):
    """No prover: the alpha-beta search at depth 2k - 1 sees every win in k."""
    k = puzzle.stipulation.moves
    a = analyse(puzzle.position, puzzle.rules, Limit(depth=2 * k - 1), puzzle.history,
                Options(prove=0))
    assert a.score == Win(k)
    truth = solve(puzzle.position, puzzle.rules, k, puzzle.history, tree=False)
    assert a.move.result_key(puzzle.position) in {
        key.result_key(puzzle.position) for key in truth.keys}


def test_shipped_weights_and_bad_files(tmp_path):
    w = Weights.load()
    assert len(w.values) == len(FEATURES) and w.fit
    good = tmp_path / "w.json"
    good.write_text(w.dumps())
    assert Weights.load(good) == w
    data = w.to_json()
    del data["features"]["threat"]
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    with pytest.raises(WeightsError, match="missing threat"):
        Weights.load(bad)
    bad.write_text("{\n  \"features\": [1,\n")
    with pytest.raises(WeightsError, match=r"bad.json:\d+: not JSON"):
        Weights.load(bad)
    with pytest.raises(WeightsError, match="cannot read"):
        Weights.load(tmp_path / "missing.json")


def test_the_fit_recovers_known_weights():
    import numpy as np

    rng = np.random.default_rng(3)
    x = np.column_stack([np.ones(4000), rng.normal(size=4000), rng.normal(size=4000),
                         np.zeros(4000)])
    truth = np.array([0.3, 1.5, -0.8, 0.0])
    y = (rng.random(4000) < 1 / (1 + np.exp(-(x @ truth)))).astype(float)
    w, quality = fit_weights(x, y, ridge=0.0)
    assert np.allclose(w, truth, atol=0.15) and w[3] == 0.0
    assert 0 < quality["log_loss"] < 0.7


def test_the_fit_is_the_same_on_every_run_whatever_the_jobs(tmp_path):
    """make weights writes the same bytes on the same machine: the games are seeded and
    searched to a node count, and their order does not depend on the workers."""
    args = ["--rounds", "1", "--games", "6", "--nodes", "300", "--max-plies", "30"]
    for jobs, out in (("1", "one.json"), ("2", "two.json")):
        r = CliRunner().invoke(cli, ["engine-weights", *args, "--jobs", jobs, "--out",
                                     str(tmp_path / out)])
        assert r.exit_code == 0, r.output
    text = (tmp_path / "one.json").read_text()
    assert text == (tmp_path / "two.json").read_text()
    fitted = Weights.load(tmp_path / "one.json")
    assert fitted.fit["games"] == 6 and fitted.fit["positions"] > 20
    assert any(v != 0 for v in fitted.values)


def test_the_compiled_feature_places_follow_the_feature_names():
    """The evaluation writes each feature at its named place (``F_...`` in _engine.pxd):
    the places are 0, 1, 2, ... in the order of FEATURES, and there are no others."""
    from gyges.engine import _engine

    places = {name: getattr(_engine, name) for name in dir(_engine) if name.startswith("F_")}
    assert places == {f"F_{name.upper()}": i for i, name in enumerate(FEATURES)}


def test_a_search_result_is_a_typed_value():
    """``Search.go`` returns a frozen SearchResult (score, pv, depth, nodes), also kept as
    ``last``; a blocked side's search has no score."""
    import dataclasses

    from gyges.engine._engine import SearchResult

    rules = PRESETS["pbmserv"]
    p = Position.from_string("321123/....../....../....../....../231123 S")
    search = Search(rules.flags(), Weights.load().values)
    r = search.go(p.key, p.turn.index, depth=2)
    assert isinstance(r, SearchResult) and search.last is r
    assert r.depth == 2 and r.nodes > 0 and isinstance(r.score, int) and len(r.pv) == 2
    with pytest.raises(dataclasses.FrozenInstanceError):
        r.depth = 3  # type: ignore[misc]


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_the_mobility_features_count_the_move_list(preset):
    """The evaluation counts moves without listing them (the core's count_moves and
    count_simple_moves): its moves, rings landed on and ends agree with the full move
    list, its simple moves with the list of simple_moves, on positions of random play
    (with their history, for the Renop law) and arbitrary boards."""
    rules = PRESETS[preset]
    rng = random.Random(7)
    cases = reachable_positions(11, rules, 60, max_plies=40)
    cases += [(arbitrary_position(rng), []) for _ in range(60)]
    search = Search(rules.flags(), Weights.load().values)
    names = list(FEATURES)
    checked = 0
    for position, history in cases:
        _, features = search.evaluate(position.key, position.turn.index,
                                      [h.key for h in history])
        if features is None:
            continue
        f = dict(zip(names, features, strict=True))
        for who, side in (("x", position.turn), ("y", position.turn.other)):
            simple, _ = quick_moves(position.key, side.index, rules.flags(),
                                    [h.key for h in history])
            assert f[f"mobility_{who}"] == pytest.approx(len(simple) / 8), position
            moves = legal_moves(position.with_turn(side), rules, history, paths=False)
            if moves.mover is not side:
                assert f[f"moves_{who}"] == 0
                continue
            plain = {m.end for m in moves if m.relocation is None and not m.is_win}
            landed = {m.end for m in moves if m.relocation is not None}
            assert f[f"moves_{who}"] == pytest.approx(len(moves.moves) / 50), position
            assert f[f"rings_{who}"] == len(landed), position
            assert f[f"ends_{who}"] == pytest.approx(len(plain) / 4), position
            checked += 1
    assert checked > 100


# -- several cores --------------------------------------------------------------------------


def _children() -> set[int]:
    """This process's child processes (Linux: /proc)."""
    me = os.getpid()
    return {int(e.name) for e in Path("/proc").iterdir()
            if e.name.isdigit() and _parent(e) == me}


@pytest.mark.parametrize("puzzle", _catalogue_sample()[::2], ids=lambda p: p.id)
def test_on_two_cores_the_search_proves_what_one_core_proves(puzzle):
    """The helper searches the whole tree too, sharing the table and which moves it is
    searching: every win in k is still seen at depth 2k - 1, and the move played is a
    key (or a cook) of the solver's."""
    k = puzzle.stipulation.moves
    a = analyse(puzzle.position, puzzle.rules, Limit(depth=2 * k - 1), puzzle.history,
                Options(prove=0, cores=2))
    assert a.score == Win(k)
    truth = solve(puzzle.position, puzzle.rules, k, puzzle.history, tree=False)
    assert a.move.result_key(puzzle.position) in {
        key.result_key(puzzle.position) for key in truth.keys}


def test_on_two_cores_the_line_is_legal_under_the_renop_law():
    """The helper searches with the game's earlier boards: every move of its line is
    legal (the Renop law), on positions of games with their history."""
    with Engine(PBM, Options(prove=0, cores=2)) as engine:
        for p, history in SAMPLE[10::6]:
            a = engine.analyse(p, Limit(depth=4), history)
            if a.move is None:
                continue
            line, seen = p, list(history)
            for k, m in enumerate(a.pv):
                moves = legal_moves(line, PBM, seen)
                assert moves.find(m) == m, str(p)
                if m.is_win:                   # a landing ends the game, and the line
                    assert k == len(a.pv) - 1, str(p)
                    break
                seen.append(line)
                line = apply_move(line.with_turn(m.side), m)


def test_helper_processes_end_with_the_engine():
    before = _children()
    engine = Engine(PBM, Options(prove=0, cores=3))
    helpers = _children() - before
    assert len(helpers) == 2
    a = engine.analyse(START, Limit(depth=3))         # the helpers search too
    assert a.move is not None and a.depth == 3 and a.nodes > 0
    engine.close()                       # the helpers are told to end, and reaped
    assert not (_children() & helpers)
    again = engine.analyse(START, Limit(depth=2))     # this process alone from now on
    assert again.move is not None
    engine = Engine(PBM, Options(prove=0, cores=2))
    helpers = _children() - before
    assert len(helpers) == 1
    del engine                           # or when the engine goes
    assert not (_children() & helpers)


def test_cores_are_checked():
    with pytest.raises(EngineError, match="cores must be 1..8, not 0"):
        Options(cores=0)
    with pytest.raises(EngineError, match="cores must be 1..8, not 9"):
        Options(cores=9)


def _alive(pid: int) -> bool:
    """Is ``pid`` running (not gone, not a zombie)?"""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def test_a_helper_ends_when_its_parent_is_killed_mid_search():
    proc = subprocess.Popen(
        [sys.executable, "-c", "from gyges_cli.main import cli; cli()", "analyse",
         "321123/....../....../....../....../231123 S", "--depth", "30", "--prove", "0",
         "--cores", "2"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 30
        helpers: list[int] = []
        while not helpers and time.monotonic() < deadline:
            time.sleep(0.2)
            helpers = [int(e.name) for e in Path("/proc").iterdir()
                       if e.name.isdigit() and _parent(e) == proc.pid]
        assert len(helpers) == 1
        # the search is under way: the helper has spent CPU time searching
        deadline = time.monotonic() + 30
        while _cpu_ticks(helpers[0]) < 10 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert _cpu_ticks(helpers[0]) >= 10
        proc.kill()
        proc.wait(10)
        deadline = time.monotonic() + 10
        while _alive(helpers[0]) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not _alive(helpers[0])
    finally:
        if proc.poll() is None:
            proc.kill()


def _cpu_ticks(pid: int) -> int:
    """The CPU time ``pid`` has used (user and system, in clock ticks); 0 when it is gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0
    return int(fields[11]) + int(fields[12])


def _parent(entry: Path) -> int:
    try:
        return int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
    except (OSError, ValueError, IndexError):
        return -1


def test_the_search_goes_on_when_a_helper_is_killed():
    """A helper killed from outside ends the iteration under way; the search answers
    with its best so far, and later searches go on without it."""
    before = _children()
    with Engine(PBM, Options(prove=0, cores=2)) as engine:
        (helper,) = _children() - before
        os.kill(helper, signal.SIGKILL)
        a = engine.analyse(START, Limit(depth=5))
        assert a.move is not None and a.depth >= 2
        b = engine.analyse(START, Limit(depth=4))
        assert b.move is not None and b.depth == 4
    assert not (_children() & {helper})
