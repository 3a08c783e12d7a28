"""Every ``gyges`` command example of README.md and docs/*.md, run, and its output compared
with the page's, so that the docs cannot go stale.

An example is a line of a code block (fenced, or indented by four spaces) that starts with
``gyges `` or ``$ gyges `` (``\\`` continues it on the next line; ``# ...`` is a comment, and
``> FILE`` sends its output to FILE). After a ``$ gyges`` line, the lines up to the next
``$`` line or the block's end are the output the page shows: the command's standard output
must be the same, up to what varies from run to run (times such as ``0.38 s`` and rates
such as ``160012 nodes/s``), and a ``...`` standing alone (between spaces, or a line of its
own) stands for any text, as doctest's ELLIPSIS.

Each example runs as the ``gyges`` program, with the repository's root as the page assumes,
in a temporary folder holding copies of ``tests/data``, ``puzzles`` and ``data``; the
examples of one code block share their folder and run in the page's order (a later one may
read what an earlier one wrote). Each has a time limit (``TIMEOUT``).

An HTML comment right before a block marks examples the default run leaves out, with the
reason in brackets::

    <!-- doc-examples: skip (needs Helios, an external program) -->
    <!-- doc-examples: slow on "export --format pdf" (typesets the whole catalogue) -->

``skip`` never runs the example (a synopsis, a cluster, a program this machine lacks, hours
of work), ``slow`` runs it only in ``make test-all`` (pytest mark ``slow``); without ``on
"TEXT"`` the mark is for every example of the block, with it only for those whose command
contains TEXT.
"""

from __future__ import annotations

import doctest
import os
import re
import shlex
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
#: What an example's folder holds: copies of these, under the same relative names.
COPIED = ("tests/data", "puzzles", "data")
GYGES = str(Path(sys.executable).with_name("gyges"))
#: Seconds an example may take: the default run's (a few seconds on a quiet machine;
#: room for a machine whose cores are busy with other work), and a slow example's.
TIMEOUT = 300
SLOW_TIMEOUT = 850

MARK = re.compile(r'<!--\s*doc-examples:\s*(\w+)\s*(?:on\s+"([^"]+)"\s*)?(?:\((.*)\))?\s*-->')
FENCE = re.compile(r"^(\s*)(```|~~~)")
ELLIPSIS = re.compile(r"(?<!\S)\.\.\.(?!\S)")
#: What varies from run to run, and what it is compared as.
VARYING = [
    (re.compile(r"\b\d+ nodes/s\b"), "<N> nodes/s"),
    (re.compile(r"\b\d+(?:\.\d+)? m?s\b"), "<T> s"),
]


@dataclass(frozen=True)
class Mark:
    """A ``<!-- doc-examples: ... -->`` comment: ``skip`` or ``slow``, for the examples
    whose command contains ``on`` (every one when empty), and why."""

    kind: str
    on: str
    reason: str


@dataclass(frozen=True)
class Example:
    """One command of a page: where it is, the command (continuations joined), the output
    the page shows (``None`` when it shows none) and the mark that applies, if any."""

    page: str
    line: int
    block: int
    command: str
    output: str | None
    mark: Mark | None

    @property
    def id(self) -> str:
        return f"{self.page}:{self.line}"


def _parse_mark(text: str, where: str) -> Mark:
    m = MARK.fullmatch(text.strip())
    if m is None or m.group(1) not in ("skip", "slow") or not (m.group(3) or "").strip():
        raise ValueError(f"{where}: a doc-examples comment is '<!-- doc-examples: skip|slow "
                         f'[on "TEXT"] (why) -->\': {text.strip()}')
    return Mark(m.group(1), m.group(2) or "", m.group(3).strip())


def _blocks(text: str, page: str) -> list[tuple[int, list[str], list[Mark]]]:
    """The code blocks of a page: the line number of its first line, its lines (without the
    block's indentation) and the marks right before it."""
    lines = text.split("\n")
    blocks: list[tuple[int, list[str], list[Mark]]] = []
    marks: list[Mark] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        fence = FENCE.match(line)
        if fence:
            indent, end = len(fence.group(1)), fence.group(2)
            body = []
            i += 1
            while i < len(lines) and not lines[i].strip().startswith(end):
                body.append(lines[i][indent:] if lines[i][:indent].isspace() else lines[i])
                i += 1
            blocks.append((i - len(body) + 1, body, marks))
            marks = []
        elif line.startswith("    ") and (i == 0 or not lines[i - 1].strip()):
            start, body = i + 1, []
            while i < len(lines) and (lines[i].startswith("    ") or not lines[i].strip()):
                body.append(lines[i][4:])
                i += 1
            blocks.append((start, body, marks))
            marks = []
            continue
        elif "doc-examples" in line:
            marks.append(_parse_mark(line, f"{page}:{i + 1}"))
        elif line.strip() and not line.strip().startswith("<!--"):
            marks = []
        i += 1
    return blocks


def _examples(path: Path) -> list[Example]:
    page = path.relative_to(ROOT).as_posix()
    found = []
    for start, body, marks in _blocks(path.read_text(encoding="utf-8"), page):
        j = 0
        while j < len(body):
            line = body[j].rstrip()
            prompt = line.startswith("$ gyges ")
            if not (prompt or line.startswith("gyges ")):
                j += 1
                continue
            first = start + j
            command = line.removeprefix("$ ")
            while command.endswith("\\") and j + 1 < len(body):
                j += 1
                command = command[:-1] + " " + body[j].strip()
            j += 1
            output = None
            if prompt:
                shown = []
                while j < len(body) and not body[j].startswith("$"):
                    shown.append(body[j])
                    j += 1
                output = "\n".join(shown)
            mark = next((m for m in marks if m.on in command), None)
            found.append(Example(page, first, start, command, output, mark))
    return found


EXAMPLES = [e for page in PAGES for e in _examples(page)]


def _param(e: Example) -> object:
    marks: list[pytest.MarkDecorator] = []
    if e.mark and e.mark.kind == "skip":
        marks.append(pytest.mark.skip(reason=e.mark.reason))
    elif e.mark and e.mark.kind == "slow":
        marks.append(pytest.mark.slow)
    return pytest.param(e, id=e.id, marks=marks)


def normalized(text: str) -> str:
    """``text`` with what varies from run to run replaced, lines without trailing spaces,
    without blank lines at its end."""
    for pattern, replacement in VARYING:
        text = pattern.sub(replacement, text)
    return "\n".join(line.rstrip() for line in text.split("\n")).strip("\n")


def matches(shown: str, output: str) -> bool:
    """Whether ``output`` is what the page shows, ``...`` standing for any text.

    >>> matches("12 nodes in 0.38 s (31 nodes/s)", "12 nodes in 1.2 s (10 nodes/s)")
    True
    >>> matches("13 nodes in 0.38 s", "12 nodes in 0.38 s")
    False
    >>> matches("a\\n  ...\\nz", "a\\n  b\\n  c\\nz")
    True
    >>> matches("....../3..... N", "....../3..... S")
    False
    """
    pieces = ELLIPSIS.split(normalized(shown))
    pattern = "[\\s\\S]*?".join(re.escape(p) for p in pieces)
    return re.fullmatch(pattern, normalized(output)) is not None


_folders: dict[tuple[str, int], Path] = {}
_done: set[Example] = set()


def _folder(e: Example, factory: pytest.TempPathFactory) -> Path:
    """The block's folder: copies of what the examples read, made at its first example."""
    key = (e.page, e.block)
    if key not in _folders:
        folder = factory.mktemp("doc-example")
        for name in COPIED:
            shutil.copytree(ROOT / name, folder / name)
        _folders[key] = folder
    return _folders[key]


def run(e: Example, cwd: Path) -> subprocess.CompletedProcess[str]:
    """The example's command in ``cwd`` (as ``gyges``, its output captured, or written to
    the file after ``>``)."""
    argv = shlex.split(e.command, comments=True)
    assert argv[0] == "gyges", e.command
    bad = [a for a in argv if a in ("|", "&", "&&", ";", "<", ">>")]
    assert not bad, f"{e.id}: {bad[0]!r} needs a shell: mark the block with a reason"
    target = None
    if ">" in argv:
        target = cwd / argv[argv.index(">") + 1]
        argv = argv[:argv.index(">")]
    env = {k: v for k, v in os.environ.items() if k != "GYGES_SCHEDULER"}
    timeout = SLOW_TIMEOUT if e.mark and e.mark.kind == "slow" else TIMEOUT
    try:
        done = subprocess.run([GYGES, *argv[1:]], cwd=cwd, env=env, capture_output=True,
                              text=True, timeout=timeout, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        pytest.fail(f"{e.id}: {e.command!r} took over {timeout} s: make the example "
                    f"smaller, or mark it slow (or skip) with the reason")
    if target is not None:
        target.write_text(done.stdout, encoding="utf-8")
    return done


@pytest.mark.parametrize("example", [_param(e) for e in EXAMPLES])
def test_doc_example(example: Example, tmp_path_factory: pytest.TempPathFactory) -> None:
    folder = _folder(example, tmp_path_factory)
    # The block's earlier examples first, when this one runs alone (pytest -k).
    for e in EXAMPLES:
        if e == example:
            break
        if (e.page, e.block) == (example.page, example.block) and e not in _done \
                and e.mark is None:
            run(e, folder)
            _done.add(e)
    done = run(example, folder)
    _done.add(example)
    assert done.returncode == 0, (
        f"{example.id}: {example.command!r} exited with {done.returncode}\n"
        f"{done.stdout}{done.stderr}")
    if example.output is not None:
        assert matches(example.output, done.stdout), (
            f"{example.id}: the output of {example.command!r} is not the page's:\n"
            f"--- shown\n{example.output}\n--- printed\n{done.stdout}")


def test_examples_found() -> None:
    """The collector sees the pages' examples, and every mark says why."""
    assert len(EXAMPLES) > 40
    assert any(e.output for e in EXAMPLES)
    assert all(e.mark is None or e.mark.reason for e in EXAMPLES)


def test_comparison() -> None:
    """The comparison's examples (the docstring of ``matches``)."""
    assert doctest.testmod(sys.modules[__name__]).failed == 0


def unclosed_fences(text: str) -> list[str]:
    """Where a page's code fences go wrong: a fence that closes a block has nothing after it
    (CommonMark reads ```` ``` text ```` as a line of the block, so the block goes on and
    the rest of the page renders as code), and every block closes.

    >>> unclosed_fences("```\\ncode\\n```\\ntext\\n")
    []
    >>> unclosed_fences("```\\ncode\\n``` text\\n## Next\\n")
    ['line 3: text after a closing fence', 'line 1: a block that never closes']
    """
    problems = []
    opened = 0
    for number, line in enumerate(text.splitlines(), 1):
        fence = FENCE.match(line)
        if not fence:
            continue
        rest = line[fence.end():].strip()
        if not opened:
            opened = number
        elif rest and not rest.strip(fence.group(2)[0]):
            opened = 0                         # a longer closing fence
        elif rest:
            problems.append(f"line {number}: text after a closing fence")
        else:
            opened = 0
    if opened:
        problems.append(f"line {opened}: a block that never closes")
    return problems


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_code_fences_close(page: Path) -> None:
    """Every code block of a page closes with a bare fence."""
    assert unclosed_fences(page.read_text(encoding="utf-8")) == [], page


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_placeholder_left(page: Path) -> None:
    """No figure still to be filled in (a ``⟨TBD ...⟩`` mark of a change in progress)."""
    marks = [f"line {n}" for n, line in
             enumerate(page.read_text(encoding="utf-8").splitlines(), 1) if "⟨TBD" in line]
    assert marks == [], f"{page.name}: figures still to fill in at {', '.join(marks)}"
