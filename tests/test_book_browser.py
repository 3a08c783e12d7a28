"""The HTML book rendered by a real headless browser (Debian's chromium).

The test installs nothing: it skips, saying why, only when no browser binary is found
(``.ci/run`` installs chromium). The screenshot is decoded here with zlib and struct.
"""

from __future__ import annotations

import os
import re
import shutil
import struct
import subprocess
import zlib
from pathlib import Path

import pytest
from captions import caption as caption_of
from pdftext import find_title, need_poppler, overlapping_words, page_texts, page_words

from gyges.puzzles.book import Book, export_html, make_book
from gyges.puzzles.catalogue import load_all

ROOT = Path(__file__).resolve().parent.parent
BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
PAGE_W, PAGE_H, GAP = 794, 1123, 30  # an A4 page in CSS px (96 dpi), 8 mm between pages
SCALE = 0.5  # device pixels per CSS px: a smaller screenshot decodes faster


def find_browser() -> str | None:
    for name in BROWSERS:
        path = shutil.which(name)
        if path:
            return path
    return None


def decode_png(data: bytes) -> tuple[int, int, list[list[int]]]:
    """Width, height and rows of grey levels (0 black .. 255 white) of an 8-bit PNG."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat = 8, b""
    width = height = bpp = 0
    while pos < len(data):
        (n,) = struct.unpack(">I", data[pos:pos + 4])
        kind, body = data[pos + 4:pos + 8], data[pos + 8:pos + 8 + n]
        pos += 12 + n
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and body[12] == 0, "only 8-bit, non-interlaced PNGs"
            bpp = {0: 1, 2: 3, 4: 2, 6: 4}[colour]
        elif kind == b"IDAT":
            idat += body
    raw = zlib.decompress(idat)
    stride = width * bpp
    prev = bytearray(stride)
    grey_rows = []
    i = 0
    for _ in range(height):
        kind = raw[i]
        line = bytearray(raw[i + 1:i + 1 + stride])
        i += 1 + stride
        if kind == 1:
            for x in range(bpp, stride):
                line[x] = (line[x] + line[x - bpp]) & 255
        elif kind == 2:
            for x in range(stride):
                line[x] = (line[x] + prev[x]) & 255
        elif kind == 3:
            for x in range(stride):
                left = line[x - bpp] if x >= bpp else 0
                line[x] = (line[x] + (left + prev[x]) // 2) & 255
        elif kind == 4:
            for x in range(stride):
                a = line[x - bpp] if x >= bpp else 0
                b = prev[x]
                c = prev[x - bpp] if x >= bpp else 0
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        prev = line
        if bpp >= 3:
            grey_rows.append([(line[x] * 3 + line[x + 1] * 6 + line[x + 2]) // 10
                              for x in range(0, stride, bpp)])
        else:
            grey_rows.append(list(line[::bpp]))
    return width, height, grey_rows


def dark_pixels(rows: list[list[int]], x0: int, y0: int, x1: int, y1: int) -> int:
    return sum(1 for row in rows[y0:y1] for v in row[x0:x1] if v < 110)


def run_browser(tmp: Path, *args: str) -> subprocess.CompletedProcess:
    browser = find_browser()
    if browser is None:
        pytest.skip(f"no headless browser found (looked for {', '.join(BROWSERS)} on PATH); "
                    "install Debian's chromium to run this test")
    cmd = [browser, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
           f"--user-data-dir={tmp / 'profile'}", *args]
    env = dict(os.environ, HOME=str(tmp))
    return subprocess.run(cmd, capture_output=True, timeout=180, env=env, cwd=tmp)


@pytest.fixture(scope="module")
def book(tmp_path_factory) -> tuple[Path, Book]:
    """The book of puzzles/ written to a temporary directory, and its layout."""
    tmp = tmp_path_factory.mktemp("book")
    puzzles, errors = load_all([ROOT / "puzzles"])
    assert not errors and len(puzzles) >= 20
    layout = make_book(puzzles)
    path = tmp / "book.html"
    path.write_text(export_html(layout), encoding="utf-8")
    return path, layout


@pytest.fixture(scope="module")
def screenshot(book) -> tuple[int, int, list[list[int]]]:
    path, _ = book
    png = path.parent / "shot.png"
    done = run_browser(path.parent, f"--force-device-scale-factor={SCALE}",
                       f"--screenshot={png}", f"--window-size={PAGE_W},{2 * PAGE_H + GAP}",
                       path.as_uri())
    assert png.exists(), f"the browser wrote no screenshot: {done.stderr.decode()[-2000:]}"
    return decode_png(png.read_bytes())


@pytest.fixture(scope="module")
def printed(book) -> Path:
    """The book printed to PDF by the browser."""
    path, _ = book
    pdf = path.parent / "book.pdf"
    done = run_browser(path.parent, "--no-pdf-header-footer", f"--print-to-pdf={pdf}",
                       path.as_uri())
    assert pdf.exists(), f"the browser wrote no PDF: {done.stderr.decode()[-2000:]}"
    return pdf


def test_screenshot_is_not_blank(screenshot):
    width, height, rows = screenshot
    assert (width, height) == (round(PAGE_W * SCALE), round((2 * PAGE_H + GAP) * SCALE))
    values = [v for row in rows for v in row]
    mean = sum(values) / len(values)
    variance = sum((v - mean) ** 2 for v in values) / len(values)
    assert variance > 300, f"the page looks blank (grey-level variance {variance:.0f})"


def test_title_page_has_title_diagram_and_legend(screenshot):
    width, _, rows = screenshot
    s = SCALE
    title_band = dark_pixels(rows, 0, int(40 * s), width, int(140 * s))
    frontispiece = dark_pixels(rows, int(50 * s), int(190 * s), int(360 * s), int(580 * s))
    legend = dark_pixels(rows, int(400 * s), int(190 * s), width, int(580 * s))
    assert title_band > 250, title_band
    assert frontispiece > 500, frontispiece
    assert legend > 300, legend


def test_printed_book_has_every_entry_once_and_nothing_overprinted(book, printed):
    """Printed by the browser, the contents list every entry (no page box of fixed height
    cuts them off) and no text is drawn over other text (the credits footer included)."""
    need_poppler()
    _, layout = book
    texts = page_texts(printed)
    contents = next(i for i, t in enumerate(texts) if t.strip().startswith("CONTENTS"))
    solutions = next(i for i, t in enumerate(texts) if t.strip().startswith("SOLUTIONS"))
    first_chapter = next(i for i, t in enumerate(texts)
                         if i > contents and re.match(r"\s*1\. ", t.strip()))
    listing = "\n".join(texts[contents:first_chapter])
    problems = "\n".join(texts[first_chapter:solutions])
    answers = "\n".join(texts[solutions:])
    for e in layout.entries:
        assert find_title(listing, e.number, e.title), \
            f"entry {e.number} is missing from the printed contents"
        caption = caption_of(e.number, e.title)
        assert len(caption.findall(problems)) == 1, e.title
        assert len(caption.findall(answers)) == 1, e.title
    for i, words in enumerate(page_words(printed)):
        assert not overlapping_words(words), f"text drawn over text on page {i + 1}"
    data = printed.read_bytes()
    boxes = re.findall(rb"/MediaBox\s*\[\s*0\s+0\s+([\d.]+)\s+([\d.]+)\s*\]", data)
    assert boxes and all(abs(float(w) - 595.3) < 1.5 and abs(float(h) - 841.9) < 1.5
                         for w, h in boxes)
