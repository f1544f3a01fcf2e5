"""Whether processes still run, for the tests that check that engines and their children end."""
from __future__ import annotations

import os
import signal
import time
from typing import List

GONE_WITHIN = 10.0  # seconds: the guard needs about one (SIGTERM, a grace second, SIGKILL)


def running(pid: int) -> bool:
    """Whether ``pid`` is a live process (a zombie waiting for its reaper is not)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            return handle.read().rsplit(b")", 1)[1].split()[0] != b"Z"
    except OSError:
        return True  # no /proc (macOS): a zombie counts, and init reaps it soon


def left_after(pids: List[int], seconds: float = GONE_WITHIN) -> List[int]:
    """The processes of ``pids`` still running after up to ``seconds`` (killed here, so that
    a failing test leaves nothing behind)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and any(running(pid) for pid in pids):
        time.sleep(0.1)
    left = [pid for pid in pids if running(pid)]
    for pid in left:
        os.kill(pid, signal.SIGKILL)
    return left


def default_sigint() -> None:
    """Give this process the default SIGINT, as a terminal would (for a child, before exec).

    A test run started in the background by a shell without job control passes an ignored
    SIGINT on to its children, and Python then never raises KeyboardInterrupt: a test that
    sends SIGINT to a child it started calls this in the child first (``preexec_fn``)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
