"""Small games on the same search interface as draughts (the ``GameState`` protocol).

The table of contents:

* :mod:`.tictactoe` -- :class:`~.tictactoe.TicTacToe`, X moves first on a 3x3 board;
* :mod:`.tatedrez` -- :class:`~.tatedrez.Tatedrez`, place then move a rook,
  a bishop and a knight to make three in a row;
* here: the helpers both share for 3x3 boards, and the input errors.

Bad input raises the rules core's own errors (:mod:`draughts_engine.errors`):
:class:`InvalidFenError`, :class:`InvalidMoveError`, :class:`IllegalMoveError`,
all :class:`~draughts_engine.errors.DraughtsError` subclasses.

A 3x3 board is a 9-character string indexed ``rank * 3 + file`` with ``a1``
(bottom-left) at index 0, ``c1`` at 2 and ``c3`` at 8; ``'.'`` is empty.
The notation is documented in ``docs/small-games.md``.

>>> square_name(8), parse_square("b2")
('c3', 4)
"""

from __future__ import annotations

from typing import Dict, List, Optional, Sequence, Tuple

from ..errors import IllegalMoveError, InvalidFenError, InvalidMoveError
from ..variants import variant_names

__all__ = [
    "tictactoe", "tatedrez",
    "InvalidFenError", "InvalidMoveError", "IllegalMoveError",
    "BOARD_WIDTH", "SQUARE_COUNT", "FILES", "RANKS", "EMPTY", "SQUARE_NAMES", "SQUARE_INDEX",
    "LINES", "LINES_THROUGH", "ONGOING_RESULT",
    "square_name", "parse_square", "has_line", "parse_board_field", "board_field",
    "board_diagram", "result_for", "SMALL_GAME_NAMES", "GAME_NAMES", "small_game",
]

SMALL_GAME_NAMES: Tuple[str, ...] = ("tictactoe", "tatedrez")
"""The small games by name (the ``Variant`` option's values besides the draughts variants)."""

GAME_NAMES: Tuple[str, ...] = variant_names() + SMALL_GAME_NAMES
"""Every game the engine plays, by name: the draughts variants, then the small games (the
``Variant`` option's values, the front ends' list; the one list of them)."""


def small_game(name: str) -> type:
    """The state class of the small game ``name`` (one of :data:`SMALL_GAME_NAMES`).

    >>> small_game("tictactoe").start().side_to_move
    'x'
    """
    if name == "tictactoe":
        from .tictactoe import TicTacToe
        return TicTacToe
    if name == "tatedrez":
        from .tatedrez import Tatedrez
        return Tatedrez
    raise KeyError(name)


BOARD_WIDTH = 3
SQUARE_COUNT = BOARD_WIDTH * BOARD_WIDTH
FILES = "abc"
RANKS = "123"
EMPTY = "."

SQUARE_NAMES: Tuple[str, ...] = tuple(
    file + rank for rank in RANKS for file in FILES
)
SQUARE_INDEX: Dict[str, int] = {name: index for index, name in enumerate(SQUARE_NAMES)}

LINES: Tuple[Tuple[int, int, int], ...] = (
    (0, 1, 2), (3, 4, 5), (6, 7, 8),  # ranks
    (0, 3, 6), (1, 4, 7), (2, 5, 8),  # files
    (0, 4, 8), (2, 4, 6),  # diagonals
)
"""The eight rows, columns and diagonals of a 3x3 board."""

LINES_THROUGH: Tuple[Tuple[Tuple[int, int, int], ...], ...] = tuple(
    tuple(line for line in LINES if square in line) for square in range(SQUARE_COUNT)
)
"""For each square, the lines that pass through it."""


def square_name(square: int) -> str:
    """Name of a square index, e.g. 0 -> 'a1', 8 -> 'c3'."""
    return SQUARE_NAMES[square]


def parse_square(text: str) -> Optional[int]:
    """Index of a square name such as 'b2', or None if ``text`` is not one."""
    return SQUARE_INDEX.get(text)


def has_line(board: str, pieces: Sequence[str]) -> bool:
    """True if some line of ``board`` holds three of ``pieces``."""
    return any(
        board[a] in pieces and board[b] in pieces and board[c] in pieces
        for a, b, c in LINES
    )


def parse_board_field(field: str, pieces: str) -> str:
    """Parse the board field of a FEN: ranks top first, separated by '/'.

    Each rank holds piece letters from ``pieces`` and digits 1-3 counting
    empty squares, covering exactly three squares.  Returns the board string.
    Raises ``InvalidFenError`` naming the bad rank.
    """
    ranks = field.split("/")
    if len(ranks) != BOARD_WIDTH:
        raise InvalidFenError(
            f"board {field!r} must have {BOARD_WIDTH} ranks separated by '/', got {len(ranks)}"
        )
    rows: List[str] = []
    for rank_number, rank_text in zip("321", ranks):
        row = ""
        for char in rank_text:
            if char in "123":
                row += EMPTY * int(char)
            elif char in pieces:
                row += char
            else:
                raise InvalidFenError(
                    f"rank {rank_number} {rank_text!r}: unexpected character {char!r}"
                    f" (expected one of {pieces!r} or a digit 1-3)"
                )
        if len(row) != BOARD_WIDTH:
            raise InvalidFenError(
                f"rank {rank_number} {rank_text!r} covers {len(row)} squares, not {BOARD_WIDTH}"
            )
        rows.append(row)
    return "".join(reversed(rows))


def board_field(board: str) -> str:
    """The FEN board field of a board string (inverse of ``parse_board_field``)."""
    ranks = []
    for start in range(SQUARE_COUNT - BOARD_WIDTH, -1, -BOARD_WIDTH):
        text, empties = "", 0
        for char in board[start:start + BOARD_WIDTH]:
            if char == EMPTY:
                empties += 1
                continue
            if empties:
                text += str(empties)
                empties = 0
            text += char
        if empties:
            text += str(empties)
        ranks.append(text)
    return "/".join(ranks)


def board_diagram(board: str) -> List[str]:
    """Text rows of a board, top rank first, then a row of file letters."""
    rows = []
    for start, rank in zip(range(SQUARE_COUNT - BOARD_WIDTH, -1, -BOARD_WIDTH), "321"):
        rows.append(rank + " " + " ".join(board[start:start + BOARD_WIDTH]))
    rows.append("  " + " ".join(FILES))
    return rows


def result_for(winner_is_first_player: Optional[bool]) -> str:
    """Chess-style result: '1-0', '0-1' or '1/2-1/2' (None means a draw)."""
    if winner_is_first_player is None:
        return "1/2-1/2"
    return "1-0" if winner_is_first_player else "0-1"


ONGOING_RESULT = "*"
"""The ``result_text()`` of a game that is not finished."""
