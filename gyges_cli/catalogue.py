"""The puzzle catalogue commands (``gyges catalogue check|add|list|themes``) and ``gyges export``.

Exit status of ``catalogue check``: 0 when every entry is proven, 1 when the solver
refutes an entry (a wrong stipulation, an undeclared cook, an illegal main line), 2 when a
file cannot be read (malformed YAML, an unknown key, a bad diagram). Every message is
``file:line: puzzle <id>: what is wrong``.
"""

from __future__ import annotations

import functools
import os
import sys

import click

from gyges.game.bounds import MAX_MOVES
from gyges.game.rules import RuleRequest, RuleSet, combine_rules
from gyges.output import OutputError
from gyges.parallel import StatusLine
from gyges.puzzles.book import (
    Arrows,
    BookOptions,
    Chapters,
    Disproved,
    EngineRefused,
    NoPuzzles,
    NothingSelected,
    Paper,
    PdfError,
    PublishError,
    Selection,
    SelectionError,
    WrongSuffix,
    commentary_cache,
    publish_book,
)
from gyges.puzzles.catalogue import (
    AppendError,
    AuthoringError,
    CatalogueError,
    CheckStep,
    DuplicateEntry,
    Puzzle,
    VerifiedEntries,
    add_entry,
    catalogue_files,
    check_catalogue,
    load_all,
    theme_counts,
)
from gyges.puzzles.difficulty import EffortCache, Rated, rate_catalogue, rung_nodes
from gyges.search import SolveError, solve
from gyges_cli.common import (
    EXIT_BAD_INPUT,
    EXIT_CHECK_FAILED,
    UserError,
    check_jobs,
    fail,
    interrupted,
    jobs_option,
    rule_options,
    ticking,
)
from gyges_cli.inputs import load_input

DEFAULT_DIR = "puzzles"


def _say(problem: CatalogueError) -> None:
    """One problem of a catalogue, as every error line: ``gyges: file:line: ...``."""
    click.echo(f"gyges: {problem}", err=True)


def _load_all(paths: tuple[str, ...]) -> tuple[list[Puzzle], list[CatalogueError]]:
    """Every puzzle of the files, those under a directory's subdirectories included;
    unreadable files are returned as errors."""
    where = ", ".join(paths or (DEFAULT_DIR,))
    try:
        puzzles, errors = load_all(paths or (DEFAULT_DIR,), recursive=True)
    except CatalogueError as e:
        raise UserError(e.problem, e.source) from None
    if not puzzles and not errors and not catalogue_files(paths or (DEFAULT_DIR,),
                                                          recursive=True):
        raise UserError("no catalogue files (*.yaml) found", where)
    return puzzles, errors


@click.group(name="catalogue", short_help="Puzzle catalogue: check, add, list, rate, themes.")
def catalogue_group() -> None:
    """The puzzle catalogue: YAML files of proven puzzles (docs/catalogue.md).

    \b
    Examples:
      gyges catalogue check
      gyges catalogue list puzzles/seed000.yaml
      gyges catalogue themes
      gyges catalogue add tests/data/positions/composed.yaml --to mine.yaml --id composed
    """


@catalogue_group.command(
    "check", short_help="Re-prove every puzzle (exit 1: wrong, 2: unreadable)."
)
@click.argument("paths", nargs=-1, type=click.Path())
@click.option("--quiet", "-q", is_flag=True, help="No progress lines on stderr.")
@click.option("--no-cache", is_flag=True,
              help="Prove every entry again, those proven before and unchanged since too.")
def check(paths: tuple[str, ...], quiet: bool, no_cache: bool) -> None:
    """Re-prove every puzzle of PATHS (files or directories, their subdirectories
    included; default: puzzles/).

    Each stipulation must be exact (no quicker win, the same k), every key but the declared
    one listed under 'cooks', the main line legal, starting with the key and ending on the
    goal, and each declared theme shown; one position under two ids is flagged. Every
    error of every file is reported in one pass. Exit status 1 if an entry is wrong, 2 if
    an entry or a file cannot be read.

    An entry proven before by the same solver, unchanged since, is not proven again
    (the proven entries are remembered in ~/.cache/gyges/verified.jsonl, or under
    $GYGES_CACHE_DIR); --no-cache proves them all.

    \b
    Examples:
      gyges catalogue check
      gyges catalogue check puzzles/seed000.yaml my-puzzles.yaml -q
    """
    puzzles, errors = _load_all(paths)
    for e in errors:
        _say(e)
    show = _CheckProgress(quiet)
    try:
        report = check_catalogue(puzzles, errors, progress=show,
                                 verified=VerifiedEntries.default(fresh=no_cache))
    except KeyboardInterrupt:
        show.end_line()
        interrupted("every entry proven so far is remembered")
    click.echo(f"{report.checked} puzzle{'s' if report.checked != 1 else ''} checked: "
               f"{report.proven} proven, {report.wrong} wrong"
               + (f", {report.unreadable} unreadable" if report.unreadable else ""))
    if report.unreadable:
        fail(EXIT_BAD_INPUT)
    if report.wrong:
        fail(EXIT_CHECK_FAILED)


class _CheckProgress:
    """The progress lines of a check on stderr, one per entry (``[3/6] id (file:line):
    stipulation ... ok (1.20 s)``), whether or not stderr is a terminal, each followed by
    the entry's problems (``problems``); ``quiet``: only the problems."""

    def __init__(self, quiet: bool, *, problems: bool = True) -> None:
        self.quiet = quiet
        self.problems = problems
        self.open = False   # a line begun, its end not yet written

    def __call__(self, step: CheckStep) -> None:
        p = step.puzzle
        if not step.done:
            if not self.quiet:
                click.echo(f"[{step.index}/{step.total}] {p.id} ({p.file}:{p.line}): "
                           f"{p.stipulation} ...", err=True, nl=False)
                self.open = True
            return
        if not self.quiet:
            how = "proven before" if step.cached else f"{step.seconds:.2f} s"
            click.echo(f" {'WRONG' if step.problems else 'ok'} ({how})", err=True)
            self.open = False
        for problem in step.problems if self.problems and step.problems else ():
            _say(problem)

    def end_line(self) -> None:
        """End a line left open (before a message of its own, like Ctrl-C's)."""
        if self.open:
            click.echo("", err=True)
            self.open = False


@catalogue_group.command(
    "list", short_help="Table of id, stipulation, themes, difficulty."
)
@click.argument("paths", nargs=-1, type=click.Path())
def list_(paths: tuple[str, ...]) -> None:
    """A table of the puzzles of PATHS (files or directories, their subdirectories
    included; default: puzzles/): id, stipulation, themes, difficulty.

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
        _say(e)
    if errors:
        fail(EXIT_BAD_INPUT)


@catalogue_group.command(
    "themes", short_help="How many puzzles carry each theme."
)
@click.argument("paths", nargs=-1, type=click.Path())
def themes(paths: tuple[str, ...]) -> None:
    """How many puzzles of PATHS (files or directories, their subdirectories included;
    default: puzzles/) declare each theme, the most common first, and the share of the
    puzzles; docs/catalogue.md says what each theme means.

    \b
    Example:
      gyges catalogue themes puzzles/seed000.yaml
    """
    puzzles, errors = _load_all(paths)
    counts = theme_counts(puzzles)
    rows = [("theme", "puzzles", "share")]
    rows += [(c.theme, str(c.problems), f"{c.share:.0%}") for c in counts]
    widths = [max(len(r[i]) for r in rows) for i in range(3)]
    for n, r in enumerate(rows):
        click.echo("  ".join([r[0].ljust(widths[0]), r[1].rjust(widths[1]),
                              r[2].rjust(widths[2])]).rstrip())
        if n == 0:
            click.echo("  ".join("-" * w for w in widths))
    top = f"; the most common theme is on {counts[0].share:.0%} of them" if counts else ""
    click.echo(f"{len(puzzles)} puzzle{'s' if len(puzzles) != 1 else ''}{top}")
    for e in errors:
        _say(e)
    if errors:
        fail(EXIT_BAD_INPUT)


@catalogue_group.command(
    "add", short_help="Solve a position and append it as a new entry."
)
@click.argument("source", metavar="POS|FILE")
@click.option("--to", "target", required=True, type=click.Path(dir_okay=False),
              help="The catalogue file to append to (created if missing).")
@click.option("--id", "puzzle_id", required=True, help="The new puzzle's id (unique).")
@click.option("--title", default="",
              help="A title for the puzzle (default: its most distinctive theme, its key's "
              "square and its length, unlike the catalogue's other titles).")
@click.option("--source", "source_text", default="", help="Where the position comes from.")
@click.option("--credit", default="", help="Who composed or found it.")
@click.option("--notes", default="", help="Notes printed with the solution.")
@click.option("--max-moves", default=3, show_default=True, type=click.IntRange(1, MAX_MOVES),
              help="Search bound: the solver proves the shortest result within it.")
@click.option("--against", "against", multiple=True, type=click.Path(),
              help="Catalogue files or directories whose puzzles are not added again "
              "(default: puzzles/ when it exists); repeatable. The catalogue files in the "
              "folder of --to (and its subfolders) always count.")
@rule_options
def add(source: str, target: str, puzzle_id: str, title: str, source_text: str, credit: str,
        notes: str, max_moves: int, against: tuple[str, ...], rules: RuleSet,
        rules_given: RuleRequest) -> None:
    """Solve POS|FILE and append it to a catalogue file with the solver's findings:
    stipulation, key (other keys as cooks), main line, themes and difficulty. The rest of
    the file is kept as written; the file is replaced whole (atomically).

    A puzzle already in the catalogue is refused before any solving: the same id, or the
    same position, rules and history (mirrored or turned around included) in a catalogue
    file of the folder of --to (its subfolders included) or of --against.

    \b
    Examples:
      gyges catalogue add tests/data/positions/composed.yaml --to mine.yaml --id composed
      gyges catalogue add "....../1...../3.23../3.211./2.132./...... S" --to mine.yaml \\
          --id taboo-dorbec --title "Taboo, by Dorbec's rules" --rules dorbec --max-moves 2
    """
    pf = load_input(source)
    rules = combine_rules(pf.rules, rules_given)
    if not against and os.path.isdir(DEFAULT_DIR):
        against = (DEFAULT_DIR,)
    try:
        catalogue_files(against)
    except CatalogueError as e:
        raise UserError(f"--against {e}") from None
    status = StatusLine(sys.stderr)   # on a terminal: the solver's stage and the time
    try:
        with ticking(status):
            found, text = add_entry(target, puzzle_id, pf.position, rules,
                                    max_moves=max_moves, history=pf.history, title=title,
                                    source=source_text, credit=credit, notes=notes,
                                    against=against,
                                    solve=functools.partial(solve, progress=status.show))
    except DuplicateEntry as e:
        raise UserError(f"{e}: choose another --id" if e.same_id else str(e)) from None
    except AppendError as e:
        raise UserError(appending_error(e)) from None
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
              "'South wins in 2'), theme (like runner or 'bounce chain'), difficulty "
              "(3, 1-2 or unrated), source (play, compose or games: the generator's source "
              "the puzzle came from; other words: found in the entry's source text, like "
              "'seed 000').")
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
              help="Black-and-white diagrams: no grey (shores outlined, playable rings rimmed).")
@click.option("--check/--no-check", "check_first", default=None,
              help="Re-prove every puzzle first and refuse to export if the solver disproves "
              "one (default: on for pdf, off otherwise).")
@click.option("--no-cache", is_flag=True,
              help="Prove every entry again (with the check) and work out the solver's "
              "commentary again: those done before (by 'catalogue check' or an export) and "
              "unchanged since too.")
@jobs_option(what="Processes working out the solver's commentary (the book is the same).")
@click.option("--quiet", "-q", is_flag=True, help="No progress lines on stderr.")
@click.option("--force", is_flag=True,
              help="Replace files that gyges did not write (or that were edited since).")
def export(paths: tuple[str, ...], fmt: str, out: str, title: str | None,
           select: tuple[str, ...], chapters: str, paper: str, arrows: str, coordinates: bool,
           size: int, monochrome: bool, check_first: bool | None, no_cache: bool,
           jobs: int | None, quiet: bool, force: bool) -> None:
    """Export the puzzles of PATHS (files or directories, their subdirectories included;
    default: puzzles/) as text, SVG diagrams, or a book in HTML or PDF: title page,
    contents, chapters, solutions at the back, index of themes.

    Each entry's key and main line are replayed by the engine first (cheap; --check and
    'catalogue check' re-prove them): an illegal one stops the export with exit status 1.
    The check proves again only the entries not proven before by the same solver
    (remembered by 'catalogue check' and by the check of an export), and the solver's
    commentary (threats, variations) is worked out only for the entries not exported
    before (both in ~/.cache/gyges, or under $GYGES_CACHE_DIR; --no-cache: all again).
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
            _say(e)
        raise UserError("fix the catalogue first (gyges catalogue check)")
    if not puzzles:
        raise UserError("no puzzles in the catalogue: nothing to export",
                        ", ".join(paths or (DEFAULT_DIR,)))
    try:
        selection = Selection.parse(select)
    except SelectionError as e:
        raise UserError(f"--select {e}") from None
    options = BookOptions(title, Chapters(chapters), Paper(paper), Arrows(arrows), coordinates,
                          monochrome, size)

    # on a terminal: what the export is doing (re-proving, the solver's commentary,
    # typesetting) and for how long; elsewhere (a log, a pipe): a line per entry checked,
    # and one as each later step begins
    status = StatusLine(sys.stderr)
    lines = _CheckProgress(quiet, problems=False)   # Disproved tells them
    begun: set[str] = set()

    def tell(text: str) -> None:
        if quiet:
            return
        if status.tty:
            status.show(text)
            return
        for step in ("the solver's commentary", "writing the"):
            if text.startswith(step) and step not in begun:
                begun.add(step)
                click.echo((text if step == "writing the"
                            else "the solver's commentary on the puzzles") + " ...", err=True)

    def show(step: CheckStep) -> None:
        if not status.tty:
            lines(step)
        elif not quiet and not step.done:
            p = step.puzzle
            tell(f"checking {step.index}/{step.total}: {p.id} ({p.file}:{p.line})")

    try:
        try:
            with ticking(status):
                published = publish_book(puzzles, out, fmt, options, selection=selection,
                                         check=check_first, force=force, progress=show,
                                         status=tell,
                                         verified=VerifiedEntries.default(fresh=no_cache),
                                         remembered=commentary_cache(fresh=no_cache),
                                         jobs=check_jobs(jobs))
        finally:
            status.clear()
            lines.end_line()
    except NoPuzzles as e:
        raise UserError(str(e)) from None
    except NothingSelected as e:
        raise UserError(f"no puzzle matches --select {e.selection}") from None
    except EngineRefused as e:
        for problem in e.problems:
            _say(problem)
        fail(EXIT_CHECK_FAILED, "nothing exported: fix the catalogue first "
             "(gyges catalogue check)")
    except Disproved as e:
        for problem in e.problems:
            _say(problem)
        fail(EXIT_CHECK_FAILED, f"export refused: {e}; fix them (gyges catalogue check) or "
             "leave them out with --select")
    except WrongSuffix as e:
        other = f"; or --format {e.named}" if e.format != "svg" and e.named != "svg" else ""
        raise UserError(f"{e} (--out{other})") from None
    except OutputError as e:
        raise UserError(f"{e} (--out)") from None
    except (PublishError, PdfError) as e:
        raise UserError(str(e)) from None
    except KeyboardInterrupt:
        interrupted("every file written is whole; nothing more written")
    written = published.files
    click.echo(f"wrote {len(written)} file{'s' if len(written) != 1 else ''} to "
               f"{published.directory}: " + ", ".join(w.name for w in written[:6])
               + (" ..." if len(written) > 6 else ""))


def appending_error(e: AppendError) -> str:
    """An entry that cannot be appended, as ``catalogue add`` and ``review --puzzles`` say
    it."""
    if e.detail is not None:
        return str(CatalogueError(f"appending would break the file ({e.detail}); add the "
                                  "entry by hand", e.source))
    return str(CatalogueError("the puzzle list is not the last thing in the file: add the "
                              "entry by hand", e.source))


COMMANDS = [catalogue_group, export]


@catalogue_group.command(
    "rate", short_help="Measure each puzzle's difficulty (--write: set it in the files)."
)
@click.argument("paths", nargs=-1, type=click.Path())
@click.option("--write", is_flag=True,
              help="Rewrite the 'difficulty:' lines that differ (nothing else changes).")
@click.option("--quiet", "-q", is_flag=True, help="No progress lines on stderr.")
@click.option("--no-cache", is_flag=True,
              help="Measure every entry again, those measured before too.")
def rate(paths: tuple[str, ...], write: bool, quiet: bool, no_cache: bool) -> None:
    """Measure the difficulty of every puzzle of PATHS (files or directories, their
    subdirectories included; default: puzzles/): the solvers' effort, the log2 of the
    node budget at which the engine finds the whole solution, and its level 1..5
    (docs/catalogue.md, "Difficulty"). Prints each entry's effort, level and declared
    difficulty, then how many entries have each effort and each level.

    The efforts are remembered in ~/.cache/gyges/difficulty.jsonl (or under
    $GYGES_CACHE_DIR): a second run reads them back; --no-cache measures them all again.

    \b
    Examples:
      gyges catalogue rate puzzles/seed000.yaml
      gyges catalogue rate --write
    """
    where = paths or (DEFAULT_DIR,)
    if not catalogue_files(where, recursive=True):
        raise UserError("no catalogue files (*.yaml) found", ", ".join(where))

    begun = []   # a progress line begun, its end not yet written

    def show(i: int, n: int, p: Puzzle, r: Rated | None) -> None:
        if quiet:
            return
        if r is None:
            click.echo(f"[{i}/{n}] {p.id} ({p.file}:{p.line}): {p.stipulation} ...",
                       err=True, nl=False)
            begun.append(p)
        else:
            how = "measured before" if r.cached else f"{r.seconds:.2f} s"
            click.echo(f" effort {r.effort} ({how})", err=True)
            begun.clear()

    try:
        report = rate_catalogue(where, write=write,
                                cache=EffortCache.default(fresh=no_cache), progress=show)
    except CatalogueError as e:
        raise UserError(str(e)) from None
    except (OutputError, OSError) as e:
        raise UserError(f"cannot write the difficulties: {e}") from None
    except KeyboardInterrupt:
        if begun:
            click.echo("", err=True)
        interrupted("every effort measured so far is remembered")
    rows = [("id", "stipulation", "effort", "nodes", "level", "declared")]
    for r in report.rated:
        p = r.puzzle
        rows.append((p.id, str(p.stipulation), str(r.effort), rung_nodes(r.effort),
                     str(r.level), str(p.difficulty) if p.difficulty else "-"))
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    for row in rows:
        click.echo("  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip())
    click.echo("efforts: " + ", ".join(f"{e}: {n}" for e, n in report.efforts().items()))
    click.echo("levels: " + ", ".join(f"{lv}: {n}" for lv, n in report.levels().items()))
    changed = sum(r.changed for r in report.rated)
    if write:
        click.echo(f"{changed} difficult{'y' if changed == 1 else 'ies'} written in "
                   f"{len(report.written)} file{'s' if len(report.written) != 1 else ''}")
    elif changed:
        click.echo(f"{changed} declared difficult{'y differs' if changed == 1 else 'ies differ'}"
                   " from the level (--write sets them)")
