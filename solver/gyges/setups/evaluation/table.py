"""The engine's evaluation of setup pairs (``setups evaluate``): each pair's start position
searched once at a fixed budget, the low-noise half of the setup study (the games of
``setups rank`` are the check of it).

One record a pair, one JSON line: the pair (``south``, ``north``), the search's ``score``
for South, who moves first (:class:`~gyges.engine.score.Score` as JSON), South's win
probability (``south_win``, the calibrated probability ``analyse`` prints), the best first
move (``best``), the ``depth`` completed and the ``nodes`` searched; and the run's
parameters, the same in every line: the node budget (``nodes``: it names the budget, the
count searched is ``searched``), the proof horizon (``prove``), the ``rules``, the
``format`` and the ``engine`` that searched
(:class:`~gyges.engine.identity.EngineIdentity`; a run refuses to extend a file of
another engine). A search at a fixed node count on one core is deterministic: a pair's
record is the same on any machine, worker or cluster.

**The mirror.** The rules are the same mirrored left to right, so a pair and its mirror
have the same value: only the canonical pair standing for each pair asked for is searched
(4,068 for all 8,100), and the table (:mod:`gyges.setups.evaluation.summary`) counts it
for both.

>>> from gyges.game.rules import PRESETS
>>> r = evaluate_pair("231123", "321123", PRESETS["pbmserv"], nodes=2000)
>>> sorted(r), r["searched"] <= 2000 + 1000
(['best', 'depth', 'north', 'score', 'searched', 'south', 'south_win'], True)
>>> r == evaluate_pair("231123", "321123", PRESETS["pbmserv"], nodes=2000)
True
"""

from __future__ import annotations

import functools
import logging
import random
from collections.abc import Callable, Iterable, Mapping
from typing import Any, TextIO

from gyges.engine import MAX_PROVE_DEPTH, Engine, Limit, Options
from gyges.engine.identity import UNRECORDED, EngineIdentity, engine_identity
from gyges.engine.network import (
    DEFAULT_EVALUATION,
    EvaluationDefault,
    Network,
    evaluation_network,
    resolved_network,
)
from gyges.engine.openings import SEED
from gyges.engine.score import Score
from gyges.game.position import Position
from gyges.game.rules import RuleSet
from gyges.parallel import ResultsFile, RunEvent, RunSummary, first_record, run_tasks
from gyges.setups.pairs import SetupError, canonical_pairs

__all__ = ["DEFAULT_NODES", "EVALUATION_FORMAT", "EVALUATION_HASH_BITS", "evaluate_pair",
           "evaluation_params", "evaluations_file", "is_evaluation_file", "read_evaluations",
           "run_evaluations"]

_LOG = logging.getLogger("gyges.setups")

EVALUATION_FORMAT = 1  #: version of the record layout
#: The budget of a pair's search when none is given: 200,000 nodes (depth 4 or 5 from a
#: start position; 3 to 4 s of one core).
DEFAULT_NODES = 200_000
#: The transposition table, 2 ** EVALUATION_HASH_BITS entries of 16 bytes (64 MiB): a fresh one per
#: pair, so that a pair's value does not depend on the pair searched before.
EVALUATION_HASH_BITS = 22
_PARAMS = ("engine", "format", "nodes", "prove", "rules")


def evaluation_params(rules: RuleSet, nodes: int, prove: int,
                      engine: EngineIdentity | None = None) -> dict[str, Any]:
    """The parameters of every record of a run (``engine``: default this process's)."""
    return {"engine": engine or engine_identity(), "format": EVALUATION_FORMAT,
            "nodes": nodes, "prove": prove, "rules": rules.describe()}


def evaluate_pair(south: str, north: str, rules: RuleSet, nodes: int = DEFAULT_NODES,
                  prove: int = 3,
                  network: Network | None | EvaluationDefault = DEFAULT_EVALUATION
                  ) -> dict[str, Any]:
    """The search of the pair's start position (South to move) within ``nodes``, with the
    proof horizon ``prove``, by a fresh engine (with the learned evaluation ``network``;
    None: the linear one; not given: the default one): its record without the run's
    parameters."""
    engine = Engine(rules, Options(prove=prove, hash_bits=EVALUATION_HASH_BITS,
                                   network=resolved_network(network)))
    a = engine.analyse(Position.setup(south, north), Limit(nodes=nodes))
    return {"south": south, "north": north, "score": a.score.to_json(),
            "south_win": round(a.win_probability, 4),
            "best": None if a.move is None else str(a.move), "depth": a.depth,
            "searched": a.nodes}


def evaluation_task(pair: tuple[str, str], *, rules: RuleSet, nodes: int, prove: int,
                    made_by: EngineIdentity | None = None,
                    network: str | None = None) -> dict[str, Any]:
    """One pair's record with the run's parameters (a task of :func:`run_evaluations`;
    ``network``: its file, or :data:`~gyges.engine.network.LINEAR`; None: the default
    evaluation). A worker whose engine is not ``made_by`` refuses
    (:class:`SetupError`)."""
    net = evaluation_network(network)
    here = engine_identity(network=net)
    if made_by is not None and made_by != here:
        raise SetupError(f"this worker's engine is not the run's: {here}, not {made_by}")
    record = evaluate_pair(pair[0], pair[1], rules, nodes, prove, net)
    params = evaluation_params(rules, nodes, prove, made_by or here)
    return {**record, **params, "engine": params["engine"].to_json()}


def _params_of(record: Mapping[str, Any]) -> dict[str, Any]:
    params = {k: record[k] for k in _PARAMS if k != "engine"}
    params["engine"] = (EngineIdentity.from_json(record["engine"]) if "engine" in record
                        else UNRECORDED)
    return params


def _check(record: Mapping[str, Any]) -> dict[str, Any]:
    """A record as read: ValueError says what is wrong with it."""
    for k in ("south", "north", "score", "south_win", "best", "depth", "searched"):
        if k not in record:
            raise ValueError(f"it has no {k!r}")
    Score.from_json(record["score"])
    p = record["south_win"]
    if not isinstance(p, (int, float)) or not 0 <= p <= 1:
        raise ValueError("south_win is a probability, 0 to 1")
    return dict(record)


def _describe(p: Mapping[str, Any]) -> str:
    words: dict[str, Callable[[Any], str]] = {
        "nodes": lambda v: f"{v:,} nodes a pair", "prove": lambda v: f"prove {v}",
        "rules": lambda v: f"rules {v}", "format": lambda v: f"record format {v}",
        "engine": str}
    return ", ".join(say(p[k]) for k, say in words.items() if k in p)


def evaluations_file(path: str, wanted: Mapping[str, Any] | None = None) -> ResultsFile:
    """The file of an evaluation run: records keyed by the pair; with ``wanted``
    (:func:`evaluation_params`) a record made otherwise is refused (saying what differs),
    without it every record must have the first's parameters."""
    return ResultsFile(path, "a setup evaluation record",
                       key=lambda r: (r["south"], r["north"]), check=_check,
                       params=None if wanted is None else dict(wanted),
                       params_of=_params_of, describe=_describe, differences=True)


def is_evaluation_file(path: str) -> bool:
    """Does the file at ``path`` begin with a setup evaluation record? (Only the first
    line is read: :func:`read_evaluations` checks them all.)"""
    record = first_record(path)
    return record is not None and "south_win" in record and "searched" in record


def read_evaluations(path: str, repair: bool = False
                     ) -> tuple[dict[str, Any] | None, list[dict[str, Any]]]:
    """The parameters and the records of an evaluation file, sorted by pair."""
    found = evaluations_file(path).read(repair)
    return found.params, sorted(found.values().values(),
                                key=lambda r: (r["south"], r["north"]))


def _log_text(record: Mapping[str, Any]) -> str:
    return (f"{record['south']} {record['north']}: South {record['south_win']:.3f} "
            f"({Score.from_json(record['score'])}, depth {record['depth']})")


def run_evaluations(pairs: Iterable[tuple[str, str]], rules: RuleSet, out: str, *,
                    nodes: int = DEFAULT_NODES, prove: int = 3,
                    scheduler: str | None = None, jobs: int | None = None,
                    progress: TextIO | None = None, log: str | None = None,
                    watch: Callable[[RunEvent], None] | None = None,
                    network: str | None = None) -> RunSummary:
    """Search the canonical pair standing for each pair asked for (:func:`evaluate_pair`)
    into the file ``out``, in a seeded random order (a run stopped early holds a uniform
    sample of the pairs, the same one on every run), resumably: pairs already there are
    skipped, a file made with other parameters or by another engine is refused before
    any search, and Ctrl-C keeps every line written.
    ``scheduler``/``jobs``/``progress``/``log``/``watch``: as :func:`gyges.parallel.run_tasks`;
    ``network``: the file of a learned evaluation to search with (None: the default
    evaluation; :data:`~gyges.engine.network.LINEAR`: the linear one), named in the
    records by the engine's evaluation digest."""
    if nodes < 1:
        raise SetupError(f"nodes {nodes}: give at least 1")
    if not 0 <= prove <= MAX_PROVE_DEPTH:
        raise SetupError(f"prove {prove}: give 0 (no prover) to {MAX_PROVE_DEPTH}")
    todo = canonical_pairs(pairs)
    if not todo:
        raise SetupError("no setup pairs to evaluate")
    random.Random(SEED).shuffle(todo)     # a run stopped early holds a random sample
    net = evaluation_network(network)
    wanted = evaluation_params(rules, nodes, prove, engine_identity(network=net))
    task = functools.partial(evaluation_task, rules=rules, nodes=nodes, prove=prove,
                             made_by=wanted["engine"], network=network)
    return run_tasks(task, todo, key=lambda p: p, results=evaluations_file(out, wanted),
                     scheduler=scheduler, jobs=jobs, progress=progress, unit="pairs",
                     watch=watch, log=log, logger=_LOG, describe=_log_text)
