"""Build the compiled core (Cython) as part of the ordinary ``pip install``."""

import platform

from Cython.Build import cythonize
from setuptools import Extension, setup

# Every x86-64 processor since 2008 counts bits in one instruction; without the flag the
# compiler calls a library routine for each count (2-3 % of a proof's time).
FLAGS = ["-O3"] + (["-mpopcnt"] if platform.machine() in ("x86_64", "AMD64") else [])

extensions = [
    Extension("solver.game._movegen", ["solver/game/_movegen.pyx"], extra_compile_args=FLAGS),
    Extension("solver.search._search", ["solver/search/_search.pyx"], extra_compile_args=FLAGS),
    Extension("solver.search._dfpn", ["solver/search/_dfpn.pyx"], extra_compile_args=FLAGS),
]

setup(
    ext_modules=cythonize(
        extensions,
        language_level=3,
        compiler_directives={"boundscheck": False, "wraparound": False, "cdivision": True},
    )
)
