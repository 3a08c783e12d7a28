"""The puzzle catalogue: YAML files of puzzles, read with line numbers and re-proved.

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
the puzzle (``puzzles/seed000.yaml:12: puzzle seed000-taboo: ...``). Checking
(:func:`check_puzzle`) re-proves an entry with the solver and returns what is wrong.

>>> s = Stipulation.parse("North wins in 1")
>>> s.kind, s.moves, s.side, str(s)
('win', 1, <Side.NORTH: 'N'>, 'North wins in 1')
>>> str(Stipulation.parse("loses in 2", Side.SOUTH))
'South loses in 2'
>>> str(Stipulation.parse("no forced result in 1", Side.NORTH))
'no forced result in 1'
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

import yaml

from solver.formats import yamlnodes
from solver.game.moves import Move, apply_move, legal_moves
from solver.game.position import Position, PositionError
from solver.game.rules import PRESETS, RuleSet, Side

SCHEMA_VERSION = 1

#: Keys of a puzzle entry (``schema`` only in a bare list of puzzles).
PUZZLE_KEYS = (
    "id", "title", "source", "credit", "rules", "rule", "diagram", "position", "to-move",
    "history", "stipulation", "solution", "cooks", "themes", "difficulty", "notes", "schema",
)
SOLUTION_KEYS = ("key", "main-line", "tree")
FILE_KEYS = ("schema", "title", "description", "puzzles")

#: Themes the checker can verify on the main line (``bounce chain N``: the longest chain
#: of bounces of one of the winner's moves is N).
THEMES = ("bounce chain", "relocation", "stalemate chain", "taboo", "Renop", "unstoppable")

_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")
_STIPULATION = re.compile(
    r"^\s*(?:(?P<side>south|north|s|n)\s+)?(?:to\s+move\s+(?:and\s+)?)?"
    r"(?P<verb>wins?|loses?)\s+in\s+(?P<k>\d+)\s*$"
    r"|^\s*(?:(?P<side2>south|north|s|n)\s*(?:to\s+move)?\s*:?\s*)?"
    r"no\s+forced\s+result\s+(?:in|within)\s+(?P<k2>\d+)\s*$",
    re.IGNORECASE,
)


class CatalogueError(ValueError):
    """A catalogue problem: ``str()`` is ``file:line: puzzle <id>: what is wrong``.

    ``malformed`` tells a file that cannot be read (exit status 2) from an entry the
    solver refutes (exit status 1).
    """

    def __init__(self, problem: str, source: str, line: int | None = None,
                 puzzle: str | None = None, *, malformed: bool = True) -> None:
        self.problem = problem
        self.source = source
        self.line = line
        self.puzzle = puzzle
        self.malformed = malformed
        where = f"{source}:{line}" if line is not None else source
        who = f" puzzle {puzzle}:" if puzzle else ""
        super().__init__(f"{where}:{who} {problem}")


# -- stipulations --------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Stipulation:
    """What the solver must prove about the side to move.

    ``win``: it wins with its ``moves``-th move and no sooner; ``loss``: whatever it does,
    the opponent wins with its ``moves``-th move and no sooner against the best defence;
    ``none``: neither side can force a win within ``moves`` moves.
    """

    kind: str
    moves: int
    side: Side | None = None

    @classmethod
    def parse(cls, text: str, turn: Side | None = None) -> Stipulation:
        """Read ``North wins in 2``, ``loses in 3``, ``no forced result in 2``.

        ``turn`` (the side to move) fills in a missing side; a side that is not the side to
        move is an error.
        """
        m = _STIPULATION.match(str(text))
        if not m:
            raise ValueError(
                f"{text!r} is not a stipulation: write '<side> wins in N', '<side> loses in "
                "N' or 'no forced result in N' (N = the winner's moves), like 'South wins in 2'"
            )
        side_text = m.group("side") or m.group("side2")
        side = Side.parse(side_text) if side_text else turn
        if turn is not None and side is not turn:
            raise ValueError(
                f"the stipulation speaks of {side.title} but {turn.title} is to move: "
                f"a stipulation is about the side to move ({turn.title})"
            )
        if m.group("verb"):
            kind = "win" if m.group("verb").lower().startswith("win") else "loss"
            k = int(m.group("k"))
        else:
            kind, k = "none", int(m.group("k2"))
        if k < 1:
            raise ValueError(f"{text!r}: N counts moves, so it is 1 or more")
        return cls(kind, k, side)

    def __str__(self) -> str:
        if self.kind == "none":
            return f"no forced result in {self.moves}"
        who = f"{self.side.title} " if self.side else ""
        verb = "wins" if self.kind == "win" else "loses"
        return f"{who}{verb} in {self.moves}"


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
    tree: Any = None
    cooks: tuple[str, ...] = ()
    themes: tuple[str, ...] = ()
    difficulty: int | None = None
    notes: str = ""
    file: str = "<catalogue>"
    line: int = 1
    lines: dict[str, int] = dataclasses.field(default_factory=dict, compare=False, hash=False)

    def line_of(self, key: str) -> int:
        return self.lines.get(key, self.line)

    def error(self, problem: str, key: str | None = None, *, malformed: bool = False
              ) -> CatalogueError:
        return CatalogueError(problem, self.file, self.line_of(key) if key else self.line,
                              self.id, malformed=malformed)


@dataclasses.dataclass(frozen=True)
class Catalogue:
    """The puzzles of one file, with where their list sits (for appending)."""

    source: str
    puzzles: tuple[Puzzle, ...]
    title: str = ""
    description: str = ""
    form: str = "mapping"  # "mapping" ({schema, puzzles}) or "list" (a bare list)
    list_indent: int = 0  # column of the '-' of the entries


def parse_catalogue(text: str, source: str = "<catalogue>") -> Catalogue:
    """Read a catalogue file's text; :class:`CatalogueError` says what and where."""
    def fail_file(problem: str, node: yaml.Node | None = None) -> CatalogueError:
        return CatalogueError(problem, source, yamlnodes.line(node) if node is not None else None)

    root = yamlnodes.compose(text, lambda problem, at: CatalogueError(problem, source, at))
    if root is None:
        raise CatalogueError("the file is empty: it needs 'schema: 1' and 'puzzles:'", source, 1)

    title = description = ""
    if isinstance(root, yaml.MappingNode):
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
        if "title" in entries:
            title = yamlnodes.scalar(entries["title"][1], "title", "text", fail_file).value
        if "description" in entries:
            description = yamlnodes.scalar(entries["description"][1], "description", "text",
                                          fail_file).value
        if "puzzles" not in entries:
            raise CatalogueError("no 'puzzles:' list", source, 1)
        seq = entries["puzzles"][1]
        if yamlnodes.is_null(seq):
            return Catalogue(source, (), title, description, "mapping", 0)
        form = "mapping"
    else:
        seq = root
        form = "list"
    if not isinstance(seq, yaml.SequenceNode):
        raise fail_file(f"the puzzles are a YAML list ('- id: ...' entries), not "
                        f"{yamlnodes.kind(seq)}", seq)
    puzzles = []
    seen: dict[str, int] = {}
    for item in seq.value:
        puzzle = _parse_puzzle(item, source, form == "list")
        if puzzle.id in seen:
            raise puzzle.error(f"the id {puzzle.id!r} is already used on line "
                               f"{seen[puzzle.id]}: ids are unique", "id", malformed=True)
        seen[puzzle.id] = puzzle.line
        puzzles.append(puzzle)
    indent = seq.value[0].start_mark.column - 2 if seq.value else 0
    return Catalogue(source, tuple(puzzles), title, description, form, max(indent, 0))


def _check_schema(node: yaml.Node, fail) -> None:
    if not (isinstance(node, yaml.ScalarNode) and node.value == str(SCHEMA_VERSION)):
        value = getattr(node, "value", node)
        raise fail(f"schema {value!r} is not known: this program reads schema "
                   f"{SCHEMA_VERSION} (docs/catalogue.md)", node)


def _parse_puzzle(node: yaml.Node, source: str, bare_list: bool) -> Puzzle:
    from solver.formats import posfile

    puzzle_id: str | None = None

    def fail(problem: str, at: yaml.Node | None = None) -> CatalogueError:
        where = yamlnodes.line(at if at is not None else node)
        return CatalogueError(problem, source, where, puzzle_id)

    if not isinstance(node, yaml.MappingNode):
        raise fail(f"a puzzle is a mapping of keys (id, diagram, stipulation, ...), not "
                   f"{yamlnodes.kind(node)}")
    entries = yamlnodes.mapping(node, fail)
    if "id" in entries:
        id_node = yamlnodes.scalar(entries["id"][1], "id", "a word like seed000-taboo", fail)
        puzzle_id = id_node.value
        if not _ID.match(puzzle_id):
            raise fail(f"the id {puzzle_id!r} may hold only letters, digits, '-', '_' and '.'",
                       id_node)
    else:
        raise fail("no 'id': every puzzle has one (a word like seed000-taboo)")
    for key, (key_node, _) in entries.items():
        if key not in PUZZLE_KEYS:
            raise fail(f"unknown key {key!r}: {yamlnodes.suggest(key, PUZZLE_KEYS)}"
                       f"the keys are {', '.join(PUZZLE_KEYS)}", key_node)
    if "schema" in entries:
        if not bare_list:
            raise fail("'schema' belongs at the top of the file, not in a puzzle",
                       entries["schema"][0])
        _check_schema(entries["schema"][1], fail)
    elif bare_list:
        raise fail(f"a bare list of puzzles carries 'schema: {SCHEMA_VERSION}' in every entry "
                   "(or write the file as a mapping with 'schema:' and 'puzzles:')")
    lines = {key: yamlnodes.line(v) for key, (_, v) in entries.items()}

    def text(key: str, expected: str = "text") -> str:
        if key not in entries:
            return ""
        return yamlnodes.scalar(entries[key][1], key, expected, fail).value

    # Position: a diagram (the readable form) or a position string.
    given = [k for k in ("diagram", "position") if k in entries]
    if not given:
        raise fail("no position: draw it under 'diagram: |' (seed 000 style) or give "
                   "'position: <position string>'")
    if len(given) > 1:
        raise fail("both 'diagram' and 'position': give the position once",
                   entries["position"][0])
    to_move = None
    if "to-move" in entries:
        tm = yamlnodes.scalar(entries["to-move"][1], "to-move", "S or N", fail)
        try:
            to_move = Side.parse(tm.value)
        except ValueError:
            raise fail(f"to-move cannot be {tm.value!r}: use S (South) or N (North)", tm) \
                from None
    try:
        if given[0] == "diagram":
            dnode = entries["diagram"][1]
            has_turn = isinstance(dnode, yaml.ScalarNode) and any(
                "to move" in ln.lower() or "to play" in ln.lower()
                for ln in str(dnode.value).splitlines()
            )
            if to_move is None and not has_turn:
                raise fail("who is to move? end the diagram with 'South to move' or 'North to "
                           "move', or add 'to-move: S' / 'to-move: N'", dnode)
            position = _diagram(dnode, source, puzzle_id, fail, to_move, has_turn,
                                entries.get("to-move"))
        else:
            position = posfile.read_position(entries["position"][1], fail, "position")
            if to_move is not None and to_move is not position.turn:
                raise fail("to-move and the position string disagree on who moves",
                           entries["to-move"][1])
    except PositionError as e:
        if isinstance(e, CatalogueError):
            raise
        raise fail(str(e), entries[given[0]][1]) from None

    rules = posfile.read_rules(entries, fail) or PRESETS["pbmserv"]

    history: tuple[Position, ...] = ()
    if "history" in entries:
        hnode = entries["history"][1]
        items = [] if yamlnodes.is_null(hnode) else getattr(hnode, "value", None)
        if not isinstance(hnode, yaml.SequenceNode) and items != []:
            raise fail("history is a list of position strings (oldest first)", hnode)
        turns = posfile.alternating_back(position.turn, len(items))
        history = tuple(
            posfile.read_position(item, fail, f"history entry {i + 1}", default_turn=turn)
            for i, (item, turn) in enumerate(zip(items, turns, strict=True))
        )

    if "stipulation" not in entries:
        raise fail("no 'stipulation' (like 'South wins in 2')")
    snode = yamlnodes.scalar(entries["stipulation"][1], "stipulation", "like 'South wins in 2'",
                            fail)
    try:
        stipulation = Stipulation.parse(snode.value, position.turn)
    except ValueError as e:
        raise fail(str(e), snode) from None

    key = None
    main_line: tuple[str, ...] = ()
    tree = None
    if "solution" in entries:
        sol = entries["solution"][1]
        if not isinstance(sol, yaml.MappingNode):
            raise fail("solution is a mapping with 'key', 'main-line' and optionally 'tree'",
                       sol)
        sentries = yamlnodes.mapping(sol, fail)
        for k, (knode, _) in sentries.items():
            if k not in SOLUTION_KEYS:
                raise fail(f"unknown solution key {k!r}: use {', '.join(SOLUTION_KEYS)}", knode)
        if "key" in sentries:
            key = yamlnodes.scalar(sentries["key"][1], "solution key", "a move like 16-35",
                                  fail).value
            lines["key"] = yamlnodes.line(sentries["key"][1])
        if "main-line" in sentries:
            main_line = _turn_list(sentries["main-line"][1], "main-line", fail)
            lines["main-line"] = yamlnodes.line(sentries["main-line"][1])
        if "tree" in sentries:
            tree = yaml.SafeLoader("").construct_document(sentries["tree"][1])
    elif stipulation.kind != "none":
        raise fail("no 'solution': give at least its 'key' and 'main-line'")
    if stipulation.kind == "win" and key is None:
        raise fail("the solution has no 'key' (the winning first move)",
                   entries["solution"][1])
    if stipulation.kind != "none" and not main_line:
        raise fail("the solution has no 'main-line' (the turns down to the goal)",
                   entries["solution"][1])

    cooks: tuple[str, ...] = ()
    if "cooks" in entries:
        cooks = _turn_list(entries["cooks"][1], "cooks", fail)
    themes: tuple[str, ...] = ()
    if "themes" in entries:
        themes = _turn_list(entries["themes"][1], "themes", fail)
        for theme, tnode in zip(themes, _items(entries["themes"][1]), strict=True):
            problem = theme_problem(theme)
            if problem:
                raise fail(problem, tnode)
    difficulty = None
    if "difficulty" in entries:
        dnode = yamlnodes.scalar(entries["difficulty"][1], "difficulty", "1 to 5", fail)
        if dnode.value not in ("1", "2", "3", "4", "5"):
            raise fail(f"difficulty {dnode.value!r}: use a whole number from 1 (easy) to 5",
                       dnode)
        difficulty = int(dnode.value)

    return Puzzle(
        id=puzzle_id, position=position, rules=rules, stipulation=stipulation,
        title=text("title"), source=text("source"), credit=text("credit"), history=history,
        key=key, main_line=main_line, tree=tree, cooks=cooks, themes=themes,
        difficulty=difficulty, notes=text("notes"), file=source, line=yamlnodes.line(node),
        lines=lines,
    )


def _diagram(node: yaml.Node, source: str, puzzle_id: str | None, fail, to_move: Side | None,
             has_turn: bool, to_move_entry) -> Position:
    """The position drawn under ``diagram:`` (errors located on the diagram's own lines)."""
    from solver.formats.diagram import DiagramError, parse_diagram

    node = yamlnodes.scalar(node, "diagram", "a text diagram written as a block scalar "
                           "('diagram: |' then the diagram's lines, indented)", fail)
    literal = node.style == "|"
    first = yamlnodes.line(node) + 1 if literal else yamlnodes.line(node)
    try:
        position = parse_diagram(node.value, source, first_line=first)
    except DiagramError as e:
        line = e.line if literal else yamlnodes.line(node)
        raise CatalogueError(f"diagram: {e.problem}", source, line, puzzle_id) from None
    if to_move is not None:
        if has_turn and position.turn is not to_move:
            raise fail(f"to-move says {to_move.value} but the diagram says "
                       f"{position.turn.title} to move: keep one of them", to_move_entry[1])
        position = position.with_turn(to_move)
    return position


def _items(node: yaml.Node) -> list[yaml.Node]:
    return list(node.value) if isinstance(node, yaml.SequenceNode) else [node]


def _turn_list(node: yaml.Node, what: str, fail) -> tuple[str, ...]:
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
    if theme in THEMES[1:]:
        return None
    if re.fullmatch(r"bounce chain [1-9][0-9]*", theme):
        return None
    return (f"unknown theme {theme!r}: the themes are 'bounce chain N' (N bounces in one "
            f"move), {', '.join(repr(t) for t in THEMES[1:])}")


def load_catalogue(path: str | Path) -> Catalogue:
    """Read a catalogue file; :class:`CatalogueError` says what is wrong and where."""
    source = str(path)
    text = yamlnodes.read_file(path, lambda problem: CatalogueError(problem, source))
    return parse_catalogue(text, source)


def catalogue_files(paths: Iterable[str | Path]) -> list[Path]:
    """The ``*.yaml`` files named or found (sorted) in the named directories."""
    out: list[Path] = []
    for p in paths:
        path = Path(p)
        if path.is_dir():
            out.extend(sorted([*path.glob("*.yaml"), *path.glob("*.yml")]))
        elif path.exists():
            out.append(path)
        else:
            raise CatalogueError("no such file or directory", str(path))
    return out


# -- playing a solution ----------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Line:
    """A main line played out: its moves (turn by turn) and the positions before each."""

    turns: tuple[tuple[Move, ...], ...]
    positions: tuple[Position, ...]  # the position before each move, in order
    end: Position | None  # after the last move (None when it landed on a goal)

    @property
    def moves(self) -> tuple[Move, ...]:
        return tuple(m for turn in self.turns for m in turn)


def play_line(position: Position, rules: RuleSet, turns: Sequence[str],
              history: Sequence[Position] = ()) -> Line:
    """Play turns written in pbmserv notation; NotationError (a ValueError) if one fails."""
    from solver.formats.notation import parse_turn

    hist = list(history)
    played = []
    before = []
    pos: Position | None = position
    for i, text in enumerate(turns):
        if pos is None:
            raise ValueError(f"turn {i + 1} ({text}) comes after the game ended on a goal")
        moves = parse_turn(text, pos, rules, hist)
        for move in moves:
            before.append(pos)
            if move.is_win:
                pos = None
                break
            hist.append(pos)
            pos = apply_move(pos, move)
        played.append(tuple(moves))
    return Line(tuple(played), tuple(before), pos)


def line_themes(line: Line, rules: RuleSet, stipulation: Stipulation,
                history: Sequence[Position] = ()) -> list[str]:
    """The themes a played main line shows (see :data:`THEMES`), all but Renop (which
    needs the solver: :func:`renop_matters`)."""
    moves = line.moves
    if not moves:
        return []
    # The winner's moves make the themes (with no winner: the side to move's).
    winner = moves[-1].side if moves[-1].is_win else moves[0].side
    themes = []
    chain = max((m.bounces for m in moves if m.side is winner), default=0)
    if chain:
        themes.append(f"bounce chain {chain}")
    if any(m.is_replace for m in moves if m.side is winner):
        themes.append("relocation")
    if any(a.side is b.side for a, b in zip(moves, moves[1:], strict=False)):
        themes.append("stalemate chain")
    if any(m.side is winner and len(set(m.path)) < len(m.path) for m in moves):
        themes.append("taboo")
    if stipulation.kind == "loss":
        themes.append("unstoppable")
    return themes


def renop_matters(position: Position, rules: RuleSet, stipulation: Stipulation,
                  history: Sequence[Position] = (), solve: SolveFn | None = None) -> bool:
    """Does the Renop law change the answer? (The solver's result without it differs.)"""
    if rules.repetition != "forbidden":
        return False
    solve = solve or _default_solve()
    free = rules.with_options({"repetition": "allowed"})
    sol = solve(position, free, max_moves=stipulation.moves, history=history)
    return (sol.result, sol.moves) != (stipulation.kind,
                                       stipulation.moves if stipulation.kind != "none" else None)


# -- checking ----------------------------------------------------------------------------


SolveFn = Callable[..., Any]


def _default_solve() -> SolveFn:
    from solver.search.prover import solve

    return solve


def check_puzzle(puzzle: Puzzle, solve: SolveFn | None = None) -> list[CatalogueError]:
    """Re-prove an entry; the problems found (empty when the entry is right).

    The stipulation must be exact (the solver's result and k), the declared key must be a
    key and every other key declared under ``cooks``, the main line legal, starting with
    the key, ending on the goal with the stipulated number of winner's moves, and every
    declared theme shown by it.
    """
    from solver.formats.notation import format_move

    solve = solve or _default_solve()
    problems: list[CatalogueError] = []
    st = puzzle.stipulation
    pos, rules = puzzle.position, puzzle.rules
    sol = solve(pos, rules, max_moves=st.moves, history=puzzle.history)
    found = _describe(sol, pos.turn)
    if sol.result != st.kind or (st.kind != "none" and sol.moves != st.moves):
        problems.append(puzzle.error(
            f"the stipulation says '{st}' but the solver proves '{found}'", "stipulation"))
        return problems

    from solver.formats.notation import parse_move

    def result_of(move: Move) -> tuple:
        if move.is_win:
            return ("win", move.start)
        return ("board", apply_move(pos, move).board)

    def parse(text: str, what: str, key: str) -> Move | None:
        try:
            return parse_move(text, pos, rules, puzzle.history)
        except ValueError as e:
            problems.append(puzzle.error(f"the {what} {text} is not a legal move: {e}", key))
            return None

    key_move = parse(puzzle.key, "key", "key") if puzzle.key is not None else None
    if st.kind == "win":
        keys = {result_of(m): m for m in sol.keys}
        declared = {result_of(key_move): key_move} if key_move else {}
        if key_move is not None and result_of(key_move) not in keys:
            shown = ", ".join(format_move(m) for m in keys.values())
            problems.append(puzzle.error(
                f"the key {puzzle.key} is not a key: the solver's key"
                f"{'s are' if len(keys) > 1 else ' is'} {shown}", "key"))
        for cook in puzzle.cooks:
            m = parse(cook, "declared cook", "cooks")
            if m is None:
                continue
            if result_of(m) not in keys:
                problems.append(puzzle.error(f"the declared cook {cook} is not a key", "cooks"))
            declared[result_of(m)] = m
        extra = [format_move(m) for r, m in keys.items() if r not in declared]
        if extra and not problems:
            problems.append(puzzle.error(
                f"cooked: {', '.join(extra)} also win{'s' if len(extra) == 1 else ''} in "
                f"{st.moves}; declare {'it' if len(extra) == 1 else 'them'} under 'cooks' or "
                "change the position", "key"))
    elif key_move is not None and not key_move.is_win:
        # A defence: after it the opponent must win in exactly k (loss) or not at all (none).
        after = apply_move(pos, key_move)
        reply = solve(after, rules, max_moves=st.moves, history=[*puzzle.history, pos])
        if st.kind == "loss" and (reply.result != "win" or reply.moves != st.moves):
            problems.append(puzzle.error(
                f"the key {puzzle.key} is not a longest defence: after it "
                f"{_describe(reply, after.turn)}", "key"))
        if st.kind == "none" and reply.result == "win":
            problems.append(puzzle.error(
                f"the key {puzzle.key} does not hold: after it {_describe(reply, after.turn)}",
                "key"))

    if puzzle.main_line:
        problems.extend(_check_line(puzzle, st, solve))
    return problems


def _describe(sol: Any, turn: Side) -> str:
    if sol.result == "none":
        return f"no forced result in {sol.moves}" if sol.moves else "no forced result"
    return str(Stipulation(sol.result, sol.moves, turn))


def _check_line(puzzle: Puzzle, st: Stipulation, solve: SolveFn) -> list[CatalogueError]:
    from solver.formats.notation import format_move

    try:
        line = play_line(puzzle.position, puzzle.rules, puzzle.main_line, puzzle.history)
    except ValueError as e:
        return [puzzle.error(f"the main line is not legal: {e}", "main-line")]
    moves = line.moves
    problems = []
    if puzzle.key is not None and moves and format_move(moves[0]) != puzzle.key:
        problems.append(puzzle.error(
            f"the main line starts with {format_move(moves[0])}, not with the key "
            f"{puzzle.key}", "main-line"))
    if st.kind == "none":
        return problems
    winner = puzzle.position.turn if st.kind == "win" else puzzle.position.turn.other
    if not moves or not moves[-1].is_win or moves[-1].side is not winner:
        problems.append(puzzle.error(
            f"the main line does not end with {winner.title} landing on the goal",
            "main-line"))
        return problems
    count = sum(1 for m in moves if m.side is winner)
    if count != st.moves:
        problems.append(puzzle.error(
            f"the main line has {count} move{'s' if count != 1 else ''} of {winner.title}, "
            f"the stipulation {st.moves}", "main-line"))
    shown = line_themes(line, puzzle.rules, st, puzzle.history)
    if "Renop" in puzzle.themes and renop_matters(puzzle.position, puzzle.rules, st,
                                                  puzzle.history, solve):
        shown.append("Renop")
    for theme in puzzle.themes:
        if theme not in shown:
            problems.append(puzzle.error(
                f"the theme {theme!r} is not shown by the main line (it shows: "
                f"{', '.join(shown) or 'none of the known themes'})", "themes"))
    return problems


def load_all(paths: Iterable[str | Path]) -> tuple[list[Puzzle], list[CatalogueError]]:
    """Every puzzle of the files named or found in the directories, and the problems of the
    files that cannot be read (reported, not raised; a repeated id is one of them)."""
    puzzles: list[Puzzle] = []
    errors: list[CatalogueError] = []
    seen: dict[str, Puzzle] = {}
    for f in catalogue_files(paths):
        try:
            cat = load_catalogue(f)
        except CatalogueError as e:
            errors.append(e)
            continue
        for p in cat.puzzles:
            if p.id in seen:
                other = seen[p.id]
                errors.append(p.error(f"the id is already used in {other.file}:{other.line}",
                                      "id", malformed=True))
                continue
            seen[p.id] = p
            puzzles.append(p)
    return puzzles, errors


# -- adding --------------------------------------------------------------------------------


def principal_line(position: Position, rules: RuleSet, result: str, k: int,
                   history: Sequence[Position] = (), solve: SolveFn | None = None,
                   first: Move | None = None) -> list[list[Move]]:
    """A main line proving ``result`` in ``k``: the winner's fastest moves against the
    defender's longest resistance, grouped in turns (a side playing on while its opponent
    is blocked stays in one turn)."""
    solve = solve or _default_solve()
    winner = position.turn if result == "win" else position.turn.other
    hist = list(history)
    pos = position
    remaining = k
    moves: list[Move] = []
    while True:
        legal = legal_moves(pos, rules, hist)
        if not legal.moves:
            raise ValueError(f"no legal move in {pos} on the main line")
        if legal.mover is winner:
            if first is not None and not moves:
                move = first
            else:
                wins = legal.wins
                if wins:
                    move = wins[0]
                else:
                    sol = solve(pos.with_turn(winner), rules, max_moves=remaining,
                                history=hist)
                    if sol.result != "win" or not sol.keys:
                        raise ValueError(f"the solver finds no win in {remaining} in {pos}")
                    move = sol.keys[0]
            remaining -= 1
        else:
            if first is not None and not moves:
                move = first
            else:
                move = _longest_defence(pos, legal.moves, rules, hist, remaining, solve)
        moves.append(move)
        if move.is_win:
            break
        hist.append(pos)
        pos = apply_move(pos, move)
    turns: list[list[Move]] = []
    for m in moves:
        if turns and turns[-1][0].side is m.side:
            turns[-1].append(m)
        else:
            turns.append([m])
    return turns


def _longest_defence(pos: Position, moves: Sequence[Move], rules: RuleSet, hist: list,
                     remaining: int, solve: SolveFn) -> Move:
    best, best_k = None, 0
    for m in moves:
        after = apply_move(pos, m)
        sol = solve(after, rules, max_moves=remaining, history=[*hist, pos])
        if sol.result != "win":
            # the opponent of the winner escapes: only possible for an illegal claim
            raise ValueError(f"{m} escapes: the position is not lost in {remaining}")
        if sol.moves > best_k:
            best, best_k = m, sol.moves
            if best_k == remaining:
                break
    assert best is not None
    return best


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

    >>> from solver.game.position import Position
    >>> p = Position.from_string("....../3...../..1.1./1.23.3/3.22.1/....2. N")
    >>> text = format_entry("x1", p, PRESETS["pbmserv"], Stipulation("win", 1, Side.NORTH),
    ...                     key="51-43-33-31-21-S", main_line=["51-43-33-31-21-S"])
    >>> parse_catalogue("schema: 1\\npuzzles:\\n" + text).puzzles[0].key
    '51-43-33-31-21-S'
    """
    from solver.formats.diagram import format_diagram
    from solver.formats.posfile import _closest_preset

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
        import textwrap

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
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return result


def difficulty_of(stipulation: Stipulation, themes: Sequence[str]) -> int:
    """A rough 1..5 rating: longer solutions and subtler themes are harder.

    >>> difficulty_of(Stipulation("win", 1), ["bounce chain 1"])
    1
    >>> difficulty_of(Stipulation("win", 2), ["bounce chain 4", "relocation"])
    4
    """
    score = stipulation.moves
    for t in themes:
        if t.startswith("bounce chain") and int(t.split()[-1]) >= 3:
            score += 1
        elif t in ("relocation", "stalemate chain", "taboo", "Renop"):
            score += 1
    return max(1, min(5, score - (1 if len(themes) > 2 else 0)))


__all__ = [
    "Catalogue", "CatalogueError", "Line", "Puzzle", "SCHEMA_VERSION", "Stipulation", "THEMES",
    "catalogue_files", "check_puzzle", "load_all", "difficulty_of", "line_themes",
    "load_catalogue", "parse_catalogue", "play_line", "principal_line", "renop_matters",
    "theme_problem", "format_entry", "append_entry",
]
