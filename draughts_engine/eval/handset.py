"""The hand-set evaluation (``Eval`` value ``hand``; ``full`` where a variant has no tuned
weights): weights chosen by hand, for every diagonal board.

``material`` (a king is worth the variant's ``king_value``: flying kings much higher),
``exchange`` (the side ahead likes trades: the lead counts more as the board empties),
``backrank`` (men guarding their own back row while the opponent still has men), ``centre``
(men and kings on central squares), ``safety`` (men that cannot be jumped: on an edge, or
backed on both diagonals), ``mobility`` (one-step moves of men and kings, from masks),
``advancement`` (rows advanced by men, worth more as the board empties), ``runaway`` (men
with a free path to promotion) and ``endgame`` (king endings, :func:`.terms.make_endgame`).
"""
from __future__ import annotations

from typing import Callable, Dict, Tuple

from ..bitboard import popcount
from ..runtime import TRACED, compile_apart
from ..variants import Variant
from .terms import (MAN_VALUE, board_tables, endgame_pieces, make_endgame,
                    make_mobility_safety, make_runaways, signed_terms)

__all__ = ["build_handset", "HandWeights", "HAND_TERMS"]


class HandWeights:
    """Weights of the hand-set evaluation for one board size (centi-men)."""

    def __init__(self, size: int, king: int) -> None:
        big = size >= 10
        self.man = MAN_VALUE
        self.king = king
        men = 20 if big else 12
        # exchange = lead * scale / (material on board + offset)
        self.exchange_scale = 2000 if big else 1200
        self.exchange_offset = 1000 if big else 600
        self.back = 8 if big else 12
        self.centre_man = 6 if big else 8
        self.centre_king = 8 if big else 10
        self.safety = 2 if big else 3
        self.mobility = 2 if big else 3
        # advancement per row, by number of pieces on the board (index 0..2*men)
        self.advance = tuple(1 + (2 * men - min(n, 2 * men)) * 6 // (2 * men)
                             for n in range(2 * men + 1))
        # runaway bonus by distance to the promotion row (index = rows to go)
        premium = king - MAN_VALUE
        self.runaway_rows = 4 if big else 3
        self.runaway = tuple([0] + [premium * (self.runaway_rows + 1 - d)
                                    // (self.runaway_rows + 2)
                                    for d in range(1, self.runaway_rows + 1)])
        self.endgame_pieces = endgame_pieces(size)  # at most this many: endgame knowledge


HAND_TERMS = ("material", "exchange", "backrank", "centre", "safety", "mobility", "advancement",
              "runaway", "endgame")
"""The terms of the hand-set evaluation, in the order of its ``detail``."""


def build_handset(variant: Variant, traced: bool = TRACED) -> Callable[..., object]:
    """The hand-set evaluation ``f(white, black, kings, white_to_move, detail=False)``
    (side to move's view; with ``detail`` the ``(term, value)`` pairs of :data:`HAND_TERMS`).

    Two shapes with equal results (``traced``, by default the interpreter's, see
    :mod:`..runtime`): CPython's skips absent terms by branches and loops over runaway men;
    PyPy's is :func:`_build_handset_traced`.
    """
    if traced:
        return _build_handset_traced(variant)
    t = board_tables(variant.size)
    geo = t.geo
    w = HandWeights(variant.size, variant.king_value)
    pc = popcount
    board = geo.board
    half = geo.half
    half1 = half + 1
    MAN, KING = w.man, w.king
    EXS, EXO = w.exchange_scale, w.exchange_offset
    BACK, CM, CK, SAFE, MOB = w.back, w.centre_man, w.centre_king, w.safety, w.mobility
    ADV = w.advance
    RUN = w.runaway
    EG_PIECES = w.endgame_pieces
    wback, bback = t.white_back, t.black_back
    centre, kcentre = t.centre, t.king_centre
    off_a, off_b = t.off_a, t.off_b  # the up-left/down-right, up-right/down-left diagonals
    wa0, wa1, wa2, wa3 = (tuple(t.white_adv) + (0, 0, 0, 0))[:4]
    ba0, ba1, ba2, ba3 = (tuple(t.black_adv) + (0, 0, 0, 0))[:4]
    white_cones, black_cones = t.runaway_cones(w.runaway_rows)
    wcone: Dict[int, Tuple[int, int]] = {bit: (cone, RUN[d]) for bit, (cone, d)
                                         in white_cones.items()}
    bcone: Dict[int, Tuple[int, int]] = {bit: (cone, RUN[d]) for bit, (cone, d)
                                         in black_cones.items()}
    wzone, bzone = sum(wcone), sum(bcone)
    endgame = make_endgame(variant)

    def hand(white: int, black: int, kings: int, white_to_move: bool, detail: bool = False):
        wk = white & kings
        bk = black & kings
        wm = white ^ wk
        bm = black ^ bk
        nwm = pc(wm)
        nbm = pc(bm)
        nwk = pc(wk)
        nbk = pc(bk)
        wmat = nwm * MAN + nwk * KING
        bmat = nbm * MAN + nbk * KING
        material = wmat - bmat
        if material >= 0:
            exchange = material * EXS // (wmat + bmat + EXO)
        else:
            exchange = -((-material) * EXS // (wmat + bmat + EXO))
        empty = board ^ white ^ black
        back = 0
        if nbm:
            back = pc(wm & wback) * BACK
        if nwm:
            back -= pc(bm & bback) * BACK
        cen = (pc(wm & centre) - pc(bm & centre)) * CM
        if kings:
            cen += (pc(wk & kcentre) - pc(bk & kcentre)) * CK
        safe = (pc(wm & (off_a | (white << half1) | (white >> half1))
                   & (off_b | (white << half) | (white >> half)))
                - pc(bm & (off_a | (black << half1) | (black >> half1))
                     & (off_b | (black << half) | (black >> half)))) * SAFE
        mob = (pc((wm >> half) & empty) + pc((wm >> half1) & empty)
               - pc((bm << half) & empty) - pc((bm << half1) & empty))
        if kings:
            mob += (pc((wk >> half) & empty) + pc((wk >> half1) & empty)
                    + pc((wk << half) & empty) + pc((wk << half1) & empty)
                    - pc((bk >> half) & empty) - pc((bk >> half1) & empty)
                    - pc((bk << half) & empty) - pc((bk << half1) & empty))
        mob *= MOB
        pieces = nwm + nbm + nwk + nbk
        # Rows advanced, summed bit by bit of the row number (a3 is 0 on 8x8).
        adv = ((pc(wm & wa0) - pc(bm & ba0)) + ((pc(wm & wa1) - pc(bm & ba1)) << 1)
               + ((pc(wm & wa2) - pc(bm & ba2)) << 2))
        if wa3:
            adv += (pc(wm & wa3) - pc(bm & ba3)) << 3
        adv *= ADV[pieces] if pieces < len(ADV) else ADV[-1]
        run = 0
        z = wm & wzone
        while z:
            bit = z & -z
            z ^= bit
            cone, bonus = wcone[bit]
            if not cone & (white | black):
                run += bonus if not nbk else bonus >> 1
        z = bm & bzone
        while z:
            bit = z & -z
            z ^= bit
            cone, bonus = bcone[bit]
            if not cone & (white | black):
                run -= bonus if not nwk else bonus >> 1
        score = material + exchange + back + cen + safe + mob + adv + run
        eg = 0
        if pieces <= EG_PIECES and kings:
            eg = endgame(white, black, kings, wmat, bmat, score)
            score += eg
        if detail:
            return signed_terms(HAND_TERMS, (material, exchange, back, cen, safe, mob, adv, run,
                                             eg), white_to_move)
        return score if white_to_move else -score

    return hand


def _build_handset_traced(variant: Variant) -> Callable[..., object]:
    """:func:`build_handset`'s evaluation (equal scores) in the shape PyPy's JIT compiles best:
    straight lines without branches on the position (signs and choices by arithmetic, the
    shared terms of :mod:`.terms`), mobility, safety and the runaways compiled apart,
    so that the JIT compiles each once instead of a bridge for every combination of
    branches."""
    t = board_tables(variant.size)
    geo = t.geo
    w = HandWeights(variant.size, variant.king_value)
    pc = popcount
    MAN, KING = w.man, w.king
    EXS, EXO = w.exchange_scale, w.exchange_offset
    BACK, CM, CK, SAFE, MOB = w.back, w.centre_man, w.centre_king, w.safety, w.mobility
    # advancement weight by number of pieces, padded for every count a board can hold
    ADV = tuple(w.advance) + (w.advance[-1],) * max(0, geo.squares + 1 - len(w.advance))
    EG_PIECES = w.endgame_pieces
    wback, bback = t.white_back, t.black_back
    centre, kcentre = t.centre, t.king_centre
    off_a, off_b = t.off_a, t.off_b
    wa0, wa1, wa2, wa3 = (tuple(t.white_adv) + (0, 0, 0, 0))[:4]
    ba0, ba1, ba2, ba3 = (tuple(t.black_adv) + (0, 0, 0, 0))[:4]
    runaways = make_runaways(geo, w.runaway[:w.runaway_rows + 1])
    mobility_safety = make_mobility_safety(geo, off_a, off_b)
    endgame = make_endgame(variant)

    def hand_traced(white: int, black: int, kings: int, white_to_move: bool,
                    detail: bool = False):
        # ``x >> 63``: -1 for a negative x, else 0 (|x| < 2**63 here); ``(x ^ s) - s`` is
        # then |x| and gives |x| back x's sign.  ``((-n) >> 63) & 1``: 1 if a count n > 0.
        wk = white & kings
        bk = black & kings
        wm = white ^ wk
        bm = black ^ bk
        nwm = pc(wm)
        nbm = pc(bm)
        nwk = pc(wk)
        nbk = pc(bk)
        wmat = nwm * MAN + nwk * KING
        bmat = nbm * MAN + nbk * KING
        material = wmat - bmat
        s = material >> 63
        exchange = ((((material ^ s) - s) * EXS // (wmat + bmat + EXO)) ^ s) - s
        # the back rank counts while the other side still has men
        back = (((-nbm) >> 63) & 1) * pc(wm & wback) * BACK - (
            ((-nwm) >> 63) & 1) * pc(bm & bback) * BACK
        cen = ((pc(wm & centre) - pc(bm & centre)) * CM
               + (pc(wk & kcentre) - pc(bk & kcentre)) * CK)
        men_moves, king_moves, safe = mobility_safety(white, black, wm, bm, wk, bk)
        mob = (men_moves + king_moves) * MOB
        safe *= SAFE
        pieces = nwm + nbm + nwk + nbk
        adv = ((pc(wm & wa0) - pc(bm & ba0)) + ((pc(wm & wa1) - pc(bm & ba1)) << 1)
               + ((pc(wm & wa2) - pc(bm & ba2)) << 2)
               + ((pc(wm & wa3) - pc(bm & ba3)) << 3)) * ADV[pieces]
        run = runaways(white | black, wm, bm, nwk, nbk)
        score = material + exchange + back + cen + safe + mob + adv + run
        eg = 0
        if pieces <= EG_PIECES and kings:
            eg = endgame(white, black, kings, wmat, bmat, score)
            score += eg
        if detail:
            return signed_terms(HAND_TERMS, (material, exchange, back, cen, safe, mob, adv, run,
                                             eg), white_to_move)
        return score * (white_to_move + white_to_move - 1)

    compile_apart(mobility_safety, runaways, hand_traced)
    return hand_traced
