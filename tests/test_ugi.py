"""The UGI protocol: conversions (property-based), a real conversation with ``gyges ugi``
as a subprocess, the client against ``gyges ugi`` and against the peer engine Helios (when
it is built), and games between engines over UGI."""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gyges import PRESETS, Position, Side
from gyges.engine.builtin import Limit, Options
from gyges.engine.client import EngineFailure, popen_ugi
from gyges.engine.players import open_player
from gyges.engine.refereed import play_game
from gyges.engine.score import Score
from gyges.engine.ugi import (
    UgiError,
    board_from_ugi,
    board_to_ugi,
    move_from_ugi,
    move_to_ugi,
)
from gyges.formats.notation import parse_turn
from gyges.game.moves import apply_move, legal_moves

PBM = PRESETS["pbmserv"]
PEER = PRESETS["helios"]
GYGES_UGI = [sys.executable, "-c", "from gyges_cli.main import cli; cli()", "ugi"]
HELIOS = Path("/tmp/peer/ugi/target/release/gyges_engine")


@st.composite
def positions(draw) -> Position:
    sizes = draw(st.lists(st.sampled_from([1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3]), min_size=1,
                          max_size=12, unique_by=None))
    counts = {1: 0, 2: 0, 3: 0}
    rings = []
    for s in sizes:
        if counts[s] < 4:
            counts[s] += 1
            rings.append(s)
    slots = draw(st.permutations(range(36)))[: len(rings)]
    board = [0] * 36
    for slot, size in zip(slots, rings, strict=True):
        board[slot] = size
    return Position(tuple(board), draw(st.sampled_from([Side.SOUTH, Side.NORTH])))


@given(positions(), st.booleans())
def test_boards_round_trip(p: Position, bare: bool):
    text = board_to_ugi(p, bare=bare)
    back = board_from_ugi(text)
    assert back == (p if p.turn is Side.SOUTH else p.flipped())
    assert board_to_ugi(back, bare=bare) == text


@settings(max_examples=40, deadline=None)
@given(positions())
def test_moves_round_trip_and_mean_the_same_on_the_ugi_board(p: Position):
    """Every legal move, written in UGI and read back, is the same move; read on the
    board as UGI sees it (South to move), it is a legal move with the same result."""
    seen = board_from_ugi(board_to_ugi(p))
    moves = legal_moves(p, PBM, paths=False)
    if moves.mover is not p.turn:
        return
    there = legal_moves(seen, PBM, paths=False)
    assert len(there) == len(moves)
    for m in moves:
        text = move_to_ugi(m.start, m.end, m.relocation, p.turn)
        assert move_from_ugi(text, p.turn) == (m.start, m.end, m.relocation)
        start, end, reloc = move_from_ugi(text, Side.SOUTH)
        found = there.find(type(m)(start, end, reloc, side=Side.SOUTH))
        assert found is not None
        if not m.is_win:
            after = apply_move(p, m)
            mine = apply_move(seen, found)
            assert mine == (after if p.turn is Side.SOUTH else after.flipped())


def test_bad_boards_and_moves_say_what_is_wrong():
    for bad in ("123", "321123/000000", "421123/000000/000000/000000/000000/321123",
                "0" * 37, "0" * 36 + "01", "000000/" * 5 + "000000"):
        with pytest.raises(UgiError):
            board_from_ugi(bad)
    for bad in ("1", "1|2|3|4", "a|b", "37|1", "1|2|36", "40|1"):
        with pytest.raises(UgiError):
            move_from_ugi(bad, Side.SOUTH)


class Conversation:
    """``gyges ugi`` as a subprocess, spoken to line by line."""

    def __init__(self, *args: str):
        self.proc = subprocess.Popen([*GYGES_UGI, *args], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     text=True, bufsize=1)

    def send(self, line: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def until(self, word: str) -> list[str]:
        assert self.proc.stdout is not None
        lines = []
        while True:
            line = self.proc.stdout.readline()
            assert line, f"the engine ended before {word!r}: {lines}"
            lines.append(line.strip())
            if line.split()[:1] == [word]:
                return lines

    def close(self) -> int:
        try:
            self.send("quit")
        except (BrokenPipeError, OSError):
            pass
        try:
            return self.proc.wait(10)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()


def test_a_conversation_with_gyges_ugi():
    c = Conversation("--rules", "pbmserv")
    try:
        c.send("ugi")
        lines = c.until("ugiok")
        assert lines[0] == "id name gyges" and "option maxTime" in lines
        c.send("isready")
        assert c.until("readyok") == ["readyok"]
        # bad commands: one info string line each, and the engine goes on
        for bad in ("bogus", "setoption maxPly x", "setoption nothing 3", "setpos data 123",
                    "setpos", "go now please" * 0 + "setpos data 421123/000000"):
            c.send(bad)
            c.send("isready")
            lines = c.until("readyok")
            assert len(lines) == 2 and lines[0].startswith("info string "), (bad, lines)
        # the seed's bouncing example, North to move, as UGI sees it: it lands at once
        c.send("setoption maxPly 3")
        c.send("setpos data 000000/300000/001010/102303/302201/000020")
        c.send("go")
        assert c.until("bestmove")[-1].split()[1] == "6|37"
        # a search with infos, and a legal move
        c.send("setoption name maxPly value 2")
        c.send("setpos start")
        c.send("go")
        lines = c.until("bestmove")
        assert [ln.split()[:3] for ln in lines[:-1]] == [["info", "ply", "1"],
                                                          ["info", "ply", "2"]]
        move = move_from_ugi(lines[-1].split()[1], Side.SOUTH)
        start = Position.setup("321123", "321123")
        assert legal_moves(start, PBM).find(type(legal_moves(start, PBM)[0])(*move)) is not None
        # no limit: the search runs until stop, and answers with its best so far
        c.send("setoption maxPly 90")
        c.send("setoption maxTime 1000000")
        c.send("setoption maxNodes 1000000000000000")
        c.send("setoption prove 0")
        _stop_a_search(c)
    finally:
        assert c.close() == 0


def _stop_a_search(c: Conversation) -> None:
    """A search with no limit answers ``isready`` while it runs, and ``stop`` at once with
    its best move so far."""
    c.send("setpos data 23112300000000000000000000000032112300")
    c.send("go")
    c.until("info")                               # the search is under way
    c.send("isready")
    assert c.until("readyok")[-1] == "readyok"    # answered during the search
    c.send("stop")
    lines = c.until("bestmove")
    assert lines[-1].split()[1] != "null"


def test_gyges_ugi_on_two_cores_stops_and_leaves_nothing_running():
    """``--cores 2`` (and ``setoption cores``, capped at the machine's cores with an
    ``info string`` note): a search with no limit answers ``stop`` at once with a move;
    at ``quit`` the helper processes end with the engine (its output closes)."""
    c = Conversation("--cores", "2", "--prove", "0")
    try:
        c.send("setoption cores 3")
        c.send("isready")
        cores = os.cpu_count() or 1
        assert c.until("readyok") == (
            [f"info string cores 3: this machine has {cores} core{'s' if cores != 1 else ''}; "
             f"using {cores}"] if cores < 3 else []) + ["readyok"]
        c.send("setoption maxPly 4")
        c.send("setpos start")
        c.send("go")
        lines = c.until("bestmove")
        assert [ln.split()[2] for ln in lines[:-1]] == ["1", "2", "3", "4"]
        c.send("setoption maxPly 90")
        c.send("setoption maxTime 1000000")
        _stop_a_search(c)
    finally:
        assert c.close() == 0
    assert c.proc.stdout is not None
    assert c.proc.stdout.read() == ""        # no helper keeps the output open


def test_each_go_searches_afresh():
    """The same board and options give the same answer and node counts, whatever was
    searched before (the protocol has no new game: the table is cleared at each go)."""
    c = Conversation("--prove", "0")
    try:
        c.send("setoption maxPly 3")
        searches = []
        for board in ("start", "data 231123000000000000000000000000321123",
                      "start", "start"):
            c.send(f"setpos {board}")
            c.send("go")
            searches.append(c.until("bestmove"))

        def counts(lines: list[str]) -> list[tuple[str, ...]]:
            """Each line without its times and rates."""
            out = []
            for line in lines:
                words = line.split()
                out.append(tuple(w for i, w in enumerate(words)
                                 if not (i and words[i - 1] in ("nps", "time"))))
            return out

        assert counts(searches[0]) == counts(searches[2]) == counts(searches[3])
        assert "nodes" in searches[0][0]
    finally:
        assert c.close() == 0


def test_each_info_line_gives_the_calibrated_win_probability():
    """``winprob P`` after the score: what ``analyse`` prints for it, on the scale of the
    evaluation searching (the default's, or the linear one's with ``--network linear``)."""
    for args in ((), ("--network", "linear")):
        options = Options(network=None) if args else Options()
        c = Conversation("--prove", "0", *args)
        try:
            c.send("setoption maxPly 3")
            c.send("setpos data 231123000000000000000000000000321123")
            c.send("go")
            infos = [ln.split() for ln in c.until("bestmove")[:-1]]
            assert len(infos) == 3
            for words in infos:
                score = Score.from_int(int(words[words.index("score") + 1]))
                assert words[words.index("score") + 2] == "winprob"
                assert words[words.index("winprob") + 1] == \
                    f"{score.probability(options.calibration):.4f}", (args, words)
        finally:
            assert c.close() == 0


def _answer(stdin: str, *args: str) -> list[str]:
    proc = subprocess.run([*GYGES_UGI, *args], input=stdin, text=True, capture_output=True,
                          timeout=120)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout.splitlines()


@pytest.mark.parametrize("end", ["", "quit\n", "stop\n"])
def test_a_go_always_answers_a_searched_move(end: str):
    """``go`` then the end of the input, ``quit`` or ``stop`` before the search began:
    the answer is a searched move (a ply at least, its info line first), never a move
    nobody looked at."""
    lines = _answer("setoption prove 0\nsetpos start\ngo\n" + end)
    assert lines[-1].startswith("bestmove ") and lines[-1].split()[1] != "null"
    infos = [ln for ln in lines if ln.startswith("info ply")]
    assert infos and infos[0].split()[:3] == ["info", "ply", "1"], lines
    assert infos[-1].split()[4] == lines[-1].split()[1]     # the move the search chose


def test_go_arguments_and_a_go_during_a_search_are_answered():
    """``go depth 2`` (the limits are options): one info string line, then the search
    as set; a ``go`` while a search runs: one info string line, and it is dropped."""
    c = Conversation("--prove", "0")
    try:
        c.send("setoption maxPly 2")
        c.send("setpos start")
        c.send("go depth 2")
        lines = c.until("bestmove")
        assert lines[0].startswith("info string go takes no arguments"), lines
        assert "'depth 2'" in lines[0]
        assert [ln.split()[2] for ln in lines[1:-1]] == ["1", "2"]
        c.send("setoption maxPly 0")
        c.send("setpos start")
        c.send("go")
        c.until("info")                       # searching, with no limit
        c.send("go")
        c.send("isready")
        lines = c.until("readyok")
        assert any(ln.startswith("info string a search is running") for ln in lines), lines
        c.send("stop")
        assert c.until("bestmove")[-1].split()[1] != "null"
        c.send("isready")
        assert c.until("readyok")[-1] == "readyok"     # no second answer came
    finally:
        assert c.close() == 0


def test_a_limit_set_to_zero_is_no_limit():
    """``setoption maxTime 0`` (and maxPly, maxNodes) takes a limit away again."""
    c = Conversation("--prove", "0")
    try:
        c.send("setoption maxPly 1")
        c.send("setpos start")
        c.send("go")
        assert sum(ln.startswith("info ply") for ln in c.until("bestmove")) == 1
        c.send("setoption maxPly 0")
        c.send("go")
        lines = c.until("info")
        lines += c.until("info")              # a second depth: the limit is gone
        c.send("stop")
        c.until("bestmove")
    finally:
        assert c.close() == 0


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_ctrl_c_during_go_still_answers():
    """SIGINT during a search: the best move so far is answered, then the program ends
    with status 130."""
    import signal

    c = Conversation("--prove", "0")
    c.send("setpos start")
    c.send("go")
    c.until("info")
    c.proc.send_signal(signal.SIGINT)
    lines = c.until("bestmove")
    assert lines[-1].split()[1] != "null"
    assert c.proc.wait(30) == 130


def test_gyges_ugi_exits_at_the_end_of_its_input():
    proc = subprocess.run([*GYGES_UGI], input="ugi\nsetoption maxPly 1\ngo\n", text=True,
                          capture_output=True, timeout=60)
    assert proc.returncode == 0
    assert proc.stdout.splitlines()[-1].startswith("bestmove ")


def test_the_client_plays_against_gyges_ugi():
    with popen_ugi(GYGES_UGI) as engine:
        assert engine.name == "gyges" and "maxPly" in engine.options
        p = Position.from_string("....../3...../..1.1./1.23.3/3.22.1/....2. N")
        r = engine.play(p, Limit(depth=2))
        assert legal_moves(p, PBM).find(r.move).is_win
        a = engine.analyse(Position.setup("231123", "321123"), Limit(depth=2))
        assert a.move is not None and legal_moves(a.position, PBM).find(a.move) is not None
        assert a.depth == 2 and a.nodes > 0
        # the line it is sent: the builtin engine's own line at that depth, move for move
        from gyges.engine import Engine, Options
        own = Engine(PBM, Options(prove=3)).analyse(a.position, Limit(depth=2))
        assert len(a.pv) == 2
        assert [(m.start, m.end, m.relocation, m.side) for m in a.pv] == \
            [(m.start, m.end, m.relocation, m.side) for m in own.pv]


#: A game of two gyges engines over UGI in which North, told only the board, played a move
#: that repeats an earlier position (51x44=43 undoes 43x44=51): illegal by the Renop law.
RENOP_GAME = ("113322", "332112", [
    "11-12x13=35", "65-64x63=32", "12-13-14-35x16=52", "64-63x62=34", "16-15-35-34-33",
    "63-62x61=23", "14-15x13=24", "61x62=44", "13x23=22", "62-52x32=55", "15x35=25",
    "66-55x44=45", "22-32x33=31", "52x32=36", "25-24-23-31x32=53", "55-44-42", "24x34=22",
    "53-42-31x32=43", "22-23x31=21", "43x44=51", "21x31=22"])


def test_the_history_goes_over_ugi_and_the_renop_law_holds():
    south, north, moves = RENOP_GAME
    p, history = Position.setup(south, north), []
    for text in moves:
        m = parse_turn(text, p, PBM, history)[0]
        history.append(p)
        p = apply_move(p, m)
    legal = legal_moves(p, PBM, history)
    # the linear evaluation's choice from the board alone is the move the law forbids
    with popen_ugi([*GYGES_UGI, "--network", "linear"]) as engine:
        assert engine.takes_history
        blind = engine.analyse(p, Limit(depth=2))           # the board alone
        told = engine.analyse(p, Limit(depth=2), history)
    assert str(blind.move) == "51x44=43" and legal.find(blind.move) is None
    assert told.move is not None and legal.find(told.move) is not None
    with subprocess.Popen(GYGES_UGI, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                          text=True) as proc:
        out, _ = proc.communicate("setpos data 000000/000000/000000/000000/000000/000001 "
                                  "history x:123\nquit\n", timeout=60)
    assert "info string 'x:123' is not a history item" in out


def test_the_client_fails_cleanly():
    with pytest.raises(EngineFailure, match="cannot start"):
        popen_ugi(["/nonexistent/engine"])
    with pytest.raises(EngineFailure):
        popen_ugi([sys.executable, "-c", "print('hello')"])


def test_a_game_between_the_builtin_engine_and_itself_over_ugi():
    ugi = open_player("ugi:" + shlex.join(GYGES_UGI), PBM)
    builtin = open_player("builtin:depth=1", PBM)
    try:
        game = play_game(builtin, ugi, ("231123", "321123"), PBM, Limit(depth=1),
                         max_plies=8, names=("builtin:depth=1", "ugi:gyges ugi"))
    finally:
        ugi.close()
    assert game.result in ("south", "north", "draw") and game.moves
    assert "illegal" not in game.reason and "failed" not in game.reason


@pytest.mark.skipif(not HELIOS.exists(), reason="Helios is not built (see docs/engine.md)")
def test_the_client_plays_against_helios():
    helios = popen_ugi([str(HELIOS)])
    try:
        assert helios.name == "Helios"
        p = Position.from_string("030100/000200/002000/021100/300300/002130 S")
        for position in (p, p.flipped()):
            r = helios.play(position, Limit(time=0.2))
            assert legal_moves(position, PEER).find(r.move) is not None
        builtin = open_player("builtin:depth=1,prove=0", PEER)
        game = play_game(builtin, helios, ("231123", "321123"), PEER, Limit(time=0.1),
                         max_plies=6)
        assert "illegal" not in game.reason and "failed" not in game.reason
    finally:
        helios.close()
    assert helios._proc.poll() is not None
