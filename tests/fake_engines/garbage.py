"""A fake engine that breaks the protocol in one way, chosen by its argument.

* ``banner``: prints a banner line before the ``uci`` reply.
* ``info``: answers ``go`` with ``info depth three``.
* ``bestmove``: answers ``go`` with a bare ``bestmove``.
* ``bytes``: answers ``go`` with bytes that are not UTF-8, then a proper bestmove.

Otherwise it answers as :class:`broken_base.CannedEngine`.
"""

from __future__ import annotations

import sys
from typing import List, Optional

from broken_base import CannedEngine, serve


class Garbage(CannedEngine):
    name = "garbage-engine"

    def __init__(self, argv: List[str]) -> None:
        super().__init__(argv)
        self.mode = argv[1] if len(argv) > 1 else "banner"

    def on_uci(self, words: List[str]) -> Optional[int]:
        if self.mode == "banner":
            self.say("Garbage Engine 0.0 by nobody, have fun!")
        return super().on_uci(words)

    def on_go(self, words: List[str]) -> Optional[int]:
        if self.mode == "info":
            self.say("info depth three")
        elif self.mode == "bestmove":
            self.say("bestmove")
        else:
            sys.stdout.buffer.write(b"\xff\xfe junk \xc3\n")
            sys.stdout.buffer.flush()
        self.say("bestmove 11-15")
        return None


if __name__ == "__main__":
    serve(Garbage)
