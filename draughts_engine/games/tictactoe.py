"""Tic-tac-toe as an immutable ``GameState``.

X moves first.  A move is a square index 0..8 (``a1`` = 0, bottom-left; see
``draughts_engine.games``) and is written as the square name, e.g. ``b2``.

FEN: ``<ranks> <side>``, ranks top (rank 3) first separated by ``/``, with
``x``/``o`` for marks and digits 1-3 for empty squares; side is ``x`` or ``o``.
The empty board is ``3/3/3 x``.  ``side_to_move`` is ``'x'`` or ``'o'``.

>>> state = TicTacToe.start()
>>> for text in ("b2", "a1", "c3"):
...     state = state.play(state.parse_move(text))
>>> state.fen(), state.result_text()
('2x/1x1/o2 o', '*')
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Hashable, List, Optional

from ..search.interface import LOSS, WIN
from . import (
    EMPTY,
    LINES,
    LINES_THROUGH,
    ONGOING_RESULT,
    SQUARE_COUNT,
    IllegalMoveError,
    InvalidFenError,
    InvalidMoveError,
    board_diagram,
    board_field,
    has_line,
    parse_board_field,
    parse_square,
    result_for,
    square_name,
)

__all__ = [
    "TicTacToe",
    "IllegalMoveError",
    "InvalidFenError",
    "InvalidMoveError",
]

MARKS = "xo"
_OPPONENT = {"x": "o", "o": "x"}
# evaluate(): value of a line holding only one player's marks, by mark count
# (three marks only occur on finished boards).
_OPEN_LINE_VALUE = (0, 1, 10, 100)


@dataclass(frozen=True)
class TicTacToe:
    """A tic-tac-toe position.

    ``board`` is a 9-character string of ``'x'``, ``'o'`` and ``'.'``;
    ``winner`` is the mark that completed a line, if any.  Build positions
    with ``start()``, ``from_fen()`` or ``play()``.
    """

    board: str
    side_to_move: str
    winner: Optional[str] = None

    # ---- construction and notation

    @classmethod
    def start(cls) -> "TicTacToe":
        """The empty board, X to move."""
        return cls(EMPTY * SQUARE_COUNT, "x")

    @classmethod
    def from_fen(cls, text: str) -> "TicTacToe":
        """Parse ``<ranks> <side>``; raise ``InvalidFenError`` naming the bad part."""
        fields = text.split()
        if len(fields) != 2:
            raise InvalidFenError(
                f"tic-tac-toe FEN {text!r} needs 2 fields (board and side), got {len(fields)}"
            )
        board = parse_board_field(fields[0], MARKS)
        side = fields[1]
        if side not in MARKS:
            raise InvalidFenError(f"side to move {side!r} must be 'x' or 'o'")
        x_count, o_count = board.count("x"), board.count("o")
        expected_side = {0: "x", 1: "o"}.get(x_count - o_count)
        if expected_side is None:
            raise InvalidFenError(
                f"board {fields[0]!r} has {x_count} x and {o_count} o; X moves first,"
                " so x must equal o or exceed it by one"
            )
        if side != expected_side:
            raise InvalidFenError(
                f"side to move {side!r} does not match the board: {expected_side!r} is to move"
            )
        x_line, o_line = has_line(board, "x"), has_line(board, "o")
        if x_line and o_line:
            raise InvalidFenError(f"board {fields[0]!r} has lines for both x and o")
        winner = "x" if x_line else "o" if o_line else None
        if winner == side:
            raise InvalidFenError(
                f"board {fields[0]!r}: {side!r} has a line but is to move"
            )
        return cls(board, side, winner)

    def fen(self) -> str:
        """The position as ``<ranks> <side>``."""
        return f"{board_field(self.board)} {self.side_to_move}"

    def parse_move(self, text: str) -> int:
        """The move written as a square name such as ``b2``.

        Raises ``InvalidMoveError`` if ``text`` is not a square name and
        ``IllegalMoveError`` if the square cannot be played here.
        """
        square = parse_square(text.strip())
        if square is None:
            raise InvalidMoveError(f"not a tic-tac-toe square: {text!r} (expected a1..c3)")
        if square not in self.legal_moves():
            reason = "the game is over" if self.terminal_score() is not None else "it is occupied"
            raise IllegalMoveError(f"cannot play {text!r}: {reason}")
        return square

    @staticmethod
    def move_text(move: int) -> str:
        """The square name of a move, e.g. 4 -> 'b2'."""
        return square_name(move)

    def diagram(self) -> List[str]:
        """Board rows top first (rank 3), then the file letters."""
        return board_diagram(self.board)

    def result_text(self) -> str:
        """'1-0' (X won), '0-1' (O won), '1/2-1/2' or '*' (not finished)."""
        if self.winner is not None:
            return result_for(self.winner == "x")
        if EMPTY not in self.board:
            return result_for(None)
        return ONGOING_RESULT

    def result_reason(self) -> Optional[str]:
        """Why the game ended, or None while it goes on."""
        if self.winner is not None:
            return f"{self.winner} completed a line"
        if EMPTY not in self.board:
            return "the board is full"
        return None

    # ---- GameState protocol

    def legal_moves(self) -> List[int]:
        """Empty squares in index order; [] once the game is over."""
        if self.winner is not None:
            return []
        board = self.board
        return [square for square in range(SQUARE_COUNT) if board[square] == EMPTY]

    def play(self, move: int) -> "TicTacToe":
        """Put the side to move's mark on square ``move``."""
        mark = self.side_to_move
        board = self.board[:move] + mark + self.board[move + 1:]
        completes_line = any(
            board[a] == mark and board[b] == mark and board[c] == mark
            for a, b, c in LINES_THROUGH[move]
        )
        return TicTacToe(board, _OPPONENT[mark], mark if completes_line else None)

    def terminal_score(self) -> Optional[int]:
        """LOSS/WIN if someone completed a line, 0 on a full board, else None."""
        if self.winner is not None:
            return WIN if self.winner == self.side_to_move else LOSS
        if EMPTY not in self.board:
            return 0
        return None

    def evaluate(self) -> int:
        """Open lines: lines holding only the mover's marks minus the opponent's.

        A line with one mark is worth 1, with two marks 10.
        """
        own, other = self.side_to_move, _OPPONENT[self.side_to_move]
        board = self.board
        score = 0
        for line in LINES:
            marks = [board[square] for square in line]
            own_count, other_count = marks.count(own), marks.count(other)
            if other_count == 0:
                score += _OPEN_LINE_VALUE[own_count]
            elif own_count == 0:
                score -= _OPEN_LINE_VALUE[other_count]
        return score

    def key(self) -> Hashable:
        """The board and the side to move."""
        return (self.board, self.side_to_move)
