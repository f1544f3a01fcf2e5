"""Static evaluation for the all-squares boards (Turkish draughts).

The other evaluations read the dark-square layout of :mod:`..bitboard`; a variant whose
every square is playable (``Variant.all_squares``) gets these instead, under the same
contract (``(white, black, kings, white_to_move, detail=False)``, centi-men, the side to
move's view; with ``detail`` the ``(term, value)`` pairs whose sum is the evaluation), by
the names of :data:`ALLSQUARES_EVALUATIONS`:

``hand`` (also what ``full`` gives: there are no tuned weights for these boards)
    ``material`` (a man 100, a king the variant's ``king_value``),
    ``advancement`` (rows each man has advanced, worth more as the board
    empties), ``mobility`` (one-step moves of men and kings) and ``backrank``
    (men still on their own second row, the wall that keeps kings out, while
    the opponent has men).
``classic``
    ``material`` only.
"""
from __future__ import annotations

from typing import Callable, Dict

from ..bitboard import popcount
from ..fullboard import full_geometry
from ..variants import Variant
from .terms import MAN_VALUE as MAN, signed_terms

__all__ = ["ALLSQUARES_EVALUATIONS", "build_allsquares_hand", "build_allsquares_classic"]

ADVANCE = 3       # per row advanced, scaled up as pieces leave the board
MOBILITY = 2      # per one-step move
BACKRANK = 4      # per man on its own second row

_HAND_TERMS = ("material", "advancement", "mobility", "backrank")


def build_allsquares_hand(variant: Variant) -> Callable[..., object]:
    """The hand-set evaluation of an all-squares board."""
    geo = full_geometry(variant.size)
    size, stride, board = geo.size, geo.stride, geo.board
    king = variant.king_value
    rows = [geo.mask_of(range(r * size + 1, (r + 1) * size + 1)) for r in range(size)]
    bits = (size - 1).bit_length()
    # White's men advance towards row 0: a man on row r has come size - 1 - r rows.
    white_adv = [geo.mask_of(n for n in range(1, geo.squares + 1)
                             if ((size - 1 - geo.row_col(n)[0]) >> j) & 1) for j in range(bits)]
    black_adv = [geo.mask_of(n for n in range(1, geo.squares + 1)
                             if (geo.row_col(n)[0] >> j) & 1) for j in range(bits)]
    white_wall, black_wall = rows[size - 2], rows[1]
    start_men = geo.squares // 4  # men per side at the start (two rows of eight)
    pc = popcount

    def hand(white: int, black: int, kings: int, white_to_move: bool, detail: bool = False):
        wk, bk = white & kings, black & kings
        wm, bm = white ^ wk, black ^ bk
        material = (pc(wm) - pc(bm)) * MAN + (pc(wk) - pc(bk)) * king
        pieces = pc(white) + pc(black)
        scale = ADVANCE * (1 + (2 * start_men - min(pieces, 2 * start_men)) * 2 // start_men)
        adv = 0
        for j in range(bits):
            adv += (pc(wm & white_adv[j]) - pc(bm & black_adv[j])) << j
        adv *= scale
        empty = board ^ white ^ black
        mob = (pc((wm >> stride) & empty) - pc((bm << stride) & empty)
               + pc(((wm >> 1) | (wm << 1)) & empty) - pc(((bm >> 1) | (bm << 1)) & empty))
        if kings:
            for s in (stride, 1):
                mob += pc(((wk >> s) | (wk << s)) & empty) - pc(((bk >> s) | (bk << s)) & empty)
        mob *= MOBILITY
        back = 0
        if bm:
            back += pc(wm & white_wall) * BACKRANK
        if wm:
            back -= pc(bm & black_wall) * BACKRANK
        if detail:
            return signed_terms(_HAND_TERMS, (material, adv, mob, back), white_to_move)
        score = material + adv + mob + back
        return score if white_to_move else -score

    return hand


def build_allsquares_classic(variant: Variant) -> Callable[..., object]:
    """Material only."""
    king = variant.king_value
    pc = popcount

    def classic(white: int, black: int, kings: int, white_to_move: bool, detail: bool = False):
        wk, bk = white & kings, black & kings
        material = (pc(white ^ wk) - pc(black ^ bk)) * MAN + (pc(wk) - pc(bk)) * king
        if detail:
            return signed_terms(("material",), (material,), white_to_move)
        return material if white_to_move else -material

    return classic


ALLSQUARES_EVALUATIONS: Dict[str, Callable[[Variant], Callable[..., object]]] = {
    "hand": build_allsquares_hand,
    "classic": build_allsquares_classic,
}
"""Evaluator builders by name for the all-squares boards (names of :data:`.EVALUATIONS`; the
others, ``full``, get ``hand``)."""
