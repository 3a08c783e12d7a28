"""A generation run's catalogue output: each sound record written as a catalogue entry
(:func:`entry_text`), the signed catalogue file of one or more runs
(:func:`catalogue_text`), and writing it (:func:`write_catalogue`): a file the generator
wrote for the same puzzles is replaced, any other catalogue (a user's, or one holding
puzzles this run would not write again) gains the new entries through the one appender
(:func:`gyges.puzzles.catalogue.writing.appended_text`): no puzzle of a catalogue is ever lost.

>>> from gyges.game.rules import PRESETS
>>> text = catalogue_text([(Params(2, PRESETS["pbmserv"], 0), [])], title="Mine")
>>> print(text)  # doctest: +ELLIPSIS
# gyges generate --stipulation 'win in 2' --rules pbmserv --seed 0 --count 0
# Every entry was proven by the solver; docs/generate.md explains the rating.
schema: 1
title: "Mine"
puzzles: []
# written by gyges; checksum ...
"""

from __future__ import annotations

import json
import logging
from collections.abc import Collection, Sequence
from pathlib import Path

from gyges.formats.notation import parse_move
from gyges.game.position import Position
from gyges.output import OutputError, is_signed, signature_removed, signed, write_atomic
from gyges.puzzles.catalogue.authoring import Findings
from gyges.puzzles.catalogue.schema import CatalogueError, parse_catalogue
from gyges.puzzles.catalogue.writing import Duplicates, appended_text
from gyges.puzzles.generate.games import games_source
from gyges.puzzles.generate.params import GenerateError, Params, Source
from gyges.puzzles.generate.state import CandidateRecord
from gyges.puzzles.lines import distinct_title, line_themes, play_line
from gyges.puzzles.rating import rate
from gyges.search.stipulation import Stipulation

__all__ = ["OutputNotCatalogue", "catalogue_entries", "catalogue_text", "check_catalogue_out",
           "current_themes", "entry_id", "entry_text", "proof_notes", "write_catalogue"]

_LOG = logging.getLogger("gyges.generate")

#: A run's records with their parameters: what a catalogue file is written from.
Runs = Sequence[tuple[Params, Sequence[CandidateRecord]]]


class OutputNotCatalogue(GenerateError):
    """The output file exists and is not a catalogue the new puzzles can be added to."""


def entry_id(params: Params, index: int) -> str:
    """The id of the entry of candidate ``index``: ``gen-w2-s11-00005``."""
    return f"gen-w{params.moves}-s{params.seed}-{index:05d}"


def current_themes(rec: CandidateRecord, params: Params) -> list[str]:
    """The record's themes as the catalogue checker sees them now: its main line replayed
    (the engine's representative paths decide ``taboo``), plus ``Renop`` as proven."""
    pos = _position(rec)
    st = Stipulation("win", params.moves, pos.turn)
    themes = line_themes(play_line(pos, params.rules, rec.main_line), params.rules, st)
    if "Renop" in rec.themes:
        themes.append("Renop")
    return themes


def entry_text(rec: CandidateRecord, params: Params, taken: Collection[str] = ()) -> str:
    """A catalogue entry (YAML text) for a sound record, titled by its themes, its key's
    square and its length (none of the titles ``taken``:
    :func:`~gyges.puzzles.lines.distinct_title`); ValueError if its main line no longer
    replays (a record made by an older engine)."""
    pos = _position(rec)
    st = Stipulation("win", params.moves, pos.turn)
    themes = tuple(current_themes(rec, params))
    f = rec.features
    if f is None:
        raise ValueError(f"candidate {rec.index}: a sound record without its features")
    notes = proof_notes(st, f.quiet, rec.duals)
    source = Source.PLAY.text
    history = [Position.from_string(h) for h in rec.design.get("history", ())]
    # rated again with the game's history: the current ladder, also for older records
    rated = rate(pos, params.rules, st, rec.key, main_line=rec.main_line, history=history)
    if rec.source is Source.GAMES:
        source = games_source(history)
    if rec.source is Source.COMPOSE:
        d = rec.design
        kind = "relocation" if parse_move(rec.key or "", pos, params.rules, history
                                          ).is_replace else "plain"
        # the key's kind is the key's own (the solver's key may not be the designed one)
        source = (f"{Source.COMPOSE.text}: a {kind} key, then a landing threat with "
                  f"{d['bounces']} bounce{'s' if d['bounces'] != 1 else ''}"
                  f"{' crossing its own path' if d['crossing'] else ''}, "
                  f"{d['defenders']} defender{'s' if d['defenders'] != 1 else ''} on the shore"
                  f"{', boxed in after the key (no move)' if d.get('stalemate') else ''}")
    found = Findings(st, rec.key, rec.main_line, (), themes)
    return found.entry(
        entry_id(params, rec.index), pos, params.rules, difficulty=rated.difficulty,
        title=distinct_title(play_line(pos, params.rules, rec.main_line, history), st, themes,
                             taken),
        source=source,
        credit=f"composed by gyges generate, seed {params.seed} (candidate {rec.index})",
        notes=notes, history=history,
    )


def proof_notes(stipulation: Stipulation, quiet: bool, duals: Sequence[str]) -> str:
    """The notes of a generated entry: what was proven, and its duals as a flaw (the first
    two, each with its line: :func:`~gyges.puzzles.generate.soundness.dual_notes`). The rating's
    figures stay in the state file: the book shows what a solver reads.

    >>> from gyges.game.rules import Side
    >>> print(proof_notes(Stipulation("win", 3, Side.SOUTH), False,
    ...                   ["after 1. 15x12=36 26x36=12 2. ...: 52-42x32=22 or 53-32-22"]))
    Proven by the solver: South wins in 3 and no sooner; the only key. Flaw: duals, e.g. \
after 1. 15x12=36 26x36=12 2. ...: 52-42x32=22 or 53-32-22.
    """
    notes = stipulation.proof_note("the only key" + (", a quiet one" if quiet else ""))
    if duals:   # how many: not said (a note states no count the check does not redo)
        notes += " Flaw: duals, e.g. " + "; ".join(duals[:2]) + "."
    return notes


def _position(rec: CandidateRecord) -> Position:
    if rec.position is None:
        raise ValueError(f"candidate {rec.index}: a record without a position")
    return rec.position


def catalogue_entries(runs: Runs, taken: Collection[str] = ()) -> list[str]:
    """The entries of the records of one or more runs, each run's sorted by index, no two
    titled alike nor like one of ``taken``; a record whose main line no longer replays is
    left out, with a warning in the log."""
    entries = []
    titles = set(taken)
    for params, records in runs:
        for r in sorted(records, key=lambda r: r.index):
            try:
                text = entry_text(r, params, titles)
                entries.append(text)
                titles |= {p.title for p in parse_catalogue("schema: 1\npuzzles:\n" + text
                                                            ).puzzles}
            except ValueError as e:
                _LOG.warning("candidate %d left out: its main line no longer replays: %s",
                             r.index, e)
    return entries


def catalogue_text(runs: Runs, title: str = "", counts: Sequence[int] = ()) -> str:
    """The catalogue file of the records of one or more runs (each run's sorted by index),
    signed (gyges.output) so that a later run knows whether the user edited it. The head
    gives each run's command with the ``--count`` it asked for (``counts``; default: as many
    as its records)."""
    return _catalogue_file(runs, title, catalogue_entries(runs), counts)


def _catalogue_file(runs: Runs, title: str, entries: Sequence[str],
                    counts: Sequence[int] = ()) -> str:
    asked = list(counts) or [len(records) for _, records in runs]
    head = [f"# {params.command(n)}" for (params, _), n in zip(runs, asked, strict=True)]
    head += ["# Every entry was proven by the solver; docs/generate.md explains the rating.",
             "schema: 1",
             "title: " + json.dumps(title or "Generated puzzles: " + ", ".join(
                 dict.fromkeys(p.stipulation.command() for p, _ in runs)))]
    body = "".join(entries)
    head.append("puzzles:" if body else "puzzles: []")
    return signed("\n".join(head) + "\n" + body, "#")


def write_catalogue(path: str | Path, runs: Runs, title: str = "", force: bool = False,
                    counts: Sequence[int] = (), taken: Collection[str] = ()) -> str:
    """Write the catalogue file of the records of one or more runs and return its text
    (``counts``: the ``--count`` each run asked for, for the head; ``taken``: titles the
    new entries must not have, those of the catalogue they join: the file's own, when it
    is kept, count too).

    The write is atomic. A file the generator wrote (signed, unchanged) whose puzzles are
    all among the new entries is replaced; any other catalogue (a user's, an edited one, or
    one holding puzzles of another run) keeps its text and gains the new entries (those it
    has are skipped: the appender's duplicate rule); anything else is refused
    (:class:`OutputNotCatalogue`) unless ``force``, which replaces the file.
    """
    path = Path(path)
    new_ids = {entry_id(params, r.index) for params, records in runs for r in records}
    old = path.read_text(encoding="utf-8") if path.exists() and not force else None
    if old is not None:
        try:
            ours = is_signed(old)
            puzzles = parse_catalogue(old, str(path)).puzzles
        except CatalogueError as e:
            raise OutputNotCatalogue(f"{e}; it is not a catalogue the new puzzles can be "
                                     "added to") from None
        held = {p.id for p in puzzles}
        if not ours or not held <= new_ids:
            entries = catalogue_entries(runs, {*taken, *(p.title for p in puzzles)})
            try:
                result = appended_text(signature_removed(old) if ours else old, entries,
                                       str(path), duplicates=Duplicates.SKIP)
            except CatalogueError as e:
                raise OutputNotCatalogue(f"{e}; it is not a catalogue the new puzzles can "
                                         "be added to") from None
            text = signed(result.text, "#") if ours else result.text
            if result.added:
                _write(path, text)
            return text
    entries = catalogue_entries(runs, taken)
    text = _catalogue_file(runs, title, entries, counts)
    _write(path, text)
    return text


def _write(path: Path, text: str) -> None:
    try:
        write_atomic(path, text)
    except OutputError as e:
        raise GenerateError(str(e)) from None


def check_catalogue_out(out: Path, force: bool = False) -> None:
    """Before a run: an existing ``out`` must be a catalogue of the generator's or one the
    new puzzles can be added to (unless ``force``); :class:`OutputNotCatalogue`."""
    if out.exists() and not force:
        try:
            old_text = out.read_text(encoding="utf-8")
            if not is_signed(old_text):
                parse_catalogue(old_text, str(out))
        except (OSError, UnicodeDecodeError, CatalogueError) as e:
            raise OutputNotCatalogue(
                f"{out}: exists and is not a catalogue the new puzzles can be added to "
                f"({e})") from None
