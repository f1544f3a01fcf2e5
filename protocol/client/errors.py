"""The client's errors: one class per way an exchange with an engine can fail.

Every error carries ``transcript``, the last lines exchanged with the engine (``> sent``,
``< received``, ``! stderr``, ``# event``), and shows them in its message.
"""

from __future__ import annotations

from typing import Optional, Sequence, Tuple

__all__ = [
    "EngineError",
    "EngineTimeoutError",
    "EngineTerminatedError",
    "ProtocolError",
    "IllegalBestMoveError",
    "CommandRejectedError",
    "ClientStateError",
]


class EngineError(Exception):
    """Base of the client's errors. ``transcript`` holds the last lines exchanged."""

    def __init__(self, message: str, transcript: Sequence[str] = ()) -> None:
        super().__init__(message)
        self.message = message
        self.transcript: Tuple[str, ...] = tuple(transcript)

    def __str__(self) -> str:
        if not self.transcript:
            return self.message
        return self.message + "\nlast lines:\n" + "\n".join("  " + t for t in self.transcript)


class EngineTimeoutError(EngineError):
    """The engine did not answer in time (it may still be running)."""


class EngineTerminatedError(EngineError):
    """The engine closed its output or input (usually: the process ended)."""

    def __init__(
        self, message: str, transcript: Sequence[str] = (), returncode: Optional[int] = None
    ) -> None:
        super().__init__(message, transcript)
        self.returncode = returncode


class ProtocolError(EngineError):
    """The engine wrote a line that breaks the protocol (malformed, or unexpected here)."""


class IllegalBestMoveError(ProtocolError):
    """The engine's best move is not legal in the searched position (a client that knows the
    position tells: the Hub client; a match calls it an illegal move, not a protocol error).
    ``move`` is the move as the engine wrote it."""

    def __init__(self, message: str, move: str, transcript: Sequence[str] = ()) -> None:
        super().__init__(message, transcript)
        self.move = move


class CommandRejectedError(EngineError):
    """The engine answered ``error <reason>``; ``reason`` is the text after ``error ``."""

    def __init__(self, reason: str, transcript: Sequence[str] = ()) -> None:
        super().__init__(f"engine answered: error {reason}", transcript)
        self.reason = reason


class ClientStateError(EngineError):
    """The call does not fit the client's state (a search is running, none is, or closed)."""
