"""What ``solve`` reports as it goes (:class:`~gyges.search.SolveProgress` events: the
stage, the side and depth asked, what is proven so far, first moves done), and the status
line that shows them."""

from __future__ import annotations

import pytest

from gyges.game.moves import legal_moves
from gyges.game.position import Position
from gyges.game.rules import PRESETS, Side
from gyges.search import SolveProgress, Stage, solve

PBM = PRESETS["pbmserv"]
CHAIN = ".3.3.3/112232/...1.2/...1../....../...... S"            # win in 2, 15 keys
TABOO = "....../1...../3.23../3.211./2.132./...... N"            # loses in 2


def pos(text: str) -> Position:
    return Position.from_string(text)


def test_solve_reports_its_stages():
    events: list[SolveProgress] = []
    solve(pos(CHAIN), PBM, 2, progress=events.append)
    notes = [str(e) for e in events]
    assert notes[0] == "searching for a win in 1"
    assert "searching for a win in 2" in notes
    assert any(n.startswith("looking for cooks: first move 1 of ") for n in notes)
    assert notes[-1] == "building the solution tree"
    assert [(e.stage, e.depth) for e in events if e.stage is Stage.VERDICT] == [
        (Stage.VERDICT, 1), (Stage.VERDICT, 2)]
    assert events[1].proven() == "South has no forced win within 1"
    cooks = [e for e in events if e.stage is Stage.KEYS]
    assert [e.done for e in cooks] == list(range(len(cooks)))
    assert {e.total for e in cooks} == {len(legal_moves(pos(CHAIN), PBM))}
    assert (events[-1].stage, events[-1].side, events[-1].depth) == (Stage.TREE, Side.SOUTH, 2)


def test_solve_reports_the_opponents_questions_with_what_is_proven():
    events: list[SolveProgress] = []
    s = solve(pos(TABOO), PBM, 2, progress=events.append, tries=True)
    assert (s.result, s.moves) == ("loss", 2)
    assert [str(e) for e in events] == [
        "searching for a win in 1", "searching for a win in 2", "searching for a loss in 1",
        "searching for a loss in 2", "building the solution tree"]
    assert [e.proven() for e in events[:4]] == [
        "", "North has no forced win within 1", "North has no forced win within 2",
        "North has no forced win within 2, South none within 1"]
    assert events[2].side is Side.SOUTH and events[2].stage is Stage.OPPONENT


def test_status_line_only_on_a_terminal():
    import io

    from gyges.parallel import StatusLine

    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    plain, tty = io.StringIO(), Tty()
    for stream in (plain, tty):
        line = StatusLine(stream)
        line.show("searching for a win in 3")
        line.clear()
    assert plain.getvalue() == ""
    assert "searching for a win in 3" in tty.getvalue() and tty.getvalue().endswith("\r\x1b[K")


@pytest.mark.parametrize(("event", "text"), [
    (SolveProgress(Stage.VERDICT, Side.SOUTH, 3, 2), "searching for a win in 3"),
    (SolveProgress(Stage.VERDICT, Side.SOUTH, 3, 2, done=4, total=30, split=True),
     "searching for a win in 3: 4 of 30 first moves done"),
    (SolveProgress(Stage.OPPONENT, Side.NORTH, 1, 3), "searching for a loss in 1"),
    (SolveProgress(Stage.KEYS, Side.SOUTH, 3, done=0, total=30),
     "looking for cooks: first move 1 of 30"),
    (SolveProgress(Stage.KEYS, Side.SOUTH, 3, done=7, total=30, split=True),
     "looking for cooks: 7 of 30 first moves done"),
    (SolveProgress(Stage.TREE, Side.NORTH, 2), "building the solution tree"),
    (SolveProgress(Stage.TRIES, Side.SOUTH, 3), "looking for tries"),
])
def test_each_event_reads_as_its_note(event, text):
    assert str(event) == text
    assert event.searching is (event.stage in (Stage.VERDICT, Stage.OPPONENT))
    assert repr(event).startswith(f"SolveProgress({event.stage.value}, {event.side.value}, ")
