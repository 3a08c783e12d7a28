"""The published games files name the engine that made them, and are that engine's games:
each is made by the engine of this checkout (the same code and weights; ``make data``
remakes them after a change to the engine), and a sample of its games, played again here,
is the same game for game."""

from __future__ import annotations

from pathlib import Path

import pytest

from gyges.engine.identity import EngineIdentity, code_digest, weights_digest
from gyges.game.rules import RuleSet
from gyges.setups.selfplay.games import ScheduledGame, is_games_file, play_task, read_games

DATA = Path(__file__).resolve().parents[1] / "data"
PUBLISHED = sorted(str(p) for p in DATA.rglob("*.jsonl") if is_games_file(str(p)))
SAMPLE = 8   # games played again from each file


def test_the_published_games_files_are_found():
    assert any(p.endswith("setups/pbmserv-selfplay.jsonl") for p in PUBLISHED)


def _rules(text: str) -> RuleSet:
    return RuleSet.from_json(dict(w.split("=", 1) for w in text.split()))


@pytest.mark.parametrize("path", PUBLISHED, ids=lambda p: Path(p).name)
def test_a_published_games_file_is_this_engines_and_replays(path):
    params, games = read_games(path)
    assert params is not None and games
    here = EngineIdentity(code_digest(), weights_digest())
    assert params["engine"] == here, (
        f"{path} was made by {params['engine']}, not by this checkout's engine ({here}): "
        "run `make data` to play it again and commit the files it writes")
    step = max(1, len(games) // SAMPLE)
    for record in games[::step][:SAMPLE]:
        item = ScheduledGame(record["game"], record["south"], record["north"],
                             record["round"])
        again = play_task(item, rules=_rules(params["rules"]), limit=params["limit"],
                          prove=params["prove"], max_plies=params["max_plies"],
                          canonical=params["canonical"])
        for r in (again, record):
            r["engine"] = {k: r["engine"][k] for k in ("code", "weights")}
        assert again == record, f"{path}: game {record['game']} is not played the same"
