"""A broken fake for checks 39-42: it offers MultiPV and Clear Hash but gets each wrong.

Its MultiPV lines come worst first (scores increasing) and repeat a first move, it ignores
``searchmoves`` (always 11-15), answers ``go mate`` with a centi-man score (and a move that does not win), and refuses the
Clear Hash button with an error. Its moves are legal in the English start position only.
"""

from __future__ import annotations

from typing import List, Optional

from broken_base import CannedEngine, serve


class BrokenAnalysis(CannedEngine):
    name = "broken-analysis"

    def __init__(self, argv: List[str]) -> None:
        super().__init__(argv)
        self.multipv = 1

    def on_uci(self, words: List[str]) -> Optional[int]:
        self.say(f"id name {self.name}")
        self.say("id protocol 1")
        self.say("option name MultiPV type spin default 1 min 1 max 500")
        self.say("option name Clear Hash type button")
        self.say("uciok")
        return None

    def on_setoption(self, words: List[str]) -> Optional[int]:
        if words[1:3] == ["name", "MultiPV"] and len(words) == 5:
            self.multipv = int(words[4])
        elif words[1:4] == ["name", "Clear", "Hash"]:
            self.say("error setoption: Clear Hash failed")
        return None

    def on_go(self, words: List[str]) -> Optional[int]:
        if self.multipv > 1:
            for index in range(1, self.multipv + 1):
                self.say(f"info depth 1 seldepth 1 multipv {index} score cp {index * 10} "
                         "nodes 8 nps 8000 time 1 hashfull 0 pv 11-15")
            self.say("bestmove 11-15")
            return None
        if "infinite" in words or "ponder" in words:
            return super().on_go(words)
        move = "15-10" if "mate" in words else "11-15"  # (15-10: legal in the mate position)
        self.say(f"info depth 1 seldepth 1 score cp 0 nodes 8 nps 8000 time 1 hashfull 0 pv {move}")
        self.say(f"bestmove {move}")
        return None


if __name__ == "__main__":
    serve(BrokenAnalysis)
