"""Play candidates: positions reached by random, engine-guided play from random setups
(docs/generate.md). The first position of a game where the side to move wins in exactly
the wanted number of moves is the candidate; from 3 moves on it is found by walking back
from a side's first shallower win (:func:`play_candidate`).

The walk keeps one search session (:class:`~gyges.search.Prover`) for a whole game line.

>>> import random
>>> from gyges.game.rules import PRESETS
>>> rules = PRESETS["pbmserv"]
>>> pos = play_candidate(random.Random(5), rules, 2)
>>> pos is None or (win_in(pos, rules, 2) and not win_in(pos, rules, 1))
True
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable

from gyges.game.moves import Game, Move, MoveList, apply_move, can_land
from gyges.game.position import ALL_SETUPS, Position
from gyges.game.rules import RuleSet
from gyges.puzzles.generate.soundness import plausible_moves
from gyges.search import Prover, ProverKind, win_in
from gyges.search.policy import table_bits

__all__ = ["PLAY_WAY", "STEP_FROM", "WALK_BACK_FROM", "WALK_THREATS", "Chooser", "candidate_game",
           "play_candidate", "random_chooser", "random_game"]

#: How a game goes on: the game after one move of the given legal moves of its position
#: (a side blocked: the moves of the other side). The walk (:func:`candidate_game`) asks it
#: once a ply; :func:`random_chooser` is random play's, :mod:`gyges.puzzles.generate.games` the
#: engine's.
Chooser = Callable[[Game, MoveList], Game]


#: From this many moves on, play candidates are found by walking back from the first
#: shallower win (:func:`_walk_back_candidate`) instead of asking for the win in N at each ply.
WALK_BACK_FROM = 3

#: How play candidates are made, recorded in the parameters of a run's state records: each
#: change gives other candidates for the same seed, so a state file made another way is
#: refused rather than mixed in. Unmarked: a win in N asked at every ply; ``"walk-back"``:
#: wins in 4 and 5 found by walking back; ``"walk-back 2"``: wins in 3 too, and the random
#: safe move drawn by trying moves in a random order (:func:`random_safe_move`);
#: ``"walk-back 3"``: a walk that finds two winning moves (a cook) goes on playing;
#: ``"walk-back 4"`` (this one): the walk of a win in 3 or 4 asks at most
#: :data:`WALK_THREATS` threats (and the walk of a win in 6, :data:`STEP_FROM`, is
#: the one this way makes).
PLAY_WAY = "walk-back 4"

#: From this many moves on, the walk starts from a win in N - 3 and goes back one move
#: deeper at a time (:func:`_walk_back_candidate`). What it trades: the costly answer is a
#: "no" to "does this move win within N?" (every reply of the opponent to the move must be
#: shown to hold), and a walk that asks N at once meets it wherever random play's
#: opponent blundered into the shallower win, which is most walks: a win in 6 asked that
#: way took 3 to 300 s a line of play and gave no candidate in the first lines of seed 7.
#: Step by step, a blunder is met by a "no" one or two moves deep, and the N-move question
#: is asked only where the line has held to N - 1 (under a second a line; the wins in 3 to
#: 5 keep the walk that asks N at once, cheap enough at those depths).
STEP_FROM = 6

#: From :data:`STEP_FROM` moves on, random play is careful: a move never lets the opponent
#: win within this many moves when another does not (:func:`random_safe_move`). What it
#: trades: each move tried costs a small proof, and the games run longer; but a walk back
#: goes deeper only where the opponent's replies kept the win as long as it was, and a
#: careless opponent seldom does: 3 walks of the first 10 lines of seed 7 reached the
#: six-move question with it, 7 of 300 lines without.
CAREFUL_MOVES = 2

#: For wins in 3, 4 and 6, the walk asks the move the game played and at most this many of
#: the moves that threaten to land (the first in move order) whether they win. What it
#: trades: every move asked whose answer is "no" costs a proof, and most answers are "no",
#: so fewer asked make a walk cheaper; but a winning move not asked is a candidate missed,
#: so too few leave a run short of candidates (3 is too few for some seeds). Wins in 5 ask
#: every threat: their candidates are rare, and a walk that misses one costs minutes. A
#: win in 6's walk asks the cap again: a 6-move "no" of every threat took up to minutes.
#: ``python -m bench.bench_generate --walk`` measures both sides (the walks' time and the
#: candidates found) for 3, 6 and every threat.
WALK_THREATS = 6


def play_candidate(rng: random.Random, rules: RuleSet, moves: int, max_plies: int = 40,
                   *, threats_asked: int = WALK_THREATS) -> Position | None:
    """Engine-guided random play from random setups: never a move that lets the opponent
    land at once (when there is another). The candidate is the one :func:`candidate_game`
    finds in that game (asking at most ``threats_asked`` threats, except for a win in 5:
    :data:`WALK_THREATS`)."""
    game = random_game(rng)
    found = candidate_game(game, rules, moves, random_chooser(rng, rules, moves),
                           max_plies, threats_asked=threats_asked)
    return None if found is None else found.position


def random_game(rng: random.Random) -> Game:
    """A game at a random setup pair (South's setup drawn first), no move played yet."""
    return Game(Position.setup(rng.choice(ALL_SETUPS), rng.choice(ALL_SETUPS)))


def random_chooser(rng: random.Random, rules: RuleSet, moves: int) -> Chooser:
    """Random play's moves for the walk of a win in ``moves``: a random move that does not
    let the opponent land at once; from :data:`STEP_FROM` moves on, careful ones
    (:data:`CAREFUL_MOVES`)."""
    careful = Prover(rules, ProverKind.ALPHABETA, CAREFUL_MOVES,
                     table_bits=table_bits(CAREFUL_MOVES)) if moves >= STEP_FROM else None
    return functools.partial(random_safe_move, rng, rules=rules, careful=careful)


def candidate_game(start: Game, rules: RuleSet, moves: int, choose: Chooser,
                   max_plies: int = 40, *, threats_asked: int = WALK_THREATS) -> Game | None:
    """The candidate for a win in ``moves`` that a game from ``start`` meets, its moves
    chosen by ``choose``, as a game: the candidate position with the positions before it
    (from ``start``'s). For a win in 1 or 2, the first position from the fifth ply on
    where the side to move wins in exactly ``moves`` (and cannot land at once); deeper,
    the first one :func:`_walk_back_candidate` finds (asking at most ``threats_asked``
    threats, except for a win in 5: :data:`WALK_THREATS`). None when the game ends (a
    landing, or no move) or reaches ``max_plies`` first."""
    if moves >= WALK_BACK_FROM:
        return _walk_back_candidate(start, rules, moves, choose, max_plies, threats_asked)
    game = start
    for ply in range(max_plies):
        pos = game.position
        ml = game.legal_moves(rules, paths=False)
        if not ml.moves or ml.wins:
            return None
        if ply >= 4 and ml.mover is pos.turn and win_in(pos, rules, moves) \
                and (moves == 1 or not win_in(pos, rules, moves - 1)):
            return game
        game = choose(game, ml)
    return None


def random_safe_move(rng: random.Random, game: Game, ml: MoveList, rules: RuleSet,
                     careful: Prover | None = None) -> Game:
    """The game after a random move of ``ml`` that does not let the opponent land at once
    (any move when every one does), each such move as likely as another. With a
    ``careful`` prover, a move that does not let the opponent win within
    :data:`CAREFUL_MOVES` either, when there is one.

    The moves are tried in a random order and the first safe one is played: the same
    choice as drawing among all the safe moves, but only the moves tried are made (most
    are safe; making all of them was a quarter of a win-in-3 run)."""
    pos = game.position
    seen = [*game.history, pos]   # what Game.play would record: the Renop law's history
    order = list(ml.moves)
    rng.shuffle(order)
    first_safe = None
    for m in order:
        after = apply_move(pos, m)
        if can_land(after, rules, seen):
            continue
        if careful is None or not careful.wins(after, pos.turn.other, CAREFUL_MOVES, seen):
            return game.play(m)
        if first_safe is None:
            first_safe = m
    return game.play(order[0] if first_safe is None else first_safe)


def _walk_back_candidate(start: Game, rules: RuleSet, moves: int, choose: Chooser,
                         max_plies: int, threats_asked: int = WALK_THREATS) -> Game | None:
    """A candidate for a win in ``moves`` (N, 3 or more) in the game from ``start`` that
    ``choose`` plays, cheaply (as a game: the candidate and the positions before it).

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
    From :data:`STEP_FROM` moves on (a win in 6), each ply asks for a win in N - 3, and the
    walk goes back one move deeper at a time: at ``i - 2`` a few moves are asked whether
    they win within N - 2, at ``i - 4`` within N - 1, at ``i - 6`` within N (then, as
    above, it is the candidate when it has no win in N - 1, and when it has one the
    position at ``i - 8`` is asked the same). A "no" at any step ends the walk.
    Either way the candidate wins in exactly N, and no position is asked "win in N?" as a
    whole: the question about one move is answered "no" by one defence that holds, and
    "no win in N - 1?" is asked only of a position with a winning move found. Every
    answer is exact and the line depends only on ``start`` and ``choose``: a seeded
    chooser's candidate depends only on the seed and the index.
    """
    stepwise = moves >= STEP_FROM
    shallow = moves - 3 if stepwise else max(moves - 2, 2)
    levels = moves - shallow + stepwise     # how far back the walk goes, in moves
    cap = None if moves == 5 else threats_asked
    # for N = 3, ``shallow`` is N - 1: a position at i - 2 already has no win in N - 1, so
    # the walk returns it once one of its moves wins within N (and never goes to i - 4)
    # one search session for every question of the line: its table's entries are keyed by board
    # and relevant history, so its answers are those of fresh searches, and an earlier
    # position's deeper question meets the later positions already proven. The prover is
    # the one ``solve`` picks for the bound (df-pn from DFPN_FROM moves). Its table trades
    # the time to map its pages, paid by every walk, against collisions: up to wins in 4
    # at most 2 ** 18 entries (14 MB) are enough; a win in 5's long walks fill that and
    # want the size ``solve`` gives (``python -m bench.bench_generate --deep`` runs both)
    bits = min(table_bits(moves), 18) if moves <= 4 else table_bits(moves)
    prover = Prover(rules, ProverKind.AUTO, moves, table_bits=bits)
    game = start
    line: list[Position | None] = []    # the positions of the plies asked with no win
    for ply in range(max_plies):
        pos = game.position
        ml = game.legal_moves(rules, paths=False)
        if not ml.moves or ml.wins:
            return None
        line.append(None)
        if ply >= 4 and ml.mover is pos.turn:
            if not prover.wins(pos, pos.turn, shallow):
                line[ply] = pos
            elif line[ply - 2] is not None:
                # first reached its shallower win: its positions two plies earlier, then
                # four (when that one wins in N - 1, or step by step for a win in 6), ...
                bound = shallow     # the earlier position has no win within this
                for j in range(ply - 2, max(ply - 2 * levels, 0) - 1, -2):
                    earlier = line[j]
                    if earlier is None:
                        break
                    played = game.history[j + 1]    # a Position: the walk's game made it
                    assert isinstance(played, Position)
                    within = min(bound + 1, moves) if stepwise else moves
                    wins = _moves_that_win(earlier, played, prover, within, cap)
                    if not wins:
                        break
                    if within < moves:
                        bound = within      # it wins within that many (and no fewer
                        continue            # than the walk has seen): one step back
                    if not prover.wins(earlier, earlier.turn, moves - 1):
                        if wins > 1:
                            break       # cooked: the game goes on to another candidate
                        return Game(earlier, game.history[:j])
        game = choose(game, ml)
    return None


def _moves_that_win(position: Position, played: Position, prover: Prover, moves: int,
                    threats_asked: int | None = WALK_THREATS) -> int:
    """How many of a few moves of the side to move win within ``moves`` of its moves,
    whatever the replies: the move the game played from ``position`` (to ``played``) and
    the moves that threaten to land (:func:`plausible_moves`: the first ``threats_asked``
    of them, every one for None), counted up to 2. A count
    proves that many winning moves; 0 does not prove there is none (other moves are not
    asked), and 2 proves a cook of a win in exactly ``moves``.

    With df-pn the few moves are asked together, as the position less every other move
    (:meth:`~gyges.search.Prover.winners_among`): df-pn goes for the likeliest winner,
    where asking them in turn disproves every move met before it (a win in 5's cook took
    80 s that way)."""
    threats = plausible_moves(position, prover.rules)
    asked: list[Move | Position] = [played, *threats[:threats_asked]]
    return len(prover.winners_among(position, moves, asked, limit=2))
