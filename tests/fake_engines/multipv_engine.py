"""A fake engine that offers MultiPV and answers an infinite search with K lines per depth
(``info depth D multipv I score cp X pv ...``, best first), as the protocol's MultiPV does.
Its moves are legal in the English start position only."""

from __future__ import annotations

from typing import List, Optional

from broken_base import CannedEngine, serve

LINES = (("11-15", 30), ("9-14", 20), ("10-15", 10), ("12-16", 0), ("9-13", -10))


class MultiPvEngine(CannedEngine):
    name = "multipv-engine"

    def __init__(self, argv: List[str]) -> None:
        super().__init__(argv)
        self.multipv = 1

    def on_uci(self, words: List[str]) -> Optional[int]:
        self.say(f"id name {self.name}")
        self.say("option name MultiPV type spin default 1 min 1 max 500")
        self.say("uciok")
        return None

    def on_setoption(self, words: List[str]) -> Optional[int]:
        if words[1:3] == ["name", "MultiPV"] and len(words) == 5:
            self.multipv = int(words[4])
        return None

    def on_go(self, words: List[str]) -> Optional[int]:
        for depth in (1, 2):
            for index, (move, score) in enumerate(LINES[:self.multipv], 1):
                tag = f" multipv {index}" if self.multipv > 1 else ""
                self.say(f"info depth {depth}{tag} score cp {score} nodes 10 pv {move}")
        if "infinite" in words:
            self.pending = True
            return None
        return self.finish()

    def finish(self) -> Optional[int]:
        self.say("bestmove 11-15")
        return None


if __name__ == "__main__":
    serve(MultiPvEngine)
