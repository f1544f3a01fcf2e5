"""The match runner's errors, and the checks of numbers that come from the command line.

:class:`MatchError` is every usage or configuration error (a bad flag, value, engine key,
opening set or PDN file): the command line prints its message on one line and exits 2.
"""

from __future__ import annotations

from typing import Tuple

__all__ = ["MatchError", "EngineStartError", "bounded_int", "quoted"]

MAX_DIGITS = 18
"""Longest digit string read as a number; longer ones are out of range (and never reach
``int()``, whose limit on digits would raise)."""


class MatchError(Exception):
    """A usage or configuration error (bad option, unknown engine key, unusable PDN file)."""


class EngineStartError(Exception):
    """An engine could not be started or configured: ``reason`` says why, ``stderr`` holds the
    last lines the engine wrote to stderr; the message is the reason followed, when there are
    such lines, by ``; its stderr ended with:`` and the lines, one per line after the first.

    ``stalled``: it started but stopped answering (a handshake that timed out), as opposed
    to one that could not run, exited or refused its setup."""

    def __init__(self, reason: str, stalled: bool = False, stderr: Tuple[str, ...] = ()) -> None:
        message = reason
        if stderr:
            message += "; its stderr ended with:\n" + "\n".join(f"  | {line}" for line in stderr)
        super().__init__(message)
        self.reason = reason
        self.stalled = stalled
        self.stderr = tuple(stderr)


def quoted(text: str, limit: int = 40) -> str:
    """``repr`` of ``text`` cut to ``limit`` characters, for messages about bad input.

    >>> quoted("1" * 100, 10)
    "'1111111111...' (100 characters)"
    """
    if len(text) <= limit:
        return repr(text)
    return f"{text[:limit]!r}"[:-1] + f"...' ({len(text)} characters)"


def bounded_int(text: str, what: str, low: int, high: int) -> int:
    """The integer written in ``text`` (ASCII digits only), checked to be in ``low..high``.

    >>> bounded_int("12", "depth", 1, 99)
    12
    >>> bounded_int("9" * 5000, "depth", 1, 99)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    protocol.match.errors.MatchError: depth must be an integer in 1..99, got '999...' (5000 characters)
    """
    digits = text.strip()
    if not (digits.isascii() and digits.isdigit() and len(digits) <= MAX_DIGITS
            and low <= int(digits) <= high):
        raise MatchError(f"{what} must be an integer in {low}..{high}, got {quoted(text, 20)}")
    return int(digits)
