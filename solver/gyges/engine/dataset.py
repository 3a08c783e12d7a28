"""Self-play games for training an evaluation: :func:`play_dataset`.

Each game is the builtin engine against itself from a random pair of setups, under the
pbmserv rules (even game numbers) or Helios's (odd), its first ``random_plies`` moves
drawn at random (none that lets the opponent land at once, as
:class:`~gyges.engine.players.RandomStart` draws them), the rest searched to a fixed node
count, so that a game depends only on its number, the settings and the engine. A record
keeps the game (setups, moves, result) and the score the search gave each of its moves,
from the mover's side (:meth:`~gyges.engine.score.Score.to_int`; ``null`` for a random
move): every position of a game is labelled by the game's result and by a search's score.
Games of a learned evaluation (``DataSettings.network``) also record the scale its win
probability is printed on (``calibration``; :mod:`gyges.engine.calibration` measures it).

The records go to a results file, one game a line, through one resumable run of
:mod:`gyges.parallel` (Ctrl-C keeps every game written; the same command resumes; a file
of other settings or of another engine, :mod:`gyges.engine.identity`, is refused).

>>> s = DataSettings(nodes=200, random_plies=4, max_plies=60)
>>> r = dataset_game(3, s)
>>> r["rules"], len(r["scores"]) == len(r["moves"]), r["scores"][:4]
('helios', True, [None, None, None, None])
>>> dataset_game(3, s) == r          # the same game every time
True
"""

from __future__ import annotations

import dataclasses
import functools
import random
from collections.abc import Callable, Mapping
from typing import Any, TextIO

from gyges.engine.builtin import Engine, Limit, Options
from gyges.engine.identity import EngineIdentity, code_digest, engine_identity, weights_digest
from gyges.engine.network import Network, evaluation_network
from gyges.engine.players import RandomStart
from gyges.engine.refereed import PlayedGame, play_game
from gyges.engine.scored import ScoredPlayer
from gyges.game.position import ALL_SETUPS
from gyges.game.rules import PRESETS, RuleSet
from gyges.parallel import ResultsFile, RunEvent, RunSummary, run_tasks

__all__ = ["DATASET_FORMAT", "DATASET_RULES", "DataSettings", "dataset_file", "dataset_game",
           "describe_run", "play_dataset", "run_params"]

DATASET_FORMAT = 1  #: version of the record layout
#: The rule sets the games alternate between (game number even: the first).
DATASET_RULES = ("pbmserv", "helios")
_HASH_BITS = 18


@dataclasses.dataclass(frozen=True)
class DataSettings:
    """How the games are played: ``nodes`` a move, after ``random_plies`` random moves,
    with the proof horizon ``prove``, drawn after ``max_plies``; ``seed`` draws the
    setups and the random moves; ``network``: the file of a learned evaluation the
    engine plays with (None: the linear evaluation; recorded only when given)."""

    nodes: int = 1000
    random_plies: int = 6
    prove: int = 2
    max_plies: int = 200
    seed: int = 1
    network: str | None = None

    def to_json(self) -> dict[str, Any]:
        out = dataclasses.asdict(self)
        if self.network is None:
            del out["network"]
        return out

    def loaded_network(self) -> Network | None:
        """The evaluation ``network`` names (:func:`~gyges.engine.network.evaluation_network`:
        None the default one, ``linear`` the linear one), read once a process."""
        return evaluation_network(self.network)


def dataset_game(number: int, settings: DataSettings,
                 made_by: EngineIdentity | None = None) -> dict[str, Any]:
    """Game ``number``'s record. ``made_by``: the engine the run asked for (recorded); a
    process whose engine is another refuses to play (ValueError)."""
    net = settings.loaded_network()
    here = EngineIdentity(code_digest(), weights_digest(network=net))
    if made_by is not None and made_by != here:
        raise ValueError(f"this worker's engine is not the run's: {here}, not {made_by}")
    rng = random.Random((settings.seed << 32) + number)
    name = DATASET_RULES[number % len(DATASET_RULES)]
    rules: RuleSet = PRESETS[name]
    opening = (rng.choice(ALL_SETUPS), rng.choice(ALL_SETUPS))
    options = Options(prove=settings.prove, hash_bits=_HASH_BITS, network=net)
    engine = Engine(rules, options)
    scores: list[int | None] = []
    player = ScoredPlayer(RandomStart(engine, rules, settings.random_plies,
                                      random.Random(rng.randrange(1 << 30))), scores)
    try:
        game: PlayedGame = play_game(player, player, opening, rules,
                                     Limit(nodes=settings.nodes), settings.max_plies,
                                     names=(name, name))
    finally:
        player.close()
    return {"game": number, "rules": name, "opening": list(opening),
            "moves": list(game.moves), "scores": scores[:len(game.moves)],
            "result": game.result, "reason": game.reason, "format": DATASET_FORMAT,
            "settings": settings.to_json(), "engine": (made_by or here).to_json(),
            **({} if net is None else {"calibration": options.calibration})}


def run_params(record: Mapping[str, Any]) -> dict[str, Any]:
    """The parameters of a record of a versioned run (this module's, or the labels' of
    :mod:`gyges.engine.labels`): its record ``format``, ``settings`` and ``engine``."""
    if not isinstance(record["settings"], dict):
        raise ValueError("settings is an object")
    return {"format": record["format"], "settings": record["settings"],
            "engine": EngineIdentity.from_json(record["engine"])}


def _check(record: Mapping[str, Any]) -> Mapping[str, Any]:
    if type(record["game"]) is not int or not isinstance(record["moves"], list) or \
            not isinstance(record["scores"], list) or \
            len(record["scores"]) != len(record["moves"]):
        raise ValueError("a game is a number, its moves and a score for each")
    return record


def describe_run(p: Mapping[str, Any]) -> str:
    """Such parameters in words, for a message that a file was made otherwise."""
    words = []
    if "settings" in p:
        words.append(", ".join(f"{k} {v}" for k, v in p["settings"].items()))
    if "format" in p:
        words.append(f"record format {p['format']}")
    if "engine" in p:
        words.append(str(p["engine"]))
    if "weights" in p:
        words.append(f"the evaluation {p['weights']}")
    return "; ".join(words)


def dataset_file(path: str, settings: DataSettings | None = None,
                 engine: EngineIdentity | None = None) -> ResultsFile:
    """The results file of a dataset run: one game a line, keyed by its number; with
    ``settings`` (and ``engine``) a record made otherwise is refused."""
    wanted = None if settings is None else {
        "format": DATASET_FORMAT, "settings": settings.to_json(),
        "engine": engine or engine_identity()}
    return ResultsFile(path, "a dataset game record", key=lambda r: r["game"], check=_check,
                       params=wanted, params_of=run_params, describe=describe_run,
                       differences=True)


def _log_text(record: Mapping[str, Any]) -> str:
    return (f"game {record['game']} ({record['rules']}): {record['result']} in "
            f"{len(record['moves'])} plies")


def play_dataset(out: str, games: int, settings: DataSettings = DataSettings(), *,
                 first: int = 0, scheduler: str | None = None, jobs: int | None = None,
                 progress: TextIO | None = None, log: str | None = None,
                 watch: Callable[[RunEvent], None] | None = None) -> RunSummary:
    """Play games ``first`` to ``games - 1`` (:func:`dataset_game`) into the results
    file ``out``, those already there skipped (see the module's documentation): a later
    file of the same run goes on from the number an earlier one stopped at."""
    if not 0 <= first < games:
        raise ValueError(f"games {first} to {games - 1}: give a first game of 0 up to "
                         f"{games - 1}, below the number of games")
    identity = engine_identity(network=settings.loaded_network())
    task = functools.partial(dataset_game, settings=settings, made_by=identity)
    return run_tasks(task, range(first, games), key=lambda n: n,
                     results=dataset_file(out, settings, identity), scheduler=scheduler,
                     jobs=jobs, progress=progress, unit="games", watch=watch, log=log,
                     describe=_log_text)
