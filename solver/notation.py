"""pbmserv move notation (seed 000): writing and parsing."""

from __future__ import annotations

from typing import TYPE_CHECKING

from solver.squares import slot_name

if TYPE_CHECKING:
    from solver.moves import Move


def format_move(move: Move) -> str:
    """Start, each bounce, then the end: ``51-43-33-31-21-S``, ``13-14-24x35=33``."""
    chain = "-".join(slot_name(s) for s in (move.start, *move.landings))
    if move.relocation is not None:
        return f"{chain}x{slot_name(move.end)}={slot_name(move.relocation)}"
    return f"{chain}-{slot_name(move.end)}"
