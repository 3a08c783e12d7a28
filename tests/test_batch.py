"""The progress bar of the batch runs (gyges.parallel.ProgressBar): count, rate, time left."""

from __future__ import annotations

import io

from gyges.parallel import ProgressBar


def test_progress_bar_shows_count_rate_and_time_left():
    stream = io.StringIO()
    bar = ProgressBar(4, stream, every=0.0, unit="pairs")
    for _ in range(4):
        bar.update()
    bar.close()
    lines = stream.getvalue().splitlines()
    assert lines[-1].startswith("[" + "#" * 30 + "] 4/4 ")
    assert "pairs/s" in lines[-1] and "elapsed" in lines[-1] and "0m00s left" in lines[-1]
    assert lines[0].split("] ")[1].startswith("1/4 ")
