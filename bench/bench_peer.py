"""gyges beside the peer engine Helios (Beck-Bjella/Gyges), in one run, one core each.

What a user runs, as whole processes: ``gyges perft`` and ``gyges solve`` with their
default options, pinned to one core (``taskset -c 0``), one after the other with the
peer's harness (``taskset -c 1``), alternating, so that both see the machine of the same
minutes. The peer's harness (a small program around Helios's crates, built outside the
repository, docs/engine.md;
``GYGES_PEER_HARNESS`` overrides its path) gives ``perft BOARD DEPTH`` and ``solve BOARD
MAXPLY`` (iterative deepening to MAXPLY plies, "WIN" when it finds the landing). The peer
plays under its own rules; gyges is given the same rules as options (``PEER_OPTIONS``).

Cases:

- perft 4 from ``321123/.../321123`` (move lists: the counts differ by convention,
  docs/performance.md);
- the peer's own test position ``030100/000200/002000/021100/300300/002130 S``, whose side
  to move wins in 6 (ply 11): ``gyges solve -n 6`` (the proof: no win in 1-5, the win in 6,
  its key and every other first move refuted) against the peer's search finding the win;
- the start ``321123/.../231123 S``: ``gyges solve -n 4`` (pbmserv: no forced win for
  either side within 4) against the peer's 7-ply search of the same position, which it
  may not finish within ``LIMIT`` seconds.

Run: ``python -m bench peer`` (each case alternated ``REPEAT`` times; a few minutes).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from pathlib import Path

from bench import machine

HARNESS = Path(os.environ.get("GYGES_PEER_HARNESS", "/tmp/peer/harness/target/release/harness"))
#: Helios's rules as gyges options (the helios preset), on the command line
PEER_OPTIONS = ["--rules", "helios"]
LIMIT = 120.0  # seconds before a run is stopped and reported as not finished
REPEAT = 2

#: (what, gyges command after "gyges", peer harness arguments)
CASES = [
    ("perft 4 from 321123/.../321123, peer rules",
     ["perft", "321123/....../....../....../....../321123 S", "-d", "4", *PEER_OPTIONS],
     ["perft", "321123/000000/000000/000000/000000/321123", "4"]),
    ("peer test position, win in 6 (ply 11), peer rules",
     ["solve", "030100/000200/002000/021100/300300/002130 S", "-n", "6", *PEER_OPTIONS],
     ["solve", "002130/300300/021100/002000/000200/030100", "11"]),
    ("start 321123/.../231123 S: gyges pbmserv -n 4; peer 7 plies, its rules",
     ["solve", "321123/....../....../....../....../231123 S", "-n", "4"],
     ["solve", "231123/000000/000000/000000/000000/321123", "7"]),
]


def _timed(command: list[str], core: int, first_line: bool = False) -> tuple[float | None, str]:
    """Wall seconds of ``command`` pinned to ``core`` (None: stopped after LIMIT) and its
    last output line (with ``first_line``, its first after the position and rules lines:
    ``gyges solve``'s answer)."""
    start = time.perf_counter()
    try:
        done = subprocess.run(["taskset", "-c", str(core), *command], capture_output=True,
                              text=True, timeout=LIMIT, check=False)
    except subprocess.TimeoutExpired:
        return None, f"not finished in {LIMIT:.0f} s"
    seconds = time.perf_counter() - start
    lines = [line.strip() for line in done.stdout.splitlines() if line.strip()]
    if not lines:
        return seconds, done.stderr.strip()[-80:]
    # gyges solve's answer: its first line after the position and the rules
    answers = [ln for ln in lines if not ln.startswith(("position:", "rules:"))]
    answer = (answers or lines)[0] if first_line else lines[-1]
    return seconds, " ".join(answer.split())


def _show(seconds: float | None) -> str:
    return f">{LIMIT:.0f}" if seconds is None else f"{seconds:.2f}"


def main() -> None:
    gyges = shutil.which("gyges")
    if gyges is None or not HARNESS.exists():
        print(f"skipped: needs the gyges command and the peer harness at {HARNESS}")
        return
    print(f"# {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; {machine()}")
    print("| case | gyges s | peer s | gyges says | peer's last line |")
    print("|---|---:|---:|---|---|")
    for what, ours, theirs in CASES:
        for _ in range(REPEAT):
            a, a_line = _timed([gyges, *ours], 0, first_line=ours[0] == "solve")
            b, b_line = _timed([str(HARNESS), *theirs], 1)
            print(f"| {what} | {_show(a)} | {_show(b)} | {a_line} | {b_line} |", flush=True)
    print(f"# after: {machine()}")


if __name__ == "__main__":
    main()
