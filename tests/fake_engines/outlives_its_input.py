"""A fake engine that outlives its input, for the tests that kill the program that started it.

    outlives_its_input.py PIDFILE [random_mover.py flags ...]

It appends its pid to PIDFILE, starts a child that sleeps (in its process group, holding its
output, as a wrapper script's engine would) and appends the child's pid too, then plays as
tests/fake_engines/random_mover.py with the flags. It ignores SIGTERM, SIGINT and SIGHUP, and
after ``quit`` or the end of its input it keeps running, so only SIGKILL ends it.
"""

from __future__ import annotations

import os
import signal
import sys
import time

from mover_wrapper import HERE, MOVER, pid_file_and_flags, start_sleeper


def main() -> int:
    pid_file, flags = pid_file_and_flags("outlives_its_input.py")
    for number in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(number, signal.SIG_IGN)
    child = start_sleeper()
    with open(pid_file, "a", encoding="utf-8") as handle:
        handle.write(f"{os.getpid()}\n{child}\n")
    sys.path.insert(0, HERE)
    import random_mover  # noqa: E402 - after the path is set

    sys.argv = [MOVER] + flags
    random_mover.main()
    while True:  # quit or the end of input: ignored
        time.sleep(3600)


if __name__ == "__main__":
    sys.exit(main())
