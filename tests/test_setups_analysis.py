"""The analysis of one setup pair (gyges.setups.analysis): the record's verdict comes from
the solver or is given, and the defence follows the verdict."""

from __future__ import annotations

from gyges.game.moves import legal_moves
from gyges.game.position import Position
from gyges.game.rules import PRESETS
from gyges.setups.analysis import analyse_pair
from gyges.setups.constraints import first_move_threats, hardest_threat
from gyges.setups.results import PairRecord

RULES = PRESETS["pbmserv"]


def test_a_given_verdict_is_the_records():
    rec = analyse_pair("112233", "213132", RULES, 2)
    verdict = (rec["result"], rec["win_in"], rec["keys"])
    assert analyse_pair("112233", "213132", RULES, 2, verdict=verdict) == rec
    # another verdict: the record says it, and the defence is still the hardest threat
    lost = analyse_pair("112233", "213132", RULES, 2, verdict=("loss", 2, []))
    assert (lost["result"], lost["win_in"], lost["keys"]) == ("loss", 2, [])
    assert lost["defence"] == rec["defence"] and {**lost, "result": "none", "win_in": None} == rec


def test_the_record_holds_the_engines_figures():
    start = Position.setup("231132", "132312")
    record = PairRecord.from_json(analyse_pair("231132", "132312", RULES, 1))
    moves = legal_moves(start, RULES)
    figures = first_move_threats(start, RULES, moves)
    assert (record.landing_threats, record.blunders) == (figures.landing_threats,
                                                         figures.blunders)
    assert record.defence == hardest_threat(start, RULES, figures.threats)
    assert record.south_moves == len(moves) and record.depth == 1
