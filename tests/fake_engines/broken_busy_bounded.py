"""A fake engine that answers ``error busy`` to commands sent during a bounded search
(``go movetime N`` runs for N ms on a timer) instead of letting them wait for its bestmove."""

from __future__ import annotations

import threading
import time
from typing import List, Optional

from broken_base import CannedEngine, serve


class BusyDuringBoundedSearch(CannedEngine):
    def __init__(self, argv: List[str]) -> None:
        super().__init__(argv)
        self.until = 0.0  # the end of the running bounded search (monotonic seconds)
        self.lock = threading.Lock()

    def on_go(self, words: List[str]) -> Optional[int]:
        if "movetime" in words:
            seconds = int(words[words.index("movetime") + 1]) / 1000
            self.until = time.monotonic() + seconds
            threading.Timer(seconds, self.finish).start()
            return None
        return super().on_go(words)

    def on_position(self, words: List[str]) -> Optional[int]:
        if time.monotonic() < self.until:
            self.say("error busy: position during search")
        return None

    def say(self, line: str) -> None:
        with self.lock:
            super().say(line)


if __name__ == "__main__":
    serve(BusyDuringBoundedSearch)
