"""Self-play games from setup pairs: the games that rank the setups.

Each game is the builtin engine (:mod:`gyges.engine`) against itself from one setup pair,
South moving first, refereed by the rules engine (:func:`gyges.engine.play_game`); the run
is one resumable run of :mod:`gyges.parallel` (one task per game, each record appended
to the games file as it arrives, a rerun skipping the games already there).

**Which games.** The pairs asked for are put in a fixed seeded order (sorted, then
shuffled with :data:`gyges.engine.openings.SEED`: for every canonical pair this is
``openings("canonical")``); game ``i`` plays pair ``i mod P`` of that order, in round
``i div P`` (:func:`schedule`). The engine is deterministic at a fixed depth or node
count, so a pair's game is always the same one: the first round is the engine's own play
from the setups, and each further round opens with one random move of each side (drawn
from a generator seeded by the game's number, among the moves that do not let the
opponent land at once), the engine playing the rest, so that a pair's later games are
other games.

**The mirror.** The rules are the same mirrored left to right, so with ``canonical`` the
run plays only the canonical pair standing for each pair asked for (4,068 stand for all
8,100), and the fit (:mod:`gyges.setups.selfplay.strengths`) counts each setup together with its
mirror image: one strength for ``231123`` and ``321132``.

>>> [(g.game, g.south, g.north, g.round) for g in schedule([("231123", "321123"),
...                                                         ("112233", "332211")], 3)]
[(0, '112233', '332211', 0), (1, '231123', '321123', 0), (2, '112233', '332211', 1)]
"""

from __future__ import annotations

import dataclasses
import functools
import logging
import random
from collections.abc import Callable, Iterable, Mapping
from typing import Any, TextIO

from gyges.engine import MAX_PROVE_DEPTH, Engine, Limit, Options, RandomStart, play_game
from gyges.engine.builtin import limit_from_json
from gyges.engine.identity import (
    UNRECORDED,
    EngineIdentity,
    code_digest,
    engine_identity,
    weights_digest,
)
from gyges.engine.network import evaluation_network
from gyges.engine.openings import SEED
from gyges.engine.refereed import SELF_PLAY_ENGINE, PlayedGame
from gyges.game.rules import RuleSet
from gyges.parallel import ResultsFile, RunEvent, RunSummary, first_record, run_tasks
from gyges.setups.pairs import SetupError, canonical_pairs

__all__ = [
    "DEFAULT_SELFPLAY_LIMIT", "GAMES_FORMAT", "OPENING_PLIES", "SELFPLAY_HASH_BITS",
    "ScheduledGame", "describe_limit", "games_file", "is_games_file", "play_task", "rank_params",
    "read_selfplay_games", "run_games", "schedule",
]

_LOG = logging.getLogger("gyges.setups")

GAMES_FORMAT = 1  #: version of the games file's record layout
#: Random moves that open a game after the first round: one of each side. One move a side
#: is enough to make a pair's later games other games, and little enough that the setups
#: still decide the position the engine takes over.
OPENING_PLIES = 2
#: The engine's transposition table, 2 ** SELFPLAY_HASH_BITS entries of 16 bytes (4 MiB): a move
#: at a few thousand nodes uses a small part of it, and a fresh table per game (for
#: games that do not depend on the game before) costs little to clear.
SELFPLAY_HASH_BITS = 18
#: A move's search when none is given: 1,000 nodes (deterministic).
DEFAULT_SELFPLAY_LIMIT = Limit(nodes=1000)

_PARAMS = ("canonical", "format", "limit", "max_plies", "prove", "rules")


@dataclasses.dataclass(frozen=True)
class ScheduledGame:
    """Game number ``game`` of a run: its pair and its round (0: the engine's own play
    from the setups; later rounds open with random moves)."""

    game: int
    south: str
    north: str
    round: int


def schedule(pairs: Iterable[tuple[str, str]], games: int, seed: int = SEED
             ) -> list[ScheduledGame]:
    """The first ``games`` games over ``pairs`` (each once, in a seeded order), round
    after round."""
    order = sorted(set(pairs))
    if not order:
        raise SetupError("no setup pairs to play")
    random.Random(seed).shuffle(order)
    return [ScheduledGame(i, *order[i % len(order)], i // len(order)) for i in range(games)]


def describe_limit(limit: Mapping[str, Any]) -> str:
    """``1,000 nodes a move``, ``depth 3 a move``, ``0.5 s a move``.

    >>> describe_limit({"nodes": 1000}), describe_limit({"depth": 3, "time": 0.5})
    ('1,000 nodes a move', 'depth 3, 0.5 s a move')
    """
    words = [f"{limit['nodes']:,} nodes" if k == "nodes" else
             f"depth {limit['depth']}" if k == "depth" else f"{limit['time']:g} s"
             for k in ("nodes", "depth", "time") if limit.get(k) is not None]
    return ", ".join(words) + " a move"


def rank_params(rules: RuleSet, limit: Limit, prove: int, max_plies: int,
                canonical: bool = False, engine: EngineIdentity | None = None
                ) -> dict[str, Any]:
    """The parameters stored in every game record: a resumed run must match them.
    ``engine``: the engine that plays (default: this process's with its own evaluation,
    :func:`~gyges.engine.identity.engine_identity`)."""
    given = {k: getattr(limit, k) for k in ("time", "depth", "nodes")
             if getattr(limit, k) is not None}
    return {"canonical": canonical, "engine": engine or engine_identity(),
            "format": GAMES_FORMAT, "limit": given, "max_plies": max_plies, "prove": prove,
            "rules": rules.describe()}


def _params_of(record: Mapping[str, Any]) -> dict[str, Any]:
    """A record's run parameters (ValueError if they are not of a games file)."""
    params = {k: record[k] for k in _PARAMS}
    if not isinstance(params["canonical"], bool) or not isinstance(params["limit"], dict):
        raise ValueError("canonical is true or false, limit an object")
    params["engine"] = (EngineIdentity.from_json(record["engine"]) if "engine" in record
                        else UNRECORDED)
    return params


def describe_params(p: Mapping[str, Any]) -> str:
    """Parameters in words, those given: ``1,000 nodes a move, prove 2, 200 plies at most,
    canonical pairs, rules ..., engine ...``.

    >>> describe_params({"prove": 2, "canonical": False})
    'prove 2, pairs as asked'
    """
    words: dict[str, Callable[[Any], str]] = {
             "limit": lambda v: describe_limit(v), "prove": lambda v: f"prove {v}",
             "max_plies": lambda v: f"{v} plies at most",
             "canonical": lambda v: "canonical pairs" if v else "pairs as asked",
             "rules": lambda v: f"rules {v}", "format": lambda v: f"record format {v}",
             "engine": str}
    return ", ".join(say(p[k]) for k, say in words.items() if k in p)


def _game_key(record: Mapping[str, Any]) -> tuple[int, str, str]:
    if type(record["round"]) is not int:
        raise ValueError("not a self-play game (it has no round)")
    return record["game"], record["south"], record["north"]


def games_file(path: str, wanted: Mapping[str, Any] | None = None) -> ResultsFile:
    """The games file of a run: records keyed by ``(game, south, north)``, each a
    :class:`~gyges.engine.refereed.PlayedGame` (its line's value) with the run's
    parameters; with ``wanted`` (:func:`rank_params`) a record made with other
    parameters is refused, without it every record must have those of the first."""
    return ResultsFile(path, "a self-play game record", key=_game_key,
                       check=PlayedGame.from_json,
                       params=None if wanted is None else dict(wanted),
                       params_of=_params_of, describe=describe_params, differences=True)


def is_games_file(path: str) -> bool:
    """Does the file at ``path`` begin with a self-play game record (rather than, say, a
    setup analysis record, a match's game or a training game)? Only the first line is read:
    :func:`read_selfplay_games` checks them all."""
    record = first_record(path)
    return record is not None and all(k in record for k in ("game", "moves", "round"))


def read_selfplay_games(path: str, repair: bool = False
                        ) -> tuple[dict[str, Any] | None, list[dict]]:
    """The parameters and game records of a games file (none when it does not exist),
    sorted by game number. A last line cut short is dropped; any other bad line is a
    :class:`gyges.parallel.ResultsFileError` naming the file and the line."""
    found = games_file(path).read(repair)
    return found.params, sorted(found.by_key().values(), key=_game_key)


# -- one game ----------------------------------------------------------------------------


def play_task(item: ScheduledGame, *, rules: RuleSet, limit: Mapping[str, Any], prove: int,
              max_plies: int, canonical: bool = False,
              made_by: EngineIdentity | None = None,
              network: str | None = None) -> dict[str, Any]:
    """One game's record, with the run's parameters (:func:`rank_params`). ``made_by``:
    the engine the run asked for (its version, commit and command are recorded); a
    process whose engine is another (a cluster's worker with other code) refuses to play
    (:class:`~gyges.setups.pairs.SetupError`). ``network``: the file of a learned
    evaluation to play with (None: the default evaluation;
    :data:`~gyges.engine.network.LINEAR`: the linear one; the record names it by the
    engine's evaluation digest)."""
    net = evaluation_network(network)
    here = EngineIdentity(code_digest(), weights_digest(network=net))
    if made_by is not None and made_by != here:
        raise SetupError(f"this worker's engine is not the run's: {here}, not {made_by}")
    made = made_by or here
    engine = Engine(rules, Options(prove=prove, hash_bits=SELFPLAY_HASH_BITS, network=net))
    plies = OPENING_PLIES if item.round else 0
    player = RandomStart(engine, rules, plies, random.Random((SEED << 32) + item.game))
    try:
        game = play_game(player, player, (item.south, item.north), rules, limit_from_json(limit),
                         max_plies, names=(SELF_PLAY_ENGINE, SELF_PLAY_ENGINE))
    finally:
        player.close()
    game = dataclasses.replace(game, number=item.game, round=item.round)
    return {**game.to_json(), "canonical": canonical, "engine": made.to_json(),
            "format": GAMES_FORMAT, "limit": dict(limit), "max_plies": max_plies,
            "prove": prove, "rules": rules.describe()}


# -- the run -------------------------------------------------------------------------------


def _log_text(record: Mapping[str, Any]) -> str:
    return (f"game {record['game']} {record['south']} {record['north']}: {record['result']} "
            f"in {len(record['moves'])} plies")


def run_games(
    pairs: Iterable[tuple[str, str]],
    rules: RuleSet,
    out: str,
    *,
    games: int | None = None,
    limit: Limit | None = None,
    prove: int = 2,
    max_plies: int = 200,
    canonical: bool = False,
    scheduler: str | None = None,
    jobs: int | None = None,
    progress: TextIO | None = None,
    log: str | None = None,
    watch: Callable[[RunEvent], None] | None = None,
    network: str | None = None,
) -> RunSummary:
    """Play the first ``games`` games (default: one round, each pair once) of
    :func:`schedule` over ``pairs`` into the games file ``out`` (appending; games already
    there are skipped), each side moving within ``limit`` (default 1,000 nodes a move)
    with the proof horizon ``prove``, a game drawn after ``max_plies`` moves.

    ``canonical`` plays the canonical pair standing for each pair asked for instead
    (:func:`~gyges.setups.pairs.canonical_pairs`) and marks the records so. The run is
    :func:`gyges.parallel.run_tasks` (``scheduler``, ``jobs``, ``progress``, ``log``,
    ``watch`` as there): a file made with other parameters is refused before any game,
    Ctrl-C or SIGTERM stops the run keeping every line written. ``network``: the file of
    a learned evaluation both sides play with (None: the default evaluation;
    :data:`~gyges.engine.network.LINEAR`: the linear one), named in the
    records by the engine's evaluation digest (a file of another evaluation is refused).
    """
    limit = limit or DEFAULT_SELFPLAY_LIMIT
    if not 0 <= prove <= MAX_PROVE_DEPTH:
        raise SetupError(f"prove {prove}: give 0 (no prover) to {MAX_PROVE_DEPTH}")
    if max_plies < 1:
        raise SetupError(f"max plies {max_plies}: give at least 1")
    asked = canonical_pairs(pairs) if canonical else sorted(set(pairs))
    todo = schedule(asked, len(asked) if games is None else games)
    net = evaluation_network(network)
    wanted = rank_params(rules, limit, prove, max_plies, canonical,
                         engine_identity(network=net))
    task = functools.partial(play_task, rules=rules, limit=wanted["limit"], prove=prove,
                             max_plies=max_plies, canonical=canonical,
                             made_by=wanted["engine"], network=network)
    return run_tasks(task, todo, key=lambda g: (g.game, g.south, g.north),
                     results=games_file(out, wanted), scheduler=scheduler, jobs=jobs,
                     progress=progress, unit="games", watch=watch, log=log, logger=_LOG,
                     describe=_log_text)
