"""Time management: turn :class:`~.limits.SearchLimits` into deadlines.

A search has two deadlines, in seconds from its start:

* ``soft``: do not start a new iteration after it (the iteration would most
  likely not finish, and the last completed one is good enough);
* ``hard``: abort the running iteration at once.

Fixed move time: both deadlines are the move time minus the overhead
(never below :data:`MIN_BUDGET`).  Clock: the budget is the time left divided
by the moves to go (``movestogo``, or :data:`DEFAULT_MOVES_TO_GO` when not
given) plus most of the increment, minus the overhead, never below the floor;
the hard limit is a few times the soft one but never more than a safe
fraction of the time left.  With neither, both deadlines are None.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from .limits import SearchLimits

__all__ = ["Deadlines", "deadlines", "MIN_BUDGET", "DEFAULT_MOVES_TO_GO"]

MIN_BUDGET = 0.010
"""Smallest budget (seconds) ever given, so a search always completes depth 1."""

DEFAULT_MOVES_TO_GO = 30
"""Assumed moves left in the game when the clock has no ``movestogo``."""

INCREMENT_SHARE = 0.8
"""Share of the increment spent on each move."""

HARD_FACTOR = 4.0
"""The hard deadline is at most this many times the soft one ..."""

SAFE_FRACTION = 0.5
"""... and at most this fraction of the time left (minus overhead)."""


@dataclass(frozen=True)
class Deadlines:
    """Seconds from the search start; None means no time limit."""

    soft: Optional[float]
    hard: Optional[float]


def deadlines(limits: SearchLimits, white_to_move: bool) -> Deadlines:
    """Soft and hard deadlines for the side to move under ``limits``.

    ``infinite`` gives no deadlines; ``ponder`` is the caller's business (it
    calls this again at ``ponderhit`` and counts from then).  When both a move
    time and a clock are given, the smaller budget wins.
    """
    if limits.infinite:
        return Deadlines(None, None)
    overhead = limits.move_overhead_ms / 1000.0
    soft: Optional[float] = None
    hard: Optional[float] = None
    if limits.movetime_ms is not None:
        budget = max(MIN_BUDGET, limits.movetime_ms / 1000.0 - overhead)
        soft = hard = budget
    if limits.has_clock:
        left_ms = limits.wtime_ms if white_to_move else limits.btime_ms
        inc_ms = limits.winc_ms if white_to_move else limits.binc_ms
        left = (left_ms or 0) / 1000.0
        inc = (inc_ms or 0) / 1000.0
        moves_to_go = limits.movestogo or DEFAULT_MOVES_TO_GO
        usable = max(0.0, left - overhead)
        clock_soft = usable / moves_to_go + INCREMENT_SHARE * inc
        cap = SAFE_FRACTION * usable
        if moves_to_go == 1:
            cap = 0.9 * usable  # the last move before the control may use most of it
        clock_soft = max(MIN_BUDGET, min(clock_soft, cap))
        clock_hard = max(clock_soft, min(HARD_FACTOR * clock_soft, cap))
        soft = clock_soft if soft is None else min(soft, clock_soft)
        hard = clock_hard if hard is None else min(hard, clock_hard)
    return Deadlines(soft, hard)
