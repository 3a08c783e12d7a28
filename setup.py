"""Build the compiled core (Cython) as part of the ordinary ``pip install``."""

from Cython.Build import cythonize
from setuptools import Extension, setup

extensions = [
    Extension("solver.game._movegen", ["solver/game/_movegen.pyx"], extra_compile_args=["-O3"]),
    Extension("solver.search._search", ["solver/search/_search.pyx"], extra_compile_args=["-O3"]),
    Extension("solver.search._dfpn", ["solver/search/_dfpn.pyx"], extra_compile_args=["-O3"]),
]

setup(
    ext_modules=cythonize(
        extensions,
        language_level=3,
        compiler_directives={"boundscheck": False, "wraparound": False, "cdivision": True},
    )
)
