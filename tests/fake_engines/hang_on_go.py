"""A fake engine that stops answering (and ignores SIGTERM) at a given command.

Usage: ``hang_on_go.py [uci|isready|go]`` (default ``go``). Until then it behaves (as
:class:`broken_base.CannedEngine`). Once hung it reads nothing more, so only SIGKILL ends it:
the client's reaping ladder must get that far.
"""

from __future__ import annotations

import signal
import time
from typing import Callable, List, Optional

from broken_base import CannedEngine, serve


class HangsAt(CannedEngine):
    name = "hanging-engine"

    def __init__(self, argv: List[str]) -> None:
        super().__init__(argv)
        self.hang_at = argv[1] if len(argv) > 1 else "go"
        if hasattr(signal, "SIGTERM"):
            signal.signal(signal.SIGTERM, signal.SIG_IGN)

    def handler(self, word: str) -> Callable[[List[str]], Optional[int]]:
        return self.hang if word == self.hang_at else super().handler(word)

    def hang(self, words: List[str]) -> Optional[int]:
        while True:
            time.sleep(3600)


if __name__ == "__main__":
    serve(HangsAt)
