"""A cache of static evaluations: :func:`cached_evaluation`, kept by a
:class:`~.engine.Searcher` across its searches in an :class:`EvaluationCache`.

A search evaluates the same position many times: each iteration of the iterative
deepening reaches again most of the last one's leaves, and transpositions meet in
quiescence, where the transposition table is not asked.  Over fixed searches of
the start and middle-game positions of ``bench/search.py`` a third of the calls
(31-41%) were for a position evaluated before in the same search.  The
evaluation is a pure function of the position, so a remembered value changes no
score and no node count (the ``bench`` signature stays): it only saves the time
of the evaluation, most of a leaf's cost on CPython.  Kept from one search to the next
(the next move's search meets the last one's positions two plies on), it saves some 5-10%
more of a game's search time.  On PyPy, where the evaluation is compiled and a dict of
tuples is not cheap, the cache cost time in a fresh process (English: 0.75 times the
nodes/s of a game's searches), so there it is off (:data:`CACHE_BY_DEFAULT`).
"""
from __future__ import annotations

from typing import Dict, Optional, Tuple

from ..eval import RawEval
from ..runtime import PYPY

__all__ = ["cached_evaluation", "EvaluationCache", "CACHE_ENTRIES", "CACHE_BY_DEFAULT"]

CACHE_ENTRIES = 1 << 16
"""Positions remembered at most; a full cache is emptied and fills again (about
16 MB at most on the 10x10 board, where a key of three 50-bit ints and a bool with its
dict slot takes some 250 bytes)."""

CACHE_BY_DEFAULT = not PYPY
"""Whether a :class:`EvaluationCache` remembers anything unless told: on CPython only."""


def cached_evaluation(evaluate: RawEval, entries: int = CACHE_ENTRIES) -> RawEval:
    """``evaluate`` with a memory of its last results (``entries`` positions at most).

    The returned function gives exactly ``evaluate``'s value for every position.  It
    keeps its own dict: give each thread its own.
    """
    cache: Dict[Tuple[int, int, int, bool], int] = {}
    get = cache.get

    def remembered(white: int, black: int, kings: int, white_to_move: bool) -> int:
        key = (white, black, kings, white_to_move)
        value = get(key)
        if value is None:
            value = evaluate(white, black, kings, white_to_move)
            if len(cache) >= entries:
                cache.clear()
            cache[key] = value
        return value

    return remembered


class EvaluationCache:
    """The remembered evaluations of one :class:`~.engine.Searcher`, for the evaluation it
    searched with last (one search at a time: not for several threads at once).  With
    ``enabled`` false it remembers nothing (:meth:`wrap` gives the evaluation itself)."""

    def __init__(self, entries: int = CACHE_ENTRIES, enabled: bool = CACHE_BY_DEFAULT) -> None:
        self.entries = entries
        self.enabled = enabled
        self._evaluate: Optional[RawEval] = None
        self._cached: Optional[RawEval] = None

    def wrap(self, evaluate: RawEval) -> RawEval:
        """``evaluate`` through the cache: the same function as the last call's when
        ``evaluate`` is the same (its remembered values kept), a new, empty one when
        another evaluation (or variant) is searched."""
        if not self.enabled:
            return evaluate
        if evaluate is not self._evaluate or self._cached is None:
            self._evaluate = evaluate
            self._cached = cached_evaluation(evaluate, self.entries)
        return self._cached

    def clear(self) -> None:
        """Forget every remembered value."""
        self._evaluate = self._cached = None
