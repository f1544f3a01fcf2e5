"""A fake engine that answers every search with a move of the wrong side (``21-17`` in the
English start position, where Black is to move)."""

from __future__ import annotations

from typing import Optional

from broken_base import CannedEngine, serve


class IllegalBestmove(CannedEngine):
    def finish(self) -> Optional[int]:
        self.say("info depth 1 seldepth 1 score cp 3 nodes 7 nps 7000 time 1 hashfull 0 pv 21-17")
        self.say("bestmove 21-17")
        return None


if __name__ == "__main__":
    serve(IllegalBestmove)
