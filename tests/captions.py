"""A problem's caption as the book tests find it in a page's laid-out text
(``pdftotext -layout``)."""

from __future__ import annotations

import re


def caption(number: int, title: str) -> re.Pattern[str]:
    """The caption of problem ``number``: its number and whole title (not followed by a
    Roman numeral that would make it another problem's), or, where a long title wraps in
    its column, the title's first words ending the line or followed by the next column."""
    words = title.split(" ")
    whole = rf"{re.escape(title)}(?!\w| [IVX])"
    heads = [re.escape(" ".join(words[:i])) + r"(?= {2,}|$)" for i in range(len(words) - 1, 0, -1)]
    return re.compile(rf"(?<![\d.]){number}\. (?:{'|'.join([whole, *heads])})", re.M)
