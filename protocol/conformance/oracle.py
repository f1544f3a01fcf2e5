"""The rules oracle: what is legal and what the engine must show, from ``draughts_engine``.

:class:`Rules` answers every question the checks ask about the variant under test (start
position, legal moves, perft counts, the ``state`` line of ``d``) and finds test material by
search (an opening line with a capture, a multi-capture position, an illegal move text), so no
answer the engine is judged by is canned.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, List, Optional, Sequence, Tuple

from draughts_engine import Game, Move, Position, get_variant, parse_move, perft
from draughts_engine.bitboard import Geometry
from draughts_engine.fullboard import geometry_of
from draughts_engine.errors import DraughtsError, IllegalMoveError
from draughts_engine.notation import move_text, parse_squares
from draughts_engine.variants import WHITE, UnknownVariantError

from .errors import ConformanceError, MoveTextError, UsageError
from .wire import is_move_token

__all__ = ["NO_MOVES_FEN", "OpeningLine", "MultiCapture", "Rules"]


NO_MOVES_FEN = "W:W:B1"
"""A position whose side to move (White, without pieces) has no legal move in every variant."""

@dataclass(frozen=True)
class OpeningLine:
    """A line of legal moves from the start position; ``capture_at`` is the index of a capture."""

    moves: Tuple[str, ...]
    capture_at: int


@dataclass(frozen=True)
class MultiCapture:
    """A position where the side to move has a capture of two or more pieces.

    ``full`` names every landing square; ``short`` is ``<from>x<to>`` (unambiguous here).
    """

    fen: str
    full: str
    short: str


def _move_key(move: Move) -> Tuple[int, ...]:
    return (move.start, move.end) + tuple(move.path)


class Rules:
    """The rules of one draughts variant as the suite needs them (wraps ``draughts_engine``).

    Derived test material (an opening line with a capture, a multi-capture position) is found
    by search on first use and kept on the instance. Raises :class:`UsageError` for a variant
    ``draughts_engine`` does not know.
    """

    def __init__(self, variant: str) -> None:
        try:
            self.variant = get_variant(variant)
        except UnknownVariantError as exc:
            raise UsageError(str(exc)) from None
        self.name: str = self.variant.name
        self.geometry: Geometry = geometry_of(self.variant)
        self._line: Optional[OpeningLine] = None
        self._multi: Optional[Optional[MultiCapture]] = None
        self._multi_searched = False

    # ---- positions ----------------------------------------------------------------

    def start(self) -> Position:
        """The start position."""
        return Position.start(self.variant)

    def from_fen(self, fen: str) -> Position:
        """Parse a FEN; raises :class:`DraughtsError` when the rules reject it."""
        return Position.from_fen(fen, self.variant)

    def play(self, position: Position, moves: Sequence[str]) -> Position:
        """The position after ``moves`` (texts the suite itself produced, trusted legal)."""
        for text in moves:
            position = position.play(text)
        return position

    def sorted_moves(self, position: Position) -> List[Move]:
        """Legal moves in a fixed order (by squares), for deterministic test material."""
        return sorted(position.legal_moves(), key=_move_key)

    def state_line(self, fen: Optional[str], moves: Sequence[str]) -> str:
        """The ``state`` line ``d`` must show after ``position fen|startpos moves ...``."""
        game = Game(self.variant, fen=fen) if fen else Game(self.variant)
        game.push_all(list(moves))
        result = game.result()
        if result.outcome is None:
            return "state ongoing"
        if result.outcome == "draw":
            return f"state draw {result.code}"
        return f"state win {result.outcome} {result.code}"

    def perft(self, position: Position, depth: int) -> int:
        """Leaf count below ``position`` (the published counts take precedence for the start)."""
        published = self.variant.published_perft
        if position == self.start() and depth <= len(published):
            return published[depth - 1]
        return perft(position, depth)

    # ---- engine move texts ----------------------------------------------------------

    def resolve(self, position: Position, text: str) -> Move:
        """The legal move ``text`` names, which must be in full notation.

        Full notation is ``<from>-<to>`` for a quiet move and every landing square joined by
        ``x`` for a capture (PROTOCOL.md section 6). Raises :class:`MoveTextError`.
        """
        if not is_move_token(text):
            raise MoveTextError(f"'{text}' is not a move token")
        try:
            move = parse_move(position, text)
            squares, _ = parse_squares(text, position)
        except DraughtsError as exc:
            raise MoveTextError(f"'{text}' is not legal in {position.fen()}: {exc}") from None
        if move.captured:
            canonical, wanted = "x".join(str(s) for s in squares), len(move.path)
        else:
            canonical, wanted = f"{squares[0]}-{squares[-1]}", 2
        if text != canonical or len(squares) != wanted:
            raise MoveTextError(f"'{text}' is not in full notation (expected {move.pdn()})")
        return move

    def resolve_line(self, position: Position, texts: Sequence[str]) -> Position:
        """Replay engine move texts (a pv) from ``position``; raises :class:`MoveTextError`."""
        for index, text in enumerate(texts):
            try:
                move = self.resolve(position, text)
            except MoveTextError as exc:
                raise MoveTextError(f"move {index + 1} of the line: {exc}") from None
            position = position.play_raw(move.raw)
        return position

    # ---- test material -----------------------------------------------------------------

    def opening_line(self, plies: int = 6) -> OpeningLine:
        """A line of at least ``plies`` plies from the start that contains a capture."""
        if self._line is None:
            prefix = self._shortest_capture_line(max_plies=12)
            position = self.play(self.start(), prefix)
            moves = list(prefix)
            while len(moves) < plies:
                legal = self.sorted_moves(position)
                if not legal:
                    break
                moves.append(legal[0].pdn())
                position = position.play_raw(legal[0].raw)
            self._line = OpeningLine(tuple(moves), len(prefix) - 1)
        return self._line

    def _shortest_capture_line(self, max_plies: int, beam: int = 4000) -> Tuple[str, ...]:
        """The first capture line in breadth-first order; each position is kept once, by
        its first line, and each ply keeps at most ``beam`` positions (a start with few
        men, as in Frysk!, needs more plies before the first capture)."""
        frontier: List[Tuple[Position, Tuple[str, ...]]] = [(self.start(), ())]
        for _ in range(max_plies):
            following: Dict[Position, Tuple[str, ...]] = {}
            for position, line in frontier:
                for move in self.sorted_moves(position):
                    if move.captured:
                        return line + (move.pdn(),)
                    child = position.play_raw(move.raw)
                    if child not in following and len(following) < beam:
                        following[child] = line + (move.pdn(),)
            frontier = list(following.items())
        raise ConformanceError(f"no capture within {max_plies} plies in {self.name}")

    def kings_fen(self) -> str:
        """A legal, ongoing position with kings and men of both sides, White to move."""
        squares, half = self.geometry.squares, self.geometry.half
        middle = squares // 2 + 1
        first = f"W:WK{middle},{squares - 1}:BK2,{half + 1}"
        # Where kings take a lot at once (Turkish), move the kings until two plies of
        # play leave both sides with moves.
        candidates = [first] + [f"W:WK{white},{squares - 1}:BK{black},{half + 1}"
                                for white in range(middle, squares - half)
                                for black in range(2, half)]
        for fen in candidates:
            if self._lively(fen):
                return fen
        return first

    def _lively(self, fen: str) -> bool:
        """Whether both sides of ``fen`` have moves for the first two plies of play."""
        position = self._position_or_none(fen)
        for _ in range(2):
            if position is None:
                return False
            moves = self.sorted_moves(position)
            if not moves:
                return False
            position = position.play_raw(moves[0].raw)
        return position is not None and bool(position.raw_moves())

    def ranged_fen(self) -> str:
        """The start position written with square ranges (``B:W21-32:B1-12``)."""
        start = self.start()
        geo = self.geometry

        def ranges(bits: int) -> str:
            squares = geo.squares_of(bits)
            runs: List[List[int]] = []
            for square in squares:
                if runs and runs[-1][-1] + 1 == square:
                    runs[-1].append(square)
                else:
                    runs.append([square])
            return ",".join(f"{r[0]}-{r[-1]}" if len(r) > 1 else str(r[0]) for r in runs)

        side = "W" if start.white_to_move else "B"
        return f"{side}:W{ranges(start.white)}:B{ranges(start.black)}"

    def illegal_move(self, position: Position) -> str:
        """A well-formed move text that is not legal in ``position`` (preferably a move of the
        side not to move, the most natural mistake)."""
        flipped = Position(self.variant, position.white, position.black, position.kings,
                           not position.white_to_move)
        candidates = [m.pdn() for m in self.sorted_moves(flipped)]
        squares = self.geometry.squares
        candidates += [f"{a}-{b}" for a in range(1, squares + 1) for b in (a + 1, a - 1)
                       if 1 <= b <= squares]
        for text in candidates:
            try:
                parse_move(position, text)
            except IllegalMoveError:
                return text
            except DraughtsError:
                continue
        raise ConformanceError(f"no illegal move text found for {position.fen()}")

    def algebraic(self, position: Position, move: Move) -> Optional[str]:
        """The move in algebraic squares (``c3-d4``) on 8x8 boards, else None."""
        if self.geometry.size != 8:
            return None
        return move_text(move, algebraic=True, position=position)

    def multi_capture(self) -> Optional[MultiCapture]:
        """A position with a capture of two pieces for the variant's first mover, or None."""
        if not self._multi_searched:
            self._multi = self._find_multi_capture()
            self._multi_searched = True
        return self._multi

    def _fen(self, white_to_move: bool, mover: int, enemies: Sequence[int]) -> str:
        men = ",".join(str(s) for s in enemies)
        own, other = ("W", "B") if white_to_move else ("B", "W")
        fields = {own: str(mover), other: men}
        return f"{'W' if white_to_move else 'B'}:W{fields['W']}:B{fields['B']}"

    def _position_or_none(self, fen: str) -> Optional[Position]:
        try:
            return self.from_fen(fen)
        except DraughtsError:
            return None

    def _find_multi_capture(self) -> Optional[MultiCapture]:
        white_to_move = self.variant.first == WHITE
        squares = range(1, self.geometry.squares + 1)
        for mover in squares:
            for first in squares:
                if first == mover:
                    continue
                found = self._extend_capture(white_to_move, mover, first, squares)
                if found is not None:
                    return found
        return None

    def _extend_capture(self, white_to_move: bool, mover: int, first: int,
                        squares: range) -> Optional[MultiCapture]:
        position = self._position_or_none(self._fen(white_to_move, mover, [first]))
        if position is None or not any(m.captured for m in position.legal_moves()):
            return None
        for second in squares:
            if second in (mover, first):
                continue
            fen = self._fen(white_to_move, mover, [first, second])
            position = self._position_or_none(fen)
            if position is None:
                continue
            for move in position.legal_moves():
                short = f"{move.start}x{move.end}"
                if len(move.captured) >= 2 and len(move.path) >= 3:
                    try:
                        if parse_move(position, short) == move:
                            return MultiCapture(position.fen(), move.pdn(), short)
                    except DraughtsError:
                        continue
        return None
