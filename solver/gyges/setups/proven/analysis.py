"""The analysis of one setup pair: its start position's figures and the solver's verdict.

Each setup pair gives one start position, South to move (seed 000: South sets up first and
moves first). :func:`analyse_pair` computes its figures as one record
(:class:`gyges.setups.proven.records.PairRecord`), asking the solver for the verdict
unless it is given (the verdict of a pair split per first move:
:func:`gyges.setups.proven.batch.combine_verdicts`), within :data:`MIN_ANALYSIS_DEPTH` ..
:data:`MAX_ANALYSIS_DEPTH` of South's moves.

>>> from gyges.game.rules import PRESETS
>>> r = analyse_pair("231123", "321123", PRESETS["pbmserv"], 1)
>>> r.result, r.win_in, r.keys, r.south, r.north
('none', None, (), '231123', '321123')
"""

from __future__ import annotations

from typing import Any

from gyges.formats.notation import format_move
from gyges.game.bounds import MAX_MOVES
from gyges.game.moves import legal_moves
from gyges.game.position import Position
from gyges.game.rules import RuleSet, Side
from gyges.search import solve
from gyges.search.stipulation import ResultKind
from gyges.setups.proven.records import AnalysisParams, PairRecord
from gyges.setups.search.figures import (
    first_move_threats,
    goal_landings,
    hardest_threat,
    key_after,
    replace_threats,
)

__all__ = ["MAX_ANALYSIS_DEPTH", "MIN_ANALYSIS_DEPTH", "PairVerdict", "analyse_pair", "win_defence"]

MIN_ANALYSIS_DEPTH = 1  #: the shallowest analysis: South's verdict within one move
MAX_ANALYSIS_DEPTH = MAX_MOVES  #: the deepest analysis: the solver's limit

#: The solver's verdict for the side to move: ``(result, win_in, keys)``, the keys in
#: notation, sorted.
PairVerdict = tuple[ResultKind, int | None, list[str]]


def _solve(position: Position, rules: RuleSet, depth: int) -> PairVerdict:
    """The verdict for the side to move within ``depth`` moves, by the solver."""
    sol = solve(position, rules, max_moves=depth, tree=False)  # no tree: faster
    return sol.result, sol.moves, sorted(format_move(m) for m in sol.keys)


def win_defence(position: Position, rules: RuleSet, key_text: str, k: int) -> dict[str, Any]:
    """The opponent's best reply to the key ``key_text`` of the side to move, who wins in
    ``k``: the reply that holds out longest (by the solver, for k > 2), then leaves the
    winner the fewest landings; ties by notation. As ``{"after", "replies", "reply",
    "holds", "landings"}`` (``reply`` None, without the last two, when the opponent is
    blocked or every reply lands)."""
    key_move = next(m for m in legal_moves(position, rules) if format_move(m) == key_text)
    after = Position(tuple(key_after(position.key, key_move.start, key_move.end,
                                     key_move.relocation)), position.turn.other)
    replies = legal_moves(after, rules, [position])
    if replies.mover is not after.turn or not replies.moves:
        return {"after": key_text, "replies": 0, "reply": None}
    best: tuple[Any, ...] | None = None
    for r in replies:
        if r.is_win:
            continue
        nxt = key_after(after.key, r.start, r.end, r.relocation)
        length = 1
        if k > 2:
            sol = solve(Position(tuple(nxt), position.turn), rules, max_moves=k - 1)
            length = sol.moves or k - 1
        cand = (-length, goal_landings(nxt, position.turn, rules, [position.key, after.key]),
                format_move(r))
        best = cand if best is None or cand < best else best
    if best is None:
        return {"after": key_text, "replies": len(replies), "reply": None}
    return {"after": key_text, "replies": len(replies), "reply": best[2], "holds": -best[0],
            "landings": best[1]}


def analyse_pair(south: str, north: str, rules: RuleSet, depth: int,
                 verdict: PairVerdict | None = None) -> PairRecord:
    """The figures of one setup pair (South to move), as one record (its parameters
    :meth:`AnalysisParams.of <gyges.setups.proven.records.AnalysisParams.of>` ``rules``
    and ``depth``).

    ``verdict``: the solver's ``(result, win_in, keys)`` when already known; otherwise the
    solver is asked here.

    - ``south_moves``/``north_moves``: distinct legal moves in the start position (North's
      as if North were to move); ``*_replaces``: how many of them are replaces.
    - ``result``/``win_in``/``keys``: the solver's verdict within ``depth`` moves for South:
      ``win`` (South forces a landing with its ``win_in``-th move; ``keys``: every first move
      that does), ``loss`` (North forces one whatever South does) or ``none``.
    - ``landing_threats``: South first moves after which South could land next move if
      North did nothing; ``blunders``: South first moves that let North land at once;
      ``replace_threats``: South first moves (one per board they leave) after which North
      can leave a ring of another size where the ring just moved stands: a replace that
      displaces it (:func:`gyges.setups.search.figures.replace_threats`; read from the
      boards alone, so a pair and its mirror have the same count).
    - ``defence``: North's best defence. After a South win: North's reply to the first key
      that holds out longest, then leaves South the fewest landings (:func:`win_defence`).
      Otherwise: the landing threat hardest to meet
      (:func:`gyges.setups.search.figures.hardest_threat`: ``threat``, the South first move
      whose threat the fewest North replies stop, not counting moves that let North land
      first; ``replies``: how many replies stop it, by landing or by leaving South no
      landing; ``reply``: the first of them in slot order), or null when South has no
      landing threat.
    """
    start = Position.setup(south, north)
    ml = legal_moves(start, rules)
    nl = legal_moves(start.with_turn(Side.NORTH), rules)
    figures = first_move_threats(start, rules, ml)
    result, win_in, keys = verdict if verdict is not None else _solve(start, rules, depth)
    defence: dict[str, Any] | None = None
    if result == "win" and keys and win_in and win_in > 1:
        defence = win_defence(start, rules, keys[0], win_in)
    elif result != "win" and figures.threats:
        defence = hardest_threat(start, rules, figures.threats)
    return PairRecord(
        south=south, north=north,
        south_moves=len(ml), north_moves=len(nl),
        south_replaces=sum(m.is_replace for m in ml),
        north_replaces=sum(m.is_replace for m in nl),
        landing_threats=figures.landing_threats, blunders=figures.blunders,
        replace_threats=replace_threats(start, rules),
        result=ResultKind(result), win_in=win_in, keys=tuple(keys), defence=defence,
        params=AnalysisParams.of(rules, depth),
    )
