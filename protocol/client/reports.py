"""What an engine tells the client, as typed values: one per kind of engine output line.

* :class:`InfoReport`: an ``info`` line (search progress);
* :class:`BestMove`: a ``bestmove`` line;
* :class:`EngineOption`: an ``option`` line of the handshake;
* :class:`GoResult`: the outcome of a whole search (best move, ponder move, the reports).

:mod:`protocol.client.parsers` turns lines into these values.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional, Tuple

__all__ = ["InfoReport", "BestMove", "EngineOption", "GoResult"]


@dataclass(frozen=True)
class InfoReport:
    """One ``info`` line. Fields the line does not carry are None (``pv`` is then empty).

    ``multipv`` numbers the line of a MultiPV search (None: a single line), ``bound`` is
    ``"lowerbound"`` or ``"upperbound"`` for the score of a failed aspiration window, and
    ``currmove``/``currmovenumber`` report the root move being searched (such a line has no
    score).
    """

    depth: Optional[int] = None
    seldepth: Optional[int] = None
    score_cp: Optional[int] = None
    score_mate: Optional[int] = None
    nodes: Optional[int] = None
    nps: Optional[int] = None
    time_ms: Optional[int] = None
    hashfull: Optional[int] = None
    pv: Tuple[str, ...] = ()
    string: Optional[str] = None
    multipv: Optional[int] = None
    bound: Optional[str] = None
    currmove: Optional[str] = None
    currmovenumber: Optional[int] = None

    @property
    def is_line(self) -> bool:
        """Whether this report is a resolved line of play: a depth and a score, not a
        bound of a failed window, not a ``currmove`` report."""
        return (self.depth is not None and (self.score_cp is not None
                                            or self.score_mate is not None)
                and self.bound is None and self.currmove is None)


@dataclass(frozen=True)
class BestMove:
    """A ``bestmove`` line; ``move`` is None for ``bestmove (none)``."""

    move: Optional[str]
    ponder: Optional[str] = None


@dataclass(frozen=True)
class EngineOption:
    """One option an engine offers: an ``option`` line of the ``uci`` reply (or a Hub
    ``param``).  Not to be confused with :class:`protocol.options.OptionSpec`, the option table
    of our own server."""

    name: str
    type: str
    default: Optional[str] = None
    min: Optional[int] = None
    max: Optional[int] = None
    vars: Tuple[str, ...] = ()


@dataclass(frozen=True)
class GoResult:
    """The outcome of one search: ``bestmove`` None means the side to move had no move.

    ``infos`` holds the last reports (:data:`protocol.client.infos.INFO_KEPT`, and the last
    one with a depth when it is older), not all of them: an engine may write any number.
    ``elapsed`` is the time in seconds from sending ``go`` to the arrival of the result line
    (read by the client's reader thread: the client's own parsing is not charged), None when
    unknown."""

    bestmove: Optional[str]
    ponder: Optional[str]
    infos: Tuple[InfoReport, ...] = ()
    elapsed: Optional[float] = field(default=None, compare=False)  # a measure, not a value

    @property
    def last_info(self) -> Optional[InfoReport]:
        """The last line of play of line 1 (the final iteration's best line), if any:
        the last report with a depth and a score that is not a bound, a ``currmove`` report
        or a MultiPV line other than the first; failing that, the last report with a depth."""
        return next((info for info in reversed(self.infos)
                     if info.is_line and (info.multipv or 1) == 1),
                    next((info for info in reversed(self.infos) if info.depth is not None),
                         None))
