"""Solving many positions: a position list in, one JSON line per position out, resumable.

:func:`solve_many` is the whole of ``gyges solve FILE`` below the command line: the list's
entries (with its bad lines, refused under ``strict``) get their rules and bound, each
distinct question is solved once on the resumable run (:func:`gyges.parallel.run_tasks`: the
local pool or Dask, each record appended to the output file as it arrives, a rerun
skipping what the file holds), and the answer is a :class:`SolvedList`: its table, its
JSON lines and its notes. A record depends only on its entry and the options, never on
the backend or the number of workers (each position is solved by one process,
``jobs=1``).

>>> from gyges.game.rules import PRESETS
>>> from gyges.game.position import Position
>>> e = PositionListEntry(1, Position.from_string("....../3...../..1.1./1.23.3/3.22.1/....2. N"),
...                       PRESETS["pbmserv"], 2)
>>> r = solve_entry(e)
>>> r["result"], r["moves"], r["keys"], r["line"]
('win', 1, ['51-43-33-31-21-S'], 1)
"""

from __future__ import annotations

import dataclasses
import functools
import json
import logging
from collections.abc import Callable, Sequence
from typing import Any, TextIO

from gyges.formats.inputs import Positions
from gyges.formats.poslist import PositionListEntry, PositionListError
from gyges.formats.quoting import counted
from gyges.game.rules import PRESETS, RuleSet
from gyges.parallel import ResultsFile, RunEvent, RunSummary, run_tasks
from gyges.search import DUALS_UP_TO, solve

__all__ = ["SOLVE_FORMAT", "EntryKey", "SolveListError", "SolveRecord", "SolvedList", "read_solved",
           "solve_entry", "solve_file", "solve_many", "solve_results_file", "summary_table"]

SOLVE_FORMAT = 1  #: version of the record layout
_LOG = logging.getLogger("gyges.solve")


class SolveListError(ValueError):
    """A position list that is not solved: ``source: what is wrong``. ``bad`` counts the
    bad lines that refused it (0: it has no positions at all)."""

    def __init__(self, source: str, problem: str, bad: int = 0) -> None:
        self.source = source
        self.problem = problem
        self.bad = bad
        super().__init__(f"{source}: {problem}")


@dataclasses.dataclass(frozen=True)
class EntryKey:
    """What makes two entries the same question, and what a record answers: the position,
    the rules (``RuleSet.describe()``), the bound, the history and the previous position,
    in their text forms. An entry's and its record's are equal.

    >>> from gyges.game.rules import PRESETS
    >>> from gyges.game.position import Position
    >>> p = Position.from_string("321123/....../....../....../....../231123 S")
    >>> e = PositionListEntry(3, p, PRESETS["pbmserv"], 2)
    >>> EntryKey.of(e) == SolveRecord.from_json(solve_entry(e)).question
    True
    """

    position: str
    rules: str
    max_moves: int
    history: tuple[str, ...] = ()
    previous: str | None = None

    @classmethod
    def of(cls, entry: PositionListEntry) -> EntryKey:
        """The question of a list entry whose rules and bound are filled in."""
        assert entry.rules is not None and entry.max_moves is not None
        return cls(str(entry.position), entry.rules.describe(), entry.max_moves,
                   tuple(str(p) for p in entry.history),
                   str(entry.previous) if entry.previous is not None else None)


#: A record's keys that every record has, with their JSON types.
_REQUIRED: dict[str, type | tuple[type, ...]] = {
    "format": int, "line": int, "position": str, "rules": str, "max_moves": int,
    "options": dict, "nodes": int, "result": str, "moves": (int, type(None)),
    "winner": (str, type(None)), "keys": list, "cook": bool,
    "stoppable": (bool, type(None)),
}
#: The keys some records have: ``id``, ``history``/``previous``, and those of the options.
_OPTIONAL: dict[str, type | tuple[type, ...]] = {
    "id": str, "history": list, "previous": str, "tree": dict, "main_line": list,
    "tries": list,
}


@dataclasses.dataclass(frozen=True)
class SolveRecord:
    """One line of a ``gyges solve FILE --out`` file: the question (:class:`EntryKey`) and
    the solver's verdict, read by :meth:`from_json` (which says what is wrong with a line
    that is not one) and written by :meth:`to_json`, key for key (see :func:`solve_entry`).
    """

    data: dict[str, Any]
    question: EntryKey

    @classmethod
    def from_json(cls, data: Any) -> SolveRecord:
        if not isinstance(data, dict):
            raise ValueError("not a JSON object")
        for key, kind in _REQUIRED.items():
            if key not in data:
                raise KeyError(key)
            if not isinstance(data[key], kind) or (kind is int and isinstance(data[key], bool)):
                raise ValueError(f"{key} is {data[key]!r}")
        for key, kind in _OPTIONAL.items():
            if key in data and not isinstance(data[key], kind):
                raise ValueError(f"{key} is {data[key]!r}")
        if data["format"] != SOLVE_FORMAT:
            raise ValueError(f"record format {data['format']}, this program writes {SOLVE_FORMAT}")
        if data["result"] not in ("win", "loss", "none"):
            raise ValueError(f"result is {data['result']!r}")
        history = data.get("history", [])
        if not all(isinstance(p, str) for p in history):
            raise ValueError("history is not a list of position strings")
        return cls(dict(data), EntryKey(data["position"], data["rules"], data["max_moves"],
                                        tuple(history), data.get("previous")))

    def to_json(self) -> dict[str, Any]:
        return dict(self.data)


def _options(tree: bool, tries: bool, duals: int) -> dict[str, Any]:
    return {"tree": tree, "tries": tries, "duals": duals if tree else None}


def solve_entry(entry: PositionListEntry, *, tree: bool = False, tries: bool = False,
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
        "format": SOLVE_FORMAT, "line": entry.line, "position": str(entry.position),
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


def solve_results_file(path: str, options: dict[str, Any]) -> ResultsFile:
    """The output file of a run with ``options`` (``{"tree", "tries", "duals"}``, as in
    every record): records keyed by :func:`record_key`; a record made with other options
    is refused."""
    return ResultsFile(path, "a solve record", check=SolveRecord.from_json,
                       key=lambda record: SolveRecord.from_json(record).question,
                       params=options, params_of=lambda record: record["options"],
                       describe=_options_text)


def _options_text(options: dict[str, Any]) -> str:
    """A run's options in words (not a Python dict), for a message about a results file.

    >>> _options_text({"tree": True, "tries": False, "duals": None})
    'the tree'
    >>> _options_text({"tree": False, "tries": True, "duals": 3})
    'tries, duals up to 3'
    >>> _options_text({"tree": False, "tries": False, "duals": None})
    'no tree, tries or duals'
    """
    words = {"tree": "the tree", "tries": "tries", "duals": "duals up to {}"}
    given = [words.get(name, name).format(value) for name, value in options.items()
             if value not in (None, False)]
    return ", ".join(given) if given else "no tree, tries or duals"


def read_solved(path: str, options: dict[str, Any], repair: bool = False
                ) -> dict[EntryKey, SolveRecord]:
    """The records already in an output file, by their :class:`EntryKey`; records made
    with other options are refused (:class:`~gyges.parallel.ParametersError`)."""
    return solve_results_file(path, options).read(repair).values()  # type: ignore[return-value]


@dataclasses.dataclass(frozen=True)
class SolvedList:
    """The answer to a position list: one record per distinct question, in list order
    (None where not solved: an interrupted run), what the run did, the bad lines."""

    entries: tuple[PositionListEntry, ...]
    records: tuple[dict[str, Any] | None, ...]
    run: RunSummary
    out: str | None = None
    bad: tuple[PositionListError, ...] = ()

    @property
    def interrupted(self) -> bool:
        return self.run.interrupted

    def table(self) -> str:
        """One row per distinct position, then the totals (:func:`summary_table`)."""
        return summary_table(self.entries, self.records)

    def json_lines(self) -> list[str]:
        """The records, one JSON text each (keys sorted)."""
        return [json.dumps(rec, sort_keys=True) for rec in self.records if rec is not None]

    def notes(self) -> list[str]:
        """What the table does not say: records taken from the output file, entries
        solved once for several lines, bad lines skipped."""
        notes = []
        if self.run.skipped:
            notes.append(f"{self.run.skipped} already in {self.out}")
        if self.run.duplicates:
            notes.append(f"{counted(self.run.duplicates, 'duplicate entry', 'duplicate entries')}"
                         " solved once")
        if self.bad:
            notes.append(f"{len(self.bad)} bad line{'s' if len(self.bad) != 1 else ''} skipped")
        return notes


def _log_text(record: dict[str, Any]) -> str:
    return f"line {record['line']}: {record['result']}"


def solve_many(
    entries: Sequence[PositionListEntry],
    out: str | None = None,
    *,
    source: str = "<position list>",
    bad: Sequence[PositionListError] = (),
    strict: bool = False,
    max_moves: int = 3,
    rules_for: Callable[[RuleSet | None], RuleSet] | None = None,
    tree: bool = False,
    tries: bool = False,
    duals: int = DUALS_UP_TO,
    prover: str = "auto",
    scheduler: str | None = None,
    jobs: int | None = None,
    progress: TextIO | None = None,
    log: str | None = None,
    watch: Callable[[RunEvent], None] | None = None,
) -> SolvedList:
    """Solve the entries of the position list ``source`` (its ``bad`` lines already
    found); write one record per distinct question to ``out``, resumably.

    An entry's own rules and bound win; ``rules_for(rules)`` gives the rules in force for
    an entry whose list gives ``rules`` (None: not given; default: the entry's own, else
    pbmserv), ``max_moves`` the bound of an entry that gives none. With ``strict`` a bad
    line refuses the whole list (:class:`SolveListError`) before anything is solved, as
    does a list without positions. The run is :func:`gyges.parallel.run_tasks` (``scheduler``,
    ``jobs``, ``progress``: a bar on that stream, ``log``, ``watch``); Ctrl-C or SIGTERM
    stops it and keeps every record written (``SolvedList.interrupted``).
    """
    if bad and strict:
        raise SolveListError(source, f"{len(bad)} bad line{'s' if len(bad) != 1 else ''}: "
                                     "nothing solved", len(bad))
    if not entries:
        raise SolveListError(source, "no positions to solve")
    filled = [dataclasses.replace(
        e, rules=rules_for(e.rules) if rules_for is not None else e.rules or PRESETS["pbmserv"],
        max_moves=e.max_moves or max_moves) for e in entries]
    options = _options(tree, tries, duals)
    summary = run_tasks(
        functools.partial(solve_entry, tree=tree, tries=tries, duals=duals, prover=prover),
        filled, key=EntryKey.of,
        results=solve_results_file(out, options) if out is not None else None,
        scheduler=scheduler, jobs=jobs, progress=progress, unit="positions", watch=watch,
        log=log, logger=_LOG, describe=_log_text)
    first: dict[EntryKey, PositionListEntry] = {}
    for e in filled:
        first.setdefault(EntryKey.of(e), e)
    return SolvedList(tuple(first.values()), tuple(summary.records.get(k) for k in first),
                      summary, out, tuple(bad))


def solve_file(given: Positions, out: str | None = None, *, strict: bool = False,
               rules_for: Callable[[RuleSet | None], RuleSet] | None = None,
               **options: Any) -> SolvedList:
    """:func:`solve_many` of what :func:`~gyges.formats.inputs.load_positions` read: a
    position list, or one position (solved as a one-entry list, to write ``out``). Its bad
    lines come with it (:attr:`SolvedList.bad`); ``options`` are :func:`solve_many`'s."""
    return solve_many(given.entries, out, source=given.source, bad=given.bad, strict=strict,
                      rules_for=rules_for, **options)


def _verdict(rec: dict[str, Any]) -> str:
    if rec["result"] == "win":
        return f"wins in {rec['moves']}"
    if rec["result"] == "loss":
        return f"loses in {rec['moves']}"
    return f"none within {rec['max_moves']}"


def summary_table(entries: Sequence[PositionListEntry],
                  records: Sequence[dict[str, Any] | None]) -> str:
    """A table, one row per position (line, side to move, verdict, keys), then totals.

    >>> from gyges.game.rules import PRESETS
    >>> from gyges.game.position import Position
    >>> p = Position.from_string("....../3...../..1.1./1.23.3/3.22.1/....2. N")
    >>> e = PositionListEntry(4, p, PRESETS["pbmserv"], 2)
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

