"""The tuned evaluation (``Eval`` value ``full``, the default): a linear model over position
features, its weights read from a data file.

The score of a position (White's view, centi-men; the side to move's view is its negation
when Black moves) is

    material + sum(weight[f] * feature[f] for each feature f) (+ the king-ending knowledge
    of :func:`.terms.make_endgame`, not tuned)

where material counts a man 100 and a king the variant's ``king_value`` (fixed: they anchor
the scale), and every feature is White's count minus Black's (Black's squares turned by 180
degrees, so one weight serves both sides):

``exchange``
    the material lead over the material on the board (times 1000; the side ahead likes trades);
``men_open[n]``, ``men_end[n]``
    a man on square ``n`` (White's numbering), weighed by how full the board is: a position of
    ``p`` pieces out of the starting ``N`` counts ``p / N`` of the opening table and the rest
    of the endgame table (a tapered piece-square table: it holds centre, back rank, tempo and
    advancement);
``king[n]``
    a king on square ``n``;
``safety``
    men that cannot be jumped (on an edge, or backed on both diagonals);
``mobility_men``, ``mobility_kings``
    one-step moves of men and kings to empty squares;
``balance``
    minus the difference between a side's men on the left and on the right half of the board;
``runaway[d]``
    men ``d`` rows from promotion with nothing in front of them (half when the other side
    has a king).

and, where the variant has a patterns file (``draughts_engine/data/patterns-<variant>.json``,
:mod:`.patterns`), the tapered scores of the men on local groups of nearby squares (two rows
of the file's ``span`` of squares each, or blocks of 4x4 squares: the file's ``shape``), fitted
on top of the weights by ``tools/fit_patterns.py`` (read with the weights).

The weights are integers in ``draughts_engine/data/weights-<variant>.json``, fitted by
``tools/tune_eval.py`` on positions of the project's self-play games (docs/strength.md);
they are read on the first evaluation of the variant, not at import.  :func:`features`
computes the features plainly (for the tuning); :func:`build_linear` builds the fast
function: the piece-square tables are summed by table look-ups over 11-bit slices of the
men's and kings' masks (both phases packed in one integer), the rest by masks and popcounts.
"""
from __future__ import annotations

import os
from typing import Callable, Dict, List, Optional, Sequence, Tuple

from ..bitboard import popcount
from ..errors import DraughtsError
from ..runtime import TRACED, compile_apart
from ..variants import Variant
from .handset import build_handset
from .patterns import (PatternTables, load_patterns, make_pattern_sum, pattern_sums,
                       with_men_squares)
from .terms import (MAN_VALUE, BoardTables, board_tables, endgame_pieces, make_endgame,
                    make_mobility_safety, make_runaways, read_data_file, signed_terms)

__all__ = ["build_tuned", "WeightsError", "weights_path", "load_weights", "feature_names",
           "features", "build_linear", "linear_score", "fitted_weights", "SCALAR_FEATURES",
           "RUNAWAY_ROWS", "EXCHANGE_OFFSET", "DATA_DIR"]

DATA_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data")
"""Where the weight files are (``draughts_engine/data``)."""

SCALAR_FEATURES = ("exchange", "safety", "mobility_men", "mobility_kings", "balance")
"""The features that are one number each (the tables follow them)."""

RUNAWAY_ROWS = 4
"""Runaway men are counted up to this many rows from promotion."""

EXCHANGE_OFFSET = {8: 600, 10: 1000}
"""``exchange = 1000 * lead / (material on the board + offset)`` by board size."""

EXCHANGE_UNIT = 1000
"""The ``exchange`` feature counts thousandths of the lead over the material."""

MODEL_TERMS = ("material", "exchange", "squares", "kings", "mobility", "safety", "balance",
               "runaway", "endgame")
"""The terms of :func:`build_linear`'s ``detail``, in order."""

SLICE = 11
"""Bits per table look-up slice (five slices cover both boards' padded layouts)."""

PACK = 1 << 24
"""The endgame half of a packed piece-square sum is counted in units of PACK."""


class WeightsError(DraughtsError):
    """A weights file that cannot be read or does not fit its variant."""


def feature_names(variant: Variant) -> List[str]:
    """The features of ``variant``'s model, in the order of :func:`features`."""
    squares = range(1, variant.size * variant.size // 2 + 1)
    return (list(SCALAR_FEATURES) + [f"men_open[{n}]" for n in squares]
            + [f"men_end[{n}]" for n in squares] + [f"king[{n}]" for n in squares]
            + [f"runaway[{d}]" for d in range(1, RUNAWAY_ROWS + 1)])


def weights_path(variant: Variant) -> str:
    """The weights file of ``variant`` (it may not exist)."""
    return os.path.join(DATA_DIR, f"weights-{variant.name}.json")


def load_weights(variant: Variant, path: Optional[str] = None) -> Optional[Dict[str, int]]:
    """The weights of ``variant`` by feature name, or None when it has no file.

    Raises :class:`WeightsError` for a file that cannot be read, is not JSON, is for another
    board, or names unknown features or non-integer weights.
    """
    path = path or weights_path(variant)
    data = read_data_file(path, WeightsError, "weights")
    if data is None:
        return None
    if not isinstance(data, dict) or not isinstance(data.get("weights"), dict):
        raise WeightsError(f"{path}: no 'weights' object")
    if data.get("board") != variant.size:
        raise WeightsError(f"{path}: weights for board {data.get('board')!r}, "
                           f"not {variant.size}")
    known = set(feature_names(variant))
    weights: Dict[str, int] = {}
    for name, value in data["weights"].items():
        if name not in known:
            raise WeightsError(f"{path}: unknown feature {name!r}")
        if isinstance(value, bool) or not isinstance(value, int):
            raise WeightsError(f"{path}: weight of {name!r} is not an integer: {value!r}")
        weights[name] = value
    return weights


class _Model:
    """What the plain computations read for one board size: its tables, the mobility and
    safety counts, the runaway squares (``{bit: (cone, rows to go)}`` of each side)."""

    def __init__(self, size: int) -> None:
        self.tables = tables = board_tables(size)
        self.mobility_safety = make_mobility_safety(tables.geo, tables.off_a, tables.off_b)
        self.white_cones, self.black_cones = tables.runaway_cones(RUNAWAY_ROWS)


_MODELS: Dict[int, _Model] = {}


def _model(size: int) -> _Model:
    model = _MODELS.get(size)
    if model is None:
        model = _MODELS[size] = _Model(size)
    return model


def _counts(model: _Model, white: int, black: int, kings: int) -> Dict[str, int]:
    """The raw counts behind the scalar features (White minus Black)."""
    pc = popcount
    wk, bk = white & kings, black & kings
    wm, bm = white ^ wk, black ^ bk
    mob_men, mob_kings, safety = model.mobility_safety(white, black, wm, bm, wk, bk)
    left, right = model.tables.left, model.tables.right
    balance = (-abs(pc(wm & left) - pc(wm & right)) + abs(pc(bm & left) - pc(bm & right)))
    return {"safety": safety, "mobility_men": mob_men, "mobility_kings": mob_kings,
            "balance": balance}


def _material(variant: Variant, white: int, black: int, kings: int) -> Tuple[int, int]:
    """White's and Black's material (a man :data:`.terms.MAN_VALUE`, a king ``king_value``)."""
    wk, bk = white & kings, black & kings
    return (popcount(white ^ wk) * MAN_VALUE + popcount(wk) * variant.king_value,
            popcount(black ^ bk) * MAN_VALUE + popcount(bk) * variant.king_value)


def _runaways(model: _Model, white: int, black: int, kings: int) -> List[Tuple[int, int, bool]]:
    """``(sign, rows to go, halved)`` of every runaway man."""
    occupied = white | black
    out = []
    for mask, cones, sign, other_kings in ((white & ~kings, model.white_cones, 1, black & kings),
                                           (black & ~kings, model.black_cones, -1,
                                            white & kings)):
        for bit, (cone, rows) in cones.items():
            if mask & bit and not cone & occupied:
                out.append((sign, rows, bool(other_kings)))
    return out


def features(variant: Variant, white: int, black: int, kings: int) -> Dict[str, float]:
    """The features of a position (White's view), by name; absent names are 0.

    The plain, slow computation, for the tuning; :func:`linear_score` adds them up as the
    fast function does.
    """
    model = _model(variant.size)
    board = model.tables
    geo = board.geo
    wk, bk = white & kings, black & kings
    wmat, bmat = _material(variant, white, black, kings)
    out: Dict[str, float] = dict(_counts(model, white, black, kings))
    out["exchange"] = EXCHANGE_UNIT * (wmat - bmat) / (wmat + bmat + EXCHANGE_OFFSET[variant.size])
    n_start = board.start_pieces
    phase = min(popcount(white | black), n_start)
    for mask, sign, own in ((white & ~kings, 1, True), (black & ~kings, -1, False),
                            (wk, 1, True), (bk, -1, False)):
        for n in geo.squares_of(mask):
            square = n if own else board.turn(n)
            if mask & ~kings:
                for name, share in (("men_open", phase / n_start),
                                    ("men_end", (n_start - phase) / n_start)):
                    key = f"{name}[{square}]"
                    out[key] = out.get(key, 0.0) + sign * share
            else:
                key = f"king[{square}]"
                out[key] = out.get(key, 0.0) + sign
    for sign, rows, halved in _runaways(model, white, black, kings):
        key = f"runaway[{rows}]"
        out[key] = out.get(key, 0.0) + sign * (0.5 if halved else 1.0)
    return out


def linear_score(variant: Variant, weights: Dict[str, int], white: int, black: int,
                 kings: int, patterns: Optional[PatternTables] = None) -> int:
    """The model's score without the king endings (White's view), computed plainly with
    the fast function's integer rounding (the reference of the tests); ``patterns`` adds
    their opening and ending sums to the piece-square table's."""
    model = _model(variant.size)
    board = model.tables
    geo = board.geo
    wk, bk = white & kings, black & kings
    wmat, bmat = _material(variant, white, black, kings)
    lead = wmat - bmat
    total = wmat + bmat + EXCHANGE_OFFSET[variant.size]
    exchange = abs(lead) * weights.get("exchange", 0) // total * (1 if lead >= 0 else -1)
    n_start = board.start_pieces
    phase = min(popcount(white | black), n_start)
    opening = ending = king = 0
    for n in geo.squares_of(white & ~kings):
        opening += weights.get(f"men_open[{n}]", 0)
        ending += weights.get(f"men_end[{n}]", 0)
    for n in geo.squares_of(black & ~kings):
        opening -= weights.get(f"men_open[{board.turn(n)}]", 0)
        ending -= weights.get(f"men_end[{board.turn(n)}]", 0)
    for n in geo.squares_of(wk):
        king += weights.get(f"king[{n}]", 0)
    for n in geo.squares_of(bk):
        king -= weights.get(f"king[{board.turn(n)}]", 0)
    if patterns is not None:
        more_opening, more_ending = pattern_sums(patterns, white & ~kings, black & ~kings)
        opening += more_opening
        ending += more_ending
    t = opening * phase + ending * (n_start - phase)
    pst = t // n_start if t >= 0 else -((-t) // n_start)
    counts = _counts(model, white, black, kings)
    rest = sum(weights.get(name, 0) * value for name, value in counts.items())
    run = 0
    for sign, rows, halved in _runaways(model, white, black, kings):
        bonus = weights.get(f"runaway[{rows}]", 0)
        run += sign * ((bonus >> 1) if halved else bonus)
    return lead + exchange + pst + king + rest + run


def _slices(board: BoardTables, values: Dict[int, int]) -> List[List[int]]:
    """Look-up tables: ``tables[j][x]`` is the sum of ``values[square]`` over the squares
    whose bits are set in ``x``, the j-th SLICE-bit slice of a mask."""
    geo = board.geo
    by_index = {geo.bit(n).bit_length() - 1: value for n, value in values.items()}
    tables = []
    for j in range(5):
        base = j * SLICE
        singles = [by_index.get(base + i, 0) for i in range(SLICE)]
        table = [0] * (1 << SLICE)
        for x in range(1, 1 << SLICE):
            low = x & -x
            table[x] = table[x ^ low] + singles[low.bit_length() - 1]
        tables.append(table)
    return tables


def build_linear(variant: Variant, weights: Dict[str, int],
                 endgame: Optional[Callable[[int, int, int, int, int, int], int]] = None,
                 traced: bool = TRACED,
                 patterns: Optional[PatternTables] = None) -> Callable[..., object]:
    """The fast evaluation ``f(white, black, kings, white_to_move, detail=False)`` of the
    model (side to move's view; with ``detail`` the ``(term, value)`` pairs).

    ``patterns`` (:mod:`.patterns`) are summed with the piece-square table, packed and
    tapered as it is (``detail`` shows them in ``squares``): the men's table is folded into
    the patterns' tables, one set of look-ups for both.

    ``endgame(white, black, kings, wmat, bmat, score)`` (White's view) is added in positions
    of at most the variant's few pieces with a king (:func:`.terms.endgame_pieces`).

    Two shapes with equal results (``traced``, by default the interpreter's, see
    :mod:`..runtime`): CPython's skips absent terms by branches and loops over runaway men;
    PyPy's is one straight line (signs, minima and choices by arithmetic, runaway men row
    by row) that the JIT compiles once, without a bridge for every combination of branches.
    """
    board = board_tables(variant.size)
    geo = board.geo
    pc = popcount
    squares = range(1, board.squares + 1)
    wt = weights.get
    # a man's (opening, ending) values on each square, from each side's point of view
    men_white = {n: (wt(f"men_open[{n}]", 0), wt(f"men_end[{n}]", 0)) for n in squares}
    men_black = {n: (-men_white[board.turn(n)][0], -men_white[board.turn(n)][1])
                 for n in squares}
    kings_white = {n: wt(f"king[{n}]", 0) for n in squares}
    kings_black = {n: -wt(f"king[{board.turn(n)}]", 0) for n in squares}
    pattern_sum = None
    if patterns is None:  # the men's table by slices
        mw0, mw1, mw2, mw3, mw4 = _slices(board, {n: o + e * PACK
                                                  for n, (o, e) in men_white.items()})
        mb0, mb1, mb2, mb3, mb4 = _slices(board, {n: o + e * PACK
                                                  for n, (o, e) in men_black.items()})
    else:  # the men's table goes into the patterns' look-ups (no slices read)
        mw0 = mw1 = mw2 = mw3 = mw4 = mb0 = mb1 = mb2 = mb3 = mb4 = []
        folded = with_men_squares(patterns, men_white, men_black)
        pattern_sum = make_pattern_sum(folded, PACK)
    kw0, kw1, kw2, kw3, kw4 = _slices(board, kings_white)
    kb0, kb1, kb2, kb3, kb4 = _slices(board, kings_black)
    S1, S2, S3, S4 = SLICE, 2 * SLICE, 3 * SLICE, 4 * SLICE
    M = (1 << SLICE) - 1
    HALF_PACK = PACK >> 1
    N = board.start_pieces
    MAN, KING = MAN_VALUE, variant.king_value
    EX, EXO = wt("exchange", 0), EXCHANGE_OFFSET[variant.size]
    SAFE, MOBM, MOBK, BAL = (wt("safety", 0), wt("mobility_men", 0), wt("mobility_kings", 0),
                             wt("balance", 0))
    RUN = [0] + [wt(f"runaway[{d}]", 0) for d in range(1, RUNAWAY_ROWS + 1)]
    model = _model(variant.size)
    wcone = {bit: (cone, RUN[rows], RUN[rows] >> 1) for bit, (cone, rows)
             in model.white_cones.items()}
    bcone = {bit: (cone, RUN[rows], RUN[rows] >> 1) for bit, (cone, rows)
             in model.black_cones.items()}
    wzone, bzone = sum(wcone), sum(bcone)
    left, right = board.left, board.right
    full_board = geo.board
    half, half1 = geo.half, geo.half + 1
    off_a, off_b = board.off_a, board.off_b
    eg_pieces = endgame_pieces(variant.size)
    if traced:
        runaways = make_runaways(geo, RUN)
        mobility_safety = make_mobility_safety(geo, off_a, off_b)
        PACK_BITS = PACK.bit_length() - 1

        def linear_traced(white: int, black: int, kings: int, white_to_move: bool,
                          detail: bool = False):
            # ``x >> 63`` is -1 for a negative x and 0 otherwise (|x| < 2**63 here);
            # ``(x ^ s) - s`` is then |x|, and turns |x| back into x's sign.
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
            exchange = (((((material ^ s) - s) * EX // (wmat + bmat + EXO)) ^ s) - s)
            if pattern_sum is not None:
                p = pattern_sum(wm, bm)
            else:
                p = (mw0[wm & M] + mw1[(wm >> S1) & M] + mw2[(wm >> S2) & M]
                     + mw3[(wm >> S3) & M] + mw4[wm >> S4] + mb0[bm & M] + mb1[(bm >> S1) & M]
                     + mb2[(bm >> S2) & M] + mb3[(bm >> S3) & M] + mb4[bm >> S4])
            ending = (p + HALF_PACK) >> PACK_BITS
            opening = p - (ending << PACK_BITS)
            pieces = nwm + nbm + nwk + nbk
            spare = N - pieces
            phase = pieces + (spare & (spare >> 63))  # min(pieces, N)
            t = opening * phase + ending * (N - phase)
            s = t >> 63
            pst = ((((t ^ s) - s) // N) ^ s) - s  # rounded towards zero, as CPython's shape
            kpst = (kw0[wk & M] + kw1[(wk >> S1) & M] + kw2[(wk >> S2) & M]
                    + kw3[(wk >> S3) & M] + kw4[wk >> S4] + kb0[bk & M] + kb1[(bk >> S1) & M]
                    + kb2[(bk >> S2) & M] + kb3[(bk >> S3) & M] + kb4[bk >> S4])
            men_moves, king_moves, safe = mobility_safety(white, black, wm, bm, wk, bk)
            mob = men_moves * MOBM + king_moves * MOBK
            safe *= SAFE
            a = pc(wm & left) - pc(wm & right)
            c = pc(bm & left) - pc(bm & right)
            sa = a >> 63
            sc = c >> 63
            bal = (((c ^ sc) - sc) - ((a ^ sa) - sa)) * BAL
            run = runaways(white | black, wm, bm, nwk, nbk)
            score = material + exchange + pst + kpst + mob + safe + bal + run
            eg = 0
            if pieces <= eg_pieces and kings and endgame is not None:
                eg = endgame(white, black, kings, wmat, bmat, score)
                score += eg
            if detail:
                return signed_terms(MODEL_TERMS, (material, exchange, pst, kpst, mob, safe, bal,
                                                  run, eg), white_to_move)
            return score * (white_to_move + white_to_move - 1)

        compile_apart(mobility_safety, runaways, linear_traced)
        return linear_traced

    def linear(white: int, black: int, kings: int, white_to_move: bool, detail: bool = False):
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
            exchange = material * EX // (wmat + bmat + EXO)
        else:
            exchange = -((-material) * EX // (wmat + bmat + EXO))
        if pattern_sum is not None:
            p = pattern_sum(wm, bm)
        else:
            p = (mw0[wm & M] + mw1[(wm >> S1) & M] + mw2[(wm >> S2) & M] + mw3[(wm >> S3) & M]
                 + mw4[wm >> S4] + mb0[bm & M] + mb1[(bm >> S1) & M] + mb2[(bm >> S2) & M]
                 + mb3[(bm >> S3) & M] + mb4[bm >> S4])
        ending = (p + HALF_PACK) // PACK
        opening = p - ending * PACK
        pieces = nwm + nbm + nwk + nbk
        phase = pieces if pieces < N else N
        t = opening * phase + ending * (N - phase)
        pst = t // N if t >= 0 else -((-t) // N)  # towards zero: colours stay symmetric
        empty = full_board ^ white ^ black
        mob = (pc((wm >> half) & empty) + pc((wm >> half1) & empty)
               - pc((bm << half) & empty) - pc((bm << half1) & empty)) * MOBM
        kpst = 0
        if kings:
            kpst = (kw0[wk & M] + kw1[(wk >> S1) & M] + kw2[(wk >> S2) & M]
                    + kw3[(wk >> S3) & M] + kw4[wk >> S4] + kb0[bk & M] + kb1[(bk >> S1) & M]
                    + kb2[(bk >> S2) & M] + kb3[(bk >> S3) & M] + kb4[bk >> S4])
            mob += (pc((wk >> half) & empty) + pc((wk >> half1) & empty)
                    + pc((wk << half) & empty) + pc((wk << half1) & empty)
                    - pc((bk >> half) & empty) - pc((bk >> half1) & empty)
                    - pc((bk << half) & empty) - pc((bk << half1) & empty)) * MOBK
        safe = (pc(wm & (off_a | (white << half1) | (white >> half1))
                   & (off_b | (white << half) | (white >> half)))
                - pc(bm & (off_a | (black << half1) | (black >> half1))
                     & (off_b | (black << half) | (black >> half)))) * SAFE
        a = pc(wm & left) - pc(wm & right)
        c = pc(bm & left) - pc(bm & right)
        bal = ((c if c >= 0 else -c) - (a if a >= 0 else -a)) * BAL
        run = 0
        z = wm & wzone
        if z:
            occupied = white | black
            while z:
                bit = z & -z
                z ^= bit
                cone, bonus, halved = wcone[bit]
                if not cone & occupied:
                    run += halved if bk else bonus
        z = bm & bzone
        if z:
            occupied = white | black
            while z:
                bit = z & -z
                z ^= bit
                cone, bonus, halved = bcone[bit]
                if not cone & occupied:
                    run -= halved if wk else bonus
        score = material + exchange + pst + kpst + mob + safe + bal + run
        eg = 0
        if kings and endgame is not None and pieces <= eg_pieces:
            eg = endgame(white, black, kings, wmat, bmat, score)
            score += eg
        if detail:
            return signed_terms(MODEL_TERMS, (material, exchange, pst, kpst, mob, safe, bal, run,
                                              eg), white_to_move)
        return score if white_to_move else -score

    return linear


def build_tuned(variant: Variant) -> Callable[..., object]:
    """The tuned evaluation of ``variant`` (``Eval`` value ``full``): :func:`build_linear`
    with the variant's weights file and the king-ending knowledge, or the hand-set
    evaluation (:func:`.handset.build_handset`) when the variant has no weights file."""
    weights = load_weights(variant)
    if weights is None:
        return build_handset(variant)
    return build_linear(variant, weights, make_endgame(variant),
                        patterns=load_patterns(variant))


def fitted_weights(names: Sequence[str], values: Sequence[float]) -> Dict[str, int]:
    """Integer weights by name, zeros left out (what a weights file holds), from the fitted
    coefficients of :func:`features` (``exchange`` is a feature in thousandths of the lead
    over the material, its weight in whole ones)."""
    out = {}
    for name, value in zip(names, values):
        weight = int(round(value * (EXCHANGE_UNIT if name == "exchange" else 1)))
        if weight:
            out[name] = weight
    return out
