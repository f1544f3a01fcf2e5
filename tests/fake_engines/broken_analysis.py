"""A broken fake for checks 39-42: it offers MultiPV and Clear Hash but gets each wrong.

Its MultiPV lines come worst first (scores increasing) and repeat a first move, it ignores
``searchmoves`` (always 11-15), answers ``go mate`` with a centi-man score (and a move that does
not win), and refuses the Clear Hash button with an error. Its moves are legal in the English
start position only. The option handling is :class:`MultiPvEngine`'s.
"""

from __future__ import annotations

from typing import List, Optional

from broken_base import CannedEngine, serve
from multipv_engine import MultiPvEngine


class BrokenAnalysis(MultiPvEngine):
    name = "broken-analysis"

    def on_uci(self, words: List[str]) -> Optional[int]:
        self.say("option name Clear Hash type button")
        return super().on_uci(words)

    def on_setoption(self, words: List[str]) -> Optional[int]:
        if words[1:4] == ["name", "Clear", "Hash"]:
            self.say("error setoption: Clear Hash failed")
            return None
        return super().on_setoption(words)

    def on_go(self, words: List[str]) -> Optional[int]:
        if "infinite" in words or "ponder" in words:
            return CannedEngine.on_go(self, words)
        move = "15-10" if "mate" in words else "11-15"  # (15-10: legal in the mate position)
        for index in range(1, self.multipv + 1):
            tag = f" multipv {index}" if self.multipv > 1 else ""
            self.say(f"info depth 1 seldepth 1{tag} score cp {index * 10} nodes 8 nps 8000 "
                     f"time 1 hashfull 0 pv {move}")
        self.say(f"bestmove {move}")
        return None


if __name__ == "__main__":
    serve(BrokenAnalysis)
