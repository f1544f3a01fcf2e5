"""The life of one search in the engine server, shared by PROTOCOL.md's ``go`` and Hub's ``go``.

A :class:`SearchJob` runs the search on its own thread and writes exactly one final line
(``bestmove`` in :mod:`protocol.server`, ``done`` in :mod:`protocol.hub.server`). In infinite and
ponder modes that line is held back until :meth:`SearchJob.stop` or (ponder)
:meth:`SearchJob.ponderhit`. Subclasses say how the search runs (and reports its ``info``
lines), how the final line reads and how it is written.
"""
from __future__ import annotations

import threading
from typing import Any, Optional, Tuple

from draughts_engine.search.limits import SearchLimits

__all__ = ["SearchJob"]


class SearchJob:
    """One ``go``: searches on its own thread and writes exactly one final line.

    Hooks: :meth:`search` (run the search, never raise), :meth:`final_line` (format its
    result), :meth:`finish` (write that line) and :meth:`engine_ponderhit`.
    """

    def __init__(self, limits: SearchLimits, hold: bool, thread_name: str = "search") -> None:
        self.limits = limits
        self.stop_event = threading.Event()
        self.release = threading.Event()  # set: the final line may be written
        self.pondering = limits.ponder
        self.finished = threading.Event()  # set once the final line is written
        self._written = False  # guarded by _write_lock: the final line is written once
        self._write_lock = threading.Lock()
        if not hold:
            self.release.set()
        self.thread = threading.Thread(target=self._run, name=thread_name, daemon=True)

    def start(self) -> None:
        self.thread.start()

    def stop(self) -> None:
        """End the search now and let its final line out."""
        self.stop_event.set()
        self.release.set()

    def ponderhit(self) -> None:
        """The ponder move was played: search on as a normal search, write the line when done."""
        if self.pondering:
            self.pondering = False
            self.engine_ponderhit()
            self.release.set()

    def wait(self, timeout: Optional[float] = None) -> bool:
        """Wait up to ``timeout`` seconds (None: for ever) for the final line; True once written."""
        return self.finished.wait(timeout)

    def end(self, timeout: float, fallback: Tuple[Optional[Any], Optional[Any]]) -> None:
        """Before the process exits: stop the search and make sure its final line is out.

        Waits up to ``timeout`` seconds for the search thread to write it; if the
        search has not ended by then, writes the line for ``fallback`` (best, ponder)
        itself.  Either way exactly one final line is written, and it is written
        before this returns.
        """
        self.stop()
        if not self.finished.wait(timeout):
            self._write(self.final_line(*fallback))

    def _run(self) -> None:
        best, ponder = self.search()
        self.release.wait()
        self._write(self.final_line(best, ponder))

    def _write(self, line: str) -> None:
        with self._write_lock:
            if self._written:
                return
            self._written = True
            self.finish(line)
            self.finished.set()

    # ---- hooks ------------------------------------------------------------------------
    def search(self) -> Tuple[Optional[Any], Optional[Any]]:
        """Run the search (reporting info lines; ``stop_event`` ends it): best and ponder move.

        Must not raise: a ``go`` always gets its final line.
        """
        raise NotImplementedError

    def final_line(self, best: Optional[Any], ponder: Optional[Any]) -> str:
        """The final line for the search's result."""
        raise NotImplementedError

    def finish(self, line: str) -> None:
        """Write the final line, then forget the job (in that order: whoever sees no
        job may assume its line is out)."""
        raise NotImplementedError

    def engine_ponderhit(self) -> None:
        """Tell the search engine that the ponder move was played."""
