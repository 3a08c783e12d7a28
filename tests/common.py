"""What the tests share: the repository's paths, the positions many tests use, the
``gyges`` command run in this process (one CLI runner), and small writers of test inputs.

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


def write(path: Path, text: str) -> Path:
    """``text`` written to ``path`` (UTF-8); the path, to pass on."""
    path.write_text(text, encoding="utf-8")
    return path


def catalogue_entry(pid: str, stipulation: str = "North wins in 1",
                    key: str = "51-43-33-31-21-S", position: str = BOUNCING,
                    extra: str = "") -> str:
    """One puzzle of a catalogue's ``puzzles:`` list; by default BOUNCING's win in 1.

    >>> print(catalogue_entry("a"), end="")
    - id: a
      position: "....../3...../..1.1./1.23.3/3.22.1/....2. N"
      stipulation: North wins in 1
      solution: {key: 51-43-33-31-21-S, main-line: [51-43-33-31-21-S]}
    """
    return (f'- id: {pid}\n  position: "{position}"\n  stipulation: {stipulation}\n'
            f"  solution: {{key: {key}, main-line: [{key}]}}\n{extra}")
