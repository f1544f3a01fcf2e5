"""The recent traffic with one engine, kept for error messages and optionally logged."""

from __future__ import annotations

import collections
import threading
from typing import IO, Callable, Deque, Tuple, Union

__all__ = ["Transcript", "LogTarget"]

LogTarget = Union[Callable[[str], None], IO[str], None]


class Transcript:
    """The recent traffic with one engine, newest last, safe to use from several threads.

    Entries read ``> sent``, ``< received``, ``! stderr`` and ``# event``. Every entry also
    goes to ``log`` (a callable taking a line, or a text file) when given.
    """

    def __init__(self, keep: int = 40, log: LogTarget = None) -> None:
        self._lock = threading.Lock()
        self._entries: Deque[str] = collections.deque(maxlen=keep)
        self._stderr: Deque[str] = collections.deque(maxlen=keep)
        self._log = log

    def add(self, marker: str, text: str) -> None:
        entry = f"{marker} {text}"
        with self._lock:
            self._entries.append(entry)
            if marker == "!":
                self._stderr.append(text)
            if self._log is None:
                return
            if callable(self._log):
                self._log(entry)
            else:
                self._log.write(entry + "\n")
                self._log.flush()

    def lines(self) -> Tuple[str, ...]:
        with self._lock:
            return tuple(self._entries)

    def stderr_lines(self) -> Tuple[str, ...]:
        with self._lock:
            return tuple(self._stderr)
