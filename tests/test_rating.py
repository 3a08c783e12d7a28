"""The difficulty rating (gyges.puzzles.rating): the solvers' effort orders puzzles whose
relative difficulty is known by construction (a part of a solution is never harder than
the whole), the keys the engine finds are the prover's, the levels grow with the effort and
share the shipped catalogue out, and every shipped entry's difficulty is its level."""

from __future__ import annotations

from collections import Counter

import pytest
from catalogues import every_puzzle

from gyges.engine.builtin import Engine, Limit, Options
from gyges.game.moves import Game
from gyges.puzzles.catalogue import Puzzle
from gyges.puzzles.lines import play_line
from gyges.puzzles.rating import (
    BEYOND,
    LADDER,
    RATING_HASH_BITS,
    THRESHOLDS,
    effort,
    level,
    rate,
    turns_tested,
)
from gyges.search import Prover
from gyges.search.stipulation import Stipulation

LOWEST = LADDER[0].bit_length() - 1


def _effort(p: Puzzle) -> int:
    return effort(p.position, p.rules, p.stipulation, p.main_line, p.cooks, p.history, p.key)


def _shallow(p: Puzzle) -> bool:
    return p.stipulation.moves <= 3


def _wins(deep: bool) -> list[Puzzle]:
    return [p for p in every_puzzle() if p.stipulation.kind == "win"
            and (4 <= p.stipulation.moves <= 4 if deep else _shallow(p))]


def test_levels_grow_with_the_effort_and_span_the_scale():
    efforts = range(LOWEST, BEYOND + 1)
    levels = [level(e) for e in efforts]
    assert levels == sorted(levels)
    assert levels[0] == 1 and levels[-1] == 5 and set(levels) == {1, 2, 3, 4, 5}
    assert list(THRESHOLDS) == sorted(THRESHOLDS) and len(THRESHOLDS) == 4


def _parts(p: Puzzle) -> list[tuple[Stipulation, tuple[str, ...], tuple]]:
    """The puzzle's main line cut after each of the loser's defences: the position then is
    a win in fewer moves whose solution is the rest of the line (the longest defence's
    sub-puzzles, down to the win in 1; none after a key that leaves the loser blocked)."""
    line = play_line(p.position, p.rules, p.main_line, p.history)
    game = Game(p.position, p.history)
    winner = line.moves[-1].side
    parts = []
    left = p.stipulation.moves
    for i, turn in enumerate(line.turns):
        for m in turn:
            if m.is_win:
                break
            game = game.play(m)
        if turn[0].side is winner:
            left -= 1
        else:
            parts.append((Stipulation("win", left, winner), p.main_line[i + 1:],
                          (game.position, game.history)))
    return parts


def _check_parts_never_harder(p: Puzzle) -> None:
    whole = _effort(p)
    previous = whole
    for st, rest, (position, history) in _parts(p):
        part = effort(position, p.rules, st, rest, (), history)
        assert part <= previous, (p.id, str(st), part, previous)
        if st.moves == 1:   # a win in 1: found before any search
            assert part == LOWEST, p.id
        previous = part


@pytest.mark.parametrize("deep", [False, pytest.param(True, marks=pytest.mark.slow)])
def test_a_part_of_a_solution_is_never_harder_than_the_whole(deep):
    """Known by construction: after the key and the longest defence, the position is a win
    in n - 1 whose solution is part of the whole's; it is never rated harder, and so on
    down to the win in 1 of the same line, the easiest. The wins in 2 and 3 of puzzles/
    (the wins in 4 of puzzles/deep/: slow)."""
    puzzles = _wins(deep)
    assert len(puzzles) >= 20
    for p in puzzles:
        _check_parts_never_harder(p)


def test_the_keys_the_engine_finds_are_the_provers():
    """Cross-check: at the rung of each shallow win's effort, the engine's move at the root
    is proven to win by the prover, whatever the catalogue declares."""
    for p in _wins(False):
        if p.stipulation.moves == 1:
            continue
        e = _effort(p)
        engine = Engine(p.rules, Options(prove=0, hash_bits=RATING_HASH_BITS, cores=1,
                                         network=None))
        a = engine.analyse(p.position, Limit(nodes=2 ** e), p.history)
        engine.close()
        game = Game(p.position, p.history).play(a.move)
        prover = Prover(p.rules, within=p.stipulation.moves, history=game.history)
        assert prover.wins(game.position, p.position.turn, p.stipulation.moves - 1), p.id


def test_what_is_tested_is_the_winners_turns_on_the_main_line():
    (p,) = [p for p in every_puzzle() if p.id == "seed000-resignation"]
    turns = turns_tested(p.position, p.rules, p.stipulation, p.main_line, p.cooks,
                         p.history)
    assert [(t.task, t.moves, t.side) for t in turns] == [
        ("win", 2, p.position.turn), ("win", 1, p.position.turn)]
    (loss,) = [p for p in every_puzzle() if p.id == "solver-007"]
    turns = turns_tested(loss.position, loss.rules, loss.stipulation, loss.main_line)
    assert [(t.task, t.moves, t.side) for t in turns] == [
        ("loss", 3, loss.position.turn)] + [("win", k, loss.position.turn.other)
                                            for k in (3, 2, 1)]


def _shipped(deep: bool) -> list[Puzzle]:
    return [p for p in every_puzzle() if _shallow(p) != deep]


@pytest.mark.parametrize("deep", [False, pytest.param(True, marks=pytest.mark.slow)])
def test_every_shipped_entry_is_rated_on_the_one_scale(deep):
    """The difficulty of every entry of puzzles/ is the level of the solvers' effort on it
    (``gyges catalogue rate --write`` sets them): one scale for the book's chapters. The
    wins in 4 to 6 of puzzles/deep/ (minutes) are the slow half."""
    puzzles = _shipped(deep)
    assert len(puzzles) >= 17
    for p in puzzles:
        assert p.difficulty == level(_effort(p)), p.id


def test_rate_is_the_level_of_the_effort_and_builds_a_missing_main_line():
    (p,) = [p for p in every_puzzle() if p.id == "gen-w3-s1-00013"]
    given = rate(p.position, p.rules, p.stipulation, p.key, main_line=p.main_line,
                 cooks=p.cooks, history=p.history)
    built = rate(p.position, p.rules, p.stipulation, p.key, history=p.history)
    assert given == built
    assert given.difficulty == level(given.score) == p.difficulty


def test_no_level_holds_over_30_percent_of_the_shipped_catalogue():
    """The thresholds share the shipped catalogue out (its difficulties are the levels:
    test above)."""
    puzzles = every_puzzle()
    counts = Counter(p.difficulty for p in puzzles)
    assert set(counts) == {1, 2, 3, 4, 5}
    assert max(counts.values()) <= 0.3 * len(puzzles), counts
