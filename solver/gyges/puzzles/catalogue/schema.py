"""The catalogue's schema and its reading: YAML files of puzzles, read with line numbers.

The schema (version 1) is documented in ``docs/catalogue.md``. A catalogue file is a
mapping ``{schema: 1, title: ..., puzzles: [...]}`` (or a bare list of puzzles, each
carrying ``schema: 1``); a puzzle is a mapping::

    - id: seed000-bouncing
      title: Bouncing
      source: "seed 000: ..."
      rules: pbmserv
      diagram: |
        1 2 3 4 5 6
        N
        . . . . . . 6
        3 . . . . . 5
        . . 1 . 1 . 4
        1 . 2 3 . 3 3
        3 . 2 2 . 1 2
        . . . . 2 . 1
        S
        North to move
      stipulation: North wins in 1
      solution:
        key: 51-43-33-31-21-S
        main-line: [51-43-33-31-21-S]
      themes: [bounce chain 4]
      difficulty: 1

Reading never ends in a traceback: :class:`CatalogueError` names the file, the line and
the puzzle (``puzzles/seed000.yaml:12: puzzle seed000-taboo: ...``). Checking an entry
against the solver is :mod:`gyges.puzzles.catalogue.checking`'s job.

>>> s = Stipulation.parse("North wins in 1")
>>> s.kind, s.moves, s.side, str(s)
('win', 1, <Side.NORTH: 'N'>, 'North wins in 1')
>>> str(Stipulation.parse("loses in 2", Side.SOUTH))
'South loses in 2'
>>> str(Stipulation.parse("no forced result in 1", Side.NORTH))
'no forced result in 1'"""

from __future__ import annotations

import dataclasses
import enum
import functools
import re
from collections.abc import Iterable
from pathlib import Path

import yaml

from gyges.formats import posfile, yamlnodes
from gyges.formats.quoting import excerpt, shorten
from gyges.game.position import Position, PositionError
from gyges.game.rules import PRESETS, RuleSet, Side
from gyges.puzzles.lines import THEMES
from gyges.search.stipulation import Stipulation
from gyges.search.tree import Node, TreeError, node_from_json

__all__ = [
    "FILE_KEYS", "PUZZLE_KEYS", "SCHEMA_VERSION", "SOLUTION_KEYS", "Catalogue",
    "CatalogueError", "FileForm", "Puzzle", "catalogue_files", "load_all", "load_catalogue",
    "parse_catalogue", "theme_problem",
]

SCHEMA_VERSION = 1

#: Keys of a puzzle entry (``schema`` only in a bare list of puzzles).
PUZZLE_KEYS = (
    "id", "title", "source", "credit", "rules", "rule", "diagram", "position", "to-move",
    "history", "stipulation", "solution", "cooks", "themes", "difficulty", "notes", "schema",
)
SOLUTION_KEYS = ("key", "main-line", "tree")
FILE_KEYS = ("schema", "title", "description", "puzzles")

#: Themes of older catalogues, no longer told apart: what to write instead.
_RETIRED = {
    "relocation": "it was on most problems; say which: 'relocation bridge', 'late "
                  "relocation', 'relocation backfires' or 'relocating defence'",
}

_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")


class CatalogueError(ValueError):
    """A catalogue problem: ``str()`` is ``file:line: puzzle <id>: what is wrong``.

    ``malformed`` tells a file that cannot be read (exit status 2) from an entry the
    solver refutes (exit status 1).
    """

    def __init__(self, problem: str, source: str, line: int | None = None,
                 puzzle: str | None = None, *, malformed: bool = True) -> None:
        problem = shorten(problem)    # a quote of a long value of the file: an excerpt
        puzzle = None if puzzle is None else excerpt(puzzle)
        self.problem = problem
        self.source = source
        self.line = line
        self.puzzle = puzzle
        self.malformed = malformed
        where = f"{source}:{line}" if line is not None else source
        who = f" puzzle {puzzle}:" if puzzle else ""
        super().__init__(f"{where}:{who} {problem}")

# -- puzzles -------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Puzzle:
    """One catalogue entry as read from its file (``lines``: key -> line number)."""

    id: str
    position: Position
    rules: RuleSet
    stipulation: Stipulation
    title: str = ""
    source: str = ""
    credit: str = ""
    history: tuple[Position, ...] = ()
    key: str | None = None
    main_line: tuple[str, ...] = ()
    tree: Node | None = None
    cooks: tuple[str, ...] = ()
    themes: tuple[str, ...] = ()
    difficulty: int | None = None
    notes: str = ""
    file: str = "<catalogue>"
    line: int = 1
    lines: dict[str, int] = dataclasses.field(default_factory=dict, compare=False, hash=False)

    def __repr__(self) -> str:
        key = f", key={self.key!r}" if self.key is not None else ""
        return f"Puzzle({self.id!r}, {str(self.position)!r}, {str(self.stipulation)!r}{key})"

    def line_of(self, key: str) -> int:
        """The line of ``key`` in the entry (the entry's first line if it has none)."""
        return self.lines.get(key, self.line)

    def error(self, problem: str, key: str | None = None, *, malformed: bool = False
              ) -> CatalogueError:
        """A problem of this entry, located on the line of ``key``."""
        return CatalogueError(problem, self.file, self.line_of(key) if key else self.line,
                              self.id, malformed=malformed)


class FileForm(str, enum.Enum):
    """How a catalogue file holds its puzzles."""

    MAPPING = "mapping"  #: ``{schema: 1, title: ..., puzzles: [...]}``
    LIST = "list"        #: a bare list of puzzles, each with ``schema: 1``

    def __str__(self) -> str:
        return self.value


@dataclasses.dataclass(frozen=True)
class Catalogue:
    """The puzzles of one file, with where their list sits (for appending)."""

    source: str
    puzzles: tuple[Puzzle, ...]
    title: str = ""
    description: str = ""
    form: FileForm = FileForm.MAPPING
    list_indent: int = 0  # column of the '-' of the entries

    def __repr__(self) -> str:
        n = len(self.puzzles)
        return f"Catalogue({self.source!r}, {n} puzzle{'s' if n != 1 else ''})"


def parse_catalogue(text: str, source: str = "<catalogue>",
                    errors: list[CatalogueError] | None = None) -> Catalogue:
    """Read a catalogue file's text; :class:`CatalogueError` says what and where.

    With ``errors`` (a list), a bad entry is appended to it and left out, and the other
    entries are read: every error of the file in one pass."""
    def fail_file(problem: str, node: yaml.Node | None = None) -> CatalogueError:
        return CatalogueError(problem, source, yamlnodes.line(node) if node is not None else None)

    root = yamlnodes.compose(text, lambda problem, at: CatalogueError(problem, source, at))
    if root is None:
        raise CatalogueError("the file is empty: it needs 'schema: 1' and 'puzzles:'", source, 1)
    title = description = ""
    if isinstance(root, yaml.MappingNode):
        seq, title, description = _read_head(root, source, fail_file)
        if yamlnodes.is_null(seq):
            return Catalogue(source, (), title, description, FileForm.MAPPING, 0)
        form = FileForm.MAPPING
    else:
        seq = root
        form = FileForm.LIST
    if not isinstance(seq, yaml.SequenceNode):
        raise fail_file(f"the puzzles are a YAML list ('- id: ...' entries), not "
                        f"{yamlnodes.kind(seq)}", seq)
    puzzles = _read_puzzles(seq, source, form is FileForm.LIST, errors)
    indent = seq.value[0].start_mark.column - 2 if seq.value else 0
    return Catalogue(source, puzzles, title, description, form, max(indent, 0))


def _read_head(root: yaml.MappingNode, source: str, fail_file: yamlnodes.Fail
               ) -> tuple[yaml.Node, str, str]:
    """A catalogue file written as a mapping: its ``puzzles`` node, title and description
    (the keys checked, the schema known)."""
    entries = yamlnodes.mapping(root, fail_file)
    for key, (key_node, _) in entries.items():
        if key not in FILE_KEYS:
            hint = " (a file of one puzzle still lists it under 'puzzles:')" \
                if key in PUZZLE_KEYS else ""
            raise fail_file(f"unknown key {key!r}{hint}: a catalogue file has the keys "
                            f"{', '.join(FILE_KEYS)}", key_node)
    if "schema" not in entries:
        raise CatalogueError(f"no 'schema: {SCHEMA_VERSION}' line: every catalogue file "
                             "says which schema it follows (docs/catalogue.md)", source, 1)
    _check_schema(entries["schema"][1], fail_file)
    title = description = ""
    if "title" in entries:
        title = yamlnodes.scalar(entries["title"][1], "title", "text", fail_file).value
    if "description" in entries:
        description = yamlnodes.scalar(entries["description"][1], "description", "text",
                                      fail_file).value
    if "puzzles" not in entries:
        raise CatalogueError("no 'puzzles:' list", source, 1)
    return entries["puzzles"][1], title, description


def _read_puzzles(seq: yaml.SequenceNode, source: str, bare_list: bool,
                  errors: list[CatalogueError] | None = None) -> tuple[Puzzle, ...]:
    """The entries of the puzzle list, each id once (with ``errors``: a bad entry is noted
    there and left out)."""
    puzzles = []
    seen: dict[str, int] = {}
    for item in seq.value:
        try:
            puzzle = _parse_puzzle(item, source, bare_list)
            if puzzle.id in seen:
                raise puzzle.error(f"the id {puzzle.id!r} is already used on line "
                                   f"{seen[puzzle.id]}: ids are unique", "id", malformed=True)
        except CatalogueError as e:
            if errors is None:
                raise
            errors.append(e)
            continue
        seen[puzzle.id] = puzzle.line
        puzzles.append(puzzle)
    return tuple(puzzles)


def _check_schema(node: yaml.Node, fail: yamlnodes.Fail) -> None:
    if not (isinstance(node, yaml.ScalarNode) and node.value == str(SCHEMA_VERSION)):
        value = getattr(node, "value", node)
        raise fail(f"schema {value!r} is not known: this program reads schema "
                   f"{SCHEMA_VERSION} (docs/catalogue.md)", node)


class _Entry:
    """One puzzle mapping being read: its keys, and errors located on its lines."""

    def __init__(self, node: yaml.MappingNode, source: str) -> None:
        self.node = node
        self.source = source
        self.id: str | None = None
        self.entries = yamlnodes.mapping(node, self.fail)

    def fail(self, problem: str, at: yaml.Node | None = None) -> CatalogueError:
        where = yamlnodes.line(at if at is not None else self.node)
        return CatalogueError(problem, self.source, where, self.id)

    def __contains__(self, key: str) -> bool:
        return key in self.entries

    def key(self, key: str) -> yaml.Node:
        """The node of the key itself (for errors about the key)."""
        return self.entries[key][0]

    def value(self, key: str) -> yaml.Node:
        return self.entries[key][1]

    def text(self, key: str, expected: str = "text") -> str:
        if key not in self.entries:
            return ""
        return yamlnodes.scalar(self.value(key), key, expected, self.fail).value


def _parse_puzzle(node: yaml.Node, source: str, bare_list: bool) -> Puzzle:
    if not isinstance(node, yaml.MappingNode):
        raise CatalogueError(f"a puzzle is a mapping of keys (id, diagram, stipulation, ...), "
                             f"not {yamlnodes.kind(node)}", source, yamlnodes.line(node))
    entry = _Entry(node, source)
    entry.id = _read_id(entry)
    _check_keys(entry, bare_list)
    lines = {key: yamlnodes.line(v) for key, (_, v) in entry.entries.items()}
    position = _read_position(entry)
    rules = posfile.read_rules(entry.entries, entry.fail) or PRESETS["pbmserv"]
    history = _read_history(entry, position)
    stipulation = _read_stipulation(entry, position)
    key, main_line, tree = _read_solution(entry, stipulation, lines)
    cooks, themes, difficulty = _read_cooks(entry), _read_themes(entry), _read_difficulty(entry)
    return Puzzle(
        id=entry.id, position=position, rules=rules, stipulation=stipulation,
        title=entry.text("title"), source=entry.text("source"), credit=entry.text("credit"),
        history=history, key=key, main_line=main_line, tree=tree, cooks=cooks, themes=themes,
        difficulty=difficulty, notes=entry.text("notes"), file=source,
        line=yamlnodes.line(node), lines=lines,
    )


def _read_id(entry: _Entry) -> str:
    if "id" not in entry:
        raise entry.fail("no 'id': every puzzle has one (a word like seed000-taboo)")
    id_node = yamlnodes.scalar(entry.value("id"), "id", "a word like seed000-taboo",
                               entry.fail)
    if not _ID.match(id_node.value):
        raise entry.fail(f"the id {id_node.value!r} may hold only letters, digits, '-', '_' "
                         "and '.'", id_node)
    return id_node.value


def _check_keys(entry: _Entry, bare_list: bool) -> None:
    """Every key known; ``schema`` in each entry of a bare list, and only there."""
    for key, (key_node, _) in entry.entries.items():
        if key not in PUZZLE_KEYS:
            raise entry.fail(f"unknown key {key!r}: {yamlnodes.suggest(key, PUZZLE_KEYS)}"
                             f"the keys are {', '.join(PUZZLE_KEYS)}", key_node)
    if "schema" in entry:
        if not bare_list:
            raise entry.fail("'schema' belongs at the top of the file, not in a puzzle",
                             entry.key("schema"))
        _check_schema(entry.value("schema"), entry.fail)
    elif bare_list:
        raise entry.fail(f"a bare list of puzzles carries 'schema: {SCHEMA_VERSION}' in every "
                         "entry (or write the file as a mapping with 'schema:' and 'puzzles:')")


def _read_position(entry: _Entry) -> Position:
    """The position: a diagram (the readable form) or a position string, and who moves."""
    given = [k for k in ("diagram", "position") if k in entry]
    if not given:
        raise entry.fail("no position: draw it under 'diagram: |' (seed 000 style) or give "
                         "'position: <position string>'")
    if len(given) > 1:
        raise entry.fail("both 'diagram' and 'position': give the position once",
                         entry.key("position"))
    to_move = _read_to_move(entry)
    try:
        if given[0] == "diagram":
            return _read_diagram(entry, to_move)
        position = posfile.read_position(entry.value("position"), entry.fail, "position")
        if to_move is not None and to_move is not position.turn:
            raise entry.fail("to-move and the position string disagree on who moves",
                             entry.value("to-move"))
        return position
    except PositionError as e:
        if isinstance(e, CatalogueError):
            raise
        raise entry.fail(str(e), entry.value(given[0])) from None


def _read_to_move(entry: _Entry) -> Side | None:
    if "to-move" not in entry:
        return None
    tm = yamlnodes.scalar(entry.value("to-move"), "to-move", "S or N", entry.fail)
    try:
        return Side.parse(tm.value)
    except ValueError:
        raise entry.fail(f"to-move cannot be {tm.value!r}: use S (South) or N (North)", tm) \
            from None


def _read_diagram(entry: _Entry, to_move: Side | None) -> Position:
    """The position drawn under ``diagram:`` (errors located on the diagram's own lines)."""
    dnode = entry.value("diagram")
    has_turn = isinstance(dnode, yaml.ScalarNode) and any(
        "to move" in ln.lower() or "to play" in ln.lower()
        for ln in str(dnode.value).splitlines()
    )
    if to_move is None and not has_turn:
        raise entry.fail("who is to move? end the diagram with 'South to move' or 'North to "
                         "move', or add 'to-move: S' / 'to-move: N'", dnode)
    return posfile.read_diagram(
        dnode, entry.source, entry.fail, to_move,
        entry.value("to-move") if "to-move" in entry else None,
        lambda problem, at: CatalogueError(f"diagram: {problem}", entry.source, at, entry.id),
        has_turn)


def _read_history(entry: _Entry, position: Position) -> tuple[Position, ...]:
    """The earlier positions (oldest first), each side to move alternating back."""
    if "history" not in entry:
        return ()
    return posfile.read_history(entry.value("history"), entry.fail, position.turn,
                                "history is a list of position strings (oldest first)")


def _read_stipulation(entry: _Entry, position: Position) -> Stipulation:
    if "stipulation" not in entry:
        raise entry.fail("no 'stipulation' (like 'South wins in 2')")
    snode = yamlnodes.scalar(entry.value("stipulation"), "stipulation",
                             "like 'South wins in 2'", entry.fail)
    try:
        return Stipulation.parse(snode.value, position.turn)
    except ValueError as e:
        raise entry.fail(str(e), snode) from None


def _read_solution(entry: _Entry, stipulation: Stipulation, lines: dict[str, int]
                   ) -> tuple[str | None, tuple[str, ...], Node | None]:
    """``(key, main line, tree)``; records the lines of the key and the main line."""
    key = None
    main_line: tuple[str, ...] = ()
    tree = None
    if "solution" in entry:
        sol = entry.value("solution")
        if not isinstance(sol, yaml.MappingNode):
            raise entry.fail("solution is a mapping with 'key', 'main-line' and optionally "
                             "'tree'", sol)
        sentries = yamlnodes.mapping(sol, entry.fail)
        for k, (knode, _) in sentries.items():
            if k not in SOLUTION_KEYS:
                raise entry.fail(f"unknown solution key {k!r}: use "
                                 f"{', '.join(SOLUTION_KEYS)}", knode)
        if "key" in sentries:
            key = yamlnodes.scalar(sentries["key"][1], "solution key", "a move like 16-35",
                                   entry.fail).value
            lines["key"] = yamlnodes.line(sentries["key"][1])
        if "main-line" in sentries:
            main_line = _turn_list(sentries["main-line"][1], "main-line", entry.fail)
            lines["main-line"] = yamlnodes.line(sentries["main-line"][1])
        if "tree" in sentries:
            tree = _read_tree(entry, sentries["tree"][1])
    elif stipulation.kind != "none":
        raise entry.fail("no 'solution': give at least its 'key' and 'main-line'")
    if stipulation.kind == "win" and key is None:
        raise entry.fail("the solution has no 'key' (the winning first move)",
                         entry.value("solution"))
    if stipulation.kind != "none" and not main_line:
        raise entry.fail("the solution has no 'main-line' (the turns down to the goal)",
                         entry.value("solution"))
    return key, main_line, tree


def _read_tree(entry: _Entry, node: yaml.Node) -> Node:
    """The solver's tree as ``gyges solve --json`` writes it."""
    data = yaml.SafeLoader("").construct_document(node)
    try:
        return node_from_json(data)
    except TreeError as e:
        raise entry.fail(f"the solution tree is not one the solver writes: {e}", node) \
            from None


def _read_cooks(entry: _Entry) -> tuple[str, ...]:
    if "cooks" not in entry:
        return ()
    return _turn_list(entry.value("cooks"), "cooks", entry.fail)


def _read_themes(entry: _Entry) -> tuple[str, ...]:
    if "themes" not in entry:
        return ()
    themes = _turn_list(entry.value("themes"), "themes", entry.fail)
    for theme, tnode in zip(themes, _items(entry.value("themes")), strict=True):
        problem = theme_problem(theme)
        if problem:
            raise entry.fail(problem, tnode)
    return themes


def _read_difficulty(entry: _Entry) -> int | None:
    if "difficulty" not in entry:
        return None
    dnode = yamlnodes.scalar(entry.value("difficulty"), "difficulty", "1 to 5", entry.fail)
    if dnode.value not in ("1", "2", "3", "4", "5"):
        raise entry.fail(f"difficulty {dnode.value!r}: use a whole number from 1 (easy) to 5",
                         dnode)
    return int(dnode.value)


def _items(node: yaml.Node) -> list[yaml.Node]:
    return list(node.value) if isinstance(node, yaml.SequenceNode) else [node]


def _turn_list(node: yaml.Node, what: str, fail: yamlnodes.Fail) -> tuple[str, ...]:
    """A list of texts, or one text."""
    out = []
    for item in _items(node):
        out.append(str(yamlnodes.scalar(item, f"an entry of {what}", "text", fail).value))
    return tuple(out)


def theme_problem(theme: str) -> str | None:
    """Why ``theme`` is not a known theme, or None.

    >>> theme_problem("bounce chain 3") is None, theme_problem("bounce chain") is not None
    (True, True)
    """
    if theme in THEMES and theme != "bounce chain N":
        return None
    if re.fullmatch(r"bounce chain [1-9][0-9]*", theme):
        return None
    if theme in _RETIRED:
        return f"the theme {theme!r} is no longer used: {_RETIRED[theme]}"
    others = ", ".join(repr(t) for t in THEMES if t != "bounce chain N")
    return (f"unknown theme {theme!r}: the themes are 'bounce chain N' (N bounces in one "
            f"move), {others} (docs/catalogue.md, Themes)")


def load_catalogue(path: str | Path) -> Catalogue:
    """Read a catalogue file; :class:`CatalogueError` says what is wrong and where."""
    source = str(path)
    text = yamlnodes.read_file(path, lambda problem: CatalogueError(problem, source))
    return parse_catalogue(text, source)


def catalogue_files(paths: Iterable[str | Path], *, recursive: bool = False) -> list[Path]:
    """The ``*.yaml`` files named, or found in the named directories (sorted; with
    ``recursive``, then those of their subdirectories, each sorted the same way)."""
    out: list[Path] = []
    for p in paths:
        path = Path(p)
        try:
            is_dir, exists = path.is_dir(), path.exists()
        except OSError as e:   # a name the system refuses (too long)
            raise CatalogueError(f"cannot read it: {e.strerror}", excerpt(str(path))) \
                from None
        if is_dir:
            out.extend(_directory_files(path, recursive))
        elif exists:
            out.append(path)
        else:
            raise CatalogueError("no such file or directory", str(path))
    return out

def _directory_files(directory: Path, recursive: bool) -> list[Path]:
    """The catalogue files of a directory, sorted, then (``recursive``) those of each
    subdirectory in turn."""
    entries = sorted(directory.iterdir())
    out = [f for f in entries if f.suffix in (".yaml", ".yml") and f.is_file()]
    if recursive:
        for d in entries:
            if d.is_dir():
                out.extend(_directory_files(d, recursive))
    return out


def load_all(paths: Iterable[str | Path], *, recursive: bool = False
             ) -> tuple[list[Puzzle], list[CatalogueError]]:
    """Every puzzle of the files named or found in the directories (:func:`catalogue_files`;
    ``recursive``: their subdirectories too), and the problems of the files that cannot be
    read (reported, not raised; a repeated id is one of them)."""
    puzzles: list[Puzzle] = []
    errors: list[CatalogueError] = []
    seen: dict[str, Puzzle] = {}
    places: dict[tuple, Puzzle] = {}
    for f in catalogue_files(paths, recursive=recursive):
        source = str(f)
        try:
            text = yamlnodes.read_file(f, functools.partial(CatalogueError, source=source))
            cat = parse_catalogue(text, source, errors)
        except CatalogueError as e:
            errors.append(e)
            continue
        for p in cat.puzzles:
            if p.id in seen:
                other = seen[p.id]
                errors.append(p.error(f"the id is already used in {other.file}:{other.line}",
                                      "id", malformed=True))
                continue
            where = (p.position, p.rules, p.history)
            if where in places:
                other = places[where]
                errors.append(p.error(f"the same position as puzzle {other.id} "
                                      f"({other.file}:{other.line})", "diagram"))
            places.setdefault(where, p)
            seen[p.id] = p
            puzzles.append(p)
    return puzzles, errors
