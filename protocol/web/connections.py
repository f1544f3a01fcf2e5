"""The web server's connections: a fixed number of worker threads, and one thread that waits on
every idle connection at once.

A connection holds a worker only while one of its requests is answered (an event stream: for
the stream's life). Before its first request and between two requests it waits in a selector,
where it costs a file descriptor, not a thread; it goes to a worker once a whole request head
(up to the blank line) has arrived. So idle connections, however many, cannot take the
workers from real requests, and the number of threads is fixed (:attr:`ConnectionLimits.workers`
plus the waiting thread).

Bounds (:class:`ConnectionLimits`):

* a connection whose request head has not arrived ``request_timeout`` seconds after it opened
  (or after its first byte, for a later request) is closed, and so is one idle for
  ``keepalive_timeout`` seconds between two requests; a worker reads the rest of a request
  (its body) for ``body_timeout`` seconds at most;
* at most ``max_connections`` are open: one more closes the connection that has waited
  longest for a request (or, if none is waiting, the new one);
* event streams hold a worker each: at most ``max_streams`` of them (the server answers one
  more with 429), so ``workers - max_streams`` workers always remain for requests.
"""
from __future__ import annotations

import queue
import selectors
import socket
import threading
import time
from dataclasses import dataclass
from typing import Any, Callable, Dict, List, Optional

__all__ = ["ConnectionLimits", "Connection", "ConnectionPool"]

MAX_HEAD_WAIT = 1 << 17
"""Bytes of a request head buffered before it goes to a worker even without its blank line
(http.server then refuses lines or heads that are too long)."""


@dataclass(frozen=True)
class ConnectionLimits:
    """How many threads and connections the server uses (see the module docstring)."""

    workers: int = 32
    max_streams: int = 24
    max_connections: int = 256
    request_timeout: float = 10.0
    """Seconds for a request head to arrive; also the limit on each read and write while a
    request is answered."""
    keepalive_timeout: float = 120.0
    body_timeout: float = 30.0
    """Seconds a worker waits for a whole request once its head has come (a body sent a byte
    at a time cannot hold a worker longer)."""

    def __post_init__(self) -> None:
        if not 1 <= self.max_streams < self.workers:
            raise ValueError(f"max_streams must be in 1..{self.workers - 1} (workers - 1), "
                             f"got {self.max_streams}")
        if self.max_connections < self.workers:
            raise ValueError("max_connections must be at least workers")
        if min(self.request_timeout, self.keepalive_timeout, self.body_timeout) <= 0:
            raise ValueError("timeouts must be positive")

    @classmethod
    def for_boards(cls, max_boards: int) -> "ConnectionLimits":
        """Limits for a server of ``max_boards`` boards: three event streams a board (a page
        whose stream broke may hold a second one until the server notices), eight workers
        more for requests."""
        streams = max(cls.max_streams, 3 * max_boards)
        workers = streams + 8
        return cls(workers=workers, max_streams=streams,
                   max_connections=max(cls.max_connections, 4 * workers))


class Connection:
    """An accepted socket, and the bytes read from it that no request has consumed yet.

    :meth:`readline` and :meth:`read` are what ``http.server`` reads a request through: the
    buffer first, then the socket (blocking, with the socket's timeout).
    """

    def __init__(self, sock: socket.socket, address: Any) -> None:
        self.sock = sock
        self.address = address
        self.buffer = bytearray()
        self.deadline = 0.0          # while waiting: when it is closed
        self.read_by = float("inf")  # while answered: when reading the request must be done
        self.io_timeout: Optional[float] = None  # the socket's timeout while answered

    def head_ready(self) -> bool:
        """Whether the buffer holds a whole request head (or so much that it must be read)."""
        buffer = self.buffer
        return b"\n\r\n" in buffer or b"\n\n" in buffer or len(buffer) >= MAX_HEAD_WAIT

    def _fill(self) -> bool:
        left = self.read_by - time.monotonic()
        if left <= 0:
            raise socket.timeout("the request took too long to arrive")
        self.sock.settimeout(left if self.io_timeout is None else min(left, self.io_timeout))
        try:
            chunk = self.sock.recv(65536)
        finally:
            self.sock.settimeout(self.io_timeout)
        self.buffer += chunk
        return bool(chunk)

    def readline(self, limit: int = -1) -> bytes:
        buffer = self.buffer
        start = 0
        while True:
            end = buffer.find(b"\n", start)
            if end >= 0 and (limit < 0 or end < limit):
                size = end + 1
                break
            if 0 <= limit <= len(buffer):
                size = limit
                break
            start = len(buffer)
            if not self._fill():
                size = len(buffer)
                break
        line = bytes(buffer[:size])
        del buffer[:size]
        return line

    def read(self, size: int = -1) -> bytes:
        while (size < 0 or len(self.buffer) < size) and self._fill():
            pass
        size = len(self.buffer) if size < 0 else min(size, len(self.buffer))
        data = bytes(self.buffer[:size])
        del self.buffer[:size]
        return data

    def close(self) -> None:
        try:
            self.sock.close()
        except OSError:
            pass


class ConnectionPool:
    """The worker threads and the waiting thread of one server.

    ``serve(connection)`` answers one request of a connection whose head has arrived and
    returns whether the connection stays open for another. ``log`` gets one-line notes.
    """

    def __init__(self, serve: Callable[[Connection], bool], limits: ConnectionLimits,
                 log: Optional[Callable[[str], None]] = None, name: str = "draughts-web",
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.limits = limits
        self._serve = serve
        self._log = log
        self._name = name
        self._clock = clock
        self._lock = threading.Lock()
        self._ready: "queue.Queue[Optional[Connection]]" = queue.Queue()
        self._incoming: List[Connection] = []  # new or returned connections for the waiter
        self._waiting: Dict[Connection, None] = {}  # registered in the selector, oldest first
        self._open = 0
        self._streams = 0
        self._stopping = False
        self._selector = selectors.DefaultSelector()
        self._wake_read, self._wake_write = socket.socketpair()
        self._wake_read.setblocking(False)
        self._wake_write.setblocking(False)
        self._selector.register(self._wake_read, selectors.EVENT_READ, None)
        self.threads: List[threading.Thread] = []

    # ------------------------------------------------------------------ life

    def start(self) -> None:
        """Start the workers and the waiting thread."""
        for number in range(self.limits.workers):
            self._thread(self._work, f"{self._name}-worker-{number + 1}")
        self._thread(self._wait, f"{self._name}-waiting")

    def _thread(self, target: Callable[[], None], name: str) -> None:
        thread = threading.Thread(target=target, name=name, daemon=True)
        self.threads.append(thread)
        thread.start()

    def stop(self) -> None:
        """Close every waiting connection and let the threads end (a worker serving an event
        stream ends with the stream). Does not wait for a browser."""
        with self._lock:
            self._stopping = True
        if not self.threads:  # never started: nothing waits, nothing to end
            self._selector.close()
            self._wake_read.close()
            self._wake_write.close()
            return
        self._wake()
        for _ in range(self.limits.workers):
            self._ready.put(None)

    @property
    def open_connections(self) -> int:
        """Connections open now: waiting for a request, or being answered."""
        with self._lock:
            return self._open

    # ------------------------------------------------------------------ connections in

    def add(self, sock: socket.socket, address: Any) -> None:
        """A connection just accepted (called by the accepting thread)."""
        connection = Connection(sock, address)
        connection.deadline = self._clock() + self.limits.request_timeout
        with self._lock:
            self._open += 1
        self._hand_to_waiter(connection)

    def _hand_to_waiter(self, connection: Connection) -> None:
        with self._lock:
            stopping = self._stopping
            if not stopping:
                self._incoming.append(connection)
        if stopping:
            self._close(connection)
        else:
            self._wake()

    def _wake(self) -> None:
        try:
            self._wake_write.send(b"x")
        except OSError:
            pass  # the pipe is full (the waiter will look anyway) or closed (stopping)

    # ------------------------------------------------------------------ event streams

    def open_stream(self) -> bool:
        """Count one more event stream, if fewer than ``max_streams`` run (else False)."""
        with self._lock:
            if self._streams >= self.limits.max_streams:
                return False
            self._streams += 1
            return True

    def close_stream(self) -> None:
        with self._lock:
            self._streams -= 1

    # ------------------------------------------------------------------ the waiting thread

    def _wait(self) -> None:
        try:
            while not self._stopping:
                timeout = self._next_deadline() - self._clock()
                events = self._selector.select(max(0.0, min(timeout, 1.0)))
                for key, _ in events:
                    if key.data is None:
                        self._drain_wake()
                    else:
                        self._read(key.data)
                self._take_incoming()
                self._expire()
        except Exception as error:  # a bug: say so; connections then wait in vain
            if self._log is not None:
                self._log(f"connection waiter stopped: {type(error).__name__}: {error}")
        finally:
            for connection in list(self._waiting):
                self._unregister(connection)
                self._close(connection)
            with self._lock:
                incoming, self._incoming = self._incoming, []
            for connection in incoming:
                self._close(connection)
            self._close_ready()

    def _close_ready(self) -> None:
        """Close the connections no worker has taken (the workers are told to end by a None
        each, which stays in the queue). Only the waiting thread puts connections there, so
        once it has stopped, none comes after this."""
        ends = 0
        while True:
            try:
                connection = self._ready.get_nowait()
            except queue.Empty:
                break
            if connection is None:
                ends += 1
            else:
                self._close(connection)
        for _ in range(ends):
            self._ready.put(None)
            self._selector.close()
            self._wake_read.close()
            self._wake_write.close()

    def _drain_wake(self) -> None:
        try:
            while self._wake_read.recv(4096):
                pass
        except OSError:
            pass

    def _next_deadline(self) -> float:
        return min((c.deadline for c in self._waiting), default=self._clock() + 1.0)

    def _take_incoming(self) -> None:
        with self._lock:
            incoming, self._incoming = self._incoming, []
        for connection in incoming:
            if connection.head_ready():  # a pipelined request came with the last one
                self._ready.put(connection)
                continue
            try:
                connection.sock.setblocking(False)
                self._selector.register(connection.sock, selectors.EVENT_READ, connection)
            except (OSError, ValueError):
                self._close(connection)
                continue
            self._waiting[connection] = None
            self._make_room()

    def _make_room(self) -> None:
        """While too many connections are open, close the one that has waited longest for a
        request (the newest too, if all others are being answered)."""
        while self.open_connections > self.limits.max_connections and self._waiting:
            oldest = next(iter(self._waiting))
            self._unregister(oldest)
            self._close(oldest)

    def _read(self, connection: Connection) -> None:
        try:
            chunk = connection.sock.recv(65536)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            chunk = b""
        if not chunk:  # the client closed it (or reset it)
            self._unregister(connection)
            self._close(connection)
            return
        if not connection.buffer:
            connection.deadline = min(connection.deadline,
                                      self._clock() + self.limits.request_timeout)
        connection.buffer += chunk
        if connection.head_ready():
            self._unregister(connection)
            self._ready.put(connection)

    def _expire(self) -> None:
        now = self._clock()
        for connection in [c for c in self._waiting if c.deadline <= now]:
            self._unregister(connection)
            self._close(connection)

    def _unregister(self, connection: Connection) -> None:
        self._waiting.pop(connection, None)
        try:
            self._selector.unregister(connection.sock)
        except (KeyError, ValueError, OSError):
            pass

    def _close(self, connection: Connection) -> None:
        connection.close()
        with self._lock:
            self._open -= 1

    # ------------------------------------------------------------------ the workers

    def _work(self) -> None:
        while True:
            connection = self._ready.get()
            if connection is None:
                return
            keep = False
            try:
                connection.io_timeout = self.limits.request_timeout
                connection.read_by = time.monotonic() + self.limits.body_timeout
                connection.sock.settimeout(connection.io_timeout)
                keep = self._serve(connection)
            except (ConnectionError, socket.timeout):
                pass
            except Exception as error:  # a bug: one line, and the worker goes on
                if self._log is not None:
                    self._log(f"connection from {_host(connection.address)} failed: "
                              f"{type(error).__name__}: {error}")
            if keep and not self._stopping:
                connection.deadline = self._clock() + self.limits.keepalive_timeout
                self._hand_to_waiter(connection)
            else:
                self._close(connection)


def _host(address: Any) -> str:
    return str(address[0]) if isinstance(address, tuple) and address else str(address)

