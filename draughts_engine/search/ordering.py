"""Move ordering and reductions of the engine's search: :func:`make_move_ordering`, :data:`LMR`.

Order at a node: the transposition table's move first; then, captures being
forced, the larger captures first (kings taken count twice), then a promotion;
quiet moves by the history heuristic, with the two killer moves of the ply
(quiet moves that refuted a sibling) before them.  Ties are broken by the
moves' squares (:func:`tie_break`, :func:`capture_key`), so the order never
depends on the order the generator happens to list moves in.

The history table is keyed by ``origin - destination`` of a move (one int,
cheap to hash) and kept between the searches of a game, aged by
:func:`age_history` at the start of each search.
"""
from __future__ import annotations

import math
from typing import Callable, Dict, List, NamedTuple, Optional, Tuple

from ..bitboard import popcount
from ..movegen import RawMove
from ..runtime import TRACED, compile_apart

__all__ = ["LMR", "lmr_table", "Killers", "new_killers", "age_history", "MoveOrdering",
           "make_move_ordering", "make_move_ordering_keyed", "make_move_ordering_traced",
           "make_remember", "sort_descending", "capture_size", "capture_key", "tie_break",
           "sort_root_moves"]

#: Killer moves per ply: ``killers[ply] == [newest, older]`` (None: empty slot).
Killers = List[List[Optional[RawMove]]]


def lmr_table() -> Tuple[Tuple[int, ...], ...]:
    """Reductions by ``[depth][move index]`` (both capped at 63) for quiet late moves."""
    table = []
    for depth in range(64):
        row = []
        for index in range(64):
            if depth < 2 or index < 2:
                row.append(0)
            else:
                r = int(1.0 + math.log(depth) * math.log(index) / 1.5)
                row.append(max(1, min(r, depth - 1)))
        table.append(tuple(row))
    return tuple(table)


LMR = lmr_table()
"""The late move reductions of :func:`lmr_table` (an immutable table)."""


def new_killers(plies: int) -> Killers:
    """Empty killer slots for ``plies`` plies."""
    return [[None, None] for _ in range(plies)]


def age_history(history: Dict[int, int]) -> None:
    """Divide every history score by four (older searches count less)."""
    for key in list(history):
        history[key] >>= 2


def tie_break(m: RawMove) -> int:
    """A key that tells any two moves of a position apart, whatever the generator's order:
    the destination's bit index, then the origin's (both below 128)."""
    return (m[1].bit_length() << 7) | m[0].bit_length()


#: A prime below 2 ** 40: the captured squares folded to 40 bits, the last tie-break of
#: :func:`capture_key` (the whole key stays a machine integer, which PyPy's JIT wants).
CAPTURED_FOLD = (1 << 40) - 87


def capture_key(m: RawMove, kings: int) -> int:
    """Sort key of a capture in a position with ``kings`` (larger first): what the capture
    wins (pieces taken, kings twice), then a promotion, then :func:`tie_break`, then the
    captured squares (two captures may share both ends); below ``2 ** 62``, and the order
    it gives never depends on the generator's."""
    taken = m[2]
    return ((((((popcount(taken) + popcount(taken & kings)) << 1) | (1 if m[3] else 0)) << 14)
             | (m[1].bit_length() << 7) | m[0].bit_length()) << 40) | (taken % CAPTURED_FOLD)


def capture_size(kings: int) -> Callable[[RawMove], int]:
    """:func:`capture_key` for a position with ``kings``, as a ``list.sort`` key."""
    pc = popcount
    fold = CAPTURED_FOLD
    return lambda m: ((((((pc(m[2]) + pc(m[2] & kings)) << 1) | (1 if m[3] else 0)) << 14)
                       | (m[1].bit_length() << 7) | m[0].bit_length()) << 40) | (m[2] % fold)


def sort_root_moves(moves: List[RawMove], kings: int, history: Dict[int, int]) -> None:
    """Sort the root's moves in place before the first iteration: captures by
    :func:`capture_size`, quiet moves by their history score, then :func:`tie_break`."""
    if moves and moves[0][2]:
        moves.sort(key=capture_size(kings), reverse=True)
    else:
        hist_get = history.get
        moves.sort(key=lambda m: (hist_get(m[0] - m[1], 0) << 14) | tie_break(m), reverse=True)


def sort_descending(moves: List[RawMove], scores: List[int]) -> None:
    """Sort ``moves`` in place by ``scores`` (same length, changed too), highest first.

    Stable, like ``moves.sort(key=..., reverse=True)``: equal scores keep their
    order.  An insertion sort over a handful of moves: on PyPy the JIT traces
    it, where ``list.sort(key=...)`` calls back into Python once per move.
    """
    for i in range(1, len(moves)):
        score = scores[i]
        j = i - 1
        if scores[j] >= score:
            continue
        move = moves[i]
        while j >= 0 and scores[j] < score:
            scores[j + 1] = scores[j]
            moves[j + 1] = moves[j]
            j -= 1
        scores[j + 1] = score
        moves[j + 1] = move


class MoveOrdering(NamedTuple):
    """The ordering closures of one search (see :func:`make_move_ordering`)."""

    #: ``order(moves, capture, kings, tt_move, kl)``: sort ``moves`` in place, best
    #: first (``capture``: they are captures; ``kl``: the ply's killer slots).
    order: Callable[[List[RawMove], int, int, Optional[RawMove], List[Optional[RawMove]]], None]
    #: ``remember(move, kl, depth)``: a quiet ``move`` refuted its node at ``depth``:
    #: make it the ply's first killer and raise its history score by ``depth ** 2``.
    remember: Callable[[RawMove, List[Optional[RawMove]], int], None]
    #: ``sort_captures(moves, kings)``: sort captures in place by :func:`capture_key`,
    #: larger first.
    sort_captures: Callable[[List[RawMove], int], None]


def _put_first(moves: List[RawMove], tt_move: Optional[RawMove],
               kl: Optional[List[Optional[RawMove]]]) -> None:
    """Move the killers of ``kl`` (older first, so the newest ends first) and then
    ``tt_move`` to the front of ``moves`` when they are in it."""
    if kl is not None:
        for killer in (kl[1], kl[0]):
            if killer is not None and killer != tt_move and killer in moves:
                moves.remove(killer)
                moves.insert(0, killer)
    if tt_move is not None and tt_move in moves:
        moves.remove(tt_move)
        moves.insert(0, tt_move)


def make_move_ordering_keyed(history: Dict[int, int], majority: bool) -> MoveOrdering:
    """The ordering of one search over the (shared, mutable) ``history`` table,
    shaped for CPython: ``list.sort`` with a key function."""
    hist_get = history.get
    put_first = _put_first

    def history_key(m: RawMove) -> int:
        return (hist_get(m[0] - m[1], 0) << 14) | (m[1].bit_length() << 7) | m[0].bit_length()

    def order(moves: List[RawMove], capture: int, kings: int, tt_move: Optional[RawMove],
              kl: List[Optional[RawMove]]) -> None:
        if capture:
            moves.sort(key=capture_size(kings), reverse=True)
            put_first(moves, tt_move, None)
        else:
            moves.sort(key=history_key, reverse=True)
            put_first(moves, tt_move, kl)

    def sort_captures(moves: List[RawMove], kings: int) -> None:
        moves.sort(key=capture_size(kings), reverse=True)

    return MoveOrdering(order, make_remember(history), sort_captures)


#: Scores above any history score (tiers of :func:`make_move_ordering_traced`):
#: the table's move, the newest killer, the older killer.
TT_TIER, KILLER_TIER, OLDER_KILLER_TIER = 3 << 60, 2 << 60, 1 << 60


def make_move_ordering_traced(history: Dict[int, int], majority: bool) -> MoveOrdering:
    """The same ordering as :func:`make_move_ordering_keyed`, shaped for PyPy's JIT:
    scores in a list and :func:`sort_descending` (no key callbacks, no closure per call;
    the table's move and the killers as tiers above every history score, not moved
    to the front one by one)."""
    hist_get = history.get
    key = capture_key

    def sort_captures(moves: List[RawMove], kings: int) -> None:
        sort_descending(moves, [key(m, kings) for m in moves])

    def order(moves: List[RawMove], capture: int, kings: int, tt_move: Optional[RawMove],
              kl: List[Optional[RawMove]]) -> None:
        if capture:
            sort_descending(moves, [key(m, kings) for m in moves])
            _put_first(moves, tt_move, None)
        else:
            # The table's move, then the killers (newest first), then the history
            # order: as tiers of the score, so one sort puts them in place.
            killer, older = kl[0], kl[1]
            scores = []
            for m in moves:
                if m == tt_move:
                    scores.append(TT_TIER)
                elif m == killer:
                    scores.append(KILLER_TIER)
                elif m == older:
                    scores.append(OLDER_KILLER_TIER)
                else:
                    scores.append((hist_get(m[0] - m[1], 0) << 14)
                                  | (m[1].bit_length() << 7) | m[0].bit_length())
            sort_descending(moves, scores)

    compile_apart(order)  # called at every node: compiled once, not into each trace
    return MoveOrdering(order, make_remember(history), sort_captures)


def make_remember(history: Dict[int, int]) -> Callable[[RawMove, List[Optional[RawMove]], int],
                                                         None]:
    """``remember`` of :class:`MoveOrdering` over the ``history`` table."""
    hist_get = history.get

    def remember(move: RawMove, kl: List[Optional[RawMove]], depth: int) -> None:
        if kl[0] != move:
            kl[1] = kl[0]
            kl[0] = move
        key = move[0] - move[1]
        history[key] = hist_get(key, 0) + depth * depth

    return remember


#: ``make_move_ordering(history, majority) -> MoveOrdering``: the ordering of one
#: search, in the shape the running interpreter wants (chosen once, see
#: :mod:`~draughts_engine.runtime`); both give the same order.
make_move_ordering = make_move_ordering_traced if TRACED else make_move_ordering_keyed
