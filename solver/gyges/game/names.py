"""Closed sets of names as enums that stand in for the names themselves.

A rule option's value (``entry``, ``next-row``) is one of a few names: an enum keeps the
set closed and documented, and a :class:`NameEnum` member still reads, compares, prints
and serialises as the name, so that messages, JSON and YAML are what they were with
plain strings.
"""

from __future__ import annotations

import enum

__all__ = ["NameEnum"]


class NameEnum(str, enum.Enum):
    """An enum of names: each member is equal to its name (``"entry"``), which is also its
    ``str()``, its ``repr()`` and its JSON form.

    >>> class Colour(NameEnum):
    ...     RED = "red"
    >>> Colour.RED == "red", str(Colour.RED), Colour.RED, Colour("red") is Colour.RED
    (True, 'red', 'red', True)
    >>> import json; json.dumps({"colour": Colour.RED})
    '{"colour": "red"}'
    """

    def __str__(self) -> str:
        return self.value

    def __repr__(self) -> str:
        return repr(self.value)

    def __format__(self, spec: str) -> str:
        return format(self.value, spec)
