"""What the evaluations share: board tables, the king-ending knowledge, terms.

* :data:`MAN_VALUE`, :func:`div_towards_zero`;
* :class:`BoardTables` (:func:`board_tables`): the masks and per-square facts of one board
  size that the evaluations of the diagonal boards read (rows, centre, edges, the squares
  whose neighbour is off the board, each man's *cone*, ...), built once per size, at the
  first evaluator of that size;
* :func:`make_endgame`: the knowledge of king endings that the hand-set and the tuned
  evaluations add (not tuned);
* the terms of the traced shape (PyPy's, see :mod:`..runtime`), counted without a loop or a
  branch on the position, the shape PyPy's JIT compiles best: :func:`make_mobility_safety`
  counts the men's and kings' one-step moves and the men that cannot be jumped,
  :func:`make_runaways` the runaway men; :func:`signed_terms` turns the terms of an
  evaluation's ``detail`` to the side to move's view.

A man ``d`` rows from its promotion row (``1 <= d <= RUNAWAY_ROWS_MAX``) is a runaway when
the widening triangle of squares ahead of it up to the promotion row (its *cone*,
:meth:`BoardTables.cone`) is empty: nothing can stop it.  The hand-set and the tuned
evaluations give it a bonus by ``d``, halved (rounded down) when the other side has a king.

Their interpreted shape loops over the men near promotion and tests each one's cone mask.
:func:`make_runaways` counts them row by row instead: a square is *free* when each of its
forward neighbours on the board is empty and free itself (the cone of a square is its forward
neighbours and their cones), so the free squares of row ``d`` follow from those of row
``d - 1`` by two shifts, and the runaways of row ``d`` are the men on its free squares.
"""
from __future__ import annotations

from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple, Type

from ..bitboard import DOWN_LEFT, DOWN_RIGHT, UP_LEFT, UP_RIGHT, Geometry, geometry, popcount
from ..variants import Variant

__all__ = ["read_data_file", "MAN_VALUE", "div_towards_zero", "BoardTables", "board_tables",
           "make_endgame", "endgame_pieces", "make_runaways", "make_mobility_safety", "signed_terms",
           "RUNAWAY_ROWS_MAX"]

MAN_VALUE = 100
"""Value of a man in centi-men; a king's is the variant's ``king_value``."""


def read_data_file(path: str, error: Type[Exception], what: str) -> Optional[Any]:
    """The JSON value of a data file (the weights, the patterns), or None when there is no
    such file; ``error("cannot read <what> <path>: ...")`` when it cannot be read or parsed."""
    import json  # on first use, as the files are read: not a cost of every start-up

    try:
        with open(path, encoding="utf-8") as handle:
            return json.load(handle)
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as exc:
        raise error(f"cannot read {what} {path}: {exc}") from None


def div_towards_zero(x: int, num: int, den: int) -> int:
    """``x * num / den`` rounded towards zero (odd-symmetric, unlike ``//``)."""
    if x >= 0:
        return x * num // den
    return -((-x) * num // den)


# ---------------------------------------------------------------------------
# Board tables (built once per board size, when its first evaluator is).

class BoardTables:
    """Masks and per-square facts of one board size, from White's point of view and Black's.

    ``rows[r]`` (row 0 is Black's back row, where White promotes), ``edge`` (the side
    columns), ``centre`` / ``king_centre`` (the middle rows / a wider band, off the edges),
    ``off[d]`` (squares whose neighbour in direction ``d`` is off the board), ``off_a`` /
    ``off_b`` (the same for the up-left/down-right and up-right/down-left diagonals),
    ``main_diagonal``, ``white_back`` / ``black_back``, ``white_adv[j]`` / ``black_adv[j]``
    (squares whose rows advanced have bit ``j`` set), ``left`` / ``right`` (the two halves),
    ``rc`` (bit index -> (row, column)), ``start_pieces`` (both sides' men at the start).
    """

    def __init__(self, geo: Geometry) -> None:
        size, half = geo.size, geo.half
        self.geo = geo
        self.squares = geo.squares
        self.start_pieces = 2 * (size // 2 - 1) * (size // 2)
        rows = [geo.mask_of(range(r * half + 1, (r + 1) * half + 1)) for r in range(size)]
        self.rows = rows
        cols: Dict[int, List[int]] = {}
        self.left = 0
        for n in range(1, geo.squares + 1):
            r, c = geo.row_col(n)
            cols.setdefault(c, []).append(n)
            if c < size // 2:
                self.left |= geo.bit(n)
        self.right = geo.board ^ self.left
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
        self.off_a = self.off[UP_LEFT] | self.off[DOWN_RIGHT]
        self.off_b = self.off[UP_RIGHT] | self.off[DOWN_LEFT]
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

    def runaway_cones(self, rows: int) -> Tuple[Dict[int, Tuple[int, int]],
                                                Dict[int, Tuple[int, int]]]:
        """White's and Black's ``{bit: (cone, rows to go)}`` of the squares 1 to ``rows``
        rows from their promotion row, in the order of the squares."""
        geo = self.geo
        white: Dict[int, Tuple[int, int]] = {}
        black: Dict[int, Tuple[int, int]] = {}
        for n in range(1, geo.squares + 1):
            r = geo.row_col(n)[0]
            if 1 <= r <= rows:
                white[geo.bit(n)] = (self.cone(n, True), r)
            if 1 <= geo.size - 1 - r <= rows:
                black[geo.bit(n)] = (self.cone(n, False), geo.size - 1 - r)
        return white, black

    def turn(self, n: int) -> int:
        """The square ``n`` seen from the other side (the board turned by 180 degrees)."""
        return self.squares + 1 - n


_TABLES: Dict[int, BoardTables] = {}


def board_tables(size: int) -> BoardTables:
    """The (cached) tables of a board size."""
    tables = _TABLES.get(size)
    if tables is None:
        tables = _TABLES[size] = BoardTables(geometry(size))
    return tables


# ---------------------------------------------------------------------------
# King endings.

ENDGAME_APPROACH = 6
"""Per row or column between a strong king and the nearest weak piece."""
ENDGAME_CONFINE = 4
"""Per one-step move a lone weak king has."""
ENDGAME_MAIN_DIAGONAL = 60
"""Three flying kings against one: the strong side holds the main diagonal."""


def endgame_pieces(size: int) -> int:
    """At most this many pieces (with a king on the board): the king-ending knowledge counts."""
    return 7 if size >= 10 else 6


def make_endgame(variant: Variant) -> Callable[[int, int, int, int, int, int], int]:
    """``endgame(white, black, kings, wmat, bmat, score) -> int``: the adjustment of the
    knowledge of endings with kings (White's view), given both sides' material and the
    evaluation's score so far.

    Approach and confine a lone king; with flying kings, the main diagonal; the draws of
    too little material (two flying kings never beat a lone king, three only when it is
    off the main diagonal; English: two kings beat one).
    """
    t = board_tables(variant.size)
    pc = popcount
    flying = variant.flying_kings
    rc = t.rc
    main = t.main_diagonal
    board = t.geo.board
    half = t.geo.half
    half1 = half + 1
    APPROACH, CONFINE, DIAG = ENDGAME_APPROACH, ENDGAME_CONFINE, ENDGAME_MAIN_DIAGONAL
    min_kings_to_win = 3 if flying else 2
    _div = div_towards_zero

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
# Terms of the traced shape.

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
