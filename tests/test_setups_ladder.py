"""``setups ladder``: the words follow the numbers, on synthetic rungs whose truth is
known (South's score moved or not; the setups' order kept or reversed)."""

from __future__ import annotations

import json
import random

from click.testing import CliRunner

from gyges.setups.selfplay.ladder import Rung, ladder_report
from gyges_cli.main import cli

SOUTHS = ["112233", "112323", "121233", "121323", "122133", "122313", "123123", "123213",
          "123231", "123312"]
NORTHS = ["311223", "312123", "313122", "331122", "132123", "213123", "231123", "113223",
          "132213", "133122"]


def _games(seed: int, advantage: float, sign: float = 1.0, games: int = 4000) -> list[dict]:
    """Bradley-Terry games: setups 50 Elo apart (in reverse order when ``sign`` is -1),
    South's advantage ``advantage`` Elo."""
    rng = random.Random(seed)
    south = {s: sign * 50 * (i - 4.5) for i, s in enumerate(SOUTHS)}
    north = {n: sign * 50 * (i - 4.5) for i, n in enumerate(NORTHS)}
    out = []
    for k in range(games):
        s, n = rng.choice(SOUTHS), rng.choice(NORTHS)
        p = 1 / (1 + 10 ** (-(advantage + south[s] - north[n]) / 400))
        out.append({"game": k, "round": k % 3, "south": s, "north": n,
                    "result": "south" if rng.random() < p else "north", "moves": [],
                    "reason": "landing"})
    return out


def _text(*rungs: Rung) -> str:
    return " ".join(ladder_report(rungs).split())


def test_a_moving_advantage_and_a_kept_order():
    weak = Rung.of("weak", _games(1, -60))
    strong = Rung.of("strong", _games(2, +60))
    text = _text(weak, strong)
    assert "From weak to strong: South's score moves" in text
    assert text.count("the ranking holds as far as the games can tell") == 2
    same = Rung.of("again", _games(3, -60))
    assert "the games cannot tell South's score apart" in _text(weak, same)


def test_a_reversed_order_moves():
    text = _text(Rung.of("weak", _games(1, 0)), Rung.of("strong", _games(2, 0, sign=-1.0)))
    assert text.count("the ranking moves: the correlation is below") == 2


def test_noise_cannot_say_whether_the_ranking_holds():
    text = _text(Rung.of("a", _games(4, 0, sign=0.0, games=600)),
                 Rung.of("b", _games(5, 0, sign=0.0, games=600)))
    reliabilities = [Rung.of(n, _games(s, 0, sign=0.0, games=600)).reliability
                     for n, s in (("a", 4), ("b", 5))]
    low = any(v is None or v < 0.5 for r in reliabilities for v in r.values())
    assert low == ("so whether the ranking holds is not known" in text)


def test_the_command_refuses_rungs_that_differ_in_more_than_the_limit(tmp_path):
    base = {"canonical": False, "engine": {"code": "c", "weights": "w"}, "format": 1,
            "max_plies": 200, "prove": 2, "rules": "pbmserv"}
    files = []
    for name, limit, prove in (("a", 1000, 2), ("b", 10000, 2), ("c", 10000, 3)):
        path = tmp_path / f"{name}.jsonl"
        path.write_text("".join(json.dumps({**g, **base, "prove": prove,
                                            "limit": {"nodes": limit}}) + "\n"
                                for g in _games(1, 0, games=60)))
        files.append(str(path))
    ok = CliRunner().invoke(cli, ["setups", "ladder", files[0], files[1]])
    assert ok.exit_code == 0, ok.output
    assert "1,000 nodes a move: 60 games" in ok.output
    assert "From 1,000 nodes a move to 10,000 nodes a move" in ok.output
    bad = CliRunner().invoke(cli, ["setups", "ladder", files[0], files[2]])
    assert bad.exit_code == 2 and "in more than the limit (prove)" in bad.output
    one = CliRunner().invoke(cli, ["setups", "ladder", files[0]])
    assert one.exit_code == 2 and "at least two games files" in one.output


def test_the_study_report_gives_the_first_move_advantage_at_each_strength(tmp_path):
    """``setups report GAMES --ladder A --ladder B``: the study's report gives South's
    score at each rung and whether it moved; a ladder under other rules is refused."""
    base = {"canonical": False, "engine": {"code": "c", "weights": "w"}, "format": 1,
            "max_plies": 200, "prove": 2, "rules": "pbmserv"}

    def write(name: str, games: list[dict], **extra: object) -> str:
        path = tmp_path / f"{name}.jsonl"
        path.write_text("".join(json.dumps({**g, **base, **extra}) + "\n" for g in games))
        return str(path)

    study = write("study", _games(7, 0, games=300), limit={"nodes": 1000})
    weak = write("weak", _games(1, -80, games=2000), limit={"nodes": 1000})
    strong = write("strong", _games(2, +80, games=2000), limit={"nodes": 10000})
    ok = CliRunner().invoke(cli, ["setups", "report", study, "--ladder", weak,
                                  "--ladder", strong])
    assert ok.exit_code == 0, ok.output
    text = " ".join(ok.output.split())
    assert "by strength, in a strength ladder's games" in text
    assert "1,000 nodes a move: " in text and "in 2,000 games" in text
    assert ("From 1,000 nodes a move to 10,000 nodes a move: South's score moves (+"
            in text)
    same = write("same", _games(3, -80, games=2000), limit={"nodes": 10000})
    flat = CliRunner().invoke(cli, ["setups", "report", study, "--ladder", weak,
                                    "--ladder", same])
    assert "the games cannot tell South's score apart" in " ".join(flat.output.split())
    other = write("other", _games(2, 0, games=100), limit={"nodes": 10000},
                  rules="bga")
    bad = CliRunner().invoke(cli, ["setups", "report", study, "--ladder", weak,
                                   "--ladder", other])
    assert bad.exit_code == 2 and "made under other rules" in bad.output, bad.output
    assert "--ladder " in bad.output
    alone = CliRunner().invoke(cli, ["setups", "report", study, "--ladder", weak])
    assert alone.exit_code == 2 and "at least two games files" in alone.output
