"""The results file of a setup analysis (gyges.setups.proven.records): records as typed
values and back, the checks a record read from a file passes, a file that is not a table
refused by file and line, and the mirror rows a table of canonical pairs stands for."""

from __future__ import annotations

import json

import pytest

from gyges.game.rules import PRESETS
from gyges.parallel import ResultsFileError, dumps
from gyges.setups.proven.analysis import analyse_pair
from gyges.setups.proven.records import (
    AnalysisParams,
    BatchError,
    PairRecord,
    is_canonical,
    read_results,
    with_mirrors,
)

RULES = PRESETS["pbmserv"]


@pytest.fixture(scope="module")
def record() -> dict:
    return analyse_pair("231132", "132312", RULES, 1).to_json()


def test_a_record_round_trips(record):
    r = PairRecord.from_json(record)
    assert r.to_json() == record and json.loads(dumps(r.to_json())) == record
    assert (r.south, r.north, r.result, r.win_in, r.keys) == ("231132", "132312", "none",
                                                              None, ())
    assert r.params == AnalysisParams.of(RULES, 1) and r.position.turn.title == "South"
    assert repr(r) == "PairRecord(S 231132 N 132312, depth 1: none)"
    assert r.defence is not None and r.defence["replies"] > 0


@pytest.mark.parametrize("change, words", [
    pytest.param({"blunders": -1}, "whole numbers, 0 or more", id="count"),
    pytest.param({"result": "draw"}, "result is win, loss or none", id="result"),
    pytest.param({"win_in": 2}, "win_in is the length", id="win-in"),
    pytest.param({"defence": {"threat": "11-21"}}, "defence is null or", id="defence"),
    pytest.param({"north": "3211"}, "'3211' is not a setup", id="setup"),
    pytest.param({"depth": "2"}, "depth and format are whole numbers", id="depth"),
    pytest.param({"canonical": False}, "canonical is true when present", id="canonical"),
])
def test_a_bad_record_is_refused_alike_from_json_and_from_a_file(tmp_path, record, change,
                                                                  words):
    bad = {**record, **change}
    with pytest.raises(ValueError, match=words):
        PairRecord.from_json(bad)
    f = tmp_path / "r.jsonl"
    f.write_text(dumps(bad) + "\n")
    with pytest.raises(ResultsFileError, match=f"^{f}:1: not a setup analysis record \\(.*"
                                               f"{words}"):
        read_results(str(f))


def test_a_missing_key_is_named(record):
    for key in ("south", "rules", "keys"):
        with pytest.raises(KeyError, match=f"'{key}'"):
            PairRecord.from_json({k: v for k, v in record.items() if k != key})
    with pytest.raises(BatchError, match="not an object"):
        PairRecord.from_json([record])


def test_a_file_is_one_table(tmp_path, record):
    f = tmp_path / "r.jsonl"
    other = {**record, "north": "321123", "depth": 2}
    f.write_text(dumps(record) + "\n" + dumps(other) + "\n")
    with pytest.raises(ResultsFileError, match=f"^{f}:2: made with depth 2, rules .*, but the "
                                               "lines before with depth 1, rules "):
        read_results(str(f))
    f.write_text("not json\n")
    with pytest.raises(ResultsFileError, match=f"^{f}:1: not a setup analysis record"):
        read_results(str(f))
    f.write_text(dumps(record) + "\n" + dumps(record)[:30])   # a last line cut short
    assert read_results(str(f)) == (AnalysisParams.of(RULES, 1), [PairRecord.from_json(record)])
    assert read_results(str(tmp_path / "none.jsonl")) == (None, [])


def test_a_canonical_record_round_trips_and_stands_for_its_mirror(record):
    canonical = {**record, **AnalysisParams.of(RULES, 1, canonical=True).to_json()}
    r = PairRecord.from_json(canonical)
    assert r.params.canonical and r.to_json() == canonical and canonical["canonical"] is True
    plain = PairRecord.from_json(record)
    assert not plain.params.canonical and "canonical" not in record
    assert is_canonical([r]) and not is_canonical([plain]) and not is_canonical([])
    rows = with_mirrors([r])
    assert [x.pair for x in rows] == [("231132", "132312"), ("231132", "213231")]
    mirror_row = rows[1].to_json()
    assert mirror_row["keys"] == [] and mirror_row["defence"] is None
    assert {k: v for k, v in mirror_row.items() if k not in ("south", "north", "keys",
                                                              "defence")} == {
        k: v for k, v in canonical.items() if k not in ("south", "north", "keys", "defence")}
    assert with_mirrors([plain]) == [plain]    # a table of every pair: as it is
