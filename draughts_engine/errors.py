"""Exception classes of the rules core.

All are :class:`ValueError` subclasses, named for what went wrong, and raised
with a message that names the bad input.  Nothing that raises them changes any
existing position or game.
"""
from __future__ import annotations

__all__ = ["DraughtsError", "InvalidFenError", "InvalidMoveError", "IllegalMoveError",
           "AmbiguousMoveError", "InvalidPdnError", "GameOverError", "UndoError"]


class DraughtsError(ValueError):
    """Base class of the rules core's errors."""


class InvalidFenError(DraughtsError):
    """A FEN string that cannot be parsed or describes an impossible board."""


class InvalidMoveError(DraughtsError):
    """Move text that is not well formed (bad syntax, squares off the board)."""


class IllegalMoveError(DraughtsError):
    """A well-formed move that is not legal in the position."""


class AmbiguousMoveError(DraughtsError):
    """Move text that matches more than one legal move."""


class InvalidPdnError(DraughtsError):
    """PDN text that cannot be read; the message names the line."""


class GameOverError(DraughtsError):
    """A move was played in a finished game (where the caller asked for that check)."""


class UndoError(DraughtsError):
    """Undo or redo past the ends of a game record."""
