"""Square <-> bit layout of boards where every square is playable (Turkish draughts).

The counterpart of :mod:`.bitboard` for a board whose 64 squares are all
used and whose pieces move along rows and columns.  Row ``r`` (0 = top of the
diagram, Black's side) column ``c`` lives at bit ``r * (size + 1) + c``: one
unused ("ghost") bit closes every row, so each orthogonal step is a shift by
a fixed amount and a step off the board lands on a ghost bit or outside the
board mask:

* up ``-(size + 1)``, down ``+(size + 1)``, left ``-1``, right ``+1``.

Squares are numbered 1..size*size row by row from the top left (``a8`` = 1,
``h8`` = 8, ``a1`` = 57, ``h1`` = 64 on 8x8); White starts at the bottom and
moves up, towards square 1.  :class:`FullGeometry` answers the same questions
as :class:`~.bitboard.Geometry` (its ``neighbour``/``ray`` tables are indexed
by the orthogonal directions below instead of the diagonal ones).

>>> geo = full_geometry(8)
>>> geo.squares, geo.algebraic(1), geo.algebraic(64), geo.square_from_algebraic("e3")
(64, 'a8', 'h1', 45)
"""
from __future__ import annotations

from typing import Dict, List, Tuple

from .bitboard import Bitboard, Geometry, geometry, iter_bits

__all__ = ["FullGeometry", "full_geometry", "geometry_of", "UP", "DOWN", "LEFT", "RIGHT",
           "ORTHOGONAL", "ORTHOGONAL_REVERSE"]

# Orthogonal direction indices; "up" is towards square 1 (White's promotion row).
UP, DOWN, LEFT, RIGHT = 0, 1, 2, 3
ORTHOGONAL = (UP, DOWN, LEFT, RIGHT)
ORTHOGONAL_REVERSE = (DOWN, UP, RIGHT, LEFT)


class FullGeometry:
    """Everything about an all-squares board that does not depend on the rules.

    Read-only by convention and shared (obtain instances through :func:`full_geometry`).
    """

    all_squares = True

    def __init__(self, size: int) -> None:
        if size != 8:
            raise ValueError(f"unsupported all-squares board size {size}")
        self.size = size
        self.half = size  # playable squares per row
        self.squares = size * size
        self.stride = size + 1
        self.square_bit_index: Tuple[int, ...] = tuple(
            ((n - 1) // size) * self.stride + (n - 1) % size for n in range(1, self.squares + 1))
        self.bit_count_total = self.square_bit_index[-1] + 1
        #: PDN square number of a bit index (0 for ghost bits).
        self.square_of_index: List[int] = [0] * self.bit_count_total
        for n, idx in enumerate(self.square_bit_index, 1):
            self.square_of_index[idx] = n
        self.board: Bitboard = 0
        for idx in self.square_bit_index:
            self.board |= 1 << idx
        self.shifts = (-self.stride, self.stride, -1, 1)  # by direction index
        self.top_row: Bitboard = self.mask_of(range(1, size + 1))             # White promotes here
        self.bottom_row: Bitboard = self.mask_of(range(self.squares - size + 1, self.squares + 1))
        self.neighbour: Tuple[Tuple[int, ...], ...] = tuple(
            tuple(self._step(i, d) for i in range(self.bit_count_total)) for d in ORTHOGONAL)
        rays = []
        for d in ORTHOGONAL:
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
        """The one-bit mask of square ``square`` (1-based)."""
        return 1 << self.square_bit_index[square - 1]

    def square_of_bit(self, bit: Bitboard) -> int:
        """Square number of a one-bit mask."""
        return self.square_of_index[bit.bit_length() - 1]

    def mask_of(self, squares) -> Bitboard:
        """Bitboard of an iterable of square numbers."""
        mask = 0
        for n in squares:
            mask |= 1 << self.square_bit_index[n - 1]
        return mask

    def squares_of(self, bb: Bitboard) -> List[int]:
        """Square numbers set in ``bb``, ascending."""
        names = self.square_of_index
        return sorted(names[b.bit_length() - 1] for b in iter_bits(bb))

    def row_col(self, square: int) -> Tuple[int, int]:
        """(row, column) of a square; row 0 is the top of the diagram."""
        return divmod(square - 1, self.size)

    def square_at(self, row: int, col: int) -> int:
        """Square at (row, col), or 0 off the board."""
        if not (0 <= row < self.size and 0 <= col < self.size):
            return 0
        return row * self.size + col + 1

    def algebraic(self, square: int) -> str:
        """Algebraic name (``a1``..``h8``); White's side is rank 1."""
        return self._names[square]

    def square_from_algebraic(self, name: str) -> int:
        """Square number of an algebraic name, or 0 if it is not a square."""
        return self._by_name.get(name.lower(), 0)


_FULL = {8: FullGeometry(8)}


def full_geometry(size: int) -> FullGeometry:
    """The shared :class:`FullGeometry` of an all-squares board."""
    try:
        return _FULL[size]
    except KeyError:
        raise ValueError(f"unsupported all-squares board size {size}") from None


def geometry_of(variant) -> Geometry:
    """The board geometry of a variant: :func:`~.bitboard.geometry` of its size, or, for a
    variant whose every square is playable (``variant.all_squares``), its
    :class:`FullGeometry` (the same interface, orthogonal directions)."""
    if getattr(variant, "all_squares", False):
        return full_geometry(variant.size)  # type: ignore[return-value]
    return geometry(variant.size)
