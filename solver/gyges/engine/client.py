"""A client for any UGI program, like python-chess's ``popen_uci``: :func:`popen_ugi`
starts the program and gives a :class:`UgiEngine` with the builtin engine's calls,
``play(position, limit)`` and ``analyse(position, limit)``, spoken over the protocol
(boards and moves converted by :mod:`gyges.engine.ugi`).

The program is always ended: ``quit`` is sent, and it is killed if it has not exited a
few seconds later (some, like the Rust engine Helios, do not exit at the end of their
input), also when the client fails or is interrupted. A program that dies, answers
nothing within the time allowed, or answers what cannot be read raises
:class:`EngineFailure`.

The protocol has no game history: a UGI engine sees the board only, unless it announces
gyges's extension (:data:`~gyges.engine.ugi.HISTORY_EXTENSION`, as ``gyges ugi`` does);
then the history is sent with the board, and the Renop law holds for it too.
Scores are read as the builtin engine writes them (:meth:`Score.from_int`); another
engine's numbers beyond that range are clamped to an evaluation.
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import queue
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Sequence
from typing import Any

from gyges.engine.builtin import Analysis, Limit, PlayResult, game_state
from gyges.engine.score import MATE, Eval, Score
from gyges.engine.ugi import (
    HISTORY_EXTENSION,
    NO_LIMIT,
    UgiError,
    board_to_ugi,
    history_to_ugi,
    move_from_ugi,
)
from gyges.game.moves import Game, Move
from gyges.game.position import Position

__all__ = ["EngineFailure", "UgiEngine", "popen_ugi"]

#: Seconds to wait for the handshake (``ugiok``, ``readyok``) and for a program to exit
#: after ``quit`` before it is killed.
HANDSHAKE_SECONDS = 20.0
QUIT_SECONDS = 3.0
#: A search may overrun its time by this much (and this share) before ``stop`` is sent;
#: after ``stop``, the answer must come within STOP_SECONDS.
GRACE_SECONDS = 2.0
GRACE_SHARE = 0.5
STOP_SECONDS = 5.0
#: A search limited by depth or nodes only is stopped after this long.
UNTIMED_SECONDS = 3600.0


def _die_with_parent() -> Any:
    """On Linux, a function for ``preexec_fn`` that has the kernel kill the program when
    the thread that started it ends (a worker process terminated at Ctrl-C cannot send
    ``quit``, and a program such as Helios would spin on without its input); None
    elsewhere. Resolved once, before any fork: the child only calls it."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        prctl = ctypes.CDLL(ctypes.util.find_library("c") or None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None
    set_pdeathsig, kill = 1, int(signal.SIGKILL)   # PR_SET_PDEATHSIG

    def arm() -> None:
        prctl(set_pdeathsig, kill)

    return arm


_ARM = _die_with_parent()


class EngineFailure(RuntimeError):
    """The UGI program failed: it died, did not answer in time, or answered nonsense."""


class UgiEngine:
    """A UGI program, spoken to over its standard input and output."""

    def __init__(self, command: Sequence[str]):
        self.command = list(command)
        self.name = self.command[0] if self.command else "?"
        self.options: dict[str, str] = {}
        self.takes_history = False
        self._sent: dict[str, str] = {}
        self.failed = False
        self._lines: queue.Queue[str | None] = queue.Queue()
        try:
            self._proc = subprocess.Popen(
                self.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL, text=True, bufsize=1, preexec_fn=_ARM)
        except OSError as e:
            raise EngineFailure(f"{self.name}: cannot start the program: "
                                f"{e.strerror or e}") from None
        self._reader = threading.Thread(target=self._read, name="gyges-ugi-reader",
                                        daemon=True)
        self._reader.start()
        try:
            self._send("ugi")
            for line in self._until("ugiok", HANDSHAKE_SECONDS):
                words = line.split()
                if words[:2] == ["id", "name"] and len(words) > 2:
                    self.name = " ".join(words[2:])
                elif words[:1] == ["option"] and len(words) > 1:
                    self.options[words[1]] = " ".join(words[2:])
                elif line.strip() == HISTORY_EXTENSION:
                    self.takes_history = True
            self._ready()
        except BaseException:
            self.close()
            raise

    # -- the pipe ----------------------------------------------------------------------

    def _read(self) -> None:
        assert self._proc.stdout is not None
        for line in self._proc.stdout:
            self._lines.put(line.strip())
        self._lines.put(None)

    def _send(self, line: str) -> None:
        if self._proc.stdin is None or self._proc.poll() is not None:
            raise EngineFailure(f"{self.name}: the program has exited "
                                f"(status {self._proc.returncode})")
        try:
            self._proc.stdin.write(line + "\n")
            self._proc.stdin.flush()
        except (BrokenPipeError, OSError):
            raise EngineFailure(f"{self.name}: the program has exited") from None

    def _next(self, deadline: float) -> str | None:
        """The next line, or None at the deadline; EngineFailure when output ends."""
        try:
            line = self._lines.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            return None
        if line is None:
            self._lines.put(None)
            raise EngineFailure(f"{self.name}: the program ended its output "
                                f"(status {self._proc.poll()})")
        return line

    def _until(self, word: str, seconds: float) -> list[str]:
        """The lines up to one that starts with ``word`` (included)."""
        deadline = time.monotonic() + seconds
        lines = []
        while True:
            line = self._next(deadline)
            if line is None:
                raise EngineFailure(f"{self.name}: no {word!r} within {seconds:g} s")
            if line:
                lines.append(line)
            if line.split()[:1] == [word]:
                return lines

    def _ready(self) -> None:
        self._send("isready")
        self._until("readyok", HANDSHAKE_SECONDS)

    # -- the calls -----------------------------------------------------------------------

    def configure(self, options: dict[str, Any]) -> None:
        """Send ``setoption NAME VALUE`` for each option whose value changed."""
        for name, value in options.items():
            if self._sent.get(name) != str(value):
                self._send(f"setoption {name} {value}")
                self._sent[name] = str(value)

    @property
    def usable(self) -> bool:
        """Is the program running, and has it never failed (a program that missed a
        deadline may still send a late answer: it is not asked again)?"""
        return not self.failed and self._proc.poll() is None

    def analyse(self, position: Position | Game, limit: Limit,
                history: Sequence[Position] = ()) -> Analysis:
        """Search ``position`` within ``limit``; ``history`` (the game's earlier
        positions, oldest first; or a :class:`~gyges.game.moves.Game`, which holds both)
        is sent to an engine that takes it."""
        position, history = game_state(position, history)
        try:
            return self._analyse(position, limit, history)
        except EngineFailure:
            self.failed = True
            raise

    def _analyse(self, position: Position, limit: Limit,
                 history: Sequence[Position]) -> Analysis:
        start = time.monotonic()
        self.configure(_limit_options(limit))
        self._ready()
        items = history_to_ugi(position, history) if self.takes_history and history else []
        self._send(" ".join(["setpos", "data", board_to_ugi(position),
                             *(["history", *items] if items else [])]))
        self._send("go")
        wait = (limit.time * (1 + GRACE_SHARE) + GRACE_SECONDS if limit.time
                else UNTIMED_SECONDS)
        last: list[str] = []
        deadline = time.monotonic() + wait
        stopped = False
        while True:
            line = self._next(deadline)
            if line is None:
                if stopped:
                    raise EngineFailure(f"{self.name}: no bestmove within "
                                        f"{STOP_SECONDS:g} s of stop")
                self._send("stop")
                stopped = True
                deadline = time.monotonic() + STOP_SECONDS
                continue
            words = line.split()
            if words[:1] == ["info"] and "pv" in words:
                last = words
            elif words[:1] == ["bestmove"]:
                return self._analysis(position, words, last, time.monotonic() - start)

    def play(self, position: Position | Game, limit: Limit,
             history: Sequence[Position] = ()) -> PlayResult:
        a = self.analyse(position, limit, history)
        return PlayResult(a.move, a)

    def _analysis(self, position: Position, best: list[str], info: list[str],
                  seconds: float) -> Analysis:
        if len(best) < 2:
            raise EngineFailure(f"{self.name}: 'bestmove' without a move")
        move = None
        if best[1] != "null":
            try:
                start, end, reloc = move_from_ugi(best[1], position.turn)
            except UgiError as e:
                raise EngineFailure(f"{self.name}: {e}") from None
            move = Move(start, end, reloc, side=position.turn)
        fields = _fields(info)
        score = _score(_fields(best).get("score") or fields.get("score"))
        pv = _line(position, info) if move is not None else []
        if move is not None and (not pv or pv[0] != move):
            pv = [move]            # the last info line was of another move: the move alone
        searched = _float(fields.get("time"))
        return Analysis(position, move, score, tuple(pv), _int(fields.get("ply")),
                        _int(fields.get("nodes")), seconds, search_time=searched)

    def close(self) -> None:
        """Send ``quit``; kill the program if it has not exited after a few seconds."""
        proc = self._proc
        if proc.poll() is None:
            with contextlib.suppress(EngineFailure, OSError, ValueError):
                self._send("quit")
            try:
                proc.wait(QUIT_SECONDS)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        for stream in (proc.stdin, proc.stdout):
            with contextlib.suppress(OSError, ValueError):
                if stream is not None:
                    stream.close()

    def __enter__(self) -> UgiEngine:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


def _limit_options(limit: Limit) -> dict[str, Any]:
    """The protocol's options for ``limit`` (the others at :data:`NO_LIMIT`)."""
    return {
        "maxTime": limit.time if limit.time is not None else NO_LIMIT["maxTime"],
        "maxPly": limit.depth if limit.depth is not None else int(NO_LIMIT["maxPly"]),
        "maxNodes": limit.nodes if limit.nodes is not None else int(NO_LIMIT["maxNodes"]),
    }


def _fields(words: list[str]) -> dict[str, str]:
    """``info``/``bestmove`` words as ``{key: first value}``."""
    return {k: v for k, v in zip(words, words[1:], strict=False)
            if k in ("ply", "score", "nodes", "nps", "time", "bestmove")}


def _float(text: str | None) -> float:
    try:
        return float(text) if text is not None else 0.0
    except ValueError:
        return 0.0


def _int(text: str | None) -> int:
    return int(_float(text))


def _score(text: str | None) -> Score:
    try:
        value = round(float(text)) if text is not None else 0
    except ValueError:
        value = 0
    if abs(value) <= MATE:
        return Score.from_int(value)
    return Eval(29999 if value > 0 else -29999)


def popen_ugi(command: str | Sequence[str]) -> UgiEngine:
    """Start a UGI program (a command line, split like a shell's, or a list of words)
    and shake hands with it."""
    import shlex

    words = shlex.split(command) if isinstance(command, str) else list(command)
    if not words:
        raise EngineFailure("no command to start")
    return UgiEngine(words)


def _line(position: Position, info: Sequence[str]) -> list[Move]:
    """The moves of an ``info`` line's ``pv``, the sides taking turns from the side to
    move (UGI writes each move from its mover's side), up to the first that is not a move.

    >>> from gyges.engine.server import UGI_START
    >>> [str(m) for m in _line(UGI_START, "info ply 2 pv 2|4|23 5|16".split())]
    ['13x15=46', '66-45']
    """
    words = list(info)
    if "pv" not in words:
        return []
    side, out = position.turn, []
    for text in words[words.index("pv") + 1:]:
        try:
            start, end, reloc = move_from_ugi(text, side)
        except UgiError:
            break
        out.append(Move(start, end, reloc, side=side))
        side = side.other
    return out
