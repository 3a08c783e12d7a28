"""Solving many positions: a position list in, one JSON line per position out, resumable.

:func:`solve_many` sends each :class:`~gyges.formats.poslist.Entry` (rules and bound
filled in) to an executor (:func:`gyges.parallel.open_executor`: the local pool or Dask),
and writes each record to the output file as it arrives. The file is the record of what is
done: a rerun with the same file skips every position already there (a last line cut short
is rewritten). A record depends only on its entry and the options, never on the backend or
the number of workers (each position is solved by one process, ``jobs=1``).

>>> from gyges.game.rules import PRESETS
>>> from gyges.game.position import Position
>>> e = Entry(1, Position.from_string("....../3...../..1.1./1.23.3/3.22.1/....2. N"),
...           PRESETS["pbmserv"], 2)
>>> r = solve_entry(e)
>>> r["result"], r["moves"], r["keys"], r["line"]
('win', 1, ['51-43-33-31-21-S'], 1)
"""

from __future__ import annotations

import functools
import logging
import os
import socket
import time
from collections.abc import Callable, Sequence
from typing import Any, TextIO

from gyges.formats.poslist import Entry
from gyges.parallel import Interrupted, Progress, log_to, open_executor
from gyges.parallel.results import ResultsFileError, dumps, read_jsonl
from gyges.search.prover import DUALS_UP_TO, solve

__all__ = ["FORMAT", "SolveFileError", "entry_key", "read_solved", "solve_entry", "solve_many",
           "summary_table"]

FORMAT = 1  #: version of the record layout
LOG = logging.getLogger("gyges.solve")


class SolveFileError(ValueError):
    """An output file that cannot be resumed (other options, not a solve record)."""


def entry_key(entry: Entry) -> str:
    """What makes two entries the same question: position, rules, bound, history."""
    assert entry.rules is not None and entry.max_moves is not None
    hist = ",".join(str(p) for p in entry.history)
    prev = str(entry.previous) if entry.previous is not None else ""
    return f"{entry.position}|{entry.rules.describe()}|{entry.max_moves}|{hist}|{prev}"


def _options(tree: bool, tries: bool, duals: int) -> dict[str, Any]:
    return {"tree": tree, "tries": tries, "duals": duals if tree else None}


def solve_entry(entry: Entry, *, tree: bool = False, tries: bool = False,
                duals: int = DUALS_UP_TO, prover: str = "auto") -> dict[str, Any]:
    """The record of one entry: the solver's verdict, as one JSON-ready object.

    Keys: ``line``, ``id`` (when the list gives one), ``position``, ``rules``
    (``RuleSet.describe()``), ``max_moves``, ``history``/``previous`` (when given),
    ``result`` (win/loss/none), ``moves``, ``winner``, ``keys``, ``cook``, ``stoppable``,
    ``nodes`` (positions searched), ``options``, ``format``; with ``tree`` also ``tree``
    and ``main_line``, with ``tries`` also ``tries``. Nothing in it depends on timing;
    only ``nodes`` depends on the ``prover``.
    """
    assert entry.rules is not None and entry.max_moves is not None
    sol = solve(entry.position, entry.rules, entry.max_moves, entry.history, tries=tries,
                jobs=1, previous=entry.previous, tree=tree, duals=duals, prover=prover)
    full = sol.to_json()
    record: dict[str, Any] = {
        "format": FORMAT, "line": entry.line, "position": str(entry.position),
        "rules": entry.rules.describe(), "max_moves": entry.max_moves,
        "options": _options(tree, tries, duals),
        "nodes": sol.stats.nodes,
    }
    for key in ("result", "moves", "winner", "keys", "cook", "stoppable"):
        record[key] = full[key]
    if entry.id is not None:
        record["id"] = entry.id
    if entry.history:
        record["history"] = [str(p) for p in entry.history]
    if entry.previous is not None:
        record["previous"] = str(entry.previous)
    if tree:
        record["tree"] = full["tree"]
        record["main_line"] = full["main_line"]
    if tries:
        record["tries"] = full["tries"]
    return record


def _task(entry: Entry, **options: Any) -> dict[str, Any]:
    t = time.perf_counter()
    record = solve_entry(entry, **options)
    return {"record": record, "seconds": time.perf_counter() - t,
            "worker": f"{socket.gethostname()} pid {os.getpid()}"}


def _record_key(rec: dict[str, Any]) -> str:
    hist = ",".join(rec.get("history", ()))
    return (f"{rec['position']}|{rec['rules']}|{rec['max_moves']}|{hist}|"
            f"{rec.get('previous', '')}")


def read_solved(path: str, options: dict[str, Any], repair: bool = False
                ) -> dict[str, dict[str, Any]]:
    """The records already in an output file, by :func:`entry_key`; records made with
    other options are refused."""
    try:
        lines = read_jsonl(path, repair=repair, what="a solve record")
    except ResultsFileError as e:
        raise SolveFileError(str(e)) from None
    out: dict[str, dict[str, Any]] = {}
    for i, rec in lines:
        try:
            key = _record_key(rec)
            found = rec["options"]
        except (KeyError, TypeError) as e:
            raise SolveFileError(f"{path}, line {i}: not a solve record (no {e} key)") from None
        if found != options:
            raise SolveFileError(
                f"{path}, line {i}: made with options {found}, not {options}: rerun with "
                "the same options to resume it, or choose another --out")
        out[key] = rec
    return out


def solve_many(
    entries: Sequence[Entry],
    out: str | None = None,
    *,
    tree: bool = False,
    tries: bool = False,
    duals: int = DUALS_UP_TO,
    prover: str = "auto",
    scheduler: str | None = None,
    jobs: int | None = None,
    progress: TextIO | None = None,
    log: str | None = None,
    on_result: Callable[[dict], None] | None = None,
) -> dict[str, Any]:
    """Solve every entry (rules and max_moves filled in); write records to ``out``.

    Returns ``{"records": one per distinct entry in file order (None where not solved),
    "done": solved now, "skipped": found in ``out``, "duplicates": entries asking the same
    question as an earlier one, "interrupted": bool}``. Ctrl-C or SIGTERM stops the run
    and keeps every line written.
    """
    options = _options(tree, tries, duals)
    have = read_solved(out, options, repair=True) if out is not None else {}
    keys = [entry_key(e) for e in entries]
    first: dict[str, Entry] = {}
    for k, e in zip(keys, entries, strict=True):
        first.setdefault(k, e)
    todo = [e for k, e in first.items() if k not in have]
    results: dict[str, dict[str, Any]] = {k: have[k] for k in first if k in have}
    summary: dict[str, Any] = {"done": 0, "skipped": len(first) - len(todo),
                               "duplicates": len(entries) - len(first), "interrupted": False}
    summary["records"] = [results.get(k) for k in first]
    summary["entries"] = list(first.values())
    if not todo:
        return summary
    bar = None
    work = functools.partial(_task, tree=tree, tries=tries, duals=duals, prover=prover)
    executor = open_executor(scheduler, jobs if len(todo) > 1 or scheduler else 1)
    f = open(out, "a", encoding="utf-8") if out is not None else None  # noqa: SIM115
    try:
        with log_to(log, LOG), executor as ex:
            LOG.info("solving %d positions (%d already done) on %s", len(todo),
                     summary["skipped"], ex.name)
            if progress is not None and todo:
                bar = Progress(len(todo), progress, unit="positions")
            for done in ex.map_unordered(work, todo):
                rec = done["record"]
                if f is not None:
                    f.write(dumps(rec) + "\n")
                    f.flush()
                results[_record_key(rec)] = rec
                summary["done"] += 1
                LOG.info("%s: line %d: %s in %.3f s", done["worker"], rec["line"],
                         rec["result"], done["seconds"])
                if on_result is not None:
                    on_result(rec)
                if bar is not None:
                    bar.update()
    except Interrupted:
        summary["interrupted"] = True
        LOG.warning("interrupted after %d new results", summary["done"])
    finally:
        if bar is not None:
            bar.close()
        if f is not None:
            f.close()
    summary["records"] = [results.get(k) for k in first]
    summary["entries"] = list(first.values())
    return summary


def _verdict(rec: dict[str, Any]) -> str:
    if rec["result"] == "win":
        return f"wins in {rec['moves']}"
    if rec["result"] == "loss":
        return f"loses in {rec['moves']}"
    return f"none within {rec['max_moves']}"


def summary_table(entries: Sequence[Entry], records: Sequence[dict[str, Any] | None]) -> str:
    """A table, one row per position (line, side to move, verdict, keys), then totals.

    >>> from gyges.game.rules import PRESETS
    >>> from gyges.game.position import Position
    >>> e = Entry(4, Position.from_string("....../3...../..1.1./1.23.3/3.22.1/....2. N"),
    ...           PRESETS["pbmserv"], 2)
    >>> print(summary_table([e], [solve_entry(e)]))
    line  to move  result     keys
       4  North    wins in 1  51-43-33-31-21-S
    1 position: 1 win, 0 losses, 0 without a forced result within the bound
    """
    rows = [("line", "to move", "result", "keys")]
    wins = losses = nones = missing = 0
    for e, rec in zip(entries, records, strict=True):
        label = f"{e.line}" if e.id is None else f"{e.line} {e.id}"
        if rec is None:
            missing += 1
            rows.append((label, e.position.turn.title, "(not solved)", ""))
            continue
        wins += rec["result"] == "win"
        losses += rec["result"] == "loss"
        nones += rec["result"] == "none"
        keys = " ".join(rec["keys"]) if len(rec["keys"]) <= 3 else \
            f"{' '.join(rec['keys'][:3])} (+{len(rec['keys']) - 3} cooks)"
        rows.append((label, e.position.turn.title, _verdict(rec), keys))
    widths = [max(len(r[i]) for r in rows) for i in range(3)]
    lines = []
    for i, r in enumerate(rows):
        first = r[0].rjust(widths[0]) if i else r[0].ljust(widths[0])
        lines.append(f"{first}  {r[1].ljust(widths[1])}  {r[2].ljust(widths[2])}  "
                     f"{r[3]}".rstrip())
    n = len(entries)
    total = (f"{n} position{'s' if n != 1 else ''}: {wins} win{'s' if wins != 1 else ''}, "
             f"{losses} loss{'es' if losses != 1 else ''}, {nones} without a forced result "
             "within the bound")
    if missing:
        total += f", {missing} not solved"
    lines.append(total)
    return "\n".join(lines)

