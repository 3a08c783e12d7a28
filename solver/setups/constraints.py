"""Opening setups: every arrangement of one side's six rings, and a CP-SAT search over them.

A setup is one side's arrangement of two 1s, two 2s and two 3s on its starting row, written
as six digits for columns 1..6 as drawn (``231123``): 90 per side, 8,100 pairs. The search
builds a CP-SAT model with one Boolean variable ``x[side][column][size]`` per placement and
enumerates every arrangement (or pair) meeting the constraints, exactly and in a fixed order
(one worker, ``enumerate_all_solutions``, solutions sorted).

Properties that only the engine can judge (can South force a landing, how many first moves,
replace threats) are enforced lazily: CP-SAT proposes, the engine checks, a no-good cut
forbids each rejected assignment, and the model is solved again until it is exhausted.

>>> len(ALL_SETUPS), ALL_SETUPS[0], ALL_SETUPS[-1]
(90, '112233', '332211')
>>> c = constraints_from_options({"fix": ["3@1", "3@6"], "apart": ["1"]})
>>> search(c)
['312123', '312213', '321213']
>>> search(constraints_from_options({"side": "pair"}), count_only=True)
8100
"""

from __future__ import annotations

import dataclasses
import itertools
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import yaml

from gyges.formats.notation import parse_setup
from gyges.game.moves import board_after, legal_moves
from gyges.game.position import ALL_SETUPS, Position
from gyges.game.rules import PRESETS, RuleSet
from gyges.search.prover import win_in

SIZES = (1, 2, 3)
COLUMNS = (1, 2, 3, 4, 5, 6)
CENTRE = (3, 4)
EDGES = (1, 6)
SIDES = ("south", "north")



class SetupError(ValueError):
    """A constraint that cannot be read, or a search that cannot be made."""


def mirror(setup: str) -> str:
    """The setup reflected left to right (column c -> 7 - c).

    >>> mirror("231123")
    '321132'
    """
    return setup[::-1]


def canonical_pair(south: str, north: str) -> tuple[str, str]:
    """The smaller of a pair and the pair with the whole board mirrored left to right.

    >>> canonical_pair("321132", "112233")
    ('231123', '332211')
    """
    return min((south, north), (mirror(south), mirror(north)))


# -- constraints ---------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Count:
    """How many rings of ``size`` stand on some columns: ``op`` is ``=``, ``<=`` or ``>=``."""

    size: int
    op: str
    count: int

    def holds(self, n: int) -> bool:
        return {"=": n == self.count, "<=": n <= self.count, ">=": n >= self.count}[self.op]


@dataclasses.dataclass(frozen=True)
class SideConstraints:
    """Placement constraints on one side's setup."""

    setup: str | None = None  #: the setup is fixed
    fixed: tuple[tuple[int, int], ...] = ()  #: (size, column): that size stands there
    off: tuple[tuple[int, int], ...] = ()  #: (size, column): that size does not
    apart: frozenset[int] = frozenset()  #: sizes whose two rings are not adjacent
    symmetric: bool = False  #: the setup reads the same mirrored
    centre: tuple[Count, ...] = ()  #: counts of a size on columns 3-4
    edges: tuple[Count, ...] = ()  #: counts of a size on columns 1 and 6

    def allows(self, setup: str) -> bool:
        """Does ``setup`` meet these constraints? (Plain Python: the tests' independent check.)"""
        if self.setup is not None and setup != self.setup:
            return False
        if any(setup[c - 1] != str(s) for s, c in self.fixed):
            return False
        if any(setup[c - 1] == str(s) for s, c in self.off):
            return False
        if any(setup[i] == setup[i + 1] and int(setup[i]) in self.apart for i in range(5)):
            return False
        if self.symmetric and setup != mirror(setup):
            return False
        for counts, cols in ((self.centre, CENTRE), (self.edges, EDGES)):
            for k in counts:
                if not k.holds(sum(setup[c - 1] == str(k.size) for c in cols)):
                    return False
        return True

    @property
    def empty(self) -> bool:
        return self == SideConstraints()


@dataclasses.dataclass(frozen=True)
class Constraints:
    """What a setup search asks for.

    ``side`` is what is enumerated: ``south`` or ``north`` setups, or ``pair``s. ``north_as``
    ties North to South: ``mirror`` (North's row is South's as drawn, each ring facing one of
    its size across the board) or ``rotated`` (North's row is South's turned half a turn: each
    player sees the same arrangement from their own side). The engine properties are those of
    the start position with South to move.
    """

    side: str = "south"
    south: SideConstraints = SideConstraints()
    north: SideConstraints = SideConstraints()
    north_as: str | None = None
    lands_in: int | None = None  #: South has a forced landing within this many moves
    cannot_land_in: int | None = None  #: South has no forced landing within this many moves
    min_moves: int | None = None  #: South has at least this many distinct first moves
    max_replace_threats: int | None = None  #: at most this many exposed first moves (0: none)
    canonical: bool = False  #: mirror-equivalent solutions reported once

    @property
    def engine(self) -> bool:
        """Are there properties only the engine can judge?"""
        return any(
            v is not None
            for v in (self.lands_in, self.cannot_land_in, self.min_moves, self.max_replace_threats)
        )


_SIDE_PREFIX = re.compile(r"^\s*(?:(s|south|n|north)\s*:)?\s*(.*?)\s*$", re.IGNORECASE)
_PLACE = re.compile(r"^([123])\s*@\s*([1-6](?:\s*,?\s*[1-6])*)$")
_COUNT = re.compile(r"^([123])\s*(=|==|<=|>=)\s*([0-2])$")

#: option keys, the same on the command line (``--key``) and in a YAML constraint file.
KEYS = (
    "side", "fix", "off", "apart", "symmetric", "centre", "edges", "south", "north",
    "north-as", "lands-in", "cannot-land-in", "min-moves", "no-replace-threat",
    "max-replace-threats", "canonical",
)


def _split_side(text: str, default: str, key: str) -> tuple[str, str]:
    m = _SIDE_PREFIX.match(str(text))
    assert m is not None
    prefix, body = m.group(1), m.group(2)
    side = default if prefix is None else ("south" if prefix.lower()[0] == "s" else "north")
    if not body:
        raise SetupError(f"{key}: {text!r} is empty after the side")
    return side, body


def _int(value: Any, key: str, low: int, high: int | None = None) -> int:
    try:
        n = int(value)
        if isinstance(value, bool) or str(n) != str(value).strip():
            raise ValueError
    except (TypeError, ValueError):
        raise SetupError(f"{key}: {value!r} is not a whole number") from None
    if n < low or (high is not None and n > high):
        span = f"from {low} to {high}" if high is not None else f"at least {low}"
        raise SetupError(f"{key}: {n} is out of range: give a number {span}")
    return n


def _list(value: Any) -> list[Any]:
    if value is None:
        return []
    if isinstance(value, (list, tuple)):
        return list(value)
    return [value]


def constraints_from_options(options: Mapping[str, Any]) -> Constraints:
    """Constraints from option keys (see :data:`KEYS`) as on the command line or in YAML.

    Placement values may start with a side, ``N:`` or ``S:`` (``north:``, ``south:``); without
    one they apply to the side searched (South for ``side: pair``). ``fix: 3@1`` puts a 3 on
    column 1; ``off: 3@16`` keeps 3s off columns 1 and 6; ``apart: 13`` keeps the two 1s and
    the two 3s from standing side by side; ``centre: 3>=1`` / ``edges: 1=2`` count a size on
    columns 3-4 / 1 and 6; ``symmetric: true`` (or a side, or ``both``).

    >>> c = constraints_from_options(
    ...     {"side": "pair", "fix": ["N:3@1", "2@6"], "north-as": "mirror"})
    >>> c.north.fixed, c.south.fixed, c.north_as
    (((3, 1),), ((2, 6),), 'mirror')
    >>> constraints_from_options({"fix": "4@1"})  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    gyges.setups.constraints.SetupError: fix: '4@1' is not SIZE@COLUMN: write a size 1-3, ...
    """
    unknown = [k for k in options if k not in KEYS]
    if unknown:
        raise SetupError(
            f"unknown constraint {unknown[0]!r}: the constraints are {', '.join(KEYS)}"
        )
    side = str(options.get("side") or "south").lower()
    if side not in ("south", "north", "pair"):
        raise SetupError(f"side: {side!r} is not south, north or pair")
    per = _per_side(options, side)
    lands_in = options.get("lands-in")
    cannot = options.get("cannot-land-in")
    min_moves = options.get("min-moves")
    north_as = _north_as(options)
    threats = _replace_threats(options)
    c = Constraints(
        side=side,
        south=_side_constraints(per["south"]),
        north=_side_constraints(per["north"]),
        north_as=north_as,
        lands_in=None if lands_in is None else _int(lands_in, "lands-in", 1, 9),
        cannot_land_in=None if cannot is None else _int(cannot, "cannot-land-in", 1, 9),
        min_moves=None if min_moves is None else _int(min_moves, "min-moves", 0),
        max_replace_threats=None if threats is None else _int(threats, "max-replace-threats", 0),
        canonical=bool(options.get("canonical")),
    )
    _check_scope(c)
    return c


def _per_side(options: Mapping[str, Any], side: str) -> dict[str, dict[str, Any]]:
    """The placement constraints of each side, as lists and flags by side name. A value
    without a side prefix applies to the side searched (South for ``side: pair``)."""
    default = "north" if side == "north" else "south"
    per: dict[str, dict[str, Any]] = {
        s: {"fixed": [], "off": [], "apart": set(), "centre": [], "edges": [], "symmetric": False,
            "setup": None}
        for s in SIDES
    }
    _read_fixed(options, default, per)
    _read_off(options, default, per)
    _read_apart(options, default, per)
    for key in ("centre", "edges"):
        _read_counts(options, key, default, per)
    for s in _symmetric_sides(options, side, default):
        per[s]["symmetric"] = True
    for s in SIDES:
        if options.get(s) is not None:
            try:
                per[s]["setup"] = parse_setup(str(options[s]))
            except ValueError as e:
                raise SetupError(f"{s}: {e}") from None
    return per


def _read_fixed(options: Mapping[str, Any], default: str,
                per: dict[str, dict[str, Any]]) -> None:
    """``fix: SIZE@COLUMN``: a ring of that size on that column."""
    for text in _list(options.get("fix")):
        s, body = _split_side(text, default, "fix")
        m = _PLACE.match(body)
        if not m or len(re.sub(r"[\s,]", "", m.group(2))) != 1:
            raise SetupError(
                f"fix: {text!r} is not SIZE@COLUMN: write a size 1-3, '@' and a column 1-6, "
                "like 3@1"
            )
        per[s]["fixed"].append((int(m.group(1)), int(m.group(2).strip())))


def _read_off(options: Mapping[str, Any], default: str,
              per: dict[str, dict[str, Any]]) -> None:
    """``off: SIZE@COLUMNS``: no ring of that size on those columns."""
    for text in _list(options.get("off")):
        s, body = _split_side(text, default, "off")
        m = _PLACE.match(body)
        if not m:
            raise SetupError(
                f"off: {text!r} is not SIZE@COLUMNS: write a size 1-3, '@' and columns 1-6, "
                "like 3@16"
            )
        for col in sorted({int(ch) for ch in re.sub(r"[\s,]", "", m.group(2))}):
            per[s]["off"].append((int(m.group(1)), col))


def _read_apart(options: Mapping[str, Any], default: str,
                per: dict[str, dict[str, Any]]) -> None:
    """``apart: SIZES``: the two rings of each size not side by side."""
    for text in _list(options.get("apart")):
        s, body = _split_side(text, default, "apart")
        if not re.fullmatch(r"[123]+", body):
            raise SetupError(f"apart: {text!r} is not a list of sizes: write digits 1-3, like 13")
        per[s]["apart"].update(int(ch) for ch in body)


def _read_counts(options: Mapping[str, Any], key: str, default: str,
                 per: dict[str, dict[str, Any]]) -> None:
    """``centre`` / ``edges``: ``SIZE=COUNT`` (or ``<=``, ``>=``) rings of a size there."""
    for text in _list(options.get(key)):
        s, body = _split_side(text, default, key)
        m = _COUNT.match(body)
        if not m:
            raise SetupError(
                f"{key}: {text!r} is not SIZE=COUNT: write a size 1-3, =, <= or >=, and a "
                "count 0-2, like 3>=1"
            )
        op = "=" if m.group(2) == "==" else m.group(2)
        per[s][key].append(Count(int(m.group(1)), op, int(m.group(3))))


def _symmetric_sides(options: Mapping[str, Any], side: str, default: str) -> list[str]:
    """The sides whose setup must be symmetric (``symmetric: true``, a side or ``both``)."""
    sym = options.get("symmetric")
    if sym is None or sym is False:
        return []
    word = "true" if sym is True else str(sym).strip().lower()
    targets = {
        "true": [default] if side != "pair" else ["south", "north"],
        "yes": [default] if side != "pair" else ["south", "north"],
        "south": ["south"], "s": ["south"], "north": ["north"], "n": ["north"],
        "both": ["south", "north"],
    }.get(word)
    if targets is None:
        raise SetupError(f"symmetric: {sym!r} is not true, south, north or both")
    return targets


def _north_as(options: Mapping[str, Any]) -> str | None:
    """``north-as``: North's setup is South's ``mirror`` or ``rotated`` image."""
    north_as = options.get("north-as")
    if north_as is None:
        return None
    north_as = str(north_as).lower()
    if north_as not in ("mirror", "rotated"):
        raise SetupError(f"north-as: {north_as!r} is not mirror or rotated")
    return north_as


def _replace_threats(options: Mapping[str, Any]) -> Any:
    """``max-replace-threats`` as given (``no-replace-threat`` is 0)."""
    threats = options.get("max-replace-threats")
    if options.get("no-replace-threat"):
        if threats is not None and _int(threats, "max-replace-threats", 0) != 0:
            raise SetupError("no-replace-threat and max-replace-threats disagree: give one")
        threats = 0
    return threats


def _side_constraints(d: dict[str, Any]) -> SideConstraints:
    return SideConstraints(
        setup=d["setup"],
        fixed=tuple(sorted(set(d["fixed"]))),
        off=tuple(sorted(set(d["off"]))),
        apart=frozenset(d["apart"]),
        symmetric=d["symmetric"],
        centre=tuple(d["centre"]),
        edges=tuple(d["edges"]),
    )


def _model_sides(c: Constraints) -> tuple[str, ...]:
    """The sides with variables in the model: searched, or fixed or tied to a searched one."""
    if c.side == "pair":
        return SIDES
    other = "north" if c.side == "south" else "south"
    oc = getattr(c, other)
    if oc.setup is not None or c.north_as is not None:
        return SIDES
    return (c.side,)


def _check_scope(c: Constraints) -> None:
    sides = _model_sides(c)
    for s in SIDES:
        if s not in sides and not dataclasses.replace(getattr(c, s), setup=None).empty:
            raise SetupError(
                f"constraints on {s.title()}'s setup need {s.title()} in the search: use "
                f"--side pair, or fix {s.title()}'s setup with --{s} SETUP"
            )
    if c.engine and len(sides) < 2:
        other = "north" if c.side == "south" else "south"
        raise SetupError(
            "engine properties (lands-in, cannot-land-in, min-moves, replace threats) are "
            f"properties of the start position: fix {other.title()}'s setup with --{other} "
            "SETUP, tie it with --north-as, or use --side pair"
        )


def load_constraints(path: str) -> dict[str, Any]:
    """The options of a YAML constraint file (a mapping of :data:`KEYS`), checked."""
    try:
        with open(path, encoding="utf-8") as f:
            data = yaml.safe_load(f)
    except OSError as e:
        raise SetupError(f"{path}: cannot read it: {e.strerror}") from None
    except UnicodeDecodeError:
        raise SetupError(f"{path}: not a text file (it is not UTF-8)") from None
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        where = f"{path}, line {mark.line + 1}" if mark is not None else path
        problem = " ".join(str(getattr(e, "problem", None) or e).split()[:20])  # one line
        raise SetupError(f"{where}: not valid YAML: {problem}") from None
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise SetupError(f"{path}: a constraint file is a mapping of keys like 'fix: [3@1]'")
    try:
        constraints_from_options(data)
    except SetupError as e:
        raise SetupError(f"{path}: {e}") from None
    return data


# -- engine properties ---------------------------------------------------------------------


def forced_landing_within(position: Position, rules: RuleSet, k: int) -> bool:
    """Can the side to move force a landing on the goal within ``k`` of its moves?
    (The solver's ``gyges.search.prover.win_in``.)"""
    return bool(win_in(position, rules, k))


def _after(key: bytes, start: int, to: int, reloc: int | None) -> bytes:
    """The board key after a (non-winning) move."""
    return bytes(board_after(key, start, to, reloc))


def replace_threats(position: Position, rules: RuleSet) -> int:
    """How many first moves of the side to move are met by a replace on the ring just moved.

    An *immediate replace threat* is a first move after which the opponent can reply with a
    replace that lands on the ring just moved (standing in its place and relocating it).
    "No immediate replace threat" means this count is 0: however the first player opens,
    the ring it brings out cannot be replaced at once.
    """
    from gyges.game import _movegen

    flags = rules.flags()
    key = position.key
    side = position.turn.index
    mover, moves = _movegen.generate(key, side, flags, [], False)
    n = 0
    for start, to, reloc, _, _ in moves:
        if to >= 36:
            continue
        after = _after(key, start, to, reloc)
        replier, replies = _movegen.generate(after, 1 - mover, flags, [key], False)
        if replier == mover:
            continue
        for r in replies:
            if r[1] == to and r[2] is not None:
                n += 1
                break
    return n


def check_pair(south: str, north: str, c: Constraints, rules: RuleSet) -> bool:
    """Do the engine properties of ``c`` hold for the start position of this pair?"""
    position = Position.setup(south, north)
    if c.min_moves is not None:
        ml = legal_moves(position, rules)
        if ml.blocked or len(ml) < c.min_moves:
            return False
    if c.max_replace_threats is not None:
        if replace_threats(position, rules) > c.max_replace_threats:
            return False
    if c.lands_in is not None and not forced_landing_within(position, rules, c.lands_in):
        return False
    if c.cannot_land_in is not None and forced_landing_within(position, rules, c.cannot_land_in):
        return False
    return True


# -- the CP-SAT model ----------------------------------------------------------------------


def _side_model(model: Any, x: dict[tuple[int, int], Any], sc: SideConstraints) -> None:
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
            if k.op == "=":
                model.Add(total == k.count)
            elif k.op == "<=":
                model.Add(total <= k.count)
            else:
                model.Add(total >= k.count)


def _read(values: Callable[[Any], int], x: dict[tuple[int, int], Any]) -> str:
    return "".join(next(str(s) for s in SIZES if values(x[col, s])) for col in COLUMNS)


def _enumerate(model: Any, xs: dict[str, dict[tuple[int, int], Any]]) -> list[tuple[str, ...]]:
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


def search(
    c: Constraints,
    rules: RuleSet | None = None,
    count_only: bool = False,
    progress: Callable[[str], None] | None = None,
) -> list[Any] | int:
    """Every setup (``side`` south or north: six-digit strings) or pair (``(south, north)``)
    meeting ``c``, sorted; with ``count_only`` just how many.

    Engine properties are enforced lazily: each round enumerates the model's solutions, the
    engine checks those it has not judged yet, and each rejected assignment gets a no-good
    cut; the rounds stop when a round rejects nothing, so the model's solutions are exactly
    the accepted ones (the last round proves it exhausted).
    """
    from ortools.sat.python import cp_model

    rules = rules or PRESETS["pbmserv"]
    model = cp_model.CpModel()
    sides = _model_sides(c)
    xs = {
        side: {(col, s): model.NewBoolVar(f"{side[0]}{col}_{s}") for col in COLUMNS for s in SIZES}
        for side in sides
    }
    for side in sides:
        _side_model(model, xs[side], getattr(c, side))
    if c.north_as is not None:
        for col in COLUMNS:
            other = col if c.north_as == "mirror" else 7 - col
            for s in SIZES:
                model.Add(xs["north"][col, s] == xs["south"][other, s])

    judged: dict[tuple[str, ...], bool] = {}
    rounds = 0
    while True:
        rounds += 1
        solutions = _enumerate(model, xs)
        if not c.engine:
            break
        rejected = 0
        for i, sol in enumerate(solutions):
            if sol not in judged:
                pair = dict(zip(sides, sol, strict=True))
                judged[sol] = check_pair(pair["south"], pair["north"], c, rules)
                if progress is not None and i % 50 == 0:
                    progress(f"round {rounds}: {i} of {len(solutions)} judged by the engine")
            if not judged[sol]:
                rejected += 1
                literals = [xs[side][col, int(setup[col - 1])]
                            for side, setup in zip(sides, sol, strict=True) for col in COLUMNS]
                model.AddBoolOr([lit.Not() for lit in literals])  # the no-good cut
        if progress is not None:
            progress(f"round {rounds}: {len(solutions)} proposed, {rejected} cut")
        if rejected == 0:
            break

    index = sides.index(c.side) if c.side != "pair" else None
    results: list[Any] = [sol[index] for sol in solutions] if index is not None else solutions
    if c.side != "pair" and len(sides) == 2:
        results = sorted(set(results))  # the other side is determined: no duplicates arise
    if c.canonical:
        results = _canonical(results)
    return len(results) if count_only else results


def _canonical(results: Sequence[Any]) -> list[Any]:
    """One solution per mirror class: the smallest of the class among the solutions."""
    seen: set[Any] = set()
    out = []
    for r in sorted(results):
        key = min(r, mirror(r)) if isinstance(r, str) else canonical_pair(*r)
        if key not in seen:
            seen.add(key)
            out.append(r)
    return out


def all_pairs(souths: Iterable[str] = ALL_SETUPS, norths: Iterable[str] = ALL_SETUPS
              ) -> list[tuple[str, str]]:
    """Every (south, north) pair of the given setups, sorted."""
    return sorted(itertools.product(sorted(set(souths)), sorted(set(norths))))


__all__ = [
    "ALL_SETUPS", "Constraints", "Count", "KEYS", "SetupError", "SideConstraints", "all_pairs",
    "canonical_pair", "check_pair", "constraints_from_options", "forced_landing_within",
    "load_constraints", "mirror", "replace_threats", "search",
]
