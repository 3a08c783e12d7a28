"""The game: the compiled move generator (``_movegen``, the only code that knows how rings
move) and the values built on it: squares, rules, positions, moves and move lists, games
with their history, perft counts. ``moves`` is the core's public face for the layers
above.

Nothing here imports from the other layers of ``gyges``.

>>> from gyges.game import PRESETS, START, legal_moves
>>> legal_moves(START, PRESETS["pbmserv"]).wins
()
"""

from gyges.game.movecount import Perft, PerftDepth, perft_depth, perft_table
from gyges.game.moves import (
    Game,
    Move,
    MoveList,
    apply_move,
    can_land,
    format_move,
    landing_moves,
    legal_moves,
    perft,
)
from gyges.game.position import ALL_SETUPS, START, Position, PositionError
from gyges.game.rules import (
    OPTIONS,
    PRESETS,
    Blocked,
    NullMove,
    Rebounce,
    Repetition,
    Replace,
    RuleError,
    RuleRequest,
    RuleSet,
    Setup,
    Side,
    Taboo,
    WinRule,
    closest_preset,
    combine_rules,
    rules_from,
)
from gyges.game.squares import NORTH_GOAL, SLOTS, SOUTH_GOAL, parse_slot, slot, slot_name

__all__ = [
    "ALL_SETUPS", "NORTH_GOAL", "OPTIONS", "PRESETS", "SLOTS", "SOUTH_GOAL", "START", "Blocked",
    "Game", "Move", "MoveList", "NullMove", "Perft", "PerftDepth", "Position", "PositionError",
    "Rebounce", "Repetition", "Replace", "RuleError", "RuleRequest", "RuleSet", "Setup", "Side",
    "Taboo", "WinRule", "apply_move", "can_land", "closest_preset", "combine_rules", "format_move",
    "landing_moves", "legal_moves", "parse_slot", "perft", "perft_depth", "perft_table",
    "rules_from", "slot", "slot_name",
]
