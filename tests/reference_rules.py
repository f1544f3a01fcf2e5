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

The later diagonal families (``EXTRA`` adds their rules to ``RULES``):

* ``italian``: English moves on the turned board (the top row's playing
  squares are the even columns), men cannot take kings, and the sequences
  kept are the best by (pieces taken, a king captures, kings taken, the
  earliest kings: compared as the tuple of "is a king" per jump);
* ``spanish``, ``portuguese``: flying kings, men forward only, best by
  (pieces taken, kings taken); the turned board numbered from White's side
  (square 1 is the bottom right corner, counting right to left, upwards);
* ``czech``: flying kings, men forward only, a capture by a king has
  precedence (then free choice);
* ``pool``: Russian captures, but a man passing the king row stays a man;
* ``thai``: flying kings that land right behind each piece they take, men
  forward only, each captured piece leaves the board as it is jumped;
* ``canadian``: International on 12x12;
* ``antidraughts``, ``killer``, ``breakthrough``: International moves;
  killer: a king whose sequence ends by taking a king lands right behind it;
  breakthrough: a side whose opponent has a king has no move.
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

#: name -> the later rules: layout ("standard", "turned", "turned-from-white"),
#: men take kings, precedence (tuple of "pieces", "with_king", "kings",
#: "king_order"), king lands right behind, pieces removed at once, killer, breakthrough.
EXTRA = {}


def _add(name: str, base: tuple, layout: str = "standard", men_take_kings: bool = True,
         precedence: tuple = (), behind: bool = False, at_once: bool = False,
         killer: bool = False, crown_wins: bool = False) -> None:
    RULES[name] = base
    if base[3] and not precedence:
        precedence = ("pieces",)
    EXTRA[name] = (layout, men_take_kings, precedence, behind, at_once, killer, crown_wins)


_add("italian", (8, False, False, False, "stop"), layout="turned", men_take_kings=False,
     precedence=("pieces", "with_king", "kings", "king_order"))
_add("spanish", (8, True, False, False, "stop"), layout="turned-from-white",
     precedence=("pieces", "kings"))
_add("portuguese", (8, True, False, False, "stop"), layout="turned-from-white",
     precedence=("pieces", "kings"))
_add("czech", (8, True, False, False, "stop"), precedence=("with_king",))
_add("pool", (8, True, True, False, "pass"))
_add("thai", (8, True, False, False, "stop"), behind=True, at_once=True)
_add("canadian", (12, True, True, True, "pass"))
_add("antidraughts", (10, True, True, True, "pass"))
_add("breakthrough", (10, True, True, True, "pass"), crown_wins=True)
_add("killer", (10, True, True, True, "pass"), killer=True)
for _name in ("english", "russian", "brazilian", "international"):
    EXTRA[_name] = ("standard", True, ("pieces",) if RULES[_name][3] else (), False, False,
                    False, False)

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
def square_at(size: int, row: int, col: int, layout: str = "standard") -> int:
    """PDN number of (row, col), or 0 off the board / on a light square."""
    if not (0 <= row < size and 0 <= col < size):
        return 0
    playing = (row + col) % 2 == (1 if layout == "standard" else 0)
    if not playing:
        return 0
    number = row * (size // 2) + col // 2 + 1
    if layout == "turned-from-white":
        number = size * size // 2 + 1 - number
    return number


def row_col(size: int, square: int, layout: str = "standard") -> Tuple[int, int]:
    half = size // 2
    if layout == "turned-from-white":
        square = size * half + 1 - square
    row = (square - 1) // half
    index = (square - 1) % half
    odd_first = (row % 2 == 0) == (layout == "standard")
    col = 2 * index + 1 if odd_first else 2 * index
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
    layout, men_take_kings, _, behind, at_once, killer, _ = EXTRA[variant]
    piece = board[origin]
    colour = _colour(piece)
    results = []

    def square_at(size: int, row: int, col: int) -> int:
        return _square_at(size, row, col, layout)

    def row_col(size: int, square: int) -> Tuple[int, int]:
        return _row_col(size, square, layout)

    def occupant(square: int, captured: Tuple[int, ...]) -> Optional[str]:
        # The origin is empty while the piece is moving; captured pieces stay
        # (Thai: they leave at once).
        if square == origin or (at_once and square in captured):
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
            if not king and not men_take_kings and _is_king(victim):
                continue   # Italian: men do not take kings
            landings = []
            r, c = r + dr, c + dc
            now = captured + (target,)
            while square_at(size, r, c) and occupant(square_at(size, r, c), now) is None:
                landings.append(square_at(size, r, c))
                if not (king and flying) or behind:
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
        if killer and _is_king(piece) and _is_king(board[captured[-1]]):
            # the king must stand right behind the king it took last
            (r1, c1), (r2, c2) = row_col(size, captured[-1]), row_col(size, path[-1])
            if abs(r1 - r2) != 1:
                continue
        out.append((path, captured, king))
    return out


_square_at, _row_col = square_at, row_col


def _quiet_moves(variant: str, board: Board, origin: int) -> List[Tuple[int, bool]]:
    size, flying, _, _, _ = RULES[variant]
    layout = EXTRA[variant][0]
    piece = board[origin]
    colour = _colour(piece)
    king = _is_king(piece)
    row, col = row_col(size, origin, layout)
    out = []
    for dr, dc in DIAGONALS:
        if not king and dr != _forward(colour):
            continue
        r, c = row + dr, col + dc
        while square_at(size, r, c, layout) and square_at(size, r, c, layout) not in board:
            promotes = not king and r == _king_row(size, colour)
            out.append((square_at(size, r, c, layout), king or promotes))
            if not (king and flying):
                break
            r, c = r + dr, c + dc
    return out


def _precedence_key(variant: str, board: Board, origin: int, captured: Tuple[int, ...]) -> tuple:
    key = []
    for criterion in EXTRA[variant][2]:
        if criterion == "pieces":
            key.append(len(captured))
        elif criterion == "with_king":
            key.append(_is_king(board[origin]))
        elif criterion == "kings":
            key.append(sum(1 for s in captured if _is_king(board[s])))
        else:
            key.append(tuple(_is_king(board[s]) for s in captured))
    return tuple(key)


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
    colour = "w" if white_to_move else "b"
    if EXTRA[variant][6] and any(_is_king(p) and _colour(p) != colour for p in board.values()):
        return {}  # breakthrough: the opponent has crowned, the game is over
    mine = [s for s in sorted(board) if _colour(board[s]) == colour]
    captures = []
    for s in mine:
        captures.extend((s,) + seq for seq in _capture_sequences(variant, board, s))
    moves: Dict[RefMove, Set[Tuple[int, ...]]] = {}
    if captures:
        if EXTRA[variant][2]:
            keys = [_precedence_key(variant, board, c[0], c[2]) for c in captures]
            best = max(keys)
            captures = [c for c, k in zip(captures, keys) if k == best]
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
