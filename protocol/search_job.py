"""The life of one search in the engine server, shared by PROTOCOL.md's ``go`` and Hub's ``go``.

A :class:`SearchJob` runs :meth:`Session.search <protocol.session.Session.search>` on its own
thread and writes exactly one final line (``bestmove`` in :mod:`protocol.server`, ``done`` in
:mod:`protocol.hub.server`). In infinite and ponder modes that line is held back until
:meth:`SearchJob.stop` or (ponder) :meth:`SearchJob.ponderhit`. Subclasses say how a report
and the final line read and how they are written.
"""
from __future__ import annotations

import threading
from dataclasses import replace
from typing import Any, Optional, Tuple

from draughts_engine.search.limits import RootMoveInfo, SearchInfo, SearchLimits

__all__ = ["SearchJob"]

Outcome = Tuple[Optional[Any], Optional[Any]]


class SearchJob:
    """One ``go``: searches on its own thread and writes exactly one final line.

    Hooks: :meth:`report` (one search report), :meth:`final_line` (format the result),
    :meth:`finish` (write that line, then forget the job) and :meth:`log` (diagnostics).
    """

    def __init__(self, session: Any, limits: SearchLimits, hold: bool,
                 thread_name: str = "search", endless: bool = False) -> None:
        """``hold``: the final line waits for :meth:`stop` (or, pondering, :meth:`ponderhit`);
        ``endless``: a ponderhit leaves the search running until :meth:`stop` (Hub's
        ``level infinite`` with ``go ponder``)."""
        self.session = session
        self.board = session.board  # the position searched (it cannot change during a search)
        self.limits = limits
        self.stop_event = threading.Event()
        self.release = threading.Event()  # set: the final line may be written
        self.pondering = limits.ponder
        self.finished = threading.Event()  # set once the final line is written
        self.endless = endless
        self._searching = True  # guarded by _ponder_lock: the search may still use a ponderhit
        self._ponder_lock = threading.Lock()
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
            if self.endless:  # the level searches until stop: the ponder search goes on so
                return
            if getattr(self.board, "ponderhit_stops_search", False):
                self.stop_event.set()  # its move is the one pondered so far
            with self._ponder_lock:
                if self._searching:  # else the search has ended: nothing to tell it
                    try:
                        self.session.ponderhit()
                    except Exception as exc:  # never let a ponderhit kill the dispatcher
                        self.log(f"ponderhit failed: {exc!r}")
            self.release.set()

    @property
    def searching(self) -> bool:
        """True until the search itself has returned (its final line may still be held back,
        in infinite and ponder modes, until :meth:`stop` or :meth:`ponderhit`)."""
        with self._ponder_lock:
            return self._searching

    @property
    def bounded(self) -> bool:
        """True when the search ends by itself (a depth, nodes, move time or clock limit) and
        is not waiting for a ``ponderhit`` or a ``stop``: a command may wait for its end."""
        if self.pondering or self.endless:
            return False
        return replace(self.limits, ponder=False).is_bounded

    @property
    def ends_soon(self) -> bool:
        """True when the final line will come without another command: the search ends by
        its own limits (:attr:`bounded`) or was told to stop. A command may wait for it."""
        return self.stopping or self.bounded

    @property
    def stopping(self) -> bool:
        """True once the search was told to end (:meth:`stop`, :meth:`end`, or a ponderhit
        that ends it): its final line is on its way."""
        return self.stop_event.is_set()

    def wait(self, timeout: Optional[float] = None) -> bool:
        """Wait up to ``timeout`` seconds (None: for ever) for the final line; True once written."""
        return self.finished.wait(timeout)

    def end(self, timeout: float) -> None:
        """Before the process exits: stop the search and make sure its final line is out.

        Waits up to ``timeout`` seconds for the search thread to write it; if the search has
        not ended by then, writes the line for :meth:`fallback` itself.  Either way exactly
        one final line is written, and it is written before this returns.
        """
        self.stop()
        if not self.finished.wait(timeout):
            self._write(self.final_line(*self.fallback()))

    def fallback(self) -> Outcome:
        """What is played when the search cannot answer: the first legal move."""
        legal = self.board.legal_moves()
        return (legal[0] if legal else None), None

    def _run(self) -> None:
        try:
            extra = {"on_root_move": self._report_root_move} if self.reports_root_moves else {}
            best, ponder = self.session.search(self.limits, self._report, self.stop_event,
                                               **extra)
        except Exception as exc:  # never leave a go without its final line
            self.log(f"search failed: {exc!r}")
            best, ponder = self.fallback()
        with self._ponder_lock:
            self._searching = False
            try:  # a ponderhit that came as the search returned is for no search
                self.session.forget_ponderhit()
            except Exception as exc:  # noqa: BLE001 - the final line must still be written
                self.log(f"forget_ponderhit failed: {exc!r}")
        self.release.wait()
        self._write(self.final_line(best, ponder))

    def _report(self, info: SearchInfo) -> None:
        """:meth:`report`, unless the final line is out: a search that :meth:`end` gave up
        waiting for (its line written for it) must not report after that line."""
        with self._write_lock:
            if not self._written:
                self.report(info)

    def _report_root_move(self, info: RootMoveInfo) -> None:
        """:meth:`report_root_move`, under the same rule as :meth:`_report`."""
        with self._write_lock:
            if not self._written:
                self.report_root_move(info)

    def _write(self, line: str) -> None:
        with self._write_lock:
            if self._written:
                return
            self._written = True
            self.finish(line)
            self.finished.set()

    # ---- hooks ------------------------------------------------------------------------
    def report(self, info: SearchInfo) -> None:
        """Write one search report (called in the search thread)."""
        raise NotImplementedError

    #: Whether the wire has a word for the root move being searched (:meth:`report_root_move`).
    reports_root_moves: bool = False

    def report_root_move(self, info: RootMoveInfo) -> None:
        """Write which root move is searched (``currmove``; called in the search thread)."""
        raise NotImplementedError

    def final_line(self, best: Optional[Any], ponder: Optional[Any]) -> str:
        """The final line for the search's result (the board's move values)."""
        raise NotImplementedError

    def finish(self, line: str) -> None:
        """Write the final line, then forget the job (in that order: whoever sees no
        job may assume its line is out)."""
        raise NotImplementedError

    def log(self, text: str) -> None:
        """A diagnostic line (never on the protocol's output)."""
