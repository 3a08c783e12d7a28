"""The analysis of one setup pair (gyges.setups.proven.analysis): the figures agree with the public
API, the record's verdict comes from the solver or is given, and the defence follows the
verdict."""

from __future__ import annotations

import dataclasses
import json

from gyges.game.moves import apply_move, can_land, legal_moves
from gyges.game.position import Position
from gyges.game.rules import PRESETS, Side
from gyges.parallel import dumps
from gyges.search import ResultKind, solve
from gyges.setups.proven.analysis import analyse_pair, win_defence
from gyges.setups.proven.records import PairRecord
from gyges.setups.search.figures import first_move_threats, hardest_threat

RULES = PRESETS["pbmserv"]


def test_a_given_verdict_is_the_records():
    rec = analyse_pair("112233", "213132", RULES, 2)
    verdict = (rec.result, rec.win_in, list(rec.keys))
    assert analyse_pair("112233", "213132", RULES, 2, verdict=verdict) == rec
    # another verdict: the record says it, and the defence is still the hardest threat
    lost = analyse_pair("112233", "213132", RULES, 2, verdict=("loss", 2, []))
    assert (lost.result, lost.win_in, lost.keys) == ("loss", 2, ())
    assert lost.defence == rec.defence and dataclasses.replace(
        lost, result=ResultKind.NONE, win_in=None) == rec


def test_the_record_holds_the_engines_figures():
    start = Position.setup("231132", "132312")
    record = analyse_pair("231132", "132312", RULES, 1)
    assert PairRecord.from_json(record.to_json()) == record
    moves = legal_moves(start, RULES)
    figures = first_move_threats(start, RULES, moves)
    assert (record.landing_threats, record.blunders) == (figures.landing_threats,
                                                         figures.blunders)
    assert record.defence == hardest_threat(start, RULES, figures.threats)
    assert record.south_moves == len(moves) and record.params.depth == 1


def test_figures_agree_with_the_public_api():
    rec = analyse_pair("231132", "132312", RULES, 1).to_json()
    p = Position.setup("231132", "132312")
    south = legal_moves(p, RULES)
    north = legal_moves(p.with_turn(Side.NORTH), RULES)
    assert rec["south_moves"] == len(south) and rec["north_moves"] == len(north)
    assert rec["south_replaces"] == sum(m.is_replace for m in south)
    assert rec["north_replaces"] == sum(m.is_replace for m in north)
    afters = [apply_move(p, m) for m in south]
    assert rec["blunders"] == sum(can_land(a, RULES, [p]) for a in afters)
    assert rec["landing_threats"] == sum(can_land(a.with_turn(Side.SOUTH), RULES, [p])
                                         for a in afters)
    # no ring reaches the far row in one move from a start position
    assert rec["result"] == "none" and rec["win_in"] is None and rec["keys"] == []
    d = rec["defence"]
    assert d is not None and d["replies"] > 0
    # the reply given really stops the threat given
    threat = next(m for m in south if str(m) == d["threat"])
    after = apply_move(p, threat)
    reply = next(m for m in legal_moves(after, RULES, [p]) if str(m) == d["reply"])
    assert reply.is_win or not can_land(apply_move(after, reply), RULES, [p, after])
    assert rec["depth"] == 1 and rec["rules"] == RULES.describe()
    assert list(json.loads(dumps(rec))) == sorted(rec)


def test_win_defence_is_the_reply_leaving_fewest_landings():
    # not a start position (no setup pair has a win within 2): the defence logic itself
    p = Position.from_string("1...../...3../2323.2/11..23/..1.../...... S")
    sol = solve(p, RULES, max_moves=2)
    assert sol.result == "win" and sol.moves == 2
    key_text = sorted(str(k) for k in sol.keys)[0]
    d = win_defence(p, RULES, key_text, 2)
    key = next(m for m in legal_moves(p, RULES) if str(m) == key_text)
    after = apply_move(p, key)
    replies = legal_moves(after, RULES, [p])
    counts = {str(r): len(legal_moves(apply_move(after, r), RULES, [p, after]).wins)
              for r in replies if not r.is_win}
    assert d["replies"] == len(replies) and d["landings"] == min(counts.values()) > 0
    assert counts[d["reply"]] == d["landings"]
    assert d["reply"] == min(r for r, n in counts.items() if n == d["landings"])
