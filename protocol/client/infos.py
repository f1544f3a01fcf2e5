"""The ``info`` reports of one search, kept within a bound: :class:`InfoLog`.

An engine may write any number of ``info`` lines (a flood of hundreds of thousands is legal).
The client keeps only what a caller reads afterwards: the last :data:`INFO_KEPT` reports and
the last line of play of line 1 (``GoResult.last_info``), and parses a line only when it is needed:
at once when the search has an ``on_info`` callback, else when the result is built. So reading
a flood costs little more than reading the lines, and memory stays bounded.
"""

from __future__ import annotations

from collections import deque
from typing import Deque, List, Optional, Tuple, Union

from protocol.client.errors import ProtocolError
from protocol.client.parsers import parse_info
from protocol.client.reports import InfoReport

__all__ = ["InfoLog", "INFO_KEPT"]

INFO_KEPT = 64
"""How many of a search's last ``info`` reports its :class:`GoResult` keeps."""

_Item = Tuple[int, Union[str, InfoReport]]  # (its number in the search, a raw line or a report)


class InfoLog:
    """The bounded ``info`` reports of one search (see the module docstring).

    :meth:`add_line` keeps a raw ``info`` line (parsed later, leniently: a malformed field is
    left out, a line that cannot be read at all is dropped), :meth:`add` a parsed report.
    """

    def __init__(self, keep: int = INFO_KEPT) -> None:
        self._tail: Deque[_Item] = deque(maxlen=keep)
        self._deepest: Optional[_Item] = None  # the last item with a depth
        self.count = 0  # all the reports seen

    def add_line(self, line: str) -> None:
        self.count += 1
        item: _Item = (self.count, line)
        self._tail.append(item)
        if "depth" in line and "score" in line and "bound" not in line and (
                "multipv" not in line or " multipv 1 " in line):
            self._deepest = item  # (a cheap test: parsing tells for sure later)

    def add(self, report: InfoReport) -> None:
        self.count += 1
        item: _Item = (self.count, report)
        self._tail.append(item)
        if report.is_line and (report.multipv or 1) == 1:
            self._deepest = item

    def reports(self) -> Tuple[InfoReport, ...]:
        """The kept reports in the order they came: the last with a depth (when it is older
        than the tail), then the last :data:`INFO_KEPT`."""
        items: List[_Item] = list(self._tail)
        if self._deepest is not None and (not items or self._deepest[0] < items[0][0]):
            items.insert(0, self._deepest)
        reports: List[InfoReport] = []
        for _number, value in items:
            if isinstance(value, InfoReport):
                reports.append(value)
                continue
            try:
                reports.append(parse_info(value, lenient=True))
            except ProtocolError:  # not an info line after all: nothing to report
                pass
        return tuple(reports)

    def __len__(self) -> int:
        return self.count
