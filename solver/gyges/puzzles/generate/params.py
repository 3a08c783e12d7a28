"""A generation run's parameters (:class:`Params`): everything its puzzles depend on, stored
in every record of its state file, and read from the words a user gives them.

>>> from gyges.game.rules import PRESETS
>>> p = Params(3, PRESETS["pbmserv"], seed=7, sources=(Source.PLAY,))
>>> p
Params(win in 3, rules=pbmserv, seed=7, sources=('play',))
>>> Params.from_json(p.to_json()) == p
True
>>> p.command(10)
"gyges generate --stipulation 'win in 3' --rules pbmserv --seed 7 --count 10 --source play"
>>> generated_moves("win in 2"), parse_themes("bounce chain 2, taboo")
(2, ('bounce chain 2', 'taboo'))
"""

from __future__ import annotations

import dataclasses
import enum
from typing import Any

from gyges.game.rules import PRESETS, RuleError, RuleSet, closest_preset, parse_override
from gyges.puzzles.catalogue.schema import theme_problem
from gyges.puzzles.generate.games import GAMES_TEXT, GAMES_WAY
from gyges.puzzles.generate.play import PLAY_WAY
from gyges.search.stipulation import Stipulation

__all__ = ["COMPOSE_EVERY", "COMPOSE_EVERY_THEMED", "MOVES", "SOURCES", "STATE_FORMAT",
           "GenerateError", "Params", "ParamsError", "Source", "generated_moves", "parse_themes"]

#: version of the state file's records: records of another are not resumed (3: a games
#: candidate is judged with its game's history)
STATE_FORMAT = 3
MOVES = range(2, 7)  #: the stipulations the generator makes: wins in 2 to 6


class GenerateError(ValueError):
    """Parameters that cannot be used, or a state file that cannot be resumed."""


class ParamsError(GenerateError):
    """A parameter given in words that cannot be used: ``field`` names the parameter
    (``stipulation``, ``themes``), ``problem`` says what is wrong, quoting the words."""

    def __init__(self, field: str, problem: str) -> None:
        super().__init__(f"{field}: {problem}")
        self.field = field
        self.problem = problem


class Source(str, enum.Enum):
    """Where a run's candidates come from (docs/generate.md)."""

    PLAY = "play"        #: random, engine-guided play from random setups
    COMPOSE = "compose"  #: the CP-SAT construction around a drawn design
    GAMES = "games"      #: the builtin engine's self-play games from random setups

    def __str__(self) -> str:
        return self.value

    @property
    def text(self) -> str:
        """How the ``source`` of this source's catalogue entries begins (what ``--select
        source=play``, ``compose`` or ``games`` looks for).

        >>> Source.GAMES.text
        'engine self-play'
        """
        return _SOURCE_TEXTS[self.value]


_SOURCE_TEXTS = {"play": "random play from random setups", "compose": "CP-SAT construction",
                 "games": GAMES_TEXT}


#: The sources of a run of ``--source both`` (the default): play and the construction. The
#: engine's games are a source of their own (``--source games``): their candidates cost
#: several times a play candidate's (the engine's nodes at every move), and the default
#: keeps its speed.
SOURCES: tuple[Source, ...] = (Source.PLAY, Source.COMPOSE)

#: In a run of both sources, one candidate in this many is constructed (the last of each
#: block: candidates COMPOSE_EVERY - 1, 2 * COMPOSE_EVERY - 1, ...), the others come from
#: play. What it trades: a constructed candidate takes the time of 30 to 70 play
#: candidates (CP-SAT solves and a quick proof for each of its twenty-odd proposals,
#: against one line of play) for about as many sound puzzles, so each one makes a run
#: slower; its puzzles are of other kinds (designed keys and landings), which is why it has
#: a share at all. At one in 256 it takes about a fifth of a run's time, and ``--source
#: both`` at most 1.5 times ``--source play`` for the same puzzles; runs of fewer than 256
#: candidates (ten wins in 2, 3 or 4) construct none.
#: ``python -m bench.bench_generate --share`` measures both sources' cost and yield.
COMPOSE_EVERY = 256
#: With themes asked for, every other candidate is constructed: the construction builds
#: the themes to order, where play meets them by chance.
COMPOSE_EVERY_THEMED = 2


@dataclasses.dataclass(frozen=True)
class Params:
    """Everything a run's results depend on (stored in every state record)."""

    moves: int
    rules: RuleSet
    seed: int = 0
    sources: tuple[Source, ...] = SOURCES
    themes: tuple[str, ...] = ()
    no_duals: bool = False
    min_tries: int = 2

    def __post_init__(self) -> None:
        object.__setattr__(self, "sources", tuple(Source(s) for s in self.sources))
        object.__setattr__(self, "themes", tuple(self.themes))

    def __repr__(self) -> str:
        shown = [self.stipulation.command(), f"rules={_rules_text(self.rules)}"]
        for f in dataclasses.fields(self)[2:]:
            value = getattr(self, f.name)
            if f.name == "seed" or value != f.default:
                value = tuple(str(v) for v in value) if f.name == "sources" else value
                shown.append(f"{f.name}={value!r}")
        return f"Params({', '.join(shown)})"

    @property
    def compose_every(self) -> int | None:
        """In a run of both sources, one candidate in this many is constructed
        (:data:`COMPOSE_EVERY`, :data:`COMPOSE_EVERY_THEMED` with themes); None for one
        source."""
        if len(set(self.sources)) < 2:
            return None
        return COMPOSE_EVERY_THEMED if self.themes else COMPOSE_EVERY

    def source_of(self, index: int) -> Source:
        """Where candidate ``index`` comes from: the last of every :attr:`compose_every`
        is constructed, the others come from play.

        >>> from gyges.game.rules import PRESETS
        >>> p = Params(2, PRESETS["pbmserv"])
        >>> [i for i in range(600) if p.source_of(i) is Source.COMPOSE]
        [255, 511]
        """
        every = self.compose_every
        if every is None:
            return self.sources[0]
        return Source.COMPOSE if index % every == every - 1 else Source.PLAY

    @property
    def stipulation(self) -> Stipulation:
        """What every puzzle of the run is: the side to move wins in ``moves``."""
        return Stipulation("win", self.moves)

    def command(self, count: int) -> str:
        """The ``gyges generate`` options of this run."""
        preset, changes = closest_preset(self.rules)
        parts = [f"gyges generate --stipulation '{self.stipulation.command()}' --rules {preset}"]
        parts += [f"--rule {k}={v}" for k, v in changes.items()]
        parts.append(f"--seed {self.seed} --count {count}")
        if self.sources != SOURCES:
            parts.append(f"--source {self.sources[0]}")
        if self.themes:
            parts.append(f"--themes '{','.join(self.themes)}'")
        if self.no_duals:
            parts.append("--no-duals")
        if self.min_tries != 2:
            parts.append(f"--min-tries {self.min_tries}")
        return " ".join(parts)

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "format": STATE_FORMAT, "moves": self.moves, "rules": self.rules.describe(),
            "seed": self.seed, "sources": [s.value for s in self.sources],
            "themes": list(self.themes), "no_duals": self.no_duals,
            "min_tries": self.min_tries}
        if Source.PLAY in self.sources:
            # the way play candidates are made (:data:`~gyges.puzzles.generate.play.PLAY_WAY`): a
            # state file of another way is not resumed
            d["play"] = PLAY_WAY
        if Source.GAMES in self.sources:
            d["games"] = GAMES_WAY   # the engine's settings: they make the games
        if self.compose_every is not None:
            d["compose_every"] = self.compose_every   # which candidates are constructed
        return d

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Params:
        """The parameters :meth:`to_json` wrote (ValueError if they are not such)."""
        if d.get("format") != STATE_FORMAT:
            raise ValueError(f"parameters of record format {d.get('format')!r}: this program "
                             f"reads format {STATE_FORMAT}")
        try:
            rules = PRESETS["pbmserv"].with_options(
                dict(parse_override(o) for o in str(d["rules"]).split()))
            return cls(int(d["moves"]), rules, int(d["seed"]), tuple(d["sources"]),
                       tuple(d["themes"]), bool(d["no_duals"]), int(d["min_tries"]))
        except (KeyError, TypeError, RuleError) as e:
            raise ValueError(f"not a generation run's parameters: {e}") from None


def _rules_text(rules: RuleSet) -> str:
    preset, changes = closest_preset(rules)
    return " ".join([preset, *(f"{k}={v}" for k, v in changes.items())])


def generated_moves(text: str) -> int:
    """The N of a stipulation the generator makes, ``win in N`` (N in :data:`MOVES`);
    :class:`ParamsError` (field ``stipulation``) for any other.

    >>> generated_moves("win in 1")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    gyges.puzzles.generate.params.ParamsError: stipulation: win in 1: choose 2, 3, 4, 5 or 6 ...
    >>> generated_moves("win in 7")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    gyges.puzzles.generate.params.ParamsError: stipulation: win in 7: choose 2, 3, 4, 5 or 6 ...
    """
    try:
        st = Stipulation.parse(text)
    except ValueError:
        st = None
    if st is None or st.kind != "win" or st.side is not None:
        raise ParamsError("stipulation", (
            f"{text!r}: write 'win in N' with N = {_choices()}, like 'win in 2' (the "
            "generator composes wins for the side to move, which it chooses)"))
    if st.moves not in MOVES:
        why = ("a win in 1 is never a puzzle: the first move that lands wins" if st.moves < 2
               else f"the generator's walk and proofs go {MOVES[-1]} moves deep at most")
        raise ParamsError("stipulation", f"win in {st.moves}: choose {_choices()} ({why})")
    return st.moves


def _choices() -> str:
    """The stipulations' lengths the generator makes, in words: ``2, 3, 4, 5 or 6``."""
    *first, last = MOVES
    return f"{', '.join(map(str, first))} or {last}"


def parse_themes(text: str | None) -> tuple[str, ...]:
    """The themes every puzzle must show, from a comma-separated list; :class:`ParamsError`
    (field ``themes``) for a theme that is not known or that no generated puzzle shows."""
    if not text:
        return ()
    themes = tuple(t.strip() for t in text.split(",") if t.strip())
    for t in themes:
        problem = theme_problem(t)
        if problem:
            raise ParamsError("themes", problem)
        if t == "unstoppable":
            raise ParamsError("themes", (
                "'unstoppable' is the theme of a 'loses in N' puzzle; the generator composes "
                "'wins in N' puzzles"))
    return themes
