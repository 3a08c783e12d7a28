"""gyges: the reference toolkit for the board game Gyges (Claude Leroy, 1985).

The main names are here; each layer's package exports its own: from the bottom,
:mod:`gyges.game` (the rules and the compiled core), :mod:`gyges.formats` (parsers and
formatters), :mod:`gyges.search` (the provers), :mod:`gyges.engine` (the playing engine),
and the analyses :mod:`gyges.puzzles` and :mod:`gyges.setups`; the leaves
:mod:`gyges.parallel` (long runs), :mod:`gyges.output` (writing a user's files) and
:mod:`gyges.signals` (holding Ctrl-C back) know nothing of the game (docs/architecture.md).

>>> import gyges
>>> pf = gyges.load_position("....../3...../..1.1./1.23.3/3.22.1/....2. N")
>>> rules = gyges.PRESETS["pbmserv"]
>>> [gyges.format_move(m) for m in gyges.legal_moves(pf.position, rules).wins]
['51-43-33-31-21-S']
>>> gyges.solve(pf.position, rules).moves
1
"""

from gyges.formats.inputs import InputError, load_position
from gyges.formats.notation import NotationError, format_move, parse_move
from gyges.formats.posfile import PositionFile
from gyges.game.moves import Game, Move, MoveList, apply_move, can_land, legal_moves
from gyges.game.position import START, Position, PositionError
from gyges.game.rules import PRESETS, RuleError, RuleSet, Side, rules_from
from gyges.search import Solution, solve

__all__ = [
    "PRESETS", "START", "Game", "InputError", "Move", "MoveList", "NotationError", "Position",
    "PositionError", "PositionFile", "RuleError", "RuleSet", "Side", "Solution", "apply_move",
    "can_land", "format_move", "legal_moves", "load_position", "parse_move",
    "rules_from", "solve",
]
