"""The state file of a generation run: one JSON line per judged candidate (its record, from
:func:`~gyges.puzzles.judging.evaluate`, with the run's parameters), the results file of
the shared resumable run (:func:`state_file`, a :class:`gyges.parallel.ResultsFile`), read
back to resume (:func:`read_state`); and the puzzles a run keeps from its records
(:func:`select`).

>>> select({0: {"index": 0, "sound": True, "canonical": "a"},
...         1: {"index": 1, "sound": False},
...         2: {"index": 2, "sound": True, "canonical": "a"},
...         3: {"index": 3, "sound": True, "canonical": "b"}}, 5)
[{'index': 0, 'sound': True, 'canonical': 'a'}, {'index': 3, 'sound': True, 'canonical': 'b'}]
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Hashable, Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

from gyges.parallel import ParametersError, ResultsFile, ResultsFileError
from gyges.puzzles.params import GenerateError, Params

__all__ = ["SOUND_KEYS", "StateError", "StateMismatch", "read_state", "select", "state_errors",
           "state_file", "state_path"]

#: The keys every sound record has (what its catalogue entry is written from).
SOUND_KEYS = ("canonical", "position", "key", "main_line", "features", "themes", "duals",
              "source")

Record = dict[str, Any]


class StateError(GenerateError):
    """A state file that cannot be resumed (one line: the file, the line, what is wrong)."""


class StateMismatch(StateError):
    """A state file made by a run with other parameters (``found``, at ``path``:``line``)."""

    def __init__(self, path: Path, line: int, found: Any) -> None:
        super().__init__(f"{path}:{line}: made by a run with other parameters "
                         f"({_in_words(found)})")
        self.path = path
        self.line = line
        self.found = found


def _in_words(found: Any) -> str:
    """A run's parameters as its command's options (``--stipulation 'win in 2' --rules
    pbmserv --seed 1``), or, for a record of another format, as ``key: value`` pairs.

    >>> _in_words({"format": 1, "seed": 3})
    'format: 1, seed: 3'
    """
    try:
        command = Params.from_json(found).command(0)
    except (KeyError, TypeError, ValueError, AttributeError):
        if isinstance(found, dict):
            return ", ".join(f"{k}: {json.dumps(v)}" for k, v in found.items())
        return json.dumps(found)
    return command.replace(" --count 0", "")


def state_path(out: str | Path) -> Path:
    """The state file of a run writing the catalogue ``out``, unless told otherwise:
    ``OUT.jsonl``.

    >>> str(state_path("my/puzzles.yaml"))
    'my/puzzles.yaml.jsonl'
    """
    out = Path(out)
    return out.with_name(out.name + ".jsonl")


def _check(record: Record) -> None:
    """A candidate's record: its index, and for a sound one what its entry is written from
    (ValueError if not)."""
    if type(record.get("index")) is not int or (
            record.get("sound") and not all(k in record for k in SOUND_KEYS)):
        raise ValueError("a JSON object with its index: a state file of 'gyges generate'?")


def _index(record: Record) -> Hashable:
    return record["index"]


def _params_of(record: Record) -> Any:
    return record.get("params")


def _as_json(params: Any) -> str:
    """Parameters as JSON text (read back by :func:`state_errors`)."""
    return json.dumps(params, sort_keys=True)


def state_file(path: str | Path, params: Params) -> ResultsFile:
    """The state file of a run with ``params``: its candidates' records by index, every one
    made with those parameters."""
    return ResultsFile(str(path), "a candidate's record", key=_index, check=_check,
                       params=params.to_json(), params_of=_params_of, describe=_as_json)


@contextlib.contextmanager
def state_errors() -> Iterator[None]:
    """The results file's errors inside the block as the state file's: a record made with
    other parameters is :class:`StateMismatch`, any other line that is not a candidate's
    record :class:`StateError`."""
    try:
        yield
    except ParametersError as e:
        raise StateMismatch(Path(e.path), e.line or 0, json.loads(e.found)) from None
    except ResultsFileError as e:
        raise StateError(str(e)) from None


def read_state(path: str | Path, params: Params) -> dict[int, Record]:
    """The records of an earlier run (by index); a truncated last line (an interrupted
    write) is dropped. A file made with other parameters is refused
    (:class:`StateMismatch`), as is a line that is not a candidate's record
    (:class:`StateError`). The file is not changed."""
    with state_errors():
        return {line.record["index"]: line.record
                for line in state_file(path, params).read().lines}


def select(records: Mapping[Any, Record], count: int,
           known: Iterable[str] = frozenset()) -> list[Record]:
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
