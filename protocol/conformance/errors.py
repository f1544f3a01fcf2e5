"""The suite's exception classes: what went wrong, named for who is to blame.

* :class:`UsageError` (:mod:`protocol.usage`, shared by every command line): the command line
  is wrong (exit status 2).
* :class:`EngineCommandError`: the engine command cannot be executed at all (a bad path, not
  executable); a usage error too (exit status 2).
* :class:`SetupError`: the engine runs but cannot be handshaken or switched to the variant under
  test; the run stops after the check that found it.
* :class:`CheckFailed` / :class:`CheckSkipped`: the outcome of one check.
* :class:`MoveTextError`: engine move text that is not a legal move in full notation.
"""

from __future__ import annotations

from protocol.usage import UsageError

__all__ = [
    "ConformanceError",
    "UsageError",
    "EngineCommandError",
    "CheckFailed",
    "CheckSkipped",
    "SetupError",
    "MoveTextError",
    "fail",
]


class ConformanceError(Exception):
    """Base of the suite's errors."""


class EngineCommandError(UsageError):
    """The engine command cannot be executed (no such file, not executable): exit status 2."""


class CheckFailed(ConformanceError):
    """The engine broke the contract; the message says how."""


class CheckSkipped(ConformanceError):
    """The check does not apply to this engine (an optional command is not offered)."""


class SetupError(ConformanceError):
    """The engine could not be started, handshaken or switched to the variant under test."""


class MoveTextError(ConformanceError):
    """Move text from the engine that is not a legal move in full notation."""


def fail(reason: str) -> CheckFailed:
    """Build a :class:`CheckFailed` (``raise fail(...)`` reads well in checks)."""
    return CheckFailed(reason)
