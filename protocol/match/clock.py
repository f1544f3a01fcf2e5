"""Time controls and the clocks the runner keeps for engines that play on a clock (``tc=``).

A :class:`TimeControl` is ``[moves/]seconds[+increment]`` (cutechess-cli's syntax); a
:class:`Clock` is one side's time in one game: elapsed time is subtracted, the increment
added, and with ``moves`` a new period of ``seconds`` starts every ``moves`` moves.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Optional

from protocol.match.errors import MatchError, bounded_int, quoted

__all__ = ["MAX_CLOCK_MS", "TimeControl", "Clock", "parse_seconds"]

MAX_CLOCK_MS = 2147483647
"""The largest time (ms) sent to an engine or accepted in a limit (a signed 32-bit int)."""


def parse_seconds(text: str, what: str) -> int:
    """Milliseconds of ``"12.5"`` or ``"1:30"`` (minutes:seconds).

    >>> parse_seconds("1:30", "tc"), parse_seconds("0.25", "st")
    (90000, 250)
    """
    try:
        if ":" in text:
            minutes, seconds = text.split(":", 1)
            value = bounded_int(minutes, what, 0, 10 ** 9) * 60 + float(seconds)
        else:
            value = float(text)
    except (ValueError, MatchError):
        raise MatchError(f"{what}: {quoted(text, 20)} is not a number of seconds") from None
    if not math.isfinite(value) or value < 0:
        raise MatchError(f"{what}: {quoted(text, 20)} must be a non-negative number of seconds")
    if value * 1000 > MAX_CLOCK_MS:
        raise MatchError(f"{what}: {quoted(text, 20)} is too long (at most "
                         f"{MAX_CLOCK_MS // 1000} s)")
    return int(round(value * 1000))


@dataclass(frozen=True)
class TimeControl:
    """``[moves/]seconds[+increment]``: ``moves`` 0 means the whole game (sudden death).

    >>> TimeControl.parse("40/60+0.5")
    TimeControl(moves=40, base_ms=60000, inc_ms=500)
    >>> str(TimeControl.parse("10+0.1")), str(TimeControl.parse("1:30"))
    ('10+0.1', '90')
    """

    moves: int
    base_ms: int
    inc_ms: int = 0

    @classmethod
    def parse(cls, text: str) -> "TimeControl":
        """From cutechess-cli's syntax; :class:`MatchError` names what is wrong."""
        what = f"tc={quoted(text, 20)[1:-1]}"
        body = text.strip()
        moves = 0
        if "/" in body:
            count, body = body.split("/", 1)
            moves = bounded_int(count, f"{what}: the moves per period", 1, 10 ** 6)
        base, _, inc = body.partition("+")
        base_ms = parse_seconds(base, what)
        inc_ms = parse_seconds(inc, what) if inc else 0
        if base_ms <= 0:
            raise MatchError(f"{what}: the clock needs some time before the first move")
        return cls(moves, base_ms, inc_ms)

    def __str__(self) -> str:
        def secs(ms: int) -> str:
            return f"{ms / 1000:g}"

        text = secs(self.base_ms)
        if self.moves:
            text = f"{self.moves}/{text}"
        if self.inc_ms:
            text += f"+{secs(self.inc_ms)}"
        return text


class Clock:
    """One side's clock: ``remaining_ms``; a period of ``tc.moves`` moves refills ``base``."""

    def __init__(self, tc: TimeControl) -> None:
        self.tc = tc
        self.remaining_ms = float(tc.base_ms)
        self.moves_done = 0

    @property
    def movestogo(self) -> Optional[int]:
        """Moves left in this period (None in sudden death)."""
        if not self.tc.moves:
            return None
        return self.tc.moves - self.moves_done % self.tc.moves

    def punch(self, elapsed_ms: float, margin_ms: float) -> bool:
        """Account a move that took ``elapsed_ms``; False if the flag fell (beyond the margin)."""
        self.remaining_ms -= elapsed_ms
        if self.remaining_ms < -margin_ms:
            return False
        self.remaining_ms = max(0.0, self.remaining_ms) + self.tc.inc_ms
        self.moves_done += 1
        if self.tc.moves and self.moves_done % self.tc.moves == 0:
            self.remaining_ms += self.tc.base_ms
        return True
