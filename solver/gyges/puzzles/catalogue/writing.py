"""Writing the catalogue: one entry as YAML text (:func:`format_entry`), and entries
appended to a file, keeping everything else in it (:func:`append_entries`, the one
appender of ``catalogue add``, ``review --puzzles`` and ``generate``).

The catalogue's one duplicate rule: a new entry is already there when an entry has its
id, or is the same puzzle (:func:`~gyges.puzzles.symmetry.identity`: the same rules, and
the same position and history up to the board's symmetries; ``catalogue check`` flags an
exact repeat, which this rule includes). The appender refuses such an entry
(:class:`DuplicateEntry`) or skips it (``duplicates=Duplicates.SKIP``);
:func:`known_puzzles` reads the entries of the other files of a catalogue and
:func:`find_twin` looks a new entry up among them before any solving.

>>> from gyges.game.rules import PRESETS
>>> from gyges.search.stipulation import Stipulation
>>> p = Position.from_string("....../3...../..1.1./1.23.3/3.22.1/....2. N")
>>> def entry(name, position):
...     return format_entry(name, position, PRESETS["pbmserv"], Stipulation("win", 1),
...                         key="51-43-33-31-21-S", main_line=["51-43-33-31-21-S"])
>>> a, b = entry("a", p), entry("b", p.mirrored())   # one puzzle, mirrored
>>> result = appended_text("schema: 1\\npuzzles: []\\n", [a, b], "x.yaml",
...                        duplicates=Duplicates.SKIP)
>>> result.added, result.skipped
(('a',), ('b',))
"""

from __future__ import annotations

import dataclasses
import enum
import json
import re
import textwrap
from collections.abc import Iterable, Sequence
from pathlib import Path

from gyges.formats.diagram import format_diagram
from gyges.game.position import Position
from gyges.game.rules import RuleSet, closest_preset
from gyges.output import OutputError, check_output, write_atomic
from gyges.puzzles.catalogue.schema import (
    SCHEMA_VERSION,
    CatalogueError,
    FileForm,
    Puzzle,
    catalogue_files,
    load_catalogue,
    parse_catalogue,
)
from gyges.puzzles.symmetry import identity
from gyges.search.stipulation import Stipulation

__all__ = ["AppendError", "Appended", "Duplicates", "DuplicateEntry", "append_entries",
           "appended_text", "check_target", "find_twin", "format_entry", "known_puzzles"]


def format_entry(
    puzzle_id: str,
    position: Position,
    rules: RuleSet,
    stipulation: Stipulation,
    *,
    key: str | None = None,
    main_line: Sequence[str] = (),
    cooks: Sequence[str] = (),
    themes: Sequence[str] = (),
    difficulty: int | None = None,
    title: str = "",
    source: str = "",
    credit: str = "",
    notes: str = "",
    history: Sequence[Position] = (),
    indent: int = 0,
) -> str:
    """One puzzle entry as YAML text (a ``- id: ...`` item indented by ``indent``).

    >>> from gyges.game.rules import PRESETS, Side
    >>> from gyges.search.stipulation import Stipulation
    >>> p = Position.from_string("....../3...../..1.1./1.23.3/3.22.1/....2. N")
    >>> text = format_entry("x1", p, PRESETS["pbmserv"], Stipulation("win", 1, Side.NORTH),
    ...                     key="51-43-33-31-21-S", main_line=["51-43-33-31-21-S"])
    >>> parse_catalogue("schema: 1\\npuzzles:\\n" + text).puzzles[0].key
    '51-43-33-31-21-S'
    """
    def q(value: str) -> str:
        return json.dumps(value, ensure_ascii=False)

    pad = " " * indent
    out = [f"{pad}- id: {q(puzzle_id)}"]
    body = pad + "  "
    if title:
        out.append(f"{body}title: {q(title)}")
    if source:
        out.append(f"{body}source: {q(source)}")
    if credit:
        out.append(f"{body}credit: {q(credit)}")
    preset_name, changes = closest_preset(rules)
    out.append(f"{body}rules: {preset_name}")
    if changes:
        out.append(f"{body}rule: {{{', '.join(f'{k}: {v}' for k, v in changes.items())}}}")
    out.append(f"{body}diagram: |")
    out.extend(f"{body}  {ln}" for ln in format_diagram(position).splitlines())
    if history:
        out.append(f"{body}history:")
        out.extend(f"{body}  - {q(str(h))}" for h in history)
    out.append(f"{body}stipulation: {stipulation}")
    if key is not None or main_line:
        out.append(f"{body}solution:")
        if key is not None:
            out.append(f"{body}  key: {q(key)}")
        if main_line:
            out.append(f"{body}  main-line:")
            out.extend(f"{body}    - {q(t)}" for t in main_line)
    if cooks:
        out.append(f"{body}cooks: [{', '.join(q(c) for c in cooks)}]")
    out.append(f"{body}themes: [{', '.join(q(t) for t in themes)}]")
    if difficulty is not None:
        out.append(f"{body}difficulty: {difficulty}")
    if notes:
        out.append(f"{body}notes: >-")
        out.extend(f"{body}  {ln}" for ln in textwrap.wrap(notes, 88 - len(body)))
    return "\n".join(out) + "\n"


class Duplicates(str, enum.Enum):
    """What the appender does with a new entry that is already in the file."""

    REFUSE = "refuse"  #: raise :class:`DuplicateEntry`, append nothing
    SKIP = "skip"      #: leave it out, append the others

    def __str__(self) -> str:
        return self.value


class DuplicateEntry(CatalogueError):
    """A new entry already in the catalogue: ``entry`` (the new one) has the id of
    ``existing`` (``same_id``) or is the same puzzle (the module's rule). Located on the
    existing entry's line."""

    def __init__(self, entry: Puzzle, existing: Puzzle, same_id: bool) -> None:
        if same_id:
            problem = f"the id {entry.id!r} is already used on line {existing.line}"
        elif (entry.position, entry.history) == (existing.position, existing.history):
            problem = f"this position is already puzzle {existing.id} (line {existing.line})"
        else:
            problem = (f"this position, mirrored or turned around, is already puzzle "
                       f"{existing.id} (line {existing.line})")
        super().__init__(problem, existing.file, existing.line, entry.id)
        self.entry = entry
        self.existing = existing
        self.same_id = same_id


def known_puzzles(paths: Iterable[str | Path], *, exclude: str | Path | None = None,
                  skip_unreadable: bool = False) -> list[Puzzle]:
    """The puzzles of the catalogue files named or found in the directories (their
    subdirectories included), but those of the file ``exclude``: the entries a new one
    must not repeat. CatalogueError for a path that does not exist, and for a file that
    cannot be read unless ``skip_unreadable`` (a folder's other YAML files need not be
    catalogues).

    >>> known_puzzles(["no/such/catalogue.yaml"])
    Traceback (most recent call last):
    ...
    gyges.puzzles.catalogue.schema.CatalogueError: no/such/catalogue.yaml: no such file or \
directory
    """
    skip = Path(exclude).resolve() if exclude is not None else None
    out: list[Puzzle] = []
    seen: set[Path] = set()
    for f in catalogue_files(paths, recursive=True):
        where = f.resolve()
        if where == skip or where in seen:
            continue
        seen.add(where)
        try:
            out.extend(load_catalogue(f).puzzles)
        except CatalogueError:
            if not skip_unreadable:
                raise
    return out


def find_twin(entry: Puzzle, entries: Iterable[Puzzle]) -> Puzzle | None:
    """The first of ``entries`` with the id of ``entry`` or the same puzzle (the module's
    duplicate rule), if any."""
    key = identity(entry.position, entry.rules, entry.history)
    for p in entries:
        if p.id == entry.id or identity(p.position, p.rules, p.history) == key:
            return p
    return None


class AppendError(CatalogueError):
    """A file the entries cannot be appended to cleanly: appending would make it unreadable
    (``detail`` says how), or its puzzle list is not the last thing in it (``detail``
    None)."""

    def __init__(self, source: str, detail: str | None) -> None:
        if detail is not None:
            problem = f"adding the new puzzles would break the file ({detail})"
        else:
            problem = ("the puzzle list is not the last thing in the file, so the new "
                       "puzzles cannot be added to it")
        super().__init__(problem, source)
        self.detail = detail


@dataclasses.dataclass(frozen=True)
class Appended:
    """The file's new text, the ids of the entries appended and of those skipped as
    duplicates."""

    text: str
    added: tuple[str, ...] = ()
    skipped: tuple[str, ...] = ()


def appended_text(old_text: str | None, entries: Sequence[str], source: str, *,
                  title: str = "", duplicates: Duplicates = Duplicates.REFUSE) -> Appended:
    """The catalogue ``old_text`` (None: a new file, with the schema line and ``title``)
    with ``entries`` (from :func:`format_entry`, indent 0) appended after its last entry,
    keeping everything else as written. Each entry is checked in turn against the file's
    entries and the entries appended before it (the module's duplicate rule).
    CatalogueError if the file cannot be read; :class:`DuplicateEntry`,
    :class:`AppendError`."""
    if old_text is None:
        old_text = f"schema: {SCHEMA_VERSION}\n"
        if title:
            old_text += "title: " + json.dumps(title, ensure_ascii=False) + "\n"
        old_text += "puzzles:\n"
    old = parse_catalogue(old_text, source)
    kept = list(old.puzzles)
    text = old_text
    added: list[str] = []
    skipped: list[str] = []
    for entry_text in entries:
        new = parse_catalogue("schema: 1\npuzzles:\n" + entry_text, "<new entry>").puzzles[0]
        twin = find_twin(new, kept)
        if twin is not None:
            if duplicates is Duplicates.SKIP:
                skipped.append(new.id)
                continue
            raise DuplicateEntry(new, twin, twin.id == new.id)
        if not kept:   # the first entry of an empty list written as ``puzzles: []``
            text = re.sub(r"(?m)^puzzles:\s*\[\]\s*$", "puzzles:", text, count=1)
        line = text.count("\n") + (1 if text.endswith("\n") or not text else 2)
        text = _with_entry(text, entry_text, old.form is FileForm.LIST,
                           old.list_indent if old.puzzles else 0)
        kept.append(dataclasses.replace(new, file=source, line=line))
        added.append(new.id)
    if added:
        try:
            result = parse_catalogue(text, source)
        except CatalogueError as e:
            raise AppendError(source, e.problem) from None
        if [p.id for p in result.puzzles][len(old.puzzles):] != added:
            raise AppendError(source, None)
    return Appended(text, tuple(added), tuple(skipped))


def _with_entry(text: str, entry_text: str, bare_list: bool, indent: int) -> str:
    """``text`` with one entry appended at the list's indent (in a bare list, every entry
    says its schema)."""
    if bare_list:
        entry_text = entry_text.replace("\n  stipulation:", "\n  schema: 1\n  stipulation:", 1)
    entry_text = "".join(" " * indent + ln if ln.strip() else ln
                         for ln in entry_text.splitlines(keepends=True))
    sep = "" if text.endswith("\n") or not text else "\n"
    return text + sep + entry_text


def append_entries(path: str | Path, entries: Sequence[str], *, title: str = "",
                   duplicates: Duplicates = Duplicates.REFUSE) -> Appended:
    """Append ``entries`` to the catalogue file ``path`` (:func:`appended_text`; a missing
    file is created with ``title``), all checked before the file is written, whole or not
    at all. Nothing is written when nothing is appended."""
    path = Path(path)
    try:
        # as it is, its line ends too (no newline translation): the old text is kept
        old_text = path.read_bytes().decode("utf-8") if path.exists() else None
    except UnicodeDecodeError:
        raise CatalogueError("not a text file (it is not UTF-8)", str(path)) from None
    except OSError as e:
        raise CatalogueError(f"cannot read the file: {e.strerror or e}", str(path)) from None
    result = appended_text(old_text, entries, str(path), title=title, duplicates=duplicates)
    if result.added:
        try:
            write_atomic(path, result.text)   # whole or not at all (parents created)
        except OutputError as e:
            raise CatalogueError(e.problem, str(path)) from None
    return result


def check_target(path: str | Path) -> None:
    """Before any work: may entries be appended to the catalogue file ``path`` (created
    with its missing folders)? CatalogueError when it is a directory or its folder cannot
    be written; an existing file's text is kept, so it need not be gyges's."""
    try:
        check_output(path, force=True)
    except OutputError as e:
        raise CatalogueError(e.problem, str(path)) from None
