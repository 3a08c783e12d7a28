"""Build the compiled core (Cython) as part of the ordinary ``pip install``.

The source root is ``solver/``: the package ``gyges`` is the folder ``solver/gyges/`` (a
reader finds ``gyges.x.y`` at ``solver/gyges/x/y.py``), and the command line ``gyges_cli``
is at the top of the repository. Cython finds one compiled module's ``.pxd`` files from
another's ``cimport gyges...`` through the source root on its include path.
"""

import platform

from Cython.Build import cythonize
from setuptools import Extension, find_packages, setup

SOURCE = "solver"       # the source root: solver/gyges is the package gyges

# Every x86-64 processor since 2008 counts bits in one instruction; without the flag the
# compiler calls a library routine for each count (2-3 % of a proof's time).
FLAGS = ["-O3"] + (["-mpopcnt"] if platform.machine() in ("x86_64", "AMD64") else [])

COMPILED = ["gyges/game/_movegen", "gyges/search/_search", "gyges/search/_dfpn",
            "gyges/engine/_engine"]

extensions = [
    Extension(name.replace("/", "."), [f"{SOURCE}/{name}.pyx"], extra_compile_args=FLAGS)
    for name in COMPILED
]

setup(
    packages=find_packages(SOURCE, include=["gyges", "gyges.*"])
    + find_packages(include=["gyges_cli", "gyges_cli.*"]),
    package_dir={"": SOURCE, "gyges_cli": "gyges_cli"},
    ext_modules=cythonize(
        extensions,
        include_path=[SOURCE],
        language_level=3,
        compiler_directives={"boundscheck": False, "wraparound": False, "cdivision": True},
    ),
)
