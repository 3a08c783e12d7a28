"""Rating catalogue files again (``gyges catalogue rate``): each entry's solvers' effort
(:func:`gyges.puzzles.rating.effort`) and level, and, asked to, its ``difficulty:`` line
rewritten in place, every other byte of the file kept.

The efforts are remembered in a cache file, ``difficulty.jsonl`` in the cache folder of
``catalogue check`` (:func:`gyges.puzzles.catalogue.verified.cache_dir`), by a digest of
what the measure depends on (the entry's position, rules, history, stipulation, key, main
line and cooks, and the ladder's version, :func:`ladder_version`): a run stopped half-way
goes on where it stopped, and a second run is read from the cache.

>>> text = "puzzles:\\n- id: a\\n  stipulation: South wins in 2\\n  difficulty: 3  # old\\n"
>>> print(with_difficulty(text, 4, 5, None), end="")
puzzles:
- id: a
  stipulation: South wins in 2
  difficulty: 5  # old
>>> print(with_difficulty("- id: b\\n  stipulation: South wins in 1\\n", None, 2, 2), end="")
- id: b
  stipulation: South wins in 1
  difficulty: 2
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import json
import re
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

from gyges.output import files_digest, is_signed, signature_removed, signed, write_atomic
from gyges.puzzles.catalogue.schema import CatalogueError, Puzzle, load_all
from gyges.puzzles.catalogue.verified import cache_dir
from gyges.puzzles.rating import BEYOND, EFFORT_VERSION, LADDER, RATING_HASH_BITS, effort, level

__all__ = ["DIFFICULTY_CACHE_FILE", "EffortCache", "Rated", "RatingReport", "ladder_version",
           "rate_catalogue", "rung_nodes", "with_difficulty"]

#: The cache file's name in the cache folder.
DIFFICULTY_CACHE_FILE = "difficulty.jsonl"

#: What the efforts depend on, under the package's root (sources and compiled modules).
_LADDER_PARTS = ("game", "engine", "search", "formats/notation.py")
_SUFFIXES = (".py", ".pyx", ".pxd", ".pxi", ".so", ".pyd", ".json")


@functools.cache
def ladder_version() -> str:
    """A digest of the ladder (its rungs, its table, :data:`~gyges.puzzles.rating.
    EFFORT_VERSION`) and of the engine, prover and game files it runs: another version
    measures every entry again."""
    root = Path(__file__).resolve().parents[1]   # the package gyges
    return files_digest(root, _LADDER_PARTS, _SUFFIXES,
                        seed=repr((LADDER, RATING_HASH_BITS, EFFORT_VERSION)).encode())


def _digest(p: Puzzle) -> str:
    what = {"position": str(p.position), "rules": dict(sorted(p.rules.options().items())),
            "history": [str(h) for h in p.history], "stipulation": str(p.stipulation),
            "key": p.key, "main_line": list(p.main_line), "cooks": list(p.cooks),
            "ladder": ladder_version()}
    return hashlib.sha256(json.dumps(what, sort_keys=True).encode()).hexdigest()


class EffortCache:
    """The efforts measured before, by entry digest, kept in ``path`` (None: in memory
    only); a file that cannot be read or written is as good as an empty one."""

    def __init__(self, path: str | Path | None, *, fresh: bool = False) -> None:
        self.path = Path(path) if path is not None else None
        self.known: dict[str, int] = {} if fresh or self.path is None else _read(self.path)

    @classmethod
    def default(cls, *, fresh: bool = False) -> EffortCache:
        return cls(cache_dir() / DIFFICULTY_CACHE_FILE, fresh=fresh)

    def get(self, p: Puzzle) -> int | None:
        return self.known.get(_digest(p))

    def add(self, p: Puzzle, value: int) -> None:
        d = _digest(p)
        self.known[d] = value
        if self.path is None:
            return
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with self.path.open("a", encoding="utf-8") as f:
                f.write(json.dumps({"digest": d, "effort": value}) + "\n")
        except OSError:
            self.path = None


def _read(path: Path) -> dict[str, int]:
    known: dict[str, int] = {}
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return known
    for line in lines:
        try:
            d = json.loads(line)
            known[str(d["digest"])] = int(d["effort"])
        except (ValueError, KeyError, TypeError):
            continue
    return known


@dataclasses.dataclass(frozen=True)
class Rated:
    """One entry rated: its ``effort`` (log2 of the nodes), its ``level`` (1..5), whether
    it came from the cache, and the seconds it took."""

    puzzle: Puzzle
    effort: int
    level: int
    cached: bool
    seconds: float

    @property
    def changed(self) -> bool:
        return self.puzzle.difficulty != self.level


@dataclasses.dataclass(frozen=True)
class RatingReport:
    """Every entry rated, and the files whose ``difficulty:`` lines were rewritten."""

    rated: tuple[Rated, ...]
    written: tuple[str, ...]

    def efforts(self) -> dict[int, int]:
        """How many entries of each effort, in order."""
        return dict(sorted(Counter(r.effort for r in self.rated).items()))

    def levels(self) -> dict[int, int]:
        """How many entries of each level 1..5."""
        c = Counter(r.level for r in self.rated)
        return {n: c[n] for n in range(1, 6)}


_DIFFICULTY = re.compile(r"^(?P<head>\s*(?:-\s+)?difficulty:[ \t]*)(?P<value>[^\s#]*)")
_KEY = re.compile(r"^(?P<indent>\s*(?:-\s+)?)(?P<key>[A-Za-z][\w-]*):")


def with_difficulty(text: str, line: int | None, value: int, after: int | None) -> str:
    """``text`` with the ``difficulty:`` line ``line`` (1-based) set to ``value``, every
    other byte kept; ``line`` None: a line ``difficulty: value`` inserted after line
    ``after`` (a key of the entry, whose indentation it takes). ValueError when the line is
    not such a line."""
    lines = text.splitlines(keepends=True)
    if line is not None:
        m = _DIFFICULTY.match(lines[line - 1])
        if m is None:
            raise ValueError(f"line {line} is not a 'difficulty:' line")
        old = lines[line - 1]
        lines[line - 1] = old[:m.start("value")] + str(value) + old[m.end("value"):]
        return "".join(lines)
    if after is None:
        raise ValueError("no line to write the difficulty after")
    m = _KEY.match(lines[after - 1])
    if m is None:
        raise ValueError(f"line {after} is not a key of the entry")
    indent = " " * len(m.group("indent"))
    end = "\r\n" if lines[after - 1].endswith("\r\n") else "\n"
    if not lines[after - 1].endswith("\n"):
        lines[after - 1] += end
    lines.insert(after, f"{indent}difficulty: {value}{end}")
    return "".join(lines)


def rate_catalogue(paths: Iterable[str | Path], *, write: bool = False,
                   cache: EffortCache | None = None,
                   progress: Callable[[int, int, Puzzle, Rated | None], None] | None = None,
                   ) -> RatingReport:
    """Rate every entry of the catalogue files of ``paths`` (files or directories, their
    subdirectories included); with ``write``, set each file's ``difficulty:`` lines that
    differ from the entry's level (a line is added to an entry that has none), every other
    byte kept. ``progress(i, n, puzzle, rated)`` hears each entry begun (``rated`` None)
    and done. CatalogueError for a file that cannot be read or an entry that cannot be
    played."""
    puzzles, errors = load_all(paths, recursive=True)
    if errors:
        raise errors[0]
    cache = cache if cache is not None else EffortCache(None)
    rated: list[Rated] = []
    for i, p in enumerate(puzzles, 1):
        if progress is not None:
            progress(i, len(puzzles), p, None)
        t0 = time.perf_counter()
        e = cache.get(p)
        hit = e is not None
        if e is None:
            try:
                e = effort(p.position, p.rules, p.stipulation, p.main_line, p.cooks,
                           p.history, p.key)
            except ValueError as err:
                raise p.error(f"cannot rate: {err}", "solution") from None
            cache.add(p, e)
        r = Rated(p, e, level(e), hit, time.perf_counter() - t0)
        rated.append(r)
        if progress is not None:
            progress(i, len(puzzles), p, r)
    written = _write(rated) if write else ()
    return RatingReport(tuple(rated), written)


def _write(rated: Sequence[Rated]) -> tuple[str, ...]:
    by_file: dict[str, list[Rated]] = {}
    for r in rated:
        if r.changed:
            by_file.setdefault(r.puzzle.file, []).append(r)
    written = []
    for name, rs in by_file.items():
        text = Path(name).read_text(encoding="utf-8")
        ours = is_signed(text)     # a file gyges wrote stays one it may append to
        if ours:
            text = signature_removed(text)
        # from the bottom up: an inserted line moves none of the lines still to edit
        for r in sorted(rs, key=lambda r: r.puzzle.line, reverse=True):
            p = r.puzzle
            line = p.lines.get("difficulty")
            try:
                text = with_difficulty(text, line, r.level,
                                       None if line is not None else p.line_of("stipulation"))
            except ValueError as e:
                raise CatalogueError(f"cannot write the difficulty: {e}", name,
                                     line or p.line, p.id) from None
        write_atomic(name, signed(text, "#") if ours else text)
        written.append(name)
    return tuple(written)


def rung_nodes(effort_: int) -> str:
    """The node budget of a rung, for people (``beyond`` the top rung)."""
    return "beyond" if effort_ >= BEYOND else f"{2 ** effort_:,}"

