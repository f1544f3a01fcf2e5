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
import sys

from mover_wrapper import MOVER, pid_file_and_flags, start_sleeper


def main() -> int:
    pid_file, flags = pid_file_and_flags("leaves_a_child.py")
    child = start_sleeper()
    with open(pid_file, "a", encoding="utf-8") as handle:
        handle.write(f"{child}\n")
    os.execv(sys.executable, [sys.executable, MOVER] + flags)
    return 0  # not reached


if __name__ == "__main__":
    sys.exit(main())
