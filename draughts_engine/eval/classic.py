"""The classic evaluation (``Eval`` value ``classic``): the textbook weighted count.

Man 5, king 10, a man on its own back row +1, a piece on a centre square +3, a piece on a
side edge +1; scaled by :data:`CLASSIC_SCALE` (20) so that a man is 100.
"""
from __future__ import annotations

from typing import Callable

from ..bitboard import popcount
from ..variants import Variant
from .terms import board_tables, signed_terms

__all__ = ["build_classic", "CLASSIC_SCALE", "CLASSIC_WEIGHTS", "CLASSIC_TERMS"]

CLASSIC_SCALE = 20
"""Every weight is multiplied by this, so that a man is worth :data:`.terms.MAN_VALUE`."""
CLASSIC_WEIGHTS = {"man": 5, "king": 10, "backrank": 1, "centre": 3, "edge": 1}
"""The textbook's weights."""
CLASSIC_TERMS = ("material", "backrank", "centre", "edge")
"""The terms of the classic evaluation, in the order of its ``detail``."""


def build_classic(variant: Variant) -> Callable[..., object]:
    """The textbook evaluation of a diagonal board (see the module's docstring)."""
    t = board_tables(variant.size)
    pc = popcount
    s = CLASSIC_SCALE
    MAN, KING = CLASSIC_WEIGHTS["man"] * s, CLASSIC_WEIGHTS["king"] * s
    BACK, CEN, EDGE = (CLASSIC_WEIGHTS["backrank"] * s, CLASSIC_WEIGHTS["centre"] * s,
                       CLASSIC_WEIGHTS["edge"] * s)
    wback, bback, centre, edge = t.white_back, t.black_back, t.centre, t.edge

    def classic(white: int, black: int, kings: int, white_to_move: bool, detail: bool = False):
        wk = white & kings
        bk = black & kings
        material = (pc(white) - pc(black)) * MAN + (pc(wk) - pc(bk)) * (KING - MAN)
        back = (pc((white ^ wk) & wback) - pc((black ^ bk) & bback)) * BACK
        cen = (pc(white & centre) - pc(black & centre)) * CEN
        edg = (pc(white & edge) - pc(black & edge)) * EDGE
        if detail:
            return signed_terms(CLASSIC_TERMS, (material, back, cen, edg), white_to_move)
        score = material + back + cen + edg
        return score if white_to_move else -score

    return classic
