"""A learned evaluation over the board: its inputs, its integer network and its file.

The network sees the board from the side to move: each occupied slot gives one active
input, ``3 * slot + size - 1`` (108 inputs), the rows turned over when North is to move so
that the side to move always plays up the board (:func:`board_inputs`). A first layer of
``hidden`` units sums the columns of its active inputs (an *accumulator*: a move changes
at most three slots, so it is updated by a few additions and subtractions,
:class:`Accumulator`, the NNUE idea), then clips each unit to [0, 1]; the output unit
weighs them, and the present evaluation's features (:data:`gyges.engine.FEATURES`) may be
added by a linear term. The output is the logit of the side to move's chance to win, in
hundredths (the scale of :class:`gyges.engine.score.Eval`).

A network may also read the board's *attack maps* (:func:`attack_inputs`, 144 more inputs
after the board's): the rings the side to move's moves land on (replaces), the empty
slots its other moves end on, then the same two for its opponent, one input a slot (seen
as the board is). They come from the move lists the evaluation's mobility features count
anyway, so they cost the search little; they are summed afresh at each evaluation, not
updated move by move.

The weights are integers: the first layer's in units of 1/:data:`QA` (so that a clipped
unit is an integer 0..QA), the output's in units of 1/:data:`QB`. :meth:`Network.evaluate`
is the slow reference of that integer arithmetic (pure Python), :meth:`Network.float_value`
the float network the weights were rounded from.

>>> net = Network.zeros(hidden=4)
>>> net.evaluate(Position.setup("123123", "321321"))
0
>>> Network.from_json(net.to_json()) == net
True
>>> Network.from_json({**net.to_json(), "calibration": 0.89}).printed_scale, net.printed_scale
(0.89, 1.0)
>>> sorted(board_inputs(Position.from_string("1...../....../....../....../....../.....3 N")))
[0, 107]
>>> from gyges.game.rules import PRESETS
>>> attack_inputs(Position.from_string("....../....../....../....../....../1..... S"),
...               PRESETS["pbmserv"])
[145, 150, 217, 222]
"""

from __future__ import annotations

import dataclasses
import enum
import functools
import hashlib
import json
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from gyges.game.moves import legal_moves
from gyges.game.position import Position
from gyges.game.rules import RuleSet, Side

__all__ = ["ATTACK_INPUTS", "DEFAULT_EVALUATION", "INPUTS", "LINEAR", "NETWORK_FORMAT", "QA",
           "QB", "SHIPPED_NETWORK", "Accumulator", "EvaluationDefault", "Network",
           "NetworkError", "attack_inputs", "board_inputs", "changed_inputs", "default_network",
           "evaluation_network", "resolved_network", "shared_network"]

INPUTS = 108          #: one input per slot and ring size
ATTACK_INPUTS = 144   #: the attack maps' inputs (after the board's): four maps of 36 slots
QA = 127              #: the first layer's unit: a clipped hidden unit is 0..QA
QB = 64               #: the output layer's unit
NETWORK_FORMAT = 1    #: version of the file's layout


class NetworkError(ValueError):
    """A network file that cannot be read; the message names the file."""


def _oriented(slot: int, side: Side) -> int:
    """``slot`` as the side to move sees it: rows turned over for North."""
    return slot if side is Side.SOUTH else (5 - slot // 6) * 6 + slot % 6


def board_inputs(position: Position) -> list[int]:
    """The active inputs of ``position`` (seen from the side to move), in slot order."""
    side = position.turn
    return [3 * _oriented(s, side) + size - 1 for s, size in enumerate(position.board) if size]


def attack_inputs(position: Position, rules: RuleSet,
                  history: Sequence[Position | bytes] = ()) -> list[int]:
    """The active attack-map inputs of ``position`` (``history``: the game's earlier
    positions, as :func:`gyges.game.moves.legal_moves` takes them), from the legal moves
    of each side (the side to move's first, then its opponent's, as if it were to move):
    ``INPUTS + 36 * k + slot``, the slot seen from the side to move, where map ``k`` is
    0 for the rings the side to move's replaces land on, 1 for the empty slots its other
    moves end on (goal landings left out), 2 and 3 the same for its opponent. A side that
    cannot move (the other side moves for it) has empty maps. Moves that make the same
    board are one move of the list (a same-size replace and a plain move, say), so the
    maps of a mirrored board are not always the mirror image of these."""
    to_move = position.turn
    out = []
    for k, side in ((0, to_move), (2, to_move.other)):
        moves = legal_moves(position.with_turn(side), rules, history, paths=False)
        if moves.mover is not side:
            continue
        landed: set[int] = set()
        ended: set[int] = set()
        for m in moves:
            if not m.is_win:
                (landed if m.is_replace else ended).add(_oriented(m.end, to_move))
        out += [INPUTS + 36 * k + o for o in sorted(landed)]
        out += [INPUTS + 36 * (k + 1) + o for o in sorted(ended)]
    return out


def changed_inputs(before: Position, after: Position, side: Side
                   ) -> tuple[list[int], list[int]]:
    """The inputs, seen by ``side``, that a move from ``before`` to ``after`` turns off
    and on (the slots whose ring changed)."""
    off, on = [], []
    for s, (a, b) in enumerate(zip(before.board, after.board, strict=True)):
        if a != b:
            o = _oriented(s, side)
            if a:
                off.append(3 * o + a - 1)
            if b:
                on.append(3 * o + b - 1)
    return off, on


@dataclasses.dataclass(frozen=True)
class Network:
    """The integer network: ``w1[i][j]`` the weight of input ``i`` on hidden unit ``j``
    (one row per board input, then one per attack-map input if it reads them:
    :attr:`attack`) and ``b1[j]`` (units of 1/QA), ``w2[j]`` and ``b2`` (units of 1/QB on
    a unit that is 0..QA), ``features`` the weights of the present evaluation's features
    (hundredths of a logit each; empty: not used); ``fit``: how it was trained (recorded,
    not compared);
    ``calibration``: the scale of its printed win probability (the searched score's logit
    per unit of its output, measured on its own games by ``gyges engine-calibration``,
    :func:`gyges.engine.calibration.calibrate`; None: not measured, the plain logistic of
    the output, scale 1). The scale changes no move: it is not compared."""

    w1: tuple[tuple[int, ...], ...]
    b1: tuple[int, ...]
    w2: tuple[int, ...]
    b2: int
    features: tuple[float, ...] = ()
    fit: dict[str, Any] = dataclasses.field(default_factory=dict, compare=False)
    calibration: float | None = dataclasses.field(default=None, compare=False)

    @property
    def digest(self) -> str:
        """A digest of its weights (16 hex digits): of their values, not of the file's
        layout, its ``fit`` or its ``calibration`` (which change no move)."""
        layers = [self.w1, self.b1, self.w2, self.b2, [repr(f) for f in self.features]]
        return hashlib.sha256(json.dumps(layers, separators=(",", ":")).encode()
                              ).hexdigest()[:16]

    @property
    def printed_scale(self) -> float:
        """The scale its win probability is printed on: :attr:`calibration`, or 1."""
        return 1.0 if self.calibration is None else self.calibration

    @property
    def hidden(self) -> int:
        return len(self.b1)

    @property
    def attack(self) -> bool:
        """Does it read the attack maps (:func:`attack_inputs`)?"""
        return len(self.w1) > INPUTS

    @classmethod
    def zeros(cls, hidden: int, attack: bool = False) -> Network:
        """A network of ``hidden`` units whose every weight is 0 (its value is 0)."""
        inputs = INPUTS + ATTACK_INPUTS * attack
        return cls(tuple((0,) * hidden for _ in range(inputs)), (0,) * hidden,
                   (0,) * hidden, 0)

    def accumulate(self, inputs: Sequence[int]) -> list[int]:
        """The first layer's sums for the active ``inputs``, before clipping."""
        acc = list(self.b1)
        for i in inputs:
            row = self.w1[i]
            for j in range(len(acc)):
                acc[j] += row[j]
        return acc

    def output(self, acc: Sequence[int], features: Sequence[float] = ()) -> int:
        """The value (hundredths of a logit, rounded half away from zero) of the
        accumulator ``acc`` and, when the network uses them, the position's ``features``."""
        total = self.b2 * QA
        for a, w in zip(acc, self.w2, strict=True):
            total += w * min(max(a, 0), QA)
        value = total * 100
        den = QA * QB
        # integer rounding, half away from zero (the same in C)
        out = (value + den // 2) // den if value >= 0 else -((-value + den // 2) // den)
        if self.features:
            out += round(sum(w * f for w, f in zip(self.features, features, strict=True)))
        return out

    def inputs(self, position: Position, attack: Sequence[int] | None = None) -> list[int]:
        """The active inputs of ``position``: the board's, then ``attack`` (its
        :func:`attack_inputs`) when the network reads them (ValueError if not given)."""
        if not self.attack:
            return board_inputs(position)
        if attack is None:
            raise ValueError("this network reads the attack maps: give attack_inputs()")
        return board_inputs(position) + list(attack)

    def evaluate(self, position: Position, features: Sequence[float] = (),
                 attack: Sequence[int] | None = None) -> int:
        """The value of ``position`` for the side to move (the slow reference);
        ``attack``, its :func:`attack_inputs`, for a network that reads them."""
        return self.output(self.accumulate(self.inputs(position, attack)), features)

    def float_value(self, position: Position, features: Sequence[float] = (),
                    attack: Sequence[int] | None = None) -> float:
        """The same network in floats (the weights divided by their units, no rounding
        of the output): what the integer one approximates."""
        hidden = [b / QA for b in self.b1]
        for i in self.inputs(position, attack):
            for j in range(self.hidden):
                hidden[j] += self.w1[i][j] / QA
        v = self.b2 / QB + sum(w / QB * min(max(h, 0.0), 1.0)
                               for w, h in zip(self.w2, hidden, strict=True))
        v *= 100
        return v + sum(w * f for w, f in zip(self.features, features, strict=True))

    # -- the file ----------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        return {"format": NETWORK_FORMAT, "inputs": len(self.w1), "hidden": self.hidden,
                "qa": QA, "qb": QB, "w1": [list(r) for r in self.w1], "b1": list(self.b1),
                "w2": list(self.w2), "b2": self.b2, "features": list(self.features),
                "fit": self.fit, **({} if self.calibration is None
                                    else {"calibration": self.calibration})}

    @classmethod
    def from_json(cls, d: Any, source: str = "<network>") -> Network:
        """The network :meth:`to_json` wrote; :class:`NetworkError` naming ``source``."""
        try:
            inputs = (INPUTS, INPUTS + ATTACK_INPUTS)
            if d["format"] != NETWORK_FORMAT or d["inputs"] not in inputs or \
                    (d["qa"], d["qb"]) != (QA, QB):
                raise NetworkError(f"{source}: a network of format {d['format']}, "
                                   f"{d['inputs']} inputs, units {d['qa']}/{d['qb']}: this "
                                   f"program reads format {NETWORK_FORMAT}, {INPUTS} or "
                                   f"{INPUTS + ATTACK_INPUTS} inputs, units {QA}/{QB}")
            hidden = int(d["hidden"])
            w1 = tuple(tuple(int(x) for x in row) for row in d["w1"])
            b1, w2 = tuple(int(x) for x in d["b1"]), tuple(int(x) for x in d["w2"])
            if len(w1) != d["inputs"] or any(len(r) != hidden for r in w1) or \
                    len(b1) != hidden or len(w2) != hidden:
                raise NetworkError(f"{source}: the layers' sizes do not match {hidden} "
                                   "hidden units")
            scale = d.get("calibration")
            if scale is not None and not (isinstance(scale, (int, float)) and scale > 0):
                raise NetworkError(f"{source}: calibration is a positive number (the scale "
                                   f"of the printed win probability), not {scale!r}")
            return cls(w1, b1, w2, int(d["b2"]), tuple(float(x) for x in d["features"]),
                       dict(d.get("fit") or {}), None if scale is None else float(scale))
        except (KeyError, TypeError, ValueError) as e:
            if isinstance(e, NetworkError):
                raise
            raise NetworkError(f"{source}: not a network file ({e})") from None

    def dumps(self) -> str:
        """The file's text: JSON, one layer row a line."""
        return json.dumps(self.to_json(), separators=(",", ":")) + "\n"

    @classmethod
    def load(cls, path: str | Path) -> Network:
        try:
            text = Path(path).read_text(encoding="utf-8")
        except OSError as e:
            raise NetworkError(f"{path}: {e.strerror or e}") from None
        try:
            data = json.loads(text)
        except json.JSONDecodeError as e:
            raise NetworkError(f"{path}:{e.lineno}: not JSON ({e.msg})") from None
        return cls.from_json(data, str(path))


#: The word that names the linear evaluation wherever a network file may be named
#: (``--network linear``, ``builtin:network=linear``).
LINEAR = "linear"

#: The network the engine evaluates with when none is named: a file beside this module
#: (its name; None would make the linear evaluation the default).
SHIPPED_NETWORK: str | None = "network.json"


class EvaluationDefault(enum.Enum):
    """The type of :data:`DEFAULT_EVALUATION`."""

    EVALUATION = "the default evaluation"


#: Where an evaluation may be given (None being the linear one), "the default one":
#: :func:`default_network`.
DEFAULT_EVALUATION = EvaluationDefault.EVALUATION


def default_network() -> Network | None:
    """The network the engine evaluates with when none is named: the shipped one,
    :data:`SHIPPED_NETWORK` (None: the linear evaluation, were that None).

    >>> net = default_network()
    >>> net.hidden, net.attack, net is default_network()
    (512, True, True)
    """
    if SHIPPED_NETWORK is None:
        return None
    return shared_network(str(Path(__file__).parent / SHIPPED_NETWORK))


def evaluation_network(name: str | None) -> Network | None:
    """The evaluation a command's ``--network`` names: None (not given) the default one
    (:func:`default_network`), :data:`LINEAR` the linear evaluation (None), else the
    network file ``name`` (:func:`shared_network`; :class:`NetworkError` if it cannot be
    read).

    >>> evaluation_network(LINEAR) is None, evaluation_network(None) == default_network()
    (True, True)
    """
    if name is None:
        return default_network()
    return None if name == LINEAR else shared_network(name)


def resolved_network(network: Network | None | EvaluationDefault) -> Network | None:
    """``network``, with :data:`DEFAULT_EVALUATION` made :func:`default_network`."""
    return default_network() if network is DEFAULT_EVALUATION else network


def shared_network(path: str) -> Network:
    """:meth:`Network.load` of ``path``, read once a process while the file is unchanged
    (a run's tasks name the file, its workers share what they read)."""
    try:
        st = os.stat(path)
    except OSError as e:
        raise NetworkError(f"{path}: {e.strerror or e}") from None
    return _network_of(path, st.st_mtime_ns, st.st_size)


@functools.lru_cache(maxsize=8)
def _network_of(path: str, mtime_ns: int, size: int) -> Network:
    return Network.load(path)


class Accumulator:
    """The first layer's sums for both sides' views of a board, kept up to date move by
    move (:meth:`update`) rather than summed again (:meth:`Network.accumulate`)."""

    def __init__(self, net: Network, position: Position) -> None:
        self.net = net
        self.sums = {side: net.accumulate(board_inputs(position.with_turn(side)))
                     for side in (Side.SOUTH, Side.NORTH)}

    def update(self, before: Position, after: Position) -> None:
        """Follow a move from ``before`` to ``after``."""
        for side, acc in self.sums.items():
            off, on = changed_inputs(before, after, side)
            for i in off:
                row = self.net.w1[i]
                for j in range(len(acc)):
                    acc[j] -= row[j]
            for i in on:
                row = self.net.w1[i]
                for j in range(len(acc)):
                    acc[j] += row[j]

    def value(self, side: Side, features: Sequence[float] = (),
              attack: Sequence[int] = ()) -> int:
        """The network's value for ``side`` to move; ``attack``: the position's
        :func:`attack_inputs` with ``side`` to move, for a network that reads them
        (summed afresh: the maps are not followed move by move)."""
        acc = self.sums[side]
        if attack:
            acc = self.net.accumulate(attack)
            acc = [a + s - b for a, s, b in zip(acc, self.sums[side], self.net.b1, strict=True)]
        return self.net.output(acc, features)
