"""Games between two engines, refereed by the rules engine: one game and its record, and a
whole match on the resumable run (``gyges match``).

:func:`play_game` starts from an opening (a setup pair), asks each engine for its move in
turn, and checks every answer against the legal moves: an illegal or missing answer (or
an engine that fails) loses the game, and the record says so. A landing wins; a game that
reaches ``max_plies`` moves, or in which nobody can move, is a draw. The record
(:class:`PlayedGame`) goes to JSON and back, and to the text format ``gyges replay``
reads (:mod:`gyges.formats.record`).

>>> from gyges import PRESETS
>>> from gyges.engine.players import open_player
>>> rules = PRESETS["pbmserv"]
>>> engine = open_player("builtin:depth=1,prove=0", rules)
>>> game = play_game(engine, engine, ("231123", "321123"), rules, max_plies=6,
...                  names=("builtin:depth=1,prove=0", "builtin:depth=1,prove=0"))
>>> game.result, game.reason, len(game.moves)
('draw', 'max plies: 6 moves played', 6)
>>> PlayedGame.from_json(game.to_json()) == game
True

A match (:func:`run_match`) plays game after game from a list of openings, each opening
twice with the engines' sides swapped, into a results file (one JSON line a game), on the
local pool or Dask, resumably; its :class:`MatchResult` counts the first engine's wins,
draws and losses, and its pairs of games (one opening, the sides swapped) by their score,
which the statistics count (:mod:`gyges.engine.stats`).

The same record, :class:`PlayedGame`, is every line of a match's file and of a
self-play file of ``setups rank`` (:mod:`gyges.setups.selfplay.games`), one layout per
kind: a match's game names its engines (``south``, ``north``) and its ``opening``; a
self-play game, the builtin engine's against itself, has a ``round`` and names its
setups (``south``, ``north``).

>>> line = {"game": 3, "round": 0, "south": "231123", "north": "321123",
...         "result": "draw", "reason": "nobody can move", "moves": []}
>>> g = PlayedGame.from_json(line)
>>> g.south, g.opening, g.number, g.to_json() == line
('builtin', ('231123', '321123'), 3, True)
"""

from __future__ import annotations

import dataclasses
import functools
import os
from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import Any, TextIO

from gyges.engine.builtin import EngineError, Limit
from gyges.engine.client import EngineFailure
from gyges.engine.openings import OPENING_SETS, openings
from gyges.engine.players import EngineSpec, Player, close_started, game_player, open_player
from gyges.engine.stats import Sprt, Tally
from gyges.formats.notation import NotationError, parse_setup, parse_turn
from gyges.formats.record import format_record, record_from_moves
from gyges.game.moves import Move, apply_move, legal_moves
from gyges.game.position import Position, PositionError
from gyges.game.rules import RuleSet, Side, closest_preset
from gyges.parallel import ResultsFile, RunEvent, RunSummary, run

__all__ = ["RESULTS", "SELF_PLAY_ENGINE", "MatchResult", "MatchSettings", "PlayedGame",
           "check_engines", "play_game", "play_match_game", "replay_moves",
           "run_match", "write_records"]

RESULTS = ("south", "north", "draw")
#: The engine of a self-play game (its record names the setups instead).
SELF_PLAY_ENGINE = "builtin"


@dataclasses.dataclass(frozen=True)
class PlayedGame:
    """A finished game: the engines as given (``south``, ``north``), the ``opening``
    (South's and North's setups), the ``result`` (``south``, ``north`` or ``draw``),
    why (``reason``) and the ``moves`` in pbmserv notation (a side blocked is passed
    over: the other side's moves follow each other); in a file, its ``number`` there
    (``game``), and for a self-play game its ``round`` (which makes its JSON name the
    setups as ``south`` and ``north``, the engine being :data:`SELF_PLAY_ENGINE`)."""

    south: str
    north: str
    opening: tuple[str, str]
    result: str
    reason: str
    moves: tuple[str, ...]
    number: int | None = None
    round: int | None = None

    def to_json(self) -> dict[str, Any]:
        head: dict[str, Any] = {} if self.number is None else {"game": self.number}
        if self.round is not None:
            head.update({"round": self.round, "south": self.opening[0],
                         "north": self.opening[1]})
        else:
            head.update({"south": self.south, "north": self.north,
                         "opening": list(self.opening)})
        return {**head, "result": self.result, "reason": self.reason,
                "moves": list(self.moves)}

    @classmethod
    def from_json(cls, data: Any) -> PlayedGame:
        """The inverse of :meth:`to_json` (other keys are left alone); EngineError says
        what is wrong."""
        try:
            number, round_ = data.get("game"), data.get("round")
            if round_ is not None:
                opening = (data["south"], data["north"])
                south = north = SELF_PLAY_ENGINE
            else:
                opening = tuple(data["opening"])
                south, north = str(data["south"]), str(data["north"])
            if not isinstance(data["moves"], (list, tuple)):
                raise TypeError
            game = cls(south, north, (str(opening[0]), str(opening[1])), str(data["result"]),
                       str(data["reason"]), tuple(data["moves"]), number, round_)
        except (KeyError, TypeError, IndexError, ValueError, AttributeError):
            raise EngineError("a game record is an object with south, north, opening "
                              "(two setups) or round, result, reason and moves") from None
        if game.result not in RESULTS or len(opening) != 2:
            raise EngineError(f"a game's result is one of {', '.join(RESULTS)}, and its "
                              "opening two setups")
        if not all(isinstance(m, str) for m in game.moves):
            raise EngineError("a game's moves are a list of moves")
        for whole in (number, round_):
            if whole is not None and not (type(whole) is int and whole >= 0):
                raise EngineError("a game's number and round are whole numbers, 0 or more")
        for setup in opening:
            if not isinstance(setup, str):
                raise EngineError("a game's opening is two setups")
            try:
                parse_setup(setup)
            except NotationError as e:
                raise EngineError(f"a game's opening: {e}") from None
        return game

    def winner(self) -> Side | None:
        return {"south": Side.SOUTH, "north": Side.NORTH}.get(self.result)

    def record_text(self, rules: RuleSet) -> str:
        """The game in the text format ``gyges replay`` reads: the setups, the turns
        (a side's consecutive moves joined by ``; ``), ``Resign`` for a side that lost
        by an illegal or missing answer; comment lines name the engines and the result."""
        position = Position.setup(*self.opening)
        history: list[Position] = []
        turns: list[list[Move]] = []
        for text in self.moves:
            move = parse_turn(text, position, rules, history)[0]
            if turns and turns[-1][0].side is move.side:
                turns[-1].append(move)
            else:
                turns.append([move])
            if move.is_win:
                break
            position = position.with_turn(move.side)
            history.append(position)
            position = apply_move(position, move)
        lost_by_answer = self.winner() is not None and not (self.moves and
                                                            self.moves[-1][-1] in "NS")
        record = record_from_moves(turns, *self.opening,
                                   result="Resign" if lost_by_answer else None)
        head = (f"# South: {self.south}\n# North: {self.north}\n"
                f"# Result: {self.result} ({self.reason})\n")
        return head + format_record(record)


def play_game(south: Player, north: Player, opening: tuple[str, str], rules: RuleSet,
              limit: Limit | None = None, max_plies: int = 200,
              names: tuple[str, str] = ("south", "north")) -> PlayedGame:
    """Play one game: ``south`` and ``north`` move in turn from the ``opening`` (South's
    and North's setups), each within ``limit`` (default one second a move), under
    ``rules``, the referee's (a UGI engine plays by its own rules: an answer these rules
    refuse loses). ``names`` are written in the record as the engines."""
    limit = limit or Limit(time=1.0)
    try:
        position = Position.setup(*opening)
    except PositionError as e:
        raise EngineError(f"opening {opening[0]} {opening[1]}: {e}") from None
    history: list[Position] = []
    played: list[str] = []

    def finish(result: str, reason: str) -> PlayedGame:
        return PlayedGame(names[0], names[1], opening, result, reason, tuple(played))

    while True:
        moves = legal_moves(position, rules, history)
        if not moves.moves:
            return finish("draw", "nobody can move")
        mover = moves.mover
        position = position.with_turn(mover)
        if len(played) >= max_plies:
            return finish("draw", f"max plies: {len(played)} moves played")
        player, who = (south, "south") if mover is Side.SOUTH else (north, "north")
        other = "north" if who == "south" else "south"
        try:
            answer = player.play(position, limit, tuple(history)).move
        except (EngineFailure, EngineError) as e:
            return finish(other, f"{who} failed: {e}")
        if answer is None:
            return finish(other, f"{who} gave no move in {position}")
        move = moves.find(answer)
        if move is None:
            return finish(other, f"{who} played an illegal move {_written(answer)} in "
                                 f"{position}")
        played.append(str(move))
        if move.is_win:
            return finish(who, "landing")
        history.append(position)
        position = apply_move(position, move)


def _written(move: Move) -> str:
    """A move as the engine gave it (slots), for a record's reason."""
    try:
        return str(move)
    except (ValueError, KeyError):
        return f"{move.start}-{move.end}"


def replay_moves(game: PlayedGame, rules: RuleSet) -> list[tuple[Position, Sequence[Position]]]:
    """The positions of a game before each move, with their histories (for fitting)."""
    position = Position.setup(*game.opening)
    history: list[Position] = []
    out: list[tuple[Position, Sequence[Position]]] = []
    for text in game.moves:
        try:
            move = parse_turn(text, position, rules, history)[0]
        except NotationError as e:
            raise EngineError(f"a game's move {text}: {e}") from None
        position = position.with_turn(move.side)
        out.append((position, tuple(history)))
        if move.is_win:
            break
        history.append(position)
        position = apply_move(position, move)
    return out


# -- a match: many games on the resumable run --------------------------------------------


@dataclasses.dataclass(frozen=True)
class MatchSettings:
    """What every game of a match shares, recorded in each game's line (``match``): the
    two ``engines`` (:class:`~gyges.engine.players.EngineSpec`, or their texts, read
    here), the referee's ``rules``, the ``limit`` a move, the ``openings`` (a set's name,
    :data:`~gyges.engine.openings.OPENING_SETS`, or what names a list of them, such as a
    file's path) and ``max_plies``. Game ``n`` (from 1) plays opening ``(n - 1) // 2``;
    in an odd-numbered game the first engine is South, in an even-numbered one North.

    >>> from gyges import PRESETS
    >>> m = MatchSettings(("builtin:depth=2", "builtin"), PRESETS["pbmserv"], Limit(time=0.5))
    >>> m.sides(1), m.first_side(2)
    ((EngineSpec('builtin:depth=2'), EngineSpec('builtin')), 'north')
    >>> m.sides(2)
    (EngineSpec('builtin'), EngineSpec('builtin:depth=2'))
    >>> m.params()["limit"], m.params()["engines"]
    ({'time': 0.5}, ['builtin:depth=2', 'builtin'])
    """

    engines: tuple[EngineSpec, EngineSpec]
    rules: RuleSet
    limit: Limit
    openings: str = "canonical"
    max_plies: int = 200

    def __post_init__(self) -> None:
        first, second = (e if isinstance(e, EngineSpec) else EngineSpec.parse(e)
                         for e in self.engines)
        object.__setattr__(self, "engines", (first, second))

    def sides(self, game: int) -> tuple[EngineSpec, EngineSpec]:
        """South's engine and North's in game ``game``."""
        first, second = self.engines
        return (first, second) if game % 2 else (second, first)

    def first_side(self, game: int) -> str:
        """The first engine's side in game ``game``: ``south`` or ``north``."""
        return "south" if game % 2 else "north"

    def first_points(self, number: int, game: PlayedGame) -> float:
        """The first engine's points in game ``number``: 1 a win, 0.5 a draw, 0 a loss."""
        if game.result == "draw":
            return 0.5
        return 1.0 if game.result == self.first_side(number) else 0.0

    def params(self) -> dict[str, Any]:
        limit = {k: v for k, v in dataclasses.asdict(self.limit).items() if v is not None}
        return {"engines": [str(e) for e in self.engines], "rules": self.rules.describe(),
                "limit": limit, "openings": self.openings, "max_plies": self.max_plies}


def check_engines(engines: Sequence[EngineSpec | str], rules: RuleSet) -> None:
    """Check two engines before a match: each text is read (:class:`EngineError` says what
    is wrong) and each UGI program is started, greeted and ended here
    (:class:`~gyges.engine.client.EngineFailure` when it cannot be)."""
    specs = [e if isinstance(e, EngineSpec) else EngineSpec.parse(e) for e in engines]
    for spec in specs:
        if spec.kind == "ugi":
            open_player(spec, rules).close()


def play_match_game(item: tuple[int, tuple[str, str]], *, settings: MatchSettings
                    ) -> dict[str, Any]:
    """Game ``n`` of a match from its opening (a task of :func:`run_match`, run in a
    worker): its record, a JSON object with the :class:`PlayedGame` (its number as
    ``game``) and the match's settings (``match``)."""
    number, opening = item
    south, north = settings.sides(number)
    players = [game_player(spec, settings.rules) for spec in (south, north)]
    try:
        game = play_game(players[0], players[1], opening, settings.rules, settings.limit,
                         settings.max_plies, names=(str(south), str(north)))
    finally:
        for spec, player in zip((south, north), players, strict=True):
            if spec.kind != "ugi":
                player.close()          # a UGI program stays up for the next game
    game = dataclasses.replace(game, number=number)
    return {**game.to_json(), "match": settings.params()}


def _describe(params: Any) -> str:
    """A match's settings in words, for a message (rules by their closest preset).

    >>> from gyges import PRESETS
    >>> m = MatchSettings(("builtin", "ugi:helios"), PRESETS["bga"], Limit(depth=2))
    >>> _describe(m.params())
    'builtin against ugi:helios, depth 2, canonical openings, max plies 200, rules bga'
    """
    try:
        first, second = params["engines"]
        limit = ", ".join(f"{k} {v}" for k, v in params["limit"].items())
        rules = RuleSet.from_json(dict(w.split("=", 1) for w in params["rules"].split()))
        name, changes = closest_preset(rules)
        rule_text = " ".join([name, *(f"{k}={v}" for k, v in changes.items())])
        return (f"{first} against {second}, {limit}, {params['openings']} openings, "
                f"max plies {params['max_plies']}, rules {rule_text}")
    except (KeyError, TypeError, ValueError, AttributeError):
        return repr(params)


def _game_number(record: Mapping[str, Any]) -> int:
    number = record["game"]
    if not (type(number) is int and number >= 1):
        raise ValueError("its game number is not a positive integer")
    return number


def _match_params(record: Mapping[str, Any]) -> Any:
    if not isinstance(record["match"], Mapping):
        raise ValueError("its match settings are not an object")
    return record["match"]


def results_file(path: str, settings: MatchSettings) -> ResultsFile:
    """A match's games file: one game a line (:class:`PlayedGame`, each line's value),
    keyed by its number, each made with the match's settings (another match's file is
    refused)."""
    return ResultsFile(path, "a game record", key=_game_number, check=PlayedGame.from_json,
                       params=settings.params(), params_of=_match_params,
                       describe=_describe)


class _Scores:
    """A match's games as they come (each parsed once): the first engine's tally kept up
    to date game by game, for the SPRT's stop after each game."""

    def __init__(self, settings: MatchSettings, games: int):
        self.settings = settings
        self.asked = games
        self.games: dict[int, PlayedGame] = {}
        self.points: dict[int, float] = {}
        self.tally = Tally(pairs=(0, 0, 0, 0, 0))

    def add(self, record: Mapping[str, Any]) -> None:
        game = PlayedGame.from_json(record)
        n = game.number
        if n is None or n > self.asked or n in self.games:
            return
        self.games[n] = game
        points = self.points[n] = self.settings.first_points(n, game)
        partner = self.points.get(n + 1 if n % 2 else n - 1)
        self.tally = self.tally.add_game(points, partner)


def _tally(settings: MatchSettings, games: Mapping[int, PlayedGame],
           side: str | None = None) -> Tally:
    """The first engine's tally over ``games`` (by number): pairs counted by their score,
    and its results as ``side`` alone (then games one by one) if given."""
    points = {n: settings.first_points(n, g) for n, g in games.items()
              if side is None or settings.first_side(n) == side}
    if side is not None:
        return Tally.of_games(points.values())
    return Tally.of_pairs(points)


@dataclasses.dataclass(frozen=True)
class MatchResult:
    """A match's outcome: its ``settings``, the ``games`` asked that are in the file (by
    number), the ``run`` (what this call did: interrupted, stopped by the SPRT...) and
    the ``sprt`` asked for."""

    settings: MatchSettings
    games: Mapping[int, PlayedGame]
    run: RunSummary
    sprt: Sprt | None = None

    def tally(self, side: str | None = None) -> Tally:
        """The first engine's tally: its games in pairs (one opening, the sides swapped),
        or its wins, draws and losses in the games it played as ``side`` (``south`` or
        ``north``), if given."""
        return _tally(self.settings, self.games, side)

    def decision(self) -> str | None:
        """The SPRT's verdict so far: ``H1``, ``H0`` or None."""
        return self.sprt.decide(self.tally()) if self.sprt is not None else None

    def text(self) -> str:
        """The summary ``gyges match`` prints: the engines, the first engine's tally
        (overall, its pairs, as South, as North), why games ended, and the SPRT's state."""
        first, second = self.settings.engines
        t = self.tally()
        lines = [f"{first} against {second}",
                 f"  {t.summary()}",
                 f"  {t.pairs_text()}",
                 f"  as South {_wdl(self.tally('south'))}, as North "
                 f"{_wdl(self.tally('north'))}"]
        reasons: dict[str, int] = {}
        for game in self.games.values():
            reason = _reason_kind(game.reason)
            reasons[reason] = reasons.get(reason, 0) + 1
        if reasons:
            lines.append("  games ended by " + ", ".join(
                f"{why} {n}" for why, n in sorted(reasons.items(), key=lambda x: -x[1])))
        if self.sprt is not None:
            s = self.sprt
            lower, upper = s.bounds()
            verdict = {"H1": f"H1 accepted: {first} is {s.elo1:+g} Elo or more",
                       "H0": f"H0 accepted: {first} is {s.elo0:+g} Elo or less",
                       None: "no decision yet"}[self.decision()]
            lines.append(f"  SPRT [{s.elo0:g}, {s.elo1:g}] (alpha {s.alpha:g}, beta "
                         f"{s.beta:g}, on pairs): LLR {s.llr(t):.2f} in [{lower:.2f}, "
                         f"{upper:.2f}]: {verdict}")
        return "\n".join(lines)


def _wdl(t: Tally) -> str:
    return f"+{t.wins} ={t.draws} -{t.losses}"


def _reason_kind(reason: str) -> str:
    """A game's reason without its particulars (``max plies``, ``north failed``...)."""
    head = reason.split(":", 1)[0]
    for word in (" played an illegal move", " gave no move"):
        if word in head:
            return head.split(word)[0] + word
    return head


def run_match(settings: MatchSettings, games: int, out: str, *,
              pairs: Sequence[tuple[str, str]] | None = None, sprt: Sprt | None = None,
              scheduler: str | None = None, jobs: int | None = None,
              progress: TextIO | None = None, log: str | None = None,
              watch: Callable[[RunEvent], None] | None = None) -> MatchResult:
    """Play the first ``games`` games of a match (an even number: ``games / 2`` openings,
    each twice with the sides swapped) into the games file ``out``, resumably: games
    already in the file are not played again, and the file must hold games of this
    match only (:class:`~gyges.parallel.ParametersError`). The openings are ``pairs``
    (South's setup, North's) when given, else the set ``settings.openings`` names, in
    its seeded order. ``sprt`` stops the match
    early once it decides. ``scheduler``/``jobs``: the local pool or Dask
    (:func:`gyges.parallel.run`); ``progress`` a stream for a bar, ``log`` a log file.

    Raises :class:`EngineError` for bad engine texts, a bad game count or too few
    openings, and :class:`~gyges.engine.client.EngineFailure` for a UGI program that
    cannot be started; all before any game. Ctrl-C ends the run with the games played so far kept
    (``result.run.interrupted``).
    """
    if games < 2 or games % 2:
        raise EngineError(f"{games} games: give an even number, at least 2 (each opening "
                          "is played twice, the sides swapped)")
    if pairs is None:
        if settings.openings not in OPENING_SETS:
            raise EngineError(f"{settings.openings!r} is not a set of openings: give the "
                              f"pairs, or one of {', '.join(OPENING_SETS)}")
        pairs = openings(settings.openings)
    if games // 2 > len(pairs):
        raise EngineError(f"{games} games need {games // 2} openings: "
                          f"{settings.openings} has {len(pairs)}")
    check_engines(settings.engines, settings.rules)
    items = [(n, pairs[(n - 1) // 2]) for n in range(1, games + 1)]

    scores = _Scores(settings, games)
    seeded = False

    def decided(records: Mapping[Hashable, Mapping[str, Any]]) -> bool:
        nonlocal seeded
        if not seeded:                  # before the first game: the file's games
            for record in records.values():
                scores.add(record)
            seeded = True
        return sprt is not None and sprt.decide(scores.tally) is not None

    def count(event: RunEvent) -> None:
        if event.record is not None:
            scores.add(event.record)
        if watch is not None:
            watch(event)

    try:
        summary = run(functools.partial(play_match_game, settings=settings), items,
                      key=lambda item: item[0], results=results_file(out, settings),
                      scheduler=scheduler, jobs=jobs, progress=progress, unit="games",
                      watch=count, stop=decided, log=log, describe=_log_text)
    finally:
        close_started()      # the programs of the games played in this process
    for record in summary.records.values():       # only those not counted yet are read
        if not isinstance(record, Mapping) or record.get("game") not in scores.games:
            scores.add(record)
    return MatchResult(settings, dict(sorted(scores.games.items())), summary, sprt)


def _log_text(record: Mapping[str, Any]) -> str:
    return (f"game {record['game']}: {record['result']} ({record['reason']}, "
            f"{len(record['moves'])} moves)")


def write_records(result: MatchResult, directory: str) -> list[str]:
    """Write each game of a match in the text format ``gyges replay`` reads, one file a
    game (``game-0001.txt``...) in ``directory`` (made if missing); the paths written."""
    os.makedirs(directory, exist_ok=True)
    paths = []
    for number, game in result.games.items():
        path = os.path.join(directory, f"game-{number:04d}.txt")
        with open(path, "w", encoding="utf-8") as f:
            f.write(game.record_text(result.settings.rules))
        paths.append(path)
    return paths
