"""Engines as players: the :class:`Player` protocol (the builtin engine and a UGI program
answer the same calls), and an engine given as text, the form ``gyges match`` takes:
``builtin[:option=value,...]`` (the builtin engine at some settings) or ``ugi:COMMAND``
(any UGI program, started as a subprocess).

An engine text is read once (:meth:`EngineSpec.parse`, which checks every value) into a
typed value that gives its limit and settings; ``str()`` writes it back.

>>> spec = EngineSpec.parse("builtin:depth=3,prove=2")
>>> spec.kind, spec.options, str(spec)
('builtin', (('depth', '3'), ('prove', '2')), 'builtin:depth=3,prove=2')
>>> spec
EngineSpec('builtin:depth=3,prove=2')
>>> spec.own_limit, spec.engine_options.prove
(Limit(time=None, depth=3, nodes=None), 2)
>>> EngineSpec.parse(str(spec)) == spec
True
>>> EngineSpec.parse("ugi:/tmp/engine --quiet").command
('/tmp/engine', '--quiet')
"""

from __future__ import annotations

import atexit
import dataclasses
import multiprocessing.util
import os
import random
import shlex
from collections.abc import Sequence
from typing import Protocol

from gyges.engine.builtin import (
    Analysis,
    Engine,
    EngineError,
    Limit,
    Options,
    PlayResult,
    game_state,
    machine_cores,
)
from gyges.engine.client import UgiEngine, popen_ugi
from gyges.engine.network import LINEAR, NetworkError, evaluation_network
from gyges.engine.score import Eval
from gyges.engine.weights import Weights, WeightsError
from gyges.game.moves import Game, apply_move, can_land, legal_moves
from gyges.game.position import Position
from gyges.game.rules import RuleSet

__all__ = ["BUILTIN_OPTIONS", "EngineSpec", "Player", "RandomStart", "close_started", "game_player",
           "open_player"]


class Player(Protocol):
    """What a game between engines asks of each engine."""

    def play(self, position: Position | Game, limit: Limit,
             history: Sequence[Position] = ()) -> PlayResult: ...

    def analyse(self, position: Position | Game, limit: Limit,
                history: Sequence[Position] = ()) -> Analysis: ...

    def close(self) -> None: ...


#: The builtin engine's options in an engine text: what each sets.
BUILTIN_OPTIONS = {
    "depth": "plies per move (replaces the match's time)",
    "nodes": "nodes per move (replaces the match's time)",
    "time": "seconds per move (replaces the match's time)",
    "prove": "the proof horizon, in moves of the winner (0 turns the prover off)",
    "hash": "the transposition table's size, 2 ** hash entries of 16 bytes",
    "cores": "processes searching (1: deterministic at fixed depth or nodes; capped at the "
             "cores of the machine the engine runs on)",
    "weights": "a weights file for the linear evaluation (default: the shipped one; "
               "without network=, the linear evaluation plays with it)",
    "network": "the evaluation: a learned one's file (gyges engine-network), or 'linear' "
               "(default: the engine's default evaluation)",
}


@dataclasses.dataclass(frozen=True)
class EngineSpec:
    """An engine as text, read: ``builtin[:option=value,...]`` (``options`` as written,
    and what they give: ``own_limit``, the depth, nodes or time it plays with whatever
    the match's limit, None if it has none; ``engine_options``, the builtin engine's
    settings, defaults where not given, ``cores`` capped at this machine's) or
    ``ugi:COMMAND`` (``command``, the program's words)."""

    kind: str
    options: tuple[tuple[str, str], ...] = ()
    command: tuple[str, ...] = ()
    own_limit: Limit | None = dataclasses.field(default=None, compare=False, repr=False)
    engine_options: Options = dataclasses.field(default_factory=Options, compare=False,
                                                repr=False)

    @classmethod
    def parse(cls, text: str) -> EngineSpec:
        """The engine ``text`` names; :class:`EngineError` says what is wrong with it
        (each value is checked here)."""
        t = text.strip()
        kind, sep, rest = t.partition(":")
        if kind == "ugi" and sep:
            try:
                command = tuple(shlex.split(rest))
            except ValueError as e:
                raise EngineError(f"{t!r}: the command cannot be read: {e}") from None
            if not command:
                raise EngineError(f"{t!r}: give the UGI program's command after 'ugi:'")
            return cls("ugi", command=command)
        if kind == "builtin":
            options = []
            for item in rest.split(",") if sep else ():
                key, eq, value = item.partition("=")
                key, value = key.strip(), value.strip()
                if key not in BUILTIN_OPTIONS or not eq or not value:
                    raise EngineError(
                        f"{t!r}: {item.strip()!r} is not a builtin option: write "
                        f"option=value with one of {', '.join(BUILTIN_OPTIONS)}")
                options.append((key, value))
            given = dict(options)
            return cls("builtin", tuple(options), own_limit=_own_limit(t, given),
                       engine_options=_engine_options(t, given))
        raise EngineError(f"{t!r} is not an engine: write builtin[:option=value,...] (options "
                          f"{', '.join(BUILTIN_OPTIONS)}) or ugi:COMMAND")

    def __str__(self) -> str:
        if self.kind == "ugi":
            return "ugi:" + shlex.join(self.command)
        return "builtin" + (":" + ",".join(f"{k}={v}" for k, v in self.options)
                            if self.options else "")

    def __repr__(self) -> str:
        return f"EngineSpec({str(self)!r})"

    def limit(self, given: Limit) -> Limit:
        """The limit this engine plays with: its own depth, nodes or time if it has
        any, else ``given``."""
        return self.own_limit or given


def _number(text: str, given: dict[str, str], key: str, kind: type) -> float | int | None:
    value = given.get(key)
    if value is None:
        return None
    try:
        return kind(value)
    except ValueError:
        what = "an integer" if kind is int else "a number"
        raise EngineError(f"{text}: {key}={value}: not {what}") from None


def _own_limit(text: str, given: dict[str, str]) -> Limit | None:
    depth, nodes, seconds = (_number(text, given, "depth", int),
                             _number(text, given, "nodes", int),
                             _number(text, given, "time", float))
    if depth is None and nodes is None and seconds is None:
        return None
    return Limit(time=seconds, depth=depth, nodes=nodes)  # type: ignore[arg-type]


def _engine_options(text: str, given: dict[str, str]) -> Options:
    prove, bits = _number(text, given, "prove", int), _number(text, given, "hash", int)
    cores = _number(text, given, "cores", int)
    path, net_path = given.get("weights"), given.get("network")
    try:
        weights = Weights.load(path) if path else None
        # weights without a network: the linear evaluation with them
        network = evaluation_network(LINEAR if path and not net_path else net_path or None)
    except (WeightsError, NetworkError) as e:
        raise EngineError(str(e)) from None
    options = Options(prove=3 if prove is None else int(prove),
                      hash_bits=20 if bits is None else int(bits), weights=weights,
                      network=network,
                      cores=1 if cores is None else int(cores))
    return dataclasses.replace(options, cores=min(options.cores, machine_cores()))


class _Builtin:
    """The builtin engine as a player, with the limit its text may fix."""

    def __init__(self, spec: EngineSpec, rules: RuleSet):
        self.spec = spec
        self.engine = Engine(rules, spec.engine_options)

    def play(self, position: Position | Game, limit: Limit,
             history: Sequence[Position] = ()) -> PlayResult:
        return self.engine.play(position, self.spec.limit(limit), history)

    def analyse(self, position: Position | Game, limit: Limit,
                history: Sequence[Position] = ()) -> Analysis:
        return self.engine.analyse(position, self.spec.limit(limit), history)

    def close(self) -> None:
        self.engine.close()


def open_player(spec: EngineSpec | str, rules: RuleSet) -> Player:
    """The engine an :class:`EngineSpec` (or its text) names, ready to play under
    ``rules`` (a UGI program plays by its own rules: ``rules`` are the referee's)."""
    if isinstance(spec, str):
        spec = EngineSpec.parse(spec)
    if spec.kind == "ugi":
        return popen_ugi(list(spec.command))
    return _Builtin(spec, rules)


#: The UGI programs this process has started for games, by command. A worker process of
#: a match plays many games and starts each program once, not once a game (Helios takes
#: a second to allocate its table); :func:`close_started` ends them all, and is called at
#: the process's exit.
_STARTED: dict[tuple[str, ...], UgiEngine] = {}
# a forked child (a pool's worker) starts its own: its parent's pipes are not its to use
os.register_at_fork(after_in_child=_STARTED.clear)


def game_player(spec: EngineSpec | str, rules: RuleSet) -> Player:
    """A player for the next game in this process. The builtin engine is a fresh one, so
    that nothing learnt in an earlier game carries over (a game at a fixed depth or node
    count is the same in any process). A UGI program is this process's running one for
    its command, started at the first call (and again if it has died or failed); do not
    close it: :func:`close_started` does, at the latest when the process exits."""
    if isinstance(spec, str):
        spec = EngineSpec.parse(spec)
    if spec.kind != "ugi":
        return open_player(spec, rules)
    running = _STARTED.get(spec.command)
    if running is not None and running.usable:
        return running
    if running is not None:
        del _STARTED[spec.command]
        running.close()
    if not _STARTED:
        atexit.unregister(close_started)
        atexit.register(close_started)
        # a pool's worker leaves by os._exit: its finalizers run, not atexit's functions
        multiprocessing.util.Finalize(None, close_started, exitpriority=10)
    engine = _STARTED[spec.command] = popen_ugi(list(spec.command))
    return engine


def close_started() -> None:
    """End the UGI programs :func:`game_player` started in this process (``quit``, then a
    kill)."""
    while _STARTED:
        _, engine = _STARTED.popitem()
        engine.close()


class RandomStart:
    """``engine`` for both sides after ``plies`` random moves drawn from ``rng`` (none
    that lets the opponent land at once, unless every move does): games that differ from
    a deterministic engine's, for self-play (the weights' fit, setup ranking)."""

    def __init__(self, engine: Engine, rules: RuleSet, plies: int, rng: random.Random):
        self.engine = engine
        self.rules = rules
        self.plies = plies
        self.rng = rng

    def play(self, position: Position | Game, limit: Limit,
             history: Sequence[Position] = ()) -> PlayResult:
        position, history = game_state(position, history)
        if len(history) >= self.plies:
            return self.engine.play(position, limit, history)
        moves = legal_moves(position, self.rules, history, paths=False)
        safe = [m for m in moves if m.is_win or not can_land(
            apply_move(position, m), self.rules, [*history, position])]
        move = self.rng.choice(safe or list(moves))
        return PlayResult(move, Analysis(position, move, Eval(0), (move,), 0, 0, 0.0))

    def analyse(self, position: Position | Game, limit: Limit,
                history: Sequence[Position] = ()) -> Analysis:
        return self.play(position, limit, history).analysis

    def close(self) -> None:
        self.engine.close()
