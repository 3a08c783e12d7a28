"""Test-wide set-up: Ctrl-C's handling, and the fixtures several test files share.

Ctrl-C's normal handling in the test process, even when the suite runs as a background
job of a non-interactive shell, where SIGINT starts out ignored and Python keeps an ignored
SIGINT ignored. The interrupt tests send SIGINT to this process and to the commands it
starts; a child started by exec inherits an ignored signal but not a handler, so with
this handler in place every child gets Python's usual KeyboardInterrupt too.
"""

import signal
from pathlib import Path

import pytest
from common import run_gyges

if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


@pytest.fixture(autouse=True)
def cache_dir(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
              ) -> Path:
    """A cache of its own for every test (``GYGES_CACHE_DIR``): no test reads or writes the
    user's cache of proven entries."""
    where = tmp_path_factory.mktemp("cache")
    monkeypatch.setenv("GYGES_CACHE_DIR", str(where))
    return where


@pytest.fixture
def workdir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fresh folder as the working directory: relative names a command is given (and
    the files it makes next to them) land there; the old directory is back after."""
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.fixture
def setups_table(tmp_path: Path) -> Path:
    """``tmp_path/t.jsonl``: the depth-1 table of South 231123 against three North setups,
    as ``setups analyze`` writes it."""
    out = tmp_path / "t.jsonl"
    r = run_gyges("setups", "analyze", "--south", "231123", "--north",
                  "321123,312213,113322", "--depth", "1", "-q", "--jobs", "1", "--out", out)
    assert r.exit_code == 0, r.output
    return out
