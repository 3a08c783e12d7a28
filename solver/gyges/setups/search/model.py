"""The CP-SAT model of setups: one Boolean per placement, the constraints, every solution.

The model has one Boolean variable ``x[side][column, size]`` per placement on each placed
row (:attr:`Constraints.placed <gyges.setups.search.constraints.Constraints.placed>`):
each column holds exactly one size, each size stands on exactly two columns, and every
placement constraint is a linear constraint on these variables. CP-SAT enumerates every
solution, exactly and in a fixed order (one worker, ``enumerate_all_solutions``; the
solutions are sorted).

Properties only the engine can judge are enforced lazily by a *judge* that this module
does not know (:func:`gyges.setups.search.find.search` passes the engine's): CP-SAT
proposes, the judge checks, a no-good cut forbids each rejected assignment, and the model is
solved again until it is exhausted.

>>> from gyges.setups.search.options import constraints_from_options
>>> solutions(constraints_from_options({"fix": ["3@1", "3@6"], "apart": ["1"]}))
['312123', '312213', '321213']
>>> judge = lambda south, north: south.startswith("1")
>>> len(solutions(constraints_from_options({"side": "pair", "north": "231123"}), judge))
30
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from typing import Any

from gyges.game.position import canonical_pair, mirror_setup
from gyges.game.rules import Side
from gyges.setups.pairs import SetupError
from gyges.setups.search.constraints import (
    CENTRE,
    COLUMNS,
    EDGES,
    SIZES,
    Constraints,
    CountOp,
    NorthAs,
    SearchSide,
    SideConstraints,
)

__all__ = ["Judge", "RoundProgress", "solutions"]

#: Does the pair ``(south, north)`` stand? (The engine's verdict on an assignment.)
Judge = Callable[[str, str], bool]

Variables = dict[tuple[int, int], Any]  #: (column, size) -> the model's Boolean


@dataclasses.dataclass(frozen=True)
class RoundProgress:
    """Where a lazy search stands: in round ``round`` of ``proposed`` assignments,
    ``judged`` of them looked at so far; once the round is over (:attr:`over`), ``cut``
    of them rejected. It prints as the progress line ``setups search`` shows.

    >>> str(RoundProgress(1, 8100, judged=50)), str(RoundProgress(1, 8100, cut=7900))
    ('round 1: 50 of 8100 judged by the engine', 'round 1: 8100 proposed, 7900 cut')
    """

    round: int
    proposed: int
    judged: int | None = None
    cut: int | None = None

    @property
    def over(self) -> bool:
        return self.cut is not None

    def __str__(self) -> str:
        if self.cut is None:
            return f"round {self.round}: {self.judged} of {self.proposed} judged by the engine"
        return f"round {self.round}: {self.proposed} proposed, {self.cut} cut"


#: A progress event every this many judged assignments: the status line moves during a
#: round, and the events cost nothing beside the engine's checks (a millisecond to seconds
#: each).
JUDGED_EVERY = 50


def _side_model(model: Any, x: Variables, sc: SideConstraints) -> None:
    for col in COLUMNS:
        model.AddExactlyOne(x[col, s] for s in SIZES)
    for s in SIZES:
        model.Add(sum(x[col, s] for col in COLUMNS) == 2)
    if sc.setup is not None:
        for col in COLUMNS:
            model.Add(x[col, int(sc.setup[col - 1])] == 1)
    for s, col in sc.fixed:
        model.Add(x[col, s] == 1)
    for s, col in sc.off:
        model.Add(x[col, s] == 0)
    for s in sc.apart:
        for col in COLUMNS[:-1]:
            model.AddBoolOr([x[col, s].Not(), x[col + 1, s].Not()])
    if sc.symmetric:
        for col in (1, 2, 3):
            for s in SIZES:
                model.Add(x[col, s] == x[7 - col, s])
    for counts, cols in ((sc.centre, CENTRE), (sc.edges, EDGES)):
        for k in counts:
            total = sum(x[col, k.size] for col in cols)
            if k.op is CountOp.EQ:
                model.Add(total == k.count)
            elif k.op is CountOp.LE:
                model.Add(total <= k.count)
            else:
                model.Add(total >= k.count)


def _read(values: Callable[[Any], int], x: Variables) -> str:
    return "".join(next(str(s) for s in SIZES if values(x[col, s])) for col in COLUMNS)


def _enumerate(model: Any, xs: dict[Side, Variables]) -> list[tuple[str, ...]]:
    """Every solution of the model (one worker: exact and repeatable), sorted."""
    from ortools.sat.python import cp_model

    found: list[tuple[str, ...]] = []

    class Collect(cp_model.CpSolverSolutionCallback):
        def on_solution_callback(self) -> None:
            found.append(tuple(_read(self.BooleanValue, x) for x in xs.values()))

    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.enumerate_all_solutions = True
    # Ctrl-C stays Python's: OR-Tools' own handler would cut the solve short (a changed
    # result) and leave SIGINT at its default (death, no message) once the solve is over.
    solver.parameters.catch_sigint_signal = False
    status = solver.Solve(model, Collect())
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE, cp_model.INFEASIBLE):
        raise SetupError(f"the setup model could not be solved: {solver.StatusName(status)}")
    if len(set(found)) != len(found):
        raise AssertionError("CP-SAT reported a solution twice")
    return sorted(found)


def solutions(
    c: Constraints,
    judge: Judge | None = None,
    progress: Callable[[RoundProgress], None] | None = None,
) -> list[Any]:
    """Every setup (``side`` south or north: six-digit strings) or pair (``(south,
    north)``) meeting the placement constraints of ``c`` and, when given, the ``judge``,
    sorted (one per mirror class when ``c.canonical``).

    The judge is asked lazily: each round enumerates the model's solutions, the judge
    looks at those it has not judged yet, and each rejected assignment gets a no-good cut;
    the rounds stop when a round rejects nothing, so the model's solutions are exactly the
    accepted ones (the last round proves it exhausted). A judge needs both rows placed.
    """
    from ortools.sat.python import cp_model

    sides = c.placed
    if judge is not None and len(sides) < 2:
        raise SetupError("a judge of pairs needs both rows in the model")
    model = cp_model.CpModel()
    xs = {
        side: {(col, s): model.NewBoolVar(f"{side.value.lower()}{col}_{s}")
               for col in COLUMNS for s in SIZES}
        for side in sides
    }
    for side in sides:
        _side_model(model, xs[side], c.of(side))
    if c.north_as is not None:
        for col in COLUMNS:
            other = col if c.north_as is NorthAs.MIRROR else 7 - col
            for s in SIZES:
                model.Add(xs[Side.NORTH][col, s] == xs[Side.SOUTH][other, s])

    judged: dict[tuple[str, ...], bool] = {}
    rounds = 0
    while True:
        rounds += 1
        found = _enumerate(model, xs)
        if judge is None:
            break
        rejected = 0
        for i, sol in enumerate(found):
            if sol not in judged:
                judged[sol] = judge(*sol)
                if progress is not None and i % JUDGED_EVERY == 0:
                    progress(RoundProgress(rounds, len(found), judged=i))
            if not judged[sol]:
                rejected += 1
                literals = [xs[side][col, int(setup[col - 1])]
                            for side, setup in zip(sides, sol, strict=True) for col in COLUMNS]
                model.AddBoolOr([lit.Not() for lit in literals])  # the no-good cut
        if progress is not None:
            progress(RoundProgress(rounds, len(found), cut=rejected))
        if rejected == 0:
            break

    if c.side is SearchSide.PAIR:
        results: list[Any] = list(found)
    else:
        index = sides.index(Side.SOUTH if c.side is SearchSide.SOUTH else Side.NORTH)
        results = [sol[index] for sol in found]
        if len(sides) == 2:
            results = sorted(set(results))  # the other side is determined: no duplicates arise
    if c.canonical:
        results = _canonical(results)
    return results


def _canonical(results: Sequence[Any]) -> list[Any]:
    """One solution per mirror class: the smallest of the class among the solutions."""
    seen: set[Any] = set()
    out = []
    for r in sorted(results):
        key = min(r, mirror_setup(r)) if isinstance(r, str) else canonical_pair(*r)
        if key not in seen:
            seen.add(key)
            out.append(r)
    return out
