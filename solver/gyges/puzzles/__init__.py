"""Puzzles: the catalogue, the puzzle book and its exports, game review, and the puzzle
generator. Uses engine, search, formats and game.

The package has a room for each job, each a sub-package whose ``__init__`` is its public
face:

- :mod:`gyges.puzzles.catalogue`: the catalogue's schema, reading, checking, authoring
  and writing (the catalogue's data lives in the top-level ``puzzles/`` folder, not here);
- :mod:`gyges.puzzles.book`: the puzzle book (its model, the selection of its puzzles,
  the solver's commentary) and its exports (text, HTML, PDF, SVG), published as
  ``gyges export`` does;
- :mod:`gyges.puzzles.review`: game review, and the engine's judgement of moves;
- :mod:`gyges.puzzles.generate`: the generator (its parameters, the candidates from play,
  the engine's games and the CP-SAT construction, their soundness, the run's state file,
  its catalogue entries, and the run).

Three modules serve several rooms: :mod:`gyges.puzzles.lines` (main lines played, themed
and built), :mod:`gyges.puzzles.symmetry` (what makes two positions one puzzle) and
:mod:`gyges.puzzles.rating` (the difficulty of a puzzle, measured by solvers);
:mod:`gyges.puzzles.difficulty` rates catalogue files again (``gyges catalogue rate``).
The main names are here.

A value's property is something it holds or reads off at once (``BookEntry.anchor``,
``Book.entries``, ``Params.stipulation``); anything that plays moves, solves, lays out or
writes text is a method or a function (``Book.theme_index()``, ``GameReview.text()``).
Closed sets of values are string enums (``Source``, ``Chapters``, ``Kind``...), so that
the files they are written to read the same words.

>>> from gyges import PRESETS, Position
>>> from gyges.search import Stipulation
>>> taboo = Position.from_string("....../1...../3.23../3.211./2.132./...... S")
>>> entry = format_entry("taboo", taboo, PRESETS["pbmserv"], Stipulation.parse("South wins in 1"),
...                      key="24-25-34-44-N", main_line=["24-25-34-44-N"])
>>> cat = parse_catalogue("schema: 1\\npuzzles:\\n" + entry, "demo.yaml")
>>> cat
Catalogue('demo.yaml', 1 puzzle)
>>> cat.puzzles[0]
Puzzle('taboo', '....../1...../3.23../3.211./2.132./...... S', 'South wins in 1', \
key='24-25-34-44-N')
>>> check_puzzle(cat.puzzles[0])
[]
"""

from gyges.puzzles.book import (
    Book,
    BookFormat,
    BookOptions,
    Selection,
    export_html,
    export_pdf,
    export_text,
    make_book,
    publish_book,
    puzzle_svgs,
    solver_commentary,
)
from gyges.puzzles.catalogue import (
    Catalogue,
    CatalogueError,
    CheckReport,
    Puzzle,
    add_entry,
    append_entries,
    check_catalogue,
    check_puzzle,
    format_entry,
    load_all,
    load_catalogue,
    parse_catalogue,
)
from gyges.puzzles.generate import Generated, Params, assess_soundness, generate_puzzles
from gyges.puzzles.review import GameReview, review_game

__all__ = [
    "Book", "BookFormat", "BookOptions", "Catalogue", "CatalogueError", "CheckReport",
    "GameReview", "Generated", "Params", "Puzzle", "Selection", "add_entry",
    "append_entries", "assess_soundness", "check_catalogue", "check_puzzle", "export_html",
    "export_pdf", "export_text", "format_entry", "generate_puzzles", "load_all",
    "load_catalogue", "make_book", "parse_catalogue", "publish_book", "puzzle_svgs",
    "review_game", "solver_commentary",
]
