"""Perft: the number of move sequences of each length from a position, a test of the move
generator that any other implementation of the rules can compare with.

At each node the moves are its distinct resulting positions, plus one goal landing per
ring that can land (a landing ends its line). :func:`perft_depth` counts one depth and
times it; :class:`Perft` holds the counts of depths 1..D with their JSON form (the
``gyges perft --json`` object).

>>> from gyges.game.position import START
>>> from gyges.game.rules import PRESETS
>>> table = perft_table(START, PRESETS["pbmserv"], 2)
>>> [(row.depth, row.nodes) for row in table.depths]
[(1, 336), (2, 82046)]
>>> Perft.from_json(table.to_json()) == table
True
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Iterable, Mapping
from typing import Any

from gyges.game.moves import perft
from gyges.game.position import Position
from gyges.game.rules import RuleSet

__all__ = ["Perft", "PerftDepth", "perft_depth", "perft_table"]


@dataclasses.dataclass(frozen=True)
class PerftDepth:
    """The move sequences of exactly ``depth`` moves (``nodes``) and the seconds taken to
    count them (a measurement: two counts are equal when depth and nodes are)."""

    depth: int
    nodes: int
    seconds: float = dataclasses.field(compare=False)

    @property
    def nodes_per_second(self) -> float | None:
        """Nodes counted per second (None when no time was measured)."""
        return self.nodes / self.seconds if self.seconds > 0 else None

    def to_json(self) -> dict[str, Any]:
        """``{"depth", "nodes", "seconds", "nodes_per_second"}``: seconds to the
        microsecond, nodes per second to the unit (null when no time was measured)."""
        rate = self.nodes_per_second
        return {"depth": self.depth, "nodes": self.nodes, "seconds": round(self.seconds, 6),
                "nodes_per_second": round(rate) if rate is not None else None}


@dataclasses.dataclass(frozen=True, repr=False)
class Perft:
    """The perft counts of a position under some rules, depth 1 first.

    Its JSON form (:meth:`to_json`, what ``gyges perft --json`` prints)::

        {"position": "<position string>",
         "preset": "<the rules' preset name, or custom>",
         "rules": {"<option>": "<value>", ...},
         "depths": [{"depth": 1, "nodes": 336, "seconds": 0.000123,
                     "nodes_per_second": 2731707}, ...]}
    """

    position: Position
    rules: RuleSet
    depths: tuple[PerftDepth, ...]

    def to_json(self) -> dict[str, Any]:
        return {"position": str(self.position), "preset": self.rules.name,
                "rules": self.rules.to_json(), "depths": [d.to_json() for d in self.depths]}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Perft:
        """The counts of their JSON form (``preset`` and ``nodes_per_second`` are derived,
        and not read); ValueError (PositionError, RuleError) says what is wrong."""
        if not isinstance(data, Mapping) or not isinstance(data.get("depths"), list):
            raise ValueError("a perft result is an object with position, rules and a list "
                             "of depths")
        position = Position.from_json(data.get("position"))
        rules = RuleSet.from_json(data.get("rules", {}))
        depths = []
        for row in data["depths"]:
            try:
                depths.append(PerftDepth(int(row["depth"]), int(row["nodes"]),
                                         float(row["seconds"])))
            except (KeyError, TypeError, ValueError):
                raise ValueError(f"a perft depth is {{depth, nodes, seconds}}, not {row!r}") \
                    from None
        return cls(position, rules, tuple(depths))

    def __repr__(self) -> str:
        counts = ", ".join(f"{d.depth}: {d.nodes}" for d in self.depths)
        return f"<Perft of {self.position} under {self.rules.name}: {counts}>"


def perft_depth(position: Position, rules: RuleSet, depth: int,
                history: Iterable[Position | bytes] = ()) -> PerftDepth:
    """Count the move sequences of exactly ``depth`` moves from ``position`` (the earlier
    positions in ``history`` apply the Renop law), and time the count."""
    t0 = time.perf_counter()
    nodes, _lists = perft(position, rules, depth, history)
    return PerftDepth(depth, nodes, time.perf_counter() - t0)


def perft_table(position: Position, rules: RuleSet, max_depth: int,
                history: Iterable[Position | bytes] = ()) -> Perft:
    """The counts of every depth from 1 to ``max_depth``."""
    history = tuple(history)
    return Perft(position, rules, tuple(perft_depth(position, rules, d, history)
                                        for d in range(1, max_depth + 1)))

