"""Move ordering and reductions of the engine's search: :func:`make_move_ordering`, :data:`LMR`.

Order at a node: the transposition table's move first; then, captures being
forced, the larger captures first (kings taken count twice; under the
majority rule all legal captures are equally large, so they keep the
generator's order); quiet moves by the history heuristic, with the two
killer moves of the ply (quiet moves that refuted a sibling) before them.

The history table is keyed by ``origin - destination`` of a move (one int,
cheap to hash) and kept between the searches of a game, aged by
:func:`age_history` at the start of each search.
"""
from __future__ import annotations

import math
from typing import Callable, Dict, List, NamedTuple, Optional, Tuple

from ..bitboard import popcount
from ..movegen import RawMove

__all__ = ["LMR", "lmr_table", "Killers", "new_killers", "age_history", "MoveOrdering",
           "make_move_ordering", "capture_size", "tie_break", "sort_root_moves"]

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


def capture_size(kings: int) -> Callable[[RawMove], int]:
    """Sort key of captures in a position with ``kings`` (larger first): what the capture
    wins (pieces taken, kings twice), then a promotion, then :func:`tie_break`, then the
    captured squares (two captures may share both ends); the order never depends on the
    generator's."""
    pc = popcount
    return lambda m: (((((pc(m[2]) + pc(m[2] & kings)) << 1) | (1 if m[3] else 0)) << 14
                       | (m[1].bit_length() << 7) | m[0].bit_length()) << 64) | m[2]


def sort_root_moves(moves: List[RawMove], kings: int, history: Dict[int, int]) -> None:
    """Sort the root's moves in place before the first iteration: captures by
    :func:`capture_size`, quiet moves by their history score, then :func:`tie_break`."""
    if moves and moves[0][2]:
        moves.sort(key=capture_size(kings), reverse=True)
    else:
        hist_get = history.get
        moves.sort(key=lambda m: (hist_get(m[0] - m[1], 0) << 14) | tie_break(m), reverse=True)


class MoveOrdering(NamedTuple):
    """The ordering closures of one search (see :func:`make_move_ordering`)."""

    #: ``order(moves, capture, kings, tt_move, kl)``: sort ``moves`` in place, best
    #: first (``capture``: they are captures; ``kl``: the ply's killer slots).
    order: Callable[[List[RawMove], int, int, Optional[RawMove], List[Optional[RawMove]]], None]
    #: ``remember(move, kl, depth)``: a quiet ``move`` refuted its node at ``depth``:
    #: make it the ply's first killer and raise its history score by ``depth ** 2``.
    remember: Callable[[RawMove, List[Optional[RawMove]], int], None]


def make_move_ordering(history: Dict[int, int], majority: bool) -> MoveOrdering:
    """The ordering of one search over the (shared, mutable) ``history`` table."""
    hist_get = history.get

    def history_key(m: RawMove) -> int:
        return (hist_get(m[0] - m[1], 0) << 14) | (m[1].bit_length() << 7) | m[0].bit_length()

    def order(moves: List[RawMove], capture: int, kings: int, tt_move: Optional[RawMove],
              kl: List[Optional[RawMove]]) -> None:
        if capture:
            moves.sort(key=capture_size(kings), reverse=True)
        else:
            moves.sort(key=history_key, reverse=True)
            for killer in (kl[1], kl[0]):
                if killer is not None and killer != tt_move and killer in moves:
                    moves.remove(killer)
                    moves.insert(0, killer)
        if tt_move is not None and tt_move in moves:
            moves.remove(tt_move)
            moves.insert(0, tt_move)

    def remember(move: RawMove, kl: List[Optional[RawMove]], depth: int) -> None:
        if kl[0] != move:
            kl[1] = kl[0]
            kl[0] = move
        key = move[0] - move[1]
        history[key] = hist_get(key, 0) + depth * depth

    return MoveOrdering(order, remember)
