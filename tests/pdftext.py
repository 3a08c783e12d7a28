"""Reading a PDF the way a reader sees it, with poppler-utils (``pdftotext``, ``pdftoppm``):
the text of each page, every word with its box, and the first pages as PNG images. Used by
the tests of the PDF book and of the HTML book printed by a browser."""

from __future__ import annotations

import html
import re
import shutil
import subprocess
from pathlib import Path

import pytest

TOOLS = ("pdftotext", "pdftoppm")


def need_poppler() -> None:
    missing = [t for t in TOOLS if shutil.which(t) is None]
    if missing:
        pytest.skip(f"{', '.join(missing)} not found: install Debian's poppler-utils "
                    "(.ci/run does)")


def page_texts(pdf: Path) -> list[str]:
    """The text of each page, laid out (``pdftotext -layout``)."""
    out = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True,
                         check=True).stdout.decode("utf-8")
    pages = out.split("\f")
    return pages[:-1] if pages and not pages[-1].strip() else pages


_WORD = re.compile(r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">'
                   r"(.*?)</word>")


def page_words(pdf: Path) -> list[list[tuple[float, float, float, float, str]]]:
    """Every word of each page with its box ``(x0, y0, x1, y1, text)``."""
    out = subprocess.run(["pdftotext", "-bbox", str(pdf), "-"], capture_output=True,
                         check=True).stdout.decode("utf-8")
    pages = []
    for page in out.split("<page ")[1:]:
        pages.append([(float(a), float(b), float(c), float(d), html.unescape(w))
                      for a, b, c, d, w in _WORD.findall(page)])
    return pages


def overlapping_words(words: list[tuple[float, float, float, float, str]],
                      tolerance: float = 0.3) -> list[tuple[str, str]]:
    """Pairs of words whose boxes overlap by more than ``tolerance`` of the smaller one:
    text drawn over text."""
    found = []
    ordered = sorted(words, key=lambda w: w[1])
    for i, a in enumerate(ordered):
        for b in ordered[i + 1:]:
            if b[1] >= a[3]:
                break
            w = min(a[2], b[2]) - max(a[0], b[0])
            h = min(a[3], b[3]) - max(a[1], b[1])
            if w <= 0 or h <= 0:
                continue
            smaller = min((a[2] - a[0]) * (a[3] - a[1]), (b[2] - b[0]) * (b[3] - b[1]))
            if w * h > tolerance * smaller:
                found.append((a[4], b[4]))
    return found


def first_pages_png(pdf: Path, out_dir: Path, pages: int = 2, dpi: int = 40) -> list[Path]:
    """The first ``pages`` pages as PNG files (``pdftoppm``)."""
    subprocess.run(["pdftoppm", "-png", "-r", str(dpi), "-f", "1", "-l", str(pages),
                    str(pdf), str(out_dir / "page")], check=True, capture_output=True)
    return sorted(out_dir.glob("page-*.png"))


def page_png(pdf: Path, page: int, out_dir: Path, dpi: int) -> Path:
    """Page ``page`` (1-based) as a PNG file at ``dpi`` (``pdftoppm``)."""
    stem = out_dir / f"page{page}-{dpi}"
    subprocess.run(["pdftoppm", "-png", "-r", str(dpi), "-f", str(page), "-l", str(page),
                    "-singlefile", str(pdf), str(stem)], check=True, capture_output=True)
    return stem.with_suffix(".png")


def find_title(text: str, number: int, title: str) -> re.Match[str] | None:
    """Problem ``number``'s ``title`` at the start of a line of ``text``: its words in
    order, a long title allowed to wrap (whatever the lines beside it put between its
    words: the text of a page laid out in columns)."""
    words = [re.escape(w) for w in title.split()]
    return re.search(rf"^\s*{number}\.?\s+" + r"[\s\S]{0,160}?".join(words), text,
                     flags=re.M)


def line_page(text: str, match: re.Match[str]) -> int | None:
    """The page number ending the line a contents entry starts on."""
    end = text.find("\n", match.start())
    found = re.search(r"(\d+)\s*$", text[match.start():end if end >= 0 else None])
    return int(found.group(1)) if found else None
