"""Run every benchmark module (``python -m bench [NAME ...]``) and print its figures."""

from __future__ import annotations

import importlib
import pkgutil
import platform
import sys
import time

import bench


def main(argv: list[str]) -> int:
    modules = pkgutil.iter_modules(bench.__path__)
    names = sorted(m.name for m in modules if m.name.startswith("bench_"))
    if argv:
        names = [n for n in names if any(a in n for a in argv)]
    print(f"# {time.strftime('%Y-%m-%d')} {platform.processor() or platform.machine()} "
          f"python {platform.python_version()}")
    for name in names:
        print(f"\n## {name}")
        importlib.import_module(f"bench.{name}").main()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
