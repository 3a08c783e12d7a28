"""Closed sets of names as enums that stand in for the names themselves."""

from __future__ import annotations

import enum

__all__ = ["NameEnum"]


class NameEnum(str, enum.Enum):
    """An enum of names: each member is equal to its name (``"win"``), which is also its
    ``str()``, its ``repr()`` and its JSON form, so that it reads like the name wherever
    it is shown.

    >>> class Colour(NameEnum):
    ...     RED = "red"
    >>> Colour.RED == "red", str(Colour.RED), Colour.RED, Colour("red") is Colour.RED
    (True, 'red', 'red', True)
    """

    def __str__(self) -> str:
        return self.value

    def __repr__(self) -> str:
        return repr(self.value)
