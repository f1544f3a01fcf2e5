"""Tatedrez as an immutable ``GameState``.

Rules implemented:

* A 3x3 board; each side owns a rook, a bishop and a knight (White ``RBN``,
  Black ``rbn``).
* Placement phase: starting with White, the players alternately place one of
  their pieces on an empty square (six placements in all).
* Movement phase: the players alternately move one piece like in chess,
  without captures: the rook and the bishop slide over empty squares and may
  not jump; the knight jumps to an empty square.
* Three of one's own pieces in a row, column or diagonal win at once, also
  right after a placement.
* A player with no legal move passes (move ``pass``).  If the next player
  must pass as well, the game is drawn.
* The third occurrence of the same position (board and side to move) is a
  draw.

Moves: ``Drop(piece, square)`` written ``N@b2`` (piece letter R, B or N;
lower case is accepted too),
``Step(origin, target)`` written ``a1-b3``, and ``PASS`` written ``pass``.
Squares are indices 0..8 with ``a1`` = 0 (see ``draughts_engine.games``).

FEN: ``<ranks> <side> [<pass>]``: ranks top first separated by ``/`` (pieces
``RBNrbn``, digits 1-3 for empty squares), side ``w`` or ``b``, and an
optional third field ``p`` if the previous move was a pass (``-`` or absent
otherwise).  The repetition history is not part of the FEN: a position read
from a FEN has been seen once.  ``side_to_move`` is ``'white'`` or ``'black'``.

>>> state = Tatedrez.start()
>>> state = state.play(state.parse_move("N@b2"))
>>> state.fen(), state.move_text(state.legal_moves()[0])
('3/1N1/3 b -', 'R@a1')
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Dict, Hashable, List, NamedTuple, Optional, Tuple, Union

from ..search.interface import LOSS, WIN
from . import (
    BOARD_WIDTH,
    EMPTY,
    LINES,
    ONGOING_RESULT,
    SQUARE_COUNT,
    SQUARE_INDEX,
    IllegalMoveError,
    InvalidFenError,
    InvalidMoveError,
    board_diagram,
    board_field,
    has_line,
    parse_board_field,
    result_for,
    square_name,
)

__all__ = [
    "Tatedrez",
    "Drop",
    "Step",
    "PASS",
    "TatedrezMove",
    "IllegalMoveError",
    "InvalidFenError",
    "InvalidMoveError",
]


class Drop(NamedTuple):
    """Placement of the side to move's ``piece`` ('R', 'B' or 'N') on ``square``."""

    piece: str
    square: int


class Step(NamedTuple):
    """Movement of the side to move's piece from ``origin`` to ``target``."""

    origin: int
    target: int


PASS = "pass"
"""The move of a player who has no legal move."""

TatedrezMove = Union[Drop, Step, str]

PIECE_KINDS = "RBN"
PIECES = {"white": "RBN", "black": "rbn"}
OPPONENT = {"white": "black", "black": "white"}
_FEN_SIDE = {"w": "white", "b": "black"}
_SIDE_FEN = {"white": "w", "black": "b"}
_PIECE_COUNT = 2 * len(PIECE_KINDS)

# evaluate(): weights of its terms.
_THREAT_VALUE = 10  # a line with two own pieces and an empty square
_MOBILITY_VALUE = 2  # per legal step

Position = Tuple[str, str]
"""(board, side to move): what threefold repetition compares."""


def _square_of(file: int, rank: int) -> int:
    return rank * BOARD_WIDTH + file


def _on_board(file: int, rank: int) -> bool:
    return 0 <= file < BOARD_WIDTH and 0 <= rank < BOARD_WIDTH


def _rays(directions: Tuple[Tuple[int, int], ...]) -> Tuple[Tuple[Tuple[int, ...], ...], ...]:
    """For each square, the squares along each direction, nearest first."""
    result = []
    for square in range(SQUARE_COUNT):
        file, rank = square % BOARD_WIDTH, square // BOARD_WIDTH
        square_rays = []
        for file_step, rank_step in directions:
            ray = []
            f, r = file + file_step, rank + rank_step
            while _on_board(f, r):
                ray.append(_square_of(f, r))
                f, r = f + file_step, r + rank_step
            if ray:
                square_rays.append(tuple(ray))
        result.append(tuple(square_rays))
    return tuple(result)


_KNIGHT_JUMPS = ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2))
# Slides are rays; a knight's jumps are one-square "rays" so one routine serves all.
_MOVE_RAYS = {
    "R": _rays(((0, 1), (1, 0), (0, -1), (-1, 0))),
    "B": _rays(((1, 1), (1, -1), (-1, -1), (-1, 1))),
    "N": tuple(
        tuple(
            (_square_of(square % 3 + df, square // 3 + dr),)
            for df, dr in _KNIGHT_JUMPS
            if _on_board(square % 3 + df, square // 3 + dr)
        )
        for square in range(SQUARE_COUNT)
    ),
}

_DROP_PATTERN = re.compile(r"([RBNrbn])@([a-c][1-3])")
_STEP_PATTERN = re.compile(r"([a-c][1-3])-([a-c][1-3])")


def _steps(board: str, side: str) -> List[Step]:
    """All moves of ``side``'s pieces on ``board``, by origin square then ray."""
    steps = []
    own = PIECES[side]
    for origin in range(SQUARE_COUNT):
        piece = board[origin]
        if piece not in own:
            continue
        for ray in _MOVE_RAYS[piece.upper()][origin]:
            for target in ray:
                if board[target] != EMPTY:
                    break
                steps.append(Step(origin, target))
    return steps


@dataclass(frozen=True)
class Tatedrez:
    """A Tatedrez position with the repetition history needed to score it.

    ``board``: 9 characters from ``RBNrbn.``; ``side_to_move``: ``'white'``
    or ``'black'``; ``last_move_was_pass``: whether the previous move was a
    pass (a second pass in a row ends the game); ``history``: the
    movement-phase positions played so far, the current one included, in
    order (placement-phase positions can never repeat).

    ``key()`` is ``(board, side, last_move_was_pass, repetition counts)``
    where the counts are a frozenset of (position, occurrences) pairs: two
    states with equal keys have identical futures, so search results keyed on
    it stay correct, while move orders that reach the same situation share it.
    """

    board: str
    side_to_move: str
    last_move_was_pass: bool = False
    history: Tuple[Position, ...] = ()

    # ---- construction and notation

    @classmethod
    def start(cls) -> "Tatedrez":
        """The empty board, White to place."""
        return cls(EMPTY * SQUARE_COUNT, "white")

    @classmethod
    def from_fen(cls, text: str) -> "Tatedrez":
        """Parse ``<ranks> <side> [<pass>]``; raise ``InvalidFenError`` naming the bad part."""
        fields = text.split()
        if len(fields) not in (2, 3):
            raise InvalidFenError(
                f"Tatedrez FEN {text!r} needs 2 or 3 fields (board, side, pass flag),"
                f" got {len(fields)}"
            )
        board = parse_board_field(fields[0], PIECES["white"] + PIECES["black"])
        side = _FEN_SIDE.get(fields[1])
        if side is None:
            raise InvalidFenError(f"side to move {fields[1]!r} must be 'w' or 'b'")
        pass_field = fields[2] if len(fields) == 3 else "-"
        if pass_field not in ("-", "p"):
            raise InvalidFenError(f"pass flag {pass_field!r} must be '-' or 'p'")
        _check_pieces(board, fields[0], side)
        placing = _is_placement_phase(board)
        if pass_field == "p" and placing:
            raise InvalidFenError("pass flag 'p' is only possible once all pieces are placed")
        return cls(board, side, pass_field == "p", () if placing else ((board, side),))

    def fen(self) -> str:
        """The position as ``<ranks> <side> <pass>`` (history not included)."""
        pass_field = "p" if self.last_move_was_pass else "-"
        return f"{board_field(self.board)} {_SIDE_FEN[self.side_to_move]} {pass_field}"

    def parse_move(self, text: str) -> TatedrezMove:
        """The move written as ``N@b2``, ``a1-b3`` or ``pass``.

        Raises ``InvalidMoveError`` if ``text`` is not in that notation and
        ``IllegalMoveError`` if the move is not legal here.
        """
        stripped = text.strip()
        drop = _DROP_PATTERN.fullmatch(stripped)
        step = _STEP_PATTERN.fullmatch(stripped)
        move: TatedrezMove
        if stripped == PASS:
            move = PASS
        elif drop:
            move = Drop(drop.group(1).upper(), SQUARE_INDEX[drop.group(2)])
        elif step:
            move = Step(SQUARE_INDEX[step.group(1)], SQUARE_INDEX[step.group(2)])
        else:
            raise InvalidMoveError(
                f"not a Tatedrez move: {text!r} (expected e.g. N@b2, a1-b3 or pass)"
            )
        if move not in self.legal_moves():
            raise IllegalMoveError(f"illegal move {text!r} in position {self.fen()!r}")
        return move

    @staticmethod
    def move_text(move: TatedrezMove) -> str:
        """``N@b2`` for a drop, ``a1-b3`` for a step, ``pass`` for a pass."""
        if isinstance(move, Drop):
            return f"{move.piece}@{square_name(move.square)}"
        if isinstance(move, Step):
            return f"{square_name(move.origin)}-{square_name(move.target)}"
        if move == PASS:
            return PASS
        raise InvalidMoveError(f"not a Tatedrez move value: {move!r}")

    def diagram(self) -> List[str]:
        """Board rows top first (rank 3), then the file letters."""
        return board_diagram(self.board)

    def result_text(self) -> str:
        """'1-0' (White won), '0-1' (Black won), '1/2-1/2' or '*' (not finished)."""
        winner = self._winner()
        if winner is not None:
            return result_for(winner == "white")
        if self.terminal_score() is not None:
            return result_for(None)
        return ONGOING_RESULT

    def result_reason(self) -> Optional[str]:
        """Why the game ended, or None while it goes on."""
        winner = self._winner()
        if winner is not None:
            return f"{winner} completed a line"
        if self._is_threefold_repetition():
            return "threefold repetition"
        if self._both_players_passed():
            return "both players had to pass"
        return None

    # ---- GameState protocol

    def legal_moves(self) -> List[TatedrezMove]:
        """Drops (by piece RBN, then square) while placing; then steps or [PASS].

        Returns [] once the game is over.
        """
        if self.terminal_score() is not None:
            return []
        if _is_placement_phase(self.board):
            return self._drops()
        return _steps(self.board, self.side_to_move) or [PASS]

    def play(self, move: TatedrezMove) -> "Tatedrez":
        """The state after ``move`` (a move from ``legal_moves()``)."""
        board, passing = self.board, False
        if isinstance(move, Drop):
            piece = move.piece if self.side_to_move == "white" else move.piece.lower()
            board = board[:move.square] + piece + board[move.square + 1:]
        elif isinstance(move, Step):
            cells = list(board)
            cells[move.target], cells[move.origin] = cells[move.origin], EMPTY
            board = "".join(cells)
        elif move == PASS:
            passing = True
        else:
            raise InvalidMoveError(f"not a Tatedrez move value: {move!r}")
        side = OPPONENT[self.side_to_move]
        history = self.history
        if not _is_placement_phase(board):
            history = history + ((board, side),)
        return Tatedrez(board, side, passing, history)

    def terminal_score(self) -> Optional[int]:
        """LOSS/WIN for a completed line, 0 for a draw, None while playing.

        Draws: threefold repetition, or a player who must pass right after
        the opponent passed.
        """
        winner = self._winner()
        if winner is not None:
            return WIN if winner == self.side_to_move else LOSS
        if self._is_threefold_repetition() or self._both_players_passed():
            return 0
        return None

    def evaluate(self) -> int:
        """Threats and mobility, from the side to move's point of view.

        Each line holding two own pieces and an empty square counts
        +10 (-10 for the opponent's); in the movement phase each legal step
        counts +2 (-2 for the opponent's).
        """
        own_side = self.side_to_move
        other_side = OPPONENT[own_side]
        own, other = PIECES[own_side], PIECES[other_side]
        board = self.board
        score = 0
        for line in LINES:
            cells = [board[square] for square in line]
            if EMPTY not in cells:
                continue
            own_count = sum(cell in own for cell in cells)
            other_count = sum(cell in other for cell in cells)
            if own_count == 2:
                score += _THREAT_VALUE
            elif other_count == 2:
                score -= _THREAT_VALUE
        if not _is_placement_phase(board):
            mobility = len(_steps(board, own_side)) - len(_steps(board, other_side))
            score += _MOBILITY_VALUE * mobility
        return score

    def key(self) -> Hashable:
        """(board, side, last_move_was_pass, frozenset of (position, count))."""
        counts: Dict[Position, int] = {}
        for position in self.history:
            counts[position] = counts.get(position, 0) + 1
        return (
            self.board,
            self.side_to_move,
            self.last_move_was_pass,
            frozenset(counts.items()),
        )

    # ---- helpers

    def _drops(self) -> List[Drop]:
        pieces = PIECES[self.side_to_move]
        board = self.board
        empty_squares = [square for square in range(SQUARE_COUNT) if board[square] == EMPTY]
        return [
            Drop(kind, square)
            for kind, piece in zip(PIECE_KINDS, pieces)
            if piece not in board
            for square in empty_squares
        ]

    def _winner(self) -> Optional[str]:
        """The side with three in a line, if any (only the last mover can have one)."""
        for side in (OPPONENT[self.side_to_move], self.side_to_move):
            if has_line(self.board, PIECES[side]):
                return side
        return None

    def _is_threefold_repetition(self) -> bool:
        return self.history.count((self.board, self.side_to_move)) >= 3

    def _both_players_passed(self) -> bool:
        return (
            self.last_move_was_pass
            and not _is_placement_phase(self.board)
            and not _steps(self.board, self.side_to_move)
        )


def _is_placement_phase(board: str) -> bool:
    return SQUARE_COUNT - board.count(EMPTY) < _PIECE_COUNT


def _check_pieces(board: str, board_text: str, side: str) -> None:
    """Raise ``InvalidFenError`` unless ``board`` is a reachable piece setup."""
    for piece in PIECES["white"] + PIECES["black"]:
        if board.count(piece) > 1:
            raise InvalidFenError(f"board {board_text!r} has more than one {piece!r}")
    white = sum(board.count(piece) for piece in PIECES["white"])
    black = sum(board.count(piece) for piece in PIECES["black"])
    if white + black < _PIECE_COUNT:
        placing_side = {0: "white", 1: "black"}.get(white - black)
        if placing_side is None:
            raise InvalidFenError(
                f"board {board_text!r} has {white} white and {black} black pieces;"
                " White places first, so white must equal black or exceed it by one"
            )
        if side != placing_side:
            raise InvalidFenError(
                f"side to move {_SIDE_FEN[side]!r} does not match the placements:"
                f" {_SIDE_FEN[placing_side]!r} places next"
            )
    white_line = has_line(board, PIECES["white"])
    black_line = has_line(board, PIECES["black"])
    if white_line and black_line:
        raise InvalidFenError(f"board {board_text!r} has lines for both sides")
    if (white_line and side == "white") or (black_line and side == "black"):
        raise InvalidFenError(
            f"board {board_text!r}: {side} has a line but is to move"
        )
