"""Formats: pure parse/format pairs for notation (``notation``), text diagrams
(``diagram``), YAML position files (``posfile``), game records (``record``), position
lists (``poslist``), the JSON form of move lists (``movelist``) and SVG diagrams
(``svg``), and the reader of what a user gives (``inputs``, :func:`load_position`: a
position string, a position file or a diagram); ``yamlnodes`` reads YAML node by node, so
that an error names its line, and ``quoting`` quotes an excerpt of a bad input. They use
the game layer and nothing above it.

>>> from gyges.game import PRESETS
>>> pf = load_position("....../3...../..1.1./1.23.3/3.22.1/....2. N")
>>> move = parse_move("51-43-33-31-21-S", pf.position, PRESETS["pbmserv"])
>>> format_move(move), format_move(move, long=True)
('51-43-33-31-21-S', '51-(41-42-)43-33-(32-)31-21-(11-12-)S')
"""

from gyges.formats.diagram import DiagramError, format_diagram, parse_diagram
from gyges.formats.inputs import (
    MAX_INPUT_BYTES,
    InputError,
    StartConflict,
    load_game,
    load_position,
    read_text_file,
)
from gyges.formats.movelist import move_list_from_json, move_list_to_json
from gyges.formats.notation import (
    MoveEnd,
    NotationError,
    ParsedMove,
    format_move,
    format_turn,
    parse_move,
    parse_setup,
    parse_turn,
    read_move,
)
from gyges.formats.posfile import (
    PositionFile,
    PositionFileError,
    dump_position_file,
    load_position_file,
    parse_position_file,
)
from gyges.formats.poslist import PositionListEntry, PositionListError, parse_position_list
from gyges.formats.record import (
    GameRecord,
    RecordedTurn,
    RecordError,
    Replay,
    format_record,
    parse_record,
    record_from_moves,
    replay,
)
from gyges.formats.svg import render_position

__all__ = [
    "MAX_INPUT_BYTES", "DiagramError", "GameRecord", "InputError", "MoveEnd", "NotationError",
    "ParsedMove", "PositionFile", "PositionFileError", "PositionListEntry", "PositionListError",
    "RecordError", "RecordedTurn", "Replay", "StartConflict", "dump_position_file",
    "format_diagram", "format_move", "format_record", "format_turn", "load_game", "load_position",
    "load_position_file", "move_list_from_json", "move_list_to_json", "parse_diagram", "parse_move",
    "parse_position_file", "parse_position_list", "parse_record", "parse_setup", "parse_turn",
    "read_move", "read_text_file", "record_from_moves", "render_position", "replay",
]
