"""Main lines: played from their notation (:class:`PlayedLine`), the themes they show, and built
by the solver (:func:`principal_line`: the solution tree's main line, the winner's fastest
moves against the longest defence).

>>> from gyges.game.rules import PRESETS, Side
>>> p = Position.from_string("....../3...../..1.1./1.23.3/3.22.1/....2. N")
>>> line = play_line(p, PRESETS["pbmserv"], ["51-43-33-31-21-S"])
>>> line
PlayedLine('51-43-33-31-21-S')
>>> line_themes(line, PRESETS["pbmserv"], Stipulation("win", 1, Side.NORTH))
['bounce chain 4']
>>> [[str(m) for m in turn] for turn in principal_line(p, PRESETS["pbmserv"], "win", 1)]
[['51-43-33-31-21-S']]
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Collection, Mapping, Sequence

from gyges.formats.notation import format_move, format_turn, parse_turn
from gyges.game.moves import Game, Move, apply_move, can_land, legal_moves
from gyges.game.position import Position
from gyges.game.rules import RuleSet, Side
from gyges.game.squares import row_of, slot_name
from gyges.search import solve as search_solve
from gyges.search.solution import Solution
from gyges.search.stipulation import ResultKind, Stipulation

__all__ = ["THEMES", "PlayedLine", "SolveFn", "catalogue_titles", "distinct_title", "line_themes",
           "play_line", "principal_line", "renop_matters", "title_candidates", "try_play_line"]

#: The solver as the catalogue calls it (``solve(position, rules, max_moves=, history=)``);
#: a parameter so that tests can hand in a stub.
SolveFn = Callable[..., Solution]


@dataclasses.dataclass(frozen=True)
class PlayedLine:
    """A main line played out: its moves (turn by turn) and the positions before each."""

    turns: tuple[tuple[Move, ...], ...]
    positions: tuple[Position, ...]  # the position before each move, in order
    end: Position | None  # after the last move (None when it landed on a goal)

    @property
    def moves(self) -> tuple[Move, ...]:
        return tuple(m for turn in self.turns for m in turn)

    def __repr__(self) -> str:
        return f"PlayedLine({' / '.join(format_turn(t) for t in self.turns)!r})"


def play_line(position: Position, rules: RuleSet, turns: Sequence[str],
              history: Sequence[Position] = ()) -> PlayedLine:
    """Play turns written in pbmserv notation; NotationError (a ValueError) if one fails."""
    game = Game(position, tuple(history))
    played = []
    before = []
    over = False
    for i, text in enumerate(turns):
        if over:
            raise ValueError(f"turn {i + 1} ({text}) comes after the game ended on a goal")
        moves = parse_turn(text, game.position, rules, game.history)
        for move in moves:
            before.append(game.position)
            if move.is_win:
                over = True
                break
            game = game.play(move)
        played.append(tuple(moves))
    return PlayedLine(tuple(played), tuple(before), None if over else game.position)


def try_play_line(position: Position, rules: RuleSet, turns: Sequence[str],
                  history: Sequence[Position] = ()) -> PlayedLine | None:
    """:func:`play_line`, or None when a turn cannot be played."""
    try:
        return play_line(position, rules, turns, history)
    except ValueError:
        return None


#: Every theme the catalogue knows, with what it means: each is a property of the proven
#: main line (the key, then the longest defence and the winner's fastest answers) that
#: :func:`line_themes` computes and ``gyges catalogue check`` verifies (``Renop`` asks the
#: solver: :func:`renop_matters`). "The winner" is the side the stipulation makes win, "the
#: defender" the other; "the key" is the main line's first move when the winner makes it.
#: A theme names what sets a problem apart: none is on more than half of the shipped
#: catalogue (``gyges catalogue themes`` counts them).
THEMES: dict[str, str] = {
    "bounce chain N": "the longest move of the winner bounces on N rings before it stops "
                      "or lands (N = 1, 2, ...)",
    "relocation bridge": "the winner relocates a ring to a slot that a later move of the "
                         "winner bounces on",
    "late relocation": "the key relocates no ring; a later move of the winner does",
    "relocation backfires": "the defender relocates a ring to a slot that a later move of "
                            "the winner bounces on",
    "relocating defence": "every move of the defender in the main line relocates a ring",
    "quiet key": "the key neither relocates a ring nor threatens to land (the winner, were it "
                 "to move again at once, could not land)",
    "waiting key": "the key threatens no landing: were the winner to move again at once, it "
                   "could not land",
    "gift": "after the key the defender can move the ring the key moved or relocated",
    "runner": "the ring the key moves is the one that lands, later in the main line",
    "back-row landing": "the landing move starts on the winner's own back row, six rows "
                        "from the goal",
    "stalemate chain": "a side moves twice in a row: its opponent has no move",
    "taboo": "a move of the winner passes through a slot twice (the taboo forbids reusing "
             "a connection, not a slot)",
    "unstoppable": "a 'loses in N' puzzle: every move of the side to move loses",
    "Renop": "the Renop law decides: without it the solver's answer differs",
}


def line_themes(line: PlayedLine, rules: RuleSet, stipulation: Stipulation,
                history: Sequence[Position] = ()) -> list[str]:
    """The themes a played main line shows (see :data:`THEMES`), all but Renop (which
    needs the solver: :func:`renop_matters`), in the order of :data:`THEMES`."""
    moves = line.moves
    if not moves:
        return []
    # The winner's moves make the themes (with no winner: the side to move's).
    winner = moves[-1].side if moves[-1].is_win else moves[0].side
    shown = set()
    chain = max((m.bounces for m in moves if m.side is winner), default=0)
    for i, m in enumerate(moves):
        if m.relocation is None:
            continue
        bridged = any(m.relocation in n.landings for n in moves[i + 1:] if n.side is winner)
        if bridged:
            shown.add("relocation bridge" if m.side is winner else "relocation backfires")
    key = moves[0] if moves[0].side is winner else None
    if key is not None and not key.is_replace and any(
            m.is_replace for m in moves[1:] if m.side is winner):
        shown.add("late relocation")
    defence = [m for m in moves if m.side is not winner]
    if defence and all(m.is_replace for m in defence):
        shown.add("relocating defence")
    if key is not None and not key.is_win and stipulation.kind == "win":
        shown.update(_key_themes(line, rules, history))
    last = moves[-1]
    if last.is_win and row_of(last.start) == (6 if winner is Side.NORTH else 1):
        shown.add("back-row landing")
    if any(a.side is b.side for a, b in zip(moves, moves[1:], strict=False)):
        shown.add("stalemate chain")
    if any(m.side is winner and len(set(m.path)) < len(m.path) for m in moves):
        shown.add("taboo")
    if stipulation.kind == "loss":
        shown.add("unstoppable")
    themes = [f"bounce chain {chain}"] if chain else []
    return themes + [t for t in THEMES if t in shown]


def _key_themes(line: PlayedLine, rules: RuleSet, history: Sequence[Position]) -> set[str]:
    """The key's themes: quiet, waiting, gift, runner (the key is not a landing)."""
    moves = line.moves
    key, before, after = moves[0], line.positions[0], _after_key(line)
    themes = set()
    if not can_land(after.with_turn(key.side), rules, [*history, before]):
        themes.add("waiting key")
        if not key.is_replace:
            themes.add("quiet key")
    replies = legal_moves(after, rules, [*history, before], paths=False)
    if replies.mover is not key.side and any(
            m.start in (key.end, key.relocation) for m in replies.moves):
        themes.add("gift")
    # follow the key's ring: moved on by its own moves, sent away by a relocation onto it
    at: int | None = key.end
    for m in moves[1:]:
        if at is None:
            break
        if m.start == at:
            if m.is_win and m.side is key.side:
                themes.add("runner")
            at = None if m.is_win else m.end
        elif m.relocation is not None and m.end == at:
            at = m.relocation
    return themes


def _after_key(line: PlayedLine) -> Position:
    """The position after the line's first move (not a landing)."""
    if len(line.positions) > 1:
        return line.positions[1]
    assert line.end is not None
    return line.end


#: The themes in the order a title names them: the rarest motif first (bounce chains of
#: 4 or more before the relocation bridge, shorter ones last).
_TITLE_ORDER = ("Renop", "unstoppable", "quiet key", "stalemate chain", "waiting key", "gift",
                "late relocation", "relocation backfires", "relocating defence", "taboo",
                "runner", "long chain", "relocation bridge", "back-row landing", "short chain")
_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")


def _motifs(themes: Sequence[str]) -> list[str]:
    """The themes as a title says them, the most distinctive first."""
    said = {}
    for t in themes:
        m = re.fullmatch(r"bounce chain (\d+)", t)
        if m:
            n = int(m.group(1))
            word = _WORDS[n] if n < len(_WORDS) else str(n)
            said["long chain" if n >= 4 else "short chain"] = \
                f"{word} bounce{'s' if n != 1 else ''}"
        elif t in THEMES:
            said[t] = "the Renop law" if t == "Renop" else t
    return [said[t] for t in _TITLE_ORDER if t in said]


def title_candidates(line: PlayedLine, stipulation: Stipulation,
                     themes: Sequence[str]) -> list[str]:
    """Titles for a problem, each more particular than the one before: its most distinctive
    motif (:data:`THEMES`), the square its first move leaves and its length; then with its
    second motif, all its motifs, the side to move, the kind of its first move (plain or
    relocating) and last the landing's start. None writes the first move out (the key is
    the solution's: a title before the solutions must not give it away).
    :func:`distinct_title` takes the first one not taken.

    >>> from gyges.game.rules import PRESETS, Side
    >>> p = Position.from_string("....../3...../..1.1./1.23.3/3.22.1/....2. N")
    >>> line = play_line(p, PRESETS["pbmserv"], ["51-43-33-31-21-S"])
    >>> title_candidates(line, Stipulation("win", 1, Side.NORTH), ["bounce chain 4"])[3:5]
    ['Four bounces: North from 51 in 1', 'Four bounces: North, a plain move from 51, in 1']
    """
    moves = line.moves
    if not moves:
        return []
    first, last = moves[0], moves[-1]
    motifs = _motifs(themes) or ["relocating key" if first.is_replace else "plain key"]
    motifs[0] = motifs[0][0].upper() + motifs[0][1:]
    two = " and ".join(motifs[:2])
    every = ", ".join(motifs[:-1]) + " and " + motifs[-1] if len(motifs) > 1 else motifs[0]
    length = (f"in {stipulation.moves}" if stipulation.kind != "none"
              else f"no result in {stipulation.moves}")
    side = first.side.title
    start = slot_name(first.start)
    kind = "a relocating move" if first.is_replace else "a plain move"
    landing = slot_name(last.start)
    return [
        f"{motifs[0]} from {start} {length}",
        f"{two} from {start} {length}",
        f"{every} from {start} {length}",
        f"{every}: {side} from {start} {length}",
        f"{every}: {side}, {kind} from {start}, {length}",
        f"{every}: {side}, {kind} from {start}, landing from {landing}, {length}",
    ]


def distinct_title(line: PlayedLine, stipulation: Stipulation, themes: Sequence[str],
                   taken: Collection[str] = ()) -> str:
    """The first of :func:`title_candidates` that is not ``taken`` (the titles of the
    catalogue the problem joins): no two problems of a catalogue share a title."""
    candidates = title_candidates(line, stipulation, themes)
    for t in candidates:
        if t not in taken:
            return t
    moves = line.moves
    return f"{candidates[-1]}, ending {format_move(moves[-1])}"


def catalogue_titles(problems: Sequence[tuple[str, PlayedLine, Stipulation, Sequence[str]]],
                     fixed: Mapping[str, str] | None = None) -> dict[str, str]:
    """Titles for a whole catalogue, none twice: ``problems`` as (id, line, stipulation,
    themes); ``fixed``: ids whose titles stay. Each problem gets the least particular of
    its :func:`title_candidates` that no other problem shares (problems that would share
    one all move on to the next)."""
    titles = dict(fixed or {})
    left = {pid: title_candidates(line, st, themes)
            for pid, line, st, themes in problems if pid not in titles}
    level = 0
    while left:
        taken = set(titles.values())
        at = {pid: (c[level] if level < len(c) else f"{c[-1]} ({pid})")
              for pid, c in left.items()}
        count: dict[str, int] = {}
        for t in at.values():
            count[t] = count.get(t, 0) + 1
        for pid, t in at.items():
            if count[t] == 1 and t not in taken or level >= len(left[pid]):
                titles[pid] = t
        left = {pid: c for pid, c in left.items() if pid not in titles}
        level += 1
    return titles


def renop_matters(position: Position, rules: RuleSet, stipulation: Stipulation,
                  history: Sequence[Position] = (), solve: SolveFn | None = None) -> bool:
    """Does the Renop law change the answer? (The solver's result without it differs.)"""
    if rules.repetition != "forbidden":
        return False
    solve = solve or search_solve
    free = rules.with_options({"repetition": "allowed"})
    sol = solve(position, free, max_moves=stipulation.moves, history=history)
    return (sol.result, sol.moves) != (stipulation.kind,
                                       stipulation.moves if stipulation.kind != "none" else None)


def principal_line(position: Position, rules: RuleSet, result: ResultKind, k: int,
                   history: Sequence[Position] = (), solve: SolveFn | None = None,
                   first: Move | None = None) -> list[list[Move]]:
    """The main line proving ``result`` in ``k``, grouped in turns (a side playing on while
    its opponent is blocked stays in one turn): the solution tree's main line
    (:func:`gyges.search.tree.main_line_steps`: the key, then at each move of the loser the
    defence that holds out longest, at each move of the winner its fastest answer, down to
    the landing). With ``first`` (a key, or a loss's defence) the line starts with that
    move as it is written (its path), and goes on with the main line of the position after
    it. ValueError if the solver does not prove ``result`` in ``k``."""
    solve = solve or search_solve
    # with ``first`` given, the search stops at the first key it finds: the tree follows
    # it, and when it is another move the line is made from ``first`` below
    sol = solve(position, rules, max_moves=k, history=history, tree=True,
                max_keys=1 if first is not None else None)
    _expect_proven(sol, result, k, position)
    line = play_line(position, rules, sol.main_line_turns(), history)
    moves = list(line.moves)
    if first is not None and moves and (moves[0].result_key(position)
                                        == first.result_key(position)):
        moves[0] = first        # the same move, as ``first`` writes it (its path)
    elif first is not None:
        moves = [first]
        if not first.is_win:
            after = apply_move(position, first)
            rest = solve(after, rules, max_moves=k, history=[*history, position], tree=True,
                         max_keys=1)
            _expect_proven(rest, ResultKind.LOSS if result == "win" else ResultKind.WIN,
                           k - 1 if result == "win" else k, after)
            moves += play_line(after, rules, rest.main_line_turns(),
                               [*history, position]).moves
    if not moves:
        raise ValueError(f"the solver gives no main line in {position}")
    turns: list[list[Move]] = []
    for m in moves:
        if turns and turns[-1][0].side is m.side:
            turns[-1].append(m)
        else:
            turns.append([m])
    return turns


def _expect_proven(sol: Solution, result: ResultKind, k: int, position: Position) -> None:
    if sol.result != result or sol.moves != k:
        found = f"{sol.result.value} in {sol.moves}" if sol.moves else sol.result.value
        raise ValueError(f"the solver finds {found}, not {result} in {k}, in {position}")
