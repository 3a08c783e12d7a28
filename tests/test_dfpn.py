"""The df-pn prover (``gyges.search._dfpn``) against the kernel (``Searcher.win``) and the
reference solver: the same answer to "can the winner land within d of its moves?" on the
seed's positions, random play-outs (with their histories: the Renop law) and sparse
placements, under every preset and the rule options that change the search (repetition,
blocked=pass/draw/next-row, rebounce=once, null-move=allowed, replace)."""

from __future__ import annotations

import random

import pytest
from positions import random_playout, sparse_position
from reference import TooComplex, reference_moves
from reference_solver import wins_within

from gyges.formats.notation import parse_move
from gyges.game.moves import apply_move
from gyges.game.position import Position
from gyges.game.rules import PRESETS, RuleSet, rules_from
from gyges.search._dfpn import DfpnSearcher
from gyges.search._search import Searcher

RUST = "030100/000200/002000/021100/300300/002130 S"
RUST_RULES = ["rebounce=once", "null-move=allowed", "blocked=draw", "repetition=allowed"]

#: seed 000's examples (tests/test_search.py), the start, and the Rust engine's position
SEEDS = [
    "....../3...../..1.1./1.23.3/3.22.1/....2. N",        # bouncing
    "....../1...../3.23../3.211./2.132./...... N",        # taboo
    ".3.3.3/112232/...1.2/...1../....../...... S",        # stalemate chain (passes)
    ".3.3.3/112232/...1../...1.2/....../...... S",        # as printed
    "..1.../..23../..3.../..3113/2..2../2..1.. S",        # sample game, move 12
    "..3.../....../.3..../.....1/..3.../.....3 S",        # loses in 1
    "321123/....../....../....../....../231123 S",        # the start
    RUST,
]

#: every preset, and the options that change the search, on top of some of them
RULE_SETS: dict[str, RuleSet] = {
    **PRESETS,
    "pbmserv repetition=allowed": rules_from("pbmserv", ["repetition=allowed"]),
    "pbmserv blocked=draw": rules_from("pbmserv", ["blocked=draw"]),
    "pbmserv blocked=next-row": rules_from("pbmserv", ["blocked=next-row"]),
    "bga blocked=pass": rules_from("bga", ["blocked=pass"]),
    "bga repetition=forbidden": rules_from("bga", ["repetition=forbidden"]),
    "pbmserv rebounce=once null-move=allowed": rules_from(
        "pbmserv", ["rebounce=once", "null-move=allowed"]),
    "rust engine": rules_from("pbmserv", RUST_RULES),
    "dorbec blocked=pass repetition=forbidden": rules_from(
        "dorbec", ["blocked=pass", "repetition=forbidden"]),
}


def pos(text: str) -> Position:
    return Position.from_string(text)


def agree(kernel: Searcher, dfpn: DfpnSearcher, p: Position, winner: int, d: int,
          history: list[bytes], where: str) -> bool:
    me = p.turn.index
    expect = kernel.win(p.key, me, winner, d, history)
    got = dfpn.win(p.key, me, winner, d, history)
    assert got == expect, f"{where}: {p} winner={winner} d={d} history={len(history)}"
    return expect


@pytest.mark.parametrize("name", sorted(RULE_SETS))
def test_seed_positions_agree_with_the_kernel(name):
    rules = RULE_SETS[name]
    kernel, dfpn = Searcher(rules.flags(), 18), DfpnSearcher(rules.flags(), 18)
    for text in SEEDS:
        p = pos(text)
        for winner in (0, 1):
            for d in (1, 2):
                agree(kernel, dfpn, p, winner, d, [], name)
    assert not dfpn.truncated


def _sample(rng, rules, i, plies, most_rings):
    """Position ``i`` of a test's sample: a random play-out (with its history: the Renop
    law) for odd ``i``, a sparse placement (no history) for even ``i``."""
    if i % 2:
        p, earlier = random_playout(rng, rules, rng.randint(*plies))
        return p, [h.key for h in earlier]
    return sparse_position(rng, 3, most_rings), []


@pytest.mark.parametrize("name", sorted(RULE_SETS))
def test_random_positions_agree_with_the_kernel(name):
    """Random play-outs (their histories given: the Renop law) and sparse placements,
    one df-pn table for all (a stale or history-blind entry would show)."""
    rules = RULE_SETS[name]
    rng = random.Random(f"dfpn-{name}")
    kernel, dfpn = Searcher(rules.flags(), 16), DfpnSearcher(rules.flags(), 16)
    wins = 0
    for i in range(10):
        p, history = _sample(rng, rules, i, (4, 30), 9)
        for winner in (0, 1):
            for d in ((1, 2) if i % 2 else (1, 2, 3)):
                wins += agree(kernel, dfpn, p, winner, d, history, name)
    assert wins > 0                              # not only "no win" questions


def test_history_changes_the_answer_on_one_table():
    """The graph-history-interaction trap: one table, the same board, with and without an
    earlier board that forbids the key (tests/test_search.py's case)."""
    pbm = PRESETS["pbmserv"]
    p = pos("..1.../..23../..3.../..3113/2..2../2..1.. S")
    after = apply_move(p, parse_move("14-24-33x43=12", p, pbm))
    s = DfpnSearcher(pbm.flags(), 16)
    for _ in range(2):
        assert s.win(p.key, 0, 0, 2)
        assert not s.win(p.key, 0, 0, 2, [after.key])


def test_a_node_lost_by_its_mover_is_stored_solved():
    """A node whose every move loses (W with no winning move, L with no defence) is
    solved like one that wins: its table entry answers every depth the proof covers
    (a "no" within 2 is a "no" within 1, a win within 2 a win within 3), not only the
    depth it was searched at."""
    pbm = PRESETS["pbmserv"]
    start = pos("321123/....../....../....../....../231123 S")
    s = DfpnSearcher(pbm.flags(), 16)
    assert not s.win(start.key, 0, 0, 2)
    assert s.known([start.key], 0, 0, 1) == [0]
    p = pos("..1.../..23../..3.../..3113/2..2../2..1.. S")
    after = apply_move(p, parse_move("14-24-33x43=12", p, pbm))
    assert s.win(after.key, 1, 0, 2, [p.key])       # North to move, South's win stands
    assert s.known([after.key], 1, 0, 3, [p.key]) == [1]


def test_passes_are_decided_exactly():
    """The stalemate chain: South keeps North blocked move after move (W passed over) and
    wins in 2; North's question meets long runs of passes, and cycles of them when
    repetitions are allowed. Nothing is cut."""
    p = pos(".3.3.3/112232/...1.2/...1../....../...... S")
    for rules in (PRESETS["pbmserv"], rules_from("pbmserv", ["repetition=allowed"])):
        s = DfpnSearcher(rules.flags(), 16)
        assert [s.win(p.key, 0, 0, d) for d in (1, 2, 3)] == [False, True, True]
        assert not any(s.win(p.key, 0, 1, d) for d in (1, 2, 3, 4))
        assert not s.truncated
        # the same question after South's key 34-44-43, North blocked: South moves again
        after = apply_move(p, parse_move("34-44-43", p, rules))
        assert s.win(after.key, 1, 0, 1, [p.key])


def _reference_cases(rules: RuleSet, seed: str, count: int):
    rng = random.Random(seed)
    found = 0
    while found < count:
        p = sparse_position(rng, 3, 6)
        try:
            _, mine = reference_moves(p.board, p.turn, rules)
            _, theirs = reference_moves(p.board, p.turn.other, rules)
            if len(mine) > 30 or len(theirs) > 30:
                continue
            expected = [(w, d, wins_within(p.board, p.turn, rules, w, d))
                        for w in (p.turn, p.turn.other) for d in (1, 2)]
        except TooComplex:
            continue
        found += 1
        yield p, expected


@pytest.mark.parametrize("name", ["pbmserv", "bga", "dorbec", "rust engine"])
def test_small_positions_agree_with_the_reference_solver(name):
    rules = RULE_SETS[name]
    s = DfpnSearcher(rules.flags(), 16)
    for p, expected in _reference_cases(rules, f"dfpn-ref-{name}", 6):
        for w, d, want in expected:
            assert s.win(p.key, p.turn.index, w.index, d) == want, (name, str(p), w, d)


def test_stats_count_every_diagnostic():
    """``stats`` gives all six counters (df-pn nodes, children looked at, pn estimates,
    land_support calls, move lists, nodes of the plain search of pass nodes)."""
    s = DfpnSearcher(PRESETS["pbmserv"].flags(), 16)
    assert s.stats == (0,) * 6
    p = Position.from_string("321123/....../....../....../....../231123 S")
    s.win(p.key, 0, 0, 2)
    assert len(s.stats) == 6 and s.stats[0] > 0 and s.stats[1] > 0


def test_bad_arguments():
    s = DfpnSearcher(PRESETS["pbmserv"].flags(), 8)
    p = pos(SEEDS[0])
    with pytest.raises(ValueError):
        s.win(p.key, 2, 0, 1)
    with pytest.raises(ValueError):
        s.win(p.key, 0, 0, 31)
    with pytest.raises(ValueError):
        DfpnSearcher(0, 2)
    assert not s.win(p.key, 1, 1, 0)


def test_a_signal_stops_the_search_and_leaves_its_table_sound():
    """Ctrl-C (here SIGALRM) during a long call: the call ends soon with the handler's
    exception; the same searcher then still gives the right answers."""
    import signal
    import time

    rules = PRESETS["pbmserv"]
    p = pos("321123/....../....../....../....../231123 S")
    searcher = DfpnSearcher(rules.flags(), 18)

    class Stop(Exception):
        pass

    def handler(signum, frame):
        raise Stop

    old = signal.signal(signal.SIGALRM, handler)
    try:
        signal.setitimer(signal.ITIMER_REAL, 0.2)
        start = time.process_time()      # this process's CPU: the machine's load aside
        with pytest.raises(Stop):
            searcher.win(p.key, 0, 0, 4)       # many seconds uninterrupted
        assert time.process_time() - start < 1.5
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
    q = pos(SEEDS[4])
    assert searcher.win(q.key, 0, 0, 2) and not searcher.win(q.key, 0, 0, 1)


@pytest.mark.slow
def test_rust_engine_position_is_a_win_in_6_and_not_in_5():
    rules = rules_from("pbmserv", RUST_RULES)
    p = pos(RUST)
    s = DfpnSearcher(rules.flags(), 20)
    assert [s.win(p.key, 0, 0, k) for k in range(1, 7)] == [False] * 5 + [True]
    fresh = DfpnSearcher(rules.flags(), 20)
    assert not fresh.win(p.key, 0, 0, 5) and fresh.win(p.key, 0, 0, 6)
    key = apply_move(p, parse_move("14-24x21=44", p, rules))
    assert DfpnSearcher(rules.flags(), 20).win(key.key, 1, 0, 5, [p.key])
    assert not s.truncated


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(RULE_SETS))
def test_positions_agree_with_the_kernel_at_depth_3(name):
    """d = 3 on the seed positions and on play-outs with their histories."""
    rules = RULE_SETS[name]
    rng = random.Random(f"dfpn-3-{name}")
    kernel, dfpn = Searcher(rules.flags(), 18), DfpnSearcher(rules.flags(), 18)
    for text in SEEDS:
        for winner in (0, 1):
            if text != RUST:                    # the kernel takes a while there
                agree(kernel, dfpn, pos(text), winner, 3, [], name)
    for _ in range(12):
        p, earlier = random_playout(rng, rules, rng.randint(4, 40))
        for winner in (0, 1):
            agree(kernel, dfpn, p, winner, 3, [h.key for h in earlier], name)


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(RULE_SETS))
def test_random_positions_agree_with_the_kernel_deeper(name):
    """d = 4 on play-outs and sparse placements (the kernel's deeper orderings too)."""
    rules = RULE_SETS[name]
    rng = random.Random(f"dfpn-deep-{name}")
    kernel, dfpn = Searcher(rules.flags(), 18), DfpnSearcher(rules.flags(), 18)
    for i in range(6):
        p, history = _sample(rng, rules, i, (10, 40), 8)
        for winner in (0, 1):
            agree(kernel, dfpn, p, winner, 4, history, name)
