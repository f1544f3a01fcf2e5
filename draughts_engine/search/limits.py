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

__all__ = ["SearchLimits", "SearchInfo", "RootMoveInfo", "SearchResult", "InvalidLimitsError",
           "score_to_protocol", "mate_in_moves", "LIMIT_RANGES", "CLOCK_FIELDS", "MAX_DEPTH",
           "MAX_MULTIPV", "MAX_MATE", "LOWERBOUND", "UPPERBOUND"]


class InvalidLimitsError(ValueError):
    """Search limits that make no sense (a value out of its range, a bad combination)."""


MAX_DEPTH = 99
"""The deepest nominal depth a search can be asked for."""

MAX_NODES = 2 ** 63 - 1
MAX_TIME_MS = 2 ** 31 - 1
MAX_MOVESTOGO = 1000
MAX_MULTIPV = 500
"""The most lines a search reports (more than any draughts position has legal moves)."""
MAX_MATE = 49
"""The longest win ``go mate N`` looks for, in moves (its depth, 2N+1 plies, stays within
:data:`MAX_DEPTH`)."""
LOWERBOUND = "lowerbound"
UPPERBOUND = "upperbound"

#: Each numeric limit with its range (inclusive).
LIMIT_RANGES = {
    "depth": (1, MAX_DEPTH),
    "nodes": (1, MAX_NODES),
    "movetime_ms": (1, MAX_TIME_MS),
    "wtime_ms": (0, MAX_TIME_MS),
    "btime_ms": (0, MAX_TIME_MS),
    "winc_ms": (0, MAX_TIME_MS),
    "binc_ms": (0, MAX_TIME_MS),
    "movestogo": (1, MAX_MOVESTOGO),
    "mate": (1, MAX_MATE),
    "move_overhead_ms": (0, MAX_TIME_MS),
    "multipv": (1, MAX_MULTIPV),
}

#: Engine settings carried by the limits (not limits of their own: they never make a
#: search bounded and combine with ``infinite``).
SETTINGS = ("move_overhead_ms", "multipv")

CLOCK_FIELDS = ("wtime_ms", "btime_ms", "winc_ms", "binc_ms", "movestogo")


@dataclass(frozen=True)
class SearchLimits:
    """Limits of one search; the one limits type from every wire to the search.

    Every wire converts its own syntax into this type once, at its edge (the text
    protocol's ``go``, Hub's ``level``, DXP's clock, the match runner's engine
    limits), and the reference clients convert it back into their wire's syntax.

    Every search obeys them through one :class:`~.budget.SearchBudget` (the engine's,
    the classic searches, the small games'), and ends at the first limit reached.
    ``depth`` is in plies (nominal iteration depth), ``nodes`` counts visited nodes,
    times are in milliseconds.  The clock fields (``wtime_ms`` ... ``movestogo``) are turned
    into deadlines by :mod:`.timeman`; a clock needs both ``wtime_ms`` and
    ``btime_ms``.  ``infinite`` searches until stopped and combines with no other
    limit; ``ponder`` searches until stopped or until ``ponderhit``, after which
    the other limits apply, counted from the ponderhit.  ``move_overhead_ms`` (an
    engine setting, not part of any wire's limits) is subtracted from clock budgets
    for the time lost in transmission.  Without any limit a search runs until
    stopped or to the maximum depth.

    Raises :class:`InvalidLimitsError` for a value out of its range
    (:data:`LIMIT_RANGES`) or a combination that makes no sense.

    >>> SearchLimits(depth=6).is_bounded, SearchLimits(infinite=True).is_bounded
    (True, False)
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
    mate: Optional[int] = None
    searchmoves: Tuple[Any, ...] = ()
    move_overhead_ms: int = 30
    multipv: int = 1

    def __post_init__(self) -> None:
        for name, (low, high) in LIMIT_RANGES.items():
            value = getattr(self, name)
            if value is None:
                continue
            if isinstance(value, bool) or not isinstance(value, int):
                raise InvalidLimitsError(f"{name} must be a whole number, got {value!r}")
            if not low <= value <= high:
                raise InvalidLimitsError(f"{name} must be in {low}..{high}, got {value}")
        for name in ("infinite", "ponder"):
            if not isinstance(getattr(self, name), bool):
                raise InvalidLimitsError(f"{name} must be True or False")
        given_clock = [name for name in CLOCK_FIELDS if getattr(self, name) is not None]
        if given_clock and (self.wtime_ms is None or self.btime_ms is None):
            raise InvalidLimitsError("a clock needs both wtime_ms and btime_ms")
        if self.infinite:
            if self.ponder:
                raise InvalidLimitsError("infinite cannot be combined with ponder")
            other = next((name for name in LIMIT_RANGES if name not in SETTINGS
                          and getattr(self, name) is not None), None)
            if other is not None:
                raise InvalidLimitsError(f"infinite cannot be combined with {other}")

    @property
    def has_clock(self) -> bool:
        """Whether a clock was given (``wtime_ms`` and ``btime_ms``)."""
        return self.wtime_ms is not None

    @property
    def is_timed(self) -> bool:
        """Whether the search has a time limit (fixed move time or a clock)."""
        return self.movetime_ms is not None or self.has_clock

    @property
    def wants_best_move_only(self) -> bool:
        """Whether the search answers only "the best move": one line over every root move,
        no mate to find (what the parallel search's helpers and the book serve)."""
        return self.multipv == 1 and not self.searchmoves and self.mate is None

    @property
    def is_bounded(self) -> bool:
        """Whether the search ends by itself: a depth, nodes, move time or clock limit,
        and not pondering (a ponder search waits for ``ponderhit`` or ``stop``)."""
        if self.ponder or self.infinite:
            return False
        return (self.depth is not None or self.nodes is not None or self.mate is not None
                or self.is_timed)

    def budget_ms(self, white_to_move: bool) -> Optional[int]:
        """The most time this search may take by its own limits (move time, or the
        mover's whole clock plus increment); None when it has no time limit."""
        budgets = []
        if self.movetime_ms is not None:
            budgets.append(self.movetime_ms)
        if self.has_clock:
            left = self.wtime_ms if white_to_move else self.btime_ms
            increment = (self.winc_ms if white_to_move else self.binc_ms) or 0
            budgets.append((left or 0) + increment)
        return min(budgets) if budgets else None


@dataclass(frozen=True)
class SearchInfo:
    """A report after a completed iteration.

    ``hashfull`` is the per-mille fill of the transposition table; ``pv`` the
    principal variation (draughts :class:`~draughts_engine.move.Move` values
    from the engine, the game's own move values from the generic search);
    ``tbhits`` how many positions the endgame databases answered.
    ``multipv`` numbers the line (1 = best) when the search reports several
    (``MultiPV`` above 1), else 0 (the wire then writes no ``multipv``); ``bound``
    is "" for a resolved score, :data:`LOWERBOUND` or :data:`UPPERBOUND` for the
    score of an aspiration window that failed high or low (reported only once a search
    has run a second: the score is not yet known, the line is the one searched).
    ``book`` is True for the one report of a move played from the opening book (``pv`` is
    that move; nothing was searched: depth, counts and score are 0 or None).
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
    tbhits: int = 0
    multipv: int = 0
    bound: str = ""
    book: bool = False


@dataclass(frozen=True)
class RootMoveInfo:
    """The root move being searched (``currmove``), reported once a search has run a
    second, a few times a second at most: ``number`` counts from 1 in the search order
    of the iteration ``depth``."""

    depth: int
    move: Any
    number: int


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
    and a loss ``-((p + 1) // 2)`` (``-p/2`` rounded down: an odd ``p`` only
    happens in antidraughts, where a side's own move can hand the win to the
    opponent); a lost root without moves (p = 0) gives 0.

    >>> mate_in_moves(WIN - 1), mate_in_moves(-(WIN - 2)), mate_in_moves(WIN - 3)
    (1, -1, 2)
    """
    plies = WIN - abs(score)
    return (plies + 1) // 2 if score > 0 else -((plies + 1) // 2)


def score_to_protocol(score: int) -> Tuple[Optional[int], Optional[int]]:
    """``(score_cp, mate_in)`` for a search score: exactly one is not None."""
    if abs(score) >= MATE_BOUND:
        return None, mate_in_moves(score)
    return score, None
