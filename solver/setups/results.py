"""The results file of a setup analysis: one JSON record per pair, checked as it is read.

A record is one JSON object per line, keys sorted (:func:`dumps`), with the figures of
one pair and the parameters of the analysis (``depth``, ``rules``, ``format``: one file
holds one analysis). :class:`PairRecord` is a record as a typed value; :func:`read_results`
reads a file, dropping (or, with ``repair``, cutting) a last line an interruption cut
short.

>>> from gyges.game.rules import PRESETS
>>> from gyges.setups.analysis import analyse_pair
>>> record = PairRecord.from_json(analyse_pair("231123", "321123", PRESETS["pbmserv"], 1))
>>> record
PairRecord(S 231123 N 321123, depth 1: none)
>>> record.south_moves, str(record.position)
(336, '321123/....../....../....../....../231123 S')
>>> PairRecord.from_json(record.to_json()) == record
True
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping
from typing import Any

from gyges.formats.notation import parse_setup
from gyges.game.position import Position
from gyges.game.rules import RuleSet
from gyges.search.stipulation import RESULT_KINDS, ResultKind

__all__ = [
    "FORMAT", "RECORD_KEYS", "BatchError", "PairRecord", "ParametersError", "check_record",
    "describe_params", "dumps", "params", "read_results",
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
    """A results file that cannot be read or resumed, or a record that is not one."""


class ParametersError(BatchError):
    """A results file made with other parameters: ``path``, the parameters ``found`` in it
    and those ``wanted`` (:func:`params`); ``problem`` says so, and the message adds what
    else to do."""

    def __init__(self, path: str, found: Mapping[str, Any], wanted: Mapping[str, Any]) -> None:
        self.problem = (f"{path} holds an analysis made with {describe_params(found)}, not "
                        f"{describe_params(wanted)}: rerun with those parameters to resume it")
        super().__init__(f"{self.problem}, or write to another results file")
        self.path = path
        self.found = dict(found)
        self.wanted = dict(wanted)


def params(rules: RuleSet, depth: int) -> dict[str, Any]:
    """The parameters stored in every record: a resumed run must match them."""
    return {"depth": depth, "format": FORMAT, "rules": rules.describe()}


def describe_params(p: Mapping[str, Any]) -> str:
    """Parameters in words: ``depth 2, rules taboo=connection ...``."""
    return f"depth {p['depth']}, rules {p['rules']}"


def dumps(record: Mapping[str, Any]) -> str:
    """One JSONL line (keys sorted, compact)."""
    return json.dumps(record, sort_keys=True, separators=(",", ":"))


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

    @property
    def position(self) -> Position:
        """The pair's start position, South to move."""
        return Position.setup(self.south, self.north)

    @property
    def params(self) -> dict[str, Any]:
        """The parameters of the analysis the record belongs to."""
        return {"depth": self.depth, "format": self.format, "rules": self.rules}

    def to_json(self) -> dict[str, Any]:
        """The record as its JSON object (:func:`dumps` writes it as a line)."""
        data = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}
        data["keys"] = list(self.keys)
        data["defence"] = None if self.defence is None else dict(self.defence)
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


def read_results(path: str, repair: bool = False) -> tuple[dict[str, Any] | None, list[dict]]:
    """The parameters and records of a results file, records sorted by (south, north).

    A last line cut short by an interruption is dropped (with ``repair``, also cut from the
    file). Any other bad line, or records with different parameters, is a BatchError.
    """
    try:
        with open(path, "rb") as f:
            data = f.read()
    except FileNotFoundError:
        return None, []
    except OSError as e:
        raise BatchError(f"{path}: cannot read it: {e.strerror}") from None
    lines = data.split(b"\n")
    keep = len(data)
    last = lines.pop()
    if last.strip():  # no newline at the end: a complete record (kept) or a cut-short write
        try:
            complete = isinstance(json.loads(last), dict)
        except ValueError:
            complete = False
        if complete:
            lines.append(last)
            keep = -1   # repair: add the newline
        elif last.lstrip().startswith(b"{"):
            keep = len(data) - len(last)
        else:
            lines.append(last)  # not a record at all: reported below
    records: dict[tuple[str, str], dict] = {}
    found: dict[str, Any] | None = None
    for i, raw in enumerate(lines, 1):
        if not raw.strip():
            continue
        try:
            rec = json.loads(raw)
            if not isinstance(rec, dict):
                raise ValueError("not an object")
            check_record(rec)
        except KeyError as e:
            raise BatchError(f"{path}, line {i}: {_not_a_record(f'no {e} key')}") from None
        except ValueError as e:
            raise BatchError(f"{path}, line {i}: {_not_a_record(str(e))}") from None
        p = {k: rec[k] for k in _PARAMS}
        if found is None:
            found = p
        elif p != found:
            raise BatchError(
                f"{path}, line {i}: made with {describe_params(p)}, but earlier lines with "
                f"{describe_params(found)}: one file holds one analysis"
            )
        records[(rec["south"], rec["north"])] = rec
    if repair and keep == -1:
        with open(path, "ab") as f:
            f.write(b"\n")
    elif repair and keep != len(data):
        with open(path, "r+b") as f:
            f.truncate(keep)
    return found, [records[k] for k in sorted(records)]
