"""Local patterns: the men on small groups of nearby squares, each group's contents scored by
a table (the tuned evaluation's ``patterns`` term).

A *location* is a group of nearby playable squares, in one of two shapes (:data:`SHAPES`):

``rows``
    ``2 * span`` squares of two neighbouring rows ``r`` and ``r + 1``: the ``span`` leftmost
    playable squares of each row (half ``0``) or the ``span`` rightmost (half ``1``).  Every
    pair of neighbouring rows has both halves, so a 10x10 board has 18 locations and an 8x8
    board 14; they overlap, and together they see every man with its neighbours on the rows
    above and below.
``blocks``
    the 8 playable squares of a block of 4 by 4 squares of the board (two of each of four
    rows), the blocks starting at every second row and every second column: 16 blocks on a
    10x10 board, 9 on an 8x8; they overlap by two rows or two columns and see every man
    with the diagonals it stands on, four rows deep.

The *state* of a location is its squares' contents read as a base-3 number, square ``k`` of
:attr:`Location.squares` the digit of ``3 ** k``: 0 empty or a king, 1 a white man, 2 a black
man (kings are the king table's business), so a location of ``n`` squares has ``3 ** n``
states: 729 for rows of span 3 (six squares), 6,561 for span 4 and for a block (eight).

A patterns file (``draughts_engine/data/patterns-<variant>.json``, fitted by
``tools/fit_patterns.py``) names its ``shape`` (``rows`` when it does not) and, for rows, its
``span`` (3 when it does not), and holds, for every location in the order of
:func:`locations`, the score of each state from White's side in centi-men, once for the
opening (``open``) and once for the ending (``end``); the evaluation tapers the two by the
number of pieces, as it does its piece-square table.  The file's tables are symmetric by
construction (a state and its colours-swapped, board-turned image score opposite), so that
the score of a position and of its mirror image are opposite.

The fast look-up: the squares of a location lie in one run of bits of the padded layout
(:mod:`..bitboard`), so a location's state is
``white_index[(men >> shift) & mask] + black_index[(men >> shift) & mask]`` with two tables
shared by the locations of the same form: two look-ups per pair of rows for the ``rows``
shape (both halves from one slice), two per block for ``blocks`` (its eight bits picked by
the mask from the slice of its four rows).  The file is read on the first evaluation of its variant, not at import.
"""
from __future__ import annotations

import os
from typing import Callable, Dict, List, Optional, Sequence, Tuple

from ..bitboard import geometry
from ..errors import DraughtsError
from ..variants import Variant
from .terms import board_tables, read_data_file

__all__ = ["Location", "locations", "images", "PatternTables", "PatternsError", "patterns_path",
           "load_patterns", "pattern_sums", "make_pattern_sum", "with_men_squares", "states",
           "spans", "DEFAULT_SPAN", "SHAPES", "ROWS", "BLOCKS", "BLOCK"]

DEFAULT_SPAN = 3
"""Squares per row of a ``rows`` location when a patterns file does not name its span."""

ROWS, BLOCKS = "rows", "blocks"
SHAPES = (ROWS, BLOCKS)
"""The shapes of locations (the module docstring); a file that names none is ``rows``."""

BLOCK = 4
"""Rows and columns of the board in one ``blocks`` location (its playable squares: 8)."""


def states(span: int = DEFAULT_SPAN) -> int:
    """States of one location of ``span`` squares per row (``3 ** (2 * span)``)."""
    return 3 ** (2 * span)


def spans(size: int) -> range:
    """The spans a board takes: from half its squares per row, rounded up (the two halves
    of a row must see every square between them), to one less than a whole row (which
    would make both halves one location)."""
    per_row = size // 2
    return range((per_row + 1) // 2, per_row)


DATA_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data")


class PatternsError(DraughtsError):
    """A patterns file that cannot be read or does not fit its board."""


class Location:
    """The ``squares`` of one location (in digit order) and where their bits are: ``shift``
    (the lowest bit of the slice read), ``offsets`` (each square's bit above ``shift``, in
    digit order) and ``width`` (the bits of the slice).  ``row``: its top row.

    By default the slice is the squares' own run of bits; a ``rows`` location reads the whole
    of its two rows (``shift`` and ``width`` given), so that both halves share one slice."""

    def __init__(self, size: int, squares: Sequence[int], shift: Optional[int] = None,
                 width: Optional[int] = None) -> None:
        geo = geometry(size)
        bits = [geo.bit(n).bit_length() - 1 for n in squares]
        self.size = size
        self.squares: Tuple[int, ...] = tuple(squares)
        self.row = min(geo.row_col(n)[0] for n in squares)
        self.shift = min(bits) if shift is None else shift
        self.offsets: Tuple[int, ...] = tuple(bit - self.shift for bit in bits)
        self.width = max(self.offsets) + 1 if width is None else width

    def state(self, white_men: int, black_men: int) -> int:
        """The state of this location (plainly, bit by bit: the reference)."""
        index = 0
        for k, offset in enumerate(self.offsets):
            bit = 1 << (self.shift + offset)
            index += 3 ** k * (1 if white_men & bit else 2 if black_men & bit else 0)
        return index


def _row_location(size: int, row: int, half: int, span: int) -> Location:
    """The ``rows`` location of rows ``row`` and ``row + 1``, ``half`` 0 (the left ``span``
    squares of each) or 1 (the right), read from the slice of both rows."""
    geo = geometry(size)
    per_row = size // 2
    picks = range(span) if half == 0 else range(per_row - span, per_row)
    squares = ([row * per_row + i + 1 for i in picks]
               + [(row + 1) * per_row + i + 1 for i in picks])
    shift = geo.bit(row * per_row + 1).bit_length() - 1
    return Location(size, squares, shift, geo.bit((row + 2) * per_row).bit_length() - shift)


def _block_location(size: int, top: int, left: int) -> Location:
    """The ``blocks`` location of rows ``top .. top + 3`` and columns ``left .. left + 3``
    (its playable squares row by row, left to right)."""
    geo = geometry(size)
    found = sorted((geo.row_col(n), n) for n in range(1, size * size // 2 + 1)
                   if top <= geo.row_col(n)[0] < top + BLOCK
                   and left <= geo.row_col(n)[1] < left + BLOCK)
    return Location(size, [n for _, n in found])


def locations(size: int, span: int = DEFAULT_SPAN, shape: str = ROWS) -> List[Location]:
    """Every location of the board in ``shape`` (``span``: for ``rows``), top rows first:
    half 0 before half 1, or blocks left to right."""
    if shape == BLOCKS:
        corners = range(0, size - BLOCK + 1, 2)
        return [_block_location(size, top, left) for top in corners for left in corners]
    return [_row_location(size, row, half, span) for row in range(size - 1) for half in (0, 1)]


def images(size: int, span: int = DEFAULT_SPAN, shape: str = ROWS
           ) -> List[List[Tuple[int, int]]]:
    """``images(size, span, shape)[i][state]``: the location and state of the same men seen
    from the other side (colours swapped, the board turned by 180 degrees)."""
    turn = board_tables(size).turn
    locs = locations(size, span, shape)
    by_squares = {frozenset(loc.squares): j for j, loc in enumerate(locs)}
    out = []
    for loc in locs:
        turned = [turn(n) for n in loc.squares]
        j = by_squares[frozenset(turned)]
        powers = [3 ** locs[j].squares.index(n) for n in turned]
        row = []
        for state in range(3 ** len(loc.squares)):
            image, rest = 0, state
            for power in powers:
                image += (0, 2, 1)[rest % 3] * power
                rest //= 3
            row.append((j, image))
        out.append(row)
    return out


def patterns_path(variant: Variant) -> str:
    """The patterns file of ``variant`` (it may not exist)."""
    return os.path.join(DATA_DIR, f"patterns-{variant.name}.json")


class PatternTables:
    """The fitted scores: ``opening[i][state]`` and ``ending[i][state]`` for location ``i``
    of :func:`locations` of ``span`` and ``shape`` (White's side, centi-men), whichever side
    is to move."""

    def __init__(self, size: int, opening: Sequence[Sequence[int]],
                 ending: Sequence[Sequence[int]], span: int = DEFAULT_SPAN,
                 shape: str = ROWS) -> None:
        self.size, self.span, self.shape = size, span, shape
        self.locations = locations(size, span, shape)
        self.opening = [list(table) for table in opening]
        self.ending = [list(table) for table in ending]


def load_patterns(variant: Variant, path: Optional[str] = None) -> Optional[PatternTables]:
    """The pattern tables of ``variant``, or None when it has no file.

    Raises :class:`PatternsError` for a file that cannot be read, is not JSON, is for
    another board, names a shape not in :data:`SHAPES`, names a span the board does not take
    (:func:`spans`) or a span with the ``blocks`` shape, whose tables are not one list of
    ``3 ** n`` integers per location of ``n`` squares, or that says its tables are per side
    to move (``"side_to_move": true``: not read any more).
    """
    path = path or patterns_path(variant)
    data = read_data_file(path, PatternsError, "patterns")
    if data is None:
        return None
    if not isinstance(data, dict) or data.get("board") != variant.size:
        raise PatternsError(f"{path}: patterns for board "
                            f"{data.get('board') if isinstance(data, dict) else None!r}, "
                            f"not {variant.size}")
    shape = data.get("shape", ROWS)
    if shape not in SHAPES:
        raise PatternsError(f"{path}: shape {shape!r} is not one of {', '.join(SHAPES)}")
    span = data.get("span", DEFAULT_SPAN)
    if shape == BLOCKS and "span" in data:
        raise PatternsError(f"{path}: a span is for the {ROWS} shape, not {BLOCKS}")
    if type(span) is not int or span not in spans(variant.size):
        raise PatternsError(f"{path}: span {span!r} is not one of "
                            f"{', '.join(map(str, spans(variant.size)))} (squares per row)")
    locs = locations(variant.size, span, shape)
    count, width = len(locs), 3 ** len(locs[0].squares)
    tables = []
    for key in ("open", "end"):
        value = data.get(key)
        if (not isinstance(value, list) or len(value) != count
                or any(not isinstance(t, list) or len(t) != width for t in value)
                or any(type(x) is not int for t in value for x in t)):
            raise PatternsError(f"{path}: {key!r} is not {count} lists of {width} integers")
        tables.append(value)
    if data.get("side_to_move"):
        raise PatternsError(f"{path}: tables per side to move (an older fit_patterns option) "
                            "are not read: fit one table for both")
    return PatternTables(variant.size, tables[0], tables[1], span, shape)


def pattern_sums(tables: PatternTables, white_men: int, black_men: int) -> Tuple[int, int]:
    """The opening and ending sums over every location (the plain reference)."""
    opening = ending = 0
    for i, location in enumerate(tables.locations):
        state = location.state(white_men, black_men)
        opening += tables.opening[i][state]
        ending += tables.ending[i][state]
    return opening, ending


def with_men_squares(tables: PatternTables, white: Dict[int, Tuple[int, int]],
                     black: Dict[int, Tuple[int, int]]) -> PatternTables:
    """``tables`` that also hold a piece-square table of the men: ``white[n]`` (opening,
    ending) for a white man on square ``n``, ``black[n]`` for a black one, each square added
    to the states of exactly one location (the first that holds it: the sums are the same
    whichever it is).

    The evaluation then reads both in the same look-ups."""
    opening: List[List[int]] = []
    ending: List[List[int]] = []
    placed = set()
    no_man = (0, 0)
    for i, location in enumerate(tables.locations):
        for phase, out, old in ((0, opening, tables.opening[i]), (1, ending, tables.ending[i])):
            added = [0]  # by state: what the squares placed here add, built digit by digit
            for n in location.squares:
                values = (0, 0, 0) if n in placed else (
                    0, white.get(n, no_man)[phase], black.get(n, no_man)[phase])
                added = [x + v for v in values for x in added]
            out.append([x + a for x, a in zip(old, added)])
        placed.update(location.squares)
    return PatternTables(tables.size, opening, ending, tables.span, tables.shape)


def _index_table(location: Location, digit: int, mask: int) -> List[int]:
    """``table[x]``: ``digit`` times the base-3 value of the location's squares set in the
    slice ``x``, for every ``x`` made of bits of ``mask`` (the only ones read when the slice
    is masked by it; the other entries stay 0)."""
    value = [0] * location.width
    for k, offset in enumerate(location.offsets):
        value[offset] = digit * 3 ** k
    table = [0] * (1 << location.width)
    x = (-mask) & mask  # the subsets of mask in increasing order: x ^ low comes before x
    while x:
        low = x & -x
        table[x] = table[x ^ low] + value[low.bit_length() - 1]
        x = (x - mask) & mask
    return table


def make_pattern_sum(tables: PatternTables, pack: int) -> Callable[[int, int], int]:
    """``f(white_men, black_men)``: the opening sum plus ``pack`` times the ending sum (the
    packing of the tuned evaluation's piece-square sum), by table look-ups."""
    opening, ending = tables.opening, tables.ending
    shared: Dict[Tuple[int, ...], Tuple[List[int], List[int]]] = {}

    def index_tables(location: Location, mask: int) -> Tuple[List[int], List[int]]:
        key = location.offsets + (location.width, mask)
        if key not in shared:
            shared[key] = (_index_table(location, 1, mask), _index_table(location, 2, mask))
        return shared[key]

    def packed(j: int) -> List[int]:
        return [o + e * pack for o, e in zip(opening[j], ending[j])]

    if tables.shape == BLOCKS:  # one slice per block, masked by its own bits
        by_form: Dict[Tuple[int, ...], List[Tuple[int, List[int]]]] = {}
        first: Dict[Tuple[int, ...], Location] = {}
        for j, location in enumerate(tables.locations):
            key = location.offsets + (location.width,)
            first.setdefault(key, location)
            by_form.setdefault(key, []).append((location.shift, packed(j)))
        forms = []  # per form of block: its mask, index tables and (shift, table) per block
        for key, blocks in by_form.items():
            mask = sum(1 << offset for offset in first[key].offsets)
            forms.append((mask, *index_tables(first[key], mask), tuple(blocks)))
        forms_t = tuple(forms)

        def block_sum(white_men: int, black_men: int) -> int:
            total = 0
            for mask, wi, bi, blocks in forms_t:
                for shift, table in blocks:
                    total += table[wi[(white_men >> shift) & mask]
                                   + bi[(black_men >> shift) & mask]]
            return total

        return block_sum

    rows = []  # one per pair of rows: its bits, then half 0's and half 1's tables
    for top in range(0, len(tables.locations), 2):  # (locations: two halves per row)
        mask = (1 << tables.locations[top].width) - 1  # both rows, both halves
        row: List[object] = [tables.locations[top].shift, mask]
        for j in (top, top + 1):
            row += [*index_tables(tables.locations[j], mask), packed(j)]
        rows.append(tuple(row))
    rows_t = tuple(rows)

    def pattern_sum(white_men: int, black_men: int) -> int:
        total = 0
        for shift, mask, wl, bl, tl, wr, br, tr in rows_t:
            x = (white_men >> shift) & mask
            y = (black_men >> shift) & mask
            total += tl[wl[x] + bl[y]] + tr[wr[x] + br[y]]
        return total

    return pattern_sum
