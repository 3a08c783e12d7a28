"""The solver's commentary on a puzzle, for the book's solutions: the threat of a win's key
(what it threatens if the defender could pass) and the main variations (the defences that
hold out longest, grouped by the winner's answer). It is computed here, with the solver,
and handed to :func:`gyges.puzzles.book.model.make_book`, so that the book and its renderings
are functions of what they are given.

>>> Commentary(("16-36-N",), (Variation(("61-51",), "12-24x36=54"),), 12)
Commentary(threats=['16-36-N'], variations=1, defences=12)
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from gyges.formats.notation import format_move
from gyges.game.moves import apply_move, legal_moves
from gyges.parallel import worker_pool
from gyges.puzzles.catalogue.schema import Puzzle
from gyges.puzzles.catalogue.verified import EntryFacts, cache_dir
from gyges.puzzles.lines import try_play_line
from gyges.search import solve
from gyges.search.tree import LoserNode, resistance

__all__ = ["COMMENTARY_FILE", "Commentary", "Variation", "commentary", "commentary_cache",
           "solver_commentary"]

#: The file in :func:`~gyges.puzzles.catalogue.verified.cache_dir` that remembers the
#: commentary of the entries (by their content, the solver's version and this module's).
COMMENTARY_FILE = "commentary.jsonl"


@dataclasses.dataclass(frozen=True)
class Variation:
    """After the key: defences (that hold out longest) answered by the same winning move."""

    defences: tuple[str, ...]
    answer: str
    more: int = 0  #: further defences answered the same way, not listed


@dataclasses.dataclass(frozen=True)
class Commentary:
    """The threats of the key, the main variations and the number of defences to the key
    (empty for a puzzle that is not a win, or a win in 1)."""

    threats: tuple[str, ...] = ()
    variations: tuple[Variation, ...] = ()
    defences: int = 0

    def to_json(self) -> dict[str, Any]:
        """The commentary as JSON (:meth:`from_json` reads it back).

        >>> c = Commentary(("16-36-N",), (Variation(("61-51",), "12-24x36=54", 2),), 12)
        >>> Commentary.from_json(c.to_json()) == c
        True
        """
        return {"threats": list(self.threats), "defences": self.defences,
                "variations": [{"defences": list(v.defences), "answer": v.answer,
                                "more": v.more} for v in self.variations]}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Commentary:
        """The commentary :meth:`to_json` wrote (KeyError, TypeError or ValueError if it is
        not one)."""
        variations = tuple(Variation(tuple(str(m) for m in v["defences"]), str(v["answer"]),
                                     int(v["more"])) for v in d["variations"])
        return cls(tuple(str(t) for t in d["threats"]), variations, int(d["defences"]))

    def __repr__(self) -> str:
        fields = [f"threats={list(self.threats)}"] if self.threats else []
        if self.variations:
            fields.append(f"variations={len(self.variations)}")
        if self.defences:
            fields.append(f"defences={self.defences}")
        return f"Commentary({', '.join(fields)})"


def commentary(p: Puzzle) -> Commentary:
    """The solver's threat of a win's key and its main variations: the defences that hold
    out longest (by :func:`~gyges.search.tree.resistance`'s moves left, as the main line
    takes them), grouped by the winner's answer, from the solution tree after the key."""
    st = p.stipulation
    line = try_play_line(p.position, p.rules, p.main_line, p.history)
    if st.kind != "win" or line is None or not line.moves or line.moves[0].is_win:
        return Commentary()
    key = line.moves[0]
    winner = p.position.turn
    history = [*p.history, p.position]
    after = apply_move(p.position, key)
    threats: tuple[str, ...] = ()
    if st.moves >= 2:
        threat = solve(after.with_turn(winner), p.rules, max_moves=st.moves - 1,
                       history=history, tree=False)
        if threat.result == "win":
            threats = tuple(format_move(m) for m in threat.keys)
    replies = legal_moves(after, p.rules, history)
    if replies.mover is winner:  # the defender is blocked: no defence
        return Commentary(threats)
    tree = solve(after, p.rules, max_moves=st.moves - 1, history=history).tree
    if not isinstance(tree, LoserNode) or tree.passed:
        return Commentary(threats, (), len(replies))
    answered = [d for d in tree.defences if d.reply is not None and d.reply.moves]
    longest = min((resistance(d)[0] for d in answered), default=0)
    answers: dict[str, list[str]] = {}
    for d in answered:
        if resistance(d)[0] == longest and d.reply is not None:
            answers.setdefault(d.reply.moves[0], []).append(d.move)
    groups = sorted(answers.items(), key=lambda kv: (-len(kv[1]), kv[0]))
    variations = tuple(Variation(tuple(d[:3]), a, max(0, len(d) - 3)) for a, d in groups[:4])
    return Commentary(threats, variations, len(replies))


@functools.cache
def _version() -> str:
    """This module's version: a digest of its source (the solver's is in the entry's)."""
    return hashlib.sha256(Path(__file__).read_bytes()).hexdigest()[:16]


def commentary_cache(*, fresh: bool = False, path: str | Path | None = None) -> EntryFacts:
    """The cache of commentaries: ``path``, by default :data:`COMMENTARY_FILE` in the
    user's cache directory; ``fresh``: read nothing (work everything out again)."""
    return EntryFacts(cache_dir() / COMMENTARY_FILE if path is None else path, _version(),
                      fresh=fresh)


def _noop() -> None:
    """Nothing to set up in a worker."""


def _commented(p: Puzzle) -> tuple[str, Commentary]:
    return p.id, commentary(p)


def solver_commentary(puzzles: Sequence[Puzzle],
                      progress: Callable[[int, int, Puzzle], None] | None = None,
                      cache: EntryFacts | None = None,
                      jobs: int | None = 1) -> dict[str, Commentary]:
    """The commentary of every puzzle, by id (:func:`commentary`), the same whatever
    ``jobs`` (processes working it out; None: one per core); ``progress(i, n, puzzle)`` is
    told as puzzle ``i`` of ``n`` is taken up (those worked out, in the order they
    finish). ``cache``: the commentaries worked out before (:func:`commentary_cache`),
    taken as they are; the new ones join it."""
    out: dict[str, Commentary | None] = {}
    todo = []
    for p in puzzles:
        known = cache.get(p) if cache is not None else None
        try:
            out[p.id] = Commentary.from_json(known) if known is not None else None
        except (KeyError, TypeError, ValueError):
            out[p.id] = None
        if out[p.id] is None:
            todo.append(p)
    by_id = {p.id: p for p in todo}
    workers = max(1, min(jobs or os.cpu_count() or 1, len(todo)))
    done = len(puzzles) - len(todo)
    with worker_pool(workers, _noop) as pool:
        if progress is not None and todo:
            progress(done + 1, len(puzzles), todo[0])
        for pid, said in pool.map_unordered(_commented, todo):
            out[pid] = said
            if cache is not None:
                cache.put(by_id[pid], said.to_json())
            done += 1
            if progress is not None and done < len(puzzles):
                waiting = next((p for p in todo if out[p.id] is None), None)
                if waiting is not None:
                    progress(done + 1, len(puzzles), waiting)
    return {pid: c for pid, c in ((p.id, out[p.id]) for p in puzzles) if c is not None}
