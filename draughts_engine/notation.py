"""PDN move text in and out.

Output: ``11-15`` for a quiet move, ``15x24`` for a capture, every landing
square for a multi-capture (``15x24x31``).

Input accepts:

* the full path (``15x24x31``), where any path of the capture is accepted;
* origin and destination only (``15x31``, or ``15-31``) when exactly one legal
  move matches, otherwise :class:`AmbiguousMoveError` lists the candidates;
* any subsequence of the path that starts at the origin and ends at the
  destination (``47x24x36`` picks between two captures ending on 36);
* on 8x8 boards, algebraic squares (``c3-d4``, ``c3xe5``);
* Hub-style captures ``from x to x captured...`` are handled by :func:`parse_hub_move`.
"""
from __future__ import annotations

from typing import List, Sequence, Tuple

from .errors import AmbiguousMoveError, IllegalMoveError, InvalidMoveError
from .move import Move

__all__ = ["parse_move", "parse_squares", "move_text", "parse_hub_move"]

_SEPARATORS = "-xX:"


def parse_squares(text: str, position) -> Tuple[List[int], bool]:
    """Split move text into PDN square numbers; also say whether it used ``x``.

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
    current = []
    capture = False
    for ch in raw:
        if ch in _SEPARATORS:
            if ch in "xX":
                capture = True
            parts.append("".join(current))
            current = []
        else:
            current.append(ch)
    parts.append("".join(current))
    if len(parts) < 2:
        raise InvalidMoveError(f"malformed move {text!r}: expected squares joined by '-' or 'x'")
    squares = []
    for part in parts:
        if part.isascii() and part.isdigit():
            n = int(part)
            if not 1 <= n <= geo.squares:
                raise InvalidMoveError(f"malformed move {text!r}: square {part} is off the board "
                                       f"(1-{geo.squares})")
            squares.append(n)
        elif geo.size == 8 and len(part) == 2 and geo.square_from_algebraic(part):
            squares.append(geo.square_from_algebraic(part))
        else:
            raise InvalidMoveError(f"malformed move {text!r}: {part!r} is not a square")
    return squares, capture


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
    matches = [move for move, paths in position.move_variants()
               if any(_is_subsequence(squares, path) for path in paths)]
    if not matches:
        legal = " ".join(m.pdn() for m in position.legal_moves()) or "none"
        raise IllegalMoveError(f"illegal move {text.strip()!r} (legal: {legal})")
    if len(matches) > 1:
        raise AmbiguousMoveError(f"ambiguous move {text.strip()!r}: could be "
                                 + ", ".join(m.pdn() for m in matches))
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
        raise IllegalMoveError(f"illegal move {text.strip()!r}")
    if len(matches) > 1:
        raise AmbiguousMoveError(f"ambiguous move {text.strip()!r}: could be "
                                 + ", ".join(m.hub() for m in matches))
    return matches[0]


def move_text(move: Move, algebraic: bool = False, position=None) -> str:
    """PDN text of a move; with ``algebraic`` (8x8, needs ``position``) squares as ``c3``."""
    if not algebraic:
        return move.pdn()
    geo = position.geometry
    squares = move.path if move.captured else (move.start, move.end)
    return ("x" if move.captured else "-").join(geo.algebraic(s) for s in squares)
