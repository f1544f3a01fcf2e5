"""Engines that end with the program that started them, however it ends (SIGKILL included).

:func:`watch` hands an engine's process to this program's guard (:mod:`protocol.client.guard`),
a small process started with the first engine (POSIX) that reads a pipe whose only writer is
this program; :func:`release` takes it back once it has been reaped. When the program ends, by
a return, an exception or a ``kill -9``, the pipe ends and the guard ends every engine still
watched: SIGTERM to its process group, SIGKILL after a second. An engine that ignores the end of
its input, and the processes a wrapper script started, go too. ``ProcessTransport.spawn``
watches every engine it starts unless told not to.

Why not ``prctl(PR_SET_PDEATHSIG)``: it fires when the *thread* that started the child ends (the
match runner's workers and the web board's request threads end long before the program), it is
Linux-only, and a wrapper script's children do not get it.

Limits: an engine is watched from just after it has started, so a program killed in the
millisecond between the two leaves that engine running. On Linux the guard compares each
process's start time before signalling it, so a pid given to another process since is left
alone; elsewhere a pid is trusted until :func:`release`. A process that leaves the engine's
group (``setsid``) is not followed. A program forked without ``exec`` starts a guard of its own.
Windows: nothing is watched (:func:`available` is False).
"""

from __future__ import annotations

import atexit
import os
import subprocess
import sys
import threading
from typing import IO, Any, Dict, List, Optional, Union

from protocol.client import guard
from protocol.client.guard import GRACE, start_time

__all__ = ["watch", "release", "available", "close_quietly", "GRACE"]

_MAX_STARTS = 3
"""Guards started at most by one program: one that keeps dying is not started forever."""

_lock = threading.Lock()
_guard: "Optional[subprocess.Popen[bytes]]" = None
_pipe: Optional[int] = None  # the write end, the program's only descriptor of the pipe
_watched: Dict[int, bytes] = {}  # pid -> its watch line (sent again to a new guard)
_starts = 0


def available() -> bool:
    """Whether engines can be watched here: POSIX, an interpreter to run the guard with (not
    a frozen program) and the guard's file on disk."""
    return (os.name == "posix" and bool(sys.executable) and not getattr(sys, "frozen", False)
            and os.path.isfile(guard.__file__))


def _start_guard() -> bool:
    """Start a guard (the lock is held); False when none can be started."""
    global _guard, _pipe, _starts
    if _starts >= _MAX_STARTS:
        return False
    _starts += 1
    read_end, write_end = os.pipe()  # not inherited by the engines (O_CLOEXEC)
    try:
        _guard = subprocess.Popen(
            [sys.executable, "-I", "-S", os.path.abspath(guard.__file__)], stdin=read_end,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd="/",
            start_new_session=True)  # no signal meant for the terminal reaches it
    except (OSError, ValueError, subprocess.SubprocessError):
        os.close(write_end)
        return False
    finally:
        os.close(read_end)
    os.set_blocking(write_end, False)  # a stopped guard must not stop the program
    _pipe = write_end
    return True


def close_quietly(handle: "Union[int, IO[Any], None]") -> None:
    """Close ``handle``, a file object or a file descriptor (an ``int``), for clean-up code:
    ``None`` is left alone, and an ``OSError`` (a descriptor closed already, a buffer that cannot
    be flushed) is ignored, as nothing better can be done then. (The guard's pipe here; the
    match runner's files.)"""
    if handle is None:
        return
    try:
        if isinstance(handle, int):
            os.close(handle)
        else:
            handle.close()
    except OSError:
        pass


def _drop_guard() -> None:
    """Forget a guard that is gone, reaping it (the lock is held)."""
    global _guard, _pipe
    close_quietly(_pipe)
    if _guard is not None:
        try:
            _guard.wait(0.5)
        except (subprocess.TimeoutExpired, OSError):
            pass
    _guard, _pipe = None, None


def _send(lines: List[bytes]) -> bool:
    """Write ``lines`` to the guard (the lock is held), starting one as needed, which is then
    sent every watch line. False when no guard is to be had."""
    for _ in range(_MAX_STARTS):
        fresh = _pipe is None
        if fresh and not _start_guard():
            return False
        assert _pipe is not None
        try:
            for line in (list(_watched.values()) if fresh else lines):
                os.write(_pipe, line)  # one line a write: atomic (shorter than PIPE_BUF)
            return True
        except BlockingIOError:  # the guard does not read (stopped): this line is lost
            return False
        except OSError:  # it has died: start another
            _drop_guard()
    return False


def watch(pid: int, group: bool) -> bool:
    """Have process ``pid`` ended when this program ends, with its process group if ``group``
    (it must lead one: ``start_new_session``); :func:`release` it once it has been reaped.
    False when it cannot be watched (not POSIX, no guard)."""
    if not available():
        return False
    line = f"+ {pid} {'g' if group else 'p'} {start_time(pid) or '-'}\n".encode("ascii")
    with _lock:
        _watched[pid] = line
        return _send([line])


def release(pid: int) -> None:
    """Stop watching ``pid``: it has been reaped (and its group killed, if it led one)."""
    with _lock:
        if _watched.pop(pid, None) is not None and _pipe is not None:
            _send([f"- {pid}\n".encode("ascii")])


def _after_fork_in_child() -> None:
    """A copy of the program made by ``fork`` (no ``exec``) has engines of its own: it must not
    hold the parent's pipe open (the guard would wait for the copy too) nor keep its list."""
    global _lock, _guard, _pipe, _starts
    _lock = threading.Lock()
    close_quietly(_pipe)
    _guard, _pipe, _starts = None, None, 0
    _watched.clear()


def _at_exit() -> None:
    """Close the pipe and wait a moment for the guard, which ends what is still watched
    (nothing, when every engine was closed), so that no child is left running."""
    global _guard, _pipe
    with _lock:
        process, pipe = _guard, _pipe
        _guard, _pipe = None, None
    close_quietly(pipe)
    if process is not None:
        try:
            process.wait(GRACE + 0.5)
        except (subprocess.TimeoutExpired, OSError):
            pass


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork_in_child)
atexit.register(_at_exit)
