"""The entries proven before are not proven again (:mod:`gyges.puzzles.catalogue.verified`):
``catalogue check`` and ``export``'s check share a cache file (``GYGES_CACHE_DIR``, a folder
of its own for each test: ``conftest.py``); an edited entry, another solver or
``--no-cache`` proves again. Off a terminal both print a line per entry checked."""

from __future__ import annotations

import pytest
from catalogues import all_puzzles, run
from common import catalogue_entry, write

import gyges.puzzles.catalogue.checking as checking
import gyges.puzzles.catalogue.verified as verified
from gyges.puzzles.book.commentary import solver_commentary
from gyges.puzzles.catalogue import VerifiedEntries, load_catalogue

TWO = "schema: 1\npuzzles:\n" + catalogue_entry("a") + catalogue_entry(
    "b", "South wins in 1", "24-25-34-44-N", "....../1...../3.23../3.211./2.132./...... S",
    "  themes: [taboo]\n")


@pytest.fixture
def solves(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The positions the check's solver is called on, in order."""
    calls: list[str] = []
    real = checking.search_solve

    def counted(position, *args, **kwargs):
        calls.append(str(position))
        return real(position, *args, **kwargs)
    monkeypatch.setattr(checking, "search_solve", counted)
    return calls


def test_check_then_export_proves_nothing_again(tmp_path, cache_dir, solves):
    cat = write(tmp_path / "two.yaml", TWO)
    first = run("catalogue", "check", cat)
    assert first.exit_code == 0, first.output
    assert len(solves) == 2 and (cache_dir / verified.VERIFIED_CACHE_FILE).is_file()
    solves.clear()
    again = run("catalogue", "check", cat)
    assert again.exit_code == 0 and solves == []
    assert "[2/2] b (" in again.output and "ok (proven before)" in again.output
    book = run("export", cat, "--format", "html", "--check", "--out", tmp_path / "b.html")
    assert book.exit_code == 0, book.output
    assert solves == []
    forced = run("catalogue", "check", cat, "--no-cache", "-q")
    assert forced.exit_code == 0 and len(solves) == 2


def test_an_edited_entry_is_proven_again(tmp_path, solves):
    cat = write(tmp_path / "two.yaml", TWO)
    assert run("catalogue", "check", cat).exit_code == 0
    write(cat, TWO.replace("themes: [taboo]", "themes: []"))   # b edited, still right
    solves.clear()
    book = run("export", cat, "--format", "text", "--check", "--out", tmp_path / "b.txt")
    assert book.exit_code == 0, book.output
    assert solves == [str(load_catalogue(cat).puzzles[1].position)]


def test_another_solver_proves_again(tmp_path, solves, monkeypatch):
    cat = write(tmp_path / "two.yaml", TWO)
    assert run("catalogue", "check", cat).exit_code == 0
    solves.clear()
    monkeypatch.setattr(verified, "solver_version", lambda: "another solver")
    assert run("catalogue", "check", cat).exit_code == 0
    assert len(solves) == 2


def test_a_wrong_entry_is_not_remembered(tmp_path, solves):
    cat = write(tmp_path / "wrong.yaml",
                "schema: 1\npuzzles:\n" + catalogue_entry("w", "North wins in 2"))
    for _ in range(2):
        assert run("catalogue", "check", cat).exit_code == 1
    assert len(solves) == 2


def test_an_unwritable_cache_is_no_failure(tmp_path, monkeypatch, solves):
    blocked = write(tmp_path / "file", "")   # a file where the folder should be
    monkeypatch.setenv("GYGES_CACHE_DIR", str(blocked / "cache"))
    cat = write(tmp_path / "two.yaml", TWO)
    assert run("catalogue", "check", cat).exit_code == 0
    assert run("catalogue", "check", cat).exit_code == 0 and len(solves) == 4
    assert VerifiedEntries.default().path == blocked / "cache" / verified.VERIFIED_CACHE_FILE


def test_export_tells_its_steps_off_a_terminal(tmp_path):
    cat = write(tmp_path / "two.yaml", TWO)
    result = run("export", cat, "--format", "html", "--check", "--out", tmp_path / "b.html")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].startswith(f"[1/2] a ({cat}:3): North wins in 1 ... ok (")
    assert lines[1].startswith(f"[2/2] b ({cat}:7): South wins in 1 ... ok (")
    assert lines[2:4] == ["the solver's commentary on the puzzles ...",
                          "writing the html book ..."]
    quiet = run("export", cat, "--format", "html", "--check", "--out", tmp_path / "b.html",
                "-q")
    assert quiet.exit_code == 0 and quiet.output.startswith("wrote 1 file")


def test_check_ends_its_line_before_ctrl_c(tmp_path, monkeypatch):
    cat = write(tmp_path / "two.yaml", TWO)

    def stop(*args, **kwargs):
        raise KeyboardInterrupt
    monkeypatch.setattr(checking, "search_solve", stop)
    result = run("catalogue", "check", cat)
    assert result.exit_code == 130
    assert result.output == (f"[1/2] a ({cat}:3): North wins in 1 ...\n"
                             "gyges: interrupted: every entry proven so far is remembered\n")


def test_a_second_export_works_out_no_commentary_again(tmp_path, cache_dir, monkeypatch):
    import gyges.puzzles.book.commentary as said

    worked: list[str] = []
    real = said.commentary

    def counted(p):
        worked.append(p.id)
        return real(p)
    monkeypatch.setattr(said, "commentary", counted)
    cat = write(tmp_path / "two.yaml", TWO)
    out = tmp_path / "b.html"
    one = ["--jobs", "1"]      # worked out here, where they are counted
    assert run("export", cat, "--format", "html", "--out", out, *one).exit_code == 0
    assert worked == ["a", "b"] and (cache_dir / said.COMMENTARY_FILE).is_file()
    first = out.read_text()
    worked.clear()
    assert run("export", cat, "--format", "html", "--out", out, *one).exit_code == 0
    assert worked == [] and out.read_text() == first        # the remembered commentary
    write(cat, TWO.replace("themes: [taboo]", "themes: []"))  # an edited entry
    assert run("export", cat, "--format", "html", "--out", out, *one).exit_code == 0
    assert worked == ["b"]
    assert run("export", cat, "--format", "html", "--out", out, "--no-cache",
               *one).exit_code == 0
    assert worked == ["b", "a", "b"]


def test_the_commentary_is_the_same_whatever_the_jobs(cache_dir):
    puzzles = [p for p in all_puzzles() if p.stipulation.moves in (2, 3)][:6]
    alone = solver_commentary(puzzles, jobs=1)
    assert any(c.variations for c in alone.values())
    assert solver_commentary(puzzles, jobs=2) == alone
