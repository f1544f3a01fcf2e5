"""A fake engine whose ``info`` lines have their fields out of the contract's order."""

from __future__ import annotations

from typing import Optional

from broken_base import CannedEngine, serve


class BadInfo(CannedEngine):
    def finish(self) -> Optional[int]:
        self.say("info depth 2 score cp 12 seldepth 3 nodes 60 nps 6000 time 10 hashfull 1 "
                 "pv 11-15 23-19")
        self.say("bestmove 11-15 ponder 23-19")
        return None


if __name__ == "__main__":
    serve(BadInfo)
