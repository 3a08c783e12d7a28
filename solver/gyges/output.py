"""Writing a user's files: atomically, never over a file gyges did not write, one way for
missing directories. A leaf: it knows nothing of the game.

The policy every command follows for an output path (docs in the README):

- A file is written whole or not at all: :func:`write_atomic` writes a temporary file in
  the same directory and renames it over the target, so Ctrl-C, a full disk or a crash
  leaves either the old file or the new one, never half of one.
- An existing file is replaced only when gyges wrote it and nobody edited it since: such
  a file ends with a signature line (:func:`signed`) holding a checksum of the rest.
  Anything else (a file of the user's, or one of ours the user edited) is refused unless
  the command was given ``--force``; commands that merge (a catalogue gaining puzzles)
  keep what the user wrote instead.
- Missing parent directories are created (the nearest existing one must be a directory).
- An output path is a regular file or nothing yet: a device (``/dev/full``, ``/dev/zero``),
  a pipe or a socket is refused, and so is the file that is this process's standard
  output or standard error (``--out /dev/stdout`` would read its own pipe, or write the
  file over the table printed to it).
- :func:`check_output` applies the policy before any work starts, so a long run never
  fails at the end on its output path; a write that fails all the same (a full disk, a
  folder made read-only meanwhile) is one :class:`OutputError` naming the file, and
  leaves no file behind.
- A results file (JSON Lines, one record per line) is the exception: a run appends to it
  and a rerun resumes it (:func:`open_append`), so it is never replaced; whether an
  existing file holds records of the same run is for its reader to say
  (:class:`gyges.parallel.ResultsFile`).

>>> text = signed("<svg/>\\n", "<!--", "-->")
>>> text.splitlines()[-1].startswith("<!-- written by gyges; checksum ")
True
>>> is_signed(text), is_signed(text.replace("svg", "SVG"))
(True, False)
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import stat
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import IO, TextIO

from gyges.signals import deferred

__all__ = ["OutputError", "check_output", "check_output_dir", "distinct", "files_digest",
           "is_signed", "open_append", "open_atomic", "signature_removed", "signed",
           "write_atomic"]

_SIGNATURE = re.compile(r"(?m)^(.*) written by gyges; checksum ([0-9a-f]{16})(.*)\n?\Z")


class OutputError(ValueError):
    """An output path that cannot or must not be written: ``str()`` is one line, ``path:
    problem`` (``problem`` alone when there is no path to name)."""

    def __init__(self, problem: str, path: str | os.PathLike[str] | None = None) -> None:
        self.problem = problem
        self.path = None if path is None else str(path)
        super().__init__(problem if path is None else f"{path}: {problem}")


def _checksum(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def signed(text: str, open_comment: str, close_comment: str = "") -> str:
    """``text`` (ending in a newline) with a last comment line holding its checksum."""
    if not text.endswith("\n"):
        text += "\n"
    tail = f" {close_comment}" if close_comment else ""
    return f"{text}{open_comment} written by gyges; checksum {_checksum(text)}{tail}\n"


def is_signed(text: str) -> bool:
    """Does ``text`` end with a signature whose checksum matches the text before it (a
    file gyges wrote and nobody changed since)?"""
    m = _SIGNATURE.search(text)
    return m is not None and _checksum(text[: m.start()]) == m.group(2)


def signature_removed(text: str) -> str:
    """``text`` without its signature line, if it ends with one (valid or not).

    >>> signature_removed(signed("a: 1\\n", "#"))
    'a: 1\\n'
    """
    m = _SIGNATURE.search(text)
    return text if m is None else text[: m.start()]


def _signed_file(path: Path) -> bool:
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read(64 << 20)
    except (OSError, UnicodeDecodeError):
        return False
    return is_signed(text)


def _existing_ancestor(path: Path) -> Path:
    parent = path.absolute().parent
    while not parent.exists() and parent != parent.parent:
        parent = parent.parent
    return parent


def _not_a_file(path: Path) -> str:
    """Why ``path``, which may exist, cannot be an output file ('' when it can): it is no
    regular file, or it is the standard output or error of this process.

    >>> _not_a_file(Path("/dev/null")), _not_a_file(Path("no/such/file"))
    ('is not a regular file (a device, a pipe or a socket)', '')
    """
    try:
        st = path.stat()
    except (OSError, ValueError):
        return ""           # nothing there yet (or a name the system refuses: said later)
    if not stat.S_ISREG(st.st_mode):
        return "is not a regular file (a device, a pipe or a socket)"
    for fd, stream in ((1, "standard output"), (2, "standard error")):
        try:
            other = os.fstat(fd)
        except OSError:
            continue
        if (other.st_dev, other.st_ino) == (st.st_dev, st.st_ino):
            return f"is this command's {stream}"
    return ""


def check_output(path: str | os.PathLike[str], *, force: bool = False,
                 replaceable: bool | None = None) -> Path:
    """May a command write the file ``path``? Raises :class:`OutputError` if not (its
    message names the file, never a command's option: the command adds that).

    ``replaceable`` says whether an existing file may be replaced without ``force``
    (default: when it carries a valid gyges signature).
    """
    p = Path(path)
    name = str(path)
    if name == "":
        raise OutputError("an empty file name")
    try:
        is_dir = p.is_dir()
    except OSError as e:   # a name the system refuses (too long)
        raise OutputError(f"cannot write it: {e.strerror}",
                          name if len(name) <= 120 else f"{name[:57]}... ({len(name)} "
                          "characters)") from None
    if is_dir:
        raise OutputError("is a directory: give a file name", name)
    problem = _not_a_file(p)
    if problem:
        raise OutputError(f"{problem}: give the name of a file", name)
    anc = _existing_ancestor(p)
    if not anc.is_dir():
        raise OutputError(f"cannot create it: {anc} is not a directory", name)
    if not os.access(anc, os.W_OK):
        raise OutputError(f"cannot create it: {anc} is not writable", name)
    if p.exists() and not force:
        ok = _signed_file(p) if replaceable is None else replaceable
        if not ok:
            raise OutputError(
                "exists and was not written by gyges (or was edited since): choose another "
                "file, or pass --force to replace it", name)
    return p


def check_output_dir(path: str | os.PathLike[str]) -> Path:
    """May a command write files into the directory ``path`` (made, with its missing
    parents, when it does not exist)? Raises :class:`OutputError` if not, before any work.

    >>> check_output_dir("/dev/null")
    Traceback (most recent call last):
    ...
    gyges.output.OutputError: /dev/null: is not a directory: give a directory for the files
    """
    p = Path(path)
    name = str(path)
    if name == "":
        raise OutputError("an empty directory name")
    try:
        exists, is_dir = p.exists(), p.is_dir()
    except OSError as e:   # a name the system refuses (too long)
        raise OutputError(f"cannot make it: {e.strerror}", name[:120]) from None
    if exists and not is_dir:
        raise OutputError("is not a directory: give a directory for the files", name)
    anc = p if is_dir else _existing_ancestor(p)
    if not anc.is_dir():
        raise OutputError(f"cannot create it: {anc} is not a directory", name)
    if not os.access(anc, os.W_OK):
        raise OutputError(f"cannot write in it: {anc} is not writable", name)
    return p


def open_append(path: str | os.PathLike[str]) -> TextIO:
    """A results file opened to append records to (created, with its missing parent
    directories, when it does not exist). :func:`check_output` first."""
    check_output(path, replaceable=True)
    p = Path(path)
    with _written(p):
        p.parent.mkdir(parents=True, exist_ok=True)
        return open(p, "a", encoding="utf-8")  # noqa: SIM115 - the caller closes it


@contextlib.contextmanager
def _written(path: Path) -> Iterator[None]:
    """An OSError inside the block (no permission, a full disk, a read-only file system)
    as one :class:`OutputError` naming ``path``."""
    try:
        yield
    except OSError as e:
        raise OutputError(f"cannot write it: {e.strerror or e}", path) from None


def distinct(*paths: tuple[str, str | os.PathLike[str] | None]) -> None:
    """Refuse two options naming the same file: ``distinct(("--out", a), ("--state", b))``."""
    seen: dict[str, str] = {}
    for option, path in paths:
        if path is None:
            continue
        key = os.path.realpath(path)
        if key in seen:
            raise OutputError(f"{seen[key]} and {option} name the same file; give them "
                              "different files", path)
        seen[key] = option


@contextlib.contextmanager
def open_atomic(path: str | os.PathLike[str], mode: str = "w") -> Iterator[IO]:
    """A temporary file next to ``path``, renamed over it when the block ends without an
    exception (Ctrl-C included); on an exception it is removed and ``path`` is untouched.
    Missing parent directories are created; an existing file's permissions are kept. A
    file that cannot be written is an :class:`OutputError`."""
    p = Path(path)
    tmp = ""
    f = None
    try:
        with _written(p), deferred():
            p.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(prefix=f".{p.name}.", suffix=".tmp", dir=p.parent)
            if "b" in mode:
                f = os.fdopen(fd, mode)
            else:
                f = os.fdopen(fd, mode, encoding="utf-8", newline="")
        try:
            os.chmod(tmp, os.stat(p).st_mode & 0o7777)
        except FileNotFoundError:
            umask = os.umask(0)
            os.umask(umask)
            os.chmod(tmp, 0o666 & ~umask)
        yield f
        with _written(p):
            f.flush()
            os.fsync(f.fileno())
            with deferred():
                f.close()
                os.replace(tmp, p)
                tmp = ""
    finally:
        with deferred():
            if f is not None:
                f.close()
            if tmp:
                with contextlib.suppress(OSError):
                    os.unlink(tmp)


def write_atomic(path: str | os.PathLike[str], data: str | bytes) -> None:
    """Write ``data`` to ``path`` whole or not at all (see :func:`open_atomic`)."""
    with open_atomic(path, "wb" if isinstance(data, bytes) else "w") as f, _written(Path(path)):
        f.write(data)


def files_digest(root: Path, parts: tuple[str, ...], suffixes: tuple[str, ...],
                 seed: bytes = b"") -> str:
    """A digest (16 hex digits) of the files under ``root`` named by ``parts`` (folders,
    all their files; or single files) whose names end with one of ``suffixes``: their
    paths (with ``/``) and their bytes (line ends as ``\\n``), after ``seed``; what a cache
    keys its results by, so that a change to those files tells.

    >>> import tempfile
    >>> d = Path(tempfile.mkdtemp())
    >>> _ = (d / "a.py").write_text("x = 1\\n")
    >>> before = files_digest(d, (".",), (".py",))
    >>> _ = (d / "a.py").write_text("x = 2\\n")
    >>> files_digest(d, (".",), (".py",)) == before, len(before)
    (False, 16)
    """
    digest = hashlib.sha256(seed)
    for part in parts:
        where = root / part
        files = sorted(where.rglob("*")) if where.is_dir() else [where]
        for f in files:
            if f.suffix in suffixes and f.is_file() and "__pycache__" not in f.parts:
                digest.update(f.relative_to(root).as_posix().encode() + b"\0")
                digest.update(f.read_bytes().replace(b"\r\n", b"\n"))
    return digest.hexdigest()[:16]
