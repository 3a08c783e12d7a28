"""The builtin engine: the compiled search (:mod:`gyges.engine._engine`) behind a python-chess
like face: :func:`analyse` and :func:`play` with a :class:`Limit`, giving an
:class:`Analysis` (best move, :class:`~gyges.engine.score.Score`, win probability,
principal variation as :class:`~gyges.game.moves.Move` values, depth, nodes, speed).

Proof-backed: before searching, the df-pn prover is asked for a forced win within
``prove`` moves (:mod:`gyges.engine.proofs`), and the move chosen is checked for a forced
loss within ``prove`` moves (then the search runs again without it). Under a time limit
the prover is also asked one move deeper: after the search, when it has proven nothing,
for a win; and for the move chosen, with the time that is left.

>>> from gyges import PRESETS, Position
>>> p = Position.from_string("....../3...../..1.1./1.23.3/3.22.1/....2. N")
>>> a = analyse(p, PRESETS["pbmserv"], Limit(depth=2))
>>> str(a.move), str(a.score), a.score.is_proven
('51-43-33-31-21-S', 'win in 1', True)
"""

from __future__ import annotations

import dataclasses
import os
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from gyges.engine import proofs
from gyges.engine._engine import MAX_CORES, Search, SearchResult
from gyges.engine.network import Network, default_network
from gyges.engine.score import CALIBRATION, Eval, Loss, Score, Win
from gyges.engine.weights import Weights
from gyges.game.moves import Game, Move, MoveList, apply_move, legal_moves
from gyges.game.position import Position
from gyges.game.rules import RuleSet

__all__ = ["MAX_CORES", "MAX_HASH_BITS", "MAX_PROVE_DEPTH", "MAX_SEARCH_DEPTH", "MIN_HASH_BITS",
           "Analysis", "Engine", "EngineError", "Limit", "Options", "PlayResult",
           "SearchInterrupted", "analyse", "game_state", "limit_from_json", "limit_to_json",
           "machine_cores", "play"]

#: Shares of a move's time (``Limit.time``): what the search may use of the time left
#: after the win question within the horizon; then the deeper win question, at most its
#: share of the move's time, and never into the part kept for checking the move chosen
#: (to one move beyond the horizon, with all the time still left). A question often takes
#: far less than its share (wins in 4 on positions from games: 0.2 s on average, a few
#: seconds at most).
SEARCH_SHARE = 0.8
DEEP_SHARE = 0.25
CHECK_SHARE = 0.1
#: Below this many seconds a move, the deeper win question is not asked.
DEEP_FROM_SECONDS = 0.2


#: The deepest search a :class:`Limit` allows, in plies (from 1).
MAX_SEARCH_DEPTH = 90
#: The most nodes a :class:`Limit` allows (the search counts them in 64 bits).
MAX_NODES = 2 ** 64 - 1
#: The longest time a :class:`Limit` allows, in seconds (a million: eleven days and a half;
#: no limit at all is a depth of :data:`MAX_SEARCH_DEPTH`).
MAX_SECONDS = 1e6
#: The deepest proof horizon :class:`Options` allow, in moves of the winner (from 0: no
#: prover).
MAX_PROVE_DEPTH = 6
#: The transposition table's sizes :class:`Options` allow: 2 ** bits entries of 16 bytes.
MIN_HASH_BITS = 10
MAX_HASH_BITS = 28


class EngineError(ValueError):
    """Engine settings that cannot be used."""


def machine_cores() -> int:
    """The cores of this machine: more processes searching than this only slow a search
    down (the command line, the UGI option ``cores`` and ``builtin:cores=`` cap there)."""
    return os.cpu_count() or 1


@dataclasses.dataclass(frozen=True)
class Limit:
    """When a search stops: after ``time`` seconds, ``depth`` plies or ``nodes`` nodes,
    whichever comes first (None: no such limit; at least one is needed). A search limited
    by depth or nodes only is deterministic."""

    time: float | None = None
    depth: int | None = None
    nodes: int | None = None

    def __post_init__(self) -> None:
        if self.time is None and self.depth is None and self.nodes is None:
            raise EngineError("a limit needs a time, a depth or a node count")
        if self.time is not None and not 0 < self.time <= MAX_SECONDS:
            raise EngineError(f"the time limit must be more than 0 and at most "
                              f"{MAX_SECONDS:,.0f} seconds, not {self.time}")
        if self.depth is not None and not 1 <= self.depth <= MAX_SEARCH_DEPTH:
            raise EngineError(f"the depth limit must be 1..{MAX_SEARCH_DEPTH} plies, not "
                              f"{self.depth}")
        if self.nodes is not None and not 1 <= self.nodes <= MAX_NODES:
            raise EngineError(f"the node limit must be 1..{MAX_NODES}, not "
                              f"{str(self.nodes)[:30]}")


def limit_to_json(limit: Limit) -> dict[str, Any]:
    """``{"time": s | null, "depth": d | null, "nodes": n | null}``."""
    return {"time": limit.time, "depth": limit.depth, "nodes": limit.nodes}


def limit_from_json(data: Mapping[str, Any]) -> Limit:
    """The limit of its JSON form (``{"nodes": 1000}``; a missing key: no such limit)."""
    return Limit(time=data.get("time"), depth=data.get("depth"), nodes=data.get("nodes"))


@dataclasses.dataclass(frozen=True)
class Options:
    """The builtin engine's settings: ``prove``, the proof horizon in moves of the
    winner; ``hash_bits``, its transposition table's size (2 ** bits entries of 16
    bytes); ``weights``, the linear evaluation's (None: the shipped ones); ``network``, a
    learned evaluation (:mod:`gyges.engine.network`) used in place of the linear one
    (None: the linear one, with ``weights``; not given: the default evaluation,
    :func:`gyges.engine.network.default_network`); ``cores``, how many
    processes search (1: this one alone, deterministic at fixed depth or nodes; more:
    helper processes search the whole tree too, sharing the table and which moves each
    is searching, and the moves chosen may vary from run to run)."""

    prove: int = 3
    hash_bits: int = 20
    weights: Weights | None = None
    cores: int = 1
    network: Network | None = dataclasses.field(default_factory=default_network)

    def __post_init__(self) -> None:
        if not 0 <= self.prove <= MAX_PROVE_DEPTH:
            raise EngineError(f"the proof horizon must be 0..{MAX_PROVE_DEPTH} moves, not "
                              f"{self.prove}")
        if not MIN_HASH_BITS <= self.hash_bits <= MAX_HASH_BITS:
            raise EngineError(f"the table size must be {MIN_HASH_BITS}..{MAX_HASH_BITS} "
                              f"bits, not {self.hash_bits}")
        if not 1 <= self.cores <= MAX_CORES:
            raise EngineError(f"the cores must be 1..{MAX_CORES}, not {self.cores}")

    @property
    def calibration(self) -> float:
        """The scale of the win probability printed for this evaluation's scores
        (:meth:`gyges.engine.score.Score.probability`): the network's measured one, or
        the linear evaluation's (:data:`gyges.engine.score.CALIBRATION`).

        >>> Options(network=None).calibration
        1.23
        >>> Options().calibration == Options().network.printed_scale
        True
        """
        return CALIBRATION if self.network is None else self.network.printed_scale


@dataclasses.dataclass(frozen=True)
class Analysis:
    """What a search found: the best ``move`` (None when the side to move cannot move:
    a draw), its ``score`` for the side to move, the principal variation ``pv`` (the
    move first; its moves are of the side that moves, which differs from the turn when a
    side is blocked), the ``depth`` completed (plies), the ``nodes`` searched and the
    ``time`` taken. A Win or Loss score is proven (by the prover, or by the search from
    landings the core found and every move of the losing side). ``calibration``: the
    scale of the evaluation that searched, which :attr:`win_probability` prints on
    (:attr:`Options.calibration`)."""

    position: Position
    move: Move | None
    score: Score
    pv: tuple[Move, ...]
    depth: int
    nodes: int
    time: float
    seldepth: int = 0
    search_time: float = 0.0
    lower_bound: bool = False
    calibration: float = CALIBRATION

    @property
    def proven(self) -> bool:
        return self.score.is_proven

    @property
    def win_probability(self) -> float:
        return self.score.probability(self.calibration)

    @property
    def nps(self) -> int:
        """Nodes a second of the search (the prover's time left out: ``search_time``)."""
        return int(self.nodes / self.search_time) if self.search_time > 0 else 0

    def to_json(self) -> dict[str, Any]:
        return {
            "position": str(self.position), "move": None if self.move is None else str(self.move),
            "score": self.score.to_json(), "score_text": str(self.score),
            "win_probability": round(self.win_probability, 4), "proven": self.proven,
            "pv": [str(m) for m in self.pv], "depth": self.depth, "seldepth": self.seldepth,
            "lower_bound": self.lower_bound,
            "nodes": self.nodes, "nps": self.nps, "time": round(self.time, 4),
        }


@dataclasses.dataclass(frozen=True)
class PlayResult:
    """The move to play (None: the side to move cannot move, a draw) and the analysis
    behind it."""

    move: Move | None
    analysis: Analysis


class SearchInterrupted(KeyboardInterrupt):
    """Ctrl-C (or SIGTERM) during a search: ``analysis`` holds the best found so far
    (None when nothing was searched yet)."""

    def __init__(self, analysis: Analysis | None):
        super().__init__()
        self.analysis = analysis


def game_state(position: Position | Game, history: Sequence[Position] = ()
               ) -> tuple[Position, tuple[Position, ...]]:
    """The position to search and its game's earlier positions (oldest first): a
    :class:`~gyges.game.moves.Game`'s, or ``position`` and ``history`` as given.

    >>> from gyges.game.position import START
    >>> game = Game(START, (START,))
    >>> game_state(game) == game_state(START, [START]) == (START, (START,))
    True
    """
    try:
        game = Game.of(position, history)
    except ValueError as e:
        raise EngineError(str(e)) from None
    earlier = game.history
    if not all(isinstance(h, Position) for h in earlier):
        raise EngineError("the game's history holds position keys: the engine needs the "
                          "positions")
    return game.position, tuple(earlier)  # type: ignore[arg-type]


def line_moves(position: Position, rules: RuleSet, history: Sequence[Position],
               triples: Sequence[tuple[int, int, int | None]]) -> tuple[Move, ...]:
    """The moves of a line of ``(start, to, relocation)`` triples, with their paths (for
    pbmserv notation), played from ``position``: as far as each is legal."""
    out: list[Move] = []
    hist = list(history)
    p = position
    for start, to, reloc in triples:
        moves = legal_moves(p, rules, hist)
        m = moves.find(Move(start, to, reloc, side=moves.mover))
        if m is None:
            break
        out.append(m)
        if m.is_win:
            break
        hist.append(p.with_turn(moves.mover))
        p = apply_move(p.with_turn(moves.mover), m)
    return tuple(out)


class Engine:
    """The builtin engine for one rule set: :meth:`analyse` and :meth:`play` keep one
    search state (its transposition table) from call to call, as in a game; :meth:`stop`
    (from another thread) ends a running search with its best so far."""

    def __init__(self, rules: RuleSet, options: Options | None = None):
        self.rules = rules
        self.options = options or Options()
        self._search = self._open_search()
        self._stopped = False

    def _open_search(self) -> Search:
        weights = self.options.weights or Weights.load()
        net = self.options.network
        layers = None if net is None else (net.w1, net.b1, net.w2, net.b2, net.features)
        return Search(self.rules.flags(), weights.values, self.options.hash_bits,
                      self.options.cores, layers)

    def configure(self, options: Options) -> None:
        """Search with ``options`` from the next call on (as python-chess's
        ``configure``). Another table size, evaluation (weights or network) or number
        of cores makes a new search state (what earlier searches learnt is forgotten,
        the old helpers end); another proof horizon alone keeps it.

        >>> from gyges import PRESETS
        >>> engine = Engine(PRESETS["pbmserv"], Options(prove=3, hash_bits=16))
        >>> engine.configure(Options(prove=0, hash_bits=16))
        >>> engine.options.prove
        0
        """
        old, self.options = self.options, options
        if (old.hash_bits, old.cores, old.weights, old.network) != (
                options.hash_bits, options.cores, options.weights, options.network):
            self._search.close()
            self._search = self._open_search()

    def __enter__(self) -> Engine:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def close(self) -> None:
        """End the search's helper processes (``cores`` > 1; they end with the object
        too): later searches use this process alone."""
        self._search.close()

    def clear(self) -> None:
        """Forget what earlier searches learnt (the table, killers, history): the next
        search answers as a fresh engine's would."""
        self._search.clear()

    def stop(self) -> None:
        """End a running search (from another thread) with its best so far; searches
        started later stop at once too, until :meth:`resume`."""
        self._stopped = True
        self._search.stop()

    def resume(self) -> None:
        """Let searches run again after :meth:`stop`."""
        self._stopped = False
        self._search.resume()

    @property
    def stopped(self) -> bool:
        """Has :meth:`stop` been called (and :meth:`resume` not since)?"""
        return self._stopped

    def search(self, position: Position, history: Sequence[Position], depth: int, nodes: int,
               seconds: float, excluded: Sequence[tuple[int, int, int | None]] = (),
               info: Callable[[int, int, list[tuple[int, int, int | None]], int, int], None]
               | None = None) -> SearchResult:
        """One search of the compiled kernel (:meth:`Search.go`, no prover) within
        ``depth`` plies, ``nodes`` and ``seconds`` (0: no such limit), the root moves
        ``excluded`` left out. Ctrl-C raises the signal's exception, the best so far
        kept as :attr:`last_search`."""
        return self._search.go(position.key, position.turn.index, [h.key for h in history],
                               depth, nodes, seconds, excluded, info)

    @property
    def last_search(self) -> SearchResult | None:
        """The result of the last :meth:`search`: its best so far when an exception ended
        it."""
        return self._search.last

    def play(self, position: Position | Game, limit: Limit,
             history: Sequence[Position] = ()) -> PlayResult:
        a = self.analyse(position, limit, history)
        return PlayResult(a.move, a)

    def analyse(self, position: Position | Game, limit: Limit,
                history: Sequence[Position] = (),
                info: Callable[[Analysis], None] | None = None) -> Analysis:
        """Search ``position`` (``history``: the game's earlier positions, oldest first,
        for the Renop law and repetitions; or a :class:`~gyges.game.moves.Game`, which
        holds both) within ``limit``. ``info`` receives the analysis of each depth
        completed. Ctrl-C raises :class:`SearchInterrupted` with the best so far."""
        start = time.perf_counter()
        position, history = game_state(position, history)
        moves = legal_moves(position, self.rules, history, paths=False)
        if not moves.moves:
            return Analysis(position, None, Eval(0), (), 0, 0, 0.0,
                            calibration=self.options.calibration)
        if moves.mover is not position.turn:
            # blocked: the opponent moves again; its score, seen from the side passed over
            a = self.analyse(position.with_turn(moves.mover), limit, history, info)
            return dataclasses.replace(a, position=position, score=_passed(a.score))
        run = _Run(self, position, history, moves, limit, start, info)
        try:
            return run.result()
        except KeyboardInterrupt as e:
            if isinstance(e, SearchInterrupted):
                raise
            raise SearchInterrupted(run.best) from e


def _passed(score: Score) -> Score:
    """The score of the side passed over, from the one that moves instead."""
    if isinstance(score, Win):
        return Loss(score.moves)
    if isinstance(score, Loss):
        return Win(score.moves)
    return -score


class _Run:
    """One call of :meth:`Engine.analyse`: the prover's questions and the searches, in
    the time the limit gives."""

    def __init__(self, engine: Engine, position: Position, history: tuple[Position, ...],
                 moves: MoveList, limit: Limit, start: float,
                 info: Callable[[Analysis], None] | None):
        self.engine = engine
        self.position = position
        self.history = history
        self.moves = moves
        self.limit = limit
        self.start = start
        self.info = info
        self.nodes = 0
        self.searched = 0.0          # seconds spent in the search (not the prover)
        self.best: Analysis | None = None

    def left(self) -> float | None:
        if self.limit.time is None:
            return None
        return self.limit.time - (time.perf_counter() - self.start)

    def budget(self, share: float, keep: float = 0.0) -> float | None:
        """Seconds for a prover question: ``share`` of the move's time, less what it would
        take of the part ``keep`` kept for later (both shares of the move's time); None
        without a time limit (no budget)."""
        left = self.left()
        if left is None or self.limit.time is None:
            return None
        return max(0.0, min(left - keep * self.limit.time, share * self.limit.time))

    def analysis(self, move: Move | None, score: Score, pv: Sequence[Move], depth: int,
                 seldepth: int = 0, lower_bound: bool = False) -> Analysis:
        return Analysis(self.position, move, score, tuple(pv), depth, self.nodes,
                        time.perf_counter() - self.start, seldepth, self.searched,
                        lower_bound, self.engine.options.calibration)

    def result(self) -> Analysis:
        engine, p, rules = self.engine, self.position, self.engine.rules
        for m in self.moves:
            if m.is_win:
                full = legal_moves(p, rules, self.history).find(m) or m
                return self.analysis(full, Win(1), (full,), 1)
        k = engine.options.prove
        if k >= 2 and not engine.stopped:
            win = proofs.forced_win(p, rules, k, self.history, self.budget(1.0))
            if win is not None:
                return self.proven(win)
        excluded: list[tuple[int, int, int | None]] = []
        lost: Analysis | None = None
        while True:
            a = self.search(excluded)
            if a is None or a.move is None:
                return lost or self.analysis(None, Eval(0), (), 0)
            self.best = a
            if engine.stopped or k < 2 or a.score.is_proven:
                return a
            if not excluded and self.deep():
                win = proofs.forced_win(p, rules, k + 1, self.history,
                                        self.budget(DEEP_SHARE, keep=CHECK_SHARE))
                if win is not None:
                    return self.proven(win)
            within = self.loses(a.move, k)
            if within is None:
                return a
            # the move chosen leaves a forced win: search again without it
            lost = lost or dataclasses.replace(a, score=Loss(within), lower_bound=False)
            excluded.append((a.move.start, a.move.end, a.move.relocation))
            if len(excluded) >= len(self.moves):
                return lost

    def proven(self, win: proofs.ProvenWin) -> Analysis:
        """The analysis of a win the prover found: its key, with its path."""
        p, rules = self.position, self.engine.rules
        key = legal_moves(p, rules, self.history).find(win.key) or win.key
        return self.analysis(key, Win(win.moves), (key,), 2 * win.moves - 1)

    def deep(self) -> bool:
        """Is there time to ask the prover one move beyond its horizon?"""
        return self.limit.time is not None and self.limit.time >= DEEP_FROM_SECONDS

    def loses(self, move: Move, k: int) -> int | None:
        """Within how many moves ``move`` leaves the opponent a forced win: ``k`` (always
        asked, within the time left), ``k + 1`` (asked when there is time), or None."""
        p, rules = self.position, self.engine.rules
        for within in (k, k + 1) if self.deep() else (k,):
            left = self.left()
            if left is not None and left <= 0:
                return None
            if proofs.loses_after(p, move, rules, within, self.history, left):
                return within
        return None

    def search(self, excluded: list[tuple[int, int, int | None]]) -> Analysis | None:
        engine, limit = self.engine, self.limit
        seconds = 0.0
        if limit.time is not None:
            left = self.left() or 0.0
            seconds = max(0.005, left * SEARCH_SHARE if left > 0.02 else left)
        nodes0, searched0, began = self.nodes, self.searched, time.perf_counter()
        completed: list[Analysis] = []         # the last depth completed

        def info(depth: int, score: int, pv: list, nodes: int, seldepth: int) -> None:
            self.nodes = nodes0 + nodes
            self.searched = searched0 + time.perf_counter() - began
            line = line_moves(self.position, engine.rules, self.history, pv)
            if line:
                self.best = self.analysis(line[0], Score.from_int(score), line, depth,
                                          seldepth)
                completed[:] = [self.best]
                if self.info is not None:
                    self.info(self.best)

        try:
            r = engine.search(self.position, self.history, limit.depth or 0, limit.nodes or 0,
                              seconds, excluded, info)
        except BaseException:
            # interrupted (Ctrl-C): the best so far is kept, and the exception goes on
            cut = engine.last_search
            if cut is not None:
                self.nodes = nodes0 + cut.nodes
                self.searched = searched0 + time.perf_counter() - began
                if cut.pv and cut.score is not None:
                    line = line_moves(self.position, engine.rules, self.history, cut.pv)
                    if line:
                        self.best = self.analysis(line[0], Score.from_int(cut.score), line,
                                                  cut.depth, cut.seldepth, cut.lower_bound)
            raise
        self.nodes = nodes0 + r.nodes
        self.searched = searched0 + time.perf_counter() - began
        if r.score is None:
            return None
        line = line_moves(self.position, engine.rules, self.history, r.pv)
        if not line:
            return None
        if r.lower_bound and completed and completed[0].move == line[0] \
                and not Score.from_int(r.score).is_proven:
            # the completed depth's best scored higher in the next depth, cut short: the
            # completed depth's line and score are the analysis
            done = completed[0]
            return self.analysis(done.move, done.score, done.pv, done.depth, r.seldepth)
        return self.analysis(line[0], Score.from_int(r.score), line, r.depth, r.seldepth,
                             r.lower_bound)


def analyse(position: Position | Game, rules: RuleSet, limit: Limit,
            history: Sequence[Position] = (),
            options: Options | None = None,
            info: Callable[[Analysis], None] | None = None) -> Analysis:
    """Analyse ``position`` with a fresh builtin engine (see :meth:`Engine.analyse`)."""
    return Engine(rules, options).analyse(position, limit, history, info)


def play(position: Position | Game, rules: RuleSet, limit: Limit,
         history: Sequence[Position] = (),
         options: Options | None = None) -> PlayResult:
    """The builtin engine's move in ``position`` (a fresh engine; see :class:`Engine`)."""
    return Engine(rules, options).play(position, limit, history)
