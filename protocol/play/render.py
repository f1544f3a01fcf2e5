"""Text drawing for the terminal: the board, scores and the engine's thinking.

Everything here turns values into lines of text; nothing reads or writes a stream. Colour is a
:class:`Style` choice made by the caller (:func:`wants_colour`); without colour the drawing
carries the same information in plain characters:

* a playable square is ``[NNp]``-shaped: the square number, then the piece (``w``/``b`` men,
  ``W``/``B`` kings, ``.`` empty); the squares of the last move are in ``[ ]``, the squares it
  captured on in ``( )`` with an ``x``;
* 8x8 boards have files ``a``-``h`` and ranks ``1``-``8`` around them, 10x10 boards the numbers
  only, 3x3 boards (tic-tac-toe, Tatedrez) their ``a1``-``c3`` coordinates.
"""
from __future__ import annotations

import os
from typing import IO, Callable, List, Optional, Sequence

from protocol.client import InfoReport

from .records import BoardView, Cell

__all__ = ["Style", "wants_colour", "board_lines", "score_text", "info_text"]

_RESET = "\x1b[0m"


def wants_colour(stream: IO[str], environ: Optional[dict] = None) -> bool:
    """Colour only on a terminal, and never with ``NO_COLOR`` set (https://no-color.org) or
    ``TERM=dumb``."""
    environ = os.environ if environ is None else environ
    if environ.get("NO_COLOR", "") != "" or environ.get("TERM") == "dumb":
        return False
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


class Style:
    """ANSI colours when ``colour`` is true, plain text otherwise."""

    WHITE_PIECE = "1;33"   # bold yellow
    BLACK_PIECE = "1;31"   # bold red
    NUMBER = "2"           # dim
    LAST_MOVE = "1;32"     # bold green
    CAPTURED = "1;35"      # bold magenta
    EMPHASIS = "1"
    PROBLEM = "1;31"

    def __init__(self, colour: bool) -> None:
        self.colour = colour

    def paint(self, text: str, code: str) -> str:
        return f"\x1b[{code}m{text}{_RESET}" if self.colour and text.strip() else text

    def bold(self, text: str) -> str:
        return self.paint(text, self.EMPHASIS)

    def problem(self, text: str) -> str:
        return self.paint(text, self.PROBLEM)

    def dim(self, text: str) -> str:
        return self.paint(text, self.NUMBER)


def _piece(cell: Cell, style: Style) -> str:
    if cell.piece is None:
        return style.paint("x", Style.CAPTURED) if cell.captured else style.dim(".")
    code = Style.WHITE_PIECE if cell.owner == "white" else Style.BLACK_PIECE
    return style.paint(cell.piece, code)


def _marks(cell: Cell, style: Style) -> Sequence[str]:
    if cell.captured:
        return style.paint("(", Style.CAPTURED), style.paint(")", Style.CAPTURED)
    if cell.in_last_move:
        return style.paint("[", Style.LAST_MOVE), style.paint("]", Style.LAST_MOVE)
    return " ", " "


def _cell_text(cell: Cell, view: BoardView, style: Style) -> str:
    """Five characters (draughts: mark, number, piece, mark) or three (3x3 boards)."""
    if not cell.playable:
        return " " * (5 if view.has_numbers else 3)
    left, right = _marks(cell, style)
    if view.has_numbers:
        return left + style.dim(f"{cell.number:>2}") + _piece(cell, style) + right
    return left + _piece(cell, style) + right


def board_lines(view: BoardView, style: Style, flipped: bool = False) -> List[str]:
    """The board as lines of text, the top row (Black's side) first unless ``flipped``."""
    rows = list(view.rows)
    if flipped:
        rows = [tuple(reversed(row)) for row in reversed(rows)]
    width = 5 if view.has_numbers else 3
    lines: List[str] = []
    files = "abcdefghijkl"[:view.size]
    if flipped:
        files = files[::-1]
    file_line = ""
    if view.has_coordinates:
        file_line = "    " + "".join(f"{letter:^{width}}" for letter in files)
        lines.append(style.dim(file_line.rstrip()))
    for row in rows:
        body = "".join(_cell_text(cell, view, style) for cell in row)
        if view.has_coordinates:
            rank = str(view.size - row[0].row)
            lines.append(f" {style.dim(rank)}  {body}  {style.dim(rank)}")
        else:
            lines.append(f"    {body}")
    if view.has_coordinates:
        lines.append(style.dim(file_line.rstrip()))
    return [line.rstrip() for line in lines]


def score_text(info: InfoReport) -> str:
    """The score for the side that searched: ``+0.35`` (in men), ``wins in 3``, ``loses in 2``."""
    if info.score_mate is not None:
        moves = abs(info.score_mate)
        unit = "move" if moves == 1 else "moves"
        return f"wins in {moves} {unit}" if info.score_mate > 0 else f"loses in {moves} {unit}"
    if info.score_cp is not None:
        return f"{info.score_cp / 100:+.2f}"
    return "?"


def info_text(info: InfoReport, max_pv: int = 8,
              shown: Optional[Callable[[str], str]] = None) -> str:
    """One line of an engine's thinking: depth, score, nodes and the principal variation
    (each move through ``shown``, canonical text to what a person reads, when given)."""
    parts = []
    if info.depth is not None:
        parts.append(f"depth {info.depth}")
    if info.score_cp is not None or info.score_mate is not None:
        parts.append(f"score {score_text(info)}")
    if info.nodes is not None:
        parts.append(f"nodes {info.nodes}")
    if info.pv:
        more = " ..." if len(info.pv) > max_pv else ""
        moves = info.pv[:max_pv]
        if shown is not None:
            moves = [shown(move) for move in moves]
        parts.append("pv " + " ".join(moves) + more)
    return "  ".join(parts)
