"""Analysis through the reference client: the lines of a search, as python-chess gives them.

* :func:`lines_of` picks, from a search's ``info`` reports, the lines of the deepest depth
  that has them: one :class:`~protocol.client.reports.InfoReport` per MultiPV line, best
  first (what :meth:`EngineConnection.analyse
  <protocol.client.connection.EngineConnection.analyse>` returns);
* :class:`Analysis` is a running search read as an iterator of reports, a context manager
  that stops the search on exit (what :meth:`EngineConnection.analysis
  <protocol.client.connection.EngineConnection.analysis>` returns).
"""

from __future__ import annotations

from collections import deque
from typing import Any, Deque, Dict, Iterator, List, Optional, Sequence

from protocol.client.errors import EngineTimeoutError
from protocol.client.reports import GoResult, InfoReport

__all__ = ["Analysis", "lines_of", "POLL_SECONDS"]

POLL_SECONDS = 0.1
"""How long :class:`Analysis` waits for a line at a time (it rechecks its deadline between)."""


def lines_of(reports: Sequence[InfoReport]) -> List[InfoReport]:
    """The lines of the deepest depth that has them all, best first (``multipv`` 1, 2, ...):
    a search stopped inside a depth reports its line 1 alone, and that depth is passed over.

    Reports that are not lines of play (bounds, ``currmove``, ``string``) are skipped; a
    later report of the same depth and number replaces an earlier one (a search cut short
    repeats its line 1 with all its nodes).
    """
    by_depth: Dict[int, Dict[int, InfoReport]] = {}
    for report in reports:
        if report.is_line:
            by_depth.setdefault(report.depth, {})[report.multipv or 1] = report  # type: ignore
    if not by_depth:
        return []
    wanted = max(len(lines) for lines in by_depth.values())  # a depth cut short has fewer
    for depth in sorted(by_depth, reverse=True):
        lines = by_depth[depth]
        if 1 in lines and len(lines) == wanted:
            return [lines[number] for number in sorted(lines)]
    return []


class Analysis:
    """A running search of ``engine``, read as an iterator of its ``info`` reports.

    Iterating waits for the next report and ends when the search has written its result
    (:attr:`result`); ``with`` stops the search on exit if it still runs, so leaving the
    block early (``break``) leaves the engine idle. :meth:`stop` stops it at any time and
    returns the :class:`~protocol.client.reports.GoResult`. :attr:`lines` are the lines of
    the deepest depth seen so far (:func:`lines_of`).
    """

    def __init__(self, engine: Any) -> None:
        """``engine``: a client whose search has just been started with
        ``on_info=analysis.add`` (see :meth:`EngineConnection.analysis
        <protocol.client.connection.EngineConnection.analysis>`)."""
        self.engine = engine
        self.result: Optional[GoResult] = None
        self._pending: Deque[InfoReport] = deque()
        self._seen: List[InfoReport] = []

    def add(self, report: InfoReport) -> None:
        """Take one report of the search (the client's ``on_info``)."""
        self._pending.append(report)
        if report.is_line:
            self._seen.append(report)
            del self._seen[:-1000]  # bounded: a flood of reports costs no memory

    @property
    def lines(self) -> List[InfoReport]:
        return lines_of(self._seen)

    def __iter__(self) -> Iterator[InfoReport]:
        return self

    def __next__(self) -> InfoReport:
        while not self._pending:
            if self.result is not None:
                raise StopIteration
            try:
                self.result = self.engine.wait_bestmove(POLL_SECONDS)
            except EngineTimeoutError:
                continue
        return self._pending.popleft()

    def stop(self) -> GoResult:
        """Stop the search (if it still runs) and return its result."""
        if self.result is None:
            self.result = self.engine.stop()
        return self.result

    def __enter__(self) -> "Analysis":
        return self

    def __exit__(self, *exc_info: object) -> None:
        if self.result is None and not getattr(self.engine, "_closed", False):
            self.stop()
