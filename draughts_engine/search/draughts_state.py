"""Draughts positions as :class:`~.interface.GameState` values.

:class:`DraughtsState` lets the textbook searches of :mod:`.classic` (and the
generic search) run on any draughts variant.  Moves are the generator's raw
move tuples (hashable, in generator order); :meth:`DraughtsState.to_move`
turns one into a :class:`~draughts_engine.move.Move` for display.

The state knows only the board: a side without a legal move has lost
(``terminal_score() == LOSS``); repetitions and move-count draws need the game
history and are the engine's business, not this value's.
"""
from __future__ import annotations

from typing import List, Optional, Tuple

from ..eval import evaluator
from ..move import Move
from ..movegen import RawMove
from ..position import Position
from ..variants import LOSE_GOAL
from .interface import LOSS, MATE_BOUND

__all__ = ["DraughtsState"]


class DraughtsState:
    """An immutable draughts position implementing ``GameState``.

    ``evaluation`` names the static evaluation (see :mod:`draughts_engine.eval`);
    its score is clamped inside ``MATE_BOUND`` as the protocol requires.
    """

    __slots__ = ("position", "_eval", "_moves", "evaluation")

    def __init__(self, position: Position, evaluation: str = "full") -> None:
        self.position = position
        self.evaluation = evaluation
        self._eval = evaluator(evaluation, position.variant).evaluate
        self._moves: Optional[List[RawMove]] = None

    def legal_moves(self) -> List[RawMove]:
        """Raw legal moves (captures only when a capture exists)."""
        moves = self._moves
        if moves is None:
            moves = self._moves = self.position.raw_moves()
        return list(moves)

    def play(self, move: RawMove) -> "DraughtsState":
        """The state after a raw move of :meth:`legal_moves`."""
        child = DraughtsState.__new__(DraughtsState)
        child.position = self.position.play_raw(move)
        child.evaluation = self.evaluation
        child._eval = self._eval
        child._moves = None
        return child

    def terminal_score(self) -> Optional[int]:
        """``LOSS`` when the side to move has no legal move (``WIN`` in antidraughts,
        where that side has won), else None."""
        if self._moves is None:
            self._moves = self.position.raw_moves()
        if self._moves:
            return None
        return -LOSS if self.position.variant.goal == LOSE_GOAL else LOSS

    def evaluate(self) -> int:
        """Static evaluation for the side to move, strictly inside ``MATE_BOUND``."""
        score = self._eval(*self.position.raw)
        limit = MATE_BOUND - 1
        return max(-limit, min(limit, score))

    def key(self) -> Tuple[int, int, int, bool]:
        """The raw position tuple ``(white, black, kings, white_to_move)``."""
        return self.position.key()

    def to_move(self, move: RawMove) -> Move:
        """The :class:`Move` (with its PDN path) of a raw move of this state."""
        for candidate in self.position.legal_moves():
            if candidate.raw == move:
                return candidate
        raise ValueError(f"{move!r} is not a legal move of {self.position.fen()}")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, DraughtsState):
            return NotImplemented
        return self.position == other.position

    def __hash__(self) -> int:
        return hash(self.position)

    def __repr__(self) -> str:
        return f"DraughtsState({self.position!r}, {self.evaluation!r})"
