"""Games candidates: positions of the builtin engine's self-play games (docs/generate.md).

From a random setup pair (drawn from the candidate's seed, as random play draws it), the
builtin engine (:mod:`gyges.engine`) plays both sides at :data:`ENGINE_NODES` nodes a
move; the candidate is the one the play source's walk finds in that game
(:func:`~gyges.puzzles.generate.play.candidate_game`, the engine as its move chooser). So the
puzzles arise where play goes, and each keeps the game that led to it: the candidate is a
:class:`~gyges.game.moves.Game`, its history the setup and every position after a move.
A node limit makes the engine deterministic: the same seed and index give the same game.

>>> import random
>>> from gyges.game.rules import PRESETS
>>> found = games_candidate(random.Random(3), PRESETS["pbmserv"], 2)
>>> str(found.history[0])      # the game's setup pair, then every position after a move
'321231/....../....../....../....../211233 S'
>>> print(games_source([Position.setup("231123", "321123")] * 9))
engine self-play (the builtin engine at 1000 nodes a move), 9 moves from the setups 231123 \
(South) and 321123 (North)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from gyges.engine import Engine, Limit, Options
from gyges.formats.notation import format_turn
from gyges.game.moves import Game, MoveList
from gyges.game.position import Position
from gyges.game.rules import RuleSet
from gyges.puzzles.catalogue.checking import check_puzzle
from gyges.puzzles.catalogue.schema import Puzzle
from gyges.puzzles.generate.play import Chooser, candidate_game, random_game
from gyges.puzzles.generate.soundness import SoundnessAssessment
from gyges.puzzles.lines import principal_line
from gyges.search.stipulation import ResultKind, Stipulation

__all__ = ["ENGINE_HASH_BITS", "ENGINE_NODES", "ENGINE_PROVE", "GAMES_TEXT", "GAMES_WAY",
           "engine_chooser", "games_candidate", "games_design", "games_source",
           "history_problems"]

#: The engine's nodes a move. What it trades: a stronger engine plays more like a player
#: and longer games, in which a side more often comes to a win the walk finds; but every
#: move costs its nodes. Wins in 3, seed 7, the first 60 games (with :data:`ENGINE_PROVE`):
#: 36 candidates and 13 sound puzzles at 200 nodes (0.84 s a sound puzzle), 38 and 15 at
#: 1,000 (1.22 s), 40 and 15 at 3,000 (1.97 s); random play makes one in about 0.5 s.
#: 1,000 gives 3,000's yield at 60% of its cost. No move is drawn at random: a quarter of
#: the moves random halved the candidates (14 of 60 games against 29), as random moves
#: end games sooner.
ENGINE_NODES = 1000

#: The engine's proof horizon (moves of the winner): it plays a proven win within it and
#: avoids a move into a proven loss within it when another move does. What it trades:
#: each proof costs a little time (asked to its end under a node limit); a side that sees
#: short losses seldom blunders into one, so the games are longer and give more
#: candidates (wins in 3 at 1,000 nodes, 60 games: 38 candidates with 2, 29 with none);
#: but a horizon of 3 sees the very wins in 3 the walk looks for and avoids them (6
#: candidates, 13.7 s a sound puzzle). Wins in 2 (10 sound of 40 games with 0 or 1, 7 with
#: 2) and in 4 (2 of 20 either way) care little.
ENGINE_PROVE = 2

#: The engine's table: 2 ** 16 entries (1 MB). What it trades: a fresh engine each game
#: (the game depends only on its seed) pays for clearing its table, and at
#: :data:`ENGINE_NODES` nodes a move a game fills far less than the default 2 ** 20.
ENGINE_HASH_BITS = 16

#: How games candidates are made, recorded in a run's parameters (a state file of another
#: way is not resumed): the engine's settings.
GAMES_WAY = f"builtin nodes={ENGINE_NODES} prove={ENGINE_PROVE}"

#: How the ``source`` of a games puzzle begins (:func:`games_source`).
GAMES_TEXT = "engine self-play"


def engine_chooser(rules: RuleSet, nodes: int = ENGINE_NODES) -> Chooser:
    """The builtin engine's move for the side that moves, at ``nodes`` nodes a move, one
    engine for the whole game (its table kept from move to move, as in a match)."""
    # the linear evaluation, which played the catalogue's games puzzles: a new default
    # evaluation leaves the games this makes as they were
    engine = Engine(rules, Options(prove=ENGINE_PROVE, hash_bits=ENGINE_HASH_BITS,
                                   network=None))
    limit = Limit(nodes=nodes)

    def choose(game: Game, ml: MoveList) -> Game:
        history = [h for h in game.history if isinstance(h, Position)]
        move = engine.play(game.position, limit, history).move
        return game.play(ml.moves[0] if move is None else move)

    return choose


def games_candidate(rng: random.Random, rules: RuleSet, moves: int) -> Game | None:
    """The candidate for a win in ``moves`` in the engine's self-play game from a random
    setup pair drawn from ``rng``, with the game before it; None when the game ends first."""
    return candidate_game(random_game(rng), rules, moves, engine_chooser(rules))


def games_design(found: Game) -> dict[str, Any]:
    """What a state record keeps of a games candidate: the engine's settings and the game
    before the candidate (``history``, position strings, the setup pair first)."""
    return {"engine": GAMES_WAY,
            "history": [str(h) for h in found.history if isinstance(h, Position)]}


def games_source(history: Sequence[Position], nodes: int = ENGINE_NODES) -> str:
    """The ``source`` of a games puzzle whose game is ``history`` (its setup pair first)."""
    rows = history[0].board_string().split("/")
    return (f"{GAMES_TEXT} (the builtin engine at {nodes} nodes a move), "
            f"{len(history)} moves from the setups {rows[-1]} (South) and {rows[0]} (North)")


def history_problems(judged: SoundnessAssessment, rules: RuleSet, moves: int,
                     history: Sequence[Position]) -> list[str]:
    """What ``catalogue check`` would find wrong in the entry of a sound candidate
    (``judged`` with its game's ``history``): its stipulation, key, main line (the longest
    defence) or their legality as the check sees them, with the game's positions forbidden
    by the Renop law. Empty when the check agrees (always without the Renop law)."""
    if rules.repetition != "forbidden" or not history:
        return []
    pos = judged.position
    puzzle = Puzzle("candidate", pos, rules, Stipulation("win", moves, pos.turn),
                    history=tuple(history), key=judged.key, main_line=judged.main_line,
                    themes=judged.themes)
    found = [e.problem for e in check_puzzle(puzzle)]
    if not found:
        line = [format_turn(t) for t in principal_line(pos, rules, ResultKind.WIN, moves,
                                                        history)]
        if line[1:] != list(judged.main_line)[1:]:
            found.append(f"the main line is {' / '.join(line)} with the game's history")
    return found
