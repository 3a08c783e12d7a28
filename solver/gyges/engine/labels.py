"""Deeper labels for the training games: :func:`label_games`.

A game of ``gyges engine-data`` (:mod:`gyges.engine.dataset`) labels each of its
positions by the game's result and by the score of the search that played it, at the
games' own strength (1,000 nodes a move by default). A label file gives the same
positions a deeper look: each position before a move of a game is searched afresh (a
cleared table, the game's earlier positions as its history, the proof horizon
``prove``) to ``nodes`` nodes, and the score (:meth:`~gyges.engine.score.Score.to_int`,
from the mover's side) is kept in the game's line, one a move (``null`` for the
position a winning move was made from, which needs no search). ``every`` and ``part``
choose the games whose number is ``part`` modulo ``every`` (a third of them:
``every=3``), so that a long labelling can be spread over runs. A label depends only on
the game, the settings and the engine.

The records go to a results file, one game a line, through one resumable run of
:mod:`gyges.parallel` (Ctrl-C keeps every line written; the same command resumes; a file
of other settings or of another evaluation, :mod:`gyges.engine.identity`, is refused;
each line names the engine that made it, whose code may change between sittings).
:func:`read_labels` reads it back for :func:`gyges.engine.network_training.network_positions`.

>>> from gyges.engine.dataset import DataSettings, dataset_game
>>> record = dataset_game(3, DataSettings(nodes=200, random_plies=4, max_plies=12))
>>> line = label_game(record, LabelSettings(nodes=300))
>>> line["game"], len(line["deep"]) == len(record["moves"])
(3, True)
>>> label_game(record, LabelSettings(nodes=300))["deep"] == line["deep"]   # the same
True
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Iterable, Mapping
from typing import Any, TextIO

from gyges.engine.builtin import Engine, Limit, Options
from gyges.engine.calibration import recorded_moves
from gyges.engine.dataset import describe_run, run_params
from gyges.engine.identity import EngineIdentity, code_digest, engine_identity, weights_digest
from gyges.engine.network import evaluation_network
from gyges.game.rules import PRESETS
from gyges.parallel import ResultsFile, RunEvent, RunSummary, run_tasks

__all__ = ["LABELS_FORMAT", "LabelSettings", "Labels", "label_game", "label_games", "label_params",
           "labels_file", "read_labels"]

LABELS_FORMAT = 1  #: version of the record layout
_HASH_BITS = 18


@dataclasses.dataclass(frozen=True)
class LabelSettings:
    """How the positions are searched: ``nodes`` each, with the proof horizon ``prove``;
    the games labelled are those whose number is ``part`` modulo ``every``."""

    nodes: int = 10_000
    prove: int = 2
    every: int = 1
    part: int = 0

    def __post_init__(self) -> None:
        if self.nodes < 1 or self.prove < 0 or self.every < 1 or \
                not 0 <= self.part < self.every:
            raise ValueError(f"label settings {self}: nodes and every at least 1, prove at "
                             "least 0, part from 0 to every - 1")

    def chosen(self, game: int) -> bool:
        """Is game number ``game`` one of those labelled?"""
        return game % self.every == self.part

    def to_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


def label_game(record: Mapping[str, Any], settings: LabelSettings,
               made_by: EngineIdentity | None = None,
               network: str | None = None) -> dict[str, Any]:
    """The label line of one game record (see the module). ``made_by``: the engine the
    run asked for (recorded); a process whose engine is another refuses (ValueError).
    ``network``: the evaluation that searches (as
    :func:`~gyges.engine.network.evaluation_network` reads it: None the default one,
    ``linear`` the linear one, else a network file)."""
    net = evaluation_network(network)
    here = EngineIdentity(code_digest(), weights_digest(network=net))
    if made_by is not None and made_by != here:
        raise ValueError(f"this worker's engine is not the run's: {here}, not {made_by}")
    engine = Engine(PRESETS[record["rules"]],
                    Options(prove=settings.prove, hash_bits=_HASH_BITS, network=net))
    deep: list[int | None] = []
    try:
        for m in recorded_moves(record):
            if m.move.is_win:
                deep.append(None)
                break
            engine.clear()
            a = engine.analyse(m.position, Limit(nodes=settings.nodes), m.before)
            deep.append(a.score.to_int())
    finally:
        engine.close()
    return {"game": record["game"], "deep": deep, "format": LABELS_FORMAT,
            "settings": settings.to_json(), "engine": (made_by or here).to_json()}


def _check(record: Mapping[str, Any]) -> Mapping[str, Any]:
    if type(record["game"]) is not int or not isinstance(record["deep"], list) or \
            not all(s is None or type(s) is int for s in record["deep"]):
        raise ValueError("a label line is a game number and a score (or null) a move")
    return record


def label_params(record: Mapping[str, Any]) -> dict[str, Any]:
    """A label line's parameters: its record ``format``, ``settings`` and the evaluation
    that searched (``weights``, the digest :func:`~gyges.engine.identity.weights_digest`).
    Not the engine's code: lines of two codes of one evaluation may share a file (a
    labelling goes on across a change to the code, each line naming its engine), as
    files of them are read together (:func:`read_labels`)."""
    p = run_params(record)
    return {"format": p["format"], "settings": p["settings"], "weights": p["engine"].weights}


def labels_file(path: str, settings: LabelSettings | None = None,
                engine: EngineIdentity | None = None) -> ResultsFile:
    """The results file of a labelling run: one game a line, keyed by its number; with
    ``settings`` (and ``engine``) a line made with other settings or by another
    evaluation is refused (:func:`label_params`)."""
    wanted = None if settings is None else {
        "format": LABELS_FORMAT, "settings": settings.to_json(),
        "weights": (engine or engine_identity()).weights}
    return ResultsFile(path, "a label line", key=lambda r: r["game"], check=_check,
                       params=wanted, params_of=label_params, describe=describe_run,
                       differences=True)


@dataclasses.dataclass(frozen=True)
class Labels:
    """The deeper scores of label files: ``scores`` by game number (one a move, None
    where there is none), made by searches of ``nodes`` nodes with the proof horizon
    ``prove`` by the ``engines`` (those the lines name, each once, in the order read:
    engines of one evaluation, whose code may differ)."""

    nodes: int
    prove: int
    engines: tuple[EngineIdentity, ...]
    scores: Mapping[int, tuple[int | None, ...]]

    def summary(self) -> dict[str, Any]:
        """What the labels are, for the record of a network trained on them."""
        return {"nodes": self.nodes, "prove": self.prove, "games": len(self.scores),
                "engines": [e.to_json() for e in self.engines]}


def read_labels(paths: Iterable[str]) -> Labels:
    """The deeper scores of label files, of one kind of search: the same nodes, proof
    horizon and evaluation (the weights' digest; the engines' code may differ, as
    labelling spans changes to the code, each line recording its own). ValueError
    naming the file otherwise, or for a file with no line."""
    scores: dict[int, tuple[int | None, ...]] = {}
    first: tuple[str, Labels] | None = None
    engines: list[EngineIdentity] = []
    for path in paths:
        found = labels_file(path).read()
        if found.params is None:
            raise ValueError(f"{path}: no label line (make it with gyges engine-labels)")
        settings = found.params["settings"]
        records = found.by_key().values()
        engine = EngineIdentity.from_json(next(iter(records))["engine"])
        this = Labels(int(settings["nodes"]), int(settings["prove"]), (engine,), scores)
        if first is None:
            first = (path, this)
        elif (this.nodes, this.prove, engine.weights) != (
                first[1].nodes, first[1].prove, first[1].engines[0].weights):
            was = first[1]
            raise ValueError(f"{path}: labels of {this.nodes} nodes, proof horizon "
                             f"{this.prove}, {engine}, where {first[0]} has "
                             f"{was.nodes} nodes, horizon {was.prove}, {was.engines[0]}: "
                             "give the labels of one kind of search (one evaluation)")
        for record in records:
            made_by = EngineIdentity.from_json(record["engine"])
            if made_by not in engines:
                engines.append(made_by)
            scores[int(record["game"])] = tuple(record["deep"])
    if first is None:
        raise ValueError("no label file given")
    return dataclasses.replace(first[1], engines=tuple(engines))


def _log_text(record: Mapping[str, Any]) -> str:
    return f"game {record['game']}: {len(record['deep'])} positions"


def label_games(out: str, records: Iterable[Mapping[str, Any]],
                settings: LabelSettings = LabelSettings(), *, scheduler: str | None = None,
                jobs: int | None = None, progress: TextIO | None = None,
                log: str | None = None,
                watch: Callable[[RunEvent], None] | None = None,
                network: str | None = None) -> RunSummary:
    """Label the chosen games of ``records`` (:func:`label_game`, with the evaluation
    ``network`` names) into the results file ``out``, those already there skipped (see
    the module's documentation)."""
    identity = engine_identity(network=evaluation_network(network))
    chosen = [dict(r) for r in records if settings.chosen(int(r["game"]))]
    task = functools.partial(label_game, settings=settings, made_by=identity,
                             network=network)
    return run_tasks(task, chosen, key=lambda r: r["game"],
                     results=labels_file(out, settings, identity), scheduler=scheduler,
                     jobs=jobs, progress=progress, unit="games", watch=watch, log=log,
                     describe=_log_text)
