"""The status line of a long stage (gyges.parallel.StatusLine): its time moves while the
stage runs, and it shows the nodes the kernel has searched so far."""

from __future__ import annotations

import io
import threading
import time

from common import START

from gyges.parallel import StatusLine
from gyges_cli.common import ticking


class Tty(io.StringIO):
    """A stream that says it is a terminal (the status line draws only on one)."""

    def isatty(self) -> bool:
        return True


def test_status_line_time_moves_during_a_long_stage():
    stream = Tty()
    status = StatusLine(stream)
    status.start -= 61          # as if the stage had begun a minute ago
    status.show("searching for a win in 4")
    with ticking(status, every=0.02):
        deadline = time.monotonic() + 30     # three redraws, however busy the machine
        while (stream.getvalue().count("searching for a win in 4") < 3
               and time.monotonic() < deadline):
            time.sleep(0.01)
    redraws = stream.getvalue().count("searching for a win in 4")
    assert redraws >= 3 and "(1m01s)" in stream.getvalue()


def test_status_line_shows_the_nodes_searched_while_the_kernel_runs():
    """The solver hands the status line a node counter; read from another thread while
    the kernel searches (it runs without the GIL), it grows, and a redraw shows it."""
    from gyges.game.position import Position
    from gyges.game.rules import PRESETS
    from gyges.search import solve

    seen: list[int] = []
    counters: list = []
    done = threading.Event()

    def sample() -> None:
        while not done.wait(0.01):
            if counters:
                seen.append(counters[0]())

    thread = threading.Thread(target=sample)
    thread.start()
    try:
        result = solve(Position.from_string(START), PRESETS["pbmserv"], 3,
                       watch=counters.append)
    finally:
        done.set()
        thread.join()
    assert len(counters) == 1
    assert counters[0]() == result.stats.nodes        # the same count the stats report
    assert len(seen) >= 3 and seen == sorted(seen) and seen[-1] > seen[0]

    stream = Tty()
    StatusLine(stream, extra=lambda: f"{12345:,} nodes").show("searching for a win in 3")
    assert stream.getvalue().endswith("(0m00s, 12,345 nodes)")
