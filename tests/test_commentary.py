"""The solver's commentary (gyges.puzzles.book.commentary): the key's threats and the main
variations, each checked move by move with the engine, and handed to the book."""

from __future__ import annotations

from catalogues import all_puzzles

from gyges.puzzles.book.commentary import Commentary, commentary, solver_commentary
from gyges.puzzles.book.model import make_book


def test_threats_and_variations_come_from_the_solver():
    from gyges.formats.notation import parse_move
    from gyges.game.moves import apply_move, legal_moves

    puzzles = [p for p in all_puzzles() if p.stipulation.kind == "win"
               and p.stipulation.moves == 2][:4]
    book = make_book(puzzles, commentary=solver_commentary(puzzles))
    assert any(e.threats for e in book.entries) and all(e.variations for e in book.entries)
    for e in book.entries:
        p = e.puzzle
        assert e.defences == len(legal_moves(apply_move(p.position, parse_move(
            p.key, p.position, p.rules, p.history)), p.rules, [*p.history, p.position]))
        key = parse_move(p.key, p.position, p.rules, p.history)
        after = apply_move(p.position, key)
        history = [*p.history, p.position]
        # Each threat lands at once if the defender could pass.
        for t in e.threats:
            threat = parse_move(t, after.with_turn(p.position.turn), p.rules, history)
            assert threat.is_win
        # Each variation's answer lands after each of its defences.
        for v in e.variations:
            for d in v.defences:
                reply = parse_move(d, after, p.rules, history)
                pos = apply_move(after, reply)
                assert parse_move(v.answer, pos, p.rules, [*history, after]).is_win


def test_a_book_without_commentary_asks_no_solver():
    puzzles = [p for p in all_puzzles() if p.stipulation.kind == "win"][:3]
    plain = make_book(puzzles)
    assert all((e.threats, e.variations, e.defences) == ((), (), 0) for e in plain.entries)
    said = solver_commentary(puzzles)
    assert said == {p.id: commentary(p) for p in puzzles}
    told = make_book(puzzles, commentary=said)
    for e in told.entries:
        assert Commentary(e.threats, e.variations, e.defences) == said[e.puzzle.id]


def test_no_commentary_but_for_a_win_in_two_or_more():
    for p in all_puzzles():
        if p.stipulation.kind != "win":
            assert commentary(p) == Commentary()
