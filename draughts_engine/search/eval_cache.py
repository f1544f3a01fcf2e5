"""A cache of static evaluations for one search: :func:`cached_evaluation`.

A search evaluates the same position many times: each iteration of the iterative
deepening reaches again most of the last one's leaves, and transpositions meet in
quiescence, where the transposition table is not asked.  Over fixed searches of
the start and middle-game positions of ``bench/search.py`` a third of the calls
(31-41%) were for a position evaluated before in the same search.  The
evaluation is a pure function of the position, so a remembered value changes no
score and no node count (the ``bench`` signature stays): it only saves the time
of the evaluation, most of a leaf's cost on CPython.
"""
from __future__ import annotations

from typing import Callable, Dict, Tuple

__all__ = ["cached_evaluation", "CACHE_ENTRIES"]

#: ``evaluate(white, black, kings, white_to_move) -> int``, the tree's static evaluation.
RawEval = Callable[[int, int, int, bool], int]

CACHE_ENTRIES = 1 << 16
"""Positions remembered at most; a full cache is emptied and fills again (about
16 MB at most on the 10x10 board, where a key of three 50-bit ints and a bool with its
dict slot takes some 250 bytes)."""


def cached_evaluation(evaluate: RawEval, entries: int = CACHE_ENTRIES) -> RawEval:
    """``evaluate`` with a memory of its last results (``entries`` positions at most).

    The returned function gives exactly ``evaluate``'s value for every position.  It
    keeps its own dict, so make one per search (a search runs in one thread).
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
