"""Build the compiled core (Cython) as part of the ordinary ``pip install``.

The library's source folder is ``solver/``; it installs as the package ``gyges`` (``import
gyges``), mapped by ``package_dir``. Cython finds the ``.pxd`` files of one compiled module
cimported by another by their package name, so the build gives it a folder ``gyges`` that
points at ``solver/`` (a link under ``build/``, made here).
"""

import os
import platform
from pathlib import Path

from Cython.Build import cythonize
from setuptools import Extension, find_packages, setup

HERE = Path(__file__).resolve().parent
SOURCE = "solver"       # the folder
PACKAGE = "gyges"       # the import name

# Every x86-64 processor since 2008 counts bits in one instruction; without the flag the
# compiler calls a library routine for each count (2-3 % of a proof's time).
FLAGS = ["-O3"] + (["-mpopcnt"] if platform.machine() in ("x86_64", "AMD64") else [])

COMPILED = ["game/_movegen", "search/_search", "search/_dfpn", "engine/_engine"]


def _pxd_root() -> str:
    """A folder holding ``gyges`` -> ``solver``, for Cython's cimports by package name."""
    root = HERE / "build" / "pxd"
    root.mkdir(parents=True, exist_ok=True)
    link = root / PACKAGE
    if not link.is_symlink() or os.readlink(link) != str(HERE / SOURCE):
        if link.is_symlink() or link.exists():
            link.unlink()
        link.symlink_to(HERE / SOURCE, target_is_directory=True)
    return str(root)


extensions = [
    Extension(f"{PACKAGE}.{name.replace('/', '.')}", [f"{SOURCE}/{name}.pyx"],
              extra_compile_args=FLAGS)
    for name in COMPILED
]

setup(
    packages=[PACKAGE + p[len(SOURCE):] for p in find_packages(include=[SOURCE, SOURCE + ".*"])]
    + find_packages(include=["gyges_cli", "gyges_cli.*"]),
    package_dir={PACKAGE: SOURCE},
    ext_modules=cythonize(
        extensions,
        include_path=[_pxd_root()],
        language_level=3,
        compiler_directives={"boundscheck": False, "wraparound": False, "cdivision": True},
    ),
)
