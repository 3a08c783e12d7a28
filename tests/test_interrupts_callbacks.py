"""A Ctrl-C that lands in a callback Python cannot raise from (a weak reference's, while
objects are torn down at the end of a command) is not printed as an ignored traceback: the
program's ``sys.unraisablehook`` posts it again to the main thread, which then stops as at
any Ctrl-C."""

from __future__ import annotations

import subprocess
import sys

HOOK = "from gyges_cli import _repost_interrupt; sys.unraisablehook = _repost_interrupt"

SCRIPT = """
import sys, time, weakref
{hook}
class Thing:
    pass
def callback(_):
    raise {error}   # as a SIGINT delivered while the callback runs would
thing = Thing()
ref = weakref.ref(thing, callback)
try:
    del thing       # the callback runs here; its exception cannot propagate
    deadline = time.monotonic() + {wait}
    while time.monotonic() < deadline:    # the main thread's own code, until interrupted
        time.sleep(0.01)
    print("went on")
except KeyboardInterrupt:
    print("interrupted")
"""


def _run(hook: str, error: str, wait: float) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c",
                           SCRIPT.format(hook=hook, error=error, wait=wait)],
                          capture_output=True, text=True, timeout=120)


def test_a_ctrl_c_in_a_callback_reaches_the_main_thread():
    # the main thread waits for the interrupt (Python's own hook prints a traceback and
    # loses it: the loop would run its 60 s out and print "went on")
    done = _run(HOOK, "KeyboardInterrupt", 60)
    assert done.stdout.strip() == "interrupted", done
    assert "Traceback" not in done.stderr, done.stderr


def test_other_unraisable_errors_are_printed_as_python_prints_them():
    done = _run(HOOK, "ValueError('odd')", 0)
    assert done.stdout.strip() == "went on", done
    assert "Exception ignored" in done.stderr and "ValueError: odd" in done.stderr
