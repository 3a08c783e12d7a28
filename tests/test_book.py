"""The book's model (gyges.puzzles.book.model): every puzzle once, numbered in order, chapters by
difficulty (the classics first among equals) or by theme, stipulation or file, repeated
titles told apart, main lines numbered by the winner's moves, the index of themes."""

from __future__ import annotations

import dataclasses
import re

import pytest
from catalogues import all_puzzles, every_puzzle, seed_puzzles
from common import ROOT

from gyges.puzzles.book.model import (
    BOOK_RULES,
    THEME_CHAPTERS,
    Book,
    Chapters,
    is_classic,
    make_book,
    numbered_line,
    rules_chapter,
)
from gyges.puzzles.lines import THEMES


@pytest.fixture(scope="module")
def full_book():
    return make_book(all_puzzles())


def test_every_puzzle_once_numbered_in_order(full_book):
    puzzles = all_puzzles()
    entries = full_book.entries
    assert sorted(e.puzzle.id for e in entries) == sorted(p.id for p in puzzles)
    assert [e.number for e in entries] == list(range(1, len(puzzles) + 1))


def test_chapters_by_difficulty_classics_first_among_equals(full_book):
    """Chapters by difficulty, easiest first, whatever the files' order: problem 1 is an
    easy one, and seed 000's classics come first among their equals. The puzzles under
    other rules than the book's come after them (test_puzzles_under_other_rules_...)."""
    ours = [e for e in full_book.entries if e.puzzle.rules == BOOK_RULES]
    difficulties = [e.puzzle.difficulty or 9 for e in ours]
    assert difficulties == sorted(difficulties)
    assert full_book.entries[0].puzzle.difficulty == 1
    chapters = [c for c in full_book.chapters if c.entries[0].puzzle.rules == BOOK_RULES]
    for chapter in chapters:
        assert len({e.puzzle.difficulty for e in chapter.entries}) == 1
        assert str(chapter.entries[0].puzzle.difficulty) in chapter.title
        for level in {e.puzzle.difficulty for e in chapter.entries}:
            flags = [is_classic(e.puzzle) for e in chapter.entries
                     if e.puzzle.difficulty == level]
            assert flags == sorted(flags, reverse=True)  # classics first
    assert len(chapters) == len({p.difficulty for p in all_puzzles()
                                 if p.rules == BOOK_RULES})
    # Every classic comes before every other puzzle of its difficulty.
    for e in ours:
        if is_classic(e.puzzle):
            assert all(is_classic(o.puzzle) for o in ours
                       if o.number < e.number and o.puzzle.difficulty == e.puzzle.difficulty)


@pytest.mark.parametrize("chapters", ["difficulty", "theme", "stipulation"])
def test_puzzles_under_other_rules_have_a_chapter_per_rule_set_last(chapters):
    """The puzzles under other rules than the book's (the deep wins in 5 without the Renop
    law, bga, dorbec-beginner) come after the others, a chapter per rule set that says
    which rules they use."""
    puzzles = every_puzzle()
    book = make_book(puzzles, chapters=chapters)
    others = [c for c in book.chapters if c.entries[0].puzzle.rules != BOOK_RULES]
    assert len(others) == len({p.rules for p in puzzles if p.rules != BOOK_RULES}) >= 3
    assert book.chapters[-len(others):] == tuple(others)
    for c in others:
        assert len({e.puzzle.rules for e in c.entries}) == 1
        assert c.title == rules_chapter(c.entries[0].puzzle.rules)
        difficulties = [e.puzzle.difficulty or 9 for e in c.entries]
        assert difficulties == sorted(difficulties)     # easier first within it
    titles = [c.title for c in others]
    assert "Without the Renop law: pbmserv with repetition=allowed" in titles
    no_renop = {e.puzzle.id for c in others if c.title.startswith("Without the Renop law")
                for e in c.entries}
    assert no_renop == {p.id for p in puzzles if p.file.endswith("win-in-5-no-renop.yaml")}
    assert {"Under the bga rules", "Under the dorbec-beginner rules"} <= set(titles)


@pytest.mark.parametrize("chapters", ["theme", "stipulation", "file"])
def test_other_chapterings_keep_every_puzzle_once(chapters):
    puzzles = all_puzzles()
    book = make_book(puzzles, chapters=chapters,
                     file_titles={str(ROOT / "puzzles" / "seed000.yaml"): "The classics"})
    assert sorted(e.puzzle.id for e in book.entries) == sorted(p.id for p in puzzles)
    titles = [c.title for c in book.chapters]
    assert len(titles) == len(set(titles))  # one chapter per group
    if chapters == "stipulation":   # the chapters of the book's rules (the others: above)
        for c in (c for c in book.chapters if c.entries[0].puzzle.rules == BOOK_RULES):
            assert len({(e.puzzle.stipulation.kind, e.puzzle.stipulation.moves)
                        for e in c.entries}) == 1
    if chapters == "file":
        assert len(book.chapters) == len({p.file for p in puzzles})
        assert "The classics" in titles
        order = [p.id for p in puzzles]
        assert [e.puzzle.id for e in book.entries] == order  # catalogue order kept
    if chapters == "theme":
        by_title = {title: theme for theme, title in THEME_CHAPTERS.items()}
        for c in book.chapters:
            theme = by_title.get(c.title)
            if theme is not None:   # every puzzle of a theme's chapter carries it
                assert all(any(t == theme or t.startswith(theme + " ")
                               for t in e.puzzle.themes) for e in c.entries)


def test_every_theme_has_a_chapter():
    for theme in THEMES:
        assert theme.removesuffix(" N") in THEME_CHAPTERS, theme


def test_duplicate_titles_are_told_apart(full_book):
    # the shipped titles are unique (catalogue check reports a repeated one): a user's
    # catalogue may repeat them, as here, where every win in 3 is titled alike
    assert len({e.puzzle.title for e in full_book.entries}) == len(full_book.entries)
    book = make_book([dataclasses.replace(p, title="A win in 3")
                      if p.stipulation.moves == 3 else p for p in all_puzzles()])
    titles = [e.title for e in book.entries]
    assert len(titles) == len(set(titles))
    raw = [e.puzzle.title for e in book.entries]
    repeated = {t for t in raw if raw.count(t) > 1}
    assert repeated == {"A win in 3"}
    for e in book.entries:
        if e.puzzle.title in repeated:
            assert re.fullmatch(re.escape(e.puzzle.title) + r" [IVXL]+", e.title)
        else:
            assert e.title == (e.puzzle.title or e.puzzle.id)


def test_main_lines_are_numbered_by_the_winners_moves(full_book):
    """Main lines are numbered by the winner's moves ('1. 62-53 16-15 2. 61-53-33-S' under
    'North wins in 2'): the last number is the number of the winner's moves, the
    stipulation's k."""
    for e in full_book.entries:
        st = e.puzzle.stipulation
        if st.kind == "none" or e.line is None:
            continue
        groups = numbered_line(e.line, e.winner)
        numbers = [int(g.split(".")[0]) for g in groups]
        assert numbers == list(range(1, st.moves + 1)), (e.puzzle.id, groups)
        winner_moves = sum(1 for m in e.line.moves if m.side is e.winner)
        assert winner_moves == st.moves
        # Every move is printed once.
        assert sum(len(g.split()) - 1 for g in groups) == len(e.line.moves)


def test_numbering_of_a_defence_first_line():
    """In 'loses in k' the loser moves first: each number covers a defence and the
    winner's answer."""
    loss = [p for p in all_puzzles() if p.stipulation.kind == "loss"]
    assert loss
    book = make_book(loss)
    for e in book.entries:
        groups = numbered_line(e.line, e.winner)
        first = e.line.moves[0]
        assert first.side is e.puzzle.position.turn and e.winner is first.side.other
        assert groups[0].startswith(f"1. {groups[0].split()[1]}")
        assert len(groups) == e.puzzle.stipulation.moves


def test_theme_index_lists_each_puzzle_under_its_themes(full_book):
    index = dict(full_book.theme_index())
    for e in full_book.entries:
        for t in e.puzzle.themes:
            assert e.number in index[t]
    assert sum(len(v) for v in index.values()) == sum(len(e.puzzle.themes)
                                                      for e in full_book.entries)


def test_chapterings_are_an_enum_of_words():
    puzzles = seed_puzzles()
    assert make_book(puzzles, chapters="theme") == make_book(puzzles, chapters=Chapters.THEME)
    with pytest.raises(ValueError, match="chapters 'colour': use one of difficulty, theme"):
        make_book(puzzles, chapters="colour")


def test_the_book_shows_its_size():
    book = make_book(seed_puzzles(), title="Seeds")
    assert isinstance(book, Book)
    assert repr(book) == f"Book('Seeds', {len(book.entries)} problems in " \
        f"{len(book.chapters)} chapter{'s' if len(book.chapters) != 1 else ''})"
    assert repr(book.entries[0]) == (f"BookEntry(1, {book.entries[0].puzzle.id!r}, "
                                     f"{book.entries[0].title!r})")
