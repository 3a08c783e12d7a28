"""Entries the solver has already proven: a small cache file, so that ``catalogue check``
and ``export``'s check re-prove only what changed.

An entry is remembered by a digest of what its proof depends on (:func:`entry_digest`): its
fields as read (position, rules, history, stipulation, key, main line, cooks, themes) and
the solver's version (:func:`solver_version`: the package's version and a digest of the
solver's source and compiled files, so that a changed solver proves everything again). An
edited entry has another digest, and is proven again. Only entries found right are
remembered. The file is ``verified.jsonl`` in :func:`cache_dir` (``$GYGES_CACHE_DIR``, else
``$XDG_CACHE_HOME/gyges``, else ``~/.cache/gyges``), one JSON line per entry; a cache that
cannot be read or written is as good as an empty one (nothing fails because of it).

>>> import dataclasses
>>> from gyges import PRESETS, Position
>>> from gyges.search.stipulation import Stipulation
>>> p = Puzzle("x1", Position.from_string("....../3...../..1.1./1.23.3/3.22.1/....2. N"),
...            PRESETS["pbmserv"], Stipulation.parse("North wins in 1"),
...            key="51-43-33-31-21-S", main_line=("51-43-33-31-21-S",))
>>> cache = VerifiedEntries(None)       # kept in memory only
>>> p in cache
False
>>> cache.add(p)
>>> p in cache, dataclasses.replace(p, id="x2", line=9) in cache   # the same entry elsewhere
(True, True)
>>> dataclasses.replace(p, themes=("taboo",)) in cache             # an edited entry
False
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
from importlib import metadata
from pathlib import Path

from gyges.game.rules import RuleSet
from gyges.output import files_digest
from gyges.puzzles.catalogue.schema import Puzzle

__all__ = ["VERIFIED_CACHE_FILE", "EntryFacts", "VerifiedEntries", "cache_dir", "entry_digest",
           "solver_version"]

#: The cache file's name in :func:`cache_dir`.
VERIFIED_CACHE_FILE = "verified.jsonl"

#: What a proof depends on, under the package's root: the game, the solver, the notation
#: and the checking of an entry (their sources and compiled modules).
_SOLVER_PARTS = ("game", "search", "formats/notation.py", "puzzles/lines.py",
                 "puzzles/catalogue/checking.py")
_SUFFIXES = (".py", ".pyx", ".pxd", ".so", ".pyd")


def cache_dir() -> Path:
    """Where gyges keeps its cache: ``$GYGES_CACHE_DIR``, else ``$XDG_CACHE_HOME/gyges``,
    else ``~/.cache/gyges``."""
    if os.environ.get("GYGES_CACHE_DIR"):
        return Path(os.environ["GYGES_CACHE_DIR"])
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "gyges"


@functools.cache
def solver_version() -> str:
    """The solver's version: the package's version and a digest of the files of the
    solver (sources and compiled modules), so that any change to them tells."""
    try:
        version = metadata.version("gyges")
    except metadata.PackageNotFoundError:
        version = "unknown"
    root = Path(__file__).resolve().parents[2]   # the package gyges
    return f"{version}+{files_digest(root, _SOLVER_PARTS, _SUFFIXES)}"


def _rules(rules: RuleSet) -> dict[str, str]:
    return dict(sorted(rules.options().items()))


def entry_digest(puzzle: Puzzle, solver: str | None = None) -> str:
    """The digest of what the proof of ``puzzle`` depends on: its fields as read (not its
    id, file or line) and the solver's version (default :func:`solver_version`)."""
    fields = {
        "position": str(puzzle.position), "rules": _rules(puzzle.rules),
        "history": [str(h) for h in puzzle.history], "stipulation": str(puzzle.stipulation),
        "key": puzzle.key, "main-line": list(puzzle.main_line), "cooks": list(puzzle.cooks),
        "themes": list(puzzle.themes), "solver": solver or solver_version(),
    }
    text = json.dumps(fields, sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


class VerifiedEntries:
    """The entries proven before, read from the cache file ``path`` (None: kept in memory
    only); :meth:`add` remembers one more, appending it to the file at once (a check
    stopped half way keeps what it proved). ``fresh``: read nothing (every entry is proven
    again), still remember what is proven."""

    def __init__(self, path: str | Path | None, *, fresh: bool = False) -> None:
        self.path = Path(path) if path is not None else None
        self._known: set[str] = set()
        if self.path is not None and not fresh:
            self._known = _read(self.path)

    @classmethod
    def default(cls, *, fresh: bool = False) -> VerifiedEntries:
        """The user's cache (:func:`cache_dir`)."""
        return cls(cache_dir() / VERIFIED_CACHE_FILE, fresh=fresh)

    def __repr__(self) -> str:
        return f"VerifiedEntries({str(self.path) if self.path else None!r}, " \
               f"{len(self._known)} known)"

    def __contains__(self, puzzle: object) -> bool:
        return isinstance(puzzle, Puzzle) and entry_digest(puzzle) in self._known

    def add(self, puzzle: Puzzle) -> None:
        """Remember ``puzzle`` as proven (an unwritable cache is left alone)."""
        digest = entry_digest(puzzle)
        if digest in self._known:
            return
        self._known.add(digest)
        if self.path is None:
            return
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with self.path.open("a", encoding="utf-8") as f:
                f.write(json.dumps({"entry": digest}) + "\n")
        except OSError:
            pass


def _read(path: Path) -> set[str]:
    """The digests of the cache file (lines that cannot be read are passed over)."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return set()
    out = set()
    for line in text.splitlines():
        try:
            record = json.loads(line)
        except ValueError:
            continue
        if isinstance(record, dict) and isinstance(record.get("entry"), str):
            out.add(record["entry"])
    return out


class EntryFacts:
    """What the solver worked out about entries (a JSON object each), remembered in the
    cache file ``path`` (None: in memory only) under the entry's digest
    (:func:`entry_digest`, with ``version`` added to the solver's: the version of what
    computes the facts), so that an unchanged entry is not worked on again. Like
    :class:`VerifiedEntries`, a cache that cannot be read or written is an empty one.

    >>> from gyges import PRESETS, Position
    >>> from gyges.search.stipulation import Stipulation
    >>> p = Puzzle("x1", Position.from_string("....../3...../..1.1./1.23.3/3.22.1/....2. N"),
    ...            PRESETS["pbmserv"], Stipulation.parse("North wins in 1"))
    >>> facts = EntryFacts(None, "v1")
    >>> facts.get(p) is None
    True
    >>> facts.put(p, {"defences": 3})
    >>> facts.get(p)
    {'defences': 3}
    """

    def __init__(self, path: str | Path | None, version: str, *, fresh: bool = False) -> None:
        self.path = Path(path) if path is not None else None
        self.version = version
        self._known: dict[str, dict] = {}
        if self.path is not None and not fresh:
            self._known = _read_facts(self.path)

    def __repr__(self) -> str:
        return f"EntryFacts({str(self.path) if self.path else None!r}, {len(self._known)} known)"

    def _digest(self, puzzle: Puzzle) -> str:
        return entry_digest(puzzle, f"{solver_version()}+{self.version}")

    def get(self, puzzle: Puzzle) -> dict | None:
        """The facts remembered of ``puzzle`` as it is now (None: none)."""
        return self._known.get(self._digest(puzzle))

    def put(self, puzzle: Puzzle, facts: dict) -> None:
        """Remember ``facts`` of ``puzzle``, appending them to the file at once."""
        digest = self._digest(puzzle)
        if self._known.get(digest) == facts:
            return
        self._known[digest] = facts
        if self.path is None:
            return
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with self.path.open("a", encoding="utf-8") as f:
                f.write(json.dumps({"entry": digest, "facts": facts}) + "\n")
        except OSError:
            pass


def _read_facts(path: Path) -> dict[str, dict]:
    """The facts of the cache file by digest (lines that cannot be read are passed over;
    a later line of a digest wins)."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return {}
    out = {}
    for line in text.splitlines():
        try:
            record = json.loads(line)
        except ValueError:
            continue
        if (isinstance(record, dict) and isinstance(record.get("entry"), str)
                and isinstance(record.get("facts"), dict)):
            out[record["entry"]] = record["facts"]
    return out
