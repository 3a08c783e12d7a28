"""Batch analysis of opening setup pairs: parallel, streamed to JSON Lines, resumable.

Each setup pair gives one start position, South to move (seed 000: South sets up first and
moves first). :func:`analyse_pair` computes its figures; :func:`run` sends one task per
pair to an executor (:func:`gyges.parallel.open_executor`: the local process pool, or a
Dask cluster) and appends one JSON object per line (keys sorted) to the output file as
results arrive, so an interrupted run keeps everything written and a rerun with the same
file resumes. Each result depends only on its pair and the parameters, so the figures do
not depend on the backend or the number of workers; :func:`read_results` sorts.

>>> from gyges.game.rules import PRESETS
>>> r = analyse_pair("231123", "321123", PRESETS["pbmserv"], 1)
>>> r["result"], r["win_in"], r["keys"], r["south"], r["north"]
('none', None, [], '231123', '321123')
"""

from __future__ import annotations

import functools
import json
import logging
import os
import socket
import time
from collections.abc import Callable, Iterable, Sequence
from typing import Any, TextIO

from gyges.formats.notation import format_move, parse_setup
from gyges.game import _movegen
from gyges.game.moves import Move, MoveResult, legal_moves, result_of
from gyges.game.position import Position
from gyges.game.rules import RuleSet, Side
from gyges.parallel import Interrupted, Progress, log_to, open_executor
from gyges.parallel.results import ResultsFileError, read_jsonl
from gyges.search.prover import solve
from gyges.setups.constraints import ALL_SETUPS, SetupError, _after, replace_threats

FORMAT = 1  #: version of the JSONL record layout
LOG = logging.getLogger("gyges.setups")

#: the keys of every record, besides the parameters (``depth``, ``rules``, ``format``)
RECORD_KEYS = (
    "blunders", "defence", "keys", "landing_threats", "north", "north_moves", "north_replaces",
    "replace_threats", "result", "south", "south_moves", "south_replaces", "win_in",
)


class BatchError(ValueError):
    """A results file that cannot be read or resumed."""


def params(rules: RuleSet, depth: int) -> dict[str, Any]:
    """The parameters stored in every record: a resumed run must match them."""
    return {"depth": depth, "format": FORMAT, "rules": rules.describe()}


# -- one pair ------------------------------------------------------------------------------


def _solve(position: Position, rules: RuleSet, depth: int) -> tuple[str, int | None, list[str]]:
    """(result, moves, keys) for the side to move within ``depth`` moves, by the solver."""
    sol = solve(position, rules, max_moves=depth, tree=False)  # no tree: faster
    return sol.result, sol.moves, sorted(format_move(m) for m in sol.keys)


def _landings(key: bytes, side: int, flags: int, history: list[bytes]) -> int:
    """How many goal landings the side has (0: none); what a defence tries to minimise."""
    mover, moves = _movegen.generate(key, side, flags, history, False)
    return sum(1 for m in moves if m[1] >= 36) if mover == side else 0


def _win_defence(position: Position, rules: RuleSet, key_text: str, k: int) -> dict[str, Any]:
    """North's best reply to South's first key: the one that holds out longest (by the
    solver, for k > 2), then leaves South the fewest landings; ties by notation."""
    flags = rules.flags()
    key_move = next(m for m in legal_moves(position, rules) if format_move(m) == key_text)
    after = Position(_tuple(_after(position.key, key_move.start, key_move.end,
                                   key_move.relocation)), position.turn.other)
    replies = legal_moves(after, rules, [position])
    if replies.mover is not after.turn or not replies.moves:
        return {"after": key_text, "replies": 0, "reply": None}
    best: tuple[Any, ...] | None = None
    for r in replies:
        if r.is_win:
            continue
        nxt = _after(after.key, r.start, r.end, r.relocation)
        length = 1
        if k > 2:
            from gyges.search.prover import solve

            sol = solve(Position(_tuple(nxt), position.turn), rules, max_moves=k - 1)
            length = sol.moves or k - 1
        cand = (-length, _landings(nxt, position.turn.index, flags, [position.key, after.key]),
                format_move(r))
        best = cand if best is None or cand < best else best
    if best is None:
        return {"after": key_text, "replies": len(replies), "reply": None}
    return {"after": key_text, "replies": len(replies), "reply": best[2], "holds": -best[0],
            "landings": best[1]}


def _tuple(key: bytes) -> tuple[int, ...]:
    return tuple(key)


def analyse_pair(south: str, north: str, rules: RuleSet, depth: int,
                 verdict: tuple[str, int | None, list[str]] | None = None) -> dict[str, Any]:
    """The figures of one setup pair (South to move), as one JSON-ready record.

    ``verdict``: the solver's ``(result, win_in, keys)`` when already known (from
    :func:`first_move_verdicts` and :func:`combine_verdicts`, the per-first-move split);
    otherwise the solver is asked here.

    - ``south_moves``/``north_moves``: distinct legal moves in the start position (North's
      as if North were to move); ``*_replaces``: how many of them are replaces.
    - ``result``/``win_in``/``keys``: the solver's verdict within ``depth`` moves for South:
      ``win`` (South forces a landing with its ``win_in``-th move; ``keys``: every first move
      that does), ``loss`` (North forces one whatever South does) or ``none``.
    - ``landing_threats``: South first moves after which South could land next move if
      North did nothing; ``blunders``: South first moves that let North land at once;
      ``replace_threats``: South first moves North can answer by replacing the ring just
      moved (:func:`gyges.setups.constraints.replace_threats`).
    - ``defence``: North's best defence. After a South win: North's reply to the first key
      that holds out longest, then leaves South the fewest landings. Otherwise: the landing
      threat hardest to meet (``threat``: the South first move whose threat the fewest North
      replies stop, not counting moves that let North land first; ``replies``: how many
      replies stop it, by landing or by leaving South no landing; ``reply``: the first of
      them in slot order), or null when South has no landing threat.
    """
    start = Position.setup(south, north)
    flags = rules.flags()
    key = start.key
    ml = legal_moves(start, rules)
    nl = legal_moves(start.with_turn(Side.NORTH), rules)
    landing = blunders = 0
    threats: list[Move] = []
    for m in ml:
        if m.is_win:
            continue
        after = _after(key, m.start, m.end, m.relocation)
        north_lands = _movegen.goal_reachable(after, 1, flags, [key])
        blunders += north_lands
        if _movegen.goal_reachable(after, 0, flags, [key]):
            landing += 1
            if not north_lands:
                threats.append(m)
    result, win_in, keys = verdict if verdict is not None else _solve(start, rules, depth)
    defence: dict[str, Any] | None = None
    if result == "win" and keys and win_in and win_in > 1:
        defence = _win_defence(start, rules, keys[0], win_in)
    elif result != "win" and threats:
        defence = _hardest_threat(start, rules, threats)
    record = {
        "south": south, "north": north,
        "south_moves": len(ml), "north_moves": len(nl),
        "south_replaces": sum(m.is_replace for m in ml),
        "north_replaces": sum(m.is_replace for m in nl),
        "landing_threats": landing, "blunders": blunders,
        "replace_threats": replace_threats(start, rules),
        "result": result, "win_in": win_in, "keys": keys, "defence": defence,
    }
    record.update(params(rules, depth))
    return record


def _hardest_threat(start: Position, rules: RuleSet, threats: Sequence[Move]
                    ) -> dict[str, Any]:
    """The landing threat the fewest North replies stop, how many, and the first of them.

    Threats are taken in slot order (start, end, relocation) and ties keep the first; the
    reply given is the first stopping reply in slot order. Counting a threat stops as soon
    as it cannot beat the best so far (the result is the same, found faster).
    """
    flags = rules.flags()
    key = start.key
    best: tuple[int, Move, MoveResult | None] | None = None
    for m in sorted(threats, key=lambda m: (m.start, m.end, -1 if m.relocation is None
                                            else m.relocation)):
        after = _after(key, m.start, m.end, m.relocation)
        mover, replies = _movegen.generate(after, 1, flags, [key], False)
        stops = 0
        first = None
        if mover == 1:
            for r_start, r_to, r_reloc, _, _ in sorted(
                    replies, key=lambda r: (r[0], r[1], -1 if r[2] is None else r[2])):
                if r_to >= 36 or not _movegen.goal_reachable(
                        _after(after, r_start, r_to, r_reloc), 0, flags, [key, after]):
                    stops += 1
                    if first is None:
                        first = result_of(after, r_start, r_to, r_reloc)
                    if best is not None and stops >= best[0]:
                        break
        if best is None or stops < best[0]:
            best = (stops, m, first)
    assert best is not None
    stops, m, first = best
    reply = None
    if first is not None:
        after_pos = Position(_tuple(_after(key, m.start, m.end, m.relocation)), Side.NORTH)
        reply = next(format_move(r) for r in legal_moves(after_pos, rules, [start])
                     if r.result_key(after_pos) == first)
    return {"threat": format_move(m), "replies": stops, "reply": reply}


# -- one pair, split per first move ---------------------------------------------------------


def first_moves(position: Position, rules: RuleSet) -> int:
    """How many first moves the side to move has (the split's unit); 0 if it is blocked."""
    ml = legal_moves(position, rules)
    return len(ml) if ml.mover is position.turn else 0


def first_move_verdicts(position: Position, rules: RuleSet, depth: int,
                        indices: Sequence[int]) -> dict[int, int | None]:
    """For the first moves ``indices`` (in legal-move order) of the side to move: the
    least number of its moves, this one included, that force a landing after it, if at
    most ``depth`` (else None). One search table serves the group. (The position has no
    history: a start position.)"""
    from gyges.search._search import Searcher

    me = position.turn.index
    ml = legal_moves(position, rules)
    searcher = Searcher(rules.flags(), 18)
    out: dict[int, int | None] = {}
    for i in indices:
        m = ml[i]
        if m.is_win:
            out[i] = 1
            continue
        child = _after(position.key, m.start, m.end, m.relocation)
        out[i] = next((d + 1 for d in range(1, depth)
                       if searcher.win(child, 1 - me, me, d, [position.key])), None)
    return out


def combine_verdicts(position: Position, rules: RuleSet, depth: int,
                     found: dict[int, int | None]) -> tuple[str, int | None, list[str]]:
    """The ``(result, win_in, keys)`` of ``solve(position, max_moves=depth)`` from every
    first move's verdict: the side to move wins in the least k over its first moves (the
    keys: the moves reaching it); if none, the opponent wins in d when every first move
    loses within d (checked here, stopping at the first move that holds: cheap)."""
    from gyges.search._search import Searcher

    me = position.turn.index
    ml = legal_moves(position, rules)
    assert set(found) == set(range(len(ml)))
    wins = [k for k in found.values() if k is not None]
    if wins:
        k = min(wins)
        return "win", k, sorted(format_move(ml[i]) for i, v in found.items() if v == k)
    searcher = Searcher(rules.flags(), 20)
    children = [_after(position.key, m.start, m.end, m.relocation) for m in ml]
    for d in range(1, depth + 1):
        if all(searcher.win(c, 1 - me, 1 - me, d, [position.key]) for c in children):
            return "loss", d, []
    return "none", None, []


def dumps(record: dict[str, Any]) -> str:
    """One JSONL line (keys sorted, compact)."""
    return json.dumps(record, sort_keys=True, separators=(",", ":"))


# -- selecting pairs -----------------------------------------------------------------------


def select_pairs(south: str = "all", north: str = "all") -> list[tuple[str, str]]:
    """The pairs asked for: ``all`` or a comma-separated list of setups on each side.

    >>> len(select_pairs()), select_pairs("231123", "321123,123321")
    (8100, [('231123', '123321'), ('231123', '321123')])
    """
    from gyges.formats.notation import parse_setup

    def side(text: str, who: str) -> list[str]:
        if text.strip().lower() == "all":
            return list(ALL_SETUPS)
        try:
            return sorted({parse_setup(t) for t in text.split(",")})
        except ValueError as e:
            raise SetupError(f"--{who}: {e}") from None

    return [(s, n) for s in side(south, "south") for n in side(north, "north")]


# -- the results file ----------------------------------------------------------------------


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
            pair = (rec["south"], rec["north"])
            p = {k: rec[k] for k in ("depth", "format", "rules")}
            _check_record(rec)
        except KeyError as e:
            raise BatchError(f"{path}, line {i}: not a setup analysis record (no {e} key)"
                             ) from None
        except ValueError as e:
            raise BatchError(f"{path}, line {i}: not a setup analysis record ({e})") from None
        if found is None:
            found = p
        elif p != found:
            raise BatchError(
                f"{path}, line {i}: made with {_describe(p)}, but earlier lines with "
                f"{_describe(found)}: one file holds one analysis"
            )
        records[pair] = rec
    if repair and keep == -1:
        with open(path, "ab") as f:
            f.write(b"\n")
    elif repair and keep != len(data):
        with open(path, "r+b") as f:
            f.truncate(keep)
    return found, [records[k] for k in sorted(records)]


def _check_record(rec: dict[str, Any]) -> None:
    """KeyError or ValueError unless ``rec`` has every key of a record, of the right kind
    (what the report reads: a file edited by hand must not crash it)."""
    for key in RECORD_KEYS:
        rec[key]  # noqa: B018 - KeyError names the missing key
    counts = ("blunders", "landing_threats", "north_moves", "north_replaces",
              "replace_threats", "south_moves", "south_replaces")
    if not all(type(rec[k]) is int and rec[k] >= 0 for k in counts):
        raise ValueError(f"{', '.join(counts)} are whole numbers, 0 or more")
    if rec["result"] not in ("win", "loss", "none") or not isinstance(rec["keys"], list):
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


def _describe(p: dict[str, Any]) -> str:
    return f"depth {p['depth']}, rules {p['rules']}"


# -- the run -------------------------------------------------------------------------------


def analyse_task(pair: tuple[str, str], *, rules: RuleSet, depth: int) -> dict[str, Any]:
    """One task of a run, as a worker does it: the pair's record, with the seconds it took
    and where it ran (for the log; not part of the record)."""
    t = time.perf_counter()
    record = analyse_pair(pair[0], pair[1], rules, depth)
    return {"record": record, "seconds": time.perf_counter() - t,
            "worker": f"{socket.gethostname()} pid {os.getpid()}"}


SPLIT_FROM = 4  #: from this depth on, pairs are split per first move by default
GROUP = 16  #: first moves per task when a pair is split
BLOCK_PER_WORKER = 4  #: pairs split at a time, per worker (at least MIN_BLOCK)
MIN_BLOCK = 16


def moves_task(item: tuple[str, str, int, int], *, rules: RuleSet, depth: int
               ) -> dict[str, Any]:
    """First moves ``lo:hi`` of the pair ``(south, north, lo, hi)``: their verdicts."""
    south, north, lo, hi = item
    t = time.perf_counter()
    found = first_move_verdicts(Position.setup(south, north), rules, depth, range(lo, hi))
    return {"south": south, "north": north, "lo": lo, "hi": hi,
            "found": {str(i): v for i, v in found.items()},
            "seconds": time.perf_counter() - t,
            "worker": f"{socket.gethostname()} pid {os.getpid()}"}


def finish_task(item: tuple[str, str, dict[int, int | None] | None], *, rules: RuleSet,
                depth: int) -> dict[str, Any]:
    """A split pair's record from its first moves' verdicts (None: not split, solve here)."""
    south, north, found = item
    t = time.perf_counter()
    verdict = None
    if found is not None:
        verdict = combine_verdicts(Position.setup(south, north), rules, depth, found)
    record = analyse_pair(south, north, rules, depth, verdict=verdict)
    return {"record": record, "seconds": time.perf_counter() - t,
            "worker": f"{socket.gethostname()} pid {os.getpid()}"}


def _read_parts(path: str, wanted: dict[str, Any]) -> dict[tuple[str, str], dict[int, Any]]:
    """The first-move verdicts kept by an earlier split run (other parameters: ignored)."""
    parts: dict[tuple[str, str], dict[int, Any]] = {}
    try:
        lines = read_jsonl(path, repair=True, what="a first-move record")
    except ResultsFileError as e:
        raise BatchError(str(e)) from None
    for _, rec in lines:
        if {k: rec.get(k) for k in wanted} != wanted:
            continue
        parts.setdefault((rec["south"], rec["north"]), {}).update(
            {int(i): v for i, v in rec["found"].items()})
    return parts


def _run_split(ex: Any, todo: Sequence[tuple[str, str]], rules: RuleSet, depth: int,
               out: str, write: Callable[[dict], None], bar: Progress | None,
               group: int) -> None:
    """Split pairs per first move, a block of pairs at a time: their groups of first
    moves, then one task per pair to combine and finish. Each group's verdicts go to
    ``out.parts`` as they arrive."""
    wanted = params(rules, depth)
    parts_path = out + ".parts"
    parts = _read_parts(parts_path, wanted)
    block = max(MIN_BLOCK, BLOCK_PER_WORKER * ex.workers)
    moves_work = functools.partial(moves_task, rules=rules, depth=depth)
    finish_work = functools.partial(finish_task, rules=rules, depth=depth)
    with open(parts_path, "a", encoding="utf-8") as pf:
        for b in range(0, len(todo), block):
            pairs = todo[b:b + block]
            counts = {p: first_moves(Position.setup(*p), rules) for p in pairs}
            items = [(s, n, lo, min(lo + group, counts[(s, n)]))
                     for s, n in pairs for lo in range(0, counts[(s, n)], group)
                     if not set(range(lo, min(lo + group, counts[(s, n)])))
                     <= set(parts.get((s, n), {}))]
            total = len(items) or 1
            for i, done in enumerate(ex.map_unordered(moves_work, items), 1):
                pf.write(dumps({**wanted, **{k: done[k] for k in
                                             ("south", "north", "lo", "hi", "found")}}) + "\n")
                pf.flush()
                parts.setdefault((done["south"], done["north"]), {}).update(
                    {int(k): v for k, v in done["found"].items()})
                if bar is not None:  # the block's first moves: half of its share
                    bar.set(b + 0.5 * len(pairs) * i / total)
            finish = [(s, n, parts.get((s, n), {}) if counts[(s, n)] else None)
                      for s, n in pairs]
            for i, done in enumerate(ex.map_unordered(finish_work, finish), 1):
                write(done)
                if bar is not None:  # then the finishing tasks: the other half
                    bar.set(b + 0.5 * len(pairs) + 0.5 * i)
    if os.path.exists(parts_path):
        os.remove(parts_path)  # every pair is in the results file now


def run(
    pairs: Sequence[tuple[str, str]],
    rules: RuleSet,
    depth: int,
    out: str,
    jobs: int | None = None,
    log: str | None = None,
    progress: TextIO | None = None,
    chunksize: int | None = None,
    on_result: Callable[[dict], None] | None = None,
    scheduler: str | None = None,
    split: bool | None = None,
    group: int = GROUP,
) -> dict[str, Any]:
    """Analyse ``pairs`` into ``out`` (appending; pairs already there are skipped).

    ``split`` (default: from depth :data:`SPLIT_FROM` on) makes the tasks finer: each
    pair's first moves go out in groups of ``group`` (:func:`first_move_verdicts`), then
    one task per pair combines them and computes the rest (:func:`combine_verdicts`,
    :func:`analyse_pair`); the groups done are kept in ``out.parts`` so that a resumed run
    does not redo them. The records are the same either way.

    The work goes to :func:`gyges.parallel.open_executor` (``scheduler`` None: the local
    pool of ``jobs`` workers, else Dask); each record is written and flushed here, as it
    arrives, so the file alone says what is done. Returns ``{"done": new records,
    "skipped": already there, "interrupted": bool}``. Ctrl-C or SIGTERM stops the run;
    every line written so far stays.
    """
    if depth < 1:
        raise SetupError(f"--depth {depth}: give at least 1")
    if group < 1:
        raise SetupError(f"group {group}: give at least 1 first move per task")
    split = depth >= SPLIT_FROM if split is None else split
    wanted = params(rules, depth)
    found, existing = read_results(out)
    if found is not None and found != wanted:
        raise BatchError(
            f"{out} holds an analysis made with {_describe(found)}, not {_describe(wanted)}: "
            "rerun with those parameters to resume it, or choose another --out"
        )
    read_results(out, repair=True)   # only a file this run may extend is repaired
    have = {(r["south"], r["north"]) for r in existing}
    todo = [p for p in dict.fromkeys(pairs) if p not in have]
    summary = {"done": 0, "skipped": len(pairs) - len(todo), "interrupted": False}
    if not todo:
        return summary
    bar = None
    executor = open_executor(scheduler, jobs if len(todo) > 1 or scheduler else 1)
    try:
        with log_to(log, LOG), executor as ex, open(out, "a", encoding="utf-8") as f:
            if progress is not None:
                bar = Progress(len(todo), progress, unit="pairs")
            LOG.info("analysing %d pairs (%d already done) on %s, %s%s",
                     len(todo), summary["skipped"], ex.name, _describe(wanted),
                     ", split per first move" if split else "")

            def write(done: dict[str, Any]) -> None:
                record = done["record"]
                f.write(dumps(record) + "\n")
                f.flush()
                summary["done"] += 1
                LOG.info("%s: %s %s: %s in %.3f s", done["worker"], record["south"],
                         record["north"], record["result"], done["seconds"])
                if on_result is not None:
                    on_result(record)

            if split:
                _run_split(ex, todo, rules, depth, out, write, bar, group)
            else:
                size = chunksize or max(1, min(16, len(todo) // (ex.workers * 8) or 1))
                work = functools.partial(analyse_task, rules=rules, depth=depth)
                for done in ex.map_unordered(work, todo, chunksize=size):
                    write(done)
                    if bar is not None:
                        bar.update()
    except Interrupted:
        summary["interrupted"] = True
        LOG.info("interrupted after %d new results", summary["done"])
    finally:
        if bar is not None:
            bar.close()
    return summary


# -- the report ----------------------------------------------------------------------------


def _strength(records: Iterable[dict], side: str) -> list[tuple[float, str, int, int, int]]:
    """Per setup of ``side``, strongest first: (score, setup, South wins, North wins, pairs).

    The score is the share of pairs the setup's side forces a win in, less the share it
    loses, then South's landing threats per pair as a tie-break (more is better for South,
    fewer for North).
    """
    table: dict[str, list[int]] = {}
    for r in records:
        t = table.setdefault(r[side], [0, 0, 0, 0])
        t[0] += r["result"] == "win"
        t[1] += r["result"] == "loss"
        t[2] += 1
        t[3] += r["landing_threats"]
    out = []
    for setup, (wins, losses, n, threats) in table.items():
        sign = 1 if side == "south" else -1
        score = sign * ((wins - losses) / n + threats / n / 1000)
        out.append((score, setup, wins, losses, n))
    return sorted(out, key=lambda t: (-t[0], t[1]))


def _histogram(values: Sequence[int], bins: int = 8) -> list[str]:
    if not values:
        return []
    lo, hi = min(values), max(values)
    step = max(1, -(-(hi - lo + 1) // bins))
    lines = []
    for b in range(lo, hi + 1, step):
        n = sum(b <= v < b + step for v in values)
        label = f"{b}" if step == 1 else f"{b}-{b + step - 1}"
        lines.append(f"  {label:>9} {n:6d} {'#' * max(1 if n else 0, round(40 * n / len(values)))}")
    return lines


def report(records: Sequence[dict], found: dict[str, Any] | None, top: int = 5) -> str:
    """The summary of an analysis as text."""
    if not records:
        return "no results"
    records = sorted(records, key=lambda r: (r["south"], r["north"]))
    depth = found["depth"] if found else records[0]["depth"]
    n = len(records)
    wins = [r for r in records if r["result"] == "win"]
    losses = [r for r in records if r["result"] == "loss"]
    souths = sorted({r["south"] for r in records})
    norths = sorted({r["north"] for r in records})
    lines = [
        f"{n} setup pairs ({len(souths)} South setups x {len(norths)} North setups), "
        f"depth {depth}, rules {found['rules'] if found else records[0]['rules']}",
        f"South (moving first) forces a landing within {depth}: {len(wins)} pairs "
        f"({100 * len(wins) / n:.1f}%)",
        f"North forces a landing whatever South does: {len(losses)} pairs",
        f"no forced result within {depth}: {n - len(wins) - len(losses)} pairs",
    ]
    by_k: dict[int, int] = {}
    for r in wins:
        by_k[r["win_in"]] = by_k.get(r["win_in"], 0) + 1
    for k in sorted(by_k):
        lines.append(f"  win in {k}: {by_k[k]} pairs")
    south_wins = sorted({r["south"] for r in wins})
    lines.append(f"South setups with a forced win against some North setup: {len(south_wins)}")
    for side in ("south", "north"):
        ranked = _strength(records, side)
        lines.append(f"\nstrongest {side.title()} setups (share of pairs, South's landing "
                     "threats as tie-break):")
        for score, setup, w, lost, m in ranked[:top]:
            lines.append(f"  {setup}  South wins {w}/{m}, North wins {lost}/{m}, "
                         f"score {round(score, 4) + 0.0:+.4f}")
        lines.append(f"weakest {side.title()} setups:")
        for score, setup, w, lost, m in ranked[-top:][::-1]:
            lines.append(f"  {setup}  South wins {w}/{m}, North wins {lost}/{m}, "
                         f"score {round(score, 4) + 0.0:+.4f}")
    narrow = sorted((r for r in records if r.get("defence") and "threat" in r["defence"]),
                    key=lambda r: (r["defence"]["replies"], r["south"], r["north"]))
    if narrow:
        lines.append("\nnarrowest defences (South's landing threat that the fewest North "
                     "replies stop):")
        for r in narrow[:top]:
            d = r["defence"]
            lines.append(f"  S {r['south']} N {r['north']}: {d['threat']}, stopped by "
                         f"{d['replies']} replies, e.g. {d['reply']}")
    for key, title in (
        ("south_moves", "South's first moves"), ("north_moves", "North's moves (if to move)"),
        ("landing_threats", "South's landing threats"), ("blunders", "South's blunders"),
        ("replace_threats", "replace threats"),
    ):
        values = [r[key] for r in records]
        lines.append(f"\n{title}: min {min(values)}, mean {sum(values) / n:.1f}, "
                     f"max {max(values)}")
        lines.extend(_histogram(values))
    return "\n".join(lines)


def heatmap_svg(records: Sequence[dict], cell: int = 6, value: str = "auto") -> str:
    """A heat map, South setup (rows) by North setup (columns), as an SVG 1.1 document.

    Each cell's colour shows the pair's result (a South win red, a North win blue); for
    pairs without a forced result, a shade from white to green shows South's landing
    threats (``value``: ``auto``, or any numeric record key).

    >>> import xml.etree.ElementTree as ET
    >>> from gyges.game.rules import PRESETS
    >>> rec = analyse_pair("231123", "321123", PRESETS["pbmserv"], 1)
    >>> ET.fromstring(heatmap_svg([rec])).tag
    '{http://www.w3.org/2000/svg}svg'
    """
    from xml.sax.saxutils import escape

    souths = sorted({r["south"] for r in records})
    norths = sorted({r["north"] for r in records})
    key = "landing_threats" if value == "auto" else value
    values = [r[key] for r in records] or [0]
    hi = max(max(values), 1)
    margin = 60
    w = margin + cell * len(norths) + 10
    h = margin + cell * len(souths) + 30
    out = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="{w}" height="{h}" '
        f'viewBox="0 0 {w} {h}">',
        f"<title>Gyges setup pairs: South (rows) by North (columns), {escape(key)}</title>",
        f'<rect x="0" y="0" width="{w}" height="{h}" fill="white"/>',
        f'<text x="{margin}" y="14" font-family="sans-serif" font-size="11">North setup '
        "&#8594;</text>",
        f'<text x="12" y="{margin}" font-family="sans-serif" font-size="11" '
        f'transform="rotate(90 12 {margin})">South setup &#8594;</text>',
    ]
    si = {s: i for i, s in enumerate(souths)}
    ni = {s: i for i, s in enumerate(norths)}
    for r in sorted(records, key=lambda r: (r["south"], r["north"])):
        x = margin + cell * ni[r["north"]]
        y = margin + cell * si[r["south"]]
        if r["result"] == "win":
            colour = "#d62728"
        elif r["result"] == "loss":
            colour = "#1f77b4"
        else:
            level = 255 - round(200 * r[key] / hi)
            colour = f"#{level:02x}{(level + 255) // 2:02x}{level:02x}"  # white to green
        out.append(
            f'<rect x="{x}" y="{y}" width="{cell}" height="{cell}" fill="{colour}">'
            f"<title>S {r['south']} N {r['north']}: {escape(str(r['result']))}, "
            f"{escape(key)} {r[key]}</title></rect>"
        )
    out.append(
        f'<text x="{margin}" y="{h - 10}" font-family="sans-serif" font-size="10">red: South '
        f"forces a landing; blue: North does; white to green: {escape(key)} (0 to {hi})</text>"
    )
    out.append("</svg>")
    return "\n".join(out) + "\n"
