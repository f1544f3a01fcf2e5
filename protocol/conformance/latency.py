"""How long the engine took to answer each command of a check: :class:`AnswerTimes`.

A check that runs out of its budget is killed by the watchdog; "did not finish within its
budget" alone does not say which step was slow. :class:`AnswerTimes` watches the transcript
entries of one check (``> line`` sent, ``< line`` received) and keeps, for the last line sent
before each answer, the delay until the engine's next line: the slowest of those, and the command still waiting
for an answer when the check was stopped, name the step to look at.
"""

from __future__ import annotations

import threading
import time
from typing import Callable, Optional, Tuple

__all__ = ["AnswerTimes", "SLOW_ANSWER"]

SLOW_ANSWER = 1.0
"""An answer that took at least this many seconds is counted as slow."""

_SHOWN = 60
"""Longest command or answer quoted in a summary (characters)."""


def _quoted(text: str) -> str:
    return repr(text if len(text) <= _SHOWN else text[:_SHOWN] + "...")


class AnswerTimes:
    """The delays between each line sent to an engine and the next line it wrote.

    Feed it every transcript entry with :meth:`record` (any thread); :meth:`summary` says
    which answer was slowest, how many took :data:`SLOW_ANSWER` seconds or more, and which
    command, if any, is still unanswered. ``clock`` is injectable for tests.
    """

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._lock = threading.Lock()
        self._pending: Optional[Tuple[str, float]] = None  # (command, sent at)
        self._slowest: Optional[Tuple[float, str, str]] = None  # (seconds, command, answer)
        self._slow = 0

    def record(self, entry: str) -> None:
        """Take one transcript entry: ``"> text"`` (sent) or ``"< text"`` (received)."""
        marker, _, text = entry.partition(" ")
        now = self._clock()
        with self._lock:
            if marker == ">":
                self._pending = (text, now)  # the latest command is the one awaiting its answer
            elif marker == "<" and self._pending is not None:
                command, sent = self._pending
                self._pending = None
                seconds = now - sent
                if seconds >= SLOW_ANSWER:
                    self._slow += 1
                if self._slowest is None or seconds > self._slowest[0]:
                    self._slowest = (seconds, command, text)

    def summary(self) -> str:
        """One sentence on the slow steps, or "" when every answer came within
        :data:`SLOW_ANSWER` seconds and nothing is waiting."""
        now = self._clock()
        parts = []
        with self._lock:
            if self._slowest is not None and self._slowest[0] >= SLOW_ANSWER:
                seconds, command, answer = self._slowest
                others = self._slow - 1
                parts.append(f"slowest answer {_quoted(answer)} {seconds * 1000:.0f} ms after "
                             f"{_quoted(command)}"
                             + (f" ({others} more took {SLOW_ANSWER:g} s or longer)"
                                if others else ""))
            if self._pending is not None:
                command, sent = self._pending
                parts.append(f"no answer to {_quoted(command)} for {now - sent:.1f} s")
        return "; ".join(parts)
