"""Quoting what a user gave in an error message: a short excerpt, never the whole input
(a 20 MB line or a 1 MB YAML value is not echoed back).

>>> excerpt("321123/" * 20)
'321123/321123/321123/321123/321123/321123/321123/321123/3... (140 characters)'
>>> quoted("x" * 100, 10)
"'xxxxxxx... (100 characters)'"
>>> quoted("taboo")
"'taboo'"
>>> shorten("bad: '" + "x" * 1000 + "' (six rows)")
"bad: 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx... (1000 characters)' (six rows)"
"""

from __future__ import annotations

import re

__all__ = ["EXCERPT_WIDTH", "counted", "excerpt", "quoted", "shorten"]

#: the most of an input an error message quotes: a position string (43 characters) or a
#: move with its bounces fits whole; a longer text is cut, with its length said
EXCERPT_WIDTH = 60


def excerpt(text: str, width: int = EXCERPT_WIDTH) -> str:
    """At most ``width`` characters of ``text`` (its first line), with the length of the
    whole when it is cut."""
    lines = text.splitlines()
    first = lines[0] if lines else text
    if len(first) <= width and first == text:
        return text
    return f"{first[: width - 3]}... ({len(text)} characters)"


def quoted(text: str, width: int = EXCERPT_WIDTH) -> str:
    """``repr`` of the :func:`excerpt` of ``text``: a value quoted in a message."""
    return repr(excerpt(text, width))


#: a run of text without spaces longer than this in a message is a quote of the input to
#: cut (a file path or a position string is shorter)
_LONG = re.compile(r"[^\s'\"]{121,}")


def shorten(message: str) -> str:
    """``message`` with every run of more than 120 characters without spaces (a long value
    of the input quoted in it) cut to its :func:`excerpt`."""
    return _LONG.sub(lambda m: excerpt(m[0]), message)


def counted(n: int, noun: str, plural: str | None = None) -> str:
    """``n`` and the noun in the number it takes.

    >>> counted(1, "pair"), counted(2, "pair"), counted(0, "entry", "entries")
    ('1 pair', '2 pairs', '0 entries')
    """
    return f"{n} {noun if n == 1 else plural or noun + 's'}"
