"""The puzzle catalogue: YAML files of puzzles, read with line numbers, re-proved, and
written. The catalogue's data lives in the top-level ``puzzles/`` folder, not here; its
schema (version 1), with an example entry, is documented in ``docs/catalogue.md``.

The room's modules:

- :mod:`~gyges.puzzles.catalogue.schema`: the schema and reading (:class:`Puzzle`,
  :class:`Catalogue`, :func:`load_catalogue`, :func:`load_all`);
- :mod:`~gyges.puzzles.catalogue.checking`: re-proving an entry (:func:`check_puzzle`) and
  a whole catalogue (:func:`check_catalogue`);
- :mod:`~gyges.puzzles.catalogue.verified`: the entries proven before, remembered in a
  cache file so that a check proves only what changed (:class:`VerifiedEntries`);
- :mod:`~gyges.puzzles.catalogue.authoring`: a proven position made an entry
  (:func:`add_entry`);
- :mod:`~gyges.puzzles.catalogue.writing`: entries as YAML text (:func:`format_entry`),
  appended to a file (:func:`append_entries`).

The main lines an entry is checked by, the board's symmetries and the difficulty rating
are shared with the other rooms: :mod:`gyges.puzzles.lines`, :mod:`gyges.puzzles.symmetry`
and :mod:`gyges.puzzles.rating`.

Reading never ends in a traceback: :class:`CatalogueError` names the file, the line and
the puzzle (``puzzles/seed000.yaml:12: puzzle seed000-taboo: ...``). Checking
(:func:`check_puzzle`) re-proves an entry with the solver and returns what is wrong.

This package is the catalogue's public face: the names below are those of its modules.

>>> cat = parse_catalogue('''
... schema: 1
... puzzles:
... - id: bounce
...   position: "....../3...../..1.1./1.23.3/3.22.1/....2. N"
...   stipulation: North wins in 1
...   solution: {key: 51-43-33-31-21-S, main-line: [51-43-33-31-21-S]}
... ''', "demo.yaml")
>>> str(cat.puzzles[0].stipulation), check_puzzle(cat.puzzles[0])
('North wins in 1', [])
"""

from gyges.puzzles.catalogue.authoring import AuthoringError, Findings, add_entry, findings
from gyges.puzzles.catalogue.checking import (
    CheckReport,
    CheckStep,
    ThemeCount,
    check_catalogue,
    check_puzzle,
    theme_counts,
)
from gyges.puzzles.catalogue.schema import (
    SCHEMA_VERSION,
    Catalogue,
    CatalogueError,
    FileForm,
    Puzzle,
    catalogue_files,
    load_all,
    load_catalogue,
    parse_catalogue,
)
from gyges.puzzles.catalogue.verified import VerifiedEntries
from gyges.puzzles.catalogue.writing import (
    Appended,
    AppendError,
    DuplicateEntry,
    Duplicates,
    append_entries,
    check_target,
    find_twin,
    format_entry,
    known_puzzles,
)
from gyges.puzzles.lines import THEMES

__all__ = [
    "SCHEMA_VERSION", "THEMES", "AppendError", "Appended", "AuthoringError", "Catalogue",
    "CatalogueError", "CheckReport", "CheckStep", "DuplicateEntry", "Duplicates", "FileForm",
    "Findings", "Puzzle", "ThemeCount", "VerifiedEntries", "add_entry", "append_entries",
    "catalogue_files", "check_catalogue", "check_puzzle", "check_target", "find_twin",
    "findings", "format_entry", "known_puzzles", "load_all", "load_catalogue",
    "parse_catalogue", "theme_counts",
]
