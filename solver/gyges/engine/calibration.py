"""How true are the engine's win probabilities? :func:`calibration_report` measures them
on the self-play games of ``gyges engine-data`` (:mod:`gyges.engine.dataset`), or on the
moves of one builtin engine in the games of a match (``gyges match``, against another
program: :func:`read_scored_games`).

Every searched move of a game recorded its score from the mover's side; an evaluation's
win probability (:attr:`gyges.engine.score.Score.win_probability`, the probability
``analyse``, ``ugi`` and ``review`` print) is set against the game's result for that side
(1 a win, 0 a loss, 1/2 a draw). Proven scores (a landing within the proof horizon) and the
random opening moves (no score) are counted apart and left out. The games are split by
number: every ``held_out_every``-th game is held out, the others are the fit games, on
which a recalibration ``p' = logistic(a * logit(p) + b)`` is fitted (a = 1, b = 0: the
probabilities are right as they are), and one scale alone (b = 0, the same for both
sides: what :data:`gyges.engine.score.CALIBRATION` is; refitted on printed
probabilities it is 1 when that constant is right); the held-out games measure the
printed probability, the one before calibration, and the recalibrated and rescaled ones
by log-loss and Brier score, beside the base rate (one constant
probability, the fit games' mean result) as the null to beat, and in bins of the
predicted probability (the reliability diagram, :func:`reliability_svg`).

Positions of one game share its result, so a bin's interval is a cluster interval (the
games are the independent units), not a binomial one.

>>> games = [{"game": n, "rules": "pbmserv", "opening": ["123123", "321321"],
...           "moves": [], "scores": [], "result": "south"} for n in range(3)]
>>> calibration_report(games).held_out.positions
0
"""

from __future__ import annotations

import dataclasses
import gzip
import json
import math
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any

from gyges.engine.identity import UNRECORDED, EngineIdentity
from gyges.engine.players import EngineSpec
from gyges.engine.score import CALIBRATION, Score
from gyges.formats.notation import NotationError, parse_turn
from gyges.game.moves import Move, apply_move
from gyges.game.position import Position
from gyges.game.rules import PRESETS, RuleSet, Side

__all__ = ["BINS", "PROGRESS_EVERY", "Bin", "Calibration", "CalibrationReport", "Observation",
           "ObservedMoves", "ProbabilityFit", "RecordedMove", "calibration_report",
           "fit_calibration", "match_scored_game", "observations", "printed_scale",
           "read_dataset_games", "read_game_files", "read_scored_games", "recorded_moves",
           "reliability_svg", "score_probabilities"]

#: The reliability diagram's bins: equal widths of the predicted probability.
BINS = 10
#: How often (in games read) :func:`observations` reports its progress.
PROGRESS_EVERY = 1000
_EPS = 1e-6


@dataclasses.dataclass(frozen=True)
class Observation:
    """One searched move: the printed ``probability`` that the mover wins, the ``outcome``
    for the mover (1, 0, 1/2 a draw) and the ``game`` it belongs to."""

    game: int
    probability: float
    outcome: float


def _json_lines(path: str) -> Iterator[tuple[int, Any]]:
    """Each line of a JSON Lines file (gzipped when the name ends in ``.gz``) with its
    number, blank lines left out; ValueError naming the file and line of one that is not
    JSON."""
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                yield n, json.loads(line)
            except json.JSONDecodeError as e:
                raise ValueError(f"{path}:{n}: not a JSON line ({e.msg})") from None


def _is_scored_game(record: Any) -> bool:
    return isinstance(record, dict) and _SCORED_KEYS <= record.keys()


_SCORED_KEYS = {"game", "moves", "scores", "result", "rules", "opening"}


def read_dataset_games(path: str) -> Iterator[dict[str, Any]]:
    """The records of a games file of ``gyges engine-data`` (JSON Lines, gzipped when the
    name ends in ``.gz``). ValueError naming the file and line for a line that is not a
    game record."""
    for n, record in _json_lines(path):
        if not _is_scored_game(record):
            raise ValueError(f"{path}:{n}: not a game of gyges engine-data (a JSON "
                             "object with game, rules, opening, moves, scores, result)")
        yield record


def match_scored_game(record: Mapping[str, Any], engine: str | None = None
                      ) -> dict[str, Any]:
    """A game of a match's file (``gyges match``) as a record :func:`observations` reads:
    the moves of ``engine`` (one of the match's builtin engines, by its text; default the
    match's only builtin one) with their scores and the scale it printed them on, its
    ``sides`` (the moves of the other engine are left out), and the match's rules.
    ValueError says what is wrong: a game from before match files noted scores, an
    engine that is not the match's, or two builtin engines and none named.

    >>> line = {"game": 1, "south": "builtin", "north": "ugi:helios",
    ...         "opening": ["123123", "321321"], "result": "south", "reason": "landing",
    ...         "moves": [], "scores": [], "calibration": {"builtin": 0.9},
    ...         "match": {"engines": ["builtin", "ugi:helios"], "rules": "taboo=entry"}}
    >>> g = match_scored_game(line)
    >>> g["sides"], g["calibration"], g["rules"]
    (['south'], 0.9, 'taboo=entry')
    >>> match_scored_game(line, "ugi:helios")
    Traceback (most recent call last):
    ...
    ValueError: game 1: ugi:helios is a UGI program: its scores are its own, not recorded
    """
    number = record.get("game")
    if "scores" not in record:
        raise ValueError(f"game {number}: a match's game from before its file noted the "
                         "scores: play the match again to measure them")
    engines = [str(e) for e in record["match"]["engines"]]
    builtin = sorted({e for e in engines if EngineSpec.parse(e).kind != "ugi"})
    if engine is None:
        if len(builtin) != 1:
            raise ValueError(f"game {number}: the match's builtin engines are "
                             f"{' and '.join(builtin) or 'none'}: name the one to measure")
        engine = builtin[0]
    if engine not in engines:
        raise ValueError(f"game {number}: {engine} is not an engine of the match: give "
                         f"{' or '.join(engines)}")
    if engine not in builtin:
        raise ValueError(f"game {number}: {engine} is a UGI program: its scores are its "
                         "own, not recorded")
    return {"game": number, "rules": record["match"]["rules"],
            "opening": record["opening"], "moves": record["moves"],
            "scores": record["scores"], "result": record["result"],
            "sides": [side for side in ("south", "north") if record[side] == engine],
            "calibration": record["calibration"].get(engine, CALIBRATION),
            **({"engine": record["engine"]} if "engine" in record else {})}


def read_scored_games(path: str, engine: str | None = None) -> Iterator[dict[str, Any]]:
    """The scored games of a file of ``gyges engine-data`` (as :func:`read_dataset_games`) or of
    ``gyges match`` (the moves of one of its engines, :func:`match_scored_game`).
    ValueError naming the file and line for a line that is neither."""
    for n, record in _json_lines(path):
        try:
            if isinstance(record, dict) and "match" in record:
                yield match_scored_game(record, engine)
                continue
        except (KeyError, TypeError, AttributeError):
            raise ValueError(f"{path}:{n}: not a game of gyges match (its engines, rules, "
                             "moves, scores and calibration)") from None
        except ValueError as e:
            raise ValueError(f"{path}:{n}: {e}") from None
        if not _is_scored_game(record):
            raise ValueError(f"{path}:{n}: not a game of gyges engine-data or gyges "
                             "match")
        if engine is not None:
            raise ValueError(f"{path}:{n}: a game of gyges engine-data, whose engine "
                             "plays both sides: name no engine")
        yield record


def read_game_files(paths: Iterable[str]) -> Iterator[dict[str, Any]]:
    """The records of several games files of ``gyges engine-data`` in turn (the parts of
    one run, whose games are numbered on). ValueError naming the file of a game whose
    number an earlier record already had."""
    seen: dict[int, str] = {}
    for path in paths:
        for record in read_dataset_games(path):
            game = record["game"]
            if game in seen:
                raise ValueError(f"{path}: game {game} again (it is also in {seen[game]}): "
                                 "give the files of one run, each once")
            seen[game] = path
            yield record


@dataclasses.dataclass(frozen=True)
class RecordedMove:
    """A move of a game record: the ``position`` it was made from (its side to move the
    mover), the positions ``before`` it, the ``move`` and its recorded ``score`` (the
    compiled integer form, None for a random move)."""

    position: Position
    before: tuple[Position, ...]
    move: Move
    score: int | None


def recorded_moves(record: Mapping[str, Any]) -> Iterator[RecordedMove]:
    """The moves of a game record of ``gyges engine-data``, replayed under its rules.
    ValueError for a move that cannot be played."""
    rules = _record_rules(record["rules"])
    position = Position.setup(*record["opening"])
    history: list[Position] = []
    for text, score in zip(record["moves"], record["scores"], strict=False):
        try:
            move = parse_turn(text, position, rules, history)[0]
        except NotationError as e:
            raise ValueError(f"game {record['game']}: move {text}: {e}") from None
        position = position.with_turn(move.side)
        yield RecordedMove(position, tuple(history), move, score)
        if move.is_win:
            return
        history.append(position)
        position = apply_move(position, move)


def _record_rules(text: str) -> RuleSet:
    """A record's rules: a preset's name, or every option (:meth:`RuleSet.describe`)."""
    if text in PRESETS:
        return PRESETS[text]
    return RuleSet.from_json(dict(word.split("=", 1) for word in text.split()))


def score_probabilities(record: Mapping[str, Any]) -> Iterator[tuple[Side, int | None]]:
    """Each move of a game record: the side that made it and its recorded score (the
    compiled integer form, None for a random move). ValueError for a move that cannot be
    played."""
    for m in recorded_moves(record):
        yield m.move.side, m.score


@dataclasses.dataclass(frozen=True)
class ObservedMoves:
    """What :func:`observations` read: the ``evaluations``, how many scores were
    ``proven`` (and in how many the side proven to win did not: ``proven_missed``), how
    many moves were ``unscored`` (random), the ``engines`` that played, and the
    ``scale`` the probabilities are printed on (:meth:`Score.probability`)."""

    evaluations: list[Observation]
    proven: int
    proven_missed: int
    unscored: int
    engines: tuple[EngineIdentity, ...] = ()
    scale: float = CALIBRATION


def printed_scale(record: Mapping[str, Any]) -> float:
    """The scale a game's win probabilities were printed on: the one it records (a
    learned evaluation's, :attr:`gyges.engine.builtin.Options.calibration`), or the
    linear evaluation's (:data:`gyges.engine.score.CALIBRATION`)."""
    return float(record.get("calibration", CALIBRATION))


def observations(records: Iterable[Mapping[str, Any]],
                 progress: Callable[[int], None] | None = None,
                 scale: float | None = None) -> ObservedMoves:
    """The evaluated moves of ``records`` as observations (and the engines that played
    them, each once, in the order met), with the proven scores (and
    in how many of them the side proven to win did not win: a proof is of a forced
    landing, which a later search may miss) and the unscored moves counted. The
    probability is the printed one (:func:`printed_scale`; ValueError for games printed
    on two scales), or on ``scale`` when it is given (to measure another scale on the
    same games). ``progress`` hears the number of games read every
    :data:`PROGRESS_EVERY` games."""
    out: list[Observation] = []
    proven = wrong = unscored = 0
    engines: dict[EngineIdentity, None] = {}
    seen: float | None = None
    for n, record in enumerate(records, 1):
        if progress is not None and n % PROGRESS_EVERY == 0:
            progress(n)
        engines.setdefault(EngineIdentity.from_json(record["engine"]) if "engine" in record
                           else UNRECORDED, None)
        recorded = printed_scale(record)
        if seen is None:
            seen = recorded
        elif recorded != seen and scale is None:
            raise ValueError(f"game {record['game']} was printed on the scale {recorded:g}, "
                             f"the games before it on {seen:g}: give the games of one "
                             "evaluation (or a scale to measure them on)")
        used = recorded if scale is None else scale
        result = record["result"]
        sides = record.get("sides")
        for side, value in score_probabilities(record):
            if sides is not None and side.name.lower() not in sides:
                continue                     # the other engine's move (a match's game)
            if value is None:
                unscored += 1
                continue
            outcome = 0.5 if result not in ("south", "north") else \
                float(result == side.name.lower())
            score = Score.from_int(value)
            if score.is_proven:
                proven += 1
                wrong += score.win_probability != outcome
                continue
            out.append(Observation(int(record["game"]), score.probability(used), outcome))
    return ObservedMoves(out, proven, wrong, unscored, tuple(engines),
                         scale if scale is not None else
                         seen if seen is not None else CALIBRATION)


def _logit(p: float) -> float:
    p = min(max(p, _EPS), 1 - _EPS)
    return math.log(p / (1 - p))


def _logistic(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-x)) if x >= 0 else math.exp(x) / (1.0 + math.exp(x))


@dataclasses.dataclass(frozen=True)
class Calibration:
    """A recalibration of probabilities: ``p' = logistic(scale * logit(p) + offset)``."""

    scale: float = 1.0
    offset: float = 0.0

    def __call__(self, p: float) -> float:
        return _logistic(self.scale * _logit(p) + self.offset)


def fit_calibration(obs: Sequence[Observation], iterations: int = 50,
                    scale_only: bool = False) -> Calibration:
    """The :class:`Calibration` of least log-loss on ``obs`` (Newton's method on the two
    parameters; a draw's outcome 1/2 counts as half a win and half a loss). With
    ``scale_only`` the offset stays 0: the one scale that suits both sides (each
    observation counted as well from the other side, ``1 - p`` against ``1 - outcome``),
    as :data:`gyges.engine.score.CALIBRATION` needs.

    >>> obs = [Observation(0, 0.7, 1.0), Observation(1, 0.7, 0.0), Observation(2, 0.3, 0.0)]
    >>> fit_calibration(obs, scale_only=True).offset
    0.0
    """
    if scale_only:
        both = [*obs, *(Observation(o.game, 1 - o.probability, 1 - o.outcome) for o in obs)]
        xs = [_logit(o.probability) for o in both]
        a = 1.0
        for _ in range(iterations):
            g = h = 0.0
            for x, o in zip(xs, both, strict=True):
                q = _logistic(a * x)
                g += (q - o.outcome) * x
                h += q * (1 - q) * x * x
            if h <= 0:
                break
            a -= g / h
            if abs(g / h) < 1e-9:
                break
        return Calibration(a, 0.0)
    a, b = 1.0, 0.0
    xs = [_logit(o.probability) for o in obs]
    for _ in range(iterations):
        ga = gb = haa = hab = hbb = 0.0
        for x, o in zip(xs, obs, strict=True):
            q = _logistic(a * x + b)
            r = q - o.outcome
            w = q * (1 - q)
            ga += r * x
            gb += r
            haa += w * x * x
            hab += w * x
            hbb += w
        det = haa * hbb - hab * hab
        if det <= 0:
            break
        da = (hbb * ga - hab * gb) / det
        db = (haa * gb - hab * ga) / det
        a, b = a - da, b - db
        if abs(da) < 1e-9 and abs(db) < 1e-9:
            break
    return Calibration(a, b)


@dataclasses.dataclass(frozen=True)
class ProbabilityFit:
    """How well probabilities fit outcomes: ``positions`` of ``games``, mean
    ``log_loss`` (natural log) and ``brier`` score, and the ``mean_outcome``."""

    positions: int
    games: int
    log_loss: float
    brier: float
    mean_outcome: float

    @classmethod
    def of(cls, obs: Sequence[Observation],
           predict: Callable[[float], float] | None = None) -> ProbabilityFit:
        """How well ``predict`` of each printed probability (None: the printed
        probability itself) fits the outcomes of ``obs``."""
        predict = predict or (lambda p: p)
        n = len(obs)
        if not n:
            return cls(0, 0, math.nan, math.nan, math.nan)
        ll = br = y = 0.0
        for o in obs:
            p = min(max(predict(o.probability), _EPS), 1 - _EPS)
            ll -= o.outcome * math.log(p) + (1 - o.outcome) * math.log(1 - p)
            br += (p - o.outcome) ** 2
            y += o.outcome
        return cls(n, len({o.game for o in obs}), ll / n, br / n, y / n)


@dataclasses.dataclass(frozen=True)
class Bin:
    """A bin of the reliability diagram: predictions in [``low``, ``high``), their mean
    ``predicted``, the ``observed`` mean outcome and its 95% interval (clustered by game)."""

    low: float
    high: float
    positions: int
    predicted: float
    observed: float
    interval: tuple[float, float]


def _bins(obs: Sequence[Observation], predict: Callable[[float], float], bins: int
          ) -> list[Bin]:
    groups: list[list[tuple[float, Observation]]] = [[] for _ in range(bins)]
    for o in obs:
        p = predict(o.probability)
        groups[min(int(p * bins), bins - 1)].append((p, o))
    out = []
    for i, g in enumerate(groups):
        if not g:
            continue
        n = len(g)
        mean_p = sum(p for p, _ in g) / n
        mean_y = sum(o.outcome for _, o in g) / n
        by_game: dict[int, float] = {}
        for _, o in g:
            by_game[o.game] = by_game.get(o.game, 0.0) + (o.outcome - mean_y)
        half = 1.96 * math.sqrt(sum(v * v for v in by_game.values())) / n
        out.append(Bin(i / bins, (i + 1) / bins, n, mean_p, mean_y,
                       (max(0.0, mean_y - half), min(1.0, mean_y + half))))
    return out


@dataclasses.dataclass(frozen=True)
class CalibrationReport:
    """The measure of a games file (see the module): the fit and held-out games' fits of
    the printed probability, the base rate's and the recalibrated probability's on the
    held-out games, the fitted :class:`Calibration`, and the held-out reliability bins of
    the printed and the recalibrated probabilities."""

    held_out_every: int
    fit: ProbabilityFit
    held_out: ProbabilityFit
    base_rate: ProbabilityFit
    calibration: Calibration
    calibrated: ProbabilityFit
    scale_only: Calibration
    scale_only_fit: ProbabilityFit
    uncalibrated: ProbabilityFit
    bins: tuple[Bin, ...]
    calibrated_bins: tuple[Bin, ...]
    proven: int
    proven_missed: int
    unscored: int
    engines: tuple[EngineIdentity, ...] = ()
    printed_scale: float = CALIBRATION

    def text(self) -> str:
        """The report as ``gyges engine-calibration`` prints it (with every game held
        out, ``held_out_every`` 1, nothing is fitted: the printed probability is
        measured against a constant 1/2)."""
        c = self.calibration
        fitted = self.held_out_every > 1
        moves = self.fit.positions + self.held_out.positions
        lines = [
            f"the printed win probability against the game's result: {moves:,} "
            f"evaluated moves of {self.fit.games + self.held_out.games:,} games "
            + (f"(every {_ordinal(self.held_out_every)} game held out)" if fitted else
               "(every game measured, nothing fitted)"),
            *(f"  played by {e}" for e in self.engines),
            f"  left out: {self.proven:,} proven scores ({self.proven_missed} not converted: "
            f"the side proven to win did not), {self.unscored:,} random moves",
            "",
            f"{'':34}{'positions':>10}{'log-loss':>10}{'Brier':>8}",
            *([_fit_line("fit games, as printed", self.fit)] if fitted else []),
            _fit_line("held-out games, as printed", self.held_out),
            _fit_line("held-out, base rate " + f"{self.fit.mean_outcome:.3f}"
                      if fitted else "held-out, constant 1/2", self.base_rate),
            _fit_line("held-out, before calibration", self.uncalibrated),
            *([_fit_line("held-out, recalibrated", self.calibrated),
               _fit_line("held-out, rescaled", self.scale_only_fit)] if fitted else []),
            "",
            f"printed: p = logistic({self.printed_scale:g} * v / 100) for an evaluation v (before "
            "calibration: logistic(v / 100))",
            *([f"recalibration fitted on the fit games: p' = logistic({c.scale:.3f} * "
               f"logit(p) {'+' if c.offset >= 0 else '-'} {abs(c.offset):.3f})",
               f"rescaled (one scale for both sides, fitted on the fit games): "
               f"p' = logistic({self.scale_only.scale:.3f} * logit(p))"] if fitted else []),
            "",
            "reliability on the held-out games (observed: mean result, 95% interval by game)",
            f"{'predicted':>12}{'positions':>10}{'mean':>7}{'observed':>10}{'interval':>16}",
        ]
        for b in self.bins:
            lines.append(f"{b.low:5.1f}-{b.high:<5.1f} {b.positions:>10,}{b.predicted:>7.3f}"
                         f"{b.observed:>10.3f}   [{b.interval[0]:.3f}, {b.interval[1]:.3f}]")
        return "\n".join(lines) + "\n"


def _ordinal(n: int) -> str:
    """``5th``, ``2nd``, ``23rd``, ``11th``..."""
    tail = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{tail}"


def _fit_line(name: str, f: ProbabilityFit) -> str:
    return f"  {name:<32}{f.positions:>10,}{f.log_loss:>10.4f}{f.brier:>8.4f}"


def calibration_report(records: Iterable[Mapping[str, Any]], held_out_every: int = 5,
                       bins: int = BINS, progress: Callable[[int], None] | None = None,
                       scale: float | None = None) -> CalibrationReport:
    """Measure the printed probabilities of ``records`` (games of ``gyges engine-data``;
    ``progress`` and ``scale``: see :func:`observations`)."""
    if held_out_every < 1:
        raise ValueError(f"held_out_every is at least 1, not {held_out_every}")
    counts = observations(records, progress, scale)
    fit_obs = [o for o in counts.evaluations if o.game % held_out_every]
    held = [o for o in counts.evaluations if not o.game % held_out_every]
    cal = fit_calibration(fit_obs) if fit_obs else Calibration()
    scaled = fit_calibration(fit_obs, scale_only=True) if fit_obs else Calibration()
    rate = ProbabilityFit.of(fit_obs).mean_outcome if fit_obs else 0.5
    return CalibrationReport(
        held_out_every, ProbabilityFit.of(fit_obs), ProbabilityFit.of(held),
        ProbabilityFit.of(held, lambda p: rate), cal, ProbabilityFit.of(held, cal), scaled,
        ProbabilityFit.of(held, scaled), ProbabilityFit.of(held, Calibration(1 / counts.scale)),
        tuple(_bins(held, lambda p: p, bins)), tuple(_bins(held, cal, bins)),
        counts.proven, counts.proven_missed, counts.unscored, counts.engines, counts.scale)


def reliability_svg(report: CalibrationReport, title: str = "") -> str:
    """The reliability diagram of ``report``'s held-out games as an SVG document: for each
    bin the mean predicted probability (x) against the observed mean result (y) with its
    interval, as printed (filled dots) and recalibrated (open dots), the diagonal where a
    true probability lies, and how many positions each bin holds."""
    size, m = 360, 48
    w = h = size

    def xy(p: float, q: float) -> tuple[float, float]:
        return m + p * (w - 2 * m), h - m - q * (h - 2 * m)

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h + 16}" '
           f'viewBox="0 0 {w} {h + 16}" font-family="sans-serif" font-size="11">',
           f'<rect width="{w}" height="{h + 16}" fill="white"/>']
    if title:
        out.append(f'<text x="{w / 2}" y="16" text-anchor="middle" font-size="12">'
                   f'{_escape(title)}</text>')
    x0, y0 = xy(0, 0)
    x1, y1 = xy(1, 1)
    out.append(f'<rect x="{x0}" y="{y1}" width="{x1 - x0}" height="{y0 - y1}" fill="none" '
               'stroke="#888"/>')
    for t in range(0, 11, 2):
        v = t / 10
        gx, gy = xy(v, 0)
        out.append(f'<line x1="{gx:.1f}" y1="{y0}" x2="{gx:.1f}" y2="{y1}" stroke="#eee"/>')
        out.append(f'<text x="{gx:.1f}" y="{y0 + 14}" text-anchor="middle">{v:.1f}</text>')
        hx, hy = xy(0, v)
        out.append(f'<line x1="{x0}" y1="{hy:.1f}" x2="{x1}" y2="{hy:.1f}" stroke="#eee"/>')
        out.append(f'<text x="{x0 - 6}" y="{hy + 4:.1f}" text-anchor="end">{v:.1f}</text>')
    out.append(f'<line x1="{x0}" y1="{y0}" x2="{x1}" y2="{y1}" stroke="#999" '
               'stroke-dasharray="4 3"/>')
    out.append(f'<text x="{(x0 + x1) / 2}" y="{y0 + 30}" text-anchor="middle">predicted '
               'win probability</text>')
    out.append(f'<text transform="translate({x0 - 34},{(y0 + y1) / 2}) rotate(-90)" '
               'text-anchor="middle">observed mean result</text>')
    for group, fill in ((report.bins, "black"), (report.calibrated_bins, "white")):
        for b in group:
            px, py = xy(b.predicted, b.observed)
            _, lo = xy(0, b.interval[0])
            _, hi = xy(0, b.interval[1])
            out.append(f'<line x1="{px:.1f}" y1="{lo:.1f}" x2="{px:.1f}" y2="{hi:.1f}" '
                       'stroke="black"/>')
            out.append(f'<circle cx="{px:.1f}" cy="{py:.1f}" r="3.5" fill="{fill}" '
                       f'stroke="black"><title>{b.low:.1f}-{b.high:.1f}: {b.positions} '
                       f'positions, predicted {b.predicted:.3f}, observed {b.observed:.3f}'
                       '</title></circle>')
    lx, ly = x0 + 8, y1 + 14
    out.append(f'<circle cx="{lx}" cy="{ly - 4}" r="3.5" fill="black" stroke="black"/>'
               f'<text x="{lx + 8}" y="{ly}">as printed</text>')
    out.append(f'<circle cx="{lx}" cy="{ly + 12}" r="3.5" fill="white" stroke="black"/>'
               f'<text x="{lx + 8}" y="{ly + 16}">recalibrated</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
