"""The games source of the generator (gyges.puzzles.generate.games): candidates from the builtin
engine's self-play games, the same for a seed, sound as the catalogue checker proves them
with the game that led to them as their history, and picked by ``--select source=games``."""

from __future__ import annotations

import pytest
from catalogues import all_puzzles
from common import PUZZLES, run_gyges

from gyges.formats.notation import parse_move
from gyges.game.moves import Game, apply_move, legal_moves
from gyges.game.position import Position
from gyges.game.rules import PRESETS
from gyges.puzzles.book.selection import Selection, select_puzzles
from gyges.puzzles.catalogue import load_all
from gyges.puzzles.catalogue.checking import check_catalogue
from gyges.puzzles.generate import generate_puzzles
from gyges.puzzles.generate.candidates import candidate
from gyges.puzzles.generate.games import games_source, history_problems
from gyges.puzzles.generate.params import SOURCES, Params, Source
from gyges.puzzles.generate.soundness import SoundnessAssessment

RULES = PRESETS["pbmserv"]
GAMES = Params(2, RULES, seed=3, sources=(Source.GAMES,))


def replays(found: Game, rules, history=None) -> bool:
    """Does the game lead from its first position (a setup pair: both home rows full, no
    ring between) to its position, each step one legal move under ``rules`` with the
    positions before it (the Renop law)? ``history``: instead of ``found.history``."""
    line = [h for h in (found.history if history is None else history)
            if isinstance(h, Position)]
    if not line or not _is_setup(line[0]):
        return False
    steps = [*line, found.position]
    for i in range(len(line)):
        before, after = steps[i], steps[i + 1]
        ml = legal_moves(before, rules, steps[:i], paths=False)
        if not any(not m.is_win and apply_move(before, m) == after for m in ml.moves):
            return False
    return True


def _is_setup(p: Position) -> bool:
    """A position where no ring has moved: six rings on each home row."""
    board = p.board_string().split("/")
    return all("." not in row for row in (board[0], board[-1])) and \
        all(set(row) == {"."} for row in board[1:-1])


@pytest.fixture(scope="module")
def games_file(tmp_path_factory):
    out = tmp_path_factory.mktemp("games") / "games.yaml"
    assert generate_puzzles(GAMES, out, 2).found == 2
    return out


def test_games_candidates_are_fixed_by_seed_and_index():
    made = [candidate(i, GAMES) for i in range(4)]
    assert made == [candidate(i, GAMES) for i in range(4)]
    found = [(pos, design) for _, pos, design in made if pos is not None]
    assert found, "no candidate in 4 games"
    for pos, design in found:
        history = [Position.from_string(h) for h in design["history"]]
        assert replays(Game(pos, tuple(history)), RULES)
    other = Params(2, RULES, seed=4, sources=(Source.GAMES,))
    assert [c[1:] for c in made] != [candidate(i, other)[1:] for i in range(4)]


def test_cli_games_run_writes_the_same_puzzles_with_two_jobs(games_file, tmp_path):
    out = tmp_path / "cli.yaml"
    r = run_gyges("generate", "--stipulation", "win in 2", "--count", "2", "--seed", "3",
                  "--jobs", "2", "--source", "games", "--quiet", "--out", out)
    assert r.exit_code == 0, r.output
    assert out.read_text() == games_file.read_text()


def test_games_puzzles_are_sound_with_their_game_as_history(games_file):
    puzzles, errors = load_all([games_file])
    assert errors == [] and len(puzzles) == 2
    assert not check_catalogue(puzzles).problems     # proven with the history
    for p in puzzles:
        assert p.source == games_source(p.history)
        assert p.history and replays(Game(p.position, p.history), RULES)
        start = p.history[0].board_string().split("/")
        assert f"setups {start[-1]} (South) and {start[0]} (North)" in p.source


def test_select_source_picks_exactly_the_games_entries(games_file):
    games, _ = load_all([games_file])
    shipped = [p for p in all_puzzles() if p.file == str(PUZZLES / "games.yaml")]
    assert len(shipped) == 12                  # puzzles/games.yaml, made by this source
    puzzles = [*all_puzzles(), *games]
    assert select_puzzles(puzzles, Selection.parse(["source=games"])) == [*shipped, *games]
    play = select_puzzles(puzzles, Selection.parse(["source=play"]))
    assert play and all(p.source.lower().startswith("random play") for p in play)
    assert not set(p.id for p in play) & set(p.id for p in games)
    compose = select_puzzles(puzzles, Selection.parse(["source=compose"]))
    assert compose and all(p.source.startswith("CP-SAT construction") for p in compose)
    seeds = select_puzzles(puzzles, Selection.parse(["source=seed 000"]))
    assert seeds and all(p.id.startswith("seed000") for p in seeds)


def test_a_history_that_forbids_the_key_is_found():
    """Under the Renop law a game that passed through the position after the key forbids
    the key: judged with that history, the candidate is not the puzzle it was alone."""
    p = next(p for p in all_puzzles() if p.rules == RULES and p.stipulation.kind == "win"
             and p.stipulation.moves == 2 and not p.history)
    key = parse_move(p.key, p.position, RULES)
    record = SoundnessAssessment(p.position, True, (), key=p.key, main_line=p.main_line,
                                 themes=p.themes)
    assert history_problems(record, RULES, 2, []) == []
    forbidden = [apply_move(p.position, key)]
    assert history_problems(record, RULES, 2, forbidden)
    free = RULES.with_options({"repetition": "allowed"})
    assert history_problems(record, free, 2, forbidden) == []


def test_both_stays_play_and_compose():
    assert SOURCES == (Source.PLAY, Source.COMPOSE)
    both = Params(3, RULES, seed=7)
    assert "games" not in both.to_json() and both.to_json()["play"]
    assert GAMES.command(5).endswith("--count 5 --source games")
    assert Params.from_json(GAMES.to_json()) == GAMES
