"""Benchmarks (``make bench``). Each ``bench/bench_*.py`` module has a ``main()``; run one
with its own arguments as ``python -m bench.bench_NAME ARGS`` from the repository."""

from __future__ import annotations

import os
import subprocess


def machine() -> str:
    """The CPU model (``lscpu``), the number of cores and the load average now."""
    model = "unknown CPU"
    try:
        out = subprocess.run(["lscpu"], capture_output=True, text=True, check=False).stdout
        model = next((line.split(":", 1)[1].strip() for line in out.splitlines()
                      if line.startswith("Model name")), model)
    except OSError:
        pass
    load = " ".join(f"{x:.1f}" for x in os.getloadavg())
    return f"{model}, {os.cpu_count()} cores, load average {load}"
