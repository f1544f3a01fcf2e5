"""Static evaluation on raw bitboards.

An evaluation is a function ``(white, black, kings, white_to_move) -> int``
over a raw position (see :mod:`.movegen`), in centi-men (a man is 100) from
the side to move's point of view.  It is built once per variant and
evaluator name, with every mask and table precomputed; nothing in the hot
code reads or writes module state.

Evaluators, looked up by name with :func:`evaluator`:

``full`` (default)
    the tuned linear model of :mod:`.evalmodel` (material, exchange, tapered
    piece-square tables of men, kings' squares, mobility, safety, balance,
    runaway men; weights fitted on self-play games, read from
    ``data/weights-<variant>.json`` on first use) plus the king-ending
    knowledge below; a variant without a weights file gets ``hand``.
``hand``
    the hand-set evaluation: material (a king is worth the variant's ``king_value``: flying kings much higher),
    ``exchange`` (the side ahead likes trades: the lead counts more as the
    board empties), ``backrank`` (men guarding their own back row while the
    opponent still has men), ``centre`` (men and kings on central squares),
    ``safety`` (men that cannot be jumped: on an edge, or backed on both
    diagonals), ``mobility`` (one-step moves of men and kings, from masks),
    ``advancement`` (rows advanced by men, worth more as the board empties),
    ``runaway`` (men with a free path to promotion) and ``endgame`` (king
    endings: approach and confine a lone king, the main diagonal in flying-king
    variants, and the draws of too little material).
``classic``
    The textbook weighted count: man 5, king 10, a man on its own back row
    +1, a piece on a centre square +3, a piece on a side edge +1; scaled by 20
    so that a man is 100.

``Evaluator.explain`` lists ``(term, value)`` pairs whose sum is exactly the
evaluation.  Module helpers :func:`evaluate` and :func:`explain` take a
:class:`~.position.Position`.

>>> from draughts_engine.position import Position
>>> p = Position.from_fen("W:WK28:B3", "international")
>>> dict(explain(p))["material"] == p.variant.king_value - MAN_VALUE
True
>>> evaluate(p) == sum(value for _, value in explain(p))
True
"""
from __future__ import annotations

from typing import Callable, Dict, List, Tuple

from .bitboard import DOWN_LEFT, DOWN_RIGHT, UP_LEFT, UP_RIGHT, Geometry, geometry, popcount
from .errors import DraughtsError
from .evalterms import make_mobility_safety, make_runaways, signed_terms
from .runtime import TRACED, compile_apart
from .variants import CROWN_GOAL, LOSE_GOAL, Variant, get_variant

__all__ = ["Evaluator", "UnknownEvaluationError", "evaluator", "evaluation_names", "evaluation_key",
           "evaluate", "explain", "EVALUATIONS", "MAN_VALUE"]

MAN_VALUE = 100
"""Value of a man in centi-men; a king's is the variant's ``king_value``."""

RawEval = Callable[[int, int, int, bool], int]
Terms = List[Tuple[str, int]]


class UnknownEvaluationError(DraughtsError):
    """Raised for an evaluation name that is not in :data:`EVALUATIONS`."""


def _div(x: int, num: int, den: int) -> int:
    """``x * num / den`` rounded towards zero (odd-symmetric, unlike ``//``)."""
    if x >= 0:
        return x * num // den
    return -((-x) * num // den)


def _rotate(geo: Geometry, mask: int) -> int:
    """The mask turned by 180 degrees (White's view -> Black's view)."""
    return geo.mask_of(geo.squares + 1 - n for n in geo.squares_of(mask))


class Evaluator:
    """One evaluation function for one variant.

    ``evaluate(white, black, kings, white_to_move) -> int`` is the hot entry
    point (a plain function attribute); ``explain(...)`` returns the terms.
    Build instances through :func:`evaluator` (they are cached and immutable).
    """

    def __init__(self, name: str, variant: Variant, function: Callable[..., object]) -> None:
        self.name = name
        self.variant = variant
        self._function = function
        self.evaluate: RawEval = function  # type: ignore[assignment]

    def explain(self, white: int, black: int, kings: int, white_to_move: bool) -> Terms:
        """``(term, value)`` pairs, side to move's view; their sum is ``evaluate(...)``."""
        return self._function(white, black, kings, white_to_move, True)  # type: ignore[return-value]

    def __repr__(self) -> str:
        return f"evaluator({self.name!r}, {self.variant.name!r})"


# ---------------------------------------------------------------------------
# Geometry helpers (import time only).

class _Tables:
    """Masks of one board size from White's point of view and Black's."""

    def __init__(self, geo: Geometry) -> None:
        size, half = geo.size, geo.half
        self.geo = geo
        rows = [geo.mask_of(range(r * half + 1, (r + 1) * half + 1)) for r in range(size)]
        self.rows = rows
        cols = {}
        for n in range(1, geo.squares + 1):
            r, c = geo.row_col(n)
            cols.setdefault(c, []).append(n)
        self.edge = geo.mask_of(cols[0] + cols[size - 1])
        lo, hi = size // 2 - 1, size // 2
        self.centre = geo.mask_of(n for n in range(1, geo.squares + 1)
                                  if geo.row_col(n)[0] in (lo, hi)
                                  and 2 <= geo.row_col(n)[1] <= size - 3)
        self.king_centre = geo.mask_of(n for n in range(1, geo.squares + 1)
                                       if lo - 1 <= geo.row_col(n)[0] <= hi + 1
                                       and 2 <= geo.row_col(n)[1] <= size - 3)
        # Squares whose neighbour in direction d is off the board.
        self.off = [0, 0, 0, 0]
        for d in (UP_LEFT, UP_RIGHT, DOWN_LEFT, DOWN_RIGHT):
            for idx in geo.square_bit_index:
                if geo.neighbour[d][idx] < 0:
                    self.off[d] |= 1 << idx
        self.main_diagonal = geo.mask_of(geo.square_at(size - 1 - i, i) for i in range(size))
        # White men advance towards row 0: row r is size-1-r rows from home.
        self.white_back = rows[size - 1]
        self.black_back = rows[0]
        bits = (size - 1).bit_length()
        self.white_adv = [geo.mask_of(n for n in range(1, geo.squares + 1)
                                      if ((size - 1 - geo.row_col(n)[0]) >> j) & 1)
                          for j in range(bits)]
        self.black_adv = [geo.mask_of(n for n in range(1, geo.squares + 1)
                                      if (geo.row_col(n)[0] >> j) & 1)
                          for j in range(bits)]
        # rc[idx] = (row, col) of a bit index, for distances.
        self.rc = {idx: geo.row_col(geo.square_of_index[idx]) for idx in geo.square_bit_index}

    def cone(self, square: int, white: bool) -> int:
        """Squares in front of a man on ``square`` up to its promotion row that an
        opponent would need to stop it (the widening triangle ahead)."""
        geo = self.geo
        r, c = geo.row_col(square)
        mask = 0
        rows = range(r - 1, -1, -1) if white else range(r + 1, geo.size)
        for row in rows:
            spread = abs(row - r)
            for col in range(c - spread, c + spread + 1):
                n = geo.square_at(row, col)
                if n:
                    mask |= geo.bit(n)
        return mask


_TABLES: Dict[int, _Tables] = {8: _Tables(geometry(8)), 10: _Tables(geometry(10))}


def _tables(size: int) -> _Tables:
    """The tables of a board size (built on first use for sizes other than 8 and 10)."""
    tables = _TABLES.get(size)
    if tables is None:
        tables = _TABLES[size] = _Tables(geometry(size))
    return tables


# ---------------------------------------------------------------------------
# The full evaluation.

class _Weights:
    """Weights of the full evaluation for one board size (centi-men)."""

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
        self.endgame_pieces = 7 if big else 6  # at most this many pieces: endgame knowledge
        self.approach = 6
        self.confine = 4
        self.main_diagonal = 60


FULL_TERMS = ("material", "exchange", "backrank", "centre", "safety", "mobility", "advancement",
              "runaway", "endgame")
"""The terms of the hand-set evaluation, in the order of its ``detail``."""


def _build_full(variant: Variant, traced: bool = TRACED) -> Callable[..., object]:
    """The hand-set evaluation; ``traced``: in PyPy's shape (see :func:`_build_full_traced`)."""
    if traced:
        return _build_full_traced(variant)
    t = _tables(variant.size)
    geo = t.geo
    w = _Weights(variant.size, variant.king_value)
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
    off_ul, off_ur, off_dl, off_dr = t.off[UP_LEFT], t.off[UP_RIGHT], t.off[DOWN_LEFT], t.off[DOWN_RIGHT]
    off_a = off_ul | off_dr  # the up-left / down-right diagonal leaves the board
    off_b = off_ur | off_dl
    wa0, wa1, wa2, wa3 = (tuple(t.white_adv) + (0, 0, 0, 0))[:4]
    ba0, ba1, ba2, ba3 = (tuple(t.black_adv) + (0, 0, 0, 0))[:4]
    rr = w.runaway_rows
    wzone = 0
    bzone = 0
    for r in range(1, rr + 1):
        wzone |= t.rows[r]
        bzone |= t.rows[geo.size - 1 - r]
    wcone: Dict[int, Tuple[int, int]] = {}
    bcone: Dict[int, Tuple[int, int]] = {}
    for n in geo.squares_of(wzone):
        wcone[geo.bit(n)] = (t.cone(n, True), RUN[geo.row_col(n)[0]])
    for n in geo.squares_of(bzone):
        bcone[geo.bit(n)] = (t.cone(n, False), RUN[geo.size - 1 - geo.row_col(n)[0]])
    endgame = _build_endgame(variant, t, w)

    def full(white: int, black: int, kings: int, white_to_move: bool, detail: bool = False):
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
            return signed_terms(FULL_TERMS, (material, exchange, back, cen, safe, mob, adv, run,
                                             eg), white_to_move)
        return score if white_to_move else -score

    return full


def _build_full_traced(variant: Variant) -> Callable[..., object]:
    """:func:`_build_full`'s evaluation (equal scores) in the shape PyPy's JIT compiles best:
    straight lines without branches on the position (signs and choices by arithmetic, the
    shared terms of :mod:`.evalterms`), mobility, safety and the runaways compiled apart,
    so that the JIT compiles each once instead of a bridge for every combination of
    branches."""
    t = _tables(variant.size)
    geo = t.geo
    w = _Weights(variant.size, variant.king_value)
    pc = popcount
    MAN, KING = w.man, w.king
    EXS, EXO = w.exchange_scale, w.exchange_offset
    BACK, CM, CK, SAFE, MOB = w.back, w.centre_man, w.centre_king, w.safety, w.mobility
    # advancement weight by number of pieces, padded for every count a board can hold
    ADV = tuple(w.advance) + (w.advance[-1],) * max(0, geo.squares + 1 - len(w.advance))
    EG_PIECES = w.endgame_pieces
    wback, bback = t.white_back, t.black_back
    centre, kcentre = t.centre, t.king_centre
    off_a = t.off[UP_LEFT] | t.off[DOWN_RIGHT]
    off_b = t.off[UP_RIGHT] | t.off[DOWN_LEFT]
    wa0, wa1, wa2, wa3 = (tuple(t.white_adv) + (0, 0, 0, 0))[:4]
    ba0, ba1, ba2, ba3 = (tuple(t.black_adv) + (0, 0, 0, 0))[:4]
    runaways = make_runaways(geo, w.runaway[:w.runaway_rows + 1])
    mobility_safety = make_mobility_safety(geo, off_a, off_b)
    endgame = _build_endgame(variant, t, w)

    def full_traced(white: int, black: int, kings: int, white_to_move: bool,
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
            return signed_terms(FULL_TERMS, (material, exchange, back, cen, safe, mob, adv, run,
                                             eg), white_to_move)
        return score * (white_to_move + white_to_move - 1)

    compile_apart(mobility_safety, runaways, full_traced)
    return full_traced


def _build_endgame(variant: Variant, t: _Tables, w: _Weights):
    """Knowledge of endings with kings: returns an adjustment (White's view)."""
    pc = popcount
    flying = variant.flying_kings
    rc = t.rc
    main = t.main_diagonal
    board = t.geo.board
    half = t.geo.half
    half1 = half + 1
    APPROACH, CONFINE, DIAG = w.approach, w.confine, w.main_diagonal
    # With flying kings: two kings never beat a lone king, three only when the
    # lone king is off the main diagonal.  English: two kings beat one.
    min_kings_to_win = 3 if flying else 2

    def indices(bb: int) -> List[int]:
        out = []
        while bb:
            bit = bb & -bb
            bb ^= bit
            out.append(bit.bit_length() - 1)
        return out

    def endgame(white: int, black: int, kings: int, wmat: int, bmat: int, base: int) -> int:
        if wmat > bmat:
            strong, weak, sign = white, black, 1
        elif bmat > wmat:
            strong, weak, sign = black, white, -1
        else:
            return 0
        strong_kings = strong & kings
        if not strong_kings or not weak or pc(weak) > 3:
            return 0
        weak_kings = weak & kings
        adj = 0
        if weak == weak_kings and pc(weak) == 1:
            # A lone king: draws of too little material, then the main diagonal.
            only_kings = strong == strong_kings
            n = pc(strong)
            if only_kings and n < min_kings_to_win:
                return -_div(base, 7, 8)
            if flying and only_kings and n == 3:
                if weak & main:
                    return -_div(base, 3, 4)
                if strong_kings & main:
                    adj += DIAG
            empty = board ^ white ^ black
            freedom = (pc((weak >> half) & empty) + pc((weak >> half1) & empty)
                       + pc((weak << half) & empty) + pc((weak << half1) & empty))
            adj -= freedom * CONFINE
        targets = [rc[i] for i in indices(weak)]
        for i in indices(strong_kings):
            r, c = rc[i]
            adj -= APPROACH * min(max(abs(r - tr), abs(c - tc)) for tr, tc in targets)
        return sign * adj

    return endgame


# ---------------------------------------------------------------------------
# The classic (textbook) evaluation.

CLASSIC_SCALE = 20
CLASSIC_WEIGHTS = {"man": 5, "king": 10, "backrank": 1, "centre": 3, "edge": 1}


def _build_classic(variant: Variant) -> Callable[..., object]:
    t = _tables(variant.size)
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
            terms = [("material", material), ("backrank", back), ("centre", cen), ("edge", edg)]
            if not white_to_move:
                terms = [(name, -value) for name, value in terms]
            return terms
        score = material + back + cen + edg
        return score if white_to_move else -score

    return classic


def _build_tuned(variant: Variant) -> Callable[..., object]:
    """The tuned model of :mod:`.evalmodel` with the variant's weights file, or the
    hand-set evaluation (``hand``) when the variant has none."""
    from .evalmodel import build_linear, load_weights  # read on first use, not at import

    weights = load_weights(variant)
    if weights is None:
        return _build_full(variant)
    hand = _Weights(variant.size, variant.king_value)
    return build_linear(variant, weights, _build_endgame(variant, _TABLES[variant.size], hand))


EVALUATIONS: Dict[str, Callable[[Variant], Callable[..., object]]] = {
    "full": _build_tuned,
    "hand": _build_full,
    "classic": _build_classic,
}

_CACHE: Dict[Tuple[str, str], Evaluator] = {}


# ---------------------------------------------------------------------------
# Variants whose goal is not the usual one (variants.LOSE_GOAL, CROWN_GOAL).

def _for_losing(build: Callable[[Variant], Callable[..., object]]
                ) -> Callable[[Variant], Callable[..., object]]:
    """Antidraughts: the usual evaluation with its sign turned (material is a burden)."""
    def build_losing(variant: Variant) -> Callable[..., object]:
        inner = build(variant)

        def losing(white: int, black: int, kings: int, white_to_move: bool, detail: bool = False):
            if detail:
                return [(name, -value) for name, value in  # type: ignore[union-attr]
                        inner(white, black, kings, white_to_move, True)]
            return -inner(white, black, kings, white_to_move)  # type: ignore[operator]

        return losing
    return build_losing


def _build_race(variant: Variant) -> Callable[..., object]:
    """Breakthrough: material, and a crowning race (the first king wins).

    ``race``: per man, a bonus that grows with the square of the rows it has
    advanced, and a man whose way to the promotion row is free (nothing in its
    cone, :meth:`_Tables.cone`) gets a bonus that grows as it gets closer.
    """
    t = _tables(variant.size)
    geo = t.geo
    size = geo.size
    pc = popcount
    MAN, KING = MAN_VALUE, variant.king_value
    # per bit: (cone, row bonus, free-path bonus) for each colour
    white_info: Dict[int, Tuple[int, int, int]] = {}
    black_info: Dict[int, Tuple[int, int, int]] = {}
    for n in range(1, geo.squares + 1):
        row = geo.row_col(n)[0]
        bit = geo.bit(n)
        w_ahead, b_ahead = size - 1 - row, row            # rows advanced
        white_info[bit] = (t.cone(n, True), 2 * w_ahead * w_ahead, 600 // (row + 1))
        black_info[bit] = (t.cone(n, False), 2 * b_ahead * b_ahead, 600 // (size - row))

    def race(white: int, black: int, kings: int, white_to_move: bool, detail: bool = False):
        material = (pc(white) - pc(black)) * MAN + (pc(white & kings) - pc(black & kings)) * (KING - MAN)
        occupied = white | black
        score = 0
        for men, info, sign in ((white & ~kings, white_info, 1), (black & ~kings, black_info, -1)):
            while men:
                bit = men & -men
                men ^= bit
                cone, bonus, free = info[bit]
                score += sign * (bonus + (free if not cone & occupied else 0))
        if detail:
            terms = [("material", material), ("race", score)]
            return terms if white_to_move else [(name, -value) for name, value in terms]
        total = material + score
        return total if white_to_move else -total

    return race


def evaluation_names() -> Tuple[str, ...]:
    """Names accepted by :func:`evaluator`, the default first."""
    return tuple(EVALUATIONS)


def evaluation_key(name: str) -> str:
    """The registered form of an evaluation name (stripped, lower case), without building
    anything; raises :class:`UnknownEvaluationError` for an unknown name."""
    key_name = name.strip().lower() if isinstance(name, str) else name
    if key_name not in EVALUATIONS:
        raise UnknownEvaluationError(
            f"unknown evaluation {name!r} (known: {', '.join(EVALUATIONS)})")
    return key_name  # type: ignore[return-value]


def evaluator(name: str = "full", variant: "Variant | str" = "english") -> Evaluator:
    """The (cached) evaluator called ``name`` for ``variant`` (built, and its weights read,
    on the first call for that pair).

    Raises :class:`UnknownEvaluationError` for an unknown name.
    """
    key_name = evaluation_key(name)
    build = EVALUATIONS[key_name]
    v = get_variant(variant)
    cached = _CACHE.get((key_name, v.name))
    if cached is None:
        if v.all_squares:  # the all-squares boards (Turkish) have evaluators of their own
            from .evaluate_full_board import FULL_BOARD_EVALUATIONS
            # their hand-set evaluation is their "full" (no tuned weights for them yet)
            build = FULL_BOARD_EVALUATIONS.get(key_name, FULL_BOARD_EVALUATIONS["full"])
        if v.goal == CROWN_GOAL:
            build = _build_race
        elif v.goal == LOSE_GOAL:
            build = _for_losing(build)
        cached = _CACHE[(key_name, v.name)] = Evaluator(key_name, v, build(v))
    return cached


def evaluate(position, name: str = "full") -> int:
    """Evaluation of a :class:`~.position.Position` for its side to move."""
    return evaluator(name, position.variant).evaluate(*position.raw)


def explain(position, name: str = "full") -> Terms:
    """Terms of the evaluation of a position; their sum equals :func:`evaluate`."""
    return evaluator(name, position.variant).explain(*position.raw)
