"""Publishing the puzzle book: :func:`publish_book` takes the puzzles of a catalogue and
writes the book (text, HTML or PDF) or the diagrams (SVG files), as ``gyges export`` does:

1. the puzzles a :class:`~gyges.puzzles.book.selection.Selection` keeps (:class:`NothingSelected`
   when none; :class:`NoPuzzles` when there are none to select from);
2. the target, before any work: a directory (created when the files are written: the
   book gets its usual name there, the SVG files theirs), or a file name with the
   format's suffix (a file named for another format, ``book.html`` for a PDF, is refused:
   :class:`WrongSuffix`); the output policy of :mod:`gyges.output`: a file gyges did not
   write, or one edited since, is not replaced without ``force`` (a PDF, which carries no
   signature, may replace a PDF); the text, HTML and SVG files are signed; every file is
   written whole or not at all;
3. each entry's key and main line replayed by the engine (cheap:
   :func:`~gyges.puzzles.catalogue.checking.engine_problems`; :class:`EngineRefused`);
4. for a PDF, or when asked, every entry re-proven by the solver (:class:`Disproved`);
5. the book laid out with the solver's commentary
   (:func:`~gyges.puzzles.book.commentary.solver_commentary`) and rendered; a PDF is dated
   ``created`` (default: :func:`~gyges.puzzles.book.pdf.book_date`, ``SOURCE_DATE_EPOCH`` or
   now).

>>> BookFormat.PDF.file_name, BookOptions(chapters="theme")
('book.pdf', BookOptions(chapters='theme'))
"""

from __future__ import annotations

import dataclasses
import datetime as _dt
import enum
from collections.abc import Callable, Sequence
from pathlib import Path

from gyges.output import check_output, signed, write_atomic
from gyges.puzzles.book.commentary import solver_commentary
from gyges.puzzles.book.diagrams import Arrows, puzzle_svgs
from gyges.puzzles.book.html import Paper, export_html
from gyges.puzzles.book.model import BOOK_TITLE, Book, Chapters, make_book
from gyges.puzzles.book.pdf import book_date, export_pdf
from gyges.puzzles.book.selection import Selection, select_puzzles
from gyges.puzzles.book.text import export_text
from gyges.puzzles.catalogue.checking import CheckStep, check_catalogue, engine_problems
from gyges.puzzles.catalogue.schema import CatalogueError, Puzzle, load_catalogue
from gyges.puzzles.catalogue.verified import EntryFacts, VerifiedEntries

__all__ = ["BookFormat", "BookOptions", "Disproved", "EngineRefused", "NoPuzzles",
           "NothingSelected", "PublishError", "Published", "WrongSuffix", "publish_book"]

#: the names a file of each format ends with (``--out book.html`` for a PDF is refused)
SUFFIXES = {".txt": "text", ".html": "html", ".htm": "html", ".pdf": "pdf", ".svg": "svg"}


class BookFormat(str, enum.Enum):
    """What :func:`publish_book` writes."""

    TEXT = "text"  #: the book as plain text
    SVG = "svg"    #: one file per diagram
    HTML = "html"  #: the book as one HTML page
    PDF = "pdf"    #: the book typeset by WeasyPrint

    def __str__(self) -> str:
        return self.value

    @property
    def file_name(self) -> str:
        """The book's name in a target directory (empty for SVG: one file per diagram)."""
        return {"text": "puzzles.txt", "html": "book.html", "pdf": "book.pdf"}.get(self.value, "")


@dataclasses.dataclass(frozen=True)
class BookOptions:
    """How the book looks: its ``title`` (None: :data:`~gyges.puzzles.book.model.BOOK_TITLE`),
    its ``chapters``, the ``paper`` of the HTML and PDF books, what the solution diagrams
    draw (``arrows``), column and row numbers on the problems' diagrams
    (``coordinates``), black and white (``monochrome``), and the width of the SVG files in
    pixels (``size``)."""

    title: str | None = None
    chapters: Chapters = Chapters.DIFFICULTY
    paper: Paper = Paper.A4
    arrows: Arrows = Arrows.KEY
    coordinates: bool = True
    monochrome: bool = False
    size: int = 360

    def __post_init__(self) -> None:
        for name, kind in (("chapters", Chapters), ("paper", Paper), ("arrows", Arrows)):
            object.__setattr__(self, name, kind(getattr(self, name)))

    def __repr__(self) -> str:
        changed = []
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if value != f.default:
                shown = str(value) if isinstance(value, enum.Enum) else value
                changed.append(f"{f.name}={shown!r}")
        return f"BookOptions({', '.join(changed)})"


class PublishError(ValueError):
    """The book cannot be published: one line, the path and what is wrong."""


class NoPuzzles(PublishError):
    """No puzzles at all to publish (an empty catalogue)."""

    def __init__(self) -> None:
        super().__init__("the catalogue holds no puzzles: nothing to export")


class WrongSuffix(PublishError):
    """An output named for another format (``book.html`` for a PDF book)."""

    def __init__(self, out: Path, fmt: BookFormat) -> None:
        self.out = out
        self.format = fmt
        self.named = SUFFIXES[out.suffix.lower()]   #: the format the name is for
        if fmt is BookFormat.SVG:
            problem = (f"a {out.suffix} name for the svg diagrams, which go to a directory "
                       "(one file per diagram): name a directory")
        else:
            problem = (f"a {out.suffix} name for the {fmt} book: name it "
                       f"{out.with_suffix(Path(fmt.file_name).suffix).name}, or a directory")
        super().__init__(f"{out}: {problem}")


class NothingSelected(PublishError):
    """No puzzle meets the ``selection``."""

    def __init__(self, selection: Selection) -> None:
        super().__init__(f"no puzzle matches the selection {selection}")
        self.selection = selection


class EngineRefused(PublishError):
    """Entries whose key or main line the engine refuses (``problems``): nothing written."""

    def __init__(self, problems: Sequence[CatalogueError]) -> None:
        super().__init__(f"the engine refuses {len(problems)} key or main line"
                         f"{'s' if len(problems) != 1 else ''}")
        self.problems = tuple(problems)


class Disproved(PublishError):
    """Entries the solver disproves (``problems``): nothing written."""

    def __init__(self, problems: Sequence[CatalogueError]) -> None:
        self.problems = tuple(problems)
        n = len(self.ids)
        super().__init__(f"the solver disproves {n} entr{'y' if n == 1 else 'ies'} "
                         f"({', '.join(self.ids)})")

    @property
    def ids(self) -> list[str]:
        """The ids of the entries disproved, sorted."""
        return sorted({p.puzzle for p in self.problems if p.puzzle})


@dataclasses.dataclass(frozen=True)
class Published:
    """The files written, and the directory they are in."""

    files: tuple[Path, ...]
    directory: Path


def publish_book(puzzles: Sequence[Puzzle], out: str | Path,
                 fmt: BookFormat | str = BookFormat.HTML,
                 options: BookOptions = BookOptions(), *,
                 selection: Selection | None = None, check: bool | None = None,
                 force: bool = False, created: _dt.datetime | None = None,
                 progress: Callable[[CheckStep], None] | None = None,
                 status: Callable[[str], None] | None = None,
                 verified: VerifiedEntries | None = None,
                 remembered: EntryFacts | None = None, jobs: int = 1) -> Published:
    """Write the book of ``puzzles`` (or its SVG diagrams) to ``out``: the steps of the
    module's docstring. ``selection``: the puzzles to publish (default: all);
    ``check``: re-prove every puzzle first (default: for a PDF), but those of
    ``verified`` (the entries proven before, unchanged since), which the proven join;
    ``progress`` hears of each re-proof
    (:func:`~gyges.puzzles.catalogue.checking.check_catalogue`); ``status`` is told, in words, what
    the later steps are doing (the solver's commentary puzzle by puzzle, the rendering,
    WeasyPrint's typesetting); ``remembered``: the commentaries worked out before
    (:func:`~gyges.puzzles.book.commentary.commentary_cache`), which the new ones join;
    ``jobs``: processes working out the commentary (the book is the same). Raises
    :class:`PublishError` (its kinds say which step refused),
    :class:`~gyges.output.OutputError` (a file not to replace) or
    :class:`~gyges.puzzles.book.pdf.PdfError` (no WeasyPrint)."""
    fmt = BookFormat(fmt)
    selection = selection or Selection()
    if not puzzles:
        raise NoPuzzles()
    chosen = select_puzzles(puzzles, selection)
    if not chosen:
        raise NothingSelected(selection)
    target = _target(Path(out), fmt)
    if fmt is BookFormat.SVG:
        if target.exists() and not target.is_dir():
            raise PublishError(f"{target}: is a file: the svg diagrams go to a directory")
        check_output(target / "diagram.svg", force=True)   # a directory that can be made
    else:
        _may_write(target, force)
    refused = [problem for p in chosen for problem in engine_problems(p)]
    if refused:
        raise EngineRefused(refused)
    if check if check is not None else fmt is BookFormat.PDF:
        report = check_catalogue(chosen, progress=progress, verified=verified)
        if report.problems:
            raise Disproved(report.problems)
    if fmt is BookFormat.SVG:
        return Published(tuple(_write_svgs(target, chosen, force, options)), target)

    def commenting(i: int, n: int, p: Puzzle) -> None:
        if status is not None:
            status(f"the solver's commentary {i}/{n}: {p.id} ({p.file}:{p.line})")

    said = solver_commentary(chosen, progress=commenting, cache=remembered, jobs=jobs)
    book = make_book(chosen, title=options.title or BOOK_TITLE, chapters=options.chapters,
                     file_titles=_file_titles(chosen), commentary=said)
    _write(target, _book_bytes(book, fmt, options, target, force, created, status))
    return Published((target,), target.parent)


def _target(out: Path, fmt: BookFormat) -> Path:
    """The directory (svg) or file to write (its directories are made when it is
    written); :class:`WrongSuffix` for a name of another format's file."""
    if out.suffix.lower() in SUFFIXES and not out.is_dir() and (
            fmt is BookFormat.SVG or SUFFIXES[out.suffix.lower()] != fmt.value):
        raise WrongSuffix(out, fmt)
    if fmt is BookFormat.SVG or out.suffix.lower() == Path(fmt.file_name).suffix:
        return out
    return out / fmt.file_name


def _file_titles(puzzles: Sequence[Puzzle]) -> dict[str, str]:
    """The title of each catalogue file the puzzles come from (a file that cannot be read
    again has none)."""
    titles = {}
    for f in dict.fromkeys(p.file for p in puzzles):
        try:
            titles[f] = load_catalogue(f).title
        except (CatalogueError, OSError):
            continue
    return titles


def _write_svgs(directory: Path, puzzles: Sequence[Puzzle], force: bool,
                options: BookOptions) -> list[Path]:
    files = {directory / name: signed(svg, "<!--", "-->").encode("utf-8")
             for p in puzzles
             for name, svg in puzzle_svgs(p, options.size, arrows=options.arrows,
                                          coordinates=options.coordinates,
                                          monochrome=options.monochrome).items()}
    for target in files:                 # every file checked before any is written
        _may_write(target, force)
    for target, data in files.items():
        _write(target, data)
    return list(files)


def _book_bytes(book: Book, fmt: BookFormat, options: BookOptions, target: Path, force: bool,
                created: _dt.datetime | None,
                status: Callable[[str], None] | None = None) -> bytes:
    """The book rendered, once ``target`` may be written."""
    _may_write(target, force)
    if status is not None:
        status(f"writing the {fmt} book")
    if fmt is BookFormat.TEXT:
        return signed(export_text(book), "#").encode("utf-8")
    if fmt is BookFormat.HTML:
        return signed(export_html(book, paper=options.paper, arrows=options.arrows,
                                  monochrome=options.monochrome,
                                  coordinates=options.coordinates),
                      "<!--", "-->").encode("utf-8")
    if created is None:
        try:
            created = book_date()
        except ValueError as e:
            raise PublishError(str(e)) from None
    return export_pdf(book, paper=options.paper, arrows=options.arrows,
                      monochrome=options.monochrome, coordinates=options.coordinates,
                      created=created, status=status)


def _may_write(target: Path, force: bool) -> None:
    """The output policy (gyges.output): a file gyges did not write is not replaced without
    ``force``; a PDF (which carries no signature) may replace a PDF."""
    pdf = target.suffix.lower() == ".pdf" and target.is_file() and \
        target.read_bytes()[:5] == b"%PDF-"
    check_output(target, force=force, replaceable=True if pdf else None)


def _write(target: Path, data: bytes) -> None:
    write_atomic(target, data)   # whole or not at all (OutputError if it cannot be)
