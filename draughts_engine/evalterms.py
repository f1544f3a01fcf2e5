"""Terms the evaluations share in their traced shape (PyPy's, see :mod:`.runtime`): counted
without a loop or a branch on the position, the shape PyPy's JIT compiles best.

:func:`make_mobility_safety` counts the men's and kings' one-step moves and the men that
cannot be jumped; :func:`make_runaways` the runaway men.

A man ``d`` rows from its promotion row (``1 <= d <= RUNAWAY_ROWS_MAX``) is a runaway when
the widening triangle of squares ahead of it up to the promotion row (its *cone*) is empty:
nothing can stop it.  The evaluations of :mod:`.evaluate` and :mod:`.evalmodel` give it a
bonus by ``d``, halved (rounded down) when the other side has a king.

Their interpreted shape loops over the men near promotion and tests each one's cone mask.
:func:`make_runaways` counts them row by row instead: a square is *free* when each of its
forward neighbours on the board is empty and free itself (the cone of a square is its forward
neighbours and their cones), so the free squares of row ``d`` follow from those of row
``d - 1`` by two shifts, and the runaways of row ``d`` are the men on its free squares.
"""
from __future__ import annotations

from typing import Callable, List, Sequence, Tuple

from .bitboard import Geometry, popcount

__all__ = ["make_runaways", "make_mobility_safety", "signed_terms", "RUNAWAY_ROWS_MAX"]

RUNAWAY_ROWS_MAX = 4
"""The most rows from promotion a runaway man is counted at (the evaluations use 3 or 4)."""


def make_runaways(geo: Geometry, bonus: Sequence[int]) -> Callable[[int, int, int, int, int],
                                                                    int]:
    """``runaways(occupied, white_men, black_men, white_king_count, black_king_count) -> int``:
    the bonus of both sides' runaway men, White's view.

    ``bonus[d]`` is the bonus of a man ``d`` rows from promotion (``bonus[0]`` unused; rows
    past the end of ``bonus`` count nothing).  Equal to testing each man's cone: the tests
    compare both on random positions.
    """
    size, half = geo.size, geo.half
    half1 = half + 1
    if len(bonus) > RUNAWAY_ROWS_MAX + 1:
        raise ValueError(f"runaway men are counted up to {RUNAWAY_ROWS_MAX} rows")
    full = list(bonus[1:]) + [0] * (RUNAWAY_ROWS_MAX + 1 - len(bonus))
    R1, R2, R3, R4 = full
    # what halving takes off each bonus (a halved bonus is rounded down, as R >> 1)
    CUT1, CUT2, CUT3, CUT4 = (r - (r >> 1) for r in full)
    pc = popcount

    def row(r: int) -> int:
        return geo.mask_of(n for n in range(1, geo.squares + 1) if geo.row_col(n)[0] == r)

    counted = len(bonus) - 1
    # [d]: the squares d rows from White's (Black's) promotion row; none past the counted rows
    WR0, WR1, WR2, WR3, WR4 = (row(d) if d <= counted else 0
                               for d in range(RUNAWAY_ROWS_MAX + 1))
    BR0, BR1, BR2, BR3, BR4 = (row(size - 1 - d) if d <= counted else 0
                               for d in range(RUNAWAY_ROWS_MAX + 1))

    def runaways(occupied: int, wm: int, bm: int, nwk: int, nbk: int) -> int:
        # White promotes on row 0: its forward neighbours are ``half`` and ``half + 1`` bits
        # lower ("bad": a square that is occupied or not free).
        bad = WR0 & occupied
        free = WR1 & ~((bad << half) | (bad << half1))
        r1 = pc(wm & free)
        bad = WR1 & (occupied | ~free)
        free = WR2 & ~((bad << half) | (bad << half1))
        r2 = pc(wm & free)
        bad = WR2 & (occupied | ~free)
        free = WR3 & ~((bad << half) | (bad << half1))
        r3 = pc(wm & free)
        bad = WR3 & (occupied | ~free)
        free = WR4 & ~((bad << half) | (bad << half1))
        r4 = pc(wm & free)
        # 1 when Black has a king, else 0 (counts are small: -n >> 63 is -1 for n > 0)
        halve = ((-nbk) >> 63) & 1
        run = r1 * R1 + r2 * R2 + r3 * R3 + r4 * R4 - halve * (
            r1 * CUT1 + r2 * CUT2 + r3 * CUT3 + r4 * CUT4)
        bad = BR0 & occupied
        free = BR1 & ~((bad >> half) | (bad >> half1))
        r1 = pc(bm & free)
        bad = BR1 & (occupied | ~free)
        free = BR2 & ~((bad >> half) | (bad >> half1))
        r2 = pc(bm & free)
        bad = BR2 & (occupied | ~free)
        free = BR3 & ~((bad >> half) | (bad >> half1))
        r3 = pc(bm & free)
        bad = BR3 & (occupied | ~free)
        free = BR4 & ~((bad >> half) | (bad >> half1))
        r4 = pc(bm & free)
        halve = ((-nwk) >> 63) & 1
        return run - (r1 * R1 + r2 * R2 + r3 * R3 + r4 * R4 - halve * (
            r1 * CUT1 + r2 * CUT2 + r3 * CUT3 + r4 * CUT4))

    return runaways


def make_mobility_safety(geo: Geometry, off_a: int, off_b: int
                         ) -> Callable[[int, int, int, int, int, int], Tuple[int, int, int]]:
    """``counts(white, black, white_men, black_men, white_kings, black_kings)`` ->
    ``(men_mobility, king_mobility, safety)``, each White's count minus Black's.

    Mobility: one-step moves to empty squares (men forwards, kings every way).  Safety: men
    that cannot be jumped, on an edge or backed on both diagonals; ``off_a`` (``off_b``) is
    the mask of squares whose up-left or down-right (up-right or down-left) neighbour is off
    the board.
    """
    board, half = geo.board, geo.half
    half1 = half + 1
    pc = popcount

    def counts(white: int, black: int, wm: int, bm: int, wk: int, bk: int
               ) -> Tuple[int, int, int]:
        empty = board ^ white ^ black
        men = (pc((wm >> half) & empty) + pc((wm >> half1) & empty)
               - pc((bm << half) & empty) - pc((bm << half1) & empty))
        kings = (pc((wk >> half) & empty) + pc((wk >> half1) & empty)
                 + pc((wk << half) & empty) + pc((wk << half1) & empty)
                 - pc((bk >> half) & empty) - pc((bk >> half1) & empty)
                 - pc((bk << half) & empty) - pc((bk << half1) & empty))
        safety = (pc(wm & (off_a | (white << half1) | (white >> half1))
                     & (off_b | (white << half) | (white >> half)))
                  - pc(bm & (off_a | (black << half1) | (black >> half1))
                       & (off_b | (black << half) | (black >> half))))
        return men, kings, safety

    return counts


def signed_terms(names: Sequence[str], values: Sequence[int],
                 white_to_move: bool) -> List[Tuple[str, int]]:
    """An evaluation's ``detail``: the ``(name, value)`` pairs of its terms (White's view
    ``values``), turned to the side to move's view."""
    sign = 1 if white_to_move else -1
    return [(name, sign * value) for name, value in zip(names, values)]
