"""Writing the catalogue: one entry as YAML text (:func:`format_entry`) and appended to a
file, keeping everything else in it (:func:`append_entry`).
"""

from __future__ import annotations

import json
import textwrap
from collections.abc import Sequence
from pathlib import Path

from gyges.formats.diagram import format_diagram
from gyges.formats.posfile import _closest_preset
from gyges.game.position import Position
from gyges.game.rules import RuleSet
from gyges.puzzles.schema import SCHEMA_VERSION, Catalogue, CatalogueError, parse_catalogue
from gyges.search.stipulation import Stipulation

__all__ = ["append_entry", "format_entry"]


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
    preset_name, changes = _closest_preset(rules)
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


def append_entry(path: str | Path, entry_text: str, title: str = "") -> Catalogue:
    """Append an entry (from :func:`format_entry`, indent 0) to a catalogue file, keeping
    everything else in it; a new file is created with the schema line. Refuses (with
    CatalogueError) a duplicate id or position, and any file it could not extend cleanly."""
    path = Path(path)
    source = str(path)
    if path.exists():
        old_text = path.read_text(encoding="utf-8")
        old = parse_catalogue(old_text, source)
    else:
        head = f"schema: {SCHEMA_VERSION}\n"
        if title:
            head += "title: " + json.dumps(title, ensure_ascii=False) + "\n"
        old_text = head + "puzzles:\n"
        old = parse_catalogue(old_text, source)
    new_cat = parse_catalogue("schema: 1\npuzzles:\n" + entry_text, "<new entry>")
    new = new_cat.puzzles[0]
    for p in old.puzzles:
        if p.id == new.id:
            raise CatalogueError(f"the id {new.id!r} is already used on line {p.line}: "
                                 "choose another --id", source, p.line, new.id)
        if p.position == new.position and p.rules == new.rules:
            raise CatalogueError(f"this position is already puzzle {p.id} (line {p.line})",
                                 source, p.line, new.id)
    indent = old.list_indent if old.puzzles else 0
    if old.form == "list":
        entry_text = entry_text.replace("\n  stipulation:", "\n  schema: 1\n  stipulation:", 1)
    entry_text = "".join(" " * indent + ln if ln.strip() else ln
                         for ln in entry_text.splitlines(keepends=True))
    sep = "" if old_text.endswith("\n") or not old_text else "\n"
    text = old_text + sep + entry_text
    try:
        result = parse_catalogue(text, source)
    except CatalogueError as e:
        raise CatalogueError(f"appending would break the file ({e.problem}); add the entry "
                             "by hand", source) from None
    if len(result.puzzles) != len(old.puzzles) + 1 or result.puzzles[-1].id != new.id:
        raise CatalogueError("the puzzle list is not the last thing in the file: add the entry "
                             "by hand", source)
    from gyges.output import write_atomic

    write_atomic(path, text)   # whole or not at all (parents created)
    return result
