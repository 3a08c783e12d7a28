"""The puzzle catalogue commands (``gyges catalogue check|add|list``) and ``gyges export``.

Exit status of ``catalogue check``: 0 when every entry is proven, 1 when the solver
refutes an entry (a wrong stipulation, an undeclared cook, an illegal main line), 2 when a
file cannot be read (malformed YAML, an unknown key, a bad diagram). Every message is
``file:line: puzzle <id>: what is wrong``.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import click

from gyges_cli.common import UserError, combine_rules, rule_options
from gyges_cli.inputs import load_input
from solver.game.rules import RuleSet
from solver.puzzles.catalogue import (
    AuthoringError,
    CatalogueError,
    Puzzle,
    add_entry,
    catalogue_files,
    check_puzzle,
    load_all,
)
from solver.puzzles.export import BOOK_TITLE, export_html, export_text, puzzle_svgs
from solver.search.prover import SolveError

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
    """The puzzle catalogue: YAML files of proven puzzles (docs/catalogue.md)."""


@catalogue_group.command(
    "check", short_help="Re-prove every puzzle (exit 1: wrong, 2: unreadable)."
)
@click.argument("paths", nargs=-1, type=click.Path())
@click.option("--quiet", "-q", is_flag=True, help="No progress lines on stderr.")
def check(paths: tuple[str, ...], quiet: bool) -> None:
    """Re-prove every puzzle of PATHS (files or directories; default: puzzles/).

    Each stipulation must be exact (no quicker win, the same k), every key but the declared
    one listed under 'cooks', the main line legal, starting with the key and ending on the
    goal, and each declared theme shown. Exit status 1 if an entry is wrong, 2 if a file
    cannot be read.
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
        wrong += bool(problems)
    proven = len(puzzles) - wrong
    click.echo(f"{len(puzzles)} puzzle{'s' if len(puzzles) != 1 else ''} checked: {proven} "
               f"proven, {wrong} wrong" + (f", {len(errors)} unreadable" if errors else ""))
    if errors:
        sys.exit(EXIT_MALFORMED)
    if wrong:
        sys.exit(EXIT_WRONG)


@catalogue_group.command(
    "list", short_help="Table of id, stipulation, themes, difficulty."
)
@click.argument("paths", nargs=-1, type=click.Path())
def list_(paths: tuple[str, ...]) -> None:
    """A table of the puzzles of PATHS (default: puzzles/): id, stipulation, themes,
    difficulty."""
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
    stipulation, key (other keys as cooks), main line, themes and difficulty."""
    pf = load_input(source)
    rules = combine_rules(pf.rules, rules, rules_given)
    try:
        found, text = add_entry(target, puzzle_id, pf.position, rules, max_moves=max_moves,
                                history=pf.history, title=title, source=source_text,
                                credit=credit, notes=notes)
    except (SolveError, AuthoringError, CatalogueError) as e:
        raise UserError(str(e)) from None
    key, cooks = found.key, found.cooks
    click.echo(f"added {puzzle_id} to {target}: {found.stipulation}"
               + (f", key {key}" if key else "")
               + (f" ({len(cooks)} cook{'s' if len(cooks) != 1 else ''})" if cooks else ""))
    click.echo(text, nl=False)


@click.command(
    "export", short_help="Export puzzles as text, SVG or a printable HTML book."
)
@click.argument("paths", nargs=-1, type=click.Path())
@click.option("--format", "fmt", type=click.Choice(["text", "svg", "html"]), default="html",
              show_default=True, help="text: puzzles.txt; svg: one file per diagram; "
              "html: book.html, a printable book.")
@click.option("--out", "out_dir", required=True, type=click.Path(file_okay=False),
              help="Directory to write into (created if missing).")
@click.option("--title", default=None, help="The book's title.")
def export(paths: tuple[str, ...], fmt: str, out_dir: str, title: str | None) -> None:
    """Export the puzzles of PATHS (default: puzzles/) as text, SVG diagrams or a
    printable HTML book."""
    puzzles, errors = _load_all(paths)
    if errors:
        for e in errors:
            click.echo(str(e), err=True)
        raise UserError("fix the catalogue first (gyges catalogue check)")
    out = Path(out_dir)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise UserError(f"cannot create the directory: {e.strerror or e}", out_dir) from None
    written: list[Path] = []
    book_title = title or BOOK_TITLE
    if fmt == "text":
        target = out / "puzzles.txt"
        target.write_text(export_text(puzzles, book_title), encoding="utf-8")
        written.append(target)
    elif fmt == "svg":
        for p in puzzles:
            for name, svg in puzzle_svgs(p).items():
                target = out / name
                target.write_text(svg, encoding="utf-8")
                written.append(target)
    else:
        target = out / "book.html"
        target.write_text(export_html(puzzles, book_title), encoding="utf-8")
        written.append(target)
    click.echo(f"wrote {len(written)} file{'s' if len(written) != 1 else ''} to {out}: "
               + ", ".join(w.name for w in written[:6]) + (" ..." if len(written) > 6 else ""))


COMMANDS = [catalogue_group, export]
