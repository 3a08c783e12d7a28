"""The PDF book, typeset by WeasyPrint and read back with pypdf and poppler-utils: pages,
contents and cross-references, every puzzle and solution exactly once, fonts embedded,
paper sizes, page images that are not blank, and byte-for-byte reproducibility.

The default run uses a small --select subset (seed 000's classics and the puzzles composed
with the solver); the whole catalogue is a slow test."""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

import pytest
from captions import caption as caption_of
from click.testing import CliRunner
from pdftext import (
    first_pages_png,
    need_poppler,
    overlapping_words,
    page_png,
    page_texts,
    page_words,
)
from test_book_browser import decode_png

from gyges.puzzles.book import Selection, make_book, publish_book, select_puzzles
from gyges.puzzles.book.model import credit_line
from gyges.puzzles.catalogue import load_all
from gyges_cli.main import cli

pypdf = pytest.importorskip("pypdf")

ROOT = Path(__file__).resolve().parent.parent
SUBSET = "id=seed000-*,solver-00[1-4]"
EPOCH = "1700000000"


def weasyprint_or_skip() -> None:
    from gyges.puzzles.book.pdf import PdfError, _weasyprint

    try:
        _weasyprint()
    except PdfError as e:
        pytest.skip(str(e))


def subset_puzzles():
    puzzles, errors = load_all([ROOT / "puzzles"])
    assert not errors
    return select_puzzles(puzzles, Selection.parse([SUBSET]))


def export(tmp: Path, *args: str, epoch: str | None = EPOCH) -> tuple[Path, str]:
    weasyprint_or_skip()
    out = tmp / "book.pdf"
    env = {"SOURCE_DATE_EPOCH": epoch} if epoch is not None else {"SOURCE_DATE_EPOCH": ""}
    result = CliRunner().invoke(cli, ["export", "--format", "pdf", "--out", str(out), "-q",
                                      *args], env=env, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return out, result.output


@pytest.fixture(scope="module")
def subset_pdf(tmp_path_factory) -> Path:
    path, _ = export(tmp_path_factory.mktemp("pdf"), "--select", SUBSET)
    return path


@pytest.fixture(scope="module")
def subset_book():
    return make_book(subset_puzzles())


def sections(texts: list[str]) -> tuple[int, int, int]:
    """Page indexes (0-based) of the contents, the solutions and the index."""
    contents = next(i for i, t in enumerate(texts) if t.strip().startswith("CONTENTS"))
    solutions = next(i for i, t in enumerate(texts) if t.strip().startswith("SOLUTIONS"))
    index = next(i for i, t in enumerate(texts) if "INDEX OF THEMES" in t)
    return contents, solutions, index


def check_book(pdf: Path, book) -> None:
    """Every puzzle once on the problem pages, its solution once at the back, the
    contents pointing at the right pages, nothing drawn over text."""
    need_poppler()
    texts = page_texts(pdf)
    reader = pypdf.PdfReader(str(pdf))
    assert len(reader.pages) == len(texts)
    contents, solutions, index = sections(texts)
    assert contents == 1 and "Gygès puzzles" in texts[0]
    assert contents < solutions < index == len(texts) - 1
    chapter_pages = [i for i, t in enumerate(texts[:solutions])
                     if re.match(r"\s*\d+\. [A-Z]", t.strip().splitlines()[0])]
    assert len(chapter_pages) == len(book.chapters)
    # Six diagrams to a page (two columns, three rows), each chapter on a new page.
    assert solutions - chapter_pages[0] == sum(-(-len(c.entries) // 6) for c in book.chapters)
    n = len(book.entries)
    assert len(texts) <= solutions + 1 + n  # a solution never takes more than a page
    listing = "\n".join(texts[contents:chapter_pages[0]])
    problems = "\n".join(texts[chapter_pages[0]:solutions])
    answers = "\n".join(texts[solutions:index])
    for e in book.entries:
        caption = caption_of(e.number, e.title)
        assert len(caption.findall(problems)) == 1, e.title
        assert len(caption.findall(answers)) == 1, e.title
        if e.puzzle.key:
            # No spoiler before the solutions (the title page's notation example aside).
            assert e.puzzle.key not in problems and e.puzzle.key in answers
        # The contents give the page the problem is printed on.
        row = re.search(rf"^\s*{e.number}\s+{re.escape(e.title)}\s.*?(\d+)\s*$",
                        listing, flags=re.M)
        assert row, f"problem {e.number} is not in the contents"
        page = int(row.group(1))
        assert caption.search(texts[page - 1]), (e.number, page)
        # The solution refers back to the same page.
        assert re.search(rf"{e.number}\. {re.escape(e.title)} \(problem, p\. {page}\)",
                         answers), e.number
    # Every contents entry has its page: the chapters, the solutions, the index.
    headings = [(f"{i}. {c.title}", chapter_pages[i - 1])
             for i, c in enumerate(book.chapters, 1)]
    for title, page in [*headings, ("Solutions", solutions), ("Index of themes", index)]:
        row = re.search(rf"^\s*{re.escape(title)}\s+(\d+)\s*$", listing, flags=re.M)
        assert row and int(row.group(1)) == page + 1, (title, row and row.group(0))
    # A credit says what it credits: a bare name is "Composed by NAME", never a lone line.
    for e in book.entries:
        if e.puzzle.credit:
            said = " ".join(credit_line(e.puzzle).split()[:3])
            assert said in " ".join(problems.split()), e.puzzle.id
            assert said in " ".join(answers.split()), e.puzzle.id
    assert not re.search(r"(?m)^\s*composed by", problems + answers)
    for i, words in enumerate(page_words(pdf)):
        assert not overlapping_words(words), f"text drawn over text on page {i + 1}"


def test_subset_book_pages_contents_and_solutions(subset_pdf, subset_book):
    check_book(subset_pdf, subset_book)


def test_page_numbers_and_metadata(subset_pdf):
    need_poppler()
    texts = page_texts(subset_pdf)
    for i, text in enumerate(texts[1:], 2):
        assert text.strip().splitlines()[-1].strip() == str(i)
    reader = pypdf.PdfReader(str(subset_pdf))
    assert reader.metadata.title == "Gygès puzzles"
    assert reader.metadata.creation_date == dt.datetime.fromtimestamp(int(EPOCH),
                                                                       dt.timezone.utc)


def test_fonts_are_embedded(subset_pdf):
    reader = pypdf.PdfReader(str(subset_pdf))
    fonts = {}
    for page in reader.pages:
        for font in page["/Resources"].get("/Font", {}).values():
            font = font.get_object()
            descendant = font.get("/DescendantFonts")
            descriptor = (descendant[0].get_object() if descendant else font).get(
                "/FontDescriptor")
            fonts[str(font["/BaseFont"])] = descriptor.get_object() if descriptor else {}
    assert fonts
    for name, descriptor in fonts.items():
        assert any(k in descriptor for k in ("/FontFile", "/FontFile2", "/FontFile3")), name


def test_first_pages_are_not_blank(subset_pdf, tmp_path):
    need_poppler()
    pngs = first_pages_png(subset_pdf, tmp_path, pages=3)
    assert len(pngs) == 3
    for png in pngs:
        width, height, rows = decode_png(png.read_bytes())
        assert height > width  # portrait
        values = [v for row in rows for v in row]
        dark = sum(1 for v in values if v < 110) / len(values)
        assert 0.001 < dark < 0.5, f"{png.name}: {dark:.3%} of the page is ink"
        inked_rows = sum(1 for row in rows if min(row) < 110)
        assert inked_rows > height // 10, f"{png.name}: ink on {inked_rows} rows only"


#: A screen's resolution, at which the diagrams must still read.
SCREEN_DPI = 96
#: Where the diagram's slots and goals are (gyges.formats.svg's layout, in its units): the
#: distance from the centre of North's goal to South's, from North's goal to the centre of
#: row 6, and between two slots; and a ring's outer radius with its stroke.
GOAL_TO_GOAL, GOAL_TO_ROW_6, CELL, RING = 430.4, 65.2, 60.0, 25.6


def ring_circles(row: list[int], x: float, reach: float) -> int:
    """The circles a ring shows on one row of pixels, from its centre ``x`` out to
    ``reach`` pixels, to the left or to the right (the better of the two: the pixel grid
    falls differently on each side): runs of ink (darker than 128) parted by paper
    (lighter than 210; the grey of a disc, 200, is not paper)."""
    def runs(step: int) -> int:
        count, inked = 0, False
        for d in range(int(reach) + 1):
            value = row[round(x + step * d)]
            if value < 128 and not inked:
                count, inked = count + 1, True
            elif value > 210:
                inked = False
        return count

    return max(runs(-1), runs(1))


def test_the_rings_read_at_screen_resolution(subset_pdf, subset_book, tmp_path):
    """Each page of problems at 96 dpi: every ring of the side to move (the marked ones)
    shows as many circles as its size, each parted from the next by white, so that a
    double and a triple are told apart at a glance. The diagrams are found by their goals'
    letters; the problem under each one by its caption's number."""
    need_poppler()
    texts = page_texts(subset_pdf)
    first = next(i for i, t in enumerate(texts) if re.match(r"\s*1\. [A-Z]", t.strip()))
    solutions = sections(texts)[1]
    positions = {e.number: e.puzzle.position for e in subset_book.entries}
    k = SCREEN_DPI / 72
    seen = set()
    for page in range(first + 1, solutions + 1):
        words = page_words(subset_pdf)[page - 1]
        width, _, rows = decode_png(page_png(subset_pdf, page, tmp_path, SCREEN_DPI)
                                    .read_bytes())
        middle = width / 2    # the two columns of diagrams

        def centre(w: tuple) -> tuple[float, float]:
            return (w[0] + w[2]) / 2 * k, (w[1] + w[3]) / 2 * k

        for north in (w for w in words if w[4] == "N"):
            nx, ny = centre(north)
            south = min((w for w in words if w[4] == "S" and abs(centre(w)[0] - nx) < 3
                         and w[1] > north[1]), key=lambda w: w[1])
            unit = (centre(south)[1] - ny) / GOAL_TO_GOAL
            caption = min((w for w in words if re.fullmatch(r"\d+\.", w[4])
                            and w[1] > south[1] and (centre(w)[0] < middle) == (nx < middle)),
                           key=lambda w: w[1])
            pos = positions[int(caption[4][:-1])]
            shore = pos.shore()
            for slot, size in enumerate(pos.board):
                row, col = slot // 6 + 1, slot % 6 + 1
                if not size or row != shore:
                    continue
                x = nx + (col - 3.5) * CELL * unit
                y = ny + (GOAL_TO_ROW_6 + (6 - row) * CELL) * unit
                shown = ring_circles(rows[round(y)], x, RING * unit)
                assert shown == size, (page, caption[4], slot, size, shown)
                seen.add(size)
    assert seen == {1, 2, 3}


def test_the_export_says_what_it_is_doing(tmp_path):
    """What a terminal shows while the book is made (the command's status line hears the
    same words): the solver's commentary puzzle by puzzle, then WeasyPrint's two steps."""
    weasyprint_or_skip()
    puzzles = subset_puzzles()[:2]
    heard: list[str] = []
    out = tmp_path / "b.pdf"
    publish_book(puzzles, out, "pdf", check=False, status=heard.append,
                 created=dt.datetime(2024, 1, 1, tzinfo=dt.timezone.utc))
    pages = len(pypdf.PdfReader(str(out)).pages)
    assert heard == [*(f"the solver's commentary {i}/2: {p.id} ({p.file}:{p.line})"
                       for i, p in enumerate(puzzles, 1)),
                     "writing the pdf book",
                     "typesetting the PDF (WeasyPrint): laying out the pages",
                     f"typesetting the PDF (WeasyPrint): writing {pages} pages"]


def test_reproducible_with_source_date_epoch(tmp_path):
    a, _ = export(tmp_path / "a", "--select", "id=seed000-bouncing")
    b, _ = export(tmp_path / "b", "--select", "id=seed000-bouncing")
    assert a.read_bytes() == b.read_bytes()
    c, _ = export(tmp_path / "c", "--select", "id=seed000-bouncing", epoch="1800000000")
    assert c.read_bytes() != a.read_bytes()

    def undated(path: Path) -> tuple:
        """What a reader gets from the file but its dates: every page's drawing, every
        resource, and the rest of the document information."""
        reader = pypdf.PdfReader(str(path))
        info = {k: v for k, v in reader.metadata.items()
                if k not in ("/CreationDate", "/ModDate")}
        pages = [(p.get_contents().get_data(),
                  sorted(str(f.get_object()["/BaseFont"])
                         for f in p["/Resources"].get("/Font", {}).values()))
                 for p in reader.pages]
        return info, pages, reader.metadata.creation_date

    info_a, pages_a, date_a = undated(a)
    info_c, pages_c, date_c = undated(c)
    assert (info_a, pages_a) == (info_c, pages_c)
    assert date_c - date_a == dt.timedelta(seconds=100000000)
    # Without SOURCE_DATE_EPOCH the date is now; the rest is the same.
    d, _ = export(tmp_path / "d", "--select", "id=seed000-bouncing", epoch=None)
    info_d, pages_d, date_d = undated(d)
    assert (info_d, pages_d) == (info_a, pages_a)
    assert abs(dt.datetime.now(dt.timezone.utc) - date_d) < dt.timedelta(minutes=10)


@pytest.mark.parametrize("paper,size", [("a4", (595.3, 841.9)), ("letter", (612.0, 792.0))])
def test_paper_sizes(tmp_path, paper, size):
    path, _ = export(tmp_path, "--select", "id=seed000-bouncing", "--paper", paper,
                     "--no-check")
    reader = pypdf.PdfReader(str(path))
    for page in reader.pages:
        box = page.mediabox
        assert abs(float(box.width) - size[0]) < 1 and abs(float(box.height) - size[1]) < 1


def test_bad_source_date_epoch_is_one_line(tmp_path):
    weasyprint_or_skip()
    result = CliRunner().invoke(cli, ["export", "--format", "pdf", "--out",
                                      str(tmp_path / "b.pdf"), "--select",
                                      "id=seed000-bouncing", "-q"],
                                env={"SOURCE_DATE_EPOCH": "yesterday"})
    assert result.exit_code == 2
    assert "SOURCE_DATE_EPOCH" in result.output and "Traceback" not in result.output


@pytest.mark.slow
def test_whole_catalogue_book(tmp_path):
    """The book of every puzzle under puzzles/ (what the command exports by default), the
    deep ones included."""
    puzzles, errors = load_all([ROOT / "puzzles"], recursive=True)
    assert not errors
    path, _ = export(tmp_path)
    check_book(path, make_book(puzzles))
