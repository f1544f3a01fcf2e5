"""A fake engine that starts a process of its own and leaves it behind, for match tests.

    leaves_a_child.py PIDFILE [random_mover.py flags ...]

It starts a child that sleeps for a long time and shares its stdout and stderr, appends the
child's pid to PIDFILE (one line per start), then becomes tests/fake_engines/random_mover.py
with the flags (``exec``), as ``sh -c 'sleep 1000 & exec engine'`` does. With ``--crash 1`` the
engine exits at its first search while the child still holds its output open, so the runner
sees no end of output: only the engine's process tells that it is gone.
"""

from __future__ import annotations

import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def main() -> int:
    if len(sys.argv) < 2:
        sys.stderr.write("usage: leaves_a_child.py PIDFILE [random_mover.py flags ...]\n")
        return 2
    pid_file, flags = sys.argv[1], sys.argv[2:]
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(1000)"],
                             stdin=subprocess.DEVNULL)
    with open(pid_file, "a", encoding="utf-8") as handle:
        handle.write(f"{child.pid}\n")
    mover = os.path.join(HERE, "random_mover.py")
    os.execv(sys.executable, [sys.executable, mover] + flags)
    return 0  # not reached


if __name__ == "__main__":
    sys.exit(main())
