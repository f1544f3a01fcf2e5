"""The open boards of one server: a cap on how many, and closing the ones whose page is gone.

A page keeps its board alive by its event stream and by a request every few seconds
(the heartbeat). A board with no open stream and no request for ``idle_timeout`` seconds is
closed by :meth:`BoardRegistry.reap` (which a background thread calls), and so are all
boards when the server stops (:meth:`BoardRegistry.close_all`). Closing a board reaps its
engine processes.
"""
from __future__ import annotations

import secrets
import threading
import time
from typing import Callable, Dict, List, Optional

from .board import BoardSettings, WebBoard
from .engines import EngineBook

__all__ = ["BoardRegistry", "BoardLimitError", "UnknownBoardError"]


class BoardLimitError(Exception):
    """As many boards are open as the server allows."""


class UnknownBoardError(KeyError):
    """No open board has that id (never opened, closed, or timed out)."""


class BoardRegistry:
    """Open boards by id (random, unguessable), at most ``max_boards`` at once.

    ``clock`` is the time source for heartbeats (tests pass a fake one); ``log`` gets
    one-line notes about closed boards.
    """

    def __init__(self, engines: EngineBook, max_boards: int = 8, idle_timeout: float = 30.0,
                 clock: Callable[[], float] = time.monotonic,
                 log: Optional[Callable[[str], None]] = None) -> None:
        self.engines = engines
        self.max_boards = max_boards
        self.idle_timeout = idle_timeout
        self.clock = clock
        self.log = log
        self._lock = threading.Lock()
        self._boards: Dict[str, WebBoard] = {}
        self._reserved = 0
        self._closing = False
        self._stop_reaper = threading.Event()

    def __len__(self) -> int:
        with self._lock:
            return len(self._boards)

    def open(self, settings: BoardSettings) -> WebBoard:
        """A new board; raises :class:`BoardLimitError`, or the board's own errors for
        settings that cannot start a game."""
        with self._lock:
            if self._closing:
                raise BoardLimitError("the server is stopping")
            if len(self._boards) + self._reserved >= self.max_boards:
                raise BoardLimitError(f"{self.max_boards} boards are open already "
                                      "(close a page, or start the server with a larger "
                                      "--max-boards)")
            self._reserved += 1
        try:
            board_id = secrets.token_urlsafe(16)
            board = WebBoard(board_id, settings, self.engines, self.clock, self.log)
        finally:
            with self._lock:
                self._reserved -= 1
        with self._lock:
            if not self._closing:
                self._boards[board_id] = board
                return board
        board.close()
        raise BoardLimitError("the server is stopping")

    def get(self, board_id: str) -> WebBoard:
        """The open board ``board_id``; raises :class:`UnknownBoardError`."""
        with self._lock:
            board = self._boards.get(board_id)
        if board is None or board.closed:
            raise UnknownBoardError(board_id)
        return board

    def close(self, board_id: str) -> bool:
        """Close one board (its page went away); False if it was not open."""
        with self._lock:
            board = self._boards.pop(board_id, None)
        if board is None:
            return False
        board.close()
        return True

    def reap(self) -> List[str]:
        """Close the boards whose page has not been heard from for ``idle_timeout`` seconds
        and that have no open event stream; returns their ids."""
        now = self.clock()
        with self._lock:
            idle = [board for board in self._boards.values()
                    if board.streams <= 0 and now - board.last_seen > self.idle_timeout]
            for board in idle:
                del self._boards[board.id]
        for board in idle:
            board.close()
            if self.log is not None:
                self.log(f"board {board.id[:6]} closed: no heartbeat for "
                         f"{self.idle_timeout:g} s")
        return [board.id for board in idle]

    def close_all(self) -> None:
        """Close every board and refuse new ones (the server is stopping)."""
        self._stop_reaper.set()
        with self._lock:
            self._closing = True
            boards = list(self._boards.values())
            self._boards.clear()
        for board in boards:
            board.close()

    def start_reaper(self, interval: float = 2.0) -> threading.Thread:
        """Call :meth:`reap` every ``interval`` seconds on a daemon thread until
        :meth:`close_all`."""
        def loop() -> None:
            while not self._stop_reaper.wait(interval):
                try:
                    self.reap()
                except Exception as error:  # keep reaping whatever one board did
                    if self.log is not None:
                        self.log(f"reaper: {type(error).__name__}: {error}")

        thread = threading.Thread(target=loop, name="board-reaper", daemon=True)
        thread.start()
        return thread
