"""gyges: the reference toolkit for the board game Gyges (Claude Leroy, 1985)."""

from gyges.game.moves import Game, Move, MoveList, apply_move, can_land, legal_moves
from gyges.game.position import START, Position, PositionError
from gyges.game.rules import PRESETS, RuleError, RuleSet, Side, preset, rules_from

__all__ = [
    "PRESETS", "START", "Game", "Move", "MoveList", "Position", "PositionError", "RuleError",
    "RuleSet", "Side", "apply_move", "can_land", "legal_moves", "preset", "rules_from",
]
