"""Puzzle generation: candidates, soundness, rating, themes, duplicates, and the run.

A *candidate* is a position with the side to move; it comes from one of two sources:

- ``play``: random, engine-guided play from random setups (no move that lets the opponent
  land at once; the first position of the game where the side to move wins in exactly the
  wanted number of moves is the candidate);
- ``compose``: a CP-SAT model that builds a position around a designed idea (the winning
  landing after the key with a given number of bounces, a relocation in the key, a path
  that crosses itself under the taboo, a stalemate chain: the key leaves the opponent no
  legal move and the extra move lands); see :mod:`gyges.puzzles.compose`.

Every candidate goes to the solver (:func:`assess`), which keeps it only when it is sound
(docs/generate.md): the stipulation is exact, there is one key, and the puzzle is not
trivial. Sound puzzles are rated (:func:`rating`), their themes tagged from the main line
the catalogue checker replays, and duplicates removed up to the board's symmetries
(:func:`canonical`). :func:`run` drives the candidates through a process pool, records each
one in a side JSON Lines file (resumable) and writes the catalogue file.

>>> from gyges.game.rules import PRESETS
>>> p = Position.from_string("3....3/13..2./2...../1..31./....22/.1.... N")
>>> canonical(p) == canonical(p.mirrored()) == canonical(flipped(p))
True
>>> rating(Features(moves=2, single_tries=0, defences=5, key_bounces=0, quiet=False,
...                 nodes=100)).difficulty
1
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import json
import logging
import math
import os
import random
import re
import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any, TextIO

from gyges.formats.notation import format_move
from gyges.formats.posfile import _closest_preset
from gyges.game.moves import (
    Game,
    Move,
    MoveList,
    apply_move,
    board_after,
    can_land,
    legal_moves,
)
from gyges.game.position import ALL_SETUPS, Position
from gyges.game.rules import RuleSet, Side
from gyges.output import OutputError, check_output, distinct, is_signed, signed, write_atomic
from gyges.parallel import Interrupted, Progress, log_to, open_executor
from gyges.puzzles.authoring import AuthoringError, Findings, findings
from gyges.puzzles.compose import compose_candidate
from gyges.puzzles.lines import line_themes, play_line
from gyges.puzzles.schema import (
    CatalogueError,
    catalogue_files,
    load_catalogue,
    parse_catalogue,
)
from gyges.puzzles.symmetry import canonical, flipped
from gyges.search._dfpn import DfpnSearcher
from gyges.search._search import Searcher
from gyges.search.prover import pick, table_bits, win_in, winners_among
from gyges.search.prover import solve as search_solve
from gyges.search.stipulation import Stipulation
from gyges.search.tree import Node, WinnerNode, walk

__all__ = [
    "Assessment", "Features", "GenerateError", "Params", "Rating", "assess", "canonical",
    "candidate", "candidate_seed", "collect", "evaluate", "flipped", "known_positions", "rating",
    "read_state", "run", "theme_matches", "write_catalogue",
]

LOG = logging.getLogger("gyges.generate")
FORMAT = 1  #: version of the side JSON Lines record layout
SOURCES = ("play", "compose")


class GenerateError(ValueError):
    """Parameters that cannot be used, or a state file that cannot be resumed."""


# -- symmetry and duplicates ---------------------------------------------------------------


def known_positions(paths: Iterable[str | Path], rules: RuleSet | None = None,
                    exclude: str | Path | None = None) -> set[str]:
    """The canonical positions of the puzzles of the catalogue files (under ``rules`` when
    given), but the file ``exclude``. A missing or unreadable file is a GenerateError (a
    file that silently counted for nothing would let duplicates through)."""
    out: set[str] = set()
    try:
        files = catalogue_files(paths)
    except CatalogueError as e:
        raise GenerateError(f"--against {e}") from None
    skip = Path(exclude).resolve() if exclude is not None else None
    for f in files:
        if skip is not None and f.resolve() == skip:
            continue
        try:
            cat = load_catalogue(f)
        except CatalogueError as e:
            raise GenerateError(f"{e} (a catalogue given to --against; fix it, or leave it "
                                "out)") from None
        for p in cat.puzzles:
            if rules is None or p.rules == rules:
                out.add(canonical(p.position))
    return out


# -- rating ------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Features:
    """What makes a sound puzzle hard, measured by the solver.

    ``moves``: the stipulated number of moves; ``single_tries``: tries (first moves that
    fail) refuted by one defence only, counted up to the rating's cap; ``defences``: the
    defender's legal replies to the key; ``key_bounces``: bounces of the key; ``quiet``:
    the key neither relocates a ring nor threatens to land; ``nodes``: positions the
    solver visited to prove the win.
    """

    moves: int
    single_tries: int
    defences: int
    key_bounces: int
    quiet: bool
    nodes: int

    def to_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


@dataclasses.dataclass(frozen=True)
class Rating:
    score: float
    difficulty: int  #: 1 (easy) .. 5 (hard), as in the catalogue


#: The score's terms (docs/generate.md); each grows with its feature and is capped.
WEIGHTS = {"moves": 2.0, "single_tries": 0.6, "defences": 0.05, "key_bounces": 0.5,
           "quiet": 1.5, "nodes": 0.3}
CAPS = {"single_tries": 5, "defences": 40, "key_bounces": 4, "nodes": 6.0}
#: Score thresholds of difficulty 2, 3, 4, 5.
THRESHOLDS = (3.5, 5.0, 6.5, 8.5)


def rating(f: Features) -> Rating:
    """The difficulty of a puzzle from its features: a weighted sum of capped, increasing
    terms (so more of any feature never makes a puzzle easier), cut into 1..5.

    >>> rating(Features(2, 3, 20, 2, True, 5000))
    Rating(score=8.41, difficulty=4)
    """
    w, c = WEIGHTS, CAPS
    score = (
        w["moves"] * (f.moves - 1)
        + w["single_tries"] * min(f.single_tries, c["single_tries"])
        + w["defences"] * min(f.defences, c["defences"])
        + w["key_bounces"] * min(f.key_bounces, c["key_bounces"])
        + (w["quiet"] if f.quiet else 0.0)
        + w["nodes"] * min(math.log10(f.nodes + 1), c["nodes"])
    )
    difficulty = 1 + sum(score >= t for t in THRESHOLDS)
    return Rating(round(score, 3), difficulty)


# -- soundness -----------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Assessment:
    """The solver's verdict on a candidate (``sound``, else the ``reasons`` it is not) and,
    for a sound one, everything its catalogue entry needs."""

    position: Position
    sound: bool
    reasons: tuple[str, ...]
    key: str | None = None
    main_line: tuple[str, ...] = ()
    themes: tuple[str, ...] = ()
    features: Features | None = None
    rating: Rating | None = None
    tries: tuple[str, ...] = ()
    duals: tuple[str, ...] = ()
    threats: int = 0

    def to_json(self) -> dict[str, Any]:
        return {
            "position": str(self.position), "sound": self.sound, "reasons": list(self.reasons),
            "key": self.key, "main_line": list(self.main_line), "themes": list(self.themes),
            "features": self.features.to_json() if self.features else None,
            "score": self.rating.score if self.rating else None,
            "difficulty": self.rating.difficulty if self.rating else None,
            "tries": list(self.tries), "duals": list(self.duals), "threats": self.threats,
        }

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Assessment:
        f = d.get("features")
        r = Rating(d["score"], d["difficulty"]) if d.get("difficulty") is not None else None
        return cls(Position.from_string(d["position"]), d["sound"], tuple(d["reasons"]),
                   d.get("key"), tuple(d.get("main_line", ())), tuple(d.get("themes", ())),
                   Features(**f) if f else None, r, tuple(d.get("tries", ())),
                   tuple(d.get("duals", ())), d.get("threats", 0))


def _threatens(before: Position, after: Position, side: Side, rules: RuleSet) -> bool:
    """Could ``side`` land at once from ``after`` if it were to move again?"""
    return can_land(after.with_turn(side), rules, [before])


def plausible_moves(position: Position, rules: RuleSet) -> list[Move]:
    """The first moves a solver would look at first: those that threaten to land next move
    (if the opponent did nothing) without letting the opponent land at once."""
    me = position.turn
    out = []
    for m in legal_moves(position, rules):
        if m.is_win or m.side is not me:
            continue
        after = apply_move(position, m)
        if can_land(after, rules, [position]):
            continue
        if _threatens(position, after, me, rules):
            out.append(m)
    return out


def _duals(tree: Node | None) -> list[str]:
    """Defences after which the winner has several winning continuations before the last
    move (a dual); several rings landing on the goal at the end is not counted."""
    out = []
    for path, node in walk(tree):
        if path and isinstance(node, WinnerNode) and node.moves_left >= 2 and node.dual:
            defence = next((s.move for s in reversed(path) if s.defence), None)
            out.append(f"after {defence}: {', '.join(node.moves[:3])}")
    return out


#: Tries (the rating's single-refutation tries) are looked for up to a win in this many
#: moves. Deeper, each of hundreds of first moves would need a second defence proven to
#: hold, a "no win in 4" (a win in 4's "no win in 3" took about 0.1 s; these were not
#: measured), and a win in 5 is rated difficulty 5
#: without them: its length alone scores 8 of the 8.5 needed, a proof of 46 nodes or more
#: the rest (a win in 5 takes thousands).
TRIES_UP_TO = 4


def assess(position: Position, rules: RuleSet, moves: int, *, no_duals: bool = False,
           min_tries: int = 2, solve: Callable[..., Any] | None = None) -> Assessment:
    """Is ``position`` a sound "side to move wins in ``moves``" puzzle? (docs/generate.md)

    Sound: the solver proves a win in exactly ``moves`` (no shorter win), with one key (no
    cook); not trivial: the key is not the only legal move, not the only move that threatens
    to land, and at least ``min_tries`` other moves threaten to land (plausible tries).
    Duals are a flaw recorded in ``duals``; with ``no_duals`` they reject the puzzle.
    """
    solve = solve or search_solve
    me = position.turn
    root = legal_moves(position, rules)
    if root.mover is not me or not root.moves:
        return Assessment(position, False, ("the side to move is blocked",))
    if root.wins:
        return Assessment(position, False, ("the side to move lands at once",))
    # a cook is told from a unique key by the first two keys found; once the key is known
    # to be unique, the other solves stop at it (deep stipulations: the cook search of
    # every defence on the main line was most of the time)
    quick = functools.partial(solve, tree=False, max_keys=1)
    threats = plausible_moves(position, rules)
    # the tree (for duals) and the tries (for the rating) come from the same solve, asked
    # only when the key is unique and the position can still be a puzzle (a second legal
    # move, and at least min_tries threats, the plausible tries being among them): the
    # tries then start from the cook search's table, which holds a refutation of every
    # other first move. The rating counts the tries refuted by one defence, up to its cap:
    # only those are looked for (a first move is dropped at its second refutation, not its
    # fourth).
    extras = len(root.moves) > 1 and len(threats) >= min_tries
    sol = solve(position, rules, max_moves=moves, tree=extras, max_keys=2,
                tries=extras and moves <= TRIES_UP_TO, try_refutations=1,
                try_count=int(CAPS["single_tries"]), extras_if_cooked=False)
    if sol.result != "win" or sol.moves != moves:
        found = f"{sol.result} in {sol.moves}" if sol.moves else sol.result
        return Assessment(position, False, (f"not a win in exactly {moves} ({found})",))
    if len(sol.keys) != 1:
        return Assessment(position, False, (f"cooked: {len(sol.keys)} keys",))
    key = sol.keys[0]
    reasons = []
    if len(root.moves) == 1:
        reasons.append("the key is the only legal move")
    key_result = key.result_key(position)
    others = [m for m in threats if m.result_key(position) != key_result]
    if len(others) < len(threats) and not others:
        reasons.append("the key is the only move that threatens to land")
    if len(others) < min_tries:
        reasons.append(f"{len(others)} plausible tries (at least {min_tries} wanted)")
    if reasons:
        return Assessment(position, False, tuple(reasons), key=format_move(key))
    duals = _duals(sol.tree)
    if duals and no_duals:
        return Assessment(position, False, ("duals: " + "; ".join(duals),),
                          key=format_move(key))
    try:
        found = findings(position, rules, sol, (), quick)
    except AuthoringError as e:
        # the catalogue checker replays the main line: an entry it cannot replay is no use
        return Assessment(position, False, (f"the main line cannot be replayed: {e.reason}",),
                          key=format_move(key))
    after = apply_move(position, key)
    defences = legal_moves(after, rules, [position])
    quiet = not key.is_replace and not _threatens(position, after, me, rules)
    features = Features(
        moves=moves,
        single_tries=len(sol.tries),
        defences=len(defences.moves) if defences.mover is after.turn else 0,
        key_bounces=key.bounces,
        quiet=quiet,
        nodes=sol.stats.proof_nodes,
    )
    return Assessment(
        position, True, (), key=format_move(key), main_line=found.main_line,
        themes=found.themes, features=features, rating=rating(features),
        tries=tuple(str(t.move) for t in sol.tries), duals=tuple(duals),
        threats=len(others),
    )


def theme_matches(wanted: Sequence[str], themes: Sequence[str]) -> bool:
    """Does a puzzle with ``themes`` show every wanted theme? ``bounce chain N`` asks for a
    chain of at least N bounces.

    >>> theme_matches(["bounce chain 2", "relocation"], ["bounce chain 3", "relocation"])
    True
    >>> theme_matches(["taboo"], ["bounce chain 3"])
    False
    """
    for w in wanted:
        if w.startswith("bounce chain"):
            n = int(w.split()[-1])
            if not any(t.startswith("bounce chain") and int(t.split()[-1]) >= n for t in themes):
                return False
        elif w not in themes:
            return False
    return True


# -- candidates ----------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Params:
    """Everything a run's results depend on (stored in every state record)."""

    moves: int
    rules: RuleSet
    seed: int = 0
    sources: tuple[str, ...] = SOURCES
    themes: tuple[str, ...] = ()
    no_duals: bool = False
    min_tries: int = 2

    @property
    def stipulation(self) -> Stipulation:
        """What every puzzle of the run is: the side to move wins in ``moves``."""
        return Stipulation("win", self.moves)

    def command(self, count: int) -> str:
        """The ``gyges generate`` options of this run."""
        preset, changes = _closest_preset(self.rules)
        parts = [f"gyges generate --stipulation '{self.stipulation.command()}' --rules {preset}"]
        parts += [f"--rule {k}={v}" for k, v in changes.items()]
        parts.append(f"--seed {self.seed} --count {count}")
        if tuple(self.sources) != SOURCES:
            parts.append(f"--source {self.sources[0]}")
        if self.themes:
            parts.append(f"--themes '{','.join(self.themes)}'")
        if self.no_duals:
            parts.append("--no-duals")
        if self.min_tries != 2:
            parts.append(f"--min-tries {self.min_tries}")
        return " ".join(parts)

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "format": FORMAT, "moves": self.moves, "rules": self.rules.describe(),
            "seed": self.seed, "sources": list(self.sources), "themes": list(self.themes),
            "no_duals": self.no_duals, "min_tries": self.min_tries}
        if "play" in self.sources:
            # play candidates changed on 2026-11-23 (:data:`PLAY_WAY`): a state file
            # of an earlier way is not resumed
            d["play"] = PLAY_WAY
        return d


def candidate_seed(seed: int, index: int) -> int:
    """The candidate's own seed: a hash of the run's seed and the candidate's index, so a
    candidate is the same whichever worker makes it and whatever ran before.

    >>> candidate_seed(1, 2) == candidate_seed(1, 2) != candidate_seed(2, 1)
    True
    """
    digest = hashlib.sha256(f"gyges-generate:{seed}:{index}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


#: From this many moves on, play candidates are found by walking back from the first
#: shallower win (:func:`_walk_back_candidate`) instead of asking for the win in N at each ply.
DEEP_FROM = 3

#: The version of the play candidates, in the state records' parameters (all five of
#: 2026-11-23): unmarked, a win in N asked at every ply; ``"walk-back"``, wins in 4 and 5
#: found by walking back; ``"walk-back 2"``, wins in 3 too, and the random safe move
#: drawn by trying moves in a random order (:func:`_random_safe_move`); ``"walk-back 3"``,
#: a walk that finds two winning moves (a cook) goes on playing; ``"walk-back 4"`` (now),
#: the walk of a win in 3 or 4 asks at most :data:`WALK_THREATS` threats. Each change
#: gives other candidates for the same seed, so a state file of another version is
#: refused.
PLAY_WAY = "walk-back 4"

#: For wins in 3 and 4, the walk asks the move the game played and at most this many of
#: the moves that threaten to land (the first in move order) whether they win. A "none of
#: them" costs a proof per move asked, and most answers are "none": with every threat
#: asked, 20 wins in 3 took 12.1 / 8.8 / 11.3 / 13.7 s (seeds 1 / 3 / 2026 / 7), with 6
#: 11.9 / 8.6 / 9.4 / 7.6 s; 3 wins in 4 (seeds 42 / 43) 50.9 / 9.2 s, with 6 31.4 / 5.7 s.
#: (With 3, 13.7 s for seed 2026: too few candidates come up.) Wins in 5 ask every threat:
#: with 6, seed 53 had found 1 of 2 after 8 minutes, against 2 in 206 s.
WALK_THREATS = 6


def play_candidate(rng: random.Random, rules: RuleSet, moves: int,
                   max_plies: int = 40) -> Position | None:
    """Engine-guided random play from random setups: never a move that lets the opponent
    land at once (when there is another). For a win in 1 or 2, the first position from
    the fifth ply on where the side to move wins in exactly ``moves`` (and cannot land at
    once) is returned; deeper, the first one :func:`_walk_back_candidate` finds."""
    if moves >= DEEP_FROM:
        return _walk_back_candidate(rng, rules, moves, max_plies)
    game = Game(Position.setup(rng.choice(ALL_SETUPS), rng.choice(ALL_SETUPS)))
    for ply in range(max_plies):
        pos = game.position
        ml = game.legal_moves(rules, paths=False)
        if not ml.moves or ml.wins:
            return None
        if ply >= 4 and ml.mover is pos.turn and win_in(pos, rules, moves) \
                and (moves == 1 or not win_in(pos, rules, moves - 1)):
            return pos
        game = _random_safe_move(rng, game, ml, rules)
    return None


def _random_safe_move(rng: random.Random, game: Game, ml: MoveList, rules: RuleSet) -> Game:
    """The game after a random move of ``ml`` that does not let the opponent land at once
    (any move when every one does), each such move as likely as another.

    The moves are tried in a random order and the first safe one is played: the same
    choice as drawing among all the safe moves, but only the moves tried are made (most
    are safe; making all of them was a quarter of a win-in-3 run)."""
    pos = game.position
    seen = [*game.history, pos]   # what Game.play would record: the Renop law's history
    order = list(ml.moves)
    rng.shuffle(order)
    for m in order:
        if not can_land(apply_move(pos, m), rules, seen):
            return game.play(m)
    return game.play(order[0])


def _walk_back_candidate(rng: random.Random, rules: RuleSet, moves: int,
                         max_plies: int) -> Position | None:
    """A candidate for a win in ``moves`` (N, 3 or more) from the same random play, cheaply.

    A "no" to "win in N?" is the costly answer (every move of the side to move refuted),
    and most plies would give it. So each ply from the fifth on asks only for a win in
    N - 2 (in 2 for N = 3: a win in 1 comes up only where the opponent had no safe move,
    and the walk back from it seldom finds a win in 3). When a side first reaches one at
    ply ``i`` (none at ``i - 2``), the walk goes back to its position at ``i - 2``: it is
    the candidate if one of a few moves (the one the game played there, and those that
    threaten to land) wins within N (every reply of the opponent leaves a win in N - 1)
    and it has no win in N - 1. If it has one (exactly N - 1), the position at ``i - 4``
    (also without a win in N - 2) is asked the same. When two of those moves win (a cook
    of the win in N, which the soundness test would reject), the game goes on instead.
    Either way the candidate wins in exactly N, and no position is asked "win in N?" as a
    whole: the question about one move is answered "no" by one defence that holds, and
    "no win in N - 1?" is asked only of a position with a winning move found. Every
    answer is exact and the line depends only on ``rng``, so the candidate depends only on
    the seed and the index.
    """
    shallow = max(moves - 2, 2)
    # for N = 3, ``shallow`` is N - 1: a position at i - 2 already has no win in N - 1, so
    # the walk returns it once one of its moves wins within N (and never goes to i - 4)
    # one Searcher for every question of the line: its table's entries are keyed by board
    # and relevant history, so its answers are those of fresh searches, and an earlier
    # position's deeper question meets the later positions already proven
    # (df-pn from DFPN_FROM moves, as ``solve``: 28 win-in-4 candidates of seed 42 took
    # 51 s with the kernel, 30 s with df-pn, the same candidates; up to wins in 4 its table
    # has 2 ** 18 entries, 14 MB: with 2 ** 20, 3 wins in 4 spent 2.9 s of 31.7 s mapping
    # pages; a win in 5's long walks need the 2 ** 20: with 2 ** 18, 232 s instead of 206)
    bits = min(table_bits(moves), 18) if moves <= 4 else table_bits(moves)
    searcher: Searcher | DfpnSearcher = (
        DfpnSearcher(rules.flags(), bits) if pick("auto", moves) == "dfpn"
        else Searcher(rules.flags(), bits))
    game = Game(Position.setup(rng.choice(ALL_SETUPS), rng.choice(ALL_SETUPS)))
    line: list[Position | None] = []    # the positions of the plies asked with no win
    for ply in range(max_plies):
        pos = game.position
        ml = game.legal_moves(rules, paths=False)
        if not ml.moves or ml.wins:
            return None
        line.append(None)
        if ply >= 4 and ml.mover is pos.turn:
            if not win_in(pos, rules, shallow, searcher=searcher):
                line[ply] = pos
            elif line[ply - 2] is not None:
                # first reached a win in N - 2: its position two plies earlier, then (when
                # that one wins in N - 1) four
                for j in (ply - 2, ply - 4):
                    earlier = line[j]
                    if earlier is None:
                        break
                    wins = _moves_that_win(earlier, game.history[j + 1], rules, moves,
                                           searcher)
                    if not wins:
                        break
                    if not win_in(earlier, rules, moves - 1, searcher=searcher):
                        if wins > 1:
                            break       # cooked: the game goes on to another candidate
                        return earlier
        game = _random_safe_move(rng, game, ml, rules)
    return None


def _moves_that_win(position: Position, played: Position | bytes, rules: RuleSet,
                    moves: int, searcher: Searcher | DfpnSearcher) -> int:
    """How many of a few moves of the side to move win within ``moves`` of its moves,
    whatever the replies: the move the game played from ``position`` (to ``played``) and
    the moves that threaten to land (:func:`plausible_moves`; below 5 moves only the
    first :data:`WALK_THREATS` of them), counted up to 2. A count
    proves that many winning moves; 0 does not prove there is none (other moves are not
    asked), and 2 proves a cook of a win in exactly ``moves``.

    With df-pn the few moves are asked together, as the position less every other move
    (``win_excluding``), then again less the winner found: df-pn goes for the likeliest
    winner, where asking them in turn disproves every move met before it (a win in 5's
    cook took 80 s that way)."""
    me = position.turn.index
    asked = [played.key if isinstance(played, Position) else bytes(played)]
    threats = plausible_moves(position, rules)
    for m in threats[:WALK_THREATS] if moves < 5 else threats:
        after = apply_move(position, m).key
        if after not in asked:
            asked.append(after)
    found = 0
    if isinstance(searcher, DfpnSearcher):
        children = [bytes(board_after(position.board, m.start, m.end, m.relocation))
                    for m in legal_moves(position, rules).moves]
        won, settled = winners_among(searcher, position.key, me, moves, [], children,
                                     asked, 2)
        if settled:
            return len(won)
        found = len(won)
        asked = [b for b in asked if b not in won]      # not known: the rest in turn
    for after in asked:
        if searcher.win(after, 1 - me, me, moves - 1, [position.key]):
            found += 1
            if found == 2:
                break
    return found


def candidate(index: int, params: Params) -> tuple[str, Position | None, dict[str, Any]]:
    """Candidate ``index`` of a run: (source, position or None, what the source says)."""
    rng = random.Random(candidate_seed(params.seed, index))
    source = params.sources[index % len(params.sources)]
    if source == "play":
        return source, play_candidate(rng, params.rules, params.moves), {}
    pos, design = compose_candidate(rng, params.rules, params.moves, params.themes)
    return source, pos, design


def evaluate(index: int, params: Params) -> dict[str, Any]:
    """Make and judge candidate ``index``: one JSON-ready state record."""
    t0 = time.perf_counter()
    source, pos, design = candidate(index, params)
    record: dict[str, Any] = {"index": index, "source": source, "design": design}
    if pos is None:
        why = "no candidate: the game ended or no exact win came up"
        if "model" in design:
            m = design["model"]
            why = (f"no candidate: {m['proposals']} CP-SAT proposals ({m['engine']} refused "
                   f"by the engine, {m['accept']} not an exact win with one key), "
                   f"{m['infeasible']} of {m['paths']} paths infeasible")
        record.update(position=None, sound=False, reasons=[why], canonical=None)
    else:
        a = assess(pos, params.rules, params.moves, no_duals=params.no_duals,
                   min_tries=params.min_tries)
        record.update(a.to_json())
        if a.sound and params.themes and not theme_matches(params.themes, a.themes):
            record["sound"] = False
            record["reasons"] = [f"themes {', '.join(a.themes)} lack "
                                 f"{', '.join(params.themes)}"]
        record["canonical"] = canonical(pos)
    record["seconds"] = round(time.perf_counter() - t0, 3)
    record["params"] = params.to_json()
    return record


# -- the state file and the catalogue output -----------------------------------------------


_SOUND_KEYS = ("canonical", "position", "key", "main_line", "features", "themes", "duals",
               "source")


def read_state(path: str | Path, params: Params) -> dict[int, dict[str, Any]]:
    """The records of an earlier run (by index); a truncated last line (an interrupted
    write) is dropped. A file made with other parameters is refused."""
    path = Path(path)
    if not path.exists():
        return {}
    out: dict[int, dict[str, Any]] = {}
    wanted = params.to_json()
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except UnicodeDecodeError:
        raise GenerateError(f"{path}: not a state file of 'gyges generate' (not UTF-8 "
                            "text)") from None
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            rec = json.loads(line)
            if not isinstance(rec, dict) or type(rec.get("index")) is not int or (
                    rec.get("sound") and not all(k in rec for k in _SOUND_KEYS)):
                raise ValueError("not a candidate's record")
        except ValueError:   # JSONDecodeError too
            if n == len(lines) and not line.endswith("}"):
                continue     # cut short by an interruption
            raise GenerateError(f"{path}:{n}: not a candidate's record (a JSON object with "
                                "its index): a state file of 'gyges generate'?") from None
        if rec.get("params") != wanted:
            raise GenerateError(
                f"{path}:{n}: made by a run with other parameters ({rec.get('params')}); "
                "rerun with those to resume it, or choose another --out")
        out[rec["index"]] = rec
    return out


def _repair(path: Path) -> None:
    """Cut a half-written last line so appending starts on a fresh line."""
    if path.exists():
        data = path.read_bytes()
        if data and not data.endswith(b"\n"):
            path.write_bytes(data[: data.rfind(b"\n") + 1])


def select(records: dict[int, dict[str, Any]], count: int,
           known: Iterable[str] = frozenset()) -> list[dict[str, Any]]:
    """The first ``count`` sound records by index, each position once up to symmetry and
    none already in ``known``."""
    seen = set(known)
    out = []
    for i in sorted(records):
        rec = records[i]
        if not rec.get("sound"):
            continue
        c = rec["canonical"]
        if c in seen:
            continue
        seen.add(c)
        out.append(rec)
        if len(out) == count:
            break
    return out


def entry_id(params: Params, index: int) -> str:
    return f"gen-w{params.moves}-s{params.seed}-{index:05d}"


def current_themes(rec: dict[str, Any], params: Params) -> list[str]:
    """The record's themes as the catalogue checker sees them now: its main line replayed
    (the engine's representative paths decide ``taboo``), plus ``Renop`` as proven."""
    pos = Position.from_string(rec["position"])
    st = Stipulation("win", params.moves, pos.turn)
    themes = line_themes(play_line(pos, params.rules, rec["main_line"]), params.rules, st)
    if "Renop" in rec["themes"]:
        themes.append("Renop")
    return themes


def entry_text(rec: dict[str, Any], params: Params) -> str:
    """A catalogue entry (YAML text) for a sound record; ValueError if its main line no
    longer replays (a record made by an older engine)."""
    pos = Position.from_string(rec["position"])
    st = Stipulation("win", params.moves, pos.turn)
    rec = {**rec, "themes": current_themes(rec, params)}
    f = rec["features"]
    rated = rating(Features(**f))  # the current formula, also for records of older runs
    # the rating's figures stay in the state file: the book shows what a solver reads
    notes = (st.proof_note("the only key" + (", a quiet one" if f["quiet"] else "")))
    if rec["duals"]:
        n = len(rec["duals"])
        notes += (f" Flaw: duals after {n} defence{'s' if n != 1 else ''}, e.g. "
                  + "; ".join(rec["duals"][:2]) + ".")
    source = "random play from random setups"
    if rec["source"] == "compose":
        d = rec["design"]
        source = (f"CP-SAT construction: a {d['key']} key, then a landing threat with "
                  f"{d['bounces']} bounce{'s' if d['bounces'] != 1 else ''}"
                  f"{' crossing its own path' if d['crossing'] else ''}, "
                  f"{d['defenders']} defender{'s' if d['defenders'] != 1 else ''} on the shore"
                  f"{', boxed in after the key (no move)' if d.get('stalemate') else ''}")
    found = Findings(st, rec["key"], tuple(rec["main_line"]), (), tuple(rec["themes"]))
    return found.entry(
        entry_id(params, rec["index"]), pos, params.rules, difficulty=rated.difficulty,
        title=_title(rec), source=source,
        credit=f"composed by gyges generate, seed {params.seed} (candidate {rec['index']})",
        notes=notes,
    )


_NUMBERS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")


def _title(rec: dict[str, Any]) -> str:
    """A short title from the themes and the key: ``Relocation, four bounces``."""
    themes = rec["themes"]
    chain = max((int(t.split()[-1]) for t in themes if t.startswith("bounce chain")),
                default=0)
    parts = []
    if "stalemate chain" in themes:
        parts.append("stalemate chain")
    if "relocation" in themes:
        parts.append("relocation")
    if "taboo" in themes:
        parts.append("crossing path")
    if "Renop" in themes:
        parts.append("Renop")
    if chain:
        word = _NUMBERS[chain] if chain < len(_NUMBERS) else str(chain)
        parts.append(f"{word} bounce{'s' if chain != 1 else ''}")
    if rec["features"]["quiet"]:
        parts.append("quiet key")
    text = ", ".join(parts) or "direct threat"
    return text[0].upper() + text[1:]


def catalogue_text(runs: Sequence[tuple[Params, Sequence[dict[str, Any]]]],
                   title: str = "") -> str:
    """The catalogue file of the records of one or more runs (each run's sorted by index),
    signed (gyges.output) so that a later run knows whether the user edited it."""
    head = [f"# {params.command(len(records))}" for params, records in runs]
    head += ["# Every entry was proven by the solver; docs/generate.md explains the rating.",
             "schema: 1",
             "title: " + json.dumps(title or "Generated puzzles: " + ", ".join(
                 dict.fromkeys(p.stipulation.command() for p, _ in runs)))]
    entries = []
    for params, records in runs:
        for r in sorted(records, key=lambda r: r["index"]):
            try:
                entries.append(entry_text(r, params))
            except ValueError as e:
                LOG.warning("candidate %d left out: its main line no longer replays: %s",
                            r["index"], e)
    body = "".join(entries)
    head.append("puzzles:" if body else "puzzles: []")
    return signed("\n".join(head) + "\n" + body, "#")


def merged_text(old_text: str, new_text: str, source: str) -> str:
    """The catalogue ``old_text`` (a user's, or one the user edited) kept as it is, with
    the entries of ``new_text`` it lacks (by id and by position) appended: nothing the
    user wrote is lost. CatalogueError when the old file cannot be extended cleanly."""
    old = parse_catalogue(old_text, source)
    new = parse_catalogue(new_text, "<generated>")
    ids = {p.id for p in old.puzzles}
    seen = {canonical(p.position) for p in old.puzzles}
    starts = [i for i, ln in enumerate(new_text.splitlines(keepends=True))
              if ln.startswith("- id:")]
    lines = new_text.splitlines(keepends=True)
    ends = starts[1:] + [next(i for i in range(len(lines) - 1, -1, -1)
                              if not lines[i].startswith("#")) + 1]
    added = []
    for p, a, b in zip(new.puzzles, starts, ends, strict=True):
        if p.id in ids or canonical(p.position) in seen:
            continue
        added.append(p.id)
        indent = old.list_indent if old.puzzles else 0
        entry = "".join(lines[a:b])
        if old.form == "list":  # a bare list: every entry says its schema
            entry = entry.replace("\n  stipulation:", "\n  schema: 1\n  stipulation:", 1)
        added_text = "".join(" " * indent + ln if ln.strip() else ln
                             for ln in entry.splitlines(keepends=True))
        if not old.puzzles and not added[:-1]:
            old_text = re.sub(r"(?m)^puzzles:\s*\[\]\s*$", "puzzles:", old_text, count=1)
        if old_text and not old_text.endswith("\n"):
            old_text += "\n"
        old_text += added_text
    if not added:
        return old_text
    try:
        result = parse_catalogue(old_text, source)
    except CatalogueError as e:
        raise CatalogueError(f"adding the new puzzles would break the file ({e.problem})",
                             source) from None
    if [p.id for p in result.puzzles][len(old.puzzles):] != added:
        raise CatalogueError("the puzzle list is not the last thing in the file, so the new "
                             "puzzles cannot be added to it", source)
    return old_text


def write_catalogue(path: str | Path, runs: Sequence[tuple[Params, Sequence[dict[str, Any]]]],
                    title: str = "", force: bool = False) -> str:
    """Write the catalogue file of the records of one or more runs and return its text.

    The write is atomic. A file the generator wrote (signed, unchanged) is replaced; any
    other catalogue (a user's, an edited one) keeps its text and gains the new entries;
    anything else is refused (GenerateError) unless ``force``.
    """
    path = Path(path)
    text = catalogue_text(runs, title)
    if path.exists() and not force:
        old_text = path.read_text(encoding="utf-8")
        if not is_signed(old_text):
            try:
                text = merged_text(old_text, text, str(path))
            except CatalogueError as e:
                raise GenerateError(f"{e}; it is not a catalogue the new puzzles can be added "
                                    "to: choose another --out, or pass --force to replace "
                                    "it") from None
    write_atomic(path, text)
    return text


def check_outputs(out: Path, state: Path, force: bool = False) -> None:
    """Before a run: refuse the same file for both, and an ``out`` that is neither a
    catalogue of ours nor one the new puzzles can be added to (unless ``force``)."""
    try:
        distinct(("--out", out), ("--state", state))
        check_output(out, force=True)
        check_output(state, force=True, option="--state")
    except OutputError as e:
        raise GenerateError(str(e)) from None
    if out.exists() and not force:
        try:
            old_text = out.read_text(encoding="utf-8")
            if not is_signed(old_text):
                parse_catalogue(old_text, str(out))
        except (OSError, UnicodeDecodeError, CatalogueError) as e:
            raise GenerateError(
                f"{out}: exists and is not a catalogue the new puzzles can be added to "
                f"({e}): choose another --out, or pass --force to replace it") from None


def collect(out: str | Path, runs: Sequence[tuple[Params, str | Path, int]],
            against: Sequence[str | Path] = (), title: str = "", force: bool = False) -> str:
    """One catalogue file from the state files of several runs: each run's first ``count``
    sound puzzles that are new (not in ``against``, nor in an earlier run of the list)."""
    known = set()
    for params, _, _ in runs:
        known |= known_positions(against, params.rules, exclude=out)
    chosen = []
    for params, state, count in runs:
        records = select(read_state(state, params), count, known)
        known |= {r["canonical"] for r in records}
        chosen.append((params, records))
    return write_catalogue(out, chosen, title, force=force)


# -- the run -------------------------------------------------------------------------------


class _Enough(Exception):
    """The puzzles are settled: stop judging (the workers are terminated)."""


def _settled(records: dict[int, dict[str, Any]], count: int, known: Iterable[str]) -> bool:
    """Are the run's puzzles known: ``count`` sound new ones, every lower index judged?"""
    chosen = select(records, count, known)
    return len(chosen) == count and all(i in records for i in range(chosen[-1]["index"]))


def _work(index: int, params: Params) -> dict[str, Any]:
    rec = evaluate(index, params)
    LOG.info("pid %d: candidate %d (%s): %s", os.getpid(), index, rec["source"],
             "sound" if rec["sound"] else "; ".join(rec["reasons"]))
    return rec


def run(params: Params, out: str | Path, count: int, *, jobs: int = 1,
        state: str | Path | None = None, max_candidates: int | None = None,
        against: Sequence[str | Path] = (), progress: TextIO | None = None,
        log: str | None = None, force: bool = False,
        scheduler: str | None = None) -> dict[str, Any]:
    """Generate until ``count`` sound, new puzzles are found (or ``max_candidates`` were
    tried), write them to the catalogue file ``out`` and return a summary.

    Candidates are handed to the workers in index order; each candidate's record goes to the
    ``state`` file (default ``out`` + ``.jsonl``) as it arrives, and a rerun skips the
    indices there. The puzzles kept are the first ``count`` sound ones by index, whatever
    ``jobs`` and however often the run was interrupted. An existing ``out`` that the user
    wrote or edited keeps its text and gains the new puzzles (``force``: replaced). The
    candidates are judged on :func:`gyges.parallel.open_executor` (``scheduler``: the local
    pool, or Dask).
    """
    out = Path(out)
    state = Path(state) if state is not None else out.with_name(out.name + ".jsonl")
    if count < 1:
        raise GenerateError(f"--count {count}: ask for at least 1 puzzle")
    if max_candidates is not None and max_candidates < 1:
        raise GenerateError(f"--max-candidates {max_candidates}: give at least 1")
    max_candidates = max_candidates or 200 * count + 200
    check_outputs(out, state, force)
    records = read_state(state, params)
    known = known_positions(against, params.rules, exclude=out)
    _repair(state)
    state.parent.mkdir(parents=True, exist_ok=True)
    summary: dict[str, Any] = {"candidates": 0, "resumed": len(records), "interrupted": False}
    bar = None
    if progress is not None:
        bar = Progress(count, progress, unit="puzzles", per_minute=True,
                       extra=lambda: f"{summary['candidates']} candidates")
        bar.resume(len(select(records, count, known)))
    t0 = time.perf_counter()
    try:
        with log_to(log, LOG), open_executor(scheduler, jobs) as pool, \
                open(state, "a", encoding="utf-8") as f:
            if not _settled(records, count, known):
                work = functools.partial(_work, params=params)
                todo = [i for i in range(max_candidates) if i not in records]
                # one stream of candidates in index order, no batches: a worker that is
                # done takes the next index at once instead of waiting for the slowest of
                # its batch; once the puzzles are settled the few still being judged are
                # stopped
                for rec in pool.map_unordered(work, todo):
                    f.write(json.dumps(rec, sort_keys=True, separators=(",", ":")) + "\n")
                    f.flush()
                    records[rec["index"]] = rec
                    summary["candidates"] += 1
                    if bar is not None:
                        bar.set(len(select(records, count, known)))
                    if _settled(records, count, known):
                        raise _Enough   # the candidates still out cannot change the puzzles
    except _Enough:
        pass
    except Interrupted:
        summary["interrupted"] = True
        LOG.info("interrupted after %d new candidates", summary["candidates"])
    finally:
        if bar is not None:
            bar.close()
    chosen = select(records, count, known)
    write_catalogue(out, [(params, chosen)], force=force)
    summary.update(found=len(chosen), limit=max_candidates,
                   seconds=round(time.perf_counter() - t0, 2), tried=len(records),
                   sound=sum(1 for r in records.values() if r["sound"]))
    return summary
