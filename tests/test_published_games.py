"""The published games files name the engine that made them, and are this checkout's
games: each names an evaluation this checkout has (its weights' digest: the default one,
or the linear one, which stays selectable; ``tests/published.py``), and a sample of its
games, played again here with it, is the same game for game. The code's digest is
recorded beside for people: a change to the code that changes no move leaves the files
valid, one that changes a game fails here (``make data`` remakes them, in the same
change)."""

from __future__ import annotations

from pathlib import Path

import pytest

from gyges.engine.identity import code_digest
from gyges.game.rules import RuleSet
from gyges.setups.selfplay.games import ScheduledGame, is_games_file, play_task, read_selfplay_games
from tests.published import evaluation_named

DATA = Path(__file__).resolve().parents[1] / "data"
PUBLISHED = sorted(str(p) for p in DATA.rglob("*.jsonl") if is_games_file(str(p)))
SAMPLE = 8   # games played again from each file


def test_the_published_games_files_are_found():
    assert any(p.endswith("setups/pbmserv-selfplay.jsonl") for p in PUBLISHED)


def _rules(text: str) -> RuleSet:
    return RuleSet.from_json(dict(w.split("=", 1) for w in text.split()))


@pytest.mark.parametrize("path", PUBLISHED, ids=lambda p: Path(p).name)
def test_a_published_games_file_is_this_engines_and_replays(path):
    params, games = read_selfplay_games(path)
    assert params is not None and games
    made_by = params["engine"]
    network = evaluation_named(made_by, path)
    step = max(1, len(games) // SAMPLE)
    for record in games[::step][:SAMPLE]:
        item = ScheduledGame(record["game"], record["south"], record["north"],
                             record["round"])
        again = play_task(item, rules=_rules(params["rules"]), limit=params["limit"],
                          prove=params["prove"], max_plies=params["max_plies"],
                          canonical=params["canonical"], network=network)
        for r in (again, record):
            r["engine"] = r["engine"]["weights"]
        assert again == record, (
            f"{path}: game {record['game']} is not played the same by this checkout "
            f"(engine {code_digest()}; the file's: {made_by}): run `make data`")
