"""Benchmarks (``make bench``). Each ``bench/bench_*.py`` module has a ``main()``."""
