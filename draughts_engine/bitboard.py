"""Square <-> bit layout for 8x8 and 10x10 boards.

The playable squares are stored in a padded ("ghost square") layout: row ``r``
(0 = top of the diagram) square ``i`` (0-based from the left) lives at bit
``r * H + i + r // 2`` where ``H`` is the number of playable squares per row.
One unused bit follows every odd row, so each diagonal step is a shift by a
fixed amount and a step off the board lands on a ghost bit or outside the
board mask:

* down-left ``+H``, down-right ``+(H + 1)``, up-right ``-H``, up-left ``-(H + 1)``.

For 8x8 this is the classic 35-bit layout with ghosts at bits 8, 17 and 26;
for 10x10 the 54-bit layout with ghosts at 10, 21, 32 and 43.

Bitboards are plain ints.  Squares at the API are PDN numbers (1-based).
"""
from __future__ import annotations

from typing import Dict, Iterator, List, Tuple

__all__ = ["Geometry", "geometry", "popcount", "iter_bits", "Bitboard",
           "UP_LEFT", "UP_RIGHT", "DOWN_LEFT", "DOWN_RIGHT", "DIRECTIONS", "REVERSE"]

Bitboard = int

# Direction indices.  "Up" is towards square 1 (White's promotion row).
UP_LEFT, UP_RIGHT, DOWN_LEFT, DOWN_RIGHT = 0, 1, 2, 3
DIRECTIONS = (UP_LEFT, UP_RIGHT, DOWN_LEFT, DOWN_RIGHT)
REVERSE = (DOWN_RIGHT, DOWN_LEFT, UP_RIGHT, UP_LEFT)

try:
    popcount = int.bit_count  # Python 3.10+
except AttributeError:  # pragma: no cover - Python 3.9 / PyPy 3.9
    def popcount(x: int) -> int:
        """Number of set bits of a non-negative int."""
        return bin(x).count("1")


def iter_bits(bb: Bitboard) -> Iterator[int]:
    """Yield the single-bit masks of ``bb`` from the lowest bit up."""
    while bb:
        low = bb & -bb
        yield low
        bb ^= low


class Geometry:
    """Everything about a board size that does not depend on the rules.

    Attributes are read-only by convention and shared by all positions of a
    board size (obtain instances through :func:`geometry`).
    """

    def __init__(self, size: int) -> None:
        if size not in (8, 10):
            raise ValueError(f"unsupported board size {size}")
        half = size // 2
        self.size = size
        self.half = half
        self.squares = size * half
        self.square_bit_index: Tuple[int, ...] = tuple(
            (n - 1) + ((n - 1) // half) // 2 for n in range(1, self.squares + 1))
        self.bit_count_total = self.square_bit_index[-1] + 1
        #: PDN square number of a bit index (0 for ghost bits).
        self.square_of_index: List[int] = [0] * self.bit_count_total
        for n, idx in enumerate(self.square_bit_index, 1):
            self.square_of_index[idx] = n
        self.board: Bitboard = 0
        for idx in self.square_bit_index:
            self.board |= 1 << idx
        self.shifts = (-(half + 1), -half, half, half + 1)  # by direction index
        self.top_row: Bitboard = self.mask_of(range(1, half + 1))            # White promotes here
        self.bottom_row: Bitboard = self.mask_of(range(self.squares - half + 1, self.squares + 1))
        # neighbour[d][i]: bit index one step from bit index i in direction d, or -1.
        self.neighbour: Tuple[Tuple[int, ...], ...] = tuple(
            tuple(self._step(i, d) for i in range(self.bit_count_total)) for d in DIRECTIONS)
        # ray[d][i]: bit indices along direction d from i, nearest first.
        rays = []
        for d in DIRECTIONS:
            per_square = []
            for i in range(self.bit_count_total):
                ray = []
                j = self._step(i, d)
                while j >= 0:
                    ray.append(j)
                    j = self._step(j, d)
                per_square.append(tuple(ray))
            rays.append(tuple(per_square))
        self.ray: Tuple[Tuple[Tuple[int, ...], ...], ...] = tuple(rays)
        self._names: Dict[int, str] = {}
        self._by_name: Dict[str, int] = {}
        if size == 8:
            for n in range(1, self.squares + 1):
                row, col = self.row_col(n)
                name = "abcdefgh"[col] + str(size - row)
                self._names[n] = name
                self._by_name[name] = n

    def _step(self, index: int, direction: int) -> int:
        if index < 0 or not (self.board >> index) & 1:
            return -1
        j = index + self.shifts[direction]
        if 0 <= j < self.bit_count_total and (self.board >> j) & 1:
            return j
        return -1

    def bit(self, square: int) -> Bitboard:
        """The one-bit mask of PDN square ``square`` (1-based)."""
        return 1 << self.square_bit_index[square - 1]

    def square_of_bit(self, bit: Bitboard) -> int:
        """PDN square number of a one-bit mask."""
        return self.square_of_index[bit.bit_length() - 1]

    def mask_of(self, squares) -> Bitboard:
        """Bitboard of an iterable of PDN square numbers."""
        mask = 0
        for n in squares:
            mask |= 1 << self.square_bit_index[n - 1]
        return mask

    def squares_of(self, bb: Bitboard) -> List[int]:
        """PDN square numbers set in ``bb``, ascending."""
        names = self.square_of_index
        return sorted(names[b.bit_length() - 1] for b in iter_bits(bb))

    def row_col(self, square: int) -> Tuple[int, int]:
        """(row, column) of a PDN square; row 0 is the top of the diagram."""
        row, i = divmod(square - 1, self.half)
        return row, 2 * i + (1 if row % 2 == 0 else 0)

    def square_at(self, row: int, col: int) -> int:
        """PDN square at (row, col), or 0 for a light square or off the board."""
        if not (0 <= row < self.size and 0 <= col < self.size) or (row + col) % 2 == 0:
            return 0
        return row * self.half + col // 2 + 1

    def algebraic(self, square: int) -> str:
        """Algebraic name (``a1``..``h8``) of an 8x8 square; White's side is rank 1."""
        return self._names[square]

    def square_from_algebraic(self, name: str) -> int:
        """PDN number of an algebraic square name, or 0 if it is not a playable square."""
        return self._by_name.get(name.lower(), 0)


_GEOMETRIES = {8: Geometry(8), 10: Geometry(10)}


def geometry(size: int) -> Geometry:
    """The shared :class:`Geometry` of an 8x8 or 10x10 board."""
    try:
        return _GEOMETRIES[size]
    except KeyError:
        raise ValueError(f"unsupported board size {size}") from None
