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
draws and losses.
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
from gyges.formats.notation import NotationError, parse_turn
from gyges.formats.record import format_record, record_from_moves
from gyges.game.moves import Move, apply_move, legal_moves
from gyges.game.position import Position, PositionError
from gyges.game.rules import RuleSet, Side, closest_preset
from gyges.parallel import ResultsFile, RunEvent, RunSummary, run

__all__ = ["PEER_RULES", "RESULTS", "MatchResult", "MatchSettings", "PlayedGame",
           "check_engines", "play_game", "play_match_game", "replay_moves",
           "run_match", "write_records"]

RESULTS = ("south", "north", "draw")

#: The rules of the peer engine (Beck-Bjella's Helios) as overrides of the pbmserv preset:
#: a ring bounced off once a move, a move may end where it started, a side with no move
#: draws, no repetition law.
PEER_RULES = ("rebounce=once", "null-move=allowed", "blocked=draw", "repetition=allowed")


@dataclasses.dataclass(frozen=True)
class PlayedGame:
    """A finished game: the engines as given (``south``, ``north``), the ``opening``
    (South's and North's setups), the ``result`` (``south``, ``north`` or ``draw``),
    why (``reason``) and the ``moves`` in pbmserv notation (a side blocked is passed
    over: the other side's moves follow each other)."""

    south: str
    north: str
    opening: tuple[str, str]
    result: str
    reason: str
    moves: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        return {"south": self.south, "north": self.north, "opening": list(self.opening),
                "result": self.result, "reason": self.reason, "moves": list(self.moves)}

    @classmethod
    def from_json(cls, data: Any) -> PlayedGame:
        """The inverse of :meth:`to_json`; EngineError says what is missing."""
        try:
            opening = tuple(data["opening"])
            game = cls(str(data["south"]), str(data["north"]),
                       (str(opening[0]), str(opening[1])), str(data["result"]),
                       str(data["reason"]), tuple(str(m) for m in data["moves"]))
        except (KeyError, TypeError, IndexError, ValueError):
            raise EngineError("a game record is an object with south, north, opening "
                              "(two setups), result, reason and moves") from None
        if game.result not in RESULTS or len(opening) != 2:
            raise EngineError(f"a game's result is one of {', '.join(RESULTS)}, and its "
                              "opening two setups")
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
    two ``engines`` as given, the referee's ``rules``, the ``limit`` a move, the
    ``openings`` (a set's name, :data:`~gyges.engine.openings.OPENING_SETS`, or what
    names a list of them, such as a file's path) and ``max_plies``. Game ``n`` (from 1)
    plays opening ``(n - 1) // 2``; in an odd-numbered game the first engine is South,
    in an even-numbered one North.

    >>> from gyges import PRESETS
    >>> m = MatchSettings(("builtin:depth=2", "builtin"), PRESETS["pbmserv"], Limit(time=0.5))
    >>> m.sides(1), m.sides(2), m.first_side(2)
    (('builtin:depth=2', 'builtin'), ('builtin', 'builtin:depth=2'), 'north')
    >>> m.params()["limit"], m.params()["engines"]
    ({'time': 0.5}, ['builtin:depth=2', 'builtin'])
    """

    engines: tuple[str, str]
    rules: RuleSet
    limit: Limit
    openings: str = "canonical"
    max_plies: int = 200

    def sides(self, game: int) -> tuple[str, str]:
        """South's engine and North's in game ``game``."""
        first, second = self.engines
        return (first, second) if game % 2 else (second, first)

    def first_side(self, game: int) -> str:
        """The first engine's side in game ``game``: ``south`` or ``north``."""
        return "south" if game % 2 else "north"

    def params(self) -> dict[str, Any]:
        limit = {k: v for k, v in dataclasses.asdict(self.limit).items() if v is not None}
        return {"engines": list(self.engines), "rules": self.rules.describe(),
                "limit": limit, "openings": self.openings, "max_plies": self.max_plies}


def check_engines(engines: Sequence[str], rules: RuleSet) -> None:
    """Check two engine texts before a match: each is read (:class:`EngineError` says what
    is wrong) and each UGI program is started, greeted and ended here
    (:class:`~gyges.engine.client.EngineFailure` when it cannot be)."""
    specs = [EngineSpec.parse(text) for text in engines]
    for spec in specs:
        if spec.kind == "ugi":
            open_player(spec, rules).close()


def play_match_game(item: tuple[int, tuple[str, str]], *, settings: MatchSettings
                    ) -> dict[str, Any]:
    """Game ``n`` of a match from its opening (a task of :func:`run_match`, run in a
    worker): its record, a JSON object with the game's number (``game``), the
    :class:`PlayedGame` fields and the match's settings (``match``)."""
    number, opening = item
    south, north = settings.sides(number)
    players = [game_player(text, settings.rules) for text in (south, north)]
    try:
        game = play_game(players[0], players[1], opening, settings.rules, settings.limit,
                         settings.max_plies, names=(south, north))
    finally:
        for text, player in zip((south, north), players, strict=True):
            if EngineSpec.parse(text).kind != "ugi":
                player.close()          # a UGI program stays up for the next game
    return {"game": number, **game.to_json(), "match": settings.params()}


def _check_record(record: Mapping[str, Any]) -> None:
    PlayedGame.from_json(record)
    if not isinstance(record["game"], int) or record["game"] < 1:
        raise ValueError("its game number is not a positive integer")
    if not isinstance(record["match"], Mapping):
        raise ValueError("its match settings are not an object")


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


def results_file(path: str, settings: MatchSettings) -> ResultsFile:
    """A match's games file: one game a line, keyed by its number, each made with the
    match's settings (another match's file is refused)."""
    return ResultsFile(path, "a game record", key=lambda r: r["game"], check=_check_record,
                       params=settings.params(), params_of=lambda r: r["match"],
                       describe=_describe)


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
        """The first engine's wins, draws and losses (in the games it played as ``side``,
        ``south`` or ``north``, if given)."""
        return _tally(self.settings, self.games.items(), side)

    def decision(self) -> str | None:
        """The SPRT's verdict so far: ``H1``, ``H0`` or None."""
        return self.sprt.decide(self.tally()) if self.sprt is not None else None

    def text(self) -> str:
        """The summary ``gyges match`` prints: the engines, the first engine's tally
        (overall, as South, as North), why games ended, and the SPRT's state."""
        first, second = self.settings.engines
        t = self.tally()
        lines = [f"{first} against {second}",
                 f"  {t.summary()}",
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
                         f"{s.beta:g}): LLR {s.llr(t):.2f} in [{lower:.2f}, {upper:.2f}]: "
                         f"{verdict}")
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


def _tally(settings: MatchSettings, games: Sequence[tuple[int, PlayedGame]] | Any,
           side: str | None = None) -> Tally:
    wins = draws = losses = 0
    for number, game in games:
        mine = settings.first_side(number)
        if side is not None and mine != side:
            continue
        if game.result == "draw":
            draws += 1
        elif game.result == mine:
            wins += 1
        else:
            losses += 1
    return Tally(wins, draws, losses)


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

    def asked(records: Mapping[Hashable, Mapping[str, Any]]) -> list[tuple[int, PlayedGame]]:
        return [(n, PlayedGame.from_json(r)) for n, r in records.items()
                if isinstance(n, int) and n <= games]

    def decided(records: Mapping[Hashable, Mapping[str, Any]]) -> bool:
        return sprt is not None and sprt.decide(_tally(settings, asked(records))) is not None

    try:
        summary = run(functools.partial(play_match_game, settings=settings), items,
                      key=lambda item: item[0], results=results_file(out, settings),
                      scheduler=scheduler, jobs=jobs, progress=progress, unit="games",
                      watch=watch, stop=decided if sprt else None, log=log, describe=_log_text)
    finally:
        close_started()      # the programs of the games played in this process
    return MatchResult(settings, dict(sorted(asked(summary.records))), summary, sprt)


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
