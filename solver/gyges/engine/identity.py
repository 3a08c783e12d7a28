"""Which engine made a file of games: :class:`EngineIdentity`, stored in every record of
the files the engine's games fill (``setups rank``), so that a file says what made it and
a run refuses to extend a file made by another engine.

Two engines are the same when they choose the same moves: the same code (a digest of the
sources that decide a move: the game, the provers, the engine's kernel and its game
playing; :data:`ENGINE_SOURCES`) and the same evaluation weights (a digest of their
canonical text). The package's version, the git commit of the source tree (where there
is one) and the command that ran are recorded beside, for people; they do not make two
engines differ.

>>> a = EngineIdentity("c0ffee", "beef", "0.1.0", "1a65a81", "gyges setups rank")
>>> b = EngineIdentity("c0ffee", "beef", "0.1.0", "59032a5", "gyges setups rank --jobs 2")
>>> a == b, EngineIdentity.from_json(a.to_json()) == a
(True, True)
>>> str(a)
'engine c0ffee, weights beef (gyges 0.1.0, commit 1a65a81)'
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import shlex
import subprocess
import sys
from importlib import metadata
from pathlib import Path
from typing import Any

from gyges.engine.network import (
    DEFAULT_EVALUATION,
    EvaluationDefault,
    Network,
    resolved_network,
)
from gyges.engine.weights import Weights
from gyges.output import files_digest

__all__ = ["ENGINE_SOURCES", "UNRECORDED", "EngineIdentity", "code_digest", "engine_identity",
           "weights_digest"]

#: The sources that decide the engine's moves, under the package's root: the game, the
#: provers, the engine's kernel and evaluation, its proof horizon and its games (openings,
#: random starts). A change to any of them may change a game; to anything else (the UGI
#: server, the statistics, the docs) it may not.
ENGINE_SOURCES = ("game", "search", "engine/_engine.pyx", "engine/_engine.pxd",
                  "engine/_evaluate.pxi", "engine/_tt.pxi", "engine/_movepick.pxi",
                  "engine/_search.pxi", "engine/_threads.pxi", "engine/builtin.py",
                  "engine/proofs.py", "engine/score.py", "engine/refereed.py",
                  "engine/players.py", "engine/openings.py")
_SUFFIXES = (".py", ".pyx", ".pxd", ".pxi")   # sources: the same on every machine


@dataclasses.dataclass(frozen=True)
class EngineIdentity:
    """The engine that made a file: ``code`` and ``weights`` (digests) say which; the
    package's ``version``, the source tree's git ``commit`` (None: not a git checkout; a
    ``+`` when it had changes not committed) and the ``command`` that ran are recorded
    beside, and are not compared."""

    code: str
    weights: str
    version: str = dataclasses.field(default="", compare=False)
    commit: str | None = dataclasses.field(default=None, compare=False)
    command: str = dataclasses.field(default="", compare=False)

    def __str__(self) -> str:
        if self == UNRECORDED:
            return "an engine that did not record itself (a file from before files named it)"
        made = f"gyges {self.version or 'unknown'}"
        if self.commit:
            made += f", commit {self.commit}"
        return f"engine {self.code}, weights {self.weights} ({made})"

    def to_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @classmethod
    def from_json(cls, d: Any) -> EngineIdentity:
        """The identity :meth:`to_json` wrote (ValueError if it is not one)."""
        if not isinstance(d, dict) or not all(isinstance(d.get(k), str)
                                              for k in ("code", "weights")):
            raise ValueError("engine: an object with the code's and the weights' digests")
        commit = d.get("commit")
        return cls(d["code"], d["weights"], str(d.get("version", "")),
                   None if commit is None else str(commit), str(d.get("command", "")))


#: The engine of a file written before files named their engine.
UNRECORDED = EngineIdentity("unrecorded", "unrecorded")


def _package_root() -> Path:
    return Path(__file__).resolve().parents[1]


@functools.cache
def code_digest() -> str:
    """The digest of :data:`ENGINE_SOURCES` (16 hex digits)."""
    return files_digest(_package_root(), ENGINE_SOURCES, _SUFFIXES)


@functools.cache
def _commit() -> str | None:
    """The git commit of the source tree (``+`` when it has changes not committed to the
    engine's sources), or None where it is not a git checkout."""
    root = _package_root()
    try:
        head = subprocess.run(["git", "rev-parse", "--short=12", "HEAD"], cwd=root,
                              capture_output=True, text=True, timeout=30)
        if head.returncode != 0:
            return None
        dirty = subprocess.run(["git", "status", "--porcelain", "--", *ENGINE_SOURCES],
                               cwd=root, capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.SubprocessError):
        return None
    return head.stdout.strip() + ("+" if dirty.stdout.strip() else "")


def _version() -> str:
    try:
        return metadata.version("gyges")
    except metadata.PackageNotFoundError:
        return "unknown"


def engine_identity(weights: Weights | None = None, command: str | None = None,
                    network: Network | None | EvaluationDefault = DEFAULT_EVALUATION
                    ) -> EngineIdentity:
    """The identity of the builtin engine with ``weights`` (None: the shipped ones) and
    ``network`` (None: the linear evaluation; not given: the default one,
    :func:`gyges.engine.network.default_network`) in this process; ``command``: what ran
    (default: this process's command line)."""
    if command is None:
        command = shlex.join(["gyges", *sys.argv[1:]]) if Path(sys.argv[0]).name in (
            "gyges", "__main__.py") else shlex.join(sys.argv)
    return EngineIdentity(code_digest(), weights_digest(weights, network), _version(),
                          _commit(), command)


def weights_digest(weights: Weights | None = None,
                   network: Network | None | EvaluationDefault = DEFAULT_EVALUATION) -> str:
    """The digest of the evaluation (16 hex digits): of the linear weights' values (None:
    the shipped ones), not of how the file is laid out, and, when a ``network`` evaluates
    in their place, of the network's (:attr:`gyges.engine.network.Network.digest`).
    ``network`` not given: the default evaluation's
    (:func:`gyges.engine.network.default_network`); None: the linear evaluation's.

    >>> from gyges.engine.network import Network, default_network
    >>> weights_digest(network=None) == weights_digest(Weights.load(), None)
    True
    >>> weights_digest() == weights_digest(network=default_network())
    True
    >>> weights_digest(network=Network.zeros(4)) != weights_digest(network=None)
    True
    """
    network = resolved_network(network)
    w = weights if weights is not None else Weights.load()
    values = ",".join(f"{n}={v!r}" for n, v in zip(w.names, w.values, strict=True))
    if network is not None:
        values += f";network={network.digest}"
    return hashlib.sha256(values.encode()).hexdigest()[:16]
