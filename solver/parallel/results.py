"""A results file: JSON Lines written by the client as results arrive, read back to resume.

One JSON object per line, appended and flushed one at a time: after an interruption at
most the last line is cut short, and :func:`read_jsonl` drops it (and, asked to repair,
cuts it from the file so the next run appends cleanly).

>>> import os, tempfile
>>> d = tempfile.mkdtemp(); p = os.path.join(d, "r.jsonl")
>>> with open(p, "w") as f:
...     _ = f.write('{"a": 1}\\n{"a": 2}\\n{"a"')
>>> read_jsonl(p, repair=True)
[(1, {'a': 1}), (2, {'a': 2})]
>>> open(p).read()
'{"a": 1}\\n{"a": 2}\\n'
"""

from __future__ import annotations

import json
from typing import Any

__all__ = ["ResultsFileError", "dumps", "read_jsonl"]


class ResultsFileError(ValueError):
    """A results file that cannot be read: ``file, line N: what is wrong``."""


def dumps(record: dict[str, Any]) -> str:
    """One JSONL line (keys sorted, compact), without the newline."""
    return json.dumps(record, sort_keys=True, separators=(",", ":"))


def read_jsonl(path: str, repair: bool = False, what: str = "a results record"
               ) -> list[tuple[int, dict[str, Any]]]:
    """``(line number, object)`` for each line of the file (none if it does not exist).

    A last line without its newline was cut short by an interruption: it is dropped (with
    ``repair``, also cut from the file). Any other line that is not a JSON object raises
    :class:`ResultsFileError` naming the line.
    """
    try:
        with open(path, "rb") as f:
            data = f.read()
    except FileNotFoundError:
        return []
    except IsADirectoryError:
        raise ResultsFileError(f"{path} is a directory: give a file name") from None
    except OSError as e:
        raise ResultsFileError(f"{path}: cannot read it: {e.strerror}") from None
    lines = data.split(b"\n")
    keep = len(data) - len(lines[-1])
    out = []
    for i, raw in enumerate(lines[:-1], 1):
        if not raw.strip():
            continue
        try:
            obj = json.loads(raw)
        except ValueError as e:
            raise ResultsFileError(f"{path}, line {i}: not {what} ({e})") from None
        if not isinstance(obj, dict):
            raise ResultsFileError(f"{path}, line {i}: not {what} (not an object)")
        out.append((i, obj))
    if repair and keep != len(data):
        with open(path, "r+b") as f:
            f.truncate(keep)
    return out
