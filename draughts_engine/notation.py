"""Move and square text in and out: PDN numbers and, on 8x8 boards, algebraic squares.

Two notations (see :data:`~.variants.NOTATIONS`):

* ``numeric``: PDN square numbers (the numbering of :class:`~.variants.Variant`:
  row by row from Black's side), ``11-15`` for a quiet move, ``15x24`` for a
  capture, every landing square for a multi-capture (``15x24x31``);
* ``algebraic`` (8x8 only): board coordinates with ``a1`` at White's
  bottom-left, ``c3-d4``, ``c3xe5``, ``c3xe5xg7``; what Russian and Brazilian
  players, lidraughts and pydraughts write.

Output: :func:`format_move` and :func:`square_text` write either; ``None``
(their default) asks for the variant's own notation (``Variant.notation``).
``Move.pdn()`` and ``Position.fen()`` stay numeric unless asked.

Input accepts both notations on 8x8 boards, mixed freely, with ``-``, ``x``
or ``:`` (the Russian federation's capture sign) between squares:

* the full path (``15x24x31``), where any path of the capture is accepted;
* origin and destination only (``15x31``, or ``15-31``) when exactly one legal
  move matches, otherwise :class:`AmbiguousMoveError` lists the candidates;
* any subsequence of the path that starts at the origin and ends at the
  destination (``47x24x36`` picks between two captures ending on 36);
* Hub-style captures ``from x to x captured...`` through :func:`parse_hub_move`.

A number of any length is read without converting huge digit strings: one
off the board is "off the board", never a conversion error.

>>> from draughts_engine.position import Position
>>> p = Position.start("russian")
>>> m = parse_move(p, "c3-d4")
>>> m.pdn(), format_move(m, p.variant), format_move(m, p.variant, "numeric")
('22-18', 'c3-d4', '22-18')
"""
from __future__ import annotations

from typing import List, Optional, Sequence, Tuple

from .bitboard import Geometry
from .fullboard import geometry_of
from .errors import AmbiguousMoveError, IllegalMoveError, InvalidMoveError, clip
from .move import Move
from .variants import ALGEBRAIC, NOTATIONS, NUMERIC, Variant

__all__ = ["parse_move", "parse_squares", "parse_hub_move", "move_text", "format_move",
           "square_text", "square_number", "parse_square", "resolve_notation",
           "NUMERIC", "ALGEBRAIC", "NOTATIONS"]

_SEPARATORS = "-xX:"


def square_number(text: str, squares: int) -> int:
    """The square ``1..squares`` that decimal ``text`` names, else 0.

    Only ASCII digits count; text longer than any square number (leading
    zeros aside) is 0 without being converted, so 5,000 digits are cheap.
    """
    if not (text.isascii() and text.isdigit()):
        return 0
    digits = text.lstrip("0")
    if not digits or len(digits) > len(str(squares)):
        return 0
    number = int(digits)
    return number if number <= squares else 0


def parse_square(text: str, geo: Geometry) -> int:
    """PDN number of a square given as a number or (8x8) an algebraic name; 0 if neither."""
    number = square_number(text, geo.squares)
    if number:
        return number
    if geo.size == 8 and len(text) == 2:
        return geo.square_from_algebraic(text)
    return 0


def resolve_notation(notation: Optional[str], variant: Variant) -> str:
    """``notation`` checked (``numeric`` or ``algebraic``); None means ``variant.notation``.

    Raises :class:`ValueError` for another value or for algebraic squares on
    a board that has none (10x10).
    """
    if notation is None:
        return variant.notation
    if notation not in NOTATIONS:
        raise ValueError(f"unknown notation {notation!r} (known: {', '.join(NOTATIONS)})")
    if notation == ALGEBRAIC and variant.size != 8:
        raise ValueError(f"algebraic squares exist on 8x8 boards only, not for {variant.name}")
    return notation


def square_text(square: int, variant: Variant, notation: Optional[str] = None) -> str:
    """Text of PDN square ``square``: ``22`` or (algebraic) ``c3``; None: the variant's notation.

    >>> from draughts_engine.variants import get_variant
    >>> square_text(22, get_variant("russian")), square_text(22, get_variant("russian"), "numeric")
    ('c3', '22')
    """
    if resolve_notation(notation, variant) == ALGEBRAIC:
        return geometry_of(variant).algebraic(square)
    return str(square)


def format_move(move: Move, variant: Variant, notation: Optional[str] = None,
                full_path: bool = True) -> str:
    """Text of ``move`` in ``notation`` (None: the variant's own, e.g. ``c3-d4`` in Russian).

    Captures list every landing square when ``full_path`` (``c3xe5xg7``),
    else origin and destination only.
    """
    if resolve_notation(notation, variant) == NUMERIC:
        return move.pdn(full_path)
    name = geometry_of(variant).algebraic
    if not move.captured:
        return f"{name(move.start)}-{name(move.end)}"
    squares = move.path if full_path else (move.start, move.end)
    return "x".join(name(s) for s in squares)


def move_text(move: Move, algebraic: bool = False, position=None) -> str:
    """PDN text of a move; with ``algebraic`` (8x8, needs ``position``) squares as ``c3``.

    Kept for older callers; :func:`format_move` is the general form.
    """
    if not algebraic:
        return move.pdn()
    return format_move(move, position.variant, ALGEBRAIC)


def parse_squares(text: str, position) -> Tuple[List[int], bool]:
    """Split move text into PDN square numbers; also say whether it used ``x`` or ``:``.

    Raises :class:`InvalidMoveError` for text that is not a move shape or
    names a square off the board.
    """
    if not isinstance(text, str):
        raise InvalidMoveError(f"move must be text, got {type(text).__name__}")
    raw = text.strip()
    if not raw:
        raise InvalidMoveError("empty move")
    geo = position.geometry
    parts: List[str] = []
    current: List[str] = []
    capture = False
    for ch in raw:
        if ch in _SEPARATORS:
            if ch != "-":
                capture = True
            parts.append("".join(current))
            current = []
        else:
            current.append(ch)
    parts.append("".join(current))
    if len(parts) < 2:
        raise InvalidMoveError(f"malformed move {clip(text)}: expected squares joined by '-' or 'x'")
    squares = []
    for part in parts:
        square = parse_square(part, geo)
        if square:
            squares.append(square)
        elif part.isascii() and part.isdigit():
            raise InvalidMoveError(f"malformed move {clip(text)}: square {_short(part)} is off "
                                   f"the board (1-{geo.squares})")
        else:
            raise InvalidMoveError(f"malformed move {clip(text)}: {clip(part, 16)} is not a square")
    return squares, capture


def _short(digits: str, limit: int = 16) -> str:
    """A number as written, cut to ``limit`` characters (``...`` marks a cut)."""
    return digits if len(digits) <= limit else digits[:limit] + "..."


def _is_subsequence(wanted: Sequence[int], path: Sequence[int]) -> bool:
    if wanted[0] != path[0] or wanted[-1] != path[-1]:
        return False
    it = iter(path[1:-1])
    return all(any(s == p for p in it) for s in wanted[1:-1])


def parse_move(position, text: str) -> Move:
    """The legal move of ``position`` that ``text`` denotes.

    Raises :class:`InvalidMoveError` (malformed), :class:`IllegalMoveError`
    (no legal move matches) or :class:`AmbiguousMoveError` (several do).
    The position is never changed.
    """
    squares, _ = parse_squares(text, position)
    if len(squares) == 2:
        raw = position.raw_moves()
        if raw and not raw[0][2]:
            # No capture on the board: a quiet move is named by its two squares alone.
            bit = position.geometry.bit
            start, end = bit(squares[0]), bit(squares[1])
            for m in raw:
                if m[0] == start and m[1] == end:
                    return Move(squares[0], squares[1], (), bool(m[3]), (squares[0], squares[1]), m)
    matches = [move for move, paths in position.move_variants()
               if any(_is_subsequence(squares, path) for path in paths)]
    if not matches:
        legal = " ".join(m.pdn() for m in position.legal_moves()) or "none"
        raise IllegalMoveError.of_text(clip(text.strip()), f"(legal: {legal})")
    if len(matches) > 1:
        # A move written out in full names that path, even when its squares also lie on a
        # longer capture (English 2x11x4 beside 2x9x18x11x4).
        exact = [move for move, paths in position.move_variants()
                 if move in matches and any(list(path) == squares for path in paths)]
        if len(exact) == 1:
            return exact[0]
        raise AmbiguousMoveError(f"ambiguous move {clip(text.strip())}: could be "
                                 + ", ".join(m.pdn() for m in matches), matches)
    return matches[0]


def parse_hub_move(position, text: str) -> Move:
    """Parse Hub move text: ``32-28`` or ``from x to x captured x ...`` (captured in any order)."""
    squares, capture = parse_squares(text, position)
    if not capture:
        return parse_move(position, text)
    start, end, captured = squares[0], squares[1], sorted(squares[2:])
    matches = [m for m in position.legal_moves()
               if m.start == start and m.end == end and (not captured or list(m.captured) == captured)]
    if not matches:
        raise IllegalMoveError.of_text(clip(text.strip()))
    if len(matches) > 1:
        raise AmbiguousMoveError(f"ambiguous move {clip(text.strip())}: could be "
                                 + ", ".join(m.hub() for m in matches), matches)
    return matches[0]
