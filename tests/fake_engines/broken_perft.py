"""A fake engine whose ``perft`` of the English start position is wrong from depth 3 on
(it answers 301 where the published count is 302)."""

from __future__ import annotations

from typing import List, Optional

from broken_base import START_MOVES, CannedEngine, serve

PER_MOVE = {1: 1, 2: 7, 3: 43, 4: 210}


class BrokenPerft(CannedEngine):
    def on_perft(self, words: List[str]) -> Optional[int]:
        if len(words) != 2 or not words[1].isdigit() or int(words[1]) < 1:
            self.say(f"error perft: depth must be in 1..20, got {' '.join(words[1:])}")
            return None
        count = PER_MOVE.get(int(words[1]), 1)
        for move in START_MOVES:
            self.say(f"{move}: {count}")
        self.say(f"nodes {count * len(START_MOVES)}")
        return None


if __name__ == "__main__":
    serve(BrokenPerft)
