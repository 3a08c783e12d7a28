"""A whole match between two engines on the resumable run (``gyges match``); each game
is played and recorded by :mod:`gyges.engine.refereed`.

A match (:func:`run_match`) plays game after game from a list of openings, each opening
twice with the engines' sides swapped, into a results file (one JSON line a game), on the
local pool or Dask, resumably; its :class:`MatchResult` counts the first engine's wins,
draws and losses, and its pairs of games (one opening, the sides swapped) by their score,
which the statistics count (:mod:`gyges.engine.stats`).
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import os
from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import Any, TextIO

from gyges.engine.builtin import EngineError, Limit
from gyges.engine.identity import UNRECORDED, EngineIdentity, engine_identity
from gyges.engine.network import LINEAR
from gyges.engine.openings import OPENING_SETS, openings
from gyges.engine.players import EngineSpec, close_started, game_player, open_player
from gyges.engine.refereed import PlayedGame, play_game
from gyges.engine.scored import ScoredPlayer
from gyges.engine.stats import Sprt, Tally
from gyges.game.rules import RuleSet, closest_preset
from gyges.parallel import ResultsFile, RunEvent, RunSummary, run_tasks

__all__ = ["MatchResult", "MatchSettings", "check_engines", "engine_files", "match_params",
           "match_results_file", "play_match_game", "run_match", "write_records"]


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


def play_match_game(item: tuple[int, tuple[str, str]], *, settings: MatchSettings,
                    made_by: EngineIdentity | None = None) -> dict[str, Any]:
    """Game ``n`` of a match from its opening (a task of :func:`run_match`, run in a
    worker): its record, a JSON object with the :class:`PlayedGame` (its number as
    ``game``), the match's settings (``match``), the gyges that refereed and played it
    (``engine``, :class:`~gyges.engine.identity.EngineIdentity`), a digest of each
    weights or network file the engines name (``files``), and what
    :mod:`gyges.engine.calibration` measures: the score of each move by a builtin engine
    (``scores``, None for a UGI program's move, :class:`~gyges.engine.scored.ScoredPlayer`)
    and the scale each builtin engine prints its probabilities on, by its text
    (``calibration``). ``made_by``: the engine the
    run asked for; a worker whose engine is another refuses to play
    (:class:`EngineError`)."""
    here = engine_identity()
    if made_by is not None and made_by != here:
        raise EngineError(f"this worker's engine is not the run's: {here}, not {made_by}")
    number, opening = item
    south, north = settings.sides(number)
    players = [game_player(spec, settings.rules) for spec in (south, north)]
    notes: list[int | None] = []
    scored = [ScoredPlayer(player, notes, keep=spec.kind != "ugi")
              for spec, player in zip((south, north), players, strict=True)]
    try:
        game = play_game(scored[0], scored[1], opening, settings.rules, settings.limit,
                         settings.max_plies, names=(str(south), str(north)))
    finally:
        for spec, player in zip((south, north), players, strict=True):
            if spec.kind != "ugi":
                player.close()          # a UGI program stays up for the next game
    game = dataclasses.replace(game, number=number)
    scales = {str(spec): s.scale for spec, s in zip((south, north), scored, strict=True)
              if s.scale is not None}
    return {**game.to_json(), "match": settings.params(),
            "engine": (made_by or here).to_json(), "files": engine_files(settings),
            "scores": notes[:len(game.moves)], "calibration": scales}


def engine_files(settings: MatchSettings) -> dict[str, str]:
    """A digest (16 hex digits of SHA-256) of each weights or network file the match's
    builtin engines name, by its path as given: a match resumed after such a file
    changed is refused. A file that cannot be read is :class:`EngineError`.

    >>> from gyges import PRESETS
    >>> engine_files(MatchSettings(("builtin", "builtin:network=linear"), PRESETS["pbmserv"],
    ...                            Limit(depth=1)))
    {}
    """
    files = {}
    for spec in settings.engines:
        for key, value in spec.options:
            if key == "network" and value == LINEAR:
                continue                         # (a word, not a file)
            if key in ("weights", "network") and value not in files:
                try:
                    with open(value, "rb") as f:
                        files[value] = hashlib.sha256(f.read()).hexdigest()[:16]
                except OSError as e:
                    raise EngineError(f"{spec}: {key} file {value}: {e.strerror}") from None
    return files


def _describe(params: Any) -> str:
    """A match's settings in words, for a message, those given (rules by their closest
    preset; the engine and the weights' and networks' files when given).

    >>> from gyges import PRESETS
    >>> m = MatchSettings(("builtin", "ugi:helios"), PRESETS["bga"], Limit(depth=2))
    >>> _describe(m.params())
    'builtin against ugi:helios, depth 2, canonical openings, max plies 200, rules bga'
    >>> _describe({"limit": {"time": 0.5}, "engine": UNRECORDED})
    '0.5 s, an engine that did not record itself (a file from before files named it)'
    """
    if not isinstance(params, Mapping):
        return repr(params)

    def rules(text: str) -> str:
        name, changes = closest_preset(RuleSet.from_json(dict(w.split("=", 1)
                                                              for w in text.split())))
        return "rules " + " ".join([name, *(f"{k}={v}" for k, v in changes.items())])

    say: dict[str, Callable[[Any], str]] = {
        "engines": lambda v: f"{v[0]} against {v[1]}",
        "limit": lambda v: ", ".join(f"{k} {x}" if k != "time" else f"{x:g} s"
                                     for k, x in v.items()) if v else "no limit",
        "openings": lambda v: f"{v} openings", "max_plies": lambda v: f"max plies {v}",
        "rules": rules, "engine": str,
        "files": lambda v: ("weights and networks " + ", ".join(
            f"{k} (digest {d})" for k, d in v.items())) if v else "no weights or network file"}
    try:
        return ", ".join(f(params[k]) for k, f in say.items() if k in params) or repr(params)
    except (KeyError, TypeError, ValueError, AttributeError, IndexError):
        return repr(params)


def _game_number(record: Mapping[str, Any]) -> int:
    number = record["game"]
    if not (type(number) is int and number >= 1):
        raise ValueError("its game number is not a positive integer")
    return number


def _match_params(record: Mapping[str, Any]) -> Any:
    """A record's match settings, with the engine that made it (:data:`UNRECORDED` for a
    game from before records named it) and the files' digests."""
    if not isinstance(record["match"], Mapping):
        raise ValueError("its match settings are not an object")
    engine = (EngineIdentity.from_json(record["engine"]) if "engine" in record
              else UNRECORDED)
    files = record.get("files", {})
    if not isinstance(files, Mapping):
        raise ValueError("its files are not an object")
    return {**record["match"], "engine": engine, "files": dict(files)}


def match_params(settings: MatchSettings, engine: EngineIdentity | None = None
                 ) -> dict[str, Any]:
    """What every game of a match's file must share: the settings, the engine
    (default: this process's) and the digests of the files its engines name."""
    return {**settings.params(), "engine": engine or engine_identity(),
            "files": engine_files(settings)}


def match_results_file(path: str, settings: MatchSettings | None = None,
                 engine: EngineIdentity | None = None) -> ResultsFile:
    """A match's games file: one game a line (:class:`PlayedGame`, each line's value),
    keyed by its number, each made with the match's settings by this engine (``engine``,
    default this process's) with the same weights and network files: another match's
    file, or this match's played by another engine, is refused, saying what differs.
    Without ``settings`` (to read a file) every game must share the first's."""
    return ResultsFile(path, "a game record", key=_game_number, check=PlayedGame.from_json,
                       params=None if settings is None else match_params(settings, engine),
                       params_of=_match_params, describe=_describe, differences=True)


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
            verdict = {"H1": f"H1 accepted: the games favour {s.elo1:+g} Elo for {first} "
                             f"over {s.elo0:+g} (not a bound: the interval above is)",
                       "H0": f"H0 accepted: the games favour {s.elo0:+g} Elo for {first} "
                             f"over {s.elo1:+g} (not a bound: the interval above is)",
                       None: "no decision yet"}[self.decision()]
            if self.decision() is None and t.games < s.min_games:
                verdict += f" (it decides from {s.min_games} games on)"
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
    (:func:`gyges.parallel.run_tasks`); ``progress`` a stream for a bar, ``log`` a log file.

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

    identity = engine_identity()
    try:
        summary = run_tasks(functools.partial(play_match_game, settings=settings,
                                              made_by=identity), items,
                            key=lambda item: item[0],
                            results=match_results_file(out, settings, identity),
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
