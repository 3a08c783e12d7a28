"""The results file of a setup analysis: one JSON record per pair, read as typed records.

A record is one JSON object per line, keys sorted (:func:`gyges.parallel.dumps`), with the
figures of one pair and the parameters of the analysis (``depth``, ``rules``, ``format``,
``canonical: true`` in a table of canonical pairs only, and ``engine``, the gyges that
proved it, :class:`~gyges.engine.identity.EngineIdentity`: one file holds one analysis
by one engine).
:class:`PairRecord` is a record as a typed value (:meth:`PairRecord.from_json` checks it,
:meth:`PairRecord.to_json` writes it), :class:`AnalysisParams` the parameters it carries;
:func:`analysis_results_file` says how the file is read (:class:`gyges.parallel.ResultsFile`, the
reader every results file shares) and :func:`read_results` reads one, dropping a last line
an interruption cut short.

>>> from gyges.game.rules import PRESETS
>>> from gyges.setups.proven.analysis import analyse_pair
>>> record = analyse_pair("231123", "321123", PRESETS["pbmserv"], 1)
>>> record
PairRecord(S 231123 N 321123, depth 1: none)
>>> record.south_moves, str(record.position)
(336, '321123/....../....../....../....../231123 S')
>>> PairRecord.from_json(record.to_json()) == record
True
>>> str(AnalysisParams.of(PRESETS["pbmserv"], 3, canonical=True))[:40]
'depth 3, canonical pairs, rules taboo=co'
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

from gyges.engine.identity import UNRECORDED, EngineIdentity, engine_identity
from gyges.formats.notation import parse_setup
from gyges.game.position import Position, canonical_pair, mirror_setup
from gyges.game.rules import RuleSet, Side
from gyges.parallel import ResultsFile
from gyges.search.stipulation import RESULT_KINDS, ResultKind

__all__ = [
    "COUNTS", "PAIR_FORMAT", "RECORD_KEYS", "AnalysisParams", "BatchError", "PairRecord",
    "analysis_results_file", "is_canonical", "read_results", "with_mirrors",
]

PAIR_FORMAT = 1  #: version of the JSONL record layout

#: the keys of every record, besides the parameters (``depth``, ``rules``, ``format``)
RECORD_KEYS = (
    "blunders", "defence", "keys", "landing_threats", "north", "north_moves", "north_replaces",
    "replace_threats", "result", "south", "south_moves", "south_replaces", "win_in",
)
#: the figures of a record that count something: whole numbers, 0 or more (a heat map
#: shades the pairs without a forced result by one of them)
COUNTS = ("blunders", "landing_threats", "north_moves", "north_replaces", "replace_threats",
          "south_moves", "south_replaces")
_PARAMS = ("depth", "format", "rules")


class BatchError(ValueError):
    """A record that is not one of a setup analysis: ``str()`` says why (a file's bad line
    is a :class:`gyges.parallel.ResultsFileError` naming its file and line)."""


@dataclasses.dataclass(frozen=True)
class AnalysisParams:
    """The parameters of an analysis, stored in every record: a resumed run must match
    them. ``canonical``: the table holds canonical pairs only, each standing for its mirror
    too (the key is left out of the records of other tables). ``engine``: the gyges that
    made the records (:data:`~gyges.engine.identity.UNRECORDED` for a table from before
    records named it). Prints as its words: ``depth 2, rules taboo=connection ...,
    engine ...`` (``depth 2, canonical pairs, rules ...``)."""

    depth: int
    rules: str  #: the rules as ``RuleSet.describe()``
    canonical: bool = False
    format: int = PAIR_FORMAT
    engine: EngineIdentity = UNRECORDED

    @classmethod
    def of(cls, rules: RuleSet, depth: int, canonical: bool = False,
           engine: EngineIdentity | None = None) -> AnalysisParams:
        """The parameters of an analysis of ``depth`` under ``rules`` by ``engine``
        (default: this process's, :func:`~gyges.engine.identity.engine_identity`)."""
        return cls(depth, rules.describe(), canonical, PAIR_FORMAT,
                   engine or engine_identity())

    @classmethod
    def from_json(cls, record: Mapping[str, Any]) -> AnalysisParams:
        """The parameters a record was made with; KeyError names a missing one, BatchError
        says what else is wrong."""
        depth, fmt, rules = (record[k] for k in _PARAMS)
        if type(depth) is not int or type(fmt) is not int or not isinstance(rules, str):
            raise BatchError("depth and format are whole numbers, rules a text")
        canonical = record.get("canonical", False)
        if "canonical" in record and canonical is not True:
            raise BatchError("canonical is true when present")
        try:
            engine = (EngineIdentity.from_json(record["engine"]) if "engine" in record
                      else UNRECORDED)
        except ValueError as e:
            raise BatchError(str(e)) from None
        return cls(depth, rules, canonical, fmt, engine)

    def to_json(self) -> dict[str, Any]:
        """The parameters as the keys of a record (``canonical`` only when true, ``engine``
        when recorded)."""
        found: dict[str, Any] = {"depth": self.depth, "format": self.format,
                                 "rules": self.rules}
        if self.canonical:
            found["canonical"] = True
        if self.engine != UNRECORDED:
            found["engine"] = self.engine.to_json()
        return found

    def __str__(self) -> str:
        return f"depth {self.depth}, {'canonical pairs, ' if self.canonical else ''}" \
               f"rules {self.rules}, {self.engine}"


def _check_defence(d: Any) -> None:
    if d is not None and not (isinstance(d, dict) and ("threat" not in d or (
            type(d.get("replies")) is int and "reply" in d))):
        raise BatchError("defence is null or {threat, replies, reply}")


@dataclasses.dataclass(frozen=True, repr=False)
class PairRecord:
    """The analysis of one setup pair (South to move): what one line of a results file
    holds. docs/setups.md says what each figure is
    (:func:`gyges.setups.proven.analysis.analyse_pair` computes them)."""

    south: str
    north: str
    south_moves: int
    north_moves: int
    south_replaces: int
    north_replaces: int
    landing_threats: int
    blunders: int
    replace_threats: int
    result: ResultKind
    win_in: int | None
    keys: tuple[str, ...]
    defence: Mapping[str, Any] | None
    params: AnalysisParams  #: the analysis the record belongs to

    @property
    def pair(self) -> tuple[str, str]:
        """``(south, north)``."""
        return self.south, self.north

    @property
    def position(self) -> Position:
        """The pair's start position, South to move."""
        return Position.setup(self.south, self.north)

    def setup(self, side: Side) -> str:
        """The setup of ``side``."""
        return self.south if side is Side.SOUTH else self.north

    def count(self, name: str) -> int:
        """The figure ``name``, one of :data:`COUNTS`."""
        if name not in COUNTS:
            raise ValueError(f"{name!r} is not a count of a record: {', '.join(COUNTS)}")
        value: int = getattr(self, name)
        return value

    def mirrored(self) -> PairRecord:
        """The record of the mirror pair (both setups mirrored): the same figures and
        verdict, by the mirror symmetry of the rules, but no ``keys`` and no ``defence``
        (they name moves on this pair's board)."""
        return dataclasses.replace(self, south=mirror_setup(self.south),
                                   north=mirror_setup(self.north), keys=(), defence=None)

    def to_json(self) -> dict[str, Any]:
        """The record as its JSON object (:func:`gyges.parallel.dumps` writes it as a
        line): the figures and the parameters; ``canonical`` only when true."""
        data = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)
                if f.name != "params"}
        data["keys"] = list(self.keys)
        data["defence"] = None if self.defence is None else dict(self.defence)
        return {**data, **self.params.to_json()}

    @classmethod
    def from_json(cls, data: Any) -> PairRecord:
        """The record of a JSON object. KeyError names a missing key (looked for in this
        order: the pair, the parameters, then :data:`RECORD_KEYS`), BatchError (a
        ValueError) says what else is wrong: a file edited by hand must not crash a
        report."""
        if not isinstance(data, Mapping):
            raise BatchError("not an object")
        for key in ("south", "north", *_PARAMS, *RECORD_KEYS):
            data[key]  # noqa: B018 - KeyError names the missing key
        if not all(type(data[k]) is int and data[k] >= 0 for k in COUNTS):
            raise BatchError(f"{', '.join(COUNTS)} are whole numbers, 0 or more")
        if data["result"] not in RESULT_KINDS or not isinstance(data["keys"], list):
            raise BatchError("result is win, loss or none, and keys a list")
        if "canonical" in data and data["canonical"] is not True:
            raise BatchError("canonical is true when present")
        if (data["result"] != "none") != (type(data["win_in"]) is int):
            raise BatchError("win_in is the length of a forced result, else null")
        _check_defence(data["defence"])
        for k in ("south", "north"):
            if not isinstance(data[k], str):
                raise BatchError("south and north are setups")
            parse_setup(data[k])   # NotationError (a ValueError) says why not
        return cls(
            south=data["south"], north=data["north"],
            **{k: data[k] for k in COUNTS},
            result=ResultKind(data["result"]), win_in=data["win_in"], keys=tuple(data["keys"]),
            defence=data["defence"], params=AnalysisParams.from_json(data))

    def __repr__(self) -> str:
        return (f"PairRecord(S {self.south} N {self.north}, depth {self.params.depth}: "
                f"{self.result})")


def _pair(record: Mapping[str, Any]) -> tuple[str, str]:
    return record["south"], record["north"]


def analysis_results_file(path: str, wanted: AnalysisParams | None = None) -> ResultsFile:
    """The results file of an analysis: records keyed by ``(south, north)``, each read as a
    :class:`PairRecord` (:attr:`gyges.parallel.ResultsLine.value`); with ``wanted`` a record made
    with other parameters is refused, without it every record must have those of the
    first."""
    return ResultsFile(path, "a setup analysis record", key=_pair, check=PairRecord.from_json,
                       params=wanted, params_of=AnalysisParams.from_json, describe=str)


def read_results(path: str, repair: bool = False
                 ) -> tuple[AnalysisParams | None, list[PairRecord]]:
    """The parameters and records of a results file (none when it does not exist), records
    sorted by (south, north).

    A last line cut short by an interruption is dropped (with ``repair``, also cut from the
    file). Any other bad line, or records with different parameters, is a
    :class:`gyges.parallel.ResultsFileError` naming the file and the line.
    """
    found = analysis_results_file(path).read(repair)
    return found.params, sorted(found.values().values(), key=lambda r: r.pair)


def is_canonical(records: Sequence[PairRecord]) -> bool:
    """Is this a table of canonical pairs (made by a run with ``canonical``), each record
    standing for its mirror pair too? (One table has one set of parameters: the first
    record says it.)"""
    return bool(records) and records[0].params.canonical


def with_mirrors(records: Sequence[PairRecord]) -> list[PairRecord]:
    """What a report counts: the records and, for a table of canonical pairs, the record of
    each mirror pair besides (:meth:`PairRecord.mirrored`), sorted by pair.

    >>> from gyges.game.rules import PRESETS
    >>> from gyges.setups.proven.analysis import analyse_pair
    >>> row = analyse_pair("231123", "332211", PRESETS["pbmserv"], 1)
    >>> row = dataclasses.replace(row, params=dataclasses.replace(row.params, canonical=True))
    >>> [(r.south, r.north, r.defence is not None) for r in with_mirrors([row])]
    [('231123', '332211', True), ('321132', '112233', False)]
    """
    rows = list(records)
    if is_canonical(records):
        rows += [r.mirrored() for r in records if canonical_pair(*r.pair) == r.pair
                 and (mirror_setup(r.south), mirror_setup(r.north)) != r.pair]
    return sorted(rows, key=lambda r: r.pair)
