"""A game record: moves played, undo/redo, draw rules and the result.

>>> g = Game("english")
>>> g.push("11-15").pdn()
'11-15'
>>> g.pop().pdn(), g.ply
('11-15', 0)

Draw rules (see :class:`~.variants.DrawRules`) are applied from the record:

* repetition: the same pieces and side to move for the ``repetitions``-th time;
* no progress: ``no_progress_plies`` (English) or ``kings_only_plies``
  (International, Russian, Brazilian) plies in a row without a man move or a
  capture;
* ending counts (:meth:`~.variants.DrawRules.ending`): once the material is in a
  counted class (three pieces, one a king, against a lone king; two or fewer
  against a lone king; Russian: three or more kings against a lone king, or a
  4-7 piece ending with a king each; one piece each where the variant says so),
  the game is drawn after that class's plies.  The count runs from when the
  class arose and goes on through captures and promotions that keep the class
  (king and man against king becoming two kings, or king against king); a
  change of class starts a new count;
* Russian 7.2.7: three pieces (one a king) against a lone king alone on the
  main road: drawn once ``road_plies`` plies have ended with it there.

A rule makes the game drawn on exactly the ply that completes the count.  The
side to move losing because it has no legal move takes precedence (in
antidraughts it wins; in breakthrough a side whose opponent has crowned a
king has no move: the crowning side has won).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, Iterable, List, Mapping, Optional, Sequence, Tuple, Union

from .bitboard import popcount
from .errors import IllegalMoveError, InvalidPdnError, UndoError
from .move import Move
from .notation import parse_move
from .pdn_reader import PdnSource, stream_records
from .pdn_writer import write_game
from .position import Position
from .variants import CROWN_GOAL, LOSE_GOAL, Ending, Variant, get_variant

__all__ = ["Game", "GameResult", "Counters"]


@dataclass(frozen=True)
class GameResult:
    """``outcome``: ``'white'``, ``'black'``, ``'draw'`` or None while the game goes on.

    ``code`` names the rule in one word: ``no-moves``, ``repetition``,
    ``move-rule``, ``endgame-rule`` (``ongoing`` while the game goes on).
    """

    outcome: Optional[str]
    reason: str
    code: str = "ongoing"

    @property
    def is_over(self) -> bool:
        return self.outcome is not None

    def score_text(self, international: bool = False) -> str:
        """PDN result: ``1-0``/``0-1``/``1/2-1/2``/``*`` (``2-0``/``0-2``/``1-1`` if ``international``)."""
        if self.outcome is None:
            return "*"
        table = {"white": ("1-0", "2-0"), "black": ("0-1", "0-2"), "draw": ("1/2-1/2", "1-1")}
        return table[self.outcome][1 if international else 0]

    def pdn(self, variant: Union[Variant, str]) -> str:
        """The PDN result token in ``variant``'s convention (``Variant.pdn_results``), ``*`` while ongoing.

        >>> GameResult("draw", "agreed").pdn("international")
        '1-1'
        """
        if self.outcome is None:
            return "*"
        white, black, draw = get_variant(variant).pdn_results
        return {"white": white, "black": black, "draw": draw}[self.outcome]


@dataclass(frozen=True)
class Counters:
    """Draw-rule counters after a ply.

    ``quiet_plies``: plies since the last man move or capture.
    ``ending_plies``: plies since the position's ending class arose
    (:meth:`~.variants.DrawRules.ending`; -1 when the position is in none).
    ``road_plies`` (Russian 7.2.7): with three pieces (one a king) against a lone
    king, the plies since that material arose that ended with the lone king alone
    on the main road (-1 when the material is another).
    """

    quiet_plies: int = 0
    ending_plies: int = -1
    road_plies: int = -1


ONGOING = GameResult(None, "ongoing")


class Game:
    """Moves from a start position, with undo/redo and the variant's result rules.

    ``positions[0]`` is the start position and ``positions[i]`` the position
    after ``moves[i - 1]``.  Every mutator either succeeds completely or
    raises and leaves the record as it was.
    """

    def __init__(self, variant: Union[Variant, str] = "english", fen: Optional[str] = None,
                 start: Optional[Position] = None) -> None:
        self.variant = get_variant(variant if start is None else start.variant)
        if start is None:
            start = Position.from_fen(fen, self.variant) if fen else Position.start(self.variant)
        self.positions: List[Position] = [start]
        self.moves: List[Move] = []
        self._road = 0
        if self.variant.draw.road_plies:
            geo = start.geometry
            self._road = geo.mask_of(geo.square_at(geo.size - 1 - i, i) for i in range(geo.size))
        road = self._road_state(start)
        self.counters: List[Counters] = [
            Counters(0, 0 if self._ending_class(start) is not None else -1,
                     -1 if road is None else 0)]
        self._redo: List[Move] = []
        self.tags: Dict[str, str] = {}

    # ---- state -----------------------------------------------------------------
    @property
    def position(self) -> Position:
        """The current position."""
        return self.positions[-1]

    @property
    def start(self) -> Position:
        return self.positions[0]

    @property
    def ply(self) -> int:
        """Number of moves played from the start position."""
        return len(self.moves)

    def legal_moves(self) -> List[Move]:
        return self.position.legal_moves()

    # ---- mutation ---------------------------------------------------------------
    def push(self, move: Union[Move, str]) -> Move:
        """Play a legal move (a :class:`Move` of the current position or move text).

        Raises the notation errors for bad text and :class:`IllegalMoveError`
        for a :class:`Move` that is not legal here.  Clears the redo list.
        """
        position = self.position
        if isinstance(move, str):
            move = parse_move(position, move)
        elif move not in position.legal_moves():
            raise IllegalMoveError(f"illegal move {move.pdn()} in {position.fen()}")
        self._append(move)
        self._redo.clear()
        return move

    def push_all(self, moves: Iterable[Union[Move, str]]) -> List[Move]:
        """Play several moves, all or none: on an error the record is unchanged."""
        done: List[Move] = []
        redo = list(self._redo)
        try:
            for move in moves:
                done.append(self.push(move))
        except Exception:
            for _ in done:
                self._drop_last()
            self._redo = redo
            raise
        return done

    def pop(self) -> Move:
        """Undo the last move (it can be redone); :class:`UndoError` at the start."""
        if not self.moves:
            raise UndoError("no move to undo")
        move = self._drop_last()
        self._redo.append(move)
        return move

    def undo(self, count: int = 1) -> List[Move]:
        """Undo ``count`` plies, all or none (:class:`UndoError` if there are fewer)."""
        if count < 0:
            raise UndoError(f"cannot undo a negative number of plies ({count})")
        if count > len(self.moves):
            raise UndoError(f"cannot undo {count} plies: only {len(self.moves)} played")
        return [self.pop() for _ in range(count)]

    def redo(self) -> Move:
        """Replay the last undone move; :class:`UndoError` if there is none."""
        if not self._redo:
            raise UndoError("no move to redo")
        move = self._redo.pop()
        self._append(move)
        return move

    def _append(self, move: Move) -> None:
        before = self.position
        after = before.play_raw(move.raw)
        last = self.counters[-1]
        mover_is_man = not (before.kings & move.raw[0])
        quiet = 0 if (move.captured or mover_is_man) else last.quiet_plies + 1
        ending = self._ending_class(after)
        if ending is None:
            ending_plies = -1
        elif last.ending_plies < 0 or self._ending_class(before).key != ending.key:
            ending_plies = 0  # a new class: a new count
        else:
            ending_plies = last.ending_plies + 1  # the same class, through captures too
        road = self._road_state(after)
        if road is None:
            road_plies = -1
        elif last.road_plies < 0:
            road_plies = 0
        else:
            road_plies = last.road_plies + road
        self.positions.append(after)
        self.moves.append(move)
        self.counters.append(Counters(quiet, ending_plies, road_plies))

    def _drop_last(self) -> Move:
        self.positions.pop()
        self.counters.pop()
        return self.moves.pop()

    # ---- rules --------------------------------------------------------------------
    def _ending_class(self, position: Position) -> Optional[Ending]:
        """The counted ending class ``position`` is in, or None."""
        w, b, k = position.white, position.black, position.kings
        wk, bk = popcount(w & k), popcount(b & k)
        return self.variant.draw.ending(popcount(w) - wk, wk, popcount(b) - bk, bk)

    def _road_state(self, position: Position) -> Optional[int]:
        """Russian 7.2.7: None unless three pieces (one a king) stand against a lone
        king; else 1 when the lone king stands alone on the main road, 0 when not."""
        road = self._road
        if not road:
            return None
        w, b, k = position.white, position.black, position.kings
        for strong, weak in ((w, b), (b, w)):
            if popcount(weak) == 1 and weak & k and popcount(strong) == 3 and strong & k:
                return 1 if (w | b) & road == weak else 0
        return None

    def repetitions(self) -> int:
        """How many times the current position has occurred (1 = first time)."""
        current = self.position
        count = 0
        for i in range(len(self.positions) - 1, -1, -1):
            if self.positions[i] == current:
                count += 1
            if i > 0 and self.counters[i].quiet_plies == 0:
                break  # nothing before an irreversible move can repeat
        return count

    def result(self) -> GameResult:
        """The game state after the last move: a win, a draw (with the rule) or ongoing."""
        position = self.position
        if self.variant.goal == CROWN_GOAL and position.kings:
            # Breakthrough ends with the first king, and so does a position set up with one
            # (with a king on both sides: credited to the side that moved last).
            white_king = bool(position.kings & position.white)
            black_king = bool(position.kings & position.black)
            if white_king and black_king:
                crowned = "black" if position.white_to_move else "white"
            else:
                crowned = "white" if white_king else "black"
            return GameResult(crowned, f"{crowned} crowned a king", "no-moves")
        if not position.raw_moves():
            loser_moves = position.turn
            winner = "black" if position.white_to_move else "white"
            goal = self.variant.goal
            if goal == LOSE_GOAL:  # antidraughts: out of moves (or pieces) is a win
                return GameResult(loser_moves, f"{loser_moves} has no legal move and wins",
                                  "no-moves")
            return GameResult(winner, f"{position.turn} has no legal move", "no-moves")
        if not (position.black if position.white_to_move else position.white):
            # A position set up with the side not to move out of pieces (no game reaches
            # it: the capture of the last piece leaves that side to move, without a move).
            gone = "black" if position.white_to_move else "white"
            if self.variant.goal == LOSE_GOAL:
                return GameResult(gone, f"{gone} has no pieces and wins", "no-moves")
            return GameResult(position.turn, f"{gone} has no pieces", "no-moves")
        rules = self.variant.draw
        counters = self.counters[-1]
        if rules.repetitions and self.repetitions() >= rules.repetitions:
            return GameResult("draw", f"{rules.repetitions}-fold repetition", "repetition")
        limit = rules.no_progress_plies or rules.kings_only_plies
        if limit and counters.quiet_plies >= limit:
            what = "man move or capture" if rules.no_progress_plies else "man move or capture (kings only)"
            return GameResult("draw", f"{limit // 2} moves each without a {what}", "move-rule")
        if counters.ending_plies >= 0:
            ending = self._ending_class(position)
            if ending is not None and counters.ending_plies >= ending.plies:
                return GameResult("draw", f"{ending.what} not won within {ending.plies // 2} "
                                          f"moves each", "endgame-rule")
        if rules.road_plies and counters.road_plies >= rules.road_plies:
            return GameResult("draw", f"lone king on the main road not beaten within "
                                      f"{rules.road_plies // 2} moves each", "endgame-rule")
        return ONGOING

    def search_history(self) -> List[Tuple[int, int, int, bool]]:
        """Raw positions since the last irreversible move, oldest first, ending
        with the current one: what a search needs to see repetitions."""
        out = []
        for i in range(len(self.positions) - 1, -1, -1):
            out.append(self.positions[i].raw)
            if i > 0 and self.counters[i].quiet_plies == 0:
                break
        out.reverse()
        return out

    # ---- PDN ------------------------------------------------------------------------
    def to_pdn(self, tags: Optional[Dict[str, str]] = None, notation: Optional[str] = None,
               comments: Optional[Mapping[int, Union[str, Sequence[str]]]] = None) -> str:
        """This game as PDN text, squares in the variant's notation unless
        ``notation`` says otherwise, with ``comments`` after the given numbers of
        plies (see :func:`.pdn_writer.write_game`)."""
        return write_game(self, tags, notation, comments)

    @classmethod
    def from_pdn(cls, pdn: PdnSource, variant: Union[Variant, str, None] = None) -> "Game":
        """Read the first game of PDN text, a path or a file (see :func:`.pdn.stream_games`)."""
        records = stream_records(pdn, cls, variant)
        try:
            for record in records:
                return record.game
        finally:
            records.close()  # closes a file opened from a path at once, on PyPy too
        raise InvalidPdnError("no game in PDN text")

    def __repr__(self) -> str:
        return f"<Game {self.variant.name} ply={self.ply} fen={self.position.fen()!r}>"
