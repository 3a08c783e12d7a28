"""Game review: what the solver proves at every move of a game record.

:func:`review_game` replays a record (:mod:`gyges.formats.record`) and, before and after
every turn, asks the solver for the shortest forced result within ``max_moves`` moves.
Each turn is then classed by what it did to the proven result:

- ``!`` a forced win kept at its best pace, or a forced win created from a position
  where nothing was forced;
- ``?`` a forced win thrown away (nothing is forced any more): the comment names the
  winning move that was missed, like ``14-24-33x43=12 wins in 2``;
- ``??`` a move that walks into a forced loss, or throws a forced win into one; a
  resignation in a won position.

It also finds the ply where the result became forced for good, and can turn the positions
it found (wins missed, and the position where the result became forced) into catalogue
entries (:meth:`GameReview.puzzle_entries`) that ``gyges catalogue check`` accepts.

The playing engine judges every turn too (:mod:`gyges.puzzles.review.engine_judgement`):
the mover's win probability before and after it, the best move when it played another,
and the marks ``(?!)``, ``(?)``, ``(??)`` for an inaccuracy, a mistake, a blunder; a
proven mark outranks the engine's (:attr:`MoveReview.sign`).

>>> from gyges.formats.record import parse_record
>>> from gyges.game.rules import PRESETS
>>> record = parse_record("South North\\n1 231123 2 321123\\n3 16-35 4 61-53\\n")
>>> review = review_game(record, PRESETS["pbmserv"], max_moves=1)
>>> review.moves
(MoveReview(3, South, '16-35', '', quiet), MoveReview(4, North, '61-53', '', quiet))
>>> GameReview.from_json(review.to_json(), record) == review
True
"""

from __future__ import annotations

import dataclasses
import enum
import re
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from gyges.engine import Analysis, Engine, Limit, Options
from gyges.engine.builtin import limit_from_json, limit_to_json
from gyges.engine.score import Loss, Score, Win
from gyges.formats.notation import format_move, parse_move, parse_turn
from gyges.formats.record import GameRecord, RecordedTurn, Replay, format_record, replay
from gyges.game.moves import Move, apply_move
from gyges.game.position import Position
from gyges.game.rules import PRESETS, RuleSet, Side
from gyges.puzzles.catalogue.authoring import findings
from gyges.puzzles.lines import SolveFn, distinct_title, play_line
from gyges.puzzles.review.engine_judgement import (
    BLUNDER,
    DEFAULT_REVIEW_LIMIT,
    INACCURACY,
    MISTAKE,
    Judgement,
    PositionAssessment,
    assess_position,
    judge,
    limit_text,
)
from gyges.search import solve as search_solve

__all__ = ["GameReview", "Kind", "Mark", "MoveReview", "PositionVerdict", "ReviewInterrupted",
           "review_game"]

#: ``progress(k, n, turn)``: the review starts on the k-th of the game's n turns.
ReviewProgress = Callable[[int, int, RecordedTurn], None]


class Kind(str, enum.Enum):
    """What a turn did to the proven result (docs/review.md)."""

    QUIET = "quiet"                        #: nothing forced before or after
    CREATED = "created"                    #: a forced win made from nothing
    KEPT = "kept"                          #: a forced win kept at its best pace
    SLOWER = "slower"                      #: a forced win kept, but not at its best pace
    THROWN = "thrown"                      #: a forced win thrown away
    THROWN_INTO_LOSS = "thrown-into-loss"  #: a forced win thrown into a forced loss
    WALKED_INTO_LOSS = "walked-into-loss"  #: nothing forced, and now a forced loss
    LOST = "lost"                          #: the position was already lost
    WINS = "wins"                          #: the turn lands on the goal
    RESIGNED_WON = "resigned-won"          #: a resignation in a won position
    RESIGNED_LOST = "resigned-lost"        #: a resignation in a lost position
    RESIGNED = "resigned"                  #: a resignation with nothing forced

    def __str__(self) -> str:
        return self.value


class Mark(str, enum.Enum):
    """The annotation a turn gets in the record."""

    NONE = ""
    GOOD = "!"      #: keeps or forces a win
    MISTAKE = "?"   #: throws a forced win away
    BLUNDER = "??"  #: walks into a forced loss, or resigns a won position

    def __str__(self) -> str:
        return self.value


@dataclasses.dataclass(frozen=True)
class PositionVerdict:
    """What the solver proves about a position within the bound: the side that can force a
    win (None: neither), in how many of its moves, and the winning first moves when that
    side is to move."""

    winner: Side | None
    moves: int | None
    keys: tuple[Move, ...] = ()

    def text(self, bound: int) -> str:
        if self.winner is None:
            return f"no forced result within {bound}"
        return f"{self.winner.title} wins in {self.moves}"

    def score(self, side: Side) -> Score | None:
        """The proven result for ``side`` as an engine score (None: nothing forced)."""
        if self.winner is None or self.moves is None:
            return None
        return Win(self.moves) if self.winner is side else Loss(self.moves)

    def keys_text(self, shown: int = 3) -> str:
        names = [format_move(k) for k in self.keys[:shown]]
        more = len(self.keys) - shown
        return ", ".join(names) + (f" and {more} more" if more > 0 else "")

    def __repr__(self) -> str:
        if self.winner is None:
            return "PositionVerdict(no forced result)"
        keys = f": {self.keys_text()}" if self.keys else ""
        return f"PositionVerdict({self.winner.title} wins in {self.moves}{keys})"

    def to_json(self) -> dict[str, Any]:
        return {"winner": self.winner.value if self.winner else None, "moves": self.moves,
                "keys": [format_move(k) for k in self.keys]}

    @classmethod
    def from_json(cls, d: dict[str, Any], position: Position, rules: RuleSet,
                  history: Sequence[Position] = ()) -> PositionVerdict:
        """The verdict :meth:`to_json` wrote about ``position`` (its keys are moves there);
        NotationError (a ValueError) if a key is not a legal move."""
        winner = Side(d["winner"]) if d["winner"] is not None else None
        keys = tuple(parse_move(k, position, rules, history) for k in d["keys"])
        return cls(winner, d["moves"], keys)


@dataclasses.dataclass(frozen=True)
class MoveReview:
    """One turn of the game (or the resignation) and what it did to the proven result.

    ``kind``: ``quiet`` (nothing forced before or after), ``created`` (a forced win made
    from nothing), ``kept`` (a forced win kept; ``slower`` when not at its best pace),
    ``thrown`` (a forced win thrown away), ``thrown-into-loss``, ``walked-into-loss``,
    ``lost`` (the position was already lost), ``wins`` (the turn lands on the goal),
    ``resigned-won``, ``resigned-lost``, ``resigned``.
    """

    number: int
    side: Side
    text: str
    position: Position  #: before the turn
    history: tuple[Position, ...]  #: the positions before ``position``, oldest first
    before: PositionVerdict
    after: PositionVerdict | None  #: None when the turn ended the game
    kind: Kind
    mark: Mark
    comment: str
    became_forced: bool = False  #: the result is forced from here to the end of the game
    judgement: Judgement | None = None  #: the engine's (None: reviewed without it)

    @property
    def sign(self) -> str:
        """The sign in the annotated record: the proven mark, else the engine's in
        brackets (``(?!)``, ``(?)``, ``(??)``), else nothing."""
        if self.mark or self.judgement is None:
            return self.mark.value
        return self.judgement.mark.sign

    def __repr__(self) -> str:
        return (f"MoveReview({self.number}, {self.side.title}, {self.text!r}, "
                f"{str(self.mark)!r}, {self.kind})")

    def to_json(self) -> dict[str, Any]:
        return {"number": self.number, "side": self.side.value, "move": self.text,
                "mark": self.mark, "kind": self.kind, "comment": self.comment,
                "position": str(self.position), "before": self.before.to_json(),
                "after": self.after.to_json() if self.after else None,
                "became_forced": self.became_forced,
                "engine": self.judgement.to_json() if self.judgement else None}

    @classmethod
    def from_json(cls, d: dict[str, Any], rules: RuleSet,
                  history: Sequence[Position] = ()) -> MoveReview:
        """The turn's review :meth:`to_json` wrote (``history``: the positions of the game
        before it, which the JSON does not carry); its verdicts' keys are read in the
        positions before and after the turn."""
        position = Position.from_string(d["position"])
        before = PositionVerdict.from_json(d["before"], position, rules, history)
        after = None
        judgement = None
        if d.get("engine") is not None:
            judgement = Judgement.from_json(d["engine"], position, rules, history)
        if d["after"] is not None:
            pos, hist = position, [*history]
            for m in parse_turn(d["move"], position, rules, history):
                hist.append(pos)
                pos = apply_move(pos, m)
            after = PositionVerdict.from_json(d["after"], pos, rules, hist)
        return cls(d["number"], Side(d["side"]), d["move"], position, tuple(history), before,
                   after, Kind(d["kind"]), Mark(d["mark"]), d["comment"], d["became_forced"],
                   judgement)


@dataclasses.dataclass(frozen=True)
class GameReview:
    """A reviewed game: every turn's review, and where the result became forced.
    ``limit`` is the engine's search of each position (None: reviewed without the
    engine); ``stopped_at`` the entry where an interrupted review stopped (its ``moves``
    are the turns before it)."""

    record: GameRecord
    rules: RuleSet
    max_moves: int
    moves: tuple[MoveReview, ...]
    winner: Side | None
    error: str | None = None  #: the first illegal entry, when the review stopped there
    limit: Limit | None = None
    stopped_at: int | None = None

    def __repr__(self) -> str:
        forced = self.forced_from
        return (f"GameReview({self.record.source}, {self.rules.name}, within {self.max_moves}:"
                f" {len(self.moves)} turns, forced from "
                f"{forced.number if forced else None})")

    @property
    def forced_from(self) -> MoveReview | None:
        """The turn after which the result was forced to the end of the game (None if the
        game ended with nothing forced)."""
        return next((m for m in self.moves if m.became_forced), None)

    def annotated_record(self) -> str:
        """The record in its own notation with the marks (``!``, ``?``, ``??`` proven;
        the engine's ``(?!)``, ``(?)``, ``(??)``), up to where the review stopped."""
        turns = tuple(RecordedTurn(m.number, m.side, m.text + m.sign, 0)
                      for m in self.moves if m.text != "Resign")
        resign = next((m for m in self.moves if m.text == "Resign"), None)
        result = self.record.result if self.stopped_at is None else None
        if resign is not None:
            result = "Resign" + resign.sign
        return format_record(dataclasses.replace(self.record, turns=turns, result=result))

    def _header(self) -> list[str]:
        bound = f"{self.max_moves} move{'s' if self.max_moves != 1 else ''}"
        out = [f"Review of {self.record.source}: rules {self.rules.name}, proofs within "
               f"{bound}" + ("." if self.limit is None else
                             f", the engine at {limit_text(self.limit)} a position."),
               "Marks: ! keeps or forces a win, ? throws a forced win away, ?? walks into a "
               f"forced loss (proven within {bound})."]
        if self.limit is not None:
            out.append(f"The engine's: (?!) inaccuracy, (?) mistake, (??) blunder: the "
                       f"mover's win probability falls by {round(100 * INACCURACY)}, "
                       f"{round(100 * MISTAKE)}, {round(100 * BLUNDER)} points or more "
                       "(shown before -> after the move).")
        return out

    def text(self) -> str:
        """The annotated record, one line per turn saying what the solver proves (and
        the engine's judgement), and the ply where the result became forced."""
        out = [*self._header(), "", self.annotated_record().rstrip(), ""]
        width = max((len(f"{m.number} {m.text}{m.sign}") for m in self.moves), default=0)
        for m in self.moves:
            engine = f"; engine {m.judgement.text()}" if m.judgement is not None else ""
            out.append(f"{m.number} {m.text}{m.sign}".ljust(width) + f"  {m.side.title}: "
                       f"{m.comment}{engine}")
        out.append("")
        forced = self.forced_from
        if self.stopped_at is not None:
            out.append(f"The review stopped before entry {self.stopped_at} (interrupted): "
                       f"{len(self.moves)} of the game's {len(self.record.turns)} moves "
                       "reviewed.")
        elif forced is None:
            out.append(f"The result never became forced within {self.max_moves} moves.")
        else:
            who = forced.after.text(self.max_moves) if forced.after else forced.comment
            out.append(f"The result became forced with {forced.number} {forced.text} "
                       f"({forced.side.title}): {who}.")
        if self.error:
            out.append(f"The review stops at an illegal entry: {self.error}")
        return "\n".join(out) + "\n"

    def to_json(self) -> dict[str, Any]:
        forced = self.forced_from
        engine = None
        if self.limit is not None:
            engine = {"limit": limit_to_json(self.limit),
                      "marks": {"inaccuracy": INACCURACY, "mistake": MISTAKE,
                                "blunder": BLUNDER}}
        return {"game": self.record.source, "rules": self.rules.options(),
                "max_moves": self.max_moves, "engine": engine,
                "moves": [m.to_json() for m in self.moves],
                "forced_from": forced.number if forced else None,
                "winner": self.winner.value if self.winner else None, "error": self.error,
                "stopped_at": self.stopped_at}

    @classmethod
    def from_json(cls, d: dict[str, Any], record: GameRecord,
                  start: Position | None = None) -> GameReview:
        """The review :meth:`to_json` wrote of ``record`` (the game is replayed for the
        history of every position; nothing is proven again)."""
        rules = PRESETS["pbmserv"].with_options(d["rules"])
        states = _positions_and_history(replay(record, rules, start))
        moves = tuple(MoveReview.from_json(m, rules, states[min(i, len(states) - 1)][1])
                      for i, m in enumerate(d["moves"]))
        winner = Side(d["winner"]) if d["winner"] is not None else None
        engine = d.get("engine")
        limit = limit_from_json(engine["limit"]) if engine is not None else None
        return cls(record, rules, d["max_moves"], moves, winner, d["error"], limit,
                   d.get("stopped_at"))

    def puzzle_positions(self) -> list[MoveReview]:
        """The turns whose starting position makes a puzzle: the side to move had a forced
        win and threw it away (or resigned), or the turn just before made the result forced
        for good. Each position once."""
        out: list[MoveReview] = []
        for i, m in enumerate(self.moves):
            found = []
            if m.kind in (Kind.THROWN, Kind.THROWN_INTO_LOSS, Kind.RESIGNED_WON):
                found.append(m)
            if m.became_forced and i + 1 < len(self.moves):
                found.append(self.moves[i + 1])
            for r in found:
                if r.before.winner is not None and all(r.position != o.position for o in out):
                    out.append(r)
        return out

    def puzzle_entries(self, *, solve: SolveFn | None = None, prefix: str | None = None
                       ) -> list[str]:
        """Catalogue entries (YAML text) for :meth:`puzzle_positions`, with the game's
        history for the Renop law, authored as ``catalogue add`` authors its entries
        (:func:`~gyges.puzzles.catalogue.authoring.findings`), each titled by what is
        special about it (:func:`~gyges.puzzles.lines.distinct_title`), no two alike."""
        solve = solve or search_solve
        name = Path(self.record.source).stem
        stem = prefix or re.sub(r"[^A-Za-z0-9_.-]+", "-", name)
        entries = []
        taken: set[str] = set()
        for m in self.puzzle_positions():
            solution = solve(m.position, self.rules, max_moves=m.before.moves or self.max_moves,
                             history=list(m.history))
            found = findings(m.position, self.rules, solution, m.history, solve)
            in_game = "resigned here" if m.text == "Resign" else f"played {m.text}"
            notes = (f"From the game {self.record.source}, before entry {m.number}: "
                     f"{m.position.turn.title} is to move and {found.stipulation}; in the "
                     f"game {m.side.title} {in_game} ({m.comment}).")
            title = f"{name}, entry {m.number}"
            if found.main_line:
                line = play_line(m.position, self.rules, found.main_line, m.history)
                title = distinct_title(line, found.stipulation, found.themes, taken)
            taken.add(title)
            entries.append(found.entry(
                f"{stem}-{m.number}", m.position, self.rules,
                difficulty=found.rating(m.position, self.rules, m.history, solve).difficulty,
                title=title,
                source=f"the game {self.record.source}, before entry {m.number}",
                credit="found by gyges review", notes=notes, history=m.history))
        return entries


def _verdict(position: Position, rules: RuleSet, history: Sequence[Position], bound: int,
             solve: SolveFn) -> PositionVerdict:
    sol = solve(position, rules, max_moves=bound, history=list(history), tree=False)
    if sol.result == "none":
        return PositionVerdict(None, None)
    return PositionVerdict(sol.winner, sol.moves, tuple(sol.keys))


def _classify(side: Side, moves_made: int, before: PositionVerdict, after: PositionVerdict | None,
              bound: int) -> tuple[Kind, Mark, str]:
    """``(kind, mark, comment)`` of a turn of ``side`` (``moves_made`` of its moves)."""
    if after is None:
        return Kind.WINS, Mark.NONE, f"lands on the goal: {side.title} wins"
    other = side.other
    k_before, k_after = before.moves or 0, after.moves or 0
    if before.winner is side:
        missed = f"{before.keys_text()} win{'s' if len(before.keys) == 1 else ''} " \
                 f"in {before.moves}"
        if after.winner is side:
            best = k_before - moves_made
            if k_after <= best:
                return Kind.KEPT, Mark.GOOD, (f"keeps the forced win: {side.title} wins in "
                                              f"{after.moves}")
            return Kind.SLOWER, Mark.NONE, (f"keeps a forced win, slower: {side.title} wins in "
                                            f"{after.moves} (best: {missed})")
        if after.winner is None:
            return Kind.THROWN, Mark.MISTAKE, f"throws away the forced win: {missed}"
        return Kind.THROWN_INTO_LOSS, Mark.BLUNDER, (
            f"throws away the forced win ({missed}) and walks into a forced loss: "
            f"{other.title} wins in {after.moves} ({after.keys_text()})")
    if before.winner is other:
        if after.winner is other:
            faster = "" if k_after >= k_before else \
                f"; the longest defence held out {before.moves}"
            return Kind.LOST, Mark.NONE, (f"lost whatever it plays: {other.title} wins in "
                                          f"{after.moves}{faster}")
        return Kind.QUIET, Mark.NONE, f"{after.text(bound)} after it"
    if after.winner is other:
        return Kind.WALKED_INTO_LOSS, Mark.BLUNDER, (
            f"walks into a forced loss: {other.title} wins in {after.moves} "
            f"({after.keys_text()})")
    if after.winner is side:
        return Kind.CREATED, Mark.GOOD, f"forces the win: {side.title} wins in {after.moves}"
    return Kind.QUIET, Mark.NONE, f"no forced result within {bound}"


def _positions_and_history(game: Replay) -> list[tuple[Position, tuple[Position, ...]]]:
    """The position before each turn and the game's positions before it (every move's,
    a stalemate chain's included), for the Renop law."""
    out = []
    pos = game.positions[0]
    hist: list[Position] = []
    for moves in game.moves:
        out.append((pos, tuple(hist)))
        for m in moves:
            if m.is_win:
                break
            hist.append(pos)
            pos = apply_move(pos, m)
    out.append((pos, tuple(hist)))
    return out


class ReviewInterrupted(KeyboardInterrupt):
    """Ctrl-C (or SIGTERM) during :func:`review_game`: ``review`` holds the turns reviewed
    so far, and its ``stopped_at`` the entry where the review stopped."""

    def __init__(self, review: GameReview):
        super().__init__()
        self.review = review


class _Positions:
    """The proven verdict and the engine's assessment of each position of a game, each
    computed once, when first asked for: one engine (one transposition table) for the
    whole game, with the game's history for the Renop law."""

    def __init__(self, states: list[tuple[Position, tuple[Position, ...]]], rules: RuleSet,
                 max_moves: int, solve: SolveFn, limit: Limit | None,
                 options: Options | None):
        self.states, self.rules, self.max_moves, self.solve = states, rules, max_moves, solve
        self.limit = limit
        self.engine = Engine(rules, options) if limit is not None else None
        self.known: dict[int, tuple[PositionVerdict, PositionAssessment | None]] = {}

    def __getitem__(self, i: int) -> tuple[PositionVerdict, PositionAssessment | None]:
        if i not in self.known:
            pos, hist = self.states[i]
            v = _verdict(pos, self.rules, hist, self.max_moves, self.solve)
            a = None
            if self.engine is not None and self.limit is not None:
                depths: list[Analysis] = []
                analysis = self.engine.analyse(pos, self.limit, hist, depths.append)
                if analysis.move is not None:  # the path its notation reads as (JSON)
                    analysis = dataclasses.replace(analysis, move=parse_move(
                        str(analysis.move), pos, self.rules, hist))
                a = assess_position(analysis, depths, v.score(pos.turn),
                           v.keys if v.winner is pos.turn else ())
            self.known[i] = (v, a)
        return self.known[i]


def review_game(record: GameRecord, rules: RuleSet, *, max_moves: int = 3,
                start: Position | None = None, solve: SolveFn | None = None,
                limit: Limit | None = DEFAULT_REVIEW_LIMIT, options: Options | None = None,
                progress: ReviewProgress | None = None) -> GameReview:
    """Review every turn of ``record`` (and its resignation) under ``rules``, with proofs
    within ``max_moves`` moves of the winner and the engine's judgement of every move,
    each position searched within ``limit`` (None: no engine; ``options``: the engine's
    settings). A record with an illegal entry is reviewed up to it (``error`` says
    which). ``progress(k, n, turn)`` is called as the k-th of the n turns begins; Ctrl-C
    raises :class:`ReviewInterrupted` with the turns reviewed so far."""
    game = replay(record, rules, start)
    states = _positions_and_history(game)
    known = _Positions(states, rules, max_moves, solve or search_solve, limit, options)
    reviews: list[MoveReview] = []
    last_ended = bool(game.moves) and bool(game.moves[-1]) and game.moves[-1][-1].is_win
    resigned = record.result == "Resign" and game.error is None and not last_ended
    resign_number = record.turns[-1].number + 1 if record.turns else record.first_number
    error = str(game.error) if game.error is not None else None
    try:
        for i, moves in enumerate(game.moves):
            turn = record.turns[i]
            if progress is not None:
                progress(i + 1, len(game.moves), turn)
            reviews.append(_review_turn(turn, moves, i, states, known, max_moves))
        if resigned:
            pos, hist = states[-1]
            v, a = known[len(states) - 1]
            kind, mark, comment = _resignation(v, pos.turn, max_moves)
            reviews.append(MoveReview(resign_number, pos.turn, "Resign", pos, hist, v, None,
                                      kind, mark, comment, judgement=_judge(a, None, None)))
    except KeyboardInterrupt:
        stopped = record.turns[len(reviews)].number if len(reviews) < len(game.moves) \
            else resign_number
        raise ReviewInterrupted(GameReview(record, rules, max_moves, tuple(reviews),
                                           game.winner, error, limit, stopped)) from None
    return GameReview(record, rules, max_moves, tuple(_mark_forced(reviews)), game.winner,
                      error, limit)


def _review_turn(turn: RecordedTurn, moves: Sequence[Move], i: int,
                 states: list[tuple[Position, tuple[Position, ...]]], known: _Positions,
                 max_moves: int) -> MoveReview:
    """The review of the ``i``-th turn, which played ``moves``."""
    pos, hist = states[i]
    before, a_before = known[i]
    ended = bool(moves) and moves[-1].is_win
    after, a_after = (None, None) if ended else known[i + 1]
    made = sum(1 for m in moves if m.side is turn.side)
    kind, mark, comment = _classify(turn.side, made, before, after, max_moves)
    judgement = _judge(a_before, moves[0], a_after) if moves else None
    return MoveReview(turn.number, turn.side, turn.text, pos, hist, before, after, kind, mark,
                      comment, judgement=judgement)


def _judge(before: PositionAssessment | None, played: Move | None,
           after: PositionAssessment | None) -> Judgement | None:
    return judge(before, played, after) if before is not None else None


def _resignation(v: PositionVerdict, side: Side, max_moves: int) -> tuple[Kind, Mark, str]:
    """``(kind, mark, comment)`` of a resignation of ``side`` in a position with the
    verdict ``v``."""
    if v.winner is side:
        return Kind.RESIGNED_WON, Mark.BLUNDER, (
            f"resigns a won position: {v.keys_text()} "
            f"win{'s' if len(v.keys) == 1 else ''} in {v.moves}")
    if v.winner is not None:
        return Kind.RESIGNED_LOST, Mark.NONE, \
            f"resigns a lost position: {v.winner.title} wins in {v.moves}"
    return Kind.RESIGNED, Mark.NONE, f"resigns with no forced result within {max_moves}"


def _mark_forced(reviews: list[MoveReview]) -> list[MoveReview]:
    """Mark the turn after which the result stayed forced to the end (the last turn that
    made it forced, nothing being forced before it)."""
    forced_after = [m.after.winner is not None if m.after is not None else True
                    for m in reviews]
    # A turn that ends the game (a landing, a resignation) leaves nothing to judge.
    for i in range(len(reviews) - 1, -1, -1):
        m = reviews[i]
        if m.after is None:
            continue
        if not forced_after[i]:
            break
        if m.before.winner is None or m.before.winner is not m.after.winner:
            return [dataclasses.replace(r, became_forced=(j == i))
                    for j, r in enumerate(reviews)]
    return reviews
