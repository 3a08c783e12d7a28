"""Composing positions around a designed idea with a CP-SAT model (OR-Tools).

The idea of a "win in 2" is drawn first (a :class:`Design`): after the key, the side to
move threatens to land along a path with ``bounces`` bounces; the key is a plain move or
a relocation (``key``); optionally the landing path crosses itself (``crossing``: it
enters one slot twice, which only the taboo on connections allows). The model places
every ring before and after the key and draws the paths:

- ``pre[s][v]``/``post[s][v]``: slot ``s`` holds a ring of size ``v`` (0 = empty) before
  and after the key; exactly four rings of each size (all twelve rings of a game);
- the key is one walk (no bounce) of a shore ring: as many steps as its size, through
  empty slots, onto an empty slot (plain) or a ring (relocation: that ring goes to an empty
  slot not beyond the opponent's shore);
- the landing after the key is ``bounces + 1`` walks: each as long as the size of the ring
  it starts from, through empty slots (the lifted ring's own slot counts as empty), the
  first from a ring on the mover's shore after the key, each but the last onto a ring (a
  bounce), the last onto the opponent's goal as its exact last step; no connection used
  twice;
- the key makes the threat: it brings a ring onto the landing path's start or a bounce
  slot, or it clears a slot the path crosses;
- with ``stalemate`` (a *stalemate chain*, for ``blocked=pass``): after the key North's
  shore is row 6 and every ring on it is boxed in (no one; a two with every neighbour
  occupied; a three with no two-step walk through empty slots), so North has no legal
  move, South moves again at once and lands: the turn ``key; landing``
  (:func:`_jam`). The landing's last walk is then a two on row 5 stepping through the
  empty slot above it onto the goal (the only way through a jammed row 6).

A random objective (weights drawn from the candidate's seed) picks one of the many
solutions; one worker and a deterministic time limit keep it repeatable. The engine
then checks what the model cannot see (the design's key is legal, the side to move cannot
land yet, the fewest bounces of a landing after the key is the designed number, the
opponent cannot land at once after the key; with ``stalemate``, that the opponent has no
legal move after the key) and a quick proof checks the stipulation; a
rejected board gets a no-good cut and the model is solved again (the pattern of
:mod:`gyges.setups.search.model`). The model is built for South; half the designs are turned around
for North (:meth:`gyges.game.position.Position.flipped`).

>>> import random
>>> from gyges.game.rules import PRESETS
>>> d = Design(bounces=1, key="plain")
>>> pos, key, landing = construct(d, PRESETS["pbmserv"], random.Random(3))
>>> landing.bounces, key.is_replace, pos.turn.title
(1, False, 'South')
>>> d = Design(bounces=1, stalemate=True, defenders=3)
>>> pos, key, landing = construct(d, PRESETS["pbmserv"], random.Random(1))
>>> after = apply_move(pos, key)
>>> legal_moves(after, PRESETS["pbmserv"], [pos]).mover.title   # North is blocked
'South'
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence
from typing import Any

from gyges.game.moves import Move, apply_move, can_land, legal_moves, segments
from gyges.game.position import Position, flipped
from gyges.game.rules import RuleSet, Side
from gyges.game.squares import NORTH_GOAL, SLOTS, row_of
from gyges.search import solve, win_in

__all__ = ["ComposeError", "Design", "construct", "compose_candidate", "walks"]

#: CP-SAT proposals per candidate before it gives up. What it trades: every proposal costs a
#: solve of the model and the engine's checks (and a quick proof), against the candidates a
#: design yields; a run's next candidate draws a new design. Each candidate's record keeps
#: the counts (proposals, refused by the engine, refused by the proof, infeasible paths).
ROUNDS = 25
#: Proposals on one landing path before a new one is drawn: the no-good cuts narrow one
#: path's model with each proposal, a new path opens other boards.
PATH_ROUNDS = 5


class ComposeError(ValueError):
    """A design the model cannot build."""


@dataclasses.dataclass(frozen=True)
class Design:
    """The idea to build: bounces of the landing after the key, the key's kind
    (``plain`` or ``relocation``), whether the landing path enters a slot twice, how
    many rings North's shore holds after the key (its defenders), and whether the key
    leaves North with no legal move (``stalemate``: South lands on its extra move)."""

    bounces: int = 1
    key: str = "plain"
    crossing: bool = False
    defenders: int = 2
    stalemate: bool = False

    def __post_init__(self) -> None:
        if not 0 <= self.bounces <= 4:
            raise ComposeError(f"bounces {self.bounces}: the model builds 0 to 4")
        if not 1 <= self.defenders <= 6:
            raise ComposeError(f"defenders {self.defenders}: North's shore holds 1 to 6 rings")
        if self.key not in ("plain", "relocation"):
            raise ComposeError(f"key {self.key!r}: plain or relocation")
        if self.stalemate and self.bounces < 1:
            raise ComposeError("a stalemate chain lands through a bounce on row 5: "
                               "bounces 1 to 4")
        if self.stalemate and self.defenders < 3:
            raise ComposeError(f"defenders {self.defenders}: a jammed row 6 holds at "
                               "least 3 rings")

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"bounces": self.bounces, "key": self.key,
                               "crossing": self.crossing, "defenders": self.defenders}
        if self.stalemate:
            out["stalemate"] = True
        return out


#: The order compose has always listed steps in (south, north, west, east): the walks and
#: the model's constraints come out in this order, so seeded runs stay the same.
_STEP_ORDER = {-6: 0, 6: 1, -1: 2, 1: 3}


def _neighbours(s: int) -> list[int]:
    """The slots one step from ``s`` (the core's segment tables), south first."""
    return sorted((t for (t,) in segments(s, 1) if t < 36), key=lambda t: _STEP_ORDER[t - s])


def walks(length: int, to_goal: bool = False) -> list[tuple[int, ...]]:
    """Every walk of ``length`` steps that uses no connection twice, as the slots entered
    (start first): the core's segments under ``taboo=connection``. With ``to_goal`` the
    last step goes from row 6 onto North's goal.

    >>> len(walks(1)), walks(1, to_goal=True)[:2]
    (120, [(30, 36), (31, 36)])
    """
    out: list[tuple[int, ...]] = []
    for s in SLOTS:
        ends = [w for w in segments(s, length)
                if (w[-1] == NORTH_GOAL if to_goal else w[-1] < 36)]
        ends.sort(key=lambda w: [_STEP_ORDER[b - a] for a, b in zip((s, *w), w[:-1] if to_goal
                                                                   else w, strict=False)])
        out += [(s, *w) for w in ends]
    return out


_WALKS = {(k, g): walks(k, g) for k in (1, 2, 3) for g in (False, True)}


def _jam(m, post, entry_taboo: bool = False) -> None:
    """North's shore (row 6) after the key is jammed: no ring on it has a legal move.
    A one always moves (onto an empty slot, or onto a ring: a bounce or a replace), so
    none stands there; a two needs an empty neighbour for its first step, so all its
    neighbours are occupied; a three needs two steps through empty slots, so no
    neighbour and next slot (a walk that does not use a connection twice; under
    ``taboo=entry`` also back onto its own, lifted, slot) are both empty."""
    for s in SLOTS:
        if row_of(s) != 6:
            continue
        m.Add(post[s, 1] == 0)
        for a in _neighbours(s):
            m.AddImplication(post[s, 2], post[a, 0].Not())
            if entry_taboo:
                m.AddImplication(post[s, 3], post[a, 0].Not())
                continue
            for b in _neighbours(a):
                if b != s:
                    m.AddBoolOr([post[s, 3].Not(), post[a, 0].Not(), post[b, 0].Not()])


def _model(design: Design, path: Sequence[tuple[int, ...]], rng: random.Random,
           cuts: Sequence[Sequence[tuple[int, int]]], entry_taboo: bool = False):
    from ortools.sat.python import cp_model

    m = cp_model.CpModel()
    pre = {(s, v): m.NewBoolVar(f"pre{s}_{v}") for s in SLOTS for v in range(4)}
    post = {(s, v): m.NewBoolVar(f"post{s}_{v}") for s in SLOTS for v in range(4)}
    for board in (pre, post):
        for s in SLOTS:
            m.AddExactlyOne(board[s, v] for v in range(4))
        for v in (1, 2, 3):
            m.Add(sum(board[s, v] for s in SLOTS) == 4)

    # the key: one walk of a shore ring, no bounce
    key = {w: m.NewBoolVar(f"k{w}") for k in (1, 2, 3) for w in _WALKS[k, False]}
    m.AddExactlyOne(key.values())
    k_start: dict[int, list[Any]] = {s: [] for s in SLOTS}
    k_end: dict[int, list[Any]] = {s: [] for s in SLOTS}
    for w, x in key.items():
        a, e, size = w[0], w[-1], len(w) - 1
        k_start[a].append(x)
        k_end[e].append(x)
        m.AddImplication(x, pre[a, size])
        m.AddImplication(x, post[e, size])
        for t in w[1:-1]:
            m.AddImplication(x, pre[t, 0])
    ks = {s: m.NewBoolVar(f"ks{s}") for s in SLOTS}
    ke = {s: m.NewBoolVar(f"ke{s}") for s in SLOTS}
    for s in SLOTS:
        m.Add(ks[s] == sum(k_start[s]))
        m.Add(ke[s] == sum(k_end[s]))
        m.AddImplication(ks[s], post[s, 0])
        for t in SLOTS:
            if row_of(t) < row_of(s):
                m.AddImplication(ks[s], pre[t, 0])     # the key's ring is on South's shore
    kr = {s: m.NewBoolVar(f"kr{s}") for s in SLOTS}
    if design.key == "plain":
        for s in SLOTS:
            m.Add(kr[s] == 0)
            m.AddImplication(ke[s], pre[s, 0])
    else:
        m.AddExactlyOne(kr.values())
        rsize = {v: m.NewBoolVar(f"rs{v}") for v in (1, 2, 3)}
        m.AddExactlyOne(rsize.values())
        for s in SLOTS:
            m.AddImplication(ke[s], pre[s, 0].Not())
            m.AddImplication(kr[s], pre[s, 0])
            m.AddImplication(kr[s], ks[s].Not())
            for v in (1, 2, 3):
                m.AddBoolOr([ke[s].Not(), pre[s, v].Not(), rsize[v]])
                m.AddBoolOr([kr[s].Not(), rsize[v].Not(), post[s, v]])
            # not beyond the opponent's shore: a ring stays on a row at least as high
            higher = [post[t, 0].Not() for t in SLOTS if row_of(t) >= row_of(s) and t != s]
            m.AddBoolOr([kr[s].Not(), *higher])
    for s in SLOTS:
        for v in range(4):
            m.AddBoolOr([ks[s], ke[s], kr[s], pre[s, v].Not(), post[s, v]])

    # the landing after the key, drawn beforehand: each waypoint holds a ring of its
    # segment's length, the slots crossed are empty (the lifted ring's slot excepted), and
    # the first ring is on South's shore
    w0 = path[0][0]
    for seg in path:
        m.Add(post[seg[0], len(seg) - 1] == 1)
        for t in seg[1:-1]:
            if t != w0:
                m.Add(post[t, 0] == 1)
    for t in SLOTS:
        if row_of(t) < row_of(w0):
            m.Add(post[t, 0] == 1)
    way = {seg[0] for seg in path}
    cross = {t for seg in path for t in seg[1:-1] if t != w0}
    # the key makes the threat
    m.AddBoolOr([ke[s] for s in way] + [kr[s] for s in way] + [ks[s] for s in cross])
    # North has rings above the mover's, so that the game is on; after the key, North's
    # shore (its highest row) holds the design's number of rings: its defenders
    m.AddBoolOr([pre[s, 0].Not() for s in SLOTS if row_of(s) >= 4])
    top = {r: m.NewBoolVar(f"top{r}") for r in range(3, 7)}
    m.AddExactlyOne(top.values())
    for r, x in top.items():
        for t in SLOTS:
            if row_of(t) > r:
                m.AddImplication(x, post[t, 0])
        m.Add(sum(post[t, 0].Not() for t in SLOTS if row_of(t) == r)
              == design.defenders).OnlyEnforceIf(x)
    if design.stalemate:     # North's shore is row 6, boxed in: North is blocked after the key
        m.Add(top[6] == 1)
        _jam(m, post, entry_taboo)
    for cut in cuts:     # no-goods: not all of these placements (slot, size) again
        m.AddBoolOr([pre[s, v].Not() for s, v in cut])
    weights = [(pre[s, v], rng.randrange(100)) for s in SLOTS for v in (1, 2, 3)]
    m.Maximize(sum(w * x for x, w in weights))
    return m, pre, key, kr


def draw_path(design: Design, rng: random.Random, tries: int = 2000
              ) -> list[tuple[int, ...]] | None:
    """A landing path with the design's bounces, drawn backwards from the goal: walks of 1
    to 3 steps, no connection twice, waypoints holding one size each, slots crossed never
    a waypoint (but the first ring's own slot); with ``crossing`` some slot entered twice."""
    by_end: dict[int, list[tuple[int, ...]]] = {}
    for k in (1, 2, 3):
        for w in _WALKS[k, False]:
            by_end.setdefault(w[-1], []).append(w)
    finals = [w for k in (1, 2, 3) for w in _WALKS[k, True]]
    if design.stalemate:     # through a jammed row 6: a two on row 5, straight up
        finals = [w for w in _WALKS[2, True] if w[1] == w[0] + 6]
    for _ in range(tries):
        path = [rng.choice(finals)]
        for _ in range(design.bounces):
            path.insert(0, rng.choice(by_end[path[0][0]]))
        if _path_ok(path, design):
            return path
    return None


def _path_ok(path: Sequence[tuple[int, ...]], design: Design) -> bool:
    edges = [frozenset(e) for w in path for e in zip(w, w[1:], strict=False)]
    if len(set(edges)) != len(edges):
        return False
    w0 = path[0][0]
    sizes: dict[int, int] = {}
    for w in path:
        if sizes.setdefault(w[0], len(w) - 1) != len(w) - 1:
            return False
    crossed = {t for w in path for t in w[1:-1]} - {w0}
    if crossed & set(sizes):
        return False
    entered = [t for w in path for t in w[1:]]
    twice = len(set(entered)) < len(entered)
    return twice == design.crossing


def _solve_model(design: Design, path: Sequence[tuple[int, ...]], rng: random.Random,
                 cuts: Sequence[Sequence[tuple[int, int]]], entry_taboo: bool = False):
    from ortools.sat.python import cp_model

    m, pre, key, kr = _model(design, path, rng, cuts, entry_taboo)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.random_seed = rng.randrange(1 << 30)
    solver.parameters.max_deterministic_time = 0.5
    # Ctrl-C stays Python's: OR-Tools' own handler would cut the solve short (a changed
    # result) and leave SIGINT at its default (death, no message) once the solve is over.
    solver.parameters.catch_sigint_signal = False
    status = solver.Solve(m)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return None
    board = tuple(next(v for v in range(4) if solver.BooleanValue(pre[s, v])) for s in SLOTS)
    walk = next(w for w, x in key.items() if solver.BooleanValue(x))
    reloc = next((s for s, x in kr.items() if solver.BooleanValue(x)), None)
    return board, walk, reloc


class _LandsNow(Exception):
    """The proposal lets the side to move land at once (by ``move``)."""

    def __init__(self, move: Move) -> None:
        self.move = move


def _landing_cut(board: tuple[int, ...], move: Move) -> list[tuple[int, int]]:
    """The placements a landing stands on: its rings and the empty slots it crosses (a
    stronger cut than the whole board: every board with them is refused at once)."""
    rings = {move.start, *move.landings}
    cut = [(s, board[s]) for s in sorted(rings)]
    cut += [(t, 0) for t in sorted(set(move.path[1:-1]) - rings) if t < 36]
    return cut


def _check(board: tuple[int, ...], walk: tuple[int, ...], reloc: int | None, design: Design,
           rules: RuleSet) -> tuple[Position, Move, Move] | None:
    """The engine's checks of a proposal: (position, key, landing) or None."""
    pos = Position(board, Side.SOUTH)
    ml = legal_moves(pos, rules)
    if ml.mover is not Side.SOUTH:
        return None
    if ml.wins:
        raise _LandsNow(ml.wins[0])
    key = next((mv for mv in ml if mv.start == walk[0] and mv.end == walk[-1]
                and mv.relocation == reloc), None)
    if key is None:
        return None
    after = apply_move(pos, key)
    if can_land(after, rules, [pos]):
        return None
    if design.stalemate and legal_moves(after, rules, [pos]).mover is not Side.SOUTH:
        return None     # North is not blocked after the key (or blocked does not pass)
    again = legal_moves(after.with_turn(Side.SOUTH), rules, [pos])
    if again.mover is not Side.SOUTH or not again.wins:
        return None
    landing = min(again.wins, key=lambda mv: mv.bounces)
    if landing.bounces != design.bounces:
        return None
    return pos, key, landing


def construct(design: Design, rules: RuleSet, rng: random.Random, rounds: int = ROUNDS,
              accept=None, stats: dict[str, int] | None = None
              ) -> tuple[Position, Move, Move] | None:
    """A position (South to move) built around ``design`` that passes the engine's checks
    and ``accept(position)`` (when given): (position, key, the landing it threatens), or
    None after ``rounds`` proposals. ``stats`` counts what happened: ``paths`` drawn,
    ``infeasible`` paths, ``proposals``, rejected by the ``engine`` and by ``accept``."""
    stats = stats if stats is not None else {}
    for k in ("paths", "infeasible", "proposals", "engine", "accept"):
        stats.setdefault(k, 0)
    cuts: list[list[tuple[int, int]]] = []
    path = None
    for r in range(rounds):
        if r % PATH_ROUNDS == 0:
            path, cuts = None, []     # a fresh path every few proposals, for variety
        if path is None:
            path = draw_path(design, rng)
            if path is None:
                return None
            stats["paths"] += 1
        found = _solve_model(design, path, rng, cuts, rules.taboo == "entry")
        if found is None:
            stats["infeasible"] += 1
            path, cuts = None, []     # this path admits no position: draw another
            continue
        stats["proposals"] += 1
        board, walk, reloc = found
        try:
            checked = _check(board, walk, reloc, design, rules)
        except _LandsNow as e:
            stats["engine"] += 1
            cuts.append(_landing_cut(board, e.move))
            continue
        if checked is None:
            stats["engine"] += 1
        elif accept is None or accept(checked[0]):
            return checked
        else:
            stats["accept"] += 1
        cuts.append(list(enumerate(board)))
    return None


def draw_design(rng: random.Random, themes: Sequence[str] = (),
                rules: RuleSet | None = None) -> Design:
    """A design for a candidate: the wanted themes fix what they name (a relocating key
    for a relocation bridge or a gift, a plain one for a late relocation, a quiet key or a
    runner; the other themes are left to the filter of the solved candidates), the rest is
    drawn (no relocation when the rules have no replace; a stalemate chain, only when asked for
    with the theme ``stalemate chain`` and only under ``blocked=pass``)."""
    bounces = rng.choice((0, 1, 1, 2, 2, 3))
    key = "relocation" if rng.random() < 0.3 else "plain"
    crossing = rng.random() < 0.15
    stalemate = False
    for t in themes:
        if t.startswith("bounce chain"):
            bounces = max(int(t.split()[-1]), 1)
        elif t in ("relocation bridge", "gift"):
            key = "relocation"
        elif t in ("late relocation", "quiet key", "runner"):
            key = "plain"
        elif t == "taboo":
            crossing = True
        elif t == "stalemate chain":
            stalemate = True
    if crossing:
        bounces = max(bounces, 2)
    if rules is not None and rules.replace == "off":
        key = "plain"
    if rules is not None and rules.blocked != "pass":
        stalemate = False     # a blocked side does not pass: no side moves twice
    defenders = rng.choice((1, 1, 2, 3))
    if stalemate:     # a jammed row 6 holds 3 to 5 rings; the landing bounces on row 5
        return Design(min(max(bounces, 1), 4), key, crossing, defenders + 2, True)
    return Design(min(bounces, 4), key, crossing, defenders)


def compose_candidate(rng: random.Random, rules: RuleSet, moves: int,
                      themes: Sequence[str] = ()) -> tuple[Position | None, dict[str, Any]]:
    """One composed candidate for "win in ``moves``": the design drawn from ``rng`` and the
    position built around it, kept by the model's loop only if the side to move wins in
    exactly ``moves`` with a single key (a quick proof; the full soundness test comes
    after)."""
    design = draw_design(rng, themes, rules)

    def accept(p: Position) -> bool:
        if not win_in(p, rules, moves) or win_in(p, rules, moves - 1):
            return False
        return len(solve(p, rules, max_moves=moves, tree=False).keys) == 1

    stats: dict[str, int] = {}
    built = construct(design, rules, rng, accept=accept, stats=stats)
    info = {**design.to_json(), "model": stats}
    if built is None:
        return None, info
    pos = built[0]
    if rng.random() < 0.5:
        pos = flipped(pos)
    return pos, info
