"""The recent traffic with one engine, kept for error messages and optionally logged."""

from __future__ import annotations

import collections
import threading
from typing import IO, Callable, Deque, Tuple, Union

__all__ = ["Transcript", "LogTarget", "printable"]

LogTarget = Union[Callable[[str], None], IO[str], None]


def printable(text: str) -> str:
    r"""``text`` safe to show on a terminal or in a file: control characters (C0, DEL, C1: an
    engine's terminal escapes, a window title, a screen clear) written as escapes.

    >>> print(printable("\x1b]0;title\x07\x1b[2Jok\tdone"))
    \x1b]0;title\x07\x1b[2Jok\tdone
    """
    if text.isprintable():
        return text
    out = []
    for char in text:
        code = ord(char)
        if code < 0x20 or 0x7F <= code < 0xA0:
            out.append(repr(char)[1:-1] if char in "\t\n\r" else f"\\x{code:02x}")
        else:
            out.append(char)
    return "".join(out)


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
