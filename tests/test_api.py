"""The public API: what ``import gyges`` and each layer's package export, what importing the
root loads, and the values' ``repr()`` in notation."""

from __future__ import annotations

import dataclasses
import importlib
import re
import subprocess
import sys

import pytest
from common import BOUNCING, DATA

import gyges
from gyges.formats.notation import read_move
from gyges.formats.posfile import load_position_file
from gyges.formats.record import parse_record, replay
from gyges.game.movecount import perft_table
from gyges.game.moves import Game, Move, MoveList, legal_moves, perft
from gyges.game.position import START, Position
from gyges.game.rules import PRESETS, Side


@pytest.mark.parametrize("package", ["gyges", "gyges.game", "gyges.formats"])
def test_every_exported_name_is_there(package):
    module = importlib.import_module(package)
    assert len(set(module.__all__)) == len(module.__all__)
    for name in module.__all__:
        assert getattr(module, name) is not None, name


def test_the_root_gives_the_main_names():
    for name in ("Position", "Move", "MoveList", "Game", "RuleSet", "Side", "PRESETS", "START",
                 "legal_moves", "apply_move", "can_land", "solve", "Solution", "format_move",
                 "parse_move", "load_position", "PositionFile", "InputError"):
        assert name in gyges.__all__, name
    p = gyges.load_position(BOUNCING).position
    move = gyges.parse_move("51-43-33-31-21-S", p, gyges.PRESETS["pbmserv"])
    assert gyges.format_move(move) == "51-43-33-31-21-S"
    assert isinstance(gyges.solve(p, gyges.PRESETS["pbmserv"]), gyges.Solution)


def test_importing_the_root_loads_nothing_heavy():
    heavy = ("dask", "distributed", "weasyprint", "ortools", "numpy", "click", "pypdf")
    code = ("import sys, gyges; print(' '.join(sorted({m.split('.')[0] for m in sys.modules} "
            f"& {set(heavy)!r})))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == ""


def test_reprs_show_notation():
    moves = legal_moves(START, PRESETS["pbmserv"])
    assert repr(START) == "Position('321123/....../....../....../....../231123 S')"
    assert repr(moves[0]) == "Move('11-22', Side.SOUTH)"
    assert repr(moves) == ("<MoveList of South in 321123/....../....../....../....../231123 S: "
                           "336 moves, 11-22, 11-31, ...>")
    win = legal_moves(Position.from_string(BOUNCING), PRESETS["pbmserv"]).wins[0]
    assert repr(win) == "Move('51-43-33-31-21-S', Side.NORTH)"
    assert repr(PRESETS["summary"]) == "RuleSet('summary')"
    game = Game(START).play(moves[0])
    assert repr(game) == ("<Game at 321123/....../....../....../.2..../.31123 N after 1 "
                          "earlier position>")
    assert repr(read_move("13x14=44")) == "ParsedMove('13x14=44', kind='land')"
    record = parse_record((DATA / "sample_game.txt").read_text(), "g.txt")
    assert repr(record).startswith("<GameRecord g.txt: 1 231123 2 321123 3 16-35 4 61-53 ")
    assert repr(record.turns[0]) == "RecordedTurn(3, Side.SOUTH, '16-35')"
    assert repr(replay(record, PRESETS["pbmserv"])) == \
        "<Replay of g.txt: 10 turns legal, North wins>"
    pf = load_position_file(DATA / "positions" / "sample-game-move5.yaml")
    assert repr(pf).endswith("rules RuleSet('pbmserv'), 2 earlier positions, previous "
                             "321123/....../....../....3./....../23112. N>")
    counts = [perft(START, PRESETS["bga"], d)[0] for d in (1, 2)]
    assert repr(perft_table(START, PRESETS["bga"], 2)) == \
        f"<Perft of {START} under bga: 1: {counts[0]}, 2: {counts[1]}>"


def test_no_repr_shows_slot_numbers():
    """A repr names slots as the notation does (``16``), never by their index (0..35)."""
    moves = legal_moves(Position.from_string(BOUNCING), PRESETS["pbmserv"])
    for value in (*moves, moves, Game(moves.position), PRESETS["dorbec"]):
        assert not re.search(r"start=|path=|landings=|board=\(", repr(value)), repr(value)


def test_move_list_wins_are_kept_when_the_list_is_made():
    listed = legal_moves(Position.from_string(BOUNCING), PRESETS["pbmserv"])
    assert listed.wins == tuple(m for m in listed if m.is_win) and len(listed.wins) == 1
    made = MoveList(listed.position, listed.mover, listed.moves)
    assert made == listed and made.wins == listed.wins
    fewer = dataclasses.replace(listed, moves=listed.moves[1:])
    assert fewer.wins == ()
    assert MoveList(START, Side.SOUTH, (Move(0, 36, side=Side.SOUTH),)).wins[0].is_win
