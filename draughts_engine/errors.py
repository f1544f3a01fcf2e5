"""Exception classes of the rules core (draughts and the small games).

All are :class:`ValueError` subclasses under :class:`DraughtsError`, named
for what went wrong, and raised with a message that names the bad input
(quoted with :func:`clip`, so a huge input never makes a huge message).
Nothing that raises them changes any existing position or game.

>>> issubclass(IllegalMoveError, DraughtsError) and issubclass(DraughtsError, ValueError)
True
>>> clip("x" * 100)[-6:]
"xx...'"
"""
from __future__ import annotations

from typing import Optional, Sequence

__all__ = ["DraughtsError", "InvalidFenError", "InvalidMoveError", "IllegalMoveError",
           "AmbiguousMoveError", "InvalidPdnError", "GameOverError", "UndoError", "clip",
           "QUOTE_LIMIT"]

QUOTE_LIMIT = 64
"""Most characters of an input that an error message quotes."""


def clip(text: object, limit: int = QUOTE_LIMIT) -> str:
    """``repr`` of ``text`` cut to its first ``limit`` characters (``...`` marks a cut)."""
    if isinstance(text, str) and len(text) > limit:
        return repr(text[:limit] + "...")
    return repr(text)


class DraughtsError(ValueError):
    """Base class of the rules core's errors (every game the package plays)."""


class InvalidFenError(DraughtsError):
    """A FEN string that cannot be parsed or describes an impossible board.

    Made by :meth:`of_fen`, it keeps ``fen`` (as given) and ``reason`` (the message without
    the FEN), for callers that quote the FEN their own way; both are None when the message
    is all there is.
    """

    fen: Optional[str] = None
    reason: Optional[str] = None

    @classmethod
    def of_fen(cls, fen: str, reason: str) -> "InvalidFenError":
        """``FEN '<fen, cut to 64 characters>': <reason>``, with both parts kept as fields."""
        error = cls(f"FEN {clip(fen)}: {reason}")
        error.fen, error.reason = fen, reason
        return error


class InvalidMoveError(DraughtsError):
    """Move text that is not well formed (bad syntax, squares off the board)."""


class IllegalMoveError(DraughtsError):
    """A well-formed move that is not legal in the position.

    Raised by the move parsers with ``move`` (the text as given, perhaps shortened) and
    ``detail`` (what follows it, e.g. ``(legal: ...)``, or ""), for callers that say the
    move their own way; both are None when the message is all there is.
    """

    def __init__(self, message: str, move: Optional[str] = None,
                 detail: Optional[str] = None) -> None:
        super().__init__(message)
        self.move = move
        self.detail = detail

    @classmethod
    def of_text(cls, move: str, detail: str = "") -> "IllegalMoveError":
        """``illegal move <move> <detail>``, with both parts kept as fields."""
        return cls(f"illegal move {move} {detail}".rstrip(), move, detail)


class AmbiguousMoveError(DraughtsError):
    """Move text that matches more than one legal move; ``moves`` are those candidates
    (:class:`~draughts_engine.move.Move` values, empty when not given)."""

    def __init__(self, message: str, moves: Sequence[object] = ()) -> None:
        super().__init__(message)
        self.moves = tuple(moves)


class InvalidPdnError(DraughtsError):
    """PDN text that cannot be read; the message names the source and line."""


class GameOverError(DraughtsError):
    """A move was played in a finished game (where the caller asked for that check)."""


class UndoError(DraughtsError):
    """Undo or redo past the ends of a game record."""
