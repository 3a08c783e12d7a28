"""Reading YAML files node by node, so that every error can name its line.

The position files (:mod:`gyges.formats.posfile`), the position lists
(:mod:`gyges.formats.poslist`) and the puzzle catalogue (:mod:`gyges.puzzles`) read YAML
as nodes (``yaml.compose``) rather than plain data: a node knows where it stands in the
file. ``fail`` arguments are callables ``fail(problem, node) -> Exception`` that a
reader builds for its own error type and file.

Every YAML reader of the package reads with :class:`Loader`, PyYAML's safe loader with two
limits, so that no file can exhaust the stack or the memory: nesting deeper than
:data:`MAX_NESTING` levels, and aliases (``*name``) that stand for more than
:data:`MAX_ALIASED` values (the "billion laughs") or for the value they are inside, are
refused with the line where it happens.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import yaml

from gyges.formats.quoting import quoted

Fail = Callable[..., Exception]


MAX_BYTES = 64 << 20  #: the largest YAML file read (64 MiB: a catalogue of many puzzles)


def read_file(path: str | Path, error: Callable[[str], Exception]) -> str:
    """A file's text; a missing, unreadable or too large file raises ``error(problem)``."""
    try:
        with open(path, "rb") as f:
            data = f.read(MAX_BYTES + 1)
        if len(data) > MAX_BYTES:
            raise error(f"larger than {MAX_BYTES >> 20} MiB: not a file to read")
        return data.decode("utf-8")
    except FileNotFoundError:
        raise error("no such file") from None
    except IsADirectoryError:
        raise error("is a directory, not a file") from None
    except UnicodeDecodeError:
        raise error("not a text file (it is not UTF-8)") from None
    except OSError as e:
        raise error(f"cannot read the file: {e.strerror or e}") from None


#: the deepest nesting read: a stored solution tree of the longest stipulation a catalogue
#: takes (a win in 30) nests about 125 levels, real files 6; PyYAML composes a level with
#: two Python frames, so 200 levels stay far below Python's recursion limit (1,000)
MAX_NESTING = 200
#: the most values the aliases of one file may stand for: an alias saves writing a value
#: twice; aliases of aliases that multiply past this are a file built to exhaust memory
MAX_ALIASED = 100_000


class LimitError(yaml.MarkedYAMLError):
    """A YAML text beyond :class:`Loader`'s limits (its ``problem`` says which)."""


class Loader(yaml.SafeLoader):
    """PyYAML's safe loader, refusing nesting deeper than :data:`MAX_NESTING`, an alias
    inside the value it names, and aliases standing for more than :data:`MAX_ALIASED`
    values (:class:`LimitError`, with the place).

    >>> yaml.load("a: [1, [2]]", Loader=Loader)
    {'a': [1, [2]]}
    >>> compose("[" * 300 + "]" * 300, lambda problem, line: ValueError(problem, line))
    Traceback (most recent call last):
    ...
    ValueError: ('nested deeper than 200 levels', 1)
    """

    def __init__(self, stream: str) -> None:
        super().__init__(stream)
        self._depth = 0
        self._open: set[str] = set()        # anchors of the values being composed
        self._sizes: dict[str, int] = {}    # values an anchor's node stands for
        self._count = 0                     # values composed, aliases expanded
        self._aliased = 0                   # values that aliases stood for

    def compose_node(self, parent: yaml.Node | None, index: int) -> yaml.Node | None:
        event = self.peek_event()
        mark: Any = event.start_mark
        if isinstance(event, yaml.AliasEvent):
            alias = event.anchor or ""
            if alias in self._open:
                raise LimitError(None, None, f"the alias *{alias} is inside the value it "
                                 "names: write the value out", mark)
            size = self._sizes.get(alias, 1)
            self._count += size
            self._aliased += size
            if self._aliased > MAX_ALIASED:
                raise LimitError(None, None, f"the aliases (*name) stand for more than "
                                 f"{MAX_ALIASED:,} values: write the values out", mark)
            return super().compose_node(parent, index)
        if self._depth >= MAX_NESTING:
            raise LimitError(None, None, f"nested deeper than {MAX_NESTING} levels", mark)
        anchor = getattr(event, "anchor", None) or None
        start = self._count
        self._count += 1
        self._depth += 1
        if anchor is not None:
            self._open.add(anchor)
        try:
            node = super().compose_node(parent, index)
        finally:
            self._depth -= 1
            if anchor is not None:
                self._open.discard(anchor)
        if anchor is not None:
            self._sizes[anchor] = self._count - start
        return node


def line(node: yaml.Node) -> int:
    """The 1-based line a node starts on."""
    return node.start_mark.line + 1


def compose(text: str, error: Callable[[str, int | None], Exception]) -> yaml.Node | None:
    """The root node of a YAML text; malformed YAML raises ``error(problem, line)``.

    >>> compose("a: 1", ValueError).value[0][0].value
    'a'
    """
    try:
        return yaml.compose(text, Loader=Loader)
    except LimitError as e:
        mark = e.problem_mark
        raise error(str(e.problem), mark.line + 1 if mark else None) from None
    except yaml.MarkedYAMLError as e:
        mark = e.problem_mark or e.context_mark
        what = " ".join(x for x in (e.context, e.problem) if x)
        raise error(f"malformed YAML: {what}", mark.line + 1 if mark else None) from None
    except yaml.reader.ReaderError as e:  # a character YAML refuses (a NUL, a control)
        line = text[: e.position].count("\n") + 1 if isinstance(e.position, int) else None
        c = e.character
        shown = f"U+{c:04X}" if isinstance(c, int) else f"U+{ord(c):04X}" if c else "?"
        raise error(f"malformed YAML: the character {shown} is not allowed in YAML text",
                    line) from None
    except yaml.YAMLError as e:
        raise error(f"malformed YAML: {' '.join(str(e).split())}", None) from None


def kind(node: yaml.Node) -> str:
    """What a node is, for messages: ``a mapping``, ``a list`` or its text."""
    if isinstance(node, yaml.MappingNode):
        return "a mapping"
    if isinstance(node, yaml.SequenceNode):
        return "a list"
    return quoted(node.value)


def is_null(node: yaml.Node) -> bool:
    return isinstance(node, yaml.ScalarNode) and node.tag.endswith(":null")


def suggest(word: str, choices: Iterable[str], aliases: dict[str, str] | None = None) -> str:
    """``"did you mean 'x'? "`` for a close choice (or an alias), else ``""``."""
    w = word.lower()
    if aliases and w in aliases:
        return f"did you mean {aliases[w]!r}? "
    close = difflib.get_close_matches(w, list(choices), n=1, cutoff=0.5)
    return f"did you mean {close[0]!r}? " if close else ""


def mapping(node: yaml.MappingNode, fail: Fail) -> dict[str, tuple[yaml.Node, yaml.Node]]:
    """A mapping node's entries by key text, refusing duplicate and non-text keys."""
    out: dict[str, tuple[yaml.Node, yaml.Node]] = {}
    for key_node, value_node in node.value:
        if not isinstance(key_node, yaml.ScalarNode):
            raise fail(f"a key must be a word, not {kind(key_node)}", key_node)
        key = key_node.value
        if key in out:
            raise fail(
                f"{key!r} appears twice (first on line {line(out[key][0])}): keep one",
                key_node,
            )
        out[key] = (key_node, value_node)
    return out


def scalar(node: yaml.Node, what: str, expected: str, fail: Fail) -> yaml.ScalarNode:
    """The node if it is a (non-null) scalar; otherwise ``what must be expected``."""
    if not isinstance(node, yaml.ScalarNode) or is_null(node):
        found = "nothing" if is_null(node) else kind(node)
        raise fail(f"{what} must be {expected}, found {found}", node)
    return node
