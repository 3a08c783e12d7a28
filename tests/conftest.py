"""Test-wide set-up.

Ctrl-C's normal handling in the test process, even when the suite runs as a background
job of a non-interactive shell, where SIGINT starts out ignored and Python keeps an ignored
SIGINT ignored. The interrupt tests send SIGINT to this process and to the commands it
starts; a child started by exec inherits an ignored signal but not a handler, so with
this handler in place every child gets Python's usual KeyboardInterrupt too.
"""

import signal

if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)
