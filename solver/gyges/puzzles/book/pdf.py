"""The puzzle book as a PDF: the HTML book (:func:`gyges.puzzles.book.html.export_html`)
typeset by WeasyPrint, which paginates it with its print CSS, fills in the page numbers of
the contents and cross-references, and embeds the (subset) fonts.

WeasyPrint needs Pango (Debian's ``libpango-1.0-0``), and the book uses the DejaVu fonts
(``fonts-dejavu-core``) when they are there. The PDF is a function of the book and of
``created``: the same puzzles give the same bytes. ``created`` (the document's creation
date) is the only thing that changes from run to run; :func:`book_date` takes it from
``SOURCE_DATE_EPOCH`` when that is set, as reproducible builds do.
"""

from __future__ import annotations

import contextlib
import datetime as _dt
import io
import os
from collections.abc import Callable, Iterator, Mapping, Sequence

from gyges.puzzles.book.diagrams import Arrows
from gyges.puzzles.book.html import Paper, export_html
from gyges.puzzles.book.model import Book
from gyges.puzzles.catalogue.schema import Puzzle

__all__ = ["PdfError", "book_date", "export_pdf", "html_to_pdf", "source_date"]


class PdfError(RuntimeError):
    """WeasyPrint is missing or cannot run (its system library, Pango, is missing)."""


def _weasyprint():
    try:
        import weasyprint  # type: ignore[import-untyped]
    except ImportError as e:
        raise PdfError(f"the PDF book needs WeasyPrint ({e}); install it with "
                       "python3 -m pip install weasyprint (it needs Debian's libpango-1.0-0)"
                       ) from None
    except OSError as e:  # the Python package is there but Pango cannot be loaded
        raise PdfError(f"WeasyPrint cannot load its system libraries ({e}): install "
                       "Debian's libpango-1.0-0 and libpangoft2-1.0-0") from None
    return weasyprint


@contextlib.contextmanager
def _font_dates(created: _dt.datetime | None) -> Iterator[None]:
    """While WeasyPrint writes: the embedded fonts carry ``created`` too where its font
    subsetter (fontTools, where HarfBuzz's is missing) stamps them from
    ``SOURCE_DATE_EPOCH``, so the bytes do not depend on the hour; a blank
    ``SOURCE_DATE_EPOCH``, which that subsetter cannot read, is left out. The variable is
    put back afterwards."""
    old = os.environ.get("SOURCE_DATE_EPOCH")
    if created is not None:
        os.environ["SOURCE_DATE_EPOCH"] = str(int(created.timestamp()))
    elif old is not None and not old.strip():
        del os.environ["SOURCE_DATE_EPOCH"]
    try:
        yield
    finally:
        if old is None:
            os.environ.pop("SOURCE_DATE_EPOCH", None)
        else:
            os.environ["SOURCE_DATE_EPOCH"] = old


def html_to_pdf(html: str, *, created: _dt.datetime | None = None,
                status: Callable[[str], None] | None = None) -> bytes:
    """Typeset an HTML document with WeasyPrint; ``created`` becomes the PDF's creation
    and modification date (None: no date in the file at all). ``status`` is told what
    WeasyPrint is doing (laying out the pages, then writing them)."""
    weasyprint = _weasyprint()
    if status is not None:
        status("typesetting the PDF (WeasyPrint): laying out the pages")
    document = weasyprint.HTML(string=html).render()
    if status is not None:
        status(f"typesetting the PDF (WeasyPrint): writing {len(document.pages)} pages")
    metadata = document.metadata
    if created is not None:
        stamp = created.astimezone(_dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
        metadata.created = metadata.modified = stamp
    metadata.generator = "gyges (WeasyPrint)"
    out = io.BytesIO()
    with _font_dates(created):
        document.write_pdf(out)
    return out.getvalue()


def export_pdf(book: Book | Sequence[Puzzle], *, title: str | None = None,
               paper: Paper | str = Paper.A4, arrows: Arrows | str = Arrows.KEY,
               monochrome: bool = False, coordinates: bool = True,
               created: _dt.datetime | None = None,
               status: Callable[[str], None] | None = None) -> bytes:
    """The book as PDF bytes (options as for :func:`~gyges.puzzles.book.html.export_html`;
    ``status`` as for :func:`html_to_pdf`)."""
    return html_to_pdf(export_html(book, title=title, paper=paper, arrows=arrows,
                                   monochrome=monochrome, coordinates=coordinates),
                       created=created, status=status)


def source_date(epoch: str | None) -> _dt.datetime | None:
    """The date ``SOURCE_DATE_EPOCH`` gives (seconds since 1970, UTC); ValueError if it is
    not a whole number.

    >>> source_date("0").isoformat()
    '1970-01-01T00:00:00+00:00'
    >>> source_date(None) is None
    True
    """
    if epoch is None or not epoch.strip():
        return None
    if not epoch.strip().isdigit():
        raise ValueError(f"SOURCE_DATE_EPOCH={epoch!r}: it is a number of seconds since "
                         "1970-01-01 UTC, like 1700000000")
    return _dt.datetime.fromtimestamp(int(epoch), _dt.timezone.utc)


def book_date(environ: Mapping[str, str] | None = None) -> _dt.datetime:
    """The PDF's creation date: ``SOURCE_DATE_EPOCH`` of ``environ`` (default: this
    process's environment) when it is set, else now (to the second); ValueError if it is
    set to something else than a whole number."""
    env = os.environ if environ is None else environ
    created = source_date(env.get("SOURCE_DATE_EPOCH"))
    if created is None:
        created = _dt.datetime.now(_dt.timezone.utc).replace(microsecond=0)
    return created
