"""The state file of a generation run: one JSON line per judged candidate, its
:class:`CandidateRecord` (made by :func:`~gyges.puzzles.generate.candidates.evaluate`,
with the run's parameters), the results file of the shared resumable run
(:func:`state_file`, a :class:`gyges.parallel.ResultsFile` whose lines carry the typed
records), read back to resume (:func:`read_state`); and the puzzles a run keeps from its
records (:func:`select`).

>>> records = [CandidateRecord(0, True, canonical="a"), CandidateRecord(1, False, ("x",)),
...            CandidateRecord(2, True, canonical="a"), CandidateRecord(3, True, canonical="b")]
>>> [r.index for r in select({r.index: r for r in records}, 5)]
[0, 3]
>>> CandidateRecord.from_json({"index": 1, "sound": False, "reasons": ["cooked: 2 keys"]})
CandidateRecord(1: cooked: 2 keys)
>>> CandidateRecord.from_json({"index": "1", "sound": False})
Traceback (most recent call last):
...
ValueError: index '1': a whole number wanted
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
from collections.abc import Hashable, Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

from gyges.game.position import Position
from gyges.parallel import ParametersError, ResultsFile, ResultsFileError
from gyges.puzzles.generate.params import GenerateError, Params, Source
from gyges.puzzles.rating import Features, PuzzleRating

__all__ = ["SOUND_KEYS", "CandidateRecord", "StateError", "StateMismatch", "read_state",
           "select", "state_errors", "state_file", "state_path"]

#: The keys every sound record has (what its catalogue entry is written from).
SOUND_KEYS = ("canonical", "position", "key", "main_line", "features", "themes", "duals",
              "source")

#: The keys of a judged position's record (:class:`~gyges.puzzles.generate.soundness.
#: SoundnessAssessment`'s), present when the candidate had a position.
_JUDGED_KEYS = ("key", "main_line", "themes", "features", "score", "difficulty", "tries",
                "duals", "threats")


@dataclasses.dataclass(frozen=True)
class CandidateRecord:
    """A judged candidate, one line of the state file: its ``index`` in the run, whether it
    is ``sound`` (else the ``reasons`` it is not), its ``source`` and the source's
    ``design`` (JSON: a construction's design and model counts, a game's ``history``), its
    ``position`` (None when the source found no candidate) and that position's
    ``canonical`` form (:func:`~gyges.puzzles.symmetry.canonical`); for a judged position
    what the solver found (:class:`~gyges.puzzles.generate.soundness.SoundnessAssessment`:
    ``key``, ``main_line``, ``themes``, ``features``, ``rating``, ``tries``, ``duals``,
    ``threats``); the ``seconds`` it took and the run's ``params`` (their JSON, as
    :meth:`Params.to_json` wrote them: a record of other parameters is read, then refused
    by the state file).

    A sound record has everything its catalogue entry is written from (:data:`SOUND_KEYS`):
    :meth:`from_json` refuses one that lacks any.
    """

    index: int
    sound: bool
    reasons: tuple[str, ...] = ()
    source: Source | None = None
    position: Position | None = None
    canonical: str | None = None
    design: Mapping[str, Any] = dataclasses.field(default_factory=dict)
    key: str | None = None
    main_line: tuple[str, ...] = ()
    themes: tuple[str, ...] = ()
    features: Features | None = None
    rating: PuzzleRating | None = None
    tries: tuple[str, ...] = ()
    duals: tuple[str, ...] = ()
    threats: int = 0
    seconds: float | None = None
    params: Any = None

    def __repr__(self) -> str:
        verdict = f"sound, key {self.key}" if self.sound else "; ".join(self.reasons)
        return f"CandidateRecord({self.index}: {verdict})"

    def to_json(self) -> dict[str, Any]:
        """The record as its line holds it: ``index``, ``sound``, ``reasons``, ``source``,
        ``design``, ``position``, ``canonical``, ``seconds``, ``params``, and for a judged
        position ``key``, ``main_line``, ``themes``, ``features``, ``score`` and
        ``difficulty`` (the rating), ``tries``, ``duals`` and ``threats``."""
        d: dict[str, Any] = {
            "index": self.index, "sound": self.sound, "reasons": list(self.reasons),
            "source": self.source.value if self.source is not None else None,
            "design": dict(self.design),
            "position": str(self.position) if self.position is not None else None,
            "canonical": self.canonical, "seconds": self.seconds, "params": self.params}
        if self.position is not None:
            d.update(key=self.key, main_line=list(self.main_line), themes=list(self.themes),
                     features=self.features.to_json() if self.features else None,
                     score=self.rating.score if self.rating else None,
                     difficulty=self.rating.difficulty if self.rating else None,
                     tries=list(self.tries), duals=list(self.duals), threats=self.threats)
        return d

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> CandidateRecord:
        """The record :meth:`to_json` wrote. KeyError for a missing key (``index``,
        ``sound``; for a sound record any of :data:`SOUND_KEYS`), ValueError for a value of
        the wrong kind, each naming the key."""
        if not isinstance(d, Mapping):
            raise ValueError("a JSON object wanted")
        index = d["index"]
        if type(index) is not int:
            raise ValueError(f"index {index!r}: a whole number wanted")
        sound = d["sound"]
        if type(sound) is not bool:
            raise ValueError(f"sound {sound!r}: true or false wanted")
        if sound:
            for k in SOUND_KEYS:
                if k not in d:
                    raise KeyError(k)
                if d[k] is None:
                    raise ValueError(f"{k} null in a sound record")
        source = d.get("source")
        if source is not None and source not in {s.value for s in Source}:
            raise ValueError(f"source {source!r}: one of {', '.join(s.value for s in Source)} "
                             "wanted")
        position = _optional_text(d, "position")
        try:
            at = Position.from_string(position) if position is not None else None
        except ValueError as e:
            raise ValueError(f"position {position!r}: {e}") from None
        design = d.get("design", {})
        if not isinstance(design, dict):
            raise ValueError(f"design {design!r}: a JSON object wanted")
        score, difficulty = d.get("score"), d.get("difficulty")
        rating = None
        if difficulty is not None:
            if type(difficulty) is not int or not isinstance(score, int | float):
                raise ValueError(f"score {score!r}, difficulty {difficulty!r}: numbers wanted")
            rating = PuzzleRating(score, difficulty)
        seconds = d.get("seconds")
        if seconds is not None and not isinstance(seconds, int | float):
            raise ValueError(f"seconds {seconds!r}: a number wanted")
        threats = d.get("threats", 0)
        if type(threats) is not int:
            raise ValueError(f"threats {threats!r}: a whole number wanted")
        return cls(index, sound, _texts(d, "reasons"),
                   Source(source) if source is not None else None, at,
                   _optional_text(d, "canonical"), design, _optional_text(d, "key"),
                   _texts(d, "main_line"), _texts(d, "themes"), _features(d.get("features")),
                   rating, _texts(d, "tries"), _texts(d, "duals"), threats, seconds,
                   d.get("params"))


def _optional_text(d: Mapping[str, Any], key: str) -> str | None:
    value = d.get(key)
    if value is not None and not isinstance(value, str):
        raise ValueError(f"{key} {value!r}: a text wanted")
    return value


def _texts(d: Mapping[str, Any], key: str) -> tuple[str, ...]:
    value = d.get(key, [])
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ValueError(f"{key} {value!r}: a list of texts wanted")
    return tuple(value)


def _features(value: Any) -> Features | None:
    if value is None:
        return None
    names = [f.name for f in dataclasses.fields(Features)]
    if not isinstance(value, dict) or sorted(value) != sorted(names) or not all(
            type(value[n]) is (bool if n == "quiet" else int) for n in names):
        raise ValueError(f"features {value!r}: {', '.join(names)} wanted")
    return Features.from_json(value)


class StateError(GenerateError):
    """A state file that cannot be resumed (one line: the file, the line, what is wrong)."""


class StateMismatch(StateError):
    """A state file made by a run with other parameters (``found``, at ``path``:``line``)."""

    def __init__(self, path: Path, line: int, found: Any) -> None:
        super().__init__(f"{path}:{line}: made by a run with other parameters "
                         f"({_in_words(found)})")
        self.path = path
        self.line = line
        self.found = found


def _in_words(found: Any) -> str:
    """A run's parameters as its command's options (``--stipulation 'win in 2' --rules
    pbmserv --seed 1``), or, for a record of another format, as ``key: value`` pairs.

    >>> _in_words({"format": 1, "seed": 3})
    'format: 1, seed: 3'
    """
    try:
        command = Params.from_json(found).command(0)
    except (KeyError, TypeError, ValueError, AttributeError):
        if isinstance(found, dict):
            return ", ".join(f"{k}: {json.dumps(v)}" for k, v in found.items())
        return json.dumps(found)
    return command.replace(" --count 0", "")


def state_path(out: str | Path) -> Path:
    """The state file of a run writing the catalogue ``out``, unless told otherwise:
    ``OUT.jsonl``.

    >>> str(state_path("my/puzzles.yaml"))
    'my/puzzles.yaml.jsonl'
    """
    out = Path(out)
    return out.with_name(out.name + ".jsonl")


def _index(record: dict[str, Any]) -> Hashable:
    return record["index"]


def _params_of(record: dict[str, Any]) -> Any:
    return record.get("params")


def _as_json(params: Any) -> str:
    """Parameters as JSON text (read back by :func:`state_errors`)."""
    return json.dumps(params, sort_keys=True)


def state_file(path: str | Path, params: Params) -> ResultsFile:
    """The state file of a run with ``params``: its candidates' records by index, every one
    made with those parameters."""
    return ResultsFile(str(path), "a candidate's record", key=_index,
                       check=CandidateRecord.from_json,
                       params=params.to_json(), params_of=_params_of, describe=_as_json)


@contextlib.contextmanager
def state_errors() -> Iterator[None]:
    """The results file's errors inside the block as the state file's: a record made with
    other parameters is :class:`StateMismatch`, any other line that is not a candidate's
    record :class:`StateError`."""
    try:
        yield
    except ParametersError as e:
        raise StateMismatch(Path(e.path), e.line or 0, json.loads(e.found)) from None
    except ResultsFileError as e:
        raise StateError(str(e)) from None


def read_state(path: str | Path, params: Params) -> dict[int, CandidateRecord]:
    """The records of an earlier run (by index); a truncated last line (an interrupted
    write) is dropped. A file made with other parameters is refused
    (:class:`StateMismatch`), as is a line that is not a candidate's record
    (:class:`StateError`). The file is not changed."""
    with state_errors():
        return {line.value.index: line.value
                for line in state_file(path, params).read().lines}


def select(records: Mapping[Any, CandidateRecord], count: int,
           known: Iterable[str] = frozenset()) -> list[CandidateRecord]:
    """The first ``count`` sound records by index, each position once up to symmetry and
    none already in ``known``."""
    seen = set(known)
    out = []
    for i in sorted(records):
        rec = records[i]
        if not rec.sound or rec.canonical is None:
            continue
        if rec.canonical in seen:
            continue
        seen.add(rec.canonical)
        out.append(rec)
        if len(out) == count:
            break
    return out
