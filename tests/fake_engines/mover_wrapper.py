"""Shared by the fakes that wrap tests/fake_engines/random_mover.py and leave a process of their
own behind (``leaves_a_child.py``, ``outlives_its_input.py``); standard library only."""

from __future__ import annotations

import os
import subprocess
import sys
from typing import List, Tuple

HERE = os.path.dirname(os.path.abspath(__file__))
MOVER = os.path.join(HERE, "random_mover.py")


def pid_file_and_flags(script: str) -> Tuple[str, List[str]]:
    """``PIDFILE [random_mover.py flags ...]`` from the command line; without a PIDFILE, the
    usage on stderr and exit status 2."""
    if len(sys.argv) < 2:
        sys.stderr.write(f"usage: {script} PIDFILE [random_mover.py flags ...]\n")
        sys.exit(2)
    return sys.argv[1], sys.argv[2:]


def start_sleeper() -> int:
    """Start a child that sleeps for a long time and shares this process's stdout and stderr
    (and its signal dispositions); its pid."""
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(1000)"],
                             stdin=subprocess.DEVNULL)
    return child.pid
