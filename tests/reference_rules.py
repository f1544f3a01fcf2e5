"""A slow, deliberately simple reference move generator for the tests.

Written from the rules (see DESIGN.md), independently of
``draughts_engine.movegen``: it works on ``(row, col)`` coordinates and a
plain dict ``square -> piece`` and explores every capture sequence by brute
force.  Nothing here is tuned for speed; every rule is one visible ``if``.

Conventions (PDN):

* row 0 is the top of the diagram, squares are numbered 1..N row by row,
  left to right; the dark squares of row 0 are the odd columns;
* pieces: ``'w'``/``'b'`` men, ``'W'``/``'B'`` kings;
* White moves up (towards square 1, row 0), Black moves down.

Rules per variant:

* ``english``: men move and capture forward only; kings move and capture one
  step in any direction; free choice of capture; a man reaching the king row
  during a capture is crowned and the move ends there.
* ``russian``: men move forward, capture in all four directions; flying
  kings; free choice; a man reaching the king row during a capture becomes a
  king and continues capturing as a king; a king must land on a square from
  which the capture continues when there is one.
* ``international`` (10x10) and ``brazilian`` (8x8): men capture in all
  directions; flying kings; the capture taking the most pieces is compulsory
  (a king counts as one piece); a man passing the king row during a capture
  stays a man unless the capture ends there.

All variants: capturing is compulsory, a capture sequence must be completed,
a piece cannot be jumped twice, captured pieces stay on the board (and block)
until the sequence ends, the origin square is empty during the capture, and
sequences with the same origin, destination and captured set are one move.
"""
from __future__ import annotations

from typing import Dict, FrozenSet, List, NamedTuple, Optional, Set, Tuple

__all__ = ["RULES", "RefMove", "Board", "parse_fen", "to_fen", "legal_moves",
           "legal_moves_fen", "square_at", "row_col", "apply_move"]

Board = Dict[int, str]

# name -> (size, flying kings, men capture backwards, majority capture,
#          promotion mid-capture: "stop" | "continue" | "pass")
RULES = {
    "english": (8, False, False, False, "stop"),
    "russian": (8, True, True, False, "continue"),
    "brazilian": (8, True, True, True, "pass"),
    "international": (10, True, True, True, "pass"),
}

DIAGONALS = ((-1, -1), (-1, 1), (1, -1), (1, 1))


class RefMove(NamedTuple):
    origin: int
    destination: int
    captured: FrozenSet[int]
    result: Tuple[Tuple[int, str], ...]   # the board after the move, sorted items

    @property
    def triple(self) -> Tuple[int, int, FrozenSet[int]]:
        return self.origin, self.destination, self.captured


# ---- coordinates ------------------------------------------------------------------
def square_at(size: int, row: int, col: int) -> int:
    """PDN number of (row, col), or 0 off the board / on a light square."""
    if not (0 <= row < size and 0 <= col < size):
        return 0
    if (row + col) % 2 == 0:
        return 0
    return row * (size // 2) + col // 2 + 1


def row_col(size: int, square: int) -> Tuple[int, int]:
    half = size // 2
    row = (square - 1) // half
    index = (square - 1) % half
    col = 2 * index + 1 if row % 2 == 0 else 2 * index
    return row, col


# ---- FEN --------------------------------------------------------------------------------
def parse_fen(fen: str, size: int) -> Tuple[Board, bool]:
    """A tiny FEN reader (numbers, ranges and ``K``; no validation beyond that)."""
    fields = fen.strip().rstrip(".").split(":")
    white_to_move = fields[0].strip().upper() == "W"
    board: Board = {}
    for field in fields[1:]:
        field = field.strip()
        if not field:
            continue
        colour = field[0].lower()
        for item in field[1:].split(","):
            item = item.strip()
            if not item:
                continue
            king = item[0] in "Kk"
            if king:
                item = item[1:]
            if "-" in item:
                lo, hi = item.split("-")
                squares = range(int(lo), int(hi) + 1)
            else:
                squares = [int(item)]
            for s in squares:
                board[s] = colour.upper() if king else colour
    return board, white_to_move


def to_fen(board: Board, white_to_move: bool) -> str:
    """FEN in the engine's canonical form: ``W:W21,K22:B1,K5`` (ascending squares)."""
    def side(colour: str) -> str:
        items = []
        for s in sorted(board):
            p = board[s]
            if p.lower() == colour:
                items.append(("K" if p.isupper() else "") + str(s))
        return colour.upper() + ",".join(items)
    return f"{'W' if white_to_move else 'B'}:{side('w')}:{side('b')}"


# ---- move generation --------------------------------------------------------------------
def _is_king(piece: str) -> bool:
    return piece.isupper()


def _colour(piece: str) -> str:
    return piece.lower()


def _forward(colour: str) -> int:
    return -1 if colour == "w" else 1


def _king_row(size: int, colour: str) -> int:
    return 0 if colour == "w" else size - 1


def _capture_sequences(variant: str, board: Board, origin: int
                       ) -> List[Tuple[Tuple[int, ...], Tuple[int, ...], bool]]:
    """Every complete capture sequence of the piece on ``origin``.

    Returns ``(path, captured in order, ends as king)``; ``path`` lists every
    square the piece stands on, origin first.
    """
    size, flying, men_back, majority, promotion = RULES[variant]
    piece = board[origin]
    colour = _colour(piece)
    results = []

    def occupant(square: int, captured: Tuple[int, ...]) -> Optional[str]:
        # The origin is empty while the piece is moving; captured pieces stay.
        if square == origin:
            return None
        return board.get(square)

    def jumps(square: int, king: bool, captured: Tuple[int, ...]):
        """(jumped square, [landing squares]) for every single jump from ``square``."""
        out = []
        row, col = row_col(size, square)
        for dr, dc in DIAGONALS:
            if not king and not men_back and dr != _forward(colour):
                continue
            if king and flying:
                r, c = row + dr, col + dc
                # slide over empty squares
                while square_at(size, r, c) and occupant(square_at(size, r, c), captured) is None:
                    r, c = r + dr, c + dc
                target = square_at(size, r, c)
                if not target:
                    continue
            else:
                r, c = row + dr, col + dc
                target = square_at(size, r, c)
                if not target:
                    continue
            victim = occupant(target, captured)
            if victim is None or _colour(victim) == colour or target in captured:
                continue   # empty, own piece, or already jumped (it blocks)
            landings = []
            r, c = r + dr, c + dc
            while square_at(size, r, c) and occupant(square_at(size, r, c), captured) is None:
                landings.append(square_at(size, r, c))
                if not (king and flying):
                    break
                r, c = r + dr, c + dc
            if landings:
                out.append((target, landings))
        return out

    def extend(square: int, king: bool, captured: Tuple[int, ...], path: Tuple[int, ...]) -> None:
        options = jumps(square, king, captured)
        if not options:
            if captured:
                results.append((path, captured, king))
            return
        for target, landings in options:
            new_captured = captured + (target,)
            steps = []
            for land in landings:
                new_king = king
                stop = False
                if not king and row_col(size, land)[0] == _king_row(size, colour):
                    if promotion == "stop":
                        new_king, stop = True, True
                    elif promotion == "continue":
                        new_king = True
                    # "pass": stays a man; crowned only if the sequence ends here
                steps.append((land, new_king, stop))
            if king and flying and not majority:
                # Free-choice flying kings (Russian): land where the capture
                # continues if any landing square allows it.
                continuing = [s for s in steps if jumps(s[0], s[1], new_captured)]
                if continuing:
                    steps = continuing
            for land, new_king, stop in steps:
                if stop:
                    results.append((path + (land,), new_captured, new_king))
                else:
                    extend(land, new_king, new_captured, path + (land,))

    extend(origin, _is_king(piece), (), (origin,))
    out = []
    for path, captured, king in results:
        if not king and promotion == "pass" and row_col(size, path[-1])[0] == _king_row(size, colour):
            king = True
        out.append((path, captured, king))
    return out


def _quiet_moves(variant: str, board: Board, origin: int) -> List[Tuple[int, bool]]:
    size, flying, _, _, _ = RULES[variant]
    piece = board[origin]
    colour = _colour(piece)
    king = _is_king(piece)
    row, col = row_col(size, origin)
    out = []
    for dr, dc in DIAGONALS:
        if not king and dr != _forward(colour):
            continue
        r, c = row + dr, col + dc
        while square_at(size, r, c) and square_at(size, r, c) not in board:
            promotes = not king and r == _king_row(size, colour)
            out.append((square_at(size, r, c), king or promotes))
            if not (king and flying):
                break
            r, c = r + dr, c + dc
    return out


def _result(board: Board, origin: int, dest: int, captured, king: bool) -> Tuple[Tuple[int, str], ...]:
    new = dict(board)
    piece = new.pop(origin)
    for s in captured:
        del new[s]
    new[dest] = piece.upper() if king else piece
    return tuple(sorted(new.items()))


def legal_moves_with_paths(variant: str, board: Board, white_to_move: bool
                           ) -> Dict[RefMove, Set[Tuple[int, ...]]]:
    """Every legal move with the set of landing paths that denote it."""
    if variant not in RULES:
        raise ValueError(variant)
    majority = RULES[variant][3]
    colour = "w" if white_to_move else "b"
    mine = [s for s in sorted(board) if _colour(board[s]) == colour]
    captures = []
    for s in mine:
        captures.extend((s,) + seq for seq in _capture_sequences(variant, board, s))
    moves: Dict[RefMove, Set[Tuple[int, ...]]] = {}
    if captures:
        if majority:
            best = max(len(c[2]) for c in captures)
            captures = [c for c in captures if len(c[2]) == best]
        for origin, path, captured, king in captures:
            assert len(set(captured)) == len(captured)
            move = RefMove(origin, path[-1], frozenset(captured),
                           _result(board, origin, path[-1], captured, king))
            moves.setdefault(move, set()).add(path)
        return moves
    for s in mine:
        for dest, king in _quiet_moves(variant, board, s):
            move = RefMove(s, dest, frozenset(), _result(board, s, dest, (), king))
            moves.setdefault(move, set()).add((s, dest))
    return moves


def legal_moves(variant: str, board: Board, white_to_move: bool) -> Set[RefMove]:
    """The set of legal moves (origin, destination, captured set, board after)."""
    return set(legal_moves_with_paths(variant, board, white_to_move))


def legal_moves_fen(variant: str, fen: str) -> Dict[Tuple[int, int, FrozenSet[int]], str]:
    """``{(origin, destination, captured set): FEN after the move}`` of a FEN position."""
    size = RULES[variant][0]
    board, white_to_move = parse_fen(fen, size)
    out = {}
    for move in legal_moves(variant, board, white_to_move):
        assert move.triple not in out, f"two results for {move.triple} in {fen}"
        out[move.triple] = to_fen(dict(move.result), not white_to_move)
    return out


def apply_move(move: RefMove) -> Board:
    return dict(move.result)
