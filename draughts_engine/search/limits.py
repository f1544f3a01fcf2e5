"""What a search is asked to do and what it reports.

* :class:`SearchLimits`: the limits of one ``go`` command, parsed once before
  the search starts (depth, nodes, fixed move time, clock, infinite, ponder).
* :class:`SearchInfo`: one progress report, sent after every completed
  iteration of an iterative-deepening search.
* :class:`SearchResult`: the outcome of a search.

Scores follow the protocol: ``score_cp`` in centi-men (a man is 100) from the
side to move's point of view, or ``mate_in`` counted in moves of the winning
side (UCI convention: positive when the side to move wins, negative when it
loses, never 0).  Exactly one of the two is set in a report with a score.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional, Tuple

from .interface import MATE_BOUND, WIN

__all__ = ["SearchLimits", "SearchInfo", "SearchResult", "InvalidLimitsError",
           "score_to_protocol", "mate_in_moves"]


class InvalidLimitsError(ValueError):
    """Search limits that make no sense (negative depth, nodes or times)."""


@dataclass(frozen=True)
class SearchLimits:
    """Limits of one search; every limit is optional and they combine freely.

    The search ends at the first limit reached.  ``depth`` is in plies
    (nominal iteration depth), ``nodes`` counts visited nodes, times are in
    milliseconds.  The clock fields (``wtime_ms`` ... ``movestogo``) are turned
    into deadlines by :mod:`.timeman`.  ``infinite`` searches until stopped
    (it ignores the other limits); ``ponder`` searches until stopped or until
    ``ponderhit``, after which the other limits apply, counted from the
    ponderhit.  ``move_overhead_ms`` is subtracted from clock budgets for the
    time lost in transmission.  Without any limit a search runs until stopped
    or to the maximum depth.
    """

    depth: Optional[int] = None
    nodes: Optional[int] = None
    movetime_ms: Optional[int] = None
    wtime_ms: Optional[int] = None
    btime_ms: Optional[int] = None
    winc_ms: Optional[int] = None
    binc_ms: Optional[int] = None
    movestogo: Optional[int] = None
    infinite: bool = False
    ponder: bool = False
    move_overhead_ms: int = 30

    def __post_init__(self) -> None:
        if self.depth is not None and self.depth < 1:
            raise InvalidLimitsError(f"depth must be at least 1, got {self.depth}")
        if self.nodes is not None and self.nodes < 1:
            raise InvalidLimitsError(f"nodes must be at least 1, got {self.nodes}")
        if self.movestogo is not None and self.movestogo < 1:
            raise InvalidLimitsError(f"movestogo must be at least 1, got {self.movestogo}")
        for name in ("movetime_ms", "wtime_ms", "btime_ms", "winc_ms", "binc_ms",
                     "move_overhead_ms"):
            value = getattr(self, name)
            if value is not None and value < 0:
                raise InvalidLimitsError(f"{name} must not be negative, got {value}")

    @property
    def has_clock(self) -> bool:
        """Whether a clock (``wtime_ms`` or ``btime_ms``) was given."""
        return self.wtime_ms is not None or self.btime_ms is not None

    @property
    def is_timed(self) -> bool:
        """Whether the search has a time limit (fixed move time or a clock)."""
        return self.movetime_ms is not None or self.has_clock


@dataclass(frozen=True)
class SearchInfo:
    """A report after a completed iteration.

    ``hashfull`` is the per-mille fill of the transposition table; ``pv`` the
    principal variation (draughts :class:`~draughts_engine.move.Move` values
    from the engine, the game's own move values from the generic search).
    """

    depth: int
    seldepth: int
    score_cp: Optional[int]
    mate_in: Optional[int]
    nodes: int
    nps: int
    time_ms: int
    hashfull: int
    pv: Tuple[Any, ...]


@dataclass(frozen=True)
class SearchResult:
    """The outcome of a search.

    ``best_move`` is None only when the root has no legal move.
    ``ponder_move`` is the expected reply (second move of the PV), if known.
    """

    best_move: Optional[Any]
    ponder_move: Optional[Any]
    score_cp: Optional[int]
    mate_in: Optional[int]
    depth: int
    seldepth: int
    nodes: int
    time_ms: int
    pv: Tuple[Any, ...]


def mate_in_moves(score: int) -> int:
    """Moves to the end of a decided game (``abs(score) >= MATE_BOUND``), UCI style.

    With ``p = WIN - abs(score)`` plies to the end, a win is ``(p + 1) // 2``
    and a loss ``-(p // 2)``; a lost root without moves (p = 0) gives 0.

    >>> mate_in_moves(WIN - 1), mate_in_moves(-(WIN - 2)), mate_in_moves(WIN - 3)
    (1, -1, 2)
    """
    plies = WIN - abs(score)
    return (plies + 1) // 2 if score > 0 else -(plies // 2)


def score_to_protocol(score: int) -> Tuple[Optional[int], Optional[int]]:
    """``(score_cp, mate_in)`` for a search score: exactly one is not None."""
    if abs(score) >= MATE_BOUND:
        return None, mate_in_moves(score)
    return score, None
