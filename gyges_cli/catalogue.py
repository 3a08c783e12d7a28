"""The puzzle catalogue commands (``gyges catalogue check|add|list``) and ``gyges export``.

Exit status of ``catalogue check``: 0 when every entry is proven, 1 when the solver
refutes an entry (a wrong stipulation, an undeclared cook, an illegal main line), 2 when a
file cannot be read (malformed YAML, an unknown key, a bad diagram). Every message is
``file:line: puzzle <id>: what is wrong``.
"""

from __future__ import annotations

import datetime
import functools
import os
import sys
import time
from pathlib import Path

import click

from gyges.formats.notation import parse_move
from gyges.game.rules import RuleSet
from gyges.output import OutputError, check_output, signed, write_atomic
from gyges.parallel import StatusLine
from gyges.puzzles.book import PdfError, export_pdf, source_date
from gyges.puzzles.catalogue import (
    AuthoringError,
    CatalogueError,
    Puzzle,
    add_entry,
    catalogue_files,
    check_puzzle,
    load_all,
    load_catalogue,
    play_line,
)
from gyges.puzzles.export import (
    BOOK_TITLE,
    Selection,
    export_html,
    export_text,
    make_book,
    puzzle_svgs,
    select_puzzles,
)
from gyges.search.prover import SolveError, solve
from gyges_cli.common import UserError, combine_rules, interrupted, rule_options, ticking
from gyges_cli.inputs import load_input

DEFAULT_DIR = "puzzles"
EXIT_WRONG = 1
EXIT_MALFORMED = 2


def _load_all(paths: tuple[str, ...]) -> tuple[list[Puzzle], list[CatalogueError]]:
    """Every puzzle of the files; unreadable files are returned as errors."""
    where = ", ".join(paths or (DEFAULT_DIR,))
    try:
        puzzles, errors = load_all(paths or (DEFAULT_DIR,))
    except CatalogueError as e:
        raise UserError(e.problem, e.source) from None
    if not puzzles and not errors and not catalogue_files(paths or (DEFAULT_DIR,)):
        raise UserError("no catalogue files (*.yaml) found", where)
    return puzzles, errors


@click.group(name="catalogue", short_help="Puzzle catalogue: check, add, list.")
def catalogue_group() -> None:
    """The puzzle catalogue: YAML files of proven puzzles (docs/catalogue.md).

    \b
    Examples:
      gyges catalogue check
      gyges catalogue list puzzles/seed000.yaml
      gyges catalogue add tests/data/positions/bouncing.yaml --to mine.yaml --id bouncing
    """


@catalogue_group.command(
    "check", short_help="Re-prove every puzzle (exit 1: wrong, 2: unreadable)."
)
@click.argument("paths", nargs=-1, type=click.Path())
@click.option("--quiet", "-q", is_flag=True, help="No progress lines on stderr.")
def check(paths: tuple[str, ...], quiet: bool) -> None:
    """Re-prove every puzzle of PATHS (files or directories; default: puzzles/).

    Each stipulation must be exact (no quicker win, the same k), every key but the declared
    one listed under 'cooks', the main line legal, starting with the key and ending on the
    goal, and each declared theme shown; one position under two ids is flagged. Every
    error of every file is reported in one pass. Exit status 1 if an entry is wrong, 2 if
    an entry or a file cannot be read.

    \b
    Examples:
      gyges catalogue check
      gyges catalogue check puzzles/seed000.yaml my-puzzles.yaml -q
    """
    puzzles, errors = _load_all(paths)
    for e in errors:
        click.echo(str(e), err=True)
    wrong = 0
    for i, p in enumerate(puzzles, 1):
        t0 = time.perf_counter()
        if not quiet:
            click.echo(f"[{i}/{len(puzzles)}] {p.id}: {p.stipulation} ...", err=True, nl=False)
        try:
            problems = check_puzzle(p)
        except (SolveError, ValueError) as e:
            problems = [p.error(f"cannot be checked: {e}")]
        if not quiet:
            verdict = "ok" if not problems else "WRONG"
            click.echo(f" {verdict} ({time.perf_counter() - t0:.2f} s)", err=True)
        for problem in problems:
            click.echo(str(problem), err=True)
        wrong += bool(problems) and p.id not in {e.puzzle for e in errors}
    unreadable = sum(1 for e in errors if e.malformed)
    duplicates = {e.puzzle for e in errors if not e.malformed}  # one position, two ids
    wrong += len(duplicates)
    proven = len(puzzles) - wrong
    click.echo(f"{len(puzzles)} puzzle{'s' if len(puzzles) != 1 else ''} checked: {proven} "
               f"proven, {wrong} wrong" + (f", {unreadable} unreadable" if unreadable else ""))
    if unreadable:
        sys.exit(EXIT_MALFORMED)
    if wrong:
        sys.exit(EXIT_WRONG)


@catalogue_group.command(
    "list", short_help="Table of id, stipulation, themes, difficulty."
)
@click.argument("paths", nargs=-1, type=click.Path())
def list_(paths: tuple[str, ...]) -> None:
    """A table of the puzzles of PATHS (default: puzzles/): id, stipulation, themes,
    difficulty.

    \b
    Example:
      gyges catalogue list puzzles/
    """
    puzzles, errors = _load_all(paths)
    rows = [("id", "stipulation", "themes", "difficulty")]
    for p in puzzles:
        rows.append((p.id, str(p.stipulation), ", ".join(p.themes) or "-",
                     str(p.difficulty) if p.difficulty else "-"))
    widths = [max(len(r[i]) for r in rows) for i in range(4)]
    for n, r in enumerate(rows):
        click.echo("  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip())
        if n == 0:
            click.echo("  ".join("-" * w for w in widths))
    for e in errors:
        click.echo(str(e), err=True)
    if errors:
        sys.exit(EXIT_MALFORMED)


@catalogue_group.command(
    "add", short_help="Solve a position and append it as a new entry."
)
@click.argument("source", metavar="POS|FILE")
@click.option("--to", "target", required=True, type=click.Path(dir_okay=False),
              help="The catalogue file to append to (created if missing).")
@click.option("--id", "puzzle_id", required=True, help="The new puzzle's id (unique).")
@click.option("--title", default="", help="A title for the puzzle.")
@click.option("--source", "source_text", default="", help="Where the position comes from.")
@click.option("--credit", default="", help="Who composed or found it.")
@click.option("--notes", default="", help="Notes printed with the solution.")
@click.option("--max-moves", default=3, show_default=True, type=click.IntRange(1, 30),
              help="Search bound: the solver proves the shortest result within it.")
@rule_options
def add(source: str, target: str, puzzle_id: str, title: str, source_text: str, credit: str,
        notes: str, max_moves: int, rules: RuleSet, rules_given: bool) -> None:
    """Solve POS|FILE and append it to a catalogue file with the solver's findings:
    stipulation, key (other keys as cooks), main line, themes and difficulty. The rest of
    the file is kept as written; the file is replaced whole (atomically).

    \b
    Examples:
      gyges catalogue add tests/data/positions/bouncing.yaml --to mine.yaml --id bouncing
      gyges catalogue add "....../3...../..1.1./1.23.3/3.22.1/....2. N" --to mine.yaml \\
          --id bouncing-2 --title "Bouncing" --max-moves 2
    """
    pf = load_input(source)
    rules = combine_rules(pf.rules, rules, rules_given)
    status = StatusLine(sys.stderr)   # on a terminal: the solver's stage and the time
    try:
        with ticking(status):
            found, text = add_entry(target, puzzle_id, pf.position, rules,
                                    max_moves=max_moves, history=pf.history, title=title,
                                    source=source_text, credit=credit, notes=notes,
                                    solve=functools.partial(solve, progress=status.show))
    except (SolveError, AuthoringError, CatalogueError) as e:
        raise UserError(str(e)) from None
    finally:
        status.clear()
    key, cooks = found.key, found.cooks
    click.echo(f"added {puzzle_id} to {target}: {found.stipulation}"
               + (f", key {key}" if key else "")
               + (f" ({len(cooks)} cook{'s' if len(cooks) != 1 else ''})" if cooks else ""))
    click.echo(text, nl=False)


@click.command(
    "export", short_help="Export puzzles as text, SVG, an HTML book or a PDF book."
)
@click.argument("paths", nargs=-1, type=click.Path())
@click.option("--format", "fmt", type=click.Choice(["text", "svg", "html", "pdf"]),
              default="html", show_default=True,
              help="text: puzzles.txt; svg: one file per diagram; html: book.html; "
              "pdf: book.pdf, typeset by WeasyPrint.")
@click.option("--out", "out", required=True, type=click.Path(),
              help="Where to write: a directory (created if missing), or for text, html "
              "and pdf a file name ending in .txt, .html or .pdf.")
@click.option("--title", default=None, help="The book's title.")
@click.option("--select", "select", multiple=True, metavar="KEY=VALUE[,VALUE]",
              help="Keep only matching puzzles; repeatable (all must match). Keys: id (glob, "
              "like 'seed000-*'), rules (a preset), stipulation ('win in 2', 'loss', 'none', "
              "'South wins in 2'), theme (like relocation or 'bounce chain'), difficulty "
              "(3, 1-2 or unrated).")
@click.option("--chapters", type=click.Choice(["difficulty", "theme", "stipulation", "file"]),
              default="difficulty", show_default=True, help="How the book groups its puzzles.")
@click.option("--paper", type=click.Choice(["a4", "letter"]), default="a4", show_default=True,
              help="Page size of the html and pdf books.")
@click.option("--arrows", type=click.Choice(["key", "line", "none"]), default="key",
              show_default=True, help="What the solution diagrams draw: the key's path, the "
              "main line as numbered arrows, or nothing.")
@click.option("--coordinates/--no-coordinates", default=True, show_default=True,
              help="Column and row numbers on the problems' diagrams.")
@click.option("--size", default=360, show_default=True, type=click.IntRange(60, 4000),
              help="Width in pixels of the svg files.")
@click.option("--monochrome", is_flag=True,
              help="Black-and-white diagrams: no grey (shores outlined, playable rings dotted).")
@click.option("--check/--no-check", "check_first", default=None,
              help="Re-prove every puzzle first and refuse to export if the solver disproves "
              "one (default: on for pdf, off otherwise).")
@click.option("--quiet", "-q", is_flag=True, help="No progress lines on stderr.")
@click.option("--force", is_flag=True,
              help="Replace files that gyges did not write (or that were edited since).")
def export(paths: tuple[str, ...], fmt: str, out: str, title: str | None,
           select: tuple[str, ...], chapters: str, paper: str, arrows: str, coordinates: bool,
           size: int, monochrome: bool, check_first: bool | None, quiet: bool,
           force: bool) -> None:
    """Export the puzzles of PATHS (default: puzzles/) as text, SVG diagrams, or a book in
    HTML or PDF: title page, contents, chapters, solutions at the back, index of themes.

    Each entry's key and main line are replayed by the engine first (cheap; --check and
    'catalogue check' re-prove them): an illegal one stops the export with exit status 1.
    Files are written whole (atomically); a file that gyges did not write, or one edited
    since, is not replaced without --force.

    \b
    Examples:
      gyges export --format pdf --out book.pdf
      gyges export --format html --out book --chapters theme --paper letter
      gyges export --format svg --out svg --select difficulty=1 --arrows line --monochrome
    """
    puzzles, errors = _load_all(paths)
    if errors:
        for e in errors:
            click.echo(str(e), err=True)
        raise UserError("fix the catalogue first (gyges catalogue check)")
    try:
        selection = Selection.parse(select)
    except ValueError as e:
        raise UserError(str(e)) from None
    puzzles = select_puzzles(puzzles, selection)
    if not puzzles:
        raise UserError(f"no puzzle matches --select {selection}")
    wrong = [problem for p in puzzles for problem in _engine_problems(p)]
    for problem in wrong:
        click.echo(str(problem), err=True)
    if wrong:
        click.echo("gyges: nothing exported: fix the catalogue first (gyges catalogue check)",
                   err=True)
        sys.exit(EXIT_WRONG)
    if check_first is None:
        check_first = fmt == "pdf"
    try:
        if check_first:
            _refuse_disproved(puzzles, quiet)
        target = _target(Path(out), fmt)
        if fmt == "svg":
            written = _write_svgs(target, puzzles, force, size=size, arrows=arrows,
                                  coordinates=coordinates, monochrome=monochrome)
        else:
            book = make_book(puzzles, title=title or BOOK_TITLE, chapters=chapters,
                             file_titles=_file_titles(puzzles))
            written = [_write_book(target, fmt, book, force, paper=paper, arrows=arrows,
                                   monochrome=monochrome, coordinates=coordinates)]
    except KeyboardInterrupt:
        interrupted("every file written is whole; nothing more written")
    where = target if fmt == "svg" else target.parent
    click.echo(f"wrote {len(written)} file{'s' if len(written) != 1 else ''} to {where}: "
               + ", ".join(w.name for w in written[:6]) + (" ..." if len(written) > 6 else ""))


_BOOK_FILES = {"text": ("puzzles.txt", ".txt"), "html": ("book.html", ".html"),
               "pdf": ("book.pdf", ".pdf")}


def _target(out: Path, fmt: str) -> Path:
    """The directory (svg) or file to write; parent directories are created."""
    if fmt == "svg":
        directory = out
    elif out.suffix.lower() == _BOOK_FILES[fmt][1]:
        directory, out = out.parent, out
    else:
        directory, out = out, out / _BOOK_FILES[fmt][0]
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise UserError(f"cannot create the directory: {e.strerror or e}", str(directory)
                        ) from None
    return directory if fmt == "svg" else out


def _refuse_disproved(puzzles: list[Puzzle], quiet: bool) -> None:
    """Re-prove every puzzle; print what the solver disproves and exit 1 if anything."""
    wrong = []
    for i, p in enumerate(puzzles, 1):
        if not quiet:
            click.echo(f"\r[{i}/{len(puzzles)}] checking {p.id} ...".ljust(60), err=True,
                       nl=False)
        try:
            problems = check_puzzle(p)
        except (SolveError, ValueError) as e:
            problems = [p.error(f"cannot be checked: {e}")]
        wrong += problems
    if not quiet:
        click.echo("\r" + " " * 60 + "\r", err=True, nl=False)
    if wrong:
        for problem in wrong:
            click.echo(str(problem), err=True)
        ids = sorted({w.puzzle for w in wrong if w.puzzle})
        click.echo(f"gyges export: refused: the solver disproves {len(ids)} entr"
                   f"{'y' if len(ids) == 1 else 'ies'} ({', '.join(ids)}); fix them (gyges "
                   "catalogue check) or leave them out with --select", err=True)
        sys.exit(EXIT_WRONG)


def _file_titles(puzzles: list[Puzzle]) -> dict[str, str]:
    titles = {}
    for f in dict.fromkeys(p.file for p in puzzles):
        try:
            titles[f] = load_catalogue(f).title
        except (CatalogueError, OSError):
            continue
    return titles


def _write_svgs(directory: Path, puzzles: list[Puzzle], force: bool, **options
                ) -> list[Path]:
    files = {directory / name: signed(svg, "<!--", "-->").encode("utf-8")
             for p in puzzles for name, svg in puzzle_svgs(p, **options).items()}
    for target in files:                 # every file checked before any is written
        _may_write(target, force)
    for target, data in files.items():
        _write(target, data)
    return list(files)


def _write_book(target: Path, fmt: str, book, force: bool, *, paper: str, arrows: str,
                monochrome: bool, coordinates: bool) -> Path:
    _may_write(target, force)
    if fmt == "text":
        data = signed(export_text(book), "#").encode("utf-8")
    elif fmt == "html":
        data = signed(export_html(book, paper=paper, arrows=arrows, monochrome=monochrome,
                                  coordinates=coordinates), "<!--", "-->").encode("utf-8")
    else:
        try:
            created = source_date(os.environ.get("SOURCE_DATE_EPOCH"))
        except ValueError as e:
            raise UserError(str(e)) from None
        if created is None:
            created = datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0)
        try:
            data = export_pdf(book, paper=paper, arrows=arrows, monochrome=monochrome,
                              coordinates=coordinates, created=created)
        except PdfError as e:
            raise UserError(str(e)) from None
    _write(target, data)
    return target


def _may_write(target: Path, force: bool) -> None:
    """The output policy (gyges.output): a file gyges did not write is not replaced without
    --force; a PDF (which carries no signature) may replace a PDF."""
    try:
        pdf = target.suffix.lower() == ".pdf" and target.is_file() and \
            target.read_bytes()[:5] == b"%PDF-"
        check_output(target, force=force, replaceable=True if pdf else None)
    except OutputError as e:
        raise UserError(str(e)) from None


def _write(target: Path, data: bytes) -> None:
    try:
        write_atomic(target, data)   # whole or not at all
    except OSError as e:
        raise UserError(f"cannot write: {e.strerror or e}", str(target)) from None


def _engine_problems(p: Puzzle) -> list[CatalogueError]:
    """What the engine alone can tell of an entry (no proof): the key is a legal move, the
    main line replays from the key to the stipulated landing."""
    problems = []
    if p.key is not None:
        try:
            parse_move(p.key, p.position, p.rules, p.history)
        except ValueError as e:
            problems.append(p.error(f"the key {p.key} is not a legal move: {e}", "key"))
    if not p.main_line:
        return problems
    try:
        line = play_line(p.position, p.rules, p.main_line, p.history)
    except ValueError as e:
        return [*problems, p.error(f"the main line is not legal: {e}", "main-line")]
    st = p.stipulation
    if st.kind != "none":
        winner = p.position.turn if st.kind == "win" else p.position.turn.other
        moves = line.moves
        if not moves or not moves[-1].is_win or moves[-1].side is not winner:
            problems.append(p.error(f"the main line does not end with {winner.title} "
                                    "landing on the goal", "main-line"))
    return problems


COMMANDS = [catalogue_group, export]
