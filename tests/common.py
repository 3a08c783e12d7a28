"""What the tests share: the repository's paths, the positions many tests use, and the
``gyges`` command run in this process (one CLI runner).

Values rather than fixtures, because parametrizations need them when a test module is
imported; ``conftest.py`` holds the test-wide set-up.
"""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner, Result

from gyges_cli.main import cli

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data"
POSITIONS = DATA / "positions"
PUZZLES = ROOT / "puzzles"

#: The standard start with the home rows of the sample game (South to move).
START = "321123/....../....../....../....../231123 S"
#: Seed 000's bouncing example (North to move lands through bounces).
BOUNCING = "....../3...../..1.1./1.23.3/3.22.1/....2. N"


def run_gyges(*args: object, catch_exceptions: bool = True, **kwargs: object) -> Result:
    """``gyges ARGS`` in this process (arguments turned into strings). With
    ``catch_exceptions=False`` an exception the command does not turn into an exit status
    is raised instead of kept in the result."""
    return CliRunner().invoke(cli, [str(a) for a in args], catch_exceptions=catch_exceptions,
                              **kwargs)
