"""The guard: a process that ends a program's engines when the program ends, however it ends
(SIGKILL included). :mod:`protocol.client.children` starts it and talks to it.

Run as a script (``python -I -S guard.py``, in a session of its own), it reads lines from its
standard input, a pipe whose only writer is the program: ``+ PID g|p START`` watches process
PID (``g``: the process group it leads, so what a wrapper script started goes too; START: its
start time, :func:`start_time`, or ``-``), ``- PID`` forgets it. The pipe ends when the program
ends, for whatever reason: the kernel closes the descriptors of a killed process. The guard then
sends SIGTERM to whatever is still watched, waits :data:`GRACE` seconds, sends SIGKILL to what
is left, and exits.

Standard library only, and nothing of the project: the script starts in a few milliseconds of
CPU beside the engine it guards.
"""

from __future__ import annotations

import os
import sys
import time

try:
    import _signal as signal  # CPython's C module: without the enum import of signal
except ImportError:  # pragma: no cover - other interpreters
    import signal  # type: ignore[no-redef]

TYPE_CHECKING = False  # typing is not imported at run time: the guard starts faster without it
if TYPE_CHECKING:
    from typing import IO, Dict, Iterable, Optional, Tuple

__all__ = ["GRACE", "start_time", "end_all", "serve"]

GRACE = 1.0
"""Seconds between the guard's SIGTERM and its SIGKILL once the program has ended."""


def start_time(pid: int) -> Optional[str]:
    """The start time of process ``pid`` in clock ticks after boot (Linux ``/proc``), a
    fingerprint that tells it from a later process given the same pid; None elsewhere."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            fields = handle.read().rsplit(b")", 1)[1].split()
        return fields[19].decode("ascii")  # field 22 of stat(5); fields[0] is field 3
    except (OSError, IndexError, UnicodeDecodeError):
        return None


# ------------------------------------------------------------------------------ the guard


def _same_process(pid: int, started: str) -> bool:
    """Whether ``pid`` is still the process that was watched (or is gone: then its group can
    only hold what it left behind, as a group's id is not given to a new process while the
    group has members)."""
    if started == "-":
        return True
    now = start_time(pid)
    return now is None or now == started


def _send_signal(pid: int, group: bool, number: int) -> bool:
    """Send signal ``number`` (0: only look); whether the process or group was there."""
    try:
        if group:
            os.killpg(pid, number)
        else:
            os.kill(pid, number)
    except ProcessLookupError:
        return False
    except OSError:  # not ours to signal: there, but nothing to do
        return number == 0
    return True


def end_all(watched: Iterable[Tuple[int, bool, str]], grace: float = GRACE) -> None:
    """SIGTERM each watched process (or group), SIGKILL what is left after ``grace`` s."""
    targets = [(pid, group) for pid, group, started in watched if _same_process(pid, started)]
    targets = [target for target in targets if _send_signal(*target, signal.SIGTERM)]
    deadline = time.monotonic() + grace
    while targets and time.monotonic() < deadline:
        time.sleep(0.02)
        targets = [target for target in targets if _send_signal(*target, 0)]
    for pid, group in targets:
        _send_signal(pid, group, signal.SIGKILL)


def serve(stream: IO[bytes], grace: float = GRACE) -> None:
    """Read ``+ PID g|p START`` (watch) and ``- PID`` (release) lines until end of input,
    then end every process still watched (:func:`end_all`)."""
    watched: Dict[int, Tuple[bool, str]] = {}
    for line in stream:
        words = line.split()
        try:
            if len(words) == 4 and words[0] == b"+" and int(words[1]) > 1:  # never 0, -1
                watched[int(words[1])] = (words[2] == b"g", words[3].decode("ascii"))
            elif len(words) == 2 and words[0] == b"-":
                watched.pop(int(words[1]), None)
        except (ValueError, UnicodeDecodeError):
            continue
    end_all([(pid, group, started) for pid, (group, started) in watched.items()], grace)


def _main() -> int:
    try:
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is for the program
        serve(sys.stdin.buffer)
    except BaseException:  # noqa: BLE001 - nothing of the guard may reach the user
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(_main())
