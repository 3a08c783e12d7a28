"""Property-based fuzzing of the YAML readers through the commands that read them: deep
nesting, aliases (the billion laughs, an alias inside its own value), huge scalars,
binary bytes and values of the wrong type, in position files (``show``), position lists
(``solve``), catalogues (``catalogue check``, ``export``) and constraint files (``setups
search --file``). Each run must end with exit status 2 and ``gyges:`` error lines that
quote at most an excerpt: never a traceback.

Both profiles are marked slow (each case runs five commands on files up to 200 KB): the
short one as a quick check, the long one for a campaign;
docs/reliability.md records the long campaign's figures."""

from __future__ import annotations

import functools

import pytest
import yaml
from common import BOUNCING, run_gyges
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

SHORT, LONG = 3, 300

# the readers, each with the shape of a file it reads and the command that reads it
READERS = {
    "position file": ("f.yaml", lambda v: {"position": v}, ["show"]),
    "position list": ("l.yaml", lambda v: [BOUNCING, {"position": v}], ["solve", "--strict"]),
    "catalogue": ("c.yaml", lambda v: {"schema": 1, "puzzles": [{"id": "a", "position": v,
                                                                  "stipulation": v}]},
                  ["catalogue", "check", "-q"]),
    "catalogue (export)": ("e.yaml", lambda v: {"schema": 1, "puzzles": [v]},
                           ["export", "--format", "text", "--out", "{dir}/o.txt"]),
    "constraint file": ("k.yaml", lambda v: {"fix": v}, ["setups", "search", "--count",
                                                         "--file"]),
}

WRONG = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False),
                     lambda inner: st.lists(inner, max_size=3)
                     | st.dictionaries(st.text("abxyz", min_size=1, max_size=3), inner,
                                       max_size=3), max_leaves=8)


@st.composite
def hostile(draw) -> bytes:
    """A YAML file of a reader's shape with one hostile part."""
    _, shape, _ = READERS[draw(st.sampled_from(sorted(READERS)))]
    kind = draw(st.sampled_from(["deep", "aliases", "loop", "huge", "binary", "wrong"]))
    if kind == "deep":
        n = draw(st.integers(201, 3000))
        opener = draw(st.sampled_from(["[", "{a: "]))
        closer = "]" if opener == "[" else "}"
        return yaml.safe_dump(shape("HOLE")).replace("HOLE", opener * n + "1" + closer * n
                                                     ).encode()
    if kind == "aliases":
        levels = draw(st.integers(6, 12))
        head = "x0: &x0 [" + ", ".join(["lol"] * 9) + "]\n"
        head += "".join(f"x{i}: &x{i} [{', '.join([f'*x{i - 1}'] * 9)}]\n"
                        for i in range(1, levels))
        return (head + yaml.safe_dump({"rest": shape("HOLE")})
                .replace("HOLE", f"*x{levels - 1}")).encode()
    if kind == "loop":
        return yaml.safe_dump(shape("HOLE")).replace("HOLE", "&l [1, *l]").encode()
    if kind == "huge":
        size = draw(st.integers(20_000, 200_000))
        return yaml.safe_dump(shape(draw(st.sampled_from("x/1.")) * size), width=10**9
                              ).encode()
    if kind == "binary":
        return b"\x00" + draw(st.binary(min_size=1, max_size=200))
    value = draw(WRONG.filter(lambda v: not isinstance(v, str)))
    return yaml.safe_dump(shape(value)).encode()


def check(tmp_path_factory, data: bytes) -> None:
    folder = tmp_path_factory.mktemp("fuzz")
    for name, _, command in READERS.values():
        path = folder / name
        path.write_bytes(data)
        args = [a.replace("{dir}", str(folder)) for a in command] + [str(path)]
        r = run_gyges(*args)
        assert r.exception is None or isinstance(r.exception, SystemExit), \
            (args, repr(r.exception))
        assert "Traceback" not in r.output, args
        assert r.exit_code == 2 or (r.exit_code == 0 and command[0] in ("setups", "solve")), \
            (args, r.output[:500])
        if r.exit_code == 2:
            lines = r.stderr.splitlines()
            assert lines and all(line.startswith("gyges:") for line in lines), (args, lines)
            assert len(r.stderr) < 4000, (args, r.stderr[:300])


COMMON = dict(deadline=None, suppress_health_check=[
    HealthCheck.too_slow, HealthCheck.function_scoped_fixture, HealthCheck.data_too_large,
    HealthCheck.filter_too_much])


def _profile(examples: int):
    def test(tmp_path_factory, data):
        check(tmp_path_factory, data)
    return settings(max_examples=examples, **COMMON)(given(data=hostile())(
        functools.wraps(check)(test)))


test_yaml_readers_refuse_hostile_files = pytest.mark.slow(_profile(SHORT))
test_yaml_readers_refuse_hostile_files_long = pytest.mark.slow(_profile(LONG))
