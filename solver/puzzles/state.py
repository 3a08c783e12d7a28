"""The state file of a generation run: one JSON line per judged candidate (its record, from
:func:`~gyges.puzzles.judging.evaluate`, with the run's parameters), read back to resume
(:func:`read_state`), and the puzzles a run keeps from its records (:func:`select`).

>>> select({0: {"index": 0, "sound": True, "canonical": "a"},
...         1: {"index": 1, "sound": False},
...         2: {"index": 2, "sound": True, "canonical": "a"},
...         3: {"index": 3, "sound": True, "canonical": "b"}}, 5)
[{'index': 0, 'sound': True, 'canonical': 'a'}, {'index': 3, 'sound': True, 'canonical': 'b'}]
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from gyges.puzzles.params import GenerateError, Params

__all__ = ["SOUND_KEYS", "StateError", "StateMismatch", "read_state", "repair", "select"]

#: The keys every sound record has (what its catalogue entry is written from).
SOUND_KEYS = ("canonical", "position", "key", "main_line", "features", "themes", "duals",
              "source")


class StateError(GenerateError):
    """A state file that cannot be resumed (one line: the file, the line, what is wrong)."""


class StateMismatch(StateError):
    """A state file made by a run with other parameters (``found``, at ``path``:``line``)."""

    def __init__(self, path: Path, line: int, found: Any) -> None:
        super().__init__(f"{path}:{line}: made by a run with other parameters ({found})")
        self.path = path
        self.line = line
        self.found = found


def read_state(path: str | Path, params: Params) -> dict[int, dict[str, Any]]:
    """The records of an earlier run (by index); a truncated last line (an interrupted
    write) is dropped. A file made with other parameters is refused
    (:class:`StateMismatch`)."""
    path = Path(path)
    if not path.exists():
        return {}
    out: dict[int, dict[str, Any]] = {}
    wanted = params.to_json()
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except UnicodeDecodeError:
        raise StateError(f"{path}: not a state file of 'gyges generate' (not UTF-8 "
                         "text)") from None
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            rec = json.loads(line)
            if not isinstance(rec, dict) or type(rec.get("index")) is not int or (
                    rec.get("sound") and not all(k in rec for k in SOUND_KEYS)):
                raise ValueError("not a candidate's record")
        except ValueError:   # JSONDecodeError too
            if n == len(lines) and not line.endswith("}"):
                continue     # cut short by an interruption
            raise StateError(f"{path}:{n}: not a candidate's record (a JSON object with "
                             "its index): a state file of 'gyges generate'?") from None
        if rec.get("params") != wanted:
            raise StateMismatch(path, n, rec.get("params"))
        out[rec["index"]] = rec
    return out


def repair(path: Path) -> None:
    """Cut a half-written last line so appending starts on a fresh line."""
    if path.exists():
        data = path.read_bytes()
        if data and not data.endswith(b"\n"):
            path.write_bytes(data[: data.rfind(b"\n") + 1])


def select(records: dict[int, dict[str, Any]], count: int,
           known: Iterable[str] = frozenset()) -> list[dict[str, Any]]:
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
