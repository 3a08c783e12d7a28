"""The results file of a setup analysis (gyges.setups.results): records as typed values
and back, and the checks a record read from a file passes."""

from __future__ import annotations

import json

import pytest

from gyges.game.rules import PRESETS
from gyges.setups.analysis import analyse_pair
from gyges.setups.results import (
    BatchError,
    PairRecord,
    check_record,
    dumps,
    params,
    read_results,
)

RULES = PRESETS["pbmserv"]


@pytest.fixture(scope="module")
def record() -> dict:
    return analyse_pair("231132", "132312", RULES, 1)


def test_a_record_round_trips(record):
    r = PairRecord.from_json(record)
    assert r.to_json() == record and json.loads(dumps(r.to_json())) == record
    assert (r.south, r.north, r.result, r.win_in, r.keys) == ("231132", "132312", "none",
                                                              None, ())
    assert r.params == params(RULES, 1) and r.position.turn.title == "South"
    assert repr(r) == "PairRecord(S 231132 N 132312, depth 1: none)"
    assert r.defence is not None and r.defence["replies"] > 0


@pytest.mark.parametrize("change, words", [
    pytest.param({"blunders": -1}, "whole numbers, 0 or more", id="count"),
    pytest.param({"result": "draw"}, "result is win, loss or none", id="result"),
    pytest.param({"win_in": 2}, "win_in is the length", id="win-in"),
    pytest.param({"defence": {"threat": "11-21"}}, "defence is null or", id="defence"),
    pytest.param({"north": "3211"}, "'3211' is not a setup", id="setup"),
    pytest.param({"depth": "2"}, "depth and format are whole numbers", id="depth"),
])
def test_a_bad_record_is_refused_alike_from_json_and_from_a_file(tmp_path, record, change,
                                                                  words):
    bad = {**record, **change}
    with pytest.raises(BatchError, match=f"^not a setup analysis record \\(.*{words}"):
        PairRecord.from_json(bad)
    if "depth" in change:
        check_record(bad)        # the file's check leaves the parameters to the run
        return
    f = tmp_path / "r.jsonl"
    f.write_text(dumps(bad) + "\n")
    with pytest.raises(BatchError, match=f"^{f}, line 1: not a setup analysis record \\(.*"
                                         f"{words}"):
        read_results(str(f))


def test_a_missing_key_is_named(record):
    for key in ("south", "rules", "keys"):
        with pytest.raises(BatchError, match=f"no '{key}' key"):
            PairRecord.from_json({k: v for k, v in record.items() if k != key})
    with pytest.raises(BatchError, match="not an object"):
        PairRecord.from_json([record])
