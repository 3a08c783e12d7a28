"""``setups answer``: the words follow the numbers. Synthetic games with known setup
strengths, and evaluations that agree with them, contradict them or are noise."""

from __future__ import annotations

import random
import re

import pytest
from click.testing import CliRunner

from gyges.setups.answer import setup_answer
from gyges.setups.selfplay.table import game_table
from gyges_cli.main import cli

SOUTHS = ["112233", "112323", "121233", "121323", "122133", "122313", "123123", "123213"]
NORTHS = ["311223", "312123", "313122", "331122", "132123", "213123", "231123", "113223"]
# (no setup is its own mirror or another's: the evaluations fill in each pair's mirror)
PARAMS = {"limit": {"nodes": 1000}, "engine": "engine synthetic", "canonical": False}
EVAL_PARAMS = {"nodes": 200000, "engine": "engine synthetic"}


def _games(seed: int = 3, games: int = 6000) -> tuple[list[dict], dict, dict]:
    """Games drawn from a Bradley-Terry model with setups 60 Elo apart, in both sides."""
    rng = random.Random(seed)
    south = {s: 60 * (i - 3.5) for i, s in enumerate(SOUTHS)}
    north = {n: 60 * (i - 3.5) for i, n in enumerate(NORTHS)}
    out = []
    for k in range(games):
        s, n = rng.choice(SOUTHS), rng.choice(NORTHS)
        p = 1 / (1 + 10 ** (-(south[s] - north[n]) / 400))
        out.append({"game": k, "round": k % 2, "south": s, "north": n,
                    "result": "south" if rng.random() < p else "north", "moves": []})
    return out, south, north


def _answer(*args) -> str:
    """The answer with its lines joined (the words a sentence, wherever it wraps)."""
    return " ".join(setup_answer(*args).split())


def _evaluations(south: dict, north: dict, sign: float = 1.0, noise: bool = False
                 ) -> list[dict]:
    rng = random.Random(9)
    out = []
    for s in SOUTHS:
        for n in NORTHS:
            elo = sign * (south[s] - north[n])
            p = rng.random() if noise else 1 / (1 + 10 ** (-elo / 400))
            out.append({"south": s, "north": n, "south_win": p})
    return out


@pytest.fixture(scope="module")
def synthetic():
    games, south, north = _games()
    return games, game_table(games), south, north


def test_agreeing_evaluations_are_confirmed(synthetic):
    games, table, south, north = synthetic
    text = _answer(table, PARAMS, games, _evaluations(south, north), EVAL_PARAMS)
    assert text.count("): the games confirm the evaluations' order") == 2
    assert "predicts the result better than one rate for all" in text
    assert "the games rank them with split-half reliability" in text
    # together, the games and the evaluations pick the setups the games were drawn
    # strongest, and the evaluations' slope is the right way round
    assert "As South, choose by the evaluations and the games together" in text
    assert "together they make 123213 the best guess" in text
    assert "together they make 113223 the best guess" in text
    assert text.count("average in the evaluations predicts +") == 2


def test_reversed_evaluations_are_contradicted(synthetic):
    games, table, south, north = synthetic
    text = _answer(table, PARAMS, games, _evaluations(south, north, -1.0), EVAL_PARAMS)
    assert text.count("the games contradict the evaluations' order") == 2
    assert "choose by the evaluations" not in text
    assert text.count("but the games rank the setups in the opposite order, so the data "
                      "cannot tell which setup is best") == 2
    # what the choice is worth, by the evaluations: the best setup's average over the
    # side's mean, counted here from the records
    records = _evaluations(south, north, -1.0)
    for name, own, key, other in (("South", SOUTHS, "south", 1), ("North", NORTHS, "north", -1)):
        averages = {x: sum((r["south_win"] if other == 1 else 1 - r["south_win"])
                           for r in records if r[key] == x) / 8 for x in own}
        best = max(averages, key=averages.get)
        gain = 100 * (averages[best] - sum(averages.values()) / 8)
        assert (f"by the evaluations {best} is worth {gain:.1f} points of win probability "
                f"over {name}'s average setup") in text




@pytest.mark.parametrize(("r", "p", "verdict", "smaller", "choose", "words"), [
    (0.5, 0.01, None, False, True, "the games confirm the evaluations' order;"),
    (0.0, 0.8, "confirm", False, True,
     "the validation block confirms that their best setups beat their worst;"),
    (0.5, 0.01, "cannot tell", True, True,
     "the games confirm the evaluations' order; the validation block cannot tell their "
     "best from their worst and finds their best and worst setups closer than they "
     "predict;"),
    (0.5, 0.01, "contradict", False, False,
     "but the validation block finds their worst setups beating their best, though the "
     "games confirm the evaluations' order, so the data cannot tell"),
    (-0.5, 0.01, None, False, False, "but the games rank the setups in the opposite order"),
    (0.1, 0.4, "cannot tell", True, False,
     "but the games do not confirm their order yet, and the validation block finds their "
     "best and worst setups closer than they predict, so the data cannot tell"),
])
def test_the_short_answer_weighs_every_test_of_the_games(r, p, verdict, smaller, choose,
                                                          words):
    """Choose by the evaluations only where a test of the games confirms them and none
    contradicts them; say what each test found, and what the choice is worth."""
    from gyges.game.rules import Side
    from gyges.setups.answer import Agreement, _short_answer

    values = {"123123": 0.60, "112233": 0.50, "321321": 0.49, "231231": 0.45}
    together = ("321321", 12.0, -3.0, 27.0)
    text = " ".join(_short_answer("South", values, 0.055, Agreement(Side.SOUTH, 4, r, p, 0.9),
                                  verdict, smaller, together).split())
    assert text.startswith("As South, choose by the evaluations and the games together: "
                           if choose else "As South, the evaluations favour 123123, but")
    assert words in text, text
    if choose:     # the pick of both together, its interval, what the evaluations alone say
        assert text.endswith(
            "together they make 321321 the best guess, +12 Elo over South's average setup "
            "(95% interval -3 to +27, which holds the average setup; the evaluations alone "
            "favour 123123); one standard deviation of setup choice is worth 5.5 points of "
            "win probability by the evaluations.")
    else:
        assert text.endswith(
            "by the evaluations 123123 is worth 9.0 points of win probability over South's "
            "average setup, and one standard deviation of setup choice 5.5 points.")


def test_noise_is_neither_confirmed_nor_refuted(synthetic):
    games, table, south, north = synthetic
    text = _answer(table, PARAMS, games, _evaluations(south, north, noise=True),
                        EVAL_PARAMS)
    assert "confirm the evaluations' order" not in text.replace("neither confirm", "")
    assert "predicts the result no better than one rate for all" in text


def test_the_words_follow_the_reliability():
    """With every setup equal, the split-half reliability of 8 setups is noise (about 0 on
    average, above 0.5 now and then): whatever it is, the sentence says "cannot rank"
    exactly when it is below 0.5."""
    said = set()
    for seed in range(4, 10):
        rng = random.Random(seed)
        games = [{"game": k, "round": 0, "south": rng.choice(SOUTHS),
                  "north": rng.choice(NORTHS), "result": rng.choice(["south", "north"]),
                  "moves": []} for k in range(800)]
        text = _answer(game_table(games), PARAMS, games,
                       _evaluations({s: 0 for s in SOUTHS}, {n: 0 for n in NORTHS},
                                    noise=True), EVAL_PARAMS)
        for name in ("South", "North"):
            m = re.search(name + r"'s setups differ by a true spread of [^.]*?(cannot rank "
                          r"them|rank them)[^.]*?reliability (-?[0-9.]+)", text)
            assert m is not None, text
            cannot, r = m[1] == "cannot rank them", float(m[2].rstrip("."))
            assert cannot == (r < 0.5)
            said.add(cannot)
    assert said == {True, False}        # both cases met


def test_the_command_refuses_what_is_not_its_files(tmp_path):
    games = tmp_path / "g.jsonl"
    games.write_text("not json\n")
    r = CliRunner().invoke(cli, ["setups", "answer", str(tmp_path / "none.jsonl"),
                                 "--evaluations", str(games)])
    assert r.exit_code == 2 and "no such 'setups rank' games file" in r.output
    r = CliRunner().invoke(cli, ["setups", "answer", str(games), "--evaluations", str(games)])
    assert r.exit_code == 2 and "is not a 'setups rank' games file" in r.output


def test_a_first_move_the_games_contradict_is_said(synthetic):
    """Evaluations that give South 20 points more than the games' score, outside its
    interval: the answer says the two disagree; agreeing ones draw no such sentence."""
    games, table, south, north = synthetic
    agreeing = _evaluations(south, north)
    assert "disagree on the first move" not in _answer(table, PARAMS, games, agreeing,
                                                       EVAL_PARAMS)
    shifted = [{**r, "south_win": min(1.0, r["south_win"] + 0.2)} for r in agreeing]
    text = _answer(table, PARAMS, games, shifted, EVAL_PARAMS)
    assert "the evaluations and the games disagree on the first move itself" in text


def test_a_confirming_validation_block_decides(synthetic):
    """With the games of a validation block that bear the evaluations out, the short
    answer says to choose by them; with coin flips, only where the block says so."""
    from test_setups_validation import _games as block_games
    from test_setups_validation import _table

    from gyges.setups.validation import validation_pairs

    games, table, _, _ = synthetic
    full, _ = _table()
    records = [{"south": s, "north": n, "south_win": p} for (s, n), p in
               full.south_win.items()]
    pairs = validation_pairs(full)
    text = _answer(table, PARAMS, games, records, EVAL_PARAMS, 3,
                   block_games(full, pairs, 1.0))
    assert text.count("the validation block confirms that their best setups beat") == 2
    # coin flips: the short answer follows each side's block verdict, whatever chance made
    flips = _answer(table, PARAMS, games, records, EVAL_PARAMS, 3,
                    block_games(full, pairs, 0.0))
    assert (flips.count("the validation block confirms")
            == flips.count("the games confirm the evaluations' best and worst"))
    # ... and, where it cannot tell which setup is best, says whether the block finds the
    # best and worst closer than predicted
    closer = "the validation block finds their best and worst setups closer than they predict"
    assert 1 <= flips.count(closer) <= flips.count("the gap is smaller than the evaluations "
                                                   "predict"), flips
    assert closer not in text


def test_the_openings_advantage_is_said_to_differ_only_when_it_does(synthetic):
    games, table, south, north = synthetic
    evaluations = _evaluations(south, north)
    same = _answer(table, PARAMS, games, evaluations, EVAL_PARAMS)
    assert "the games cannot tell the two openings' advantages apart" in same
    rng = random.Random(11)
    skewed = [{**g, "result": "south" if g["round"] == 0 and rng.random() < 0.7
               else g["result"]} for g in games]
    text = _answer(game_table(skewed), PARAMS, skewed, evaluations, EVAL_PARAMS)
    assert "so the first-move advantage depends on how the game is opened" in text


def _rung(name: str, seed: int, advantage: float, games: int = 3000):
    """A ladder rung: games of the synthetic pairs with South's advantage ``advantage``
    Elo (setups all equal)."""
    from gyges.setups.selfplay.ladder import Rung

    rng = random.Random(seed)
    p = 1 / (1 + 10 ** (-advantage / 400))
    return Rung.of(name, [{"game": k, "round": k % 2, "south": rng.choice(SOUTHS),
                           "north": rng.choice(NORTHS), "moves": [],
                           "result": "south" if rng.random() < p else "north"}
                          for k in range(games)])


@pytest.mark.parametrize(("weak", "strong", "words"), [
    (0, 120, ["South's score rises with strength, toward the evaluations",
              "the games still give South less than they do"]),
    (120, 0, ["South's score falls with strength, away from the evaluations"]),
    (200, 200, ["the ladder cannot tell whether South's score moves with strength",
                "the games agree with them"]),
])
def test_the_first_move_at_each_strength_is_set_beside_the_evaluations(
        synthetic, weak, strong, words):
    """The evaluations give every pair 75% (South +191 Elo): a ladder whose South score
    climbs from 50% to 67% moves toward them and stays below; one that falls moves away;
    two rungs at 76% cannot tell a move and agree with them."""
    games, table, _, _ = synthetic
    evaluations = [{"south": s, "north": n, "south_win": 0.75} for s in SOUTHS
                   for n in NORTHS]
    ladder = [_rung("1,000 nodes a move", 1, weak), _rung("10,000 nodes a move", 2, strong)]
    text = " ".join(setup_answer(table, PARAMS, games, evaluations, EVAL_PARAMS,
                                 ladder=ladder).split())
    assert "On the strength ladder's 64 pairs" in text
    assert "where the evaluations give those pairs 75.0%:" in text
    for w in words:
        assert w in text, text
    assert "On the strength ladder" not in " ".join(setup_answer(
        table, PARAMS, games, evaluations, EVAL_PARAMS).split())
