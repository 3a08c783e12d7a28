"""The PDF book, typeset by WeasyPrint and read back with pypdf and poppler-utils: pages,
contents and cross-references, every puzzle and solution exactly once, fonts embedded,
paper sizes, page images that are not blank, and byte-for-byte reproducibility.

The default run uses a small --select subset (seed 000's classics and the puzzles composed
with the solver); the whole catalogue is a slow test."""

from __future__ import annotations

import dataclasses
import datetime as dt
import re
import subprocess
from pathlib import Path

import pytest
from captions import caption as caption_of
from click.testing import CliRunner
from pdftext import (
    find_title,
    first_pages_png,
    line_page,
    need_poppler,
    overlapping_words,
    page_png,
    page_texts,
    page_words,
)
from test_book_browser import decode_png

from gyges.game.squares import NORTH_GOAL, SOUTH_GOAL
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
    assert "Gygès puzzles" in texts[0] and texts[1].strip().startswith("HOW TO READ THIS BOOK")
    assert contents in (2, 3)  # the reading guide takes one page or two
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
        row = find_title(listing, e.number, e.title)
        assert row, f"problem {e.number} is not in the contents"
        page = line_page(listing, row)
        assert page is not None, f"problem {e.number} has no page in the contents"
        assert caption.search(texts[page - 1]), (e.number, page)
        # The solution refers back to the same page.
        # (a long title wraps, and the lines beside it may come between its words)
        title = r"\s+".join(re.escape(w) for w in f"{e.number}. {e.title}".split())
        found = re.search(title, answers)
        assert found, e.number
        assert re.match(rf".{{0,300}}?\(problem,\s(?:.{{0,200}}?\s)?p\.\s+{page}\)",
                        answers[found.end():], flags=re.S), e.number
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


def test_the_reading_guide_is_the_second_page(subset_pdf):
    """Page 2 (and 3) is the reading guide (pdftotext): every heading and every word of
    its one text (gyges.puzzles.book.guide; its two columns leave pdftotext's reading
    order, so a paragraph may be cut where a column ends), and its key phrases whole."""
    from gyges.puzzles.book.guide import reading_guide

    need_poppler()
    out = subprocess.run(["pdftotext", "-f", "2", "-l", "3", str(subset_pdf), "-"],
                         capture_output=True, check=True).stdout.decode("utf-8")

    def words(text: str) -> str:  # pdftotext joins "non-" and "empty" into "nonempty"
        return re.sub(r"-\s*", "", " ".join(text.split()))

    page = words(out)
    assert page.startswith("HOW TO READ THIS BOOK")
    for section in reading_guide():
        assert section.heading in page
        for paragraph in section.paragraphs:
            missing = set(words(re.sub(r"[`*]", "", paragraph)).split()) - set(page.split())
            assert not missing, (paragraph[:40], missing)
    for phrase in ("a grey disc with a thick black rim", "Flaw: duals, e.g.",
                   "A cook is another first move", "A try is a tempting first move"):
        assert words(phrase) in page, phrase


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
#: Darker than DARK is ink; a ring's circles are runs of ink parted by pixels lighter than
#: PARTED (paper, or the grey disc of a marked ring).
DARK, PARTED = 110, 140


@dataclasses.dataclass
class Drawn:
    """One diagram found on a page at SCREEN_DPI: its page's grey rows, the problem's
    number and position, where North's goal is, and the drawing's unit in pixels."""

    rows: list[list[int]]
    number: int
    position: object
    north: tuple[float, float]
    unit: float
    words: list[tuple[float, float, float, float, str]]

    def centre(self, slot: int) -> tuple[float, float]:
        """Where a slot's centre is on the page, in pixels."""
        from gyges.formats.svg import _Layout

        lay = _Layout(False)
        gx, gy = lay.centre(NORTH_GOAL)
        x, y = lay.centre(slot)
        return self.north[0] + (x - gx) * self.unit, self.north[1] + (y - gy) * self.unit

    def pixel(self, x: float, y: float) -> int:
        return self.rows[round(y)][round(x)]


def drawn_diagrams(pdf: Path, book, tmp: Path, solutions: bool) -> list[Drawn]:
    """Every diagram of the problem pages (``solutions`` False) or of the solution pages,
    rendered at SCREEN_DPI. A diagram is found by its goals' letters (``N`` above ``S``),
    its problem by its caption's number below it, or by the solution's head to its right."""
    from gyges.formats.svg import _Layout

    need_poppler()
    lay = _Layout(False)
    goal_to_goal = lay.centre(SOUTH_GOAL)[1] - lay.centre(NORTH_GOAL)[1]
    texts = page_texts(pdf)
    first = next(i for i, t in enumerate(texts) if re.match(r"\s*1\. [A-Z]", t.strip()))
    _, answers, index = sections(texts)
    pages = range(answers + 1, index + 1) if solutions else range(first + 1, answers + 1)
    positions = {e.number: e.puzzle.position for e in book.entries}
    k = SCREEN_DPI / 72
    found = []
    for page in pages:
        words = page_words(pdf)[page - 1]
        width, _, rows = decode_png(page_png(pdf, page, tmp, SCREEN_DPI).read_bytes())
        middle = width / 2

        def centre(w: tuple) -> tuple[float, float]:
            return (w[0] + w[2]) / 2 * k, (w[1] + w[3]) / 2 * k

        for north in (w for w in words if w[4] == "N"):
            nx, ny = centre(north)
            below = [w for w in words if w[4] == "S" and abs(centre(w)[0] - nx) < 3
                     and w[1] > north[1]]
            if not below:
                continue
            south = min(below, key=lambda w: w[1])
            unit = (centre(south)[1] - ny) / goal_to_goal
            numbers = [w for w in words if re.fullmatch(r"\d+\.", w[4])]
            if solutions:
                top = ny - lay.centre(NORTH_GOAL)[1] * unit
                head = min((w for w in numbers if w[0] * k > nx + 3.2 * 60 * unit),
                           key=lambda w: abs(w[1] * k - top))
            else:
                head = min((w for w in numbers if w[1] > south[1]
                            and (centre(w)[0] < middle) == (nx < middle)),
                           key=lambda w: w[1])
            number = int(head[4][:-1])
            found.append(Drawn(rows, number, positions[number], (nx, ny), unit,
                               [w for w in words if abs(centre(w)[0] - nx) < 300 * unit
                                and north[1] - 60 * unit / k < w[1] < south[3]]))
    assert found
    return found


def ray(d: Drawn, slot: int, reach: float, step: tuple[int, int]) -> list[int]:
    """The grey levels from a slot's centre outwards, ``reach`` pixels, one direction."""
    x, y = d.centre(slot)
    return [d.pixel(x + step[0] * i, y + step[1] * i) for i in range(int(reach) + 1)]


def circles(values: list[int]) -> int:
    """The runs of ink along a ray, each parted from the next by a lighter pixel."""
    count, inked = 0, False
    for v in values:
        if v < DARK and not inked:
            count, inked = count + 1, True
        elif v > PARTED:
            inked = False
    return count


def hole(values: list[int]) -> int:
    """The pixels from the centre out to the first ink: a ring's white (or grey) middle."""
    return next((i for i, v in enumerate(values) if v < DARK), len(values))


def ring_reading(d: Drawn, slot: int) -> tuple[int, int]:
    """The circles a ring shows out to its edge (the best of four directions: the key's
    path may leave it on any side) and the diameter of its middle (the narrower of across
    and down)."""
    from gyges.formats.svg import MARKED_R, RING_R

    marked = slot // 6 + 1 == d.position.shore()
    reach = (MARKED_R if marked else RING_R) * d.unit
    rays = {s: ray(d, slot, reach, s) for s in ((1, 0), (-1, 0), (0, 1), (0, -1))}
    shown = max(circles(r) for r in rays.values())
    across = min(hole(rays[(1, 0)]) + hole(rays[(-1, 0)]), hole(rays[(0, 1)])
                 + hole(rays[(0, -1)]))
    return shown, across


@pytest.fixture(scope="module")
def problem_diagrams(subset_pdf, subset_book, tmp_path_factory):
    return drawn_diagrams(subset_pdf, subset_book, tmp_path_factory.mktemp("p"), False)


@pytest.fixture(scope="module")
def solution_diagrams(subset_pdf, subset_book, tmp_path_factory):
    return drawn_diagrams(subset_pdf, subset_book, tmp_path_factory.mktemp("s"), True)


def test_the_coordinates_read_at_screen_resolution(problem_diagrams):
    """The column and row numbers of every problem's diagram, at 96 dpi: each digit's ink
    (darker than 128) is at least 9 pixels high (they were 4 px of grey, font 5.5 px)."""
    heights = []
    for d in problem_diagrams:
        digits = [w for w in d.words if w[4] in "123456" and len(w[4]) == 1]
        assert len(digits) == 12, (d.number, [w[4] for w in digits])
        k = SCREEN_DPI / 72
        for w in digits:
            x0, y0, x1, y1 = (round(v * k) for v in w[:4])
            inked = [y for y in range(y0 - 2, y1 + 3)
                     if any(d.rows[y][x] < 128 for x in range(x0, x1 + 1))]
            heights.append(inked[-1] - inked[0] + 1 if inked else 0)
    assert min(heights) >= 9, sorted(heights)


@pytest.mark.parametrize("kind", ["problem", "solution"])
def test_the_ring_sizes_read_at_screen_resolution(kind, problem_diagrams, solution_diagrams):
    """Every ring of every diagram at 96 dpi, marked or not, and in the solutions the rings
    the key's path passes too: a ring of size k shows k circles parted by lighter pixels,
    and its middle narrows by at least 2 pixels from a single to a double to a triple,
    whose middle still shows (the old triple's merged into a dot, the path's diamond hid
    the rings it bounced on)."""
    diagrams = problem_diagrams if kind == "problem" else solution_diagrams
    middles: dict[int, list[int]] = {1: [], 2: [], 3: []}
    wrong = []
    for d in diagrams:
        for slot, size in enumerate(d.position.board):
            if not size:
                continue
            shown, across = ring_reading(d, slot)
            if shown != size or (size == 3 and across < 2):
                wrong.append((d.number, slot, size, shown, across))
            middles[size].append(across)
    assert not wrong, wrong
    smallest = {size: min(values) for size, values in middles.items()}
    largest = {size: max(values) for size, values in middles.items()}
    assert smallest[1] >= largest[2] + 2 and smallest[2] >= largest[3] + 2, middles
    assert smallest[3] >= 2, middles


def marked_difference(d: Drawn, marked: int, unmarked: int) -> int:
    """The pixels of a ring's square that differ by more than 64 grey levels between a
    marked ring and an unmarked one of the same size on the same diagram."""
    from gyges.formats.svg import MARKED_R

    r = round(MARKED_R * d.unit)
    (ax, ay), (bx, by) = d.centre(marked), d.centre(unmarked)
    return sum(1 for dy in range(-r, r + 1) for dx in range(-r, r + 1)
               if abs(d.pixel(ax + dx, ay + dy) - d.pixel(bx + dx, by + dy)) > 64)


@pytest.mark.parametrize("kind", ["problem", "solution"])
def test_a_marked_triple_is_as_visible_as_a_marked_single(kind, problem_diagrams,
                                                          solution_diagrams):
    """The side to move's marking at 96 dpi: a marked triple differs from an unmarked
    triple of the same diagram in at least half as many pixels as a marked single from an
    unmarked single, and in at least 100 (the old marking, a grey centre, changed a
    triple in 15 to 19 pixels, a single in 195)."""
    found: dict[int, list[int]] = {1: [], 3: []}
    for d in problem_diagrams if kind == "problem" else solution_diagrams:
        shore = d.position.shore()
        for size in found:
            rings = [s for s, x in enumerate(d.position.board) if x == size]
            marked = [s for s in rings if s // 6 + 1 == shore]
            plain = [s for s in rings if s // 6 + 1 != shore]
            if marked and plain:
                found[size].append(marked_difference(d, marked[0], plain[0]))
    assert found[1] and found[3], found
    single, triple = min(found[1]), min(found[3])
    assert triple >= 100 and triple >= single / 2, found


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
