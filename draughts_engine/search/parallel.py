"""The helpers of a parallel search: :class:`HelperPool` (processes started once, reused).

``Threads N`` runs the engine's search in the engine's own process and in N-1 helper
processes (the GIL rules out threads on CPython).  All of them search the same root,
each with its own transposition table, and share what they find through a
:class:`~.shared_table.SharedTable` (the "lazy SMP" of the strong chess programs):
the helpers, searching at other depths (:func:`~.parallel_role.helper_skips`), fill
the shared table with results the main search then finds ready, and publish each
iteration they complete: when that is the depth the main search is in, the main search
takes it and goes one deeper (:class:`~.parallel_role.FollowingBudget`).  The main search
alone decides when to stop and what to play; helpers search until told to stop.

A helper is ``python -m draughts_engine.search.helper_process`` run by the same
interpreter, with the shared table's descriptor inherited; it reads one command per
line on its standard input (:data:`GO`, :data:`STOP`, :data:`NEW_GAME`, :data:`CLEAR_HASH`;
JSON) and stops its search and exits when that input ends, so the end of the parent process
(``quit``, end of input, a signal, even SIGKILL, which closes the pipe) ends its helpers
too (42 ms after a SIGKILL, measured).  A
helper that died is started again at the next search, :data:`MAX_RESTARTS` times at most
(a helper that cannot run is not started before every search: the search then runs
without it).

Needs ``fork``-free descriptor passing (``subprocess``'s ``pass_fds``): Linux and
macOS.  On Windows :func:`~..runtime.max_threads` is 1: no helpers.
"""
from __future__ import annotations

import atexit
import json
import os
import subprocess
import sys
import weakref
from typing import Any, List, Optional, Sequence, Tuple

from ..position import Position
from ..runtime import reap
from .parallel_role import ParallelRole
from .shared_table import SharedTable

__all__ = ["HelperPool", "HelperError", "GO", "STOP", "NEW_GAME", "CLEAR_HASH", "PACKAGE_ROOT"]

GO, STOP, NEW_GAME, CLEAR_HASH = "go", "stop", "newgame", "clearhash"

#: The folder holding the ``draughts_engine`` package (put on a helper's import path).
PACKAGE_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

#: Seconds a helper gets to end after its input is closed, before it is killed.
CLOSE_GRACE = 1.0

#: Times the helpers that died are started again, in all, before the pool gives up on them.
MAX_RESTARTS = 8


class HelperError(OSError):
    """The helpers could not be started (the search then runs in one process)."""


class HelperPool:
    """``count`` helper processes and the table they share with this process.

    :meth:`start` sets them searching a position, :meth:`stop` stops them (without
    waiting), :meth:`new_game` makes them forget, :meth:`clear_hash` empties their tables,
    :meth:`close` ends them.  The processes end with this one in any case (see the module
    docstring).
    """

    def __init__(self, count: int, hash_mb: int) -> None:
        if count < 1:
            raise ValueError("a helper pool has at least one helper")
        self.count = count
        self.hash_mb = hash_mb
        try:
            self.table = SharedTable.create(hash_mb)
        except OSError as exc:
            raise HelperError(str(exc)) from None
        self._procs: List[Optional[subprocess.Popen]] = [None] * count
        self._searching = False
        self.restarts = 0
        try:
            for index in range(count):
                self._procs[index] = self._spawn(index)
        except HelperError:
            self.close()
            raise
        self._finalizer = weakref.finalize(self, _close_all, self._procs, self.table)
        atexit.register(self._finalizer)

    def _spawn(self, index: int) -> subprocess.Popen:
        fd = self.table.fd
        command = [sys.executable, "-m", "draughts_engine.search.helper_process",
                   str(fd), str(self.table.entries), str(index)]
        env = dict(os.environ)
        env["PYTHONPATH"] = PACKAGE_ROOT + (os.pathsep + env["PYTHONPATH"]
                                            if env.get("PYTHONPATH") else "")
        try:
            return subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                                    stderr=subprocess.DEVNULL, pass_fds=(fd,), env=env,
                                    close_fds=True)
        except (OSError, ValueError) as exc:
            raise HelperError(f"cannot start a search helper: {exc}") from None

    def _send(self, index: int, message: str) -> bool:
        """Write one line to helper ``index``; False if it is gone."""
        proc = self._procs[index]
        if proc is None or proc.stdin is None:
            return False
        try:
            proc.stdin.write(message.encode("utf-8") + b"\n")
            proc.stdin.flush()
            return True
        except (OSError, ValueError):
            return False

    def _revive(self) -> None:
        """Start again every helper that has ended (while :data:`MAX_RESTARTS` allows)."""
        for index, proc in enumerate(self._procs):
            if self.restarts >= MAX_RESTARTS:
                return
            if proc is None or proc.poll() is not None:
                self.restarts += 1
                if proc is not None and proc.stdin is not None:
                    try:
                        proc.stdin.close()
                    except OSError:
                        pass
                try:
                    self._procs[index] = self._spawn(index)
                except HelperError:
                    self._procs[index] = None

    def start(self, position: Position, history: Sequence[Tuple[int, int, int, bool]],
              evaluation: str, pruning: bool, endgame_tables: bool, ply: int) -> ParallelRole:
        """Set every helper searching ``position`` (``history``: as for the search);
        the role of the main search is returned (its table counts the helpers' nodes)."""
        self._revive()
        self.table.new_search()
        self.table.clear_results(self.count)
        message = json.dumps({
            "cmd": GO, "variant": position.variant.name, "raw": list(position.raw),
            "history": [list(h) for h in history], "evaluation": evaluation,
            "pruning": pruning, "tables": endgame_tables, "hash": self.hash_mb,
            "generation": self.table.generation, "ply": ply})
        for index in range(self.count):
            self._send(index, message)
        self._searching = True
        table, count = self.table, self.count
        return ParallelRole(table, helper_nodes=lambda: table.nodes(count),
                            helper_best=lambda: table.best_result(count))

    def stop(self) -> None:
        """Tell every helper to stop its search (does not wait)."""
        if self._searching:
            for index in range(self.count):
                self._send(index, json.dumps({"cmd": STOP}))
            self._searching = False

    def new_game(self) -> None:
        """Helpers forget their tables; the shared table is cleared."""
        self._forget(NEW_GAME)

    def clear_hash(self) -> None:
        """Helpers empty their own tables (their move ordering's history stays); the shared
        table is cleared."""
        self._forget(CLEAR_HASH)

    def _forget(self, command: str) -> None:
        """Stop the helpers, send each ``command`` (:data:`NEW_GAME` or :data:`CLEAR_HASH`),
        clear the shared table."""
        self.stop()
        for index in range(self.count):
            self._send(index, json.dumps({"cmd": command}))
        self.table.clear()

    def pids(self) -> List[int]:
        """The helpers' process ids (those running)."""
        return [proc.pid for proc in self._procs if proc is not None and proc.poll() is None]

    def close(self) -> None:
        """End the helpers (their input is closed; killed if still there after a second)."""
        finalizer = getattr(self, "_finalizer", None)
        if finalizer is not None:
            atexit.unregister(finalizer)
            finalizer()
        else:
            _close_all(self._procs, self.table)


def _close_all(procs: List[Any], table: SharedTable) -> None:
    """Close the helpers' input, wait for them a little, kill those left; unmap the table."""
    for proc in procs:
        if proc is not None and proc.stdin is not None:
            try:
                proc.stdin.close()
            except OSError:
                pass
    for index, proc in enumerate(procs):
        if proc is None:
            continue
        reap(proc, CLOSE_GRACE)
        procs[index] = None
    try:
        table.close()
    except (OSError, ValueError, BufferError):
        pass
