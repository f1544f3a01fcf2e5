"""The contract between games and searches: the ``GameState`` protocol and scores.

Every game position the engine can search (tic-tac-toe, Tatedrez, and the
draughts variants) implements ``GameState``.  States are immutable values in a
*copy-make* style: ``play`` returns a new state and never changes the old one,
so a search can keep any state it has seen without copying it.

Scores are integers from the point of view of the side to move.  A decided game
scores ``WIN`` or ``LOSS``; a search adjusts such a score by the ply at which it
found it (``win_in(ply)`` / ``loss_in(ply)``), so that a faster win and a slower
loss are preferred.  Every score with ``abs(score) >= MATE_BOUND`` is a decided
game; static evaluations stay far inside that bound.
"""

from __future__ import annotations

from typing import Hashable, List, Optional, Protocol, Sequence, runtime_checkable

WIN = 30000
"""Score of a game the side to move has won (before ply adjustment)."""

LOSS = -WIN
"""Score of a game the side to move has lost (before ply adjustment)."""

MATE_BOUND = WIN - 1000
"""Scores with ``abs(score) >= MATE_BOUND`` are wins or losses, never evaluations."""

Move = Hashable
"""A move is any hashable value produced by ``GameState.legal_moves``."""


def win_in(ply: int) -> int:
    """Score of a win found ``ply`` plies from the search root."""
    return WIN - ply


def loss_in(ply: int) -> int:
    """Score of a loss found ``ply`` plies from the search root."""
    return -(WIN - ply)


def is_decisive(score: int) -> bool:
    """True if ``score`` denotes a won or lost game rather than an evaluation."""
    return abs(score) >= MATE_BOUND


def ply_adjusted(terminal_score: int, ply: int) -> int:
    """Turn a ``GameState.terminal_score`` found at ``ply`` into a search score.

    ``WIN`` becomes ``win_in(ply)``, ``LOSS`` becomes ``loss_in(ply)`` and a
    draw stays 0.
    """
    if terminal_score > 0:
        return win_in(ply)
    if terminal_score < 0:
        return loss_in(ply)
    return 0


class GameContractError(RuntimeError):
    """A ``GameState`` broke its contract (e.g. no moves but not finished)."""


@runtime_checkable
class GameState(Protocol):
    """An immutable game position, as seen by the side to move.

    Contract:

    * Every move, including a pass, hands the turn to the opponent.
    * ``legal_moves()`` is empty exactly when ``terminal_score()`` is not None.
    * Equal states give equal ``key()`` values and behave identically in search.
    """

    def legal_moves(self) -> List[Move]:
        """Hashable moves for the side to move, in a deterministic order.

        A game in which a stuck player passes returns a single pass move; a
        finished game returns an empty list.
        """
        ...

    def play(self, move: Move) -> "GameState":
        """The state after ``move``; ``self`` is unchanged.

        Only moves from ``legal_moves()`` may be passed; validation is light.
        """
        ...

    def terminal_score(self) -> Optional[int]:
        """None while the game goes on; otherwise ``WIN``, ``LOSS`` or 0.

        The score is from the side to move's point of view: ``LOSS`` if the
        side to move has lost, 0 for a draw, ``WIN`` if it has won.
        """
        ...

    def evaluate(self) -> int:
        """Static evaluation for the side to move (positive is good for it).

        Always ``abs(evaluate()) < MATE_BOUND``.
        """
        ...

    def key(self) -> Hashable:
        """A value equal for equal states, usable as a dict key."""
        ...


class RootMoves:
    """A :class:`GameState` whose own legal moves are only ``moves`` (a non-empty subset
    of ``state.legal_moves()``, in that order); the states after them are ``state``'s.

    How a search that knows nothing of ``searchmoves`` or MultiPV searches some root
    moves only: the root is wrapped, the tree below it is the game's.
    """

    def __init__(self, state: GameState, moves: Sequence[Move]) -> None:
        self.state = state
        self.moves = list(moves)

    def legal_moves(self) -> List[Move]:
        return list(self.moves)

    def play(self, move: Move) -> GameState:
        return self.state.play(move)

    def terminal_score(self) -> Optional[int]:
        return self.state.terminal_score()

    def evaluate(self) -> int:
        return self.state.evaluate()

    def key(self) -> Hashable:
        return ("root", self.state.key(), tuple(self.moves))
