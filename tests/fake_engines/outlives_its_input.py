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
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def main() -> int:
    if len(sys.argv) < 2:
        sys.stderr.write("usage: outlives_its_input.py PIDFILE [random_mover.py flags ...]\n")
        return 2
    pid_file, flags = sys.argv[1], sys.argv[2:]
    for number in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(number, signal.SIG_IGN)
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(1000)"],
                             stdin=subprocess.DEVNULL)
    with open(pid_file, "a", encoding="utf-8") as handle:
        handle.write(f"{os.getpid()}\n{child.pid}\n")
    sys.path.insert(0, HERE)
    import random_mover  # noqa: E402 - after the path is set

    sys.argv = [os.path.join(HERE, "random_mover.py")] + flags
    random_mover.main()
    while True:  # quit or the end of input: ignored
        time.sleep(3600)


if __name__ == "__main__":
    sys.exit(main())
