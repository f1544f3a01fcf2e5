"""A fake engine that answers ``go`` with an endless stream of ``info`` lines (no bestmove).

It behaves in the handshake (:class:`broken_base.CannedEngine`); once searching it writes
``info`` lines as fast as the pipe takes them until it is killed or its output closes.
"""

from __future__ import annotations

from typing import List, Optional

from broken_base import CannedEngine, serve


class InfoFlood(CannedEngine):
    name = "info-flood"

    def on_go(self, words: List[str]) -> Optional[int]:
        nodes = 0
        try:
            while True:
                nodes += 1
                self.say(f"info depth 1 score cp 0 nodes {nodes} pv 11-15")
        except (BrokenPipeError, OSError):
            return 0


if __name__ == "__main__":
    serve(InfoFlood)
