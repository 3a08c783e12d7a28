"""Reading the ``POS|FILE`` argument of a command (a position string or a position file)
and the ``GAME-FILE`` of ``replay``/``review``: the library's readers
(:mod:`gyges.formats.inputs`), with every problem as one
:class:`~gyges_cli.common.UserError` (exit status 2).

>>> str(load_input("321123/....../....../....../....../231123 S").position)
'321123/....../....../....../....../231123 S'
>>> load_input("nope.yaml")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
gyges_cli.common.UserError: no such file 'nope.yaml' and not a position string (a position ...
"""

from __future__ import annotations

import os
from pathlib import Path

from gyges.formats import inputs
from gyges.formats.inputs import MAX_INPUT_BYTES, InputError, StartConflict, excerpt
from gyges.formats.posfile import PositionFile
from gyges.formats.record import GameRecord
from gyges.game.position import Position
from gyges.game.rules import RuleRequest, RuleSet, combine_rules
from gyges_cli.common import UserError

__all__ = ["MAX_INPUT_BYTES", "excerpt", "load_game_input", "load_input", "read_input_text"]


def read_input_text(path: str | os.PathLike[str], what: str = "file",
                    limit: int = MAX_INPUT_BYTES) -> str:
    """The text of a file, or a UserError saying why it cannot be read."""
    try:
        return inputs.read_text_file(path, what, limit)
    except InputError as e:
        raise UserError(str(e)) from None


def load_inputs(arg: str) -> inputs.Positions:
    """One position or a position list named by ``gyges solve``'s ``POS|FILE`` argument,
    the file read once."""
    try:
        return inputs.load_positions(arg)
    except InputError as e:
        raise UserError(str(e)) from None


def load_input(arg: str) -> PositionFile:
    """The position (and rules, history...) named by a command's ``POS|FILE`` argument."""
    try:
        return inputs.load_position(arg)
    except InputError as e:
        raise UserError(str(e)) from None


def load_game_input(game_file: Path, start_arg: str | None, request: RuleRequest
                    ) -> tuple[GameRecord, Position | None, RuleSet]:
    """A game record with its optional ``--start`` position and the rules in force (the
    start file's combined with the command's ``request``: :func:`combine_rules`):
    ``(record, start, rules)``."""
    try:
        record, start_file = inputs.load_game(game_file, start_arg)
    except StartConflict as e:
        raise UserError(f"{e.problem}: --start is for a record without setups", e.source) \
            from None
    except InputError as e:
        raise UserError(str(e)) from None
    if start_file is None:
        return record, None, combine_rules(None, request)
    return record, start_file.position, combine_rules(start_file.rules, request)
