"""Square <-> bit layout for 8x8, 10x10 and 12x12 boards.

The playable squares are stored in a padded ("ghost square") layout: row ``r``
(0 = top of the diagram) square ``i`` (0-based from the left) lives at bit
``r * H + i + r // 2`` where ``H`` is the number of playable squares per row.
One unused bit follows every odd row, so each diagonal step is a shift by a
fixed amount and a step off the board lands on a ghost bit or outside the
board mask:

* down-left ``+H``, down-right ``+(H + 1)``, up-right ``-H``, up-left ``-(H + 1)``.

For 8x8 this is the classic 35-bit layout with ghosts at bits 8, 17 and 26;
for 10x10 the 54-bit layout with ghosts at 10, 21, 32 and 43; 12x12 takes
78 bits (Python ints have no width limit).

Bitboards are plain ints.  Squares at the API are PDN numbers (1-based).  The
bits are the same for every *layout* of a board size; a layout only says how
the squares are numbered and where they stand in a diagram (see
:data:`LAYOUTS`): Italian, Spanish and Portuguese players turn the board so
that the playing square is in the bottom-right corner, and Spanish and
Portuguese players count from White's side.  The move generator never sees
the layout; the square numbers and coordinates at the API follow it.
"""
from __future__ import annotations

from typing import Dict, Iterable, Iterator, List, Protocol, Sequence, Tuple, runtime_checkable

from .runtime import TRACED

__all__ = ["Geometry", "GeometryProtocol", "BitLayout", "geometry", "popcount", "popcount_bin",
           "popcount_swar", "iter_bits",
           "Bitboard", "LAYOUTS",
           "STANDARD", "TURNED", "TURNED_FROM_WHITE", "SIZES",
           "UP_LEFT", "UP_RIGHT", "DOWN_LEFT", "DOWN_RIGHT", "DIRECTIONS", "REVERSE"]

Bitboard = int

# Direction indices.  "Up" is towards square 1 (White's promotion row).
UP_LEFT, UP_RIGHT, DOWN_LEFT, DOWN_RIGHT = 0, 1, 2, 3
DIRECTIONS = (UP_LEFT, UP_RIGHT, DOWN_LEFT, DOWN_RIGHT)
REVERSE = (DOWN_RIGHT, DOWN_LEFT, UP_RIGHT, UP_LEFT)

#: Board sizes with a geometry.
SIZES = (8, 10, 12)

STANDARD = "standard"
"""The PDN layout: the top row's playing squares are b, d, f, ... (a1 is a
playing square); squares numbered row by row from the top, left to right."""
TURNED = "turned"
"""The board turned a quarter (Italian): a8 and h1 are playing squares, a1 is
not; numbered like :data:`STANDARD`, from the top left (a8 = 1, h1 = 32)."""
TURNED_FROM_WHITE = "turned-from-white"
"""The turned board numbered from White's side (Spanish, Portuguese): h1 = 1,
counting right to left and bottom to top, so a8 = 32 and White starts on 1-12."""
LAYOUTS = (STANDARD, TURNED, TURNED_FROM_WHITE)


def popcount_bin(x: int) -> int:
    """Number of set bits of a non-negative int (CPython before 3.10: one C-level count)."""
    return bin(x).count("1")


def popcount_swar(x: int) -> int:
    """Number of set bits of a non-negative int.

    Below ``2**63`` (every board up to 10x10) the bits are added in parallel
    within the word (pairs, nibbles, bytes, then the bytes): plain machine-word
    arithmetic that PyPy's JIT compiles to a dozen instructions, where
    ``bin(x).count("1")`` builds a string.  Larger boards (12x12) count by
    :func:`popcount_bin`.
    """
    if x >> 63:
        return bin(x).count("1")
    x -= (x >> 1) & 0x5555555555555555
    x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
    x += x >> 8
    x += x >> 16
    x += x >> 32
    return x & 0x7F


#: ``popcount(x)``: the number of set bits of a bitboard, chosen once per interpreter:
#: ``int.bit_count`` on CPython 3.10+, :func:`popcount_bin` on CPython 3.9,
#: :func:`popcount_swar` in the traced shape, PyPy's (:data:`.runtime.TRACED`).
if TRACED:
    popcount = popcount_swar
else:
    popcount = getattr(int, "bit_count", popcount_bin)


def iter_bits(bb: Bitboard) -> Iterator[int]:
    """Yield the single-bit masks of ``bb`` from the lowest bit up."""
    while bb:
        low = bb & -bb
        yield low
        bb ^= low


@runtime_checkable
class GeometryProtocol(Protocol):
    """What the engine asks of a board, whichever its squares: :class:`Geometry` (the dark
    squares of 8x8, 10x10, 12x12) and :class:`~.fullboard.FullGeometry` (every square).

    Squares are numbers from 1; ``neighbour[d][i]`` / ``ray[d][i]`` are indexed by the
    board's own directions (diagonal or orthogonal).
    """

    size: int
    half: int
    squares: int
    board: Bitboard
    top_row: Bitboard
    bottom_row: Bitboard
    bit_count_total: int
    square_bit_index: Tuple[int, ...]
    square_of_index: List[int]
    shifts: Tuple[int, ...]
    neighbour: Tuple[Tuple[int, ...], ...]
    ray: Tuple[Tuple[Tuple[int, ...], ...], ...]

    def bit(self, square: int) -> Bitboard: ...

    def square_of_bit(self, bit: Bitboard) -> int: ...

    def mask_of(self, squares: Iterable[int]) -> Bitboard: ...

    def squares_of(self, bb: Bitboard) -> List[int]: ...

    def row_col(self, square: int) -> Tuple[int, int]: ...

    def square_at(self, row: int, col: int) -> int: ...

    def algebraic(self, square: int) -> str: ...

    def square_from_algebraic(self, name: str) -> int: ...


class BitLayout:
    """Squares on the bits of an int: the tables and conversions every board shares.

    A subclass says where each square's bit is (``square_bit_index``), how far a
    step in each direction shifts (``shifts``) and where a square stands in the
    diagram (``row_col``, ``square_at``); the rest is built here: the board mask,
    the bit -> square table, ``neighbour`` and ``ray`` per direction, and the
    algebraic names of boards up to 8x8.
    """

    size: int
    squares: int

    def _lay_out(self, square_bit_index: Sequence[int], shifts: Sequence[int]) -> None:
        """Build the tables from each square's bit index and each direction's shift."""
        self.square_bit_index: Tuple[int, ...] = tuple(square_bit_index)
        self.bit_count_total = max(self.square_bit_index) + 1
        #: PDN square number of a bit index (0 for ghost bits).
        self.square_of_index: List[int] = [0] * self.bit_count_total
        self.board: Bitboard = 0
        for n, idx in enumerate(self.square_bit_index, 1):
            self.square_of_index[idx] = n
            self.board |= 1 << idx
        self.shifts: Tuple[int, ...] = tuple(shifts)  # by direction index
        bits = range(self.bit_count_total)
        # neighbour[d][i]: bit index one step from bit index i in direction d, or -1.
        self.neighbour: Tuple[Tuple[int, ...], ...] = tuple(
            tuple(self._step(i, s) for i in bits) for s in self.shifts)
        # ray[d][i]: bit indices along direction d from i, nearest first.
        rays = []
        for near in self.neighbour:
            per_square = []
            for i in bits:
                ray = []
                j = near[i]
                while j >= 0:
                    ray.append(j)
                    j = near[j]
                per_square.append(tuple(ray))
            rays.append(tuple(per_square))
        self.ray: Tuple[Tuple[Tuple[int, ...], ...], ...] = tuple(rays)
        self._names: Dict[int, str] = {}
        self._by_name: Dict[str, int] = {}
        if self.size <= 8:
            for n in range(1, self.squares + 1):
                row, col = self.row_col(n)
                name = "abcdefgh"[col] + str(self.size - row)
                self._names[n] = name
                self._by_name[name] = n

    def _step(self, index: int, shift: int) -> int:
        if not (self.board >> index) & 1:
            return -1
        j = index + shift
        if 0 <= j < self.bit_count_total and (self.board >> j) & 1:
            return j
        return -1

    def row_col(self, square: int) -> Tuple[int, int]:
        raise NotImplementedError

    def bit(self, square: int) -> Bitboard:
        """The one-bit mask of square ``square`` (1-based)."""
        return 1 << self.square_bit_index[square - 1]

    def square_of_bit(self, bit: Bitboard) -> int:
        """Square number of a one-bit mask."""
        return self.square_of_index[bit.bit_length() - 1]

    def mask_of(self, squares: Iterable[int]) -> Bitboard:
        """Bitboard of an iterable of square numbers."""
        mask = 0
        for n in squares:
            mask |= 1 << self.square_bit_index[n - 1]
        return mask

    def squares_of(self, bb: Bitboard) -> List[int]:
        """Square numbers set in ``bb``, ascending."""
        names = self.square_of_index
        return sorted(names[b.bit_length() - 1] for b in iter_bits(bb))

    def algebraic(self, square: int) -> str:
        """Algebraic name (``a1``..``h8``) of a square of a board up to 8x8; White's side
        is rank 1."""
        return self._names[square]

    def square_from_algebraic(self, name: str) -> int:
        """Square number of an algebraic square name, or 0 if it is not a playable square."""
        return self._by_name.get(name.lower(), 0)


class Geometry(BitLayout):
    """Everything about a board size that does not depend on the rules.

    Attributes are read-only by convention and shared by all positions of a
    board size (obtain instances through :func:`geometry`).
    """

    def __init__(self, size: int, layout: str = STANDARD) -> None:
        if size not in SIZES:
            raise ValueError(f"unsupported board size {size}")
        if layout not in LAYOUTS:
            raise ValueError(f"unknown board layout {layout!r}")
        half = size // 2
        self.size = size
        self.half = half
        self.layout = layout
        self.squares = size * half
        # The bits always hold the STANDARD numbering's squares ("internal"
        # squares); ``internal[n - 1]`` is the internal square of square n.
        internal = list(range(1, self.squares + 1))
        if layout != STANDARD:
            # Turned: the diagram is the standard one mirrored left to right.
            internal = [(n - 1) // half * half + half - (n - 1) % half for n in internal]
            if layout == TURNED_FROM_WHITE:
                internal.reverse()
        self.internal: Tuple[int, ...] = tuple(internal)
        self._square_of_internal: Dict[int, int] = {m: n for n, m in enumerate(self.internal, 1)}
        index_of = self._internal_index
        self._lay_out([index_of(m) for m in self.internal], (-(half + 1), -half, half, half + 1))
        self.top_row: Bitboard = sum(1 << index_of(m) for m in range(1, half + 1))  # White promotes here
        self.bottom_row: Bitboard = sum(1 << index_of(m) for m in
                                        range(self.squares - half + 1, self.squares + 1))

    def _internal_index(self, internal_square: int) -> int:
        half = self.half
        return (internal_square - 1) + ((internal_square - 1) // half) // 2

    def row_col(self, square: int) -> Tuple[int, int]:
        """(row, column) of a PDN square in the diagram; row 0 is the top (Black's side)."""
        row, i = divmod(self.internal[square - 1] - 1, self.half)
        col = 2 * i + (1 if row % 2 == 0 else 0)
        if self.layout != STANDARD:
            col = self.size - 1 - col
        return row, col

    def square_at(self, row: int, col: int) -> int:
        """PDN square at (row, col) of the diagram, or 0 for a light square or off the board."""
        if not (0 <= row < self.size and 0 <= col < self.size):
            return 0
        if self.layout != STANDARD:
            col = self.size - 1 - col
        if (row + col) % 2 == 0:
            return 0
        internal = row * self.half + col // 2 + 1
        return self._square_of_internal[internal]


_GEOMETRIES: Dict[Tuple[int, str], Geometry] = {(8, STANDARD): Geometry(8),
                                                 (10, STANDARD): Geometry(10)}


def geometry(size: int, layout: str = STANDARD) -> Geometry:
    """The shared :class:`Geometry` of a board size (8, 10, 12) and layout (:data:`LAYOUTS`)."""
    geo = _GEOMETRIES.get((size, layout))
    if geo is None:
        geo = Geometry(size, layout)  # raises ValueError for a bad size or layout
        _GEOMETRIES[(size, layout)] = geo
    return geo
