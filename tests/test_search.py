"""The forced-win solver: seed 000's examples, cooks, duals, losses, bounds, blocked sides,
the Renop law, the unstoppable variant, and a cross-check against a brute-force minimax
written here (no transposition table, no cheap landing test, no move ordering)."""

from __future__ import annotations

import functools
import random
from collections import Counter

import pytest

from gyges.formats.notation import parse_move
from gyges.game import _movegen
from gyges.game.moves import apply_move, can_land, legal_moves
from gyges.game.position import Position
from gyges.game.rules import PRESETS, RuleSet, Side, rules_from
from gyges.search import SolveError, _search, solve, win_in

PBM = PRESETS["pbmserv"]
BOUNCING = "....../3...../..1.1./1.23.3/3.22.1/....2. N"
TABOO = "....../1...../3.23../3.211./2.132./...... N"
CHAIN = ".3.3.3/112232/...1.2/...1../....../...... S"            # seed 000, corrected
CHAIN_AS_PRINTED = ".3.3.3/112232/...1../...1.2/....../...... S"
SAMPLE_12 = "..1.../..23../..3.../..3113/2..2../2..1.. S"          # after North's 12th move
LOSES_IN_1 = "..3.../....../.3..../.....1/..3.../.....3 S"         # found by random search


def pos(text: str) -> Position:
    return Position.from_string(text)


# -- the brute-force reference -----------------------------------------------------------


def _after(board: bytes, start: int, to: int, reloc: int | None) -> bytes:
    b = bytearray(board)
    ring = b[start]
    b[start] = 0
    if reloc is not None:
        b[reloc] = b[to]
    b[to] = ring
    return bytes(b)


def brute_win(board: bytes, side: int, winner: int, d: int, flags: int,
              history: tuple[bytes, ...] = (), plies: int = 0) -> bool:
    """Plain minimax straight from the definition: can ``winner`` land within ``d`` of its
    own moves? Every move of every node is generated and tried."""
    if d <= 0 or plies > 2 * d + 24:
        return False
    mover, moves = _movegen.generate(board, side, flags, list(history), False)
    if not moves:
        return False                                   # nobody can move: drawn
    wins = any(to >= 36 for _, to, _, _, _ in moves)
    hist = (*history, board)
    if mover == winner:
        if wins:
            return True
        return d > 1 and any(
            brute_win(_after(board, s, t, r), 1 - winner, winner, d - 1, flags, hist, plies + 1)
            for s, t, r, _, _ in moves)
    if wins:
        return False
    return all(brute_win(_after(board, s, t, r), winner, winner, d, flags, hist, plies + 1)
               for s, t, r, _, _ in moves)


def brute_result(p: Position, rules: RuleSet, n: int, history=()) -> tuple[str, int | None]:
    hist = tuple(h.key for h in history)
    me = p.turn.index
    for d in range(1, n + 1):
        if brute_win(p.key, me, me, d, rules.flags(), hist):
            return "win", d
        if brute_win(p.key, me, 1 - me, d, rules.flags(), hist):
            return "loss", d
    return "none", None


def random_position(rng: random.Random, rules: RuleSet) -> Position:
    """A few random moves from random setups, or a sparse random placement."""
    if rng.random() < 0.5:
        digits = list("112233")
        rng.shuffle(digits)
        south = "".join(digits)
        rng.shuffle(digits)
        p = Position.setup(south, "".join(digits))
        for _ in range(rng.randint(2, 14)):
            ml = legal_moves(p, rules)
            plain = [m for m in ml if not m.is_win]
            if not plain:
                break
            p = apply_move(p, rng.choice(plain))
        return p
    while True:
        board = [0] * 36
        for s in rng.sample(range(36), rng.randint(3, 8)):
            board[s] = rng.choice((1, 2, 3))
        if max(Counter(x for x in board if x).values()) <= 4:
            return Position(tuple(board), rng.choice((Side.SOUTH, Side.NORTH)))


# -- seed 000 examples ---------------------------------------------------------------------


def test_bouncing_north_wins_in_1():
    s = solve(pos(BOUNCING), PBM)
    assert (s.result, s.moves) == ("win", 1)
    assert [str(k) for k in s.keys] == ["51-43-33-31-21-S"]
    assert s.main_line_turns() == ["51-43-33-31-21-S"]


def test_bouncing_south_to_move_wards_off_the_threat():
    p = pos(BOUNCING).with_turn(Side.SOUTH)
    defence = parse_move("15-26-36-66", p, PBM)
    after = apply_move(p, defence)
    assert not can_land(after, PBM, [p])           # North cannot land any more
    assert not win_in(after, PBM, 1, [p])
    # What the engine proves for South to move: neither side forces a win within 3.
    s = solve(p, PBM, 3)
    assert (s.result, s.moves, s.keys) == ("none", None, ())
    assert brute_result(p, PBM, 2) == ("none", None)


def test_taboo_example():
    p = pos(TABOO)
    # pbmserv (taboo=connection): 51-41-31-21-S would use 31-32 twice; no North win in 1 ...
    assert not win_in(p, PBM, 1)
    s = solve(p, PBM, 2)
    assert (s.result, s.moves) == ("loss", 2)    # ... South wins in 2 whatever North does
    assert brute_result(p, PBM, 2) == ("loss", 2)
    # dorbec (taboo=entry): the same path is legal, North wins in 1.
    d = solve(p, PRESETS["dorbec"], 1)
    assert (d.result, d.moves, [str(k) for k in d.keys]) == ("win", 1, ["51-41-31-21-S"])
    south = solve(p.with_turn(Side.SOUTH), PBM, 1)
    assert (south.result, south.moves) == ("win", 1)
    assert [str(k) for k in south.keys] == ["24-25-34-44-N"]


def test_stalemate_chain_corrected():
    p = pos(CHAIN)
    s = solve(p, PBM, 3)
    assert (s.result, s.moves) == ("win", 2)
    assert brute_result(p, PBM, 2) == ("win", 2)
    # 34-44-43 leaves the board of the replace 34x44=43 (same-size replace = plain move);
    # the engine writes it as the plain move, as the seed does. It is one of the keys (a
    # cook: 15 keys).
    seed_move = parse_move("34-44-43", p, PBM)
    after = apply_move(p, seed_move)
    keys = {apply_move(p, k).board: k for k in s.keys}
    assert after.board in keys and s.cook and len(s.keys) == 15
    # After it North is blocked and South plays on: 43-53-N, joined with "; ".
    rest = solve(after, PBM, 1, [p])
    assert (rest.result, rest.moves) == ("loss", 1)
    assert rest.tree.to_json()["passed"] is True
    assert "43-53-N" in rest.tree.to_json()["reply"]["moves"]  # with duals: 44-43-53-N, ...
    assert s.main_line_turns()[0].count("; ") == 1
    assert any(t.startswith("34-44-43; ") for t in _all_key_lines(s))


def test_stalemate_chain_is_never_cut():
    """Asked whether North wins (the opponent's question), the search meets lines where
    South keeps North blocked move after move; other lines decide the answer (South lands
    or lets North move), so nothing may be reported as cut, under any blocked=pass preset
    and with repetitions allowed (where a cycle of passes is South holding)."""
    p = pos(CHAIN)
    for rules in (*PRESETS.values(), rules_from("pbmserv", ["repetition=allowed"])):
        s = solve(p, rules, 3, tries=True)
        assert not s.stats.truncated and "cut" not in s.text()
        if rules.blocked == "pass":
            assert (s.result, s.moves) == ("win", 2)
        for d in (1, 2, 3):
            searcher = _search.Searcher(rules.flags(), 16)
            assert not searcher.win(p.key, p.turn.index, 1 - p.turn.index, d)
            assert not searcher.truncated, (rules.options(), d)


def _all_key_lines(s) -> list[str]:
    out = []
    for k in s.keys:
        sub = solve(apply_move(s.position, k), s.rules, s.moves, [s.position])
        passed = sub.tree.to_json().get("passed")
        out.append(f"{k}; {sub.main_line_turns()[0]}" if passed else str(k))
    return out


def test_stalemate_chain_as_printed():
    # As printed (rows 3 and 4 swapped) South still wins in 2, but not by 34-44-43.
    p = pos(CHAIN_AS_PRINTED)
    s = solve(p, PBM, 3)
    assert (s.result, s.moves) == ("win", 2)
    assert brute_result(p, PBM, 2) == ("win", 2)
    seed_move = apply_move(p, parse_move("34-44-43", p, PBM))
    assert seed_move.board not in {apply_move(p, k).board for k in s.keys}


def test_sample_game_after_move_12():
    # South resigned here; the engine proves South wins in 2 (unique key).
    p = pos(SAMPLE_12)
    s = solve(p, PBM, 3)
    assert (s.result, s.moves) == ("win", 2)
    assert [str(k) for k in s.keys] == ["14-24-33x43=12"]
    assert brute_result(p, PBM, 2) == ("win", 2)
    # no threat: every move of North concedes
    assert s.tree.to_json()["after"]["threat"] is None
    defences = s.tree.to_json()["after"]["defences"]
    assert len(defences) == len(legal_moves(apply_move(p, s.keys[0]), PBM, [p]))
    assert all(d["reply"]["moves_left"] == 1 for d in defences)


def test_sample_game_with_history_renop():
    # The key's resulting board in the history makes it illegal (Renop law).
    p = pos(SAMPLE_12)
    key_after = apply_move(p, parse_move("14-24-33x43=12", p, PBM))
    s = solve(p, PBM, 2, [key_after])
    assert s.result == "none"
    assert brute_result(p, PBM, 2, [key_after]) == ("none", None)
    # Without the Renop law the key is legal again.
    assert solve(p, rules_from("pbmserv", ["repetition=allowed"]), 2, [key_after]).moves == 2


def test_transposition_table_respects_history():
    """The graph-history-interaction trap: one table, the same board, different histories."""
    p = pos(SAMPLE_12)
    key_after = apply_move(p, parse_move("14-24-33x43=12", p, PBM))
    s = _search.Searcher(PBM.flags(), 16)
    assert s.win(p.key, 0, 0, 2)
    assert not s.win(p.key, 0, 0, 2, [key_after.key])
    assert s.win(p.key, 0, 0, 2)
    assert not s.win(p.key, 0, 0, 2, [key_after.key])


# -- cooks, duals, losses, bounds, blocked sides ----------------------------------------------


def test_cook_and_dual_marks():
    s = solve(pos(CHAIN), PBM, 2)
    assert s.cook and s.to_json()["cook"] is True
    assert s.tree.to_json()["dual"] is True and len(s.tree.to_json()["moves"]) == len(s.keys)
    loss = solve(pos(TABOO), PBM, 2)
    assert any(d["reply"]["dual"] for d in loss.tree.to_json()["defences"])
    text = loss.text()
    assert "[dual]" in text and "North to move loses in 2" in text


def test_a_generator_skips_a_cooked_positions_tree_and_tries():
    kw = dict(max_keys=2, tries=True, try_refutations=1, extras_if_cooked=False)
    cooked = solve(pos(CHAIN), PBM, 2, **kw)
    assert len(cooked.keys) == 2 and cooked.tree is None and cooked.tries == ()
    assert cooked.stats.proof_nodes == cooked.stats.nodes
    p = pos("321.../.1..../2..1../2...3./..2.../33...1 S")     # 5 single-refutation tries
    unique = solve(p, PBM, 2, **kw)
    assert len(unique.keys) == 1 and unique.tree is not None and len(unique.tries) == 5
    bare = solve(p, PBM, 2, max_keys=2, tree=False)
    # the proof's own nodes (the rating's) are those of a solve without tree or tries
    assert unique.stats.proof_nodes == bare.stats.nodes < unique.stats.nodes
    # asked after the cook search (its table known), the same tries as asked alone
    assert unique.tries == solve(p, PBM, 2, tries=True, try_refutations=1).tries


def test_loss_tree_covers_every_move():
    p = pos(TABOO)
    s = solve(p, PBM, 2)
    assert s.keys == ()
    assert {d["move"] for d in s.tree.to_json()["defences"]} == {
        str(m) for m in legal_moves(p, PBM)}


def test_none_within_bound_is_proven():
    p = pos(BOUNCING).with_turn(Side.SOUTH)
    s = solve(p, PBM, 2)
    assert s.result == "none" and not s.stats.truncated
    assert "no forced win for either side within 2" in s.text()


def test_blocked_draw_and_next_row_change_the_chain():
    p = pos(CHAIN)
    for rule in ("blocked=draw", "blocked=next-row"):
        rules = rules_from("pbmserv", [rule])
        s = solve(p, rules, 2)
        assert s.result == "none"
        assert brute_result(p, rules, 2) == ("none", None)


def test_loses_in_1():
    p = pos(LOSES_IN_1)
    s = solve(p, PBM, 2)
    assert (s.result, s.moves) == ("loss", 1)
    assert brute_result(p, PBM, 1) == ("loss", 1)


# -- the unstoppable variant --------------------------------------------------------------------


def test_unstoppable_win_in_1():
    rules = rules_from("pbmserv", ["win=unstoppable"])
    p = pos(LOSES_IN_1)
    for m in legal_moves(p, rules):
        q = apply_move(p, m)
        alone = solve(q, rules, 1, [p])
        assert (alone.result, alone.moves, alone.stoppable) == ("win", 1, True)
        assert "stoppable" in alone.text()
        proven = solve(q, rules, 1, [p], previous=p)
        assert proven.stoppable is False
    # The bouncing example: South could have played 15-26-36-66, so a landing is stoppable.
    b = pos(BOUNCING).with_turn(Side.SOUTH)
    for m in legal_moves(b, rules):
        q = apply_move(b, m)
        if can_land(q, rules, [b]):
            assert solve(q, rules, 1, [b], previous=b).stoppable is True
            break
    # Not one move before: an error.
    with pytest.raises(SolveError):
        solve(pos(BOUNCING), rules, 1, previous=p)
    # Other rules: no stoppable flag.
    assert solve(pos(BOUNCING), PBM, 1).stoppable is None


# -- JSON, API --------------------------------------------------------------------------------


def test_json_shape():
    j = solve(pos(SAMPLE_12), PBM, 2).to_json()
    assert j["result"] == "win" and j["moves"] == 2 and j["keys"] == ["14-24-33x43=12"]
    assert j["tree"]["role"] == "winner" and j["stats"]["nodes"] > 0
    assert set(j) >= {"result", "moves", "keys", "tree", "tries", "stats"}


def test_tries():
    s = solve(pos(SAMPLE_12), PBM, 2, tries=True)
    assert s.tries and [len(t.refutations) for t in s.tries] == sorted(
        len(t.refutations) for t in s.tries)
    for t in s.tries:
        after = apply_move(s.position, t.move)
        assert 1 <= len(t.refutations) <= 3
        for r in t.refutations:            # each refutation leaves South no landing
            again = apply_move(after, r)
            assert not win_in(again, PBM, 1, [s.position, after])
        assert t.move not in s.keys


@functools.cache
def _refutations_by_hand(text: str, k: int) -> tuple[tuple[int, str, tuple[str, ...]], ...]:
    """Every first move that could be a try, with every refutation, by fresh yes/no
    searches (a move after which the opponent lands at once or is blocked is none)."""
    p = pos(text)
    found = []
    for i, m in enumerate(legal_moves(p, PBM)):
        after = apply_move(p, m)
        replies = legal_moves(after, PBM, [p])
        if m.is_win or not replies.moves or replies.mover is p.turn or replies.wins:
            continue
        refs = tuple(str(r) for r in replies
                     if not win_in(apply_move(after, r), PBM, k - 1, [p, after]))
        found.append((i, str(m), refs))
    return tuple(found)


def _tries_by_hand(text: str, k: int, count: int, most: int) -> list[tuple[str, list[str]]]:
    """The definition: at most ``most`` refutations (one or more), fewest first, then in
    move order, ``count`` of them."""
    scored = sorted((len(refs), i, m, list(refs))
                    for i, m, refs in _refutations_by_hand(text, k) if 1 <= len(refs) <= most)
    return [(m, refs) for _, _, m, refs in scored[:count]]


@pytest.mark.parametrize("count,most", [(8, 3), (7, 3), (2, 3), (3, 1), (1, 2), (40, 2)])
@pytest.mark.parametrize("text", [
    SAMPLE_12,                                              # 5 tries, of 2 and 3
    "321.../.1..../2..1../2...3./..2.../33...1 S",          # 26: 5 of 1, 9 of 2, 12 of 3
    "22233./....3./....../2...11/3...../..11.. N",          # 22: 4 of 1, 15 of 2, 3 of 3
])
@pytest.mark.parametrize("prover", ["alphabeta", "dfpn"])
def test_tries_are_those_of_the_definition(text, count, most, prover):
    # the search stops asking a move's defences once it cannot enter the list; df-pn asks
    # "another refutation?" of the whole reply list, the kernel each reply in turn
    s = solve(pos(text), PBM, 2, tree=False, tries=True, try_count=count,
              try_refutations=most, prover=prover)
    found = [(str(t.move), [str(r) for r in t.refutations]) for t in s.tries]
    assert found == _tries_by_hand(text, 2, count, most)


def test_bad_bounds():
    with pytest.raises(SolveError):
        solve(pos(BOUNCING), PBM, 0)
    with pytest.raises(SolveError):
        solve(pos(BOUNCING), PBM, 2, jobs=0)
    with pytest.raises(SolveError, match="one refutation"):
        solve(pos(BOUNCING), PBM, 2, tries=True, try_refutations=0)


def test_jobs_agree():
    for text in (SAMPLE_12, CHAIN, TABOO):
        a = solve(pos(text), PBM, 2, tree=False)
        b = solve(pos(text), PBM, 2, tree=False, jobs=2)
        assert (a.result, a.moves, a.keys) == (b.result, b.moves, b.keys)


# -- cross-check against the brute force ----------------------------------------------------


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_random_positions_agree_with_brute_force(preset):
    rules = PRESETS[preset]
    rng = random.Random(f"search-{preset}")
    searcher = _search.Searcher(rules.flags(), 16)   # one table for all: stale entries would show
    checked = 0
    while checked < 40:
        p = random_position(rng, rules)
        me = p.turn.index
        for winner in (me, 1 - me):
            for d in (1, 2):
                expect = brute_win(p.key, me, winner, d, rules.flags())
                assert searcher.win(p.key, me, winner, d) == expect, (str(p), winner, d)
        checked += 1


def test_random_positions_with_history_agree():
    """Renop: random earlier boards close to the position (a move or two away)."""
    rng = random.Random("renop")
    searcher = _search.Searcher(PBM.flags(), 16)
    checked = 0
    while checked < 30:
        p = random_position(rng, PBM)
        ml = legal_moves(p, PBM)
        plain = [m for m in ml if not m.is_win and m.side is p.turn]
        if len(plain) < 2:
            continue
        # boards one and two moves away, as if the game had passed through them
        hist = [apply_move(p, m) for m in rng.sample(plain, 2)]
        second = legal_moves(hist[0], PBM, [p])
        hist += [apply_move(hist[0], m) for m in list(second)[:3] if not m.is_win]
        keys = tuple(h.key for h in hist)
        me = p.turn.index
        for winner in (me, 1 - me):
            for d in (1, 2):
                expect = brute_win(p.key, me, winner, d, PBM.flags(), keys)
                assert searcher.win(p.key, me, winner, d, list(keys)) == expect
                assert searcher.win(p.key, me, winner, d) == brute_win(
                    p.key, me, winner, d, PBM.flags())
        checked += 1


def _agrees_with_brute_force(rules: RuleSet, seed: str, d: int, count: int, max_rings: int):
    """The kernel and the brute force give the same "win within d?" for both sides as
    winner, on ``count`` random positions with at most ``max_rings`` rings."""
    rng = random.Random(seed)
    searcher = _search.Searcher(rules.flags(), 18)
    checked = 0
    while checked < count:
        p = random_position(rng, rules)
        if sum(1 for x in p.board if x) > max_rings:
            continue
        me = p.turn.index
        for winner in (me, 1 - me):
            expect = brute_win(p.key, me, winner, d, rules.flags())
            assert searcher.win(p.key, me, winner, d) == expect, (str(p), winner)
        checked += 1


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_random_positions_win_in_3_agree_with_brute_force(preset):
    _agrees_with_brute_force(PRESETS[preset], f"deep-{preset}", 3, 12, 7)


@pytest.mark.slow
def test_random_positions_win_in_4_agree_with_brute_force():
    """Four moves: the orderings used only with 4+ moves left (quiet moves by the loser's
    replies) are exercised too."""
    for preset in ("pbmserv", "bga"):
        _agrees_with_brute_force(PRESETS[preset], f"deeper-{preset}", 4, 6, 5)


# -- duals bound and progress notes ---------------------------------------------------------


def _winner_nodes(node):
    """Every winner node of a solution tree (the root included)."""
    if isinstance(node, dict):
        if node.get("role") == "winner":
            yield node
        for value in node.values():
            yield from _winner_nodes(value)
    elif isinstance(node, list):
        for value in node:
            yield from _winner_nodes(value)


def _line_positions(root: Position, tree: dict):
    """(winner node, position) pairs, replaying the tree's moves from ``root``."""
    out = []

    def walk(node, position):
        if node.get("role") == "winner":
            out.append((node, position))
            if node.get("passed"):
                if "then" in node:
                    walk(node["then"], position.with_turn(position.turn.other))
                return
            if "after" in node:
                key = parse_move(node["moves"][0], position, PBM)
                walk(node["after"], apply_move(position, key))
            return
        if node.get("passed"):
            walk(node["reply"], position.with_turn(position.turn.other))
            return
        for d in node["defences"]:
            if "reply" in d:
                walk(d["reply"], apply_move(position, parse_move(d["move"], position, PBM)))

    walk(tree, root)
    return out


def test_duals_are_searched_up_to_the_bound_and_marked_unknown_above():
    """With duals=2 every winner node with 2 moves left lists all its winning moves
    (checked move by move); with duals=1 those nodes say "not searched" (dual: None)."""
    p = pos(".2..1./1.1.../....3./...2.2/3.23../....13 S")     # wins in 3 under pbmserv
    full = solve(p, PBM, 3, duals=2)
    cut = solve(p, PBM, 3, duals=1)
    assert full.result == cut.result == "win" and full.moves == 3
    inner = [(n, q) for n, q in _line_positions(p, full.tree.to_json())[1:]
             if n["moves_left"] == 2]
    assert inner
    for node, q in inner:
        expected = []
        for m in legal_moves(q, PBM):
            child = apply_move(q, m)
            if not can_land(child, PBM) and solve(child, PBM, 1, tree=False).result == "loss":
                expected.append(str(m))
        assert sorted(node["moves"]) == sorted(expected)
        assert node["dual"] is (len(expected) > 1)
    assert sum(node["dual"] for node, _ in inner) > 1          # the position has duals
    assert all(n["dual"] is None for n in _winner_nodes(cut.tree.to_json())
               if n["moves_left"] == 2)


def test_rust_engine_position_is_a_win_in_6_and_not_in_5():
    """The benchmark position (a published Rust engine's win at ply 11), under
    that engine's options: proven by iterative deepening, and its key checked alone. This
    is the one test that reaches the kernel's deep-node ordering (6 moves left)."""
    rules = rules_from("pbmserv", ["rebounce=once", "null-move=allowed", "blocked=draw",
                                   "repetition=allowed"])
    p = pos("030100/000200/002000/021100/300300/002130 S")
    searcher = _search.Searcher(rules.flags(), 20)
    assert [searcher.win(p.key, 0, 0, k) for k in range(1, 7)] == [False] * 5 + [True]
    key = apply_move(p, parse_move("14-24x21=44", p, rules))
    assert _search.Searcher(rules.flags(), 20).win(key.key, 1, 0, 5, [p.key])


def test_a_signal_stops_the_kernel_at_once_and_leaves_its_table_sound():
    """Ctrl-C during a long kernel call: the call ends within a fraction of a second with
    the handler's exception, and the same searcher (its table kept) still proves the
    right answers afterwards (nothing half-searched was stored)."""
    import signal
    import time

    rules = rules_from("pbmserv", ["rebounce=once", "null-move=allowed", "blocked=draw",
                                   "repetition=allowed"])
    p = pos("030100/000200/002000/021100/300300/002130 S")
    searcher = _search.Searcher(rules.flags(), 20)

    class Stop(Exception):
        pass

    def handler(signum, frame):
        raise Stop

    old = signal.signal(signal.SIGALRM, handler)
    try:
        signal.setitimer(signal.ITIMER_REAL, 0.3)
        start = time.process_time()      # this process's CPU: the machine's load aside
        with pytest.raises(Stop):
            searcher.win(p.key, 0, 0, 6)           # about 3 s uninterrupted
        assert time.process_time() - start < 1.5
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
    assert not searcher.truncated
    assert [searcher.win(p.key, 0, 0, k) for k in range(1, 7)] == [False] * 5 + [True]


def test_max_keys_stops_the_cook_search_with_keys_of_the_full_list():
    p = pos(CHAIN)
    full = solve(p, PBM, 3, tree=False)
    for limit in (1, 2, 5):
        s = solve(p, PBM, 3, tree=False, max_keys=limit)
        assert (s.result, s.moves) == (full.result, full.moves)
        assert len(s.keys) == limit and set(s.keys) <= set(full.keys)
    one = solve(pos(SAMPLE_12), PBM, 3, tree=False, max_keys=2)
    assert [str(k) for k in one.keys] == ["14-24-33x43=12"]
    with pytest.raises(SolveError):
        solve(p, PBM, 3, max_keys=0)
