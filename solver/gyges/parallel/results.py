"""A results file: JSON Lines written by the client as results arrive, read back to resume.

One JSON object per line, keys sorted (:func:`dumps`), appended and flushed one at a time:
after an interruption at most the last line is cut short. A :class:`ResultsFile` says what
the records of one kind of file are (what to call them, the item each answers, a check of
each record, the parameters a run stores in every record) and reads them:

- a last line without its newline is kept when it is a whole record, and dropped when it
  is a record cut short (with ``repair``, the file is mended: the newline added, or the
  cut line removed, so that the next record starts on a line of its own);
- any other line that is not a record is an error naming the file and the line
  (:class:`ResultsFileError`), as is a record made with other parameters
  (:class:`ParametersError`, with both sets of parameters).

>>> import os, tempfile
>>> p = os.path.join(tempfile.mkdtemp(), "r.jsonl")
>>> with open(p, "w") as f:
...     _ = f.write('{"n": 1, "depth": 2}\\n{"n": 2, "depth": 2}\\n{"n"')
>>> spec = ResultsFile(p, "a test record", key=lambda r: r["n"],
...                    params_of=lambda r: r["depth"], params=2)
>>> [(line.number, line.key) for line in spec.read(repair=True).lines]
[(1, 1), (2, 2)]
>>> open(p).read()
'{"n": 1, "depth": 2}\\n{"n": 2, "depth": 2}\\n'
>>> ResultsFile(p, "a test record", params_of=lambda r: r["depth"], params=3,
...             describe=lambda d: f"depth {d}").read()  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
gyges.parallel.results.ParametersError: ...:1: made with other parameters (depth 2, not depth 3)...
"""

from __future__ import annotations

import dataclasses
import json
import os
import stat
from collections.abc import Callable, Hashable
from typing import Any

__all__ = ["MAX_RESULTS_BYTES", "ParametersError", "Results", "ResultsFile", "ResultsFileError",
           "ResultsLine", "dumps", "first_record", "read_jsonl"]

Record = dict[str, Any]

#: The largest results file read back (a run's records: 256 MiB, about a million games); a
#: larger one, or one that is no regular file (a device such as /dev/zero), is refused
#: before it is read whole.
MAX_RESULTS_BYTES = 256 << 20
_UNSET: Any = object()   # no parameters seen yet


class ResultsFileError(ValueError):
    """A results file that cannot be read: ``str()`` is ``file:line: what is wrong`` (or
    ``file: what is wrong`` for the file as a whole)."""

    def __init__(self, path: str, line: int | None, problem: str) -> None:
        self.path = path
        self.line = line
        self.problem = problem
        super().__init__(f"{path}:{line}: {problem}" if line else f"{path}: {problem}")


class ParametersError(ResultsFileError):
    """A record made by a run with other parameters than the run reading it: ``found``
    (the record's) and ``wanted`` (the run's). Its text says to rerun with the record's
    parameters; a command adds how to name another file instead."""

    def __init__(self, path: str, line: int, found: str, wanted: str) -> None:
        self.found = found
        self.wanted = wanted
        super().__init__(path, line, f"made with other parameters ({found}, not {wanted}): "
                                     "rerun with those to resume it")


def dumps(record: Record) -> str:
    """One JSONL line (keys sorted, compact), without the newline.

    >>> dumps({"b": [1, 2], "a": None})
    '{"a":null,"b":[1,2]}'
    """
    return json.dumps(record, sort_keys=True, separators=(",", ":"))


@dataclasses.dataclass(frozen=True)
class ResultsLine:
    """One record of a results file: its line number, the record, the item it answers, and
    the record as its kind's value (what the file's ``check`` returned: a typed record's
    ``from_json``; the JSON object itself where the file has no check)."""

    number: int
    record: Record
    key: Hashable
    value: Any = None


@dataclasses.dataclass(frozen=True)
class Results:
    """What a results file holds: its records in file order, and the parameters they were
    made with (None when the file has no records, or its kind stores none)."""

    lines: tuple[ResultsLine, ...]
    params: Any = None

    def by_key(self) -> dict[Hashable, Record]:
        """The records by the item they answer (a later line wins over an earlier one)."""
        return {line.key: line.record for line in self.lines}

    def values(self) -> dict[Hashable, Any]:
        """The typed records (:attr:`ResultsLine.value`) by the item they answer (a later line
        wins over an earlier one)."""
        return {line.key: line.value for line in self.lines}


@dataclasses.dataclass(frozen=True)
class ResultsFile:
    """A results file of one kind, and how to read it.

    ``what`` names a record in messages (``"a solve record"``); ``key`` gives the item a
    record answers (default: its line number); ``check`` reads a record as its kind's value
    (a frozen dataclass's ``from_json``; kept as :attr:`ResultsLine.value`), raising ``KeyError``
    (a missing key) or ``ValueError`` for a record that is not of this kind. ``params_of`` gives the
    parameters stored in a record; every record must carry ``params`` (when given), or else
    all the same ones as the first; ``describe`` words parameters for messages (with
    ``differences``, parameters that are a dict are worded by the keys that differ only).
    """

    path: str
    what: str = "a results record"
    key: Callable[[Record], Hashable] | None = None
    check: Callable[[Record], object] | None = None
    params: Any = None
    params_of: Callable[[Record], Any] | None = None
    describe: Callable[[Any], str] = str
    differences: bool = False

    def read(self, repair: bool = False) -> Results:
        """The records of the file (none when it does not exist).

        A last line without its newline is kept if it is a whole record and dropped if it
        was cut short; ``repair`` mends the file so that records can be appended to it, once
        every line has been read without error (a file this run may not extend is never
        touched). Raises :class:`ResultsFileError` (or :class:`ParametersError`) at the
        first line that is not a record of this kind, or was made with other parameters.
        """
        try:
            with open(self.path, "rb") as f:
                if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):
                    raise ResultsFileError(self.path, None, "is not a regular file (a "
                                           "device, a pipe or a socket): give a file name")
                data = f.read(MAX_RESULTS_BYTES + 1)
        except FileNotFoundError:
            return Results(())
        except IsADirectoryError:
            raise ResultsFileError(self.path, None, "is a directory: give a file name"
                                   ) from None
        except OSError as e:
            raise ResultsFileError(self.path, None, f"cannot read it: {e.strerror}") from None
        if len(data) > MAX_RESULTS_BYTES:
            raise ResultsFileError(self.path, None, f"larger than {MAX_RESULTS_BYTES >> 20} "
                                   "MiB: not a results file this program reads back")
        raws = data.split(b"\n")
        tail = raws.pop()
        mend = b""            # what repair appends; or the length to cut the file to
        cut: int | None = None
        if tail.strip():
            if self._whole(tail):
                raws.append(tail)
                mend = b"\n"
            elif tail.lstrip().startswith(b"{"):
                cut = len(data) - len(tail)     # a record cut short: dropped
            else:
                raws.append(tail)               # not a record at all: reported below
        elif tail:
            cut = len(data) - len(tail)         # spaces after the last newline
        lines = []
        found = self.params if self.params is not None else _UNSET
        for number, raw in enumerate(raws, 1):
            if not raw.strip():
                continue
            record, value, key, params = self._parse(raw, number)
            if self.params_of is not None:
                if found is _UNSET:
                    found = params
                elif params != found:
                    raise self._mismatch(number, params, found)
            lines.append(ResultsLine(number, record, key, value))
        if repair and mend:
            with open(self.path, "ab") as f:
                f.write(mend)
        elif repair and cut is not None:
            with open(self.path, "r+b") as f:
                f.truncate(cut)
        return Results(tuple(lines), found if lines and found is not _UNSET else self.params)

    @staticmethod
    def _whole(raw: bytes) -> bool:
        try:
            return isinstance(_json(raw), dict)
        except ValueError:
            return False

    def _parse(self, raw: bytes, number: int) -> tuple[Record, Any, Hashable, Any]:
        """The record on one line, its value, key and parameters; ResultsFileError if it is
        not a record of this kind."""
        try:
            record = _json(raw)
            if not isinstance(record, dict):
                raise ValueError("not a JSON object")
            value = self.check(record) if self.check is not None else record
            key = self.key(record) if self.key is not None else number
            params = self.params_of(record) if self.params_of is not None else None
        except KeyError as e:
            raise ResultsFileError(self.path, number, f"not {self.what} (no {e} key)"
                                   ) from None
        except (ValueError, TypeError) as e:
            raise ResultsFileError(self.path, number, f"not {self.what} ({e})") from None
        return record, value, key, params

    def _mismatch(self, number: int, params: Any, found: Any) -> ResultsFileError:
        if self.differences and isinstance(params, dict) and isinstance(found, dict):
            keys = [k for k in params if params[k] != found.get(k)]
            keys += [k for k in found if k not in params]
            params = {k: params[k] for k in keys if k in params}
            found = {k: found[k] for k in keys if k in found}
        if self.params is not None:
            return ParametersError(self.path, number, self.describe(params),
                                   self.describe(found))
        return ResultsFileError(
            self.path, number, f"made with {self.describe(params)}, but the lines before "
            f"with {self.describe(found)}: one file holds the records of one run")


def _json(raw: bytes) -> Any:
    """The JSON value of one line; ValueError in words (``not JSON: ...``, never the
    decoder's own ``Expecting value: line 1 column 1 (char 0)``)."""
    try:
        return json.loads(raw)
    except RecursionError:
        raise ValueError("JSON nested too deeply") from None
    except UnicodeDecodeError:
        raise ValueError("not UTF-8 text") from None
    except json.JSONDecodeError as e:
        raise ValueError(f"not JSON: {e.msg.lower()} at character {e.pos + 1}") from None


def first_record(path: str) -> dict[str, Any] | None:
    """The JSON object on the first line of the file at ``path`` (its first MiB), or None
    when that line is not one: what tells one kind of results file from another before
    the file is read whole.

    >>> import tempfile
    >>> with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False) as f:
    ...     _ = f.write('{"game": 1}\\nnot json\\n')
    >>> first_record(f.name)
    {'game': 1}
    """
    with open(path, "rb") as f:
        first = f.readline(1 << 20)
    try:
        record = json.loads(first)
    except ValueError:
        return None
    return record if isinstance(record, dict) else None


def read_jsonl(path: str, repair: bool = False, what: str = "a results record"
               ) -> list[tuple[int, Record]]:
    """``(line number, object)`` for each record of the file: :meth:`ResultsFile.read`
    without checks.

    >>> import os, tempfile
    >>> p = os.path.join(tempfile.mkdtemp(), "r.jsonl")
    >>> with open(p, "w") as f:
    ...     _ = f.write('{"a": 1}\\n{"a": 2}\\n{"a"')
    >>> read_jsonl(p, repair=True)
    [(1, {'a': 1}), (2, {'a': 2})]
    """
    return [(line.number, line.record)
            for line in ResultsFile(path, what).read(repair).lines]
