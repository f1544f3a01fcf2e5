"""Positions of one material <-> consecutive integers.

The index of a position of material ``(wm, wk, bm, bk)`` is built from four
combinatorial ranks (the colex rank of a set of squares, ``sum C(o_j, j)``
over its ordinals ``o_1 < o_2 < ...``):

* white men among the squares a white man may stand on (all but White's
  promotion row), black men likewise;
* white kings among the squares the men leave free, black kings among those the
  white kings leave free;

then ``index = ((men * wk_span + white kings) * bk_span + black kings) * 2 + side``
with ``side`` 0 when White is to move.  All positions with the same men (a
*slice*) are consecutive: a king move never leaves its slice, a man move always
does.  Men ranks whose squares collide are the only unused indices
(:meth:`MaterialIndex.slice_men` returns None for them).

The one symmetry every variant has, turning the board (square ``s`` becomes
``squares + 1 - s``) and exchanging the colours and the side to move, maps a
material onto its flip: :func:`flip` is used to probe ``KvKK`` in the ``KKvK``
database.
"""
from __future__ import annotations

from itertools import combinations
from math import comb
from typing import Iterator, List, Optional, Tuple

from ..bitboard import geometry, popcount
from ..variants import Variant
from .material import Material

__all__ = ["MaterialIndex", "flip", "Raw"]

Raw = Tuple[int, int, int, bool]
"""A raw position: ``(white, black, kings, white_to_move)``."""

_MAX_PIECES = 8
_MAX_SQUARES = 128  # 12x12 has 72 playing squares
_COMB = tuple(tuple(comb(n, k) for k in range(_MAX_PIECES + 1)) for n in range(_MAX_SQUARES))


def _rank(ordinals) -> int:
    """Colex rank of ascending ordinals."""
    return sum(_COMB[o][j] for j, o in enumerate(ordinals, 1))


def _unrank(rank: int, count: int) -> List[int]:
    """Ascending ordinals of colex rank ``rank`` (the inverse of :func:`_rank`)."""
    out = []
    for j in range(count, 0, -1):
        o = j - 1
        while _COMB[o + 1][j] <= rank:
            o += 1
        rank -= _COMB[o][j]
        out.append(o)
    out.reverse()
    return out


class MaterialIndex:
    """Index of the positions of one material on one board (see the module docstring)."""

    def __init__(self, variant: Variant, material: Material) -> None:
        geo = geometry(variant.size)
        self.variant = variant
        self.material = material
        self.geometry = geo
        n, half = geo.squares, geo.half
        self.squares = n
        self.half = half
        wm, wk, bm, bk = (material.white_men, material.white_kings,
                          material.black_men, material.black_kings)
        self.counts = (wm, wk, bm, bk)
        self.white_men_span = comb(n - half, wm)
        self.black_men_span = comb(n - half, bm)
        free = n - wm - bm
        self.white_kings_span = comb(free, wk)
        self.black_kings_span = comb(free - wk, bk)
        self.slice_size = 2 * self.white_kings_span * self.black_kings_span
        self.slices = self.white_men_span * self.black_men_span
        self.size = self.slices * self.slice_size
        #: 0-based square number of each bit index (-1 for ghost bits).
        self.square0: Tuple[int, ...] = tuple(s - 1 for s in geo.square_of_index)
        #: one-bit mask of each 0-based square number.
        self.bit_of: Tuple[int, ...] = tuple(1 << i for i in geo.square_bit_index)

    # ---- position -> index ---------------------------------------------------------
    def encode(self, white: int, black: int, kings: int, white_to_move: bool) -> int:
        """Index of a position of this material (not checked: the caller knows the material)."""
        sq = self.square0
        half = self.half
        combs = _COMB
        men = (white | black) & ~kings
        rank = 0
        j = 1
        bb = white & ~kings
        while bb:
            low = bb & -bb
            bb ^= low
            rank += combs[sq[low.bit_length() - 1] - half][j]
            j += 1
        rank_b = 0
        j = 1
        bb = black & ~kings
        while bb:
            low = bb & -bb
            bb ^= low
            rank_b += combs[sq[low.bit_length() - 1]][j]
            j += 1
        index = rank * self.black_men_span + rank_b
        rank = 0
        j = 1
        wkings = white & kings
        bb = wkings
        while bb:
            low = bb & -bb
            bb ^= low
            rank += combs[sq[low.bit_length() - 1] - popcount(men & (low - 1))][j]
            j += 1
        index = index * self.white_kings_span + rank
        rank = 0
        j = 1
        below = men | wkings
        bb = black & kings
        while bb:
            low = bb & -bb
            bb ^= low
            rank += combs[sq[low.bit_length() - 1] - popcount(below & (low - 1))][j]
            j += 1
        return (index * self.black_kings_span + rank) * 2 + (0 if white_to_move else 1)

    # ---- index -> position ---------------------------------------------------------
    def slice_men(self, men_index: int) -> Optional[Tuple[int, int]]:
        """``(white men, black men)`` bitboards of slice ``men_index``, or None
        when the two sets of squares collide (an unused slice)."""
        wm, _, bm, _ = self.counts
        w_rank, b_rank = divmod(men_index, self.black_men_span)
        bit_of = self.bit_of
        white = 0
        for o in _unrank(w_rank, wm):
            white |= bit_of[o + self.half]
        black = 0
        for o in _unrank(b_rank, bm):
            black |= bit_of[o]
        if white & black:
            return None
        return white, black

    def decode(self, index: int) -> Optional[Raw]:
        """The position of ``index``, or None for an unused index."""
        if not 0 <= index < self.size:
            raise IndexError(f"index {index} out of range 0..{self.size - 1}")
        index, side = divmod(index, 2)
        index, bk_rank = divmod(index, self.black_kings_span)
        men_index, wk_rank = divmod(index, self.white_kings_span)
        men = self.slice_men(men_index)
        if men is None:
            return None
        white, black = men
        _, wk, _, bk = self.counts
        free = [o for o in range(self.squares) if not (white | black) & self.bit_of[o]]
        wkings = 0
        taken = set()
        for o in _unrank(wk_rank, wk):
            taken.add(free[o])
            wkings |= self.bit_of[free[o]]
        rest = [s for s in free if s not in taken]
        bkings = 0
        for o in _unrank(bk_rank, bk):
            bkings |= self.bit_of[rest[o]]
        return white | wkings, black | bkings, wkings | bkings, side == 0

    def slice_positions(self, men_index: int) -> Iterator[Tuple[int, int, int, int]]:
        """``(local index, white, black, kings)`` of every king placement of a
        used slice, White to move (local index even; Black to move is ``+ 1``)."""
        men = self.slice_men(men_index)
        if men is None:
            return
        white_men, black_men = men
        _, wk, _, bk = self.counts
        bit_of = self.bit_of
        free = [bit_of[o] for o in range(self.squares) if not (white_men | black_men) & bit_of[o]]
        bk_span = self.black_kings_span
        for wk_combo in combinations(range(len(free)), wk):
            wkings = 0
            for o in wk_combo:
                wkings |= free[o]
            wk_rank = _rank(wk_combo)
            rest = [f for f in free if not f & wkings]
            for bk_combo in combinations(range(len(rest)), bk):
                bkings = 0
                for o in bk_combo:
                    bkings |= rest[o]
                local = (wk_rank * bk_span + _rank(bk_combo)) * 2
                yield local, white_men | wkings, black_men | bkings, wkings | bkings

    def men_advance(self, men_index: int) -> int:
        """How far the men of a slice have come (rows walked, both sides): a man
        move always leads to a slice one higher."""
        men = self.slice_men(men_index)
        if men is None:
            return -1
        white, black = men
        half, size = self.half, self.geometry.size
        total = 0
        for o in range(self.squares):
            if white & self.bit_of[o]:
                total += size - 1 - o // half
            elif black & self.bit_of[o]:
                total += o // half
        return total


def flip(white: int, black: int, kings: int, white_to_move: bool, squares: int,
         bit_of: Tuple[int, ...], square0: Tuple[int, ...]) -> Raw:
    """The position with the board turned and the colours exchanged (same ending,
    other colours): White's pieces on square ``s`` become Black's on ``squares + 1 - s``."""
    last = squares - 1

    def turn(bb: int) -> int:
        out = 0
        while bb:
            low = bb & -bb
            bb ^= low
            out |= bit_of[last - square0[low.bit_length() - 1]]
        return out

    return turn(black), turn(white), turn(kings), not white_to_move
