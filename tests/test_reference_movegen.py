"""The compiled move generator against the naive reference (tests/reference.py).

For random reachable positions under every preset (and some mixed option sets), the
engine's moves must give exactly the reference's set of results (boards after the move,
``("win", start)`` for a goal landing), one move per result, the same mover, the same
answer to "can the side to move land now?", and every representative path must be a real
legal path of the best rank the reference finds for its result (plain before replace, then
fewest bounces).
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from positions import arbitrary_position, reachable_positions
from reference import (
    NORTH_GOAL,
    SOUTH_GOAL,
    TooComplex,
    neighbours,
    rank,
    reference_can_land,
    reference_results,
    relocations,
    ring_results,
)

from gyges.game.moves import Move, apply_move, can_land, legal_moves
from gyges.game.position import Position
from gyges.game.rules import PRESETS, RuleSet, Side

#: Every preset, plus option mixes no preset has.
RULESETS: dict[str, RuleSet] = {
    **PRESETS,
    "pbmserv rebounce=once null-move=allowed": PRESETS["pbmserv"].with_options(
        {"rebounce": "once", "null-move": "allowed"}
    ),
    "pbmserv repetition=allowed null-move=allowed": PRESETS["pbmserv"].with_options(
        {"repetition": "allowed", "null-move": "allowed"}
    ),
    "pbmserv blocked=next-row replace=anywhere": PRESETS["pbmserv"].with_options(
        {"blocked": "next-row", "replace": "anywhere"}
    ),
    "bga rebounce=once replace=off": PRESETS["bga"].with_options(
        {"rebounce": "once", "replace": "off"}
    ),
    "dorbec taboo=connection replace=shore": PRESETS["dorbec"].with_options(
        {"taboo": "connection", "replace": "shore"}
    ),
    "dorbec rebounce=once repetition=forbidden blocked=pass": PRESETS["dorbec"].with_options(
        {"rebounce": "once", "repetition": "forbidden", "blocked": "pass"}
    ),
}

#: Walk states the reference may visit per ring. A few positions under taboo=entry have
#: millions of walks; they are skipped (about 12% of reachable taboo=entry positions at
#: the fast budget, 3% at the slow one) and the skipped share is bounded.
FAST_BUDGET = 20_000
SLOW_BUDGET = 200_000


def positions_per_ruleset(rules: RuleSet, fast: int) -> int:
    """taboo=entry multiplies the walks: fewer positions keep the default run short."""
    return fast if rules.taboo == "connection" else fast // 5


def result_of(position: Position, move: Move) -> tuple:
    return ("win", move.start) if move.is_win else apply_move(position, move).board


def path_problem(position: Position, rules: RuleSet, move: Move) -> str | None:
    """Walk the move's representative path step by step; say what is wrong, if anything."""
    board, side, start = position.board, move.side, move.start
    goal = NORTH_GOAL if side is Side.SOUTH else SOUTH_GOAL
    path, landings = move.path, move.landings
    if not path or path[0] != start or path[-1] != move.end:
        return f"path {path} does not run from {start} to {move.end}"
    if not board[start]:
        return f"no ring on the start slot {start}"

    def empty(s: int) -> bool:
        return s == start or board[s] == 0

    left, used, bounced = board[start], set(), []
    for i in range(1, len(path)):
        a, b = path[i - 1], path[i]
        last = i == len(path) - 1
        if b not in neighbours(a):
            return f"step {a}->{b} follows no connection"
        link = (a, b) if rules.taboo == "entry" else frozenset((a, b))
        if link in used:
            return f"step {a}->{b} reuses a connection (taboo={rules.taboo})"
        used.add(link)
        left -= 1
        if b in (NORTH_GOAL, SOUTH_GOAL):
            if b != goal or left or not last:
                return f"step {a}->{b} enters a goal other than as the winning last step"
            continue
        if left:
            if not empty(b):
                return f"step {a}->{b} passes over a ring with {left} steps left"
            continue
        if empty(b):
            if not last:
                return f"the path goes on from the empty slot {b} where its segment ended"
            if move.relocation is not None:
                return f"relocation but the path ends on the empty slot {b}"
            continue
        if rules.rebounce == "once" and b in bounced:
            return f"lands twice on the ring at {b} (rebounce=once)"
        if last:
            if move.relocation is None:
                return f"ends on the ring at {b} without relocating it"
            if move.relocation not in relocations(board, side, rules, start, b):
                return f"relocation to {move.relocation} is not allowed (replace={rules.replace})"
            continue
        bounced.append(b)
        left = board[b]
    if left:
        return f"the path stops with {left} steps left"
    if tuple(bounced) != tuple(landings):
        return f"bounces at {tuple(bounced)} but landings say {landings}"
    if move.is_win != (path[-1] == goal):
        return "win flag and goal disagree"
    return None


def differences(
    position: Position, rules: RuleSet, history: list[Position], budget: int, paths: bool = True
) -> list[str] | None:
    """Everything on which engine and reference disagree (None: reference too slow).
    With ``paths``, also walk every representative path and count its bounces."""
    history_boards = [h.board for h in history]
    try:
        ref_mover, ref = reference_results(
            position.board, position.turn, rules, history_boards, budget
        )
    except TooComplex:
        return None
    moves = legal_moves(position, rules, history)
    results = [result_of(position, m) for m in moves]
    out = []
    if set(results) != set(ref):
        only_engine = set(results) - set(ref)
        only_ref = set(ref) - set(results)

        def show(r: tuple) -> str:
            return str(r) if r[0] == "win" else str(Position(r, position.turn.other))

        out.append(
            f"results differ: engine only {[show(r) for r in sorted(only_engine, key=str)][:5]}"
            f" ({len(only_engine)}), reference only "
            f"{[show(r) for r in sorted(only_ref, key=str)][:5]} ({len(only_ref)})"
        )
    if len(results) != len(set(results)):
        out.append(f"{len(results) - len(set(results))} results listed more than once")
    if ref and moves.mover is not ref_mover:
        out.append(f"mover {moves.mover} but the reference says {ref_mover}")
    if bool(moves.moves) != bool(ref):
        out.append(f"engine has {len(moves)} moves, reference {len(ref)}")
    engine_land = can_land(position, rules, history)
    ref_land = reference_can_land(position.board, position.turn, rules, history_boards, budget)
    if engine_land != ref_land:
        out.append(f"can_land {engine_land} but the reference says {ref_land}")
    per_start: dict[int, dict] = {}
    for move, result in zip(moves, results, strict=True) if paths else ():
        problem = path_problem(position, rules, move)
        if problem:
            out.append(f"{move}: {problem}")
            continue
        if move.start not in per_start:
            per_start[move.start] = ring_results(
                position.board, move.side, rules, move.start, budget
            )
        # The representative: a plain path if there is one, then the fewest bounces.
        mine = rank(move.bounces, move.is_replace)
        fewest = per_start[move.start].get(result)
        if fewest is not None and mine != fewest:
            out.append(f"{move} has rank {mine}, {fewest} possible from its start")
        if result in ref and mine > ref[result]:
            out.append(f"{move} has rank {mine}, {ref[result]} possible")
    return out


def check_many(name: str, cases, budget: int, max_skipped: float, path_every: int = 1) -> None:
    """Compare engine and reference on every case (paths on every ``path_every``-th)."""
    rules = RULESETS[name]
    skipped, failures = 0, []
    for i, (position, history) in enumerate(cases):
        found = differences(position, rules, history, budget, i % path_every == 0)
        if found is None:
            skipped += 1
        elif found:
            failures.append(f"{position} ({len(history)} earlier positions): " + "; ".join(found))
    assert not failures, f"{name}: {len(failures)} positions differ, first: {failures[:3]}"
    assert skipped <= max_skipped * len(cases), f"{name}: reference too slow on {skipped}"


@pytest.mark.parametrize("name", sorted(RULESETS))
def test_reachable_positions_match_reference(name):
    rules = RULESETS[name]
    count = positions_per_ruleset(rules, 120)
    cases = reachable_positions(1000 + len(name), rules, count)
    check_many(name, cases, FAST_BUDGET, 0.25, path_every=3)


@pytest.mark.parametrize("name", sorted(RULESETS))
def test_renop_history_matches_reference(name):
    """A history holding some of the position's own results: those moves become illegal
    under repetition=forbidden (and stay legal otherwise)."""
    rules = RULESETS[name]
    rng = random.Random(7)
    cases = []
    for position, history in reachable_positions(2000, rules, positions_per_ruleset(rules, 60)):
        try:
            _, ref = reference_results(position.board, position.turn, rules, (), FAST_BUDGET)
        except TooComplex:
            continue
        boards = sorted(r for r in ref if r[0] != "win")
        earlier = rng.sample(boards, min(len(boards), rng.choice([1, 3, len(boards)])))
        cases.append((position, history + [Position(b, position.turn) for b in earlier]))
    check_many(name, cases, FAST_BUDGET, 0.25)


@pytest.mark.parametrize("name", sorted(RULESETS))
def test_arbitrary_placements_match_reference(name):
    """Rings anywhere (not necessarily reachable): blocked sides, lone rings, crowds."""
    rules = RULESETS[name]
    rng = random.Random(3000 + len(name))
    cases = [(arbitrary_position(rng), []) for _ in range(positions_per_ruleset(rules, 150))]
    check_many(name, cases, FAST_BUDGET, 0.25, path_every=2)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), name=st.sampled_from(sorted(RULESETS)))
def test_hypothesis_placements_match_reference(seed, name):
    position = arbitrary_position(random.Random(seed))
    found = differences(position, RULESETS[name], [], FAST_BUDGET)
    assert not found, f"{name} {position}: {found}"


def test_blocked_side_passes_under_pass_rules():
    """Seed 000's stalemate example: North has no move, South plays on (pbmserv)."""
    position = Position.from_string(".3.3.3/112232/...1../...1.2/....../...... N")
    for name in ("pbmserv", "bga", "summary"):
        rules = PRESETS[name]
        moves = legal_moves(position, rules)
        mover, ref = reference_results(position.board, position.turn, rules)
        assert (moves.mover, len(moves)) == (mover, len(ref))
    assert legal_moves(position, PRESETS["pbmserv"]).mover is Side.SOUTH
    assert not legal_moves(position, PRESETS["bga"]).moves
    assert legal_moves(position, PRESETS["summary"]).mover is Side.NORTH  # row 5 plays
    assert {m.start // 6 + 1 for m in legal_moves(position, PRESETS["summary"])} == {5}


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(RULESETS))
def test_many_reachable_positions_match_reference(name):
    rules = RULESETS[name]
    count = positions_per_ruleset(rules, 2000)
    check_many(name, reachable_positions(5000 + len(name), rules, count), SLOW_BUDGET, 0.05)
    rng = random.Random(6000 + len(name))
    cases = [(arbitrary_position(rng), []) for _ in range(count // 2)]
    check_many(name, cases, SLOW_BUDGET, 0.05)



def _witness_cases(seed: int, count: int):
    """Positions with their rules: reachable ones under every rule set, and arbitrary ones."""
    rng = random.Random(seed)
    for name, rules in RULESETS.items():
        for position, _history in reachable_positions(seed, rules, count):
            yield name, rules, position
        for _ in range(count):
            yield name, rules, arbitrary_position(rng)


def _landing_elsewhere(rng: random.Random, rules: RuleSet, position: Position, mask: int,
                       counts: dict[str, int]) -> Iterator[bool]:
    """The naive reference's "can the side to move land?" on up to four boards that
    differ from ``position``'s only outside ``mask`` (random sizes on 1-6 other slots)
    and keep the side's shore row; ``counts`` tallies the boards checked and skipped (too
    complex for the reference)."""
    from gyges.game import _movegen

    side = position.turn
    row = _movegen.shore(bytes(position.board), side.index)
    free = [s for s in range(36) if not (mask >> s) & 1]
    for _ in range(4):
        board = list(position.board)
        for slot in rng.sample(free, min(len(free), rng.randint(1, 6))):
            board[slot] = rng.choice([0, 0, 1, 2, 3])
        if _movegen.shore(bytes(board), side.index) != row:
            continue
        try:
            yield reference_can_land(tuple(board), side, rules, budget=FAST_BUDGET)
        except TooComplex:
            counts["skipped"] += 1
            continue
        counts["checked"] += 1


@pytest.mark.parametrize("seed", [11, 13, 14])
@pytest.mark.parametrize("test", ["out_of_reach_region", "landing_region"])
def test_no_landing_region_stands_wherever_its_slots_agree(test: str, seed: int) -> None:
    """The core's "the side cannot land" with the slots it rests on, from its quick test
    (the goal out of reach, the taboo set aside: asked before every landing search) and
    from its exact search; the solver reuses both across sibling moves. Where one rules a
    landing out, the naive reference finds none, and none either after any change of
    slots outside the region it returns that keeps the side's shore row."""
    from gyges.game import _movegen

    rng = random.Random(seed)
    counts = {"checked": 0, "skipped": 0}
    ruled_out = 0
    for name, rules, position in _witness_cases(seed, 8):
        side = position.turn
        region = getattr(_movegen, test)(bytes(position.board), side.index, rules.flags())
        if region is None:
            continue
        ruled_out += 1
        assert not can_land(position, rules), (name, position)
        for lands in _landing_elsewhere(rng, rules, position, region, counts):
            assert not lands, (name, position, bin(region))
    assert ruled_out > 20 and counts["checked"] > 40
    assert counts["skipped"] < counts["checked"] / 5


@pytest.mark.parametrize("seed", [11, 13, 14])
def test_landing_witness_stands_wherever_its_slots_agree(seed: int) -> None:
    """The core's witness of a goal landing (what the solver reuses across sibling moves):
    change any slots outside it at random, keep the side's shore row, and the naive
    reference must still find a landing."""
    from gyges.game import _movegen

    rng = random.Random(seed)
    counts = {"checked": 0, "skipped": 0}
    for name, rules, position in _witness_cases(seed, 6):
        side = position.turn
        mask = _movegen.landing_witness(bytes(position.board), side.index, rules.flags())
        assert bool(mask) == can_land(position, rules), (name, position)
        if not mask:
            continue
        for lands in _landing_elsewhere(rng, rules, position, mask, counts):
            assert lands, (name, position, bin(mask))
    assert counts["checked"] > 60 and counts["skipped"] < counts["checked"] / 5
