"""The puzzle catalogue: YAML files of puzzles, read with line numbers and re-proved.

This module gathers the catalogue's public names from the modules that hold them:
:mod:`~gyges.puzzles.schema` (the schema and reading), :mod:`~gyges.puzzles.lines`
(main lines played, themed and built), :mod:`~gyges.puzzles.checking` (re-proving an
entry), :mod:`~gyges.puzzles.authoring` (a proven position made an entry),
:mod:`~gyges.puzzles.writing` (entries as YAML text, appended to a file) and
:mod:`~gyges.puzzles.symmetry` (what makes two entries one puzzle).

The schema (version 1), with an example entry, is documented in ``docs/catalogue.md`` and
:mod:`~gyges.puzzles.schema`.

Reading never ends in a traceback: :class:`CatalogueError` names the file, the line and
the puzzle (``puzzles/seed000.yaml:12: puzzle seed000-taboo: ...``). Checking
(:func:`check_puzzle`) re-proves an entry with the solver and returns what is wrong.

>>> from gyges.game.rules import Side
>>> s = Stipulation.parse("North wins in 1")
>>> s.kind, s.moves, s.side, str(s)
('win', 1, <Side.NORTH: 'N'>, 'North wins in 1')
>>> str(Stipulation.parse("loses in 2", Side.SOUTH))
'South loses in 2'
>>> str(Stipulation.parse("no forced result in 1", Side.NORTH))
'no forced result in 1'
"""

from gyges.puzzles.authoring import (
    AuthoringError,
    Findings,
    add_entry,
    findings,
    proof_note,
)
from gyges.puzzles.checking import check_puzzle
from gyges.puzzles.lines import (
    Line,
    SolveFn,
    line_themes,
    play_line,
    principal_line,
    renop_matters,
    try_play_line,
)
from gyges.puzzles.schema import (
    FILE_KEYS,
    PUZZLE_KEYS,
    SCHEMA_VERSION,
    SOLUTION_KEYS,
    THEMES,
    Catalogue,
    CatalogueError,
    FileForm,
    Puzzle,
    catalogue_files,
    load_all,
    load_catalogue,
    parse_catalogue,
    theme_problem,
)
from gyges.puzzles.symmetry import canonical, identity
from gyges.puzzles.writing import (
    Appended,
    AppendError,
    DuplicateEntry,
    Duplicates,
    append_entries,
    appended_text,
    check_target,
    format_entry,
)
from gyges.search.stipulation import Stipulation

__all__ = [
    "FILE_KEYS", "PUZZLE_KEYS", "SCHEMA_VERSION", "SOLUTION_KEYS", "THEMES", "AppendError",
    "Appended", "AuthoringError", "Catalogue", "CatalogueError", "DuplicateEntry",
    "Duplicates", "FileForm", "Findings", "Line", "Puzzle", "SolveFn", "Stipulation",
    "add_entry", "append_entries", "appended_text", "canonical", "catalogue_files",
    "check_puzzle", "check_target", "findings", "format_entry", "identity", "line_themes",
    "load_all", "load_catalogue", "parse_catalogue", "play_line", "principal_line",
    "proof_note", "renop_matters", "theme_problem", "try_play_line",
]
