"""Play candidates (gyges.puzzles.generate.play): the walk back from a side's first shallower win
gives exact wins by fresh searches; its count of winning moves and its kept searcher
answer as fresh searches do."""

from __future__ import annotations

import random

import pytest

from gyges.game.moves import apply_move, legal_moves
from gyges.game.position import Position
from gyges.game.rules import PRESETS
from gyges.puzzles.generate.candidates import candidate_seed
from gyges.puzzles.generate.play import STEP_FROM, WALK_THREATS, _moves_that_win, play_candidate
from gyges.puzzles.generate.soundness import plausible_moves
from gyges.search import Prover, win_in

RULES = PRESETS["pbmserv"]
DEEP_RULES = RULES.with_options({"repetition": "allowed"})


def test_deep_walk_back_gives_exact_wins_only():
    """Every candidate the walk returns (from the fifth ply on, the side to move not able to
    land at once) is an exact win in 4, under the Renop law too; lines without one give
    None."""
    found = 0
    for rules, seed, indices in ((DEEP_RULES, 42, (14, 17, 20)), (RULES, 7, (44, 48, 52))):
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
    walker = "alphabeta" if kind == "kernel" else "dfpn"
    pos = Position.from_string(text)
    threats = plausible_moves(pos, RULES)[:WALK_THREATS]
    seen = set()
    for played in legal_moves(pos, RULES).moves[:12]:
        if played.is_win:
            continue
        asked = {apply_move(pos, m).key for m in [played, *threats]}
        fresh = Prover(RULES, "alphabeta", n)
        by_hand = sum(fresh.wins(Position.unchecked(tuple(b), pos.turn.other), pos.turn,
                                 n - 1, [pos]) for b in asked)
        got = _moves_that_win(pos, apply_move(pos, played), Prover(RULES, walker, n), n)
        assert got == min(by_hand, 2)
        seen.add(got)
    assert seen == {wins}


@pytest.mark.parametrize("rules", [RULES, DEEP_RULES])
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
@pytest.mark.parametrize("rules", [RULES, DEEP_RULES, PRESETS["bga"]])
def test_win_in_with_a_kept_searcher_answers_as_fresh_searches(rules, kind):
    """One search session asked along a game line (as the walk does: the kernel for a win
    in 3, df-pn deeper) gives the answers of a fresh search per question."""
    from gyges.game.moves import Game

    rng = random.Random(3)
    game = Game(Position.setup("123321", "231132"))
    kept = Prover(rules, "alphabeta" if kind == "kernel" else "dfpn", 3)
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


def test_fewer_threats_asked_find_no_more_winning_moves():
    """The walk's cap on the threats it asks (``threats_asked``) only leaves moves out."""
    pos = Position.from_string("321.../.1..../2..1../2...3./..2.../33...1 S")
    played = apply_move(pos, legal_moves(pos, RULES).moves[0])
    counts = [_moves_that_win(pos, played, Prover(RULES, "alphabeta", 2), 2, k)
              for k in (0, 1, WALK_THREATS)]
    assert counts == sorted(counts) and counts[-1] == 1


@pytest.mark.slow
def test_the_win_in_6_walk_goes_back_one_move_deeper_at_a_time(monkeypatch):
    """From STEP_FROM moves on, each ply asks for a win in N - 3 and the walk back asks a
    few moves whether they win within N - 2, then N - 1, then N (again N one step further
    back when that position wins in N - 1): no question six moves deep before the line has
    held five."""
    assert STEP_FROM == 6
    asked: list[int] = []
    plies: set[int] = set()
    among, wins = Prover.winners_among, Prover.wins

    def record_among(self, position, within, *args, **kwargs):
        asked.append(within)
        return among(self, position, within, *args, **kwargs)

    def record_wins(self, position, winner, within, line=()):
        plies.add(within)
        return wins(self, position, winner, within, line)

    monkeypatch.setattr(Prover, "winners_among", record_among)
    monkeypatch.setattr(Prover, "wins", record_wins)
    for index in range(12):
        pos = play_candidate(random.Random(candidate_seed(7, index)), RULES, 6)
        assert pos is None or (win_in(pos, RULES, 6) and not win_in(pos, RULES, 5))
    walks = "".join(map(str, asked)).replace("4", " 4").split()
    assert walks and set(walks) <= {"4", "45", "456", "4566"}
    assert "45" in walks                  # some walks held a move deeper
    assert 3 in plies and max(plies) <= 5  # each ply's win in 3; never a whole position 6 deep


def test_a_win_in_6_candidate_is_an_exact_win_in_6():
    """Seed 7's candidate 23 under pbmserv (the Renop law on): the careful, step-by-step
    walk returns a position where the side to move wins in 6 and not in 5, by fresh
    searches."""
    pos = play_candidate(random.Random(candidate_seed(7, 23)), RULES, 6)
    assert pos is not None and not legal_moves(pos, RULES).wins
    assert win_in(pos, RULES, 6) and not win_in(pos, RULES, 5)
