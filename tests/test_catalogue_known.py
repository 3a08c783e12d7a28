"""``catalogue add`` refuses, before solving, a puzzle already in the catalogue it joins:
the catalogue files of the folder of ``--to`` (its subfolders included), and those of
``--against`` (default ``puzzles/`` when it exists), by the appender's one duplicate rule
(:func:`gyges.puzzles.catalogue.find_twin`)."""

from __future__ import annotations

import shutil

import pytest
from catalogues import SEEDS, run
from common import BOUNCING, catalogue_entry, write

import gyges_cli.catalogue
from gyges.puzzles.catalogue import check_puzzle, known_puzzles, load_all, load_catalogue

TABOO = "....../1...../3.23../3.211./2.132./...... S"   # the shipped seed000-taboo


@pytest.fixture
def no_solver(monkeypatch: pytest.MonkeyPatch) -> None:
    """The solver is not to be called."""
    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("the solver was called")
    monkeypatch.setattr(gyges_cli.catalogue, "solve", refuse)


def shipped(workdir) -> None:
    """``puzzles/seed000.yaml`` in the working directory's ``puzzles/``."""
    (workdir / "puzzles").mkdir()
    shutil.copy(SEEDS, workdir / "puzzles" / "seed000.yaml")


def test_add_refuses_a_shipped_puzzle_before_solving(workdir, no_solver):
    shipped(workdir)
    result = run("catalogue", "add", TABOO, "--to", "puzzles/mine.yaml", "--id", "x")
    assert result.exit_code == 2
    assert result.output == ("gyges: puzzles/seed000.yaml:38: puzzle x: this position is "
                             "already puzzle seed000-taboo (line 38)\n")
    assert not (workdir / "puzzles" / "mine.yaml").exists()


def test_the_default_against_is_puzzles(workdir, no_solver):
    """Outside the folder of --to too: ./puzzles counts, as for ``generate``; a mirror
    image is the same puzzle."""
    shipped(workdir)
    mirrored = "....../.....1/..32.3/.112.3/.231.2/...... S"
    result = run("catalogue", "add", mirrored, "--to", "elsewhere/mine.yaml", "--id", "x")
    assert result.exit_code == 2 and "mirrored or turned around, is already puzzle " \
        "seed000-taboo" in result.output
    result = run("catalogue", "add", BOUNCING, "--to", "mine.yaml", "--id", "seed000-taboo")
    assert result.exit_code == 2 and "already puzzle seed000-bouncing" in result.output


def test_the_docs_example_adds_a_new_puzzle(workdir):
    """docs/catalogue.md's example: the taboo position under Dorbec's rules is another
    puzzle, and the catalogue it joins stays free of duplicates."""
    shipped(workdir)
    result = run("catalogue", "add", TABOO, "--rules", "dorbec", "--to", "puzzles/mine.yaml",
                 "--id", "my-taboo", "--title", "Taboo, by Dorbec's rules")
    assert result.exit_code == 0, result.output
    puzzles, errors = load_all(["puzzles"], recursive=True)
    assert errors == [] and len(puzzles) == 6
    assert check_puzzle(load_catalogue("puzzles/mine.yaml").puzzles[0]) == []


def test_the_folder_of_the_target_counts_with_its_subfolders(tmp_path, workdir, no_solver):
    """Another catalogue file under the folder of --to (a subfolder's), whatever --against;
    a YAML file there that is not a catalogue is passed over."""
    book = tmp_path / "book"
    (book / "sub").mkdir(parents=True)
    write(book / "sub" / "old.yaml", "schema: 1\npuzzles:\n" + catalogue_entry("old"))
    write(book / "notes.yaml", "just: notes\n")
    against = write(tmp_path / "empty.yaml", "schema: 1\npuzzles: []\n")
    result = run("catalogue", "add", BOUNCING, "--to", book / "new.yaml", "--id", "b",
                 "--against", against)
    assert result.exit_code == 2 and "is already puzzle old" in result.output
    assert not (book / "new.yaml").exists()


def test_against_names_other_catalogues(tmp_path, workdir, no_solver):
    other = write(tmp_path / "other.yaml", "schema: 1\npuzzles:\n" + catalogue_entry("old"))
    result = run("catalogue", "add", BOUNCING, "--to", tmp_path / "x" / "new.yaml",
                 "--id", "b", "--against", other)
    assert result.exit_code == 2 and f"gyges: {other}:3: puzzle b: this position is " \
        "already puzzle old" in result.output
    result = run("catalogue", "add", BOUNCING, "--to", tmp_path / "x" / "new.yaml",
                 "--id", "old", "--against", tmp_path)
    assert result.exit_code == 2 and "the id 'old' is already used" in result.output


def test_known_puzzles_reads_every_file_once(tmp_path):
    write(tmp_path / "a.yaml", "schema: 1\npuzzles:\n" + catalogue_entry("a"))
    write(tmp_path / "bad.yaml", "schema: 9\n")
    assert [p.id for p in known_puzzles([tmp_path, tmp_path / "a.yaml"],
                                        skip_unreadable=True)] == ["a"]
    with pytest.raises(ValueError, match="bad.yaml"):
        known_puzzles([tmp_path])
