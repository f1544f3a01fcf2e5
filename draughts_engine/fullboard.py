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
as :class:`~.bitboard.Geometry` (:class:`~.bitboard.GeometryProtocol`), with the
same code (:class:`~.bitboard.BitLayout`); its ``neighbour``/``ray`` tables are
indexed by the orthogonal directions below instead of the diagonal ones.

>>> geo = full_geometry(8)
>>> geo.squares, geo.algebraic(1), geo.algebraic(64), geo.square_from_algebraic("e3")
(64, 'a8', 'h1', 45)
"""
from __future__ import annotations

from typing import Tuple

from .bitboard import STANDARD, BitLayout, GeometryProtocol, geometry

__all__ = ["FullGeometry", "full_geometry", "geometry_of", "UP", "DOWN", "LEFT", "RIGHT",
           "ORTHOGONAL", "ORTHOGONAL_REVERSE"]

# Orthogonal direction indices; "up" is towards square 1 (White's promotion row).
UP, DOWN, LEFT, RIGHT = 0, 1, 2, 3
ORTHOGONAL = (UP, DOWN, LEFT, RIGHT)
ORTHOGONAL_REVERSE = (DOWN, UP, RIGHT, LEFT)


class FullGeometry(BitLayout):
    """Everything about an all-squares board that does not depend on the rules.

    Read-only by convention and shared (obtain instances through :func:`full_geometry`).
    The tables and conversions are :class:`~.bitboard.BitLayout`'s, as for the dark squares.
    """

    all_squares = True

    def __init__(self, size: int) -> None:
        if size != 8:
            raise ValueError(f"unsupported all-squares board size {size}")
        self.size = size
        self.half = size  # playable squares per row
        self.squares = size * size
        self.stride = size + 1
        self._lay_out([(n - 1) // size * self.stride + (n - 1) % size
                       for n in range(1, self.squares + 1)], (-self.stride, self.stride, -1, 1))
        self.top_row = self.mask_of(range(1, size + 1))             # White promotes here
        self.bottom_row = self.mask_of(range(self.squares - size + 1, self.squares + 1))

    def row_col(self, square: int) -> Tuple[int, int]:
        """(row, column) of a square; row 0 is the top of the diagram."""
        return divmod(square - 1, self.size)

    def square_at(self, row: int, col: int) -> int:
        """Square at (row, col), or 0 off the board."""
        if not (0 <= row < self.size and 0 <= col < self.size):
            return 0
        return row * self.size + col + 1


_FULL = {8: FullGeometry(8)}


def full_geometry(size: int) -> FullGeometry:
    """The shared :class:`FullGeometry` of an all-squares board."""
    try:
        return _FULL[size]
    except KeyError:
        raise ValueError(f"unsupported all-squares board size {size}") from None


def geometry_of(variant) -> GeometryProtocol:
    """The board geometry of a variant: :func:`~.bitboard.geometry` of its size and
    layout (turned boards: Italian, Spanish, Portuguese), or, for a
    variant whose every square is playable (``variant.all_squares``), its
    :class:`FullGeometry` (the same interface, orthogonal directions)."""
    if getattr(variant, "all_squares", False):
        return full_geometry(variant.size)
    return geometry(variant.size, getattr(variant, "layout", STANDARD))
