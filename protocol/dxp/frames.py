"""Cutting a DXP byte stream into frames, with bounds on size and time.

A frame is the bytes before a 0 byte, decoded as ASCII (a byte that is not becomes ``\\x7f``,
which no message accepts).  :class:`FrameReader` holds at most one unfinished frame of
``max_frame`` bytes plus one read; a longer frame raises :class:`FrameTooLongError` and a frame
still unfinished ``frame_timeout`` seconds after its first byte arrived raises
:class:`FrameTimeoutError` (a peer that sends a byte now and then cannot hold the connection).

The reader only reads: how long to wait for a frame to *start* is the caller's business, so the
socket may carry a timeout (``socket.timeout`` from ``recv`` just means "nothing yet").
"""
from __future__ import annotations

import socket
import time
from typing import Callable, Optional

__all__ = ["MAX_FRAME", "FrameError", "FrameTooLongError", "FrameTimeoutError", "FrameReader",
           "close_socket"]

MAX_FRAME = 1024
"""Bytes in a frame at most (the standard says 127); a longer one ends the connection."""

_CHUNK = 4096  # bytes asked of the socket per read


class FrameError(ValueError):
    """The byte stream cannot be cut into frames; the connection cannot go on."""


class FrameTooLongError(FrameError):
    """More than ``max_frame`` bytes arrived without a 0 byte."""


class FrameTimeoutError(FrameError):
    """A frame was begun and not finished in time."""


class FrameReader:
    """Read 0-terminated frames from ``sock`` (anything with ``recv``).

    ``frame_timeout`` (seconds; None or 0 for none) bounds the time from the first byte of a
    frame to its 0 byte; it is checked whenever ``recv`` returns or times out, so the socket
    should carry a timeout of about the same length for the check to happen in a silent
    stream.  ``clock`` is for tests.
    """

    def __init__(self, sock: socket.socket, max_frame: int = MAX_FRAME,
                 frame_timeout: Optional[float] = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.sock = sock
        self.max_frame = max_frame
        self.frame_timeout = frame_timeout or None
        self._clock = clock
        self._buffer = bytearray()
        self._scanned = 0          # bytes of the buffer known to hold no 0 byte
        self._begun: Optional[float] = None  # when the unfinished frame's first byte came

    @property
    def pending(self) -> int:
        """Bytes of an unfinished frame held now."""
        return len(self._buffer)

    def read(self) -> Optional[str]:
        """The next frame, or None at end of stream.

        Raises :class:`FrameTooLongError`, :class:`FrameTimeoutError` or OSError.
        """
        while True:
            end = self._buffer.find(b"\0", self._scanned)
            if end > self.max_frame:
                raise FrameTooLongError(f"a frame of {end} bytes, longer than {self.max_frame}")
            if end >= 0:
                raw = bytes(self._buffer[:end])
                del self._buffer[:end + 1]
                self._scanned = 0
                self._begun = self._clock() if self._buffer else None
                return raw.decode("ascii", "replace").replace("\ufffd", "\x7f")
            self._scanned = len(self._buffer)
            if len(self._buffer) > self.max_frame:
                raise FrameTooLongError(f"a frame longer than {self.max_frame} bytes "
                                        f"without its 0 byte")
            self._check_time()
            try:
                chunk = self.sock.recv(_CHUNK)
            except socket.timeout:
                continue
            if not chunk:
                return None
            if not self._buffer:
                self._begun = self._clock()
            self._buffer += chunk

    def _check_time(self) -> None:
        if self._begun is None or self.frame_timeout is None:
            return
        if self._clock() - self._begun >= self.frame_timeout:
            raise FrameTimeoutError(f"a frame left unfinished for {self.frame_timeout:g} s "
                                    f"({len(self._buffer)} bytes without its 0 byte)")


def close_socket(sock: socket.socket) -> None:
    """Shut a connection down both ways (which wakes a thread blocked reading it and sends the
    FIN) and close it; errors of a connection already gone are ignored."""
    try:
        sock.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass
    try:
        sock.close()
    except OSError:
        pass
