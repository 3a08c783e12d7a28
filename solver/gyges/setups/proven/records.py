"""The results file of a setup analysis: one JSON record per pair, checked as it is read.

A record is one JSON object per line, keys sorted (:func:`gyges.parallel.dumps`), with the
figures of one pair and the parameters of the analysis (``depth``, ``rules``, ``format``,
and ``canonical: true`` in a table of canonical pairs only: one file holds one analysis).
:class:`PairRecord` is a record as a typed value; :func:`results_file` says how the file
is read (:class:`gyges.parallel.ResultsFile`, the reader every results file shares) and
:func:`read_results` reads one, dropping a last line an interruption cut short.

>>> from gyges.game.rules import PRESETS
>>> from gyges.setups.analysis import analyse_pair
>>> record = PairRecord.from_json(analyse_pair("231123", "321123", PRESETS["pbmserv"], 1))
>>> record
PairRecord(S 231123 N 321123, depth 1: none)
>>> record.south_moves, str(record.position)
(336, '321123/....../....../....../....../231123 S')
>>> PairRecord.from_json(record.to_json()) == record
True
>>> describe_params(params(PRESETS["pbmserv"], 3, canonical=True))[:40]
'depth 3, canonical pairs, rules taboo=co'
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

from gyges.formats.notation import parse_setup
from gyges.game.position import Position, canonical_pair, mirror_setup
from gyges.game.rules import RuleSet
from gyges.parallel import ResultsFile
from gyges.search.stipulation import RESULT_KINDS, ResultKind

__all__ = [
    "FORMAT", "RECORD_KEYS", "BatchError", "PairRecord", "check_record", "describe_params",
    "is_canonical", "params", "params_of", "read_results", "results_file", "with_mirrors",
]

FORMAT = 1  #: version of the JSONL record layout

#: the keys of every record, besides the parameters (``depth``, ``rules``, ``format``)
RECORD_KEYS = (
    "blunders", "defence", "keys", "landing_threats", "north", "north_moves", "north_replaces",
    "replace_threats", "result", "south", "south_moves", "south_replaces", "win_in",
)
_PARAMS = ("depth", "format", "rules")
_COUNTS = ("blunders", "landing_threats", "north_moves", "north_replaces", "replace_threats",
           "south_moves", "south_replaces")


class BatchError(ValueError):
    """A record that is not one of a setup analysis (a file's bad line is a
    :class:`gyges.parallel.ResultsFileError` naming its file and line)."""


def params(rules: RuleSet, depth: int, canonical: bool = False) -> dict[str, Any]:
    """The parameters stored in every record: a resumed run must match them.
    ``canonical``: the table holds canonical pairs only, each standing for its mirror too
    (the key is left out of the records of other tables)."""
    found: dict[str, Any] = {"depth": depth, "format": FORMAT, "rules": rules.describe()}
    if canonical:
        found["canonical"] = True
    return found


def params_of(record: Mapping[str, Any]) -> dict[str, Any]:
    """The parameters a record was made with (:func:`params`)."""
    found = {k: record[k] for k in _PARAMS}
    if "canonical" in record:
        found["canonical"] = record["canonical"]
    return found


def describe_params(p: Mapping[str, Any]) -> str:
    """Parameters in words: ``depth 2, rules taboo=connection ...`` (``depth 2, canonical
    pairs, rules ...`` for a table of canonical pairs)."""
    return f"depth {p['depth']}, {'canonical pairs, ' if p.get('canonical') else ''}" \
           f"rules {p['rules']}"


def check_record(rec: Mapping[str, Any]) -> None:
    """KeyError or ValueError unless ``rec`` has every key of a record, of the right kind
    (what the report reads: a file edited by hand must not crash it). The keys are looked
    for in this order: the pair, the parameters, then :data:`RECORD_KEYS`."""
    for key in ("south", "north", *_PARAMS, *RECORD_KEYS):
        rec[key]  # noqa: B018 - KeyError names the missing key
    if not all(type(rec[k]) is int and rec[k] >= 0 for k in _COUNTS):
        raise ValueError(f"{', '.join(_COUNTS)} are whole numbers, 0 or more")
    if rec["result"] not in RESULT_KINDS or not isinstance(rec["keys"], list):
        raise ValueError("result is win, loss or none, and keys a list")
    if "canonical" in rec and rec["canonical"] is not True:
        raise ValueError("canonical is true when present")
    if (rec["result"] != "none") != (type(rec["win_in"]) is int):
        raise ValueError("win_in is the length of a forced result, else null")
    d = rec["defence"]
    if d is not None and not (isinstance(d, dict) and ("threat" not in d or (
            type(d.get("replies")) is int and "reply" in d))):
        raise ValueError("defence is null or {threat, replies, reply}")
    for k in ("south", "north"):
        if not isinstance(rec[k], str):
            raise ValueError("south and north are setups")
        parse_setup(rec[k])   # NotationError (a ValueError) says why not


def _not_a_record(why: str) -> str:
    return f"not a setup analysis record ({why})"


@dataclasses.dataclass(frozen=True, repr=False)
class PairRecord:
    """The analysis of one setup pair (South to move): what one line of a results file
    holds. docs/setups.md says what each figure is
    (:func:`gyges.setups.analysis.analyse_pair` computes them)."""

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
    depth: int
    rules: str  #: the rules as ``RuleSet.describe()``
    format: int = FORMAT
    canonical: bool = False  #: a record of a table of canonical pairs (:func:`params`)

    @property
    def position(self) -> Position:
        """The pair's start position, South to move."""
        return Position.setup(self.south, self.north)

    @property
    def params(self) -> dict[str, Any]:
        """The parameters of the analysis the record belongs to (:func:`params`)."""
        return params_of(self.to_json())

    def to_json(self) -> dict[str, Any]:
        """The record as its JSON object (:func:`gyges.parallel.dumps` writes it as a
        line); ``canonical`` only when true."""
        data = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}
        data["keys"] = list(self.keys)
        data["defence"] = None if self.defence is None else dict(self.defence)
        if not self.canonical:
            del data["canonical"]
        return data

    @classmethod
    def from_json(cls, data: Any) -> PairRecord:
        """The record of a JSON object; BatchError says what is wrong with it."""
        if not isinstance(data, Mapping):
            raise BatchError(_not_a_record("not an object"))
        try:
            check_record(data)
            if type(data["depth"]) is not int or type(data["format"]) is not int \
                    or not isinstance(data["rules"], str):
                raise ValueError("depth and format are whole numbers, rules a text")
        except KeyError as e:
            raise BatchError(_not_a_record(f"no {e} key")) from None
        except ValueError as e:
            raise BatchError(_not_a_record(str(e))) from None
        known = {f.name for f in dataclasses.fields(cls)}
        values = {k: v for k, v in data.items() if k in known}
        values["keys"] = tuple(data["keys"])
        return cls(**values)

    def __repr__(self) -> str:
        return f"PairRecord(S {self.south} N {self.north}, depth {self.depth}: {self.result})"


def _pair(record: Mapping[str, Any]) -> tuple[str, str]:
    return record["south"], record["north"]


def results_file(path: str, wanted: Mapping[str, Any] | None = None) -> ResultsFile:
    """The results file of an analysis: records keyed by ``(south, north)``, each checked
    (:func:`check_record`); with ``wanted`` (:func:`params`) a record made with other
    parameters is refused, without it every record must have those of the first."""
    return ResultsFile(path, "a setup analysis record", key=_pair, check=check_record,
                       params=None if wanted is None else dict(wanted), params_of=params_of,
                       describe=describe_params)


def read_results(path: str, repair: bool = False) -> tuple[dict[str, Any] | None, list[dict]]:
    """The parameters and records of a results file (none when it does not exist), records
    sorted by (south, north).

    A last line cut short by an interruption is dropped (with ``repair``, also cut from the
    file). Any other bad line, or records with different parameters, is a
    :class:`gyges.parallel.ResultsFileError` naming the file and the line.
    """
    found = results_file(path).read(repair)
    return found.params, sorted(found.by_key().values(), key=_pair)


def is_canonical(records: Sequence[Mapping[str, Any]]) -> bool:
    """Is this a table of canonical pairs (made by a run with ``canonical``), each record
    standing for its mirror pair too? (One table has one set of parameters: the first
    record says it.)"""
    return bool(records) and records[0].get("canonical") is True


def with_mirrors(records: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """What a report counts: the records and, for a table of canonical pairs, one row for
    each mirror pair besides (its setups mirrored; the same figures and verdict, by the
    mirror symmetry of the rules), sorted by pair. A mirror row has no ``keys`` and no
    ``defence``: those name moves on the canonical pair's board.

    >>> row = {"south": "231123", "north": "332211", "result": "none", "keys": [],
    ...        "defence": None, "canonical": True}
    >>> [(r["south"], r["north"], "keys" in r) for r in with_mirrors([row])]
    [('231123', '332211', True), ('321132', '112233', False)]
    """
    rows = list(records)
    if is_canonical(records):
        rows += [{**{k: v for k, v in r.items() if k not in ("keys", "defence")},
                  "south": mirror_setup(r["south"]), "north": mirror_setup(r["north"])}
                 for r in records if canonical_pair(r["south"], r["north"]) == _pair(r)
                 and (mirror_setup(r["south"]), mirror_setup(r["north"])) != _pair(r)]
    return sorted(rows, key=_pair)
