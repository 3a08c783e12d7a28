"""The builtin engine over the UGI protocol (``gyges ugi``): any UGI client (a GUI, a
match runner, :func:`gyges.engine.client.popen_ugi`) can use it.

Commands: ``ugi`` (id lines, the options, ``ugiok``), ``isready`` (``readyok``, also
during a search), ``setoption NAME VALUE`` (or ``setoption name NAME value VALUE``;
``maxTime`` seconds, ``maxPly``, ``maxNodes``, ``prove``, ``hash``, ``cores``),
``setpos start``, ``setpos data BOARD`` (six slashed groups or 38 digits), ``go``,
``stop`` (during ``go``: the best move so far), ``quit``. A search sends an ``info`` line
per depth (``ply``, ``bestmove``, ``score``, ``nodes``, ``nps``, ``time``, ``pv``) and
ends with ``bestmove MOVE score S time T`` (``bestmove null`` when the side to move has
no move). A search with no limit set (or each at 0 or at
:data:`~gyges.engine.ugi.NO_LIMIT`, the values that mean none) runs until ``stop``.

Every ``go`` answers with a searched move: at least one ply deep, or the prover's answer,
also when ``stop``, ``quit``, the end of the input or Ctrl-C comes first (``quit`` and
the end of the input after a ``go`` answer it, then end). ``go`` takes no arguments (the
limits are options): arguments get an ``info string`` line and the search runs as set; a
``go`` during a search gets an ``info string`` line and is dropped. Anything else gets
one ``info string`` line saying what is wrong.

Each ``go`` searches afresh (the table cleared first), as Helios does: the protocol has
no new-game command, so the answer depends on the position and the options only,
whatever the program searched before. The protocol sends no history; gyges takes it as an
extension, ``setpos data BOARD history ITEM...`` (:mod:`gyges.engine.ugi`), announced by
an ``info string`` line of its ``ugi`` answer, so that a gyges client gives the game's
earlier positions and the Renop law holds.

Scores are the search's integers: hundredths of the evaluation's logit, and ``32000 -
p`` for a landing on the ``p``-th ply (its negative for the opponent's). Each ``info``
line also gives ``winprob P``, the side to move's win probability as ``analyse`` prints
it (calibrated on the evaluation's own scale; 1 or 0 for a proven result), after the
score (gyges's own client reads the fields by name).

The search runs in this thread (the caller's: Ctrl-C and the prover's timer work there);
a reader thread answers ``isready`` and passes ``stop`` and ``quit`` on at once.
"""

from __future__ import annotations

import dataclasses
import queue
import threading
from collections.abc import Callable
from typing import TextIO

from gyges.engine.builtin import (
    MAX_CORES,
    MAX_HASH_BITS,
    MAX_PROVE_DEPTH,
    MAX_SEARCH_DEPTH,
    MIN_HASH_BITS,
    Analysis,
    Engine,
    EngineError,
    Limit,
    Options,
    SearchInterrupted,
    machine_cores,
)
from gyges.engine.ugi import (
    HISTORY_EXTENSION,
    NO_LIMIT,
    UgiError,
    board_from_ugi,
    history_from_ugi,
    move_to_ugi,
)
from gyges.game.moves import Move
from gyges.game.position import Position
from gyges.game.rules import RuleSet

__all__ = ["UGI_START", "serve"]

#: ``setpos start``: the peer engine's starting board (both home rows 321123).
UGI_START = Position.setup("321123", "321123")

COMMANDS = ("ugi", "isready", "setoption", "setpos", "go", "stop", "quit")

#: The options ``setoption`` takes: name -> (kind, lowest, highest, what it sets).
#: The limits (``maxTime``, ``maxPly``, ``maxNodes``) take 0 for none.
UGI_OPTIONS: dict[str, tuple[type, float, float, str]] = {
    "maxTime": (float, 0, 1e9, "seconds a move, 0 for no limit"),
    "maxPly": (int, 0, 127, "plies a move, 0 for no limit"),
    "maxNodes": (int, 0, 10 ** 18, "nodes a move, 0 for no limit"),
    "prove": (int, 0, MAX_PROVE_DEPTH, "the proof horizon, in moves of the winner"),
    "hash": (int, MIN_HASH_BITS, MAX_HASH_BITS, "the table's size, 2 ** hash entries"),
    "cores": (int, 1, MAX_CORES, "processes searching"),
}


class _Server:
    def __init__(self, rules: RuleSet, out: TextIO, options: Options):
        self.rules = rules
        self.out = out
        self.options = options
        self.engine = Engine(rules, options)
        self.position = UGI_START
        self.history: tuple[Position, ...] = ()
        self.limits: dict[str, float] = {}
        self.lock = threading.Lock()
        self.searching = False
        self.stop_pending = False
        self.commands: queue.Queue[str | None] = queue.Queue()

    def say(self, line: str) -> None:
        with self.lock:
            self.out.write(line + "\n")
            self.out.flush()

    # -- the reader thread -------------------------------------------------------------

    def read(self, lines: TextIO) -> None:
        for raw in lines:
            line = raw.strip()
            word = line.split()[0] if line else ""
            if word == "isready" and self.searching:
                self.say("readyok")                # at once, during a search
            elif word == "go" and self.searching:
                self.say("info string a search is running: this go is dropped (send stop "
                         "first)")
            elif word in ("stop", "quit"):
                self.halt()
                if word == "quit":
                    self.commands.put("quit")
                    return
            elif line:
                self.commands.put(line)
        self.halt()
        self.commands.put(None)

    def halt(self) -> None:
        """Stop a running search now, or the next ``go`` not yet started."""
        with self.lock:
            if self.searching:
                self.engine.stop()
            else:
                self.stop_pending = True

    # -- the commands --------------------------------------------------------------------

    def run(self) -> None:
        while True:
            line = self.commands.get()
            if line is None or line == "quit":
                return
            words = line.split()
            handler = self.handlers().get(words[0])
            if handler is None:
                self.say(f"info string unknown command {words[0][:40]!r}: the commands are "
                         f"{', '.join(COMMANDS)}")
                continue
            try:
                handler(words[1:])
            except (EngineError, UgiError) as e:
                self.say(f"info string {' '.join(str(e).split())}")

    def handlers(self) -> dict[str, Callable[[list[str]], None]]:
        return {"ugi": self.ugi, "isready": self.isready, "setoption": self.setoption,
                "setpos": self.setpos, "go": self.go}

    def isready(self, args: list[str]) -> None:
        self.say("readyok")

    def ugi(self, args: list[str]) -> None:
        self.say("id name gyges")
        self.say("id author the gyges developers")
        for name in UGI_OPTIONS:
            self.say(f"option {name}")
        self.say(HISTORY_EXTENSION)
        self.say("ugiok")

    def setoption(self, args: list[str]) -> None:
        if len(args) == 4 and args[0] == "name" and args[2] == "value":
            args = [args[1], args[3]]
        if len(args) != 2 or args[0] not in UGI_OPTIONS:
            raise EngineError(f"setoption takes a name and a value, the names "
                              f"{', '.join(UGI_OPTIONS)}: not {' '.join(args)[:60]!r}")
        name, text = args
        kind, lo, hi, what = UGI_OPTIONS[name]
        try:
            value = kind(text)
        except ValueError:
            value = None
        if value is None or not lo <= value <= hi:
            raise EngineError(f"option {name} ({what}) takes "
                              f"{'an integer' if kind is int else 'a number'} from "
                              f"{lo:g} to {hi:g}, not {text[:30]!r}")
        if name == "prove":
            self.reopen(dataclasses.replace(self.options, prove=int(value)))
        elif name == "hash":
            self.reopen(dataclasses.replace(self.options, hash_bits=int(value)))
        elif name == "cores":
            asked, cores = int(value), machine_cores()
            if asked > cores:
                self.say(f"info string cores {asked}: this machine has {cores} "
                         f"core{'s' if cores != 1 else ''}; using {cores}")
            self.reopen(dataclasses.replace(self.options, cores=min(asked, cores)))
        else:
            self.limits[name] = value

    def reopen(self, options: Options) -> None:
        """The engine again with other settings (the old one's helpers end)."""
        self.options = options
        self.engine.configure(options)

    def setpos(self, args: list[str]) -> None:
        if args[:1] == ["start"] and len(args) == 1:
            self.position, self.history = UGI_START, ()
        elif args[:1] == ["data"] and (len(args) == 2 or args[2:3] == ["history"]):
            position = board_from_ugi(args[1])
            self.history = tuple(history_from_ugi(args[3:]))
            self.position = position
        else:
            raise EngineError(f"setpos takes 'start', 'data BOARD' or 'data BOARD history "
                              f"ITEM...', not {' '.join(args)[:60]!r}")

    def limit(self) -> Limit:
        """The options as a limit: a value at :data:`NO_LIMIT` or beyond (a depth from
        :data:`~gyges.engine.builtin.MAX_SEARCH_DEPTH` plies) sets none."""
        seconds, depth, nodes = (self.limits.get(name) or None for name in NO_LIMIT)
        if seconds is not None and seconds >= NO_LIMIT["maxTime"]:
            seconds = None
        if depth is not None and depth >= MAX_SEARCH_DEPTH:
            depth = None
        if nodes is not None and nodes >= NO_LIMIT["maxNodes"]:
            nodes = None
        if seconds is None and depth is None and nodes is None:
            return Limit(depth=MAX_SEARCH_DEPTH)   # until stop
        return Limit(time=seconds, depth=None if depth is None else int(depth),
                     nodes=None if nodes is None else int(nodes))

    def go(self, args: list[str]) -> None:
        if args:
            self.say(f"info string go takes no arguments (the limits are the options "
                     f"maxTime, maxPly, maxNodes): {' '.join(args)[:60]!r} ignored")
        with self.lock:
            self.searching = True
            limit = Limit(depth=1) if self.stop_pending else self.limit()
        self.engine.clear()
        try:
            a = self.engine.analyse(self.position, limit, self.history, self.info)
        except SearchInterrupted as e:
            self.answer(e.analysis if e.analysis is not None and self.searched(e.analysis)
                        else self.least())
            raise
        finally:
            with self.lock:
                self.searching = False
                self.stop_pending = False
                self.engine.resume()
        self.answer(a if self.searched(a) else self.least())

    @staticmethod
    def searched(a: Analysis) -> bool:
        """Is the analysis an answer: a ply searched, the prover's, or no move at all?"""
        return a.depth >= 1 or a.proven or a.move is None

    def least(self) -> Analysis:
        """The least search that answers: one ply (a stop came before it was done)."""
        self.engine.resume()
        return self.engine.analyse(self.position, Limit(depth=1), self.history, self.info)

    def answer(self, a: Analysis) -> None:
        """The ``bestmove`` line of a search."""
        if a.move is None or a.move.side is not self.position.turn:
            self.say(f"bestmove null score {a.score.to_int()} time {a.time:.3f}")
        else:
            self.say(f"bestmove {self.ugi_move(a.move)} score {a.score.to_int()} "
                     f"time {a.time:.3f}")

    def ugi_move(self, move: Move) -> str:
        return move_to_ugi(move.start, move.end, move.relocation, move.side)

    def info(self, a: Analysis) -> None:
        if a.move is None:
            return
        pv = " ".join(self.ugi_move(m) for m in a.pv)
        self.say(f"info ply {a.depth} bestmove {self.ugi_move(a.move)} "
                 f"score {a.score.to_int()} winprob {a.win_probability:.4f} "
                 f"nodes {a.nodes} nps {a.nps} time {a.time:.3f} pv {pv}")


def serve(rules: RuleSet, lines: TextIO, out: TextIO, options: Options | None = None) -> None:
    """Answer UGI commands read from ``lines`` on ``out`` until ``quit`` or the end of
    the input (a search under way then stops and answers first). Ctrl-C raises
    :class:`~gyges.engine.builtin.SearchInterrupted` (or KeyboardInterrupt)."""
    server = _Server(rules, out, options or Options())
    reader = threading.Thread(target=server.read, args=(lines,), name="gyges-ugi-input",
                              daemon=True)
    reader.start()
    server.run()


